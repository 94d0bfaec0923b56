// The options `ibrt sim` and `ibrt sweep` share; see sim_options.hpp.
#include "cli/sim_options.hpp"

#include "cli/engine_cli.hpp"
#include "cli/option_checks.hpp"

#include "engines/engine.hpp"
#include "engines/multipath/dfs_paths.hpp"
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "formats/input_file.hpp"
#include "formats/routing_files.hpp"
#include "sim/cc_config.hpp"
#include "sim/config_check.hpp"

#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>

namespace ibrt::cli {
namespace {

sim::Time ps_of(double ns, const char* what) {
    if (!(ns >= 0) || ns > 1e12) throw InputError(what, 0, fmt::format("bad time {}", ns));
    return sim::Time(std::llround(ns * 1000.0));
}

double ns_of(sim::Time ps) {
    return double(ps) / 1000.0;
}
double us_of(sim::Time ps) {
    return double(ps) / 1e6;
}

} // namespace

std::vector<sim::VlArbEntry> parse_vlarb(const std::string& s, const char* what) {
    // "vl:weight,vl:weight,..."
    std::vector<sim::VlArbEntry> out;
    // Digits only (std::stoi took "1x:2" for 1:2, " 1:+2" too), and no empty item (a
    // trailing comma is a missing entry, not nothing). "" is no table: the default.
    const auto number = [](std::string_view t) {
        int v = -1;
        if (t.empty() || t[0] == '-') return -1;
        const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        return ec == std::errc() && p == t.data() + t.size() ? v : -1;
    };
    std::string_view rest = s;
    while (!s.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string item(rest.substr(0, comma));
        const auto colon = item.find(':');
        int vl = -1, w = -1;
        if (colon != std::string::npos) {
            vl = number(std::string_view(item).substr(0, colon));
            w = number(std::string_view(item).substr(colon + 1));
        }
        if (vl < 0 || vl > 14 || w < 0 || w > 255)
            throw InputError(what, 0,
                             fmt::format("expected VL:WEIGHT (VL 0..14, weight 0..255), "
                                         "got '{}'",
                                         item));
        out.push_back({std::uint8_t(vl), std::uint8_t(w)});
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return out;
}

std::vector<double> parse_loads(const std::string& s, const char* what) {
    return parse_reals(what, s, 0, 1);
}

void add_sim_options(CLI::App& sub, SimOptions& o) {
    const char* t = kSimOptionGroups[0].data();
    sub.add_option("--pattern", o.pattern, "One of: " + sim::pattern_names())
        ->default_val("uniform")
        ->group(t);
    sub.add_option("--injection", o.injection, "bernoulli or constant")
        ->default_val("bernoulli")
        ->group(t);
    sub.add_option("--hot-fraction", o.hot_fraction,
                   "hotspot: share sent to the hot node; hot-flows: share a source with pairs "
                   "sends to them in the hot window")
        ->default_val(0.1)
        ->check(real_in(0, 1))
        ->group(t);
    sub.add_option("--hot-node", o.hot_node,
                   "hotspot (and pairs with a hot window): the hot node's endpoint index (end "
                   "ports in fabric order: the CA index where every CA has one port)")
        ->default_val(0)
        ->check(whole_in(0, kMax<std::uint32_t>))
        ->group(t);
    sub.add_option("--hot-start-us", o.hot_start_us,
                   "hotspot: the hot spot starts at this time; before it the traffic is uniform "
                   "(pairs: the pairs to --hot-node are idle before it; hot-flows: the sources "
                   "send to their pairs from it)")
        ->default_val(0)
        ->check(real_in(0, kMaxSimUs))
        ->group(t);
    sub.add_option("--hot-end-us", o.hot_end_us,
                   "hotspot: the hot spot ends at this time; after it the traffic is uniform "
                   "(pairs: the pairs to --hot-node are idle after it; hot-flows: uniform again "
                   "after it; default: never)")
        ->check(real_in(0, kMaxSimUs))
        ->group(t);
    sub.add_option("--shift", o.shift, "rotation: destination = source + shift (default N/2)")
        ->check(whole_in(1, kMax<std::int32_t>))
        ->group(t);
    sub.add_option("--group-hosts", o.group_hosts,
                   "bad-dragon: G, the hosts per group (a Dragonfly's switches per group x hosts "
                   "per switch); host s sends to a random host of group s / G + 1")
        ->check(whole_in(1, kMax<std::int32_t>))
        ->group(t);
    sub.add_option("--host-order", o.host_order,
                   "Which end node a pattern's host index names: natural (Fabric order: by "
                   "switch, the host's port last), port-major (the host's index on its switch "
                   "first, then the switch) or random (a bijection from --seed); uniform, "
                   "hotspot, pairs and hot-flows do not depend on it")
        ->default_val("natural")
        ->group(t);
    sub.add_option("--pairs-file", o.pairs_file,
                   "pairs: the flows, one 'SOURCE DESTINATION' pair of CA indices per line; a "
                   "source cycles through its pairs (a pair (s, s) is an idle slot); hot-flows: "
                   "the hot flows of a link hot spot, over uniform traffic (a source cycles "
                   "through its pairs with --hot-fraction of its messages in the hot window)")
        ->check(input_file())
        ->group(t);
    sub.add_option("--packet-bytes", o.packet_bytes, "Packet size")
        ->default_val(256)
        ->check(whole_in(1, 65535))
        ->group(t);
    sub.add_option("--message-bytes", o.message_bytes,
                   "Message size, split into packets (default one packet)")
        ->check(whole_in(0, kMaxSimSize))
        ->group(t);
    sub.add_option("--dlid", o.dlid,
                   "DLID choice: auto (the path selection if given, else random over the LMC "
                   "LIDs), table (path selection, else base LID), base, random")
        ->default_val("auto")
        ->group(t);
    sub.add_option("--sl", o.sl, "SL: path (routing's path SL) or spread (uniform over VLs)")
        ->default_val("path")
        ->group(t);

    const char* m = kSimOptionGroups[1].data();
    const char* sel = kSimOptionGroups[2].data();
    const char* tm = kSimOptionGroups[3].data();
    sub.add_option("--selection", o.selection,
                   "Selection function of the extended switch, used when the routing has "
                   "forwarding sets (--tables, or an engine's adaptive_up=true): " +
                       sim::selection_names())
        ->default_val("mc")
        ->group(sel);
    sub.add_flag("--one-priority-class", o.one_priority_class,
                 "Selection takes every candidate of a forwarding set as one priority class, "
                 "non-minimal routes as readily as minimal ones (default: the best class with "
                 "room first, paper 003 §3.1)")
        ->group(sel);
    sub.add_flag("--room-ignores-bound", o.room_ignores_bound,
                 "Selection's room test reads the downstream credits alone, blind to the "
                 "packets already bound to the output and not yet sent (default: counts them, "
                 "so a busy link looks full)")
        ->group(sel);
    sub.add_option("--select-at", o.select_at,
                   "When the oblivious selections (oblivious, anca, ugal) choose: head (when the "
                   "packet reaches the head of its input buffer), entry (when it enters the "
                   "buffer after its routing delay) or sent (when the upstream port sends it, "
                   "from the next switch's state: BookSim's lookahead routing); the choice is "
                   "kept while the packet queues")
        ->default_val("head")
        ->group(sel);
    sub.add_option("--via", o.via,
                   "Paths through an intermediate host on a Dragonfly, as BookSim's: valiant "
                   "(every packet leaving its group through a random one) or ugal (UGAL-L: through "
                   "it when the minimal output's queue is over twice the other's + 30 credits); "
                   "the LFTs give every hop, the path's phase its VL: on 3 VLs BookSim's (which "
                   "can deadlock), on 4 or more a dateline per phase; none: the routing's own "
                   "paths")
        ->default_val("none")
        ->group(sel);
    sub.add_flag("--vc-router", o.vc_router,
                 "Model a VC router as BookSim does, for comparisons: an output VC is held by one "
                 "packet until its tail has left the downstream buffer, and each hop takes a "
                 "free VC within its SL2VL class's share of the VCs (default: the IB switch, "
                 "credits per VL shared by all packets)")
        ->group(m);
    sub.add_option("--vc-release", o.vc_release,
                   "With --vc-router, when an output VC is free again: drained (its packet's "
                   "tail has left the downstream buffer; BookSim wait_for_tail_credit=1) or sent "
                   "(the tail is sent and the VC has credits; BookSim's default)")
        ->default_val("drained")
        ->group(m);
    sub.add_option("--vc-alloc-gap-ns", o.vc_alloc_gap_ns,
                   "With --vc-router, BookSim's allocation turnaround: time between the end of a "
                   "packet's transmission and the start of the next one on the same input VC "
                   "and on the same output VC ((vc_alloc_delay + sw_alloc_delay - 1) cycles "
                   "without speculation; default 0: none)")
        ->default_val(0)
        ->check(real_in(0, kMaxSimNs))
        ->group(m);
    sub.add_flag("--vc-input-first", o.vc_input_first,
                 "With --vc-router, BookSim's separable input-first switch allocator: each input "
                 "requests one output at a time, round robin over the outputs its heads want, "
                 "moving on only when granted (default: each free output takes the next input "
                 "with a head for it)")
        ->group(m);
    sub.add_option("--buffer-bytes", o.buffer_bytes, "Input buffer per VL per port")
        ->default_val(1024)
        ->check(whole_in(1, kMaxSimSize))
        ->group(m);
    sub.add_option("--output-buffer-bytes", o.output_buffer_bytes,
                   "Output buffer per VL per switch port (0 = none: the crossbar feeds the link); "
                   "with --vc-router, per class: paper 004's switch, whose link takes the first "
                   "VC with room")
        ->default_val(0)
        ->check(whole_in(0, kMaxSimSize))
        ->group(m);
    sub.add_option("--source-queue", o.source_queue,
                   "Packets a source queue holds; messages beyond are offered but throttled "
                   "(0 = unbounded)")
        ->default_val(256)
        ->check(whole_in(0, kMaxSimSize))
        ->group(t);
    sub.add_option("--credit-unit", o.credit_unit, "Bytes per flow-control credit")
        ->default_val(64)
        ->check(whole_in(1, 65535))
        ->group(m);
    sub.add_option("--fly-ns", o.fly_ns, "Link propagation time")
        ->default_val(20)
        ->check(real_in(0, kMaxSimNs))
        ->group(tm);
    sub.add_option("--routing-ns", o.routing_ns, "Switch routing/lookup delay")
        ->default_val(100)
        ->check(real_in(0, kMaxSimNs))
        ->group(tm);
    sub.add_option("--ns-per-byte", o.ns_per_byte,
                   "Serialization time per byte on every link (default: width x speed)")
        ->check(real_in(0, kMaxSimNsPerByte))
        ->group(tm);
    sub.add_option("--credit-delay-ns", o.credit_delay_ns,
                   "Credit return time (default: the fly time)")
        ->check(real_in(0, kMaxSimNs))
        ->group(tm);
    sub.add_option("--speedup", o.speedup, "Packets an input port feeds at once")
        ->default_val(1)
        ->check(whole_in(1, 255))
        ->group(m);
    sub.add_option("--vlarb-high", o.vlarb_high, "High-priority VLArb table VL:W,VL:W,...")
        ->group(m);
    sub.add_option("--vlarb-low", o.vlarb_low,
                   "Low-priority VLArb table (default every VL weight 1)")
        ->group(m);
    sub.add_option("--vlarb-high-limit", o.vlarb_limit,
                   "LimitOfHighPriority, 4 KB units (255 = unlimited)")
        ->check(whole_in(0, 255))
        ->group(m);

    const char* w = kSimOptionGroups[4].data();
    sub.add_option("--warmup-us", o.warmup_us, "Warm-up")
        ->default_val(10)
        ->check(real_in(0, kMaxSimUs))
        ->group(w);
    sub.add_option("--measure-us", o.measure_us, "Measurement window")
        ->default_val(50)
        ->check(real_above(0, kMaxSimUs))
        ->group(w);
    sub.add_option("--ci-target", o.ci_target,
                   "Stop rule: run again with the window doubled until the 95 % confidence "
                   "intervals of the accepted fraction and of the mean latency are within this "
                   "fraction of their means (e.g. 0.02), or say it did not converge; 0 = one run")
        ->default_val(0)
        ->check(real_in(0, 1))
        ->group(w);
    sub.add_option("--max-measure-us", o.max_measure_us,
                   "Longest window --ci-target doubles to (default 32 x --measure-us)")
        ->check(real_in(0, kMaxSimUs))
        ->group(w);
    sub.add_option("--drain-us", o.drain_us, "Longest drain after the window")
        ->default_val(50)
        ->check(real_in(0, kMaxSimUs))
        ->group(w);
    sub.add_option("--deadlock-us", o.deadlock_us,
                   "No hop for this long with packets inside = deadlock (default 100 packet "
                   "times; at least 2 x (serialization + fly + routing + credit delay))")
        ->check(real_in(0, kMaxSimUs))
        ->group(w);
    sub.add_option("--seed", o.seed, "Random seed")
        ->default_val(1)
        ->check(whole_in(0, kMax<std::uint64_t>))
        ->group(w);
    sub.add_flag("--saturation", o.saturation,
                 "Find the saturation load by bisection instead of running the given loads")
        ->group(w);
    sub.add_option("--saturation-max", o.saturation_max, "Upper load of the search")
        ->default_val(1.0)
        ->check(real_above(0, 1))
        ->group(w);
    sub.add_option("--saturation-steps", o.saturation_steps, "Bisection steps")
        ->default_val(7)
        ->check(whole_in(1, 30))
        ->group(w);
    sub.add_option("--saturation-tolerance", o.saturation_tolerance,
                   "Saturated when accepted < (1 - tolerance) x offered")
        ->default_val(0.05)
        ->check(real_in(0, 0.5))
        ->group(w);

    const char* cc = kSimOptionGroups[5].data();
    sub.add_option("--opensm-conf", o.opensm_conf,
                   "Simulate IBA congestion control as this opensm.conf configures it "
                   "(congestion_control TRUE and the cc_* options of opensm 3.3.23)")
        ->check(input_file())
        ->group(cc);
    sub.add_option("--cc-option", o.cc_options,
                   "An opensm.conf congestion-control line, e.g. 'cc_sw_cong_setting_threshold "
                   "15', applied after --opensm-conf (repeatable; alone it starts from opensm's "
                   "defaults)")
        ->group(cc);
    sub.add_option("--cc-becn-delay-ns", o.cc_becn_delay_ns,
                   "Idealised notifications: a BECN reaches the source this long after the "
                   "marked packet arrived, without a packet (default 0: a BECN packet on the "
                   "reverse path)")
        ->default_val(0)
        ->check(real_in(0, kMaxSimNs))
        ->group(cc);
    sub.add_option("--cc-becn-bytes", o.cc_becn_bytes, "Size of a BECN packet")
        ->default_val(34)
        ->check(whole_in(1, 65535))
        ->group(cc);
    sub.add_option("--cc-injection-delay", o.cc_injection_delay,
                   "on: sources throttle by the CCT's injection rate delay (IBA CC); off: "
                   "switches mark and destinations return BECNs, but no source throttles "
                   "(paper 002's DRB alone: --drb --cc-injection-delay off)")
        ->default_val("on")
        ->check(CLI::IsMember({"on", "off"}))
        ->group(cc);
    auto* d = "DRB (paper 002 §4)";
    sub.add_flag("--drb", o.drb,
                 "Dynamic Routing Balancing: each source spreads a congested flow over its "
                 "destination's LIDs as BECNs arrive (needs congestion control on; with "
                 "--cc-injection-delay off, DRB alone)")
        ->group(d);
    sub.add_option("--drb-max-paths", o.drb_max_paths,
                   "Most paths a flow opens, the original one included (paper: 4)")
        ->default_val(4)
        ->check(whole_in(1, sim::kDrbMaxPaths))
        ->group(d);
    sub.add_option("--drb-notifications-per-path", o.drb_notifications,
                   "BECNs of a flow that open its next path (paper: 10)")
        ->default_val(10)
        ->check(whole_in(1, 1000000))
        ->group(d);
    sub.add_option("--drb-timer-us", o.drb_timer_us,
                   "Constriction timer: each expiry without a BECN closes the newest open path "
                   "(paper: 100 us; 0 = never)")
        ->default_val(100)
        ->check(real_in(0, kMaxSimUs))
        ->group(d);
    sub.add_option("--drb-paths", o.drb_paths,
                   "Where the alternative paths come from: lmc (the destination's LIDs as the "
                   "routing gives them) or dfs (extra LIDs routed on link-disjoint paths found "
                   "by DFS, shortest first, deadlock-free by VL layers; may need more --vls; "
                   "without --drb it still adds them, e.g. for --dlid random over them)")
        ->default_val("lmc")
        ->check(CLI::IsMember({"lmc", "dfs"}))
        ->group(d);
    sub.add_flag("--flow-stats", o.flow_stats,
                 "Report every (source, destination) pair's offered and accepted traffic and the "
                 "BECNs its source received (\"flows\" in the JSON; memory and output grow with "
                 "the pairs that send)")
        ->group(cc);
}

sim::SimConfig make_sim_config(const SimOptions& a) {
    sim::SimConfig c;
    c.fly_ps = ps_of(a.fly_ns, "--fly-ns");
    c.routing_ps = ps_of(a.routing_ns, "--routing-ns");
    c.ps_per_byte = ps_of(a.ns_per_byte, "--ns-per-byte");
    if (a.ns_per_byte > 0 && c.ps_per_byte == 0)
        throw InputError("--ns-per-byte", 0, "below the 1 ps resolution");
    if (a.credit_delay_ns >= 0) c.credit_delay_ps = ps_of(a.credit_delay_ns, "--credit-delay-ns");
    c.buffer_bytes = a.buffer_bytes;
    c.source_queue_packets = a.source_queue;
    c.output_buffer_bytes = a.output_buffer_bytes;
    c.credit_unit = a.credit_unit;
    if (a.speedup < 1 || a.speedup > 255) throw InputError("--speedup", 0, "must be 1..255");
    c.speedup = std::uint8_t(a.speedup);
    c.vc_router = a.vc_router;
    c.one_priority_class = a.one_priority_class;
    c.room_ignores_bound = a.room_ignores_bound;
    if (a.vc_release == "drained")
        c.vc_release = sim::SimConfig::VcRelease::Drained;
    else if (a.vc_release == "sent")
        c.vc_release = sim::SimConfig::VcRelease::Sent;
    else
        throw InputError("--vc-release", 0,
                         fmt::format("expected drained or sent, got '{}'", a.vc_release));
    c.vc_alloc_gap_ps = ps_of(a.vc_alloc_gap_ns, "--vc-alloc-gap-ns");
    if (c.vc_alloc_gap_ps && !c.vc_router)
        throw InputError("--vc-alloc-gap-ns", 0, "applies only with --vc-router");
    c.vc_input_first = a.vc_input_first;
    if (c.vc_input_first && !c.vc_router)
        throw InputError("--vc-input-first", 0, "applies only with --vc-router");
    if (!a.vlarb_high.empty()) c.vlarb.high = parse_vlarb(a.vlarb_high, "--vlarb-high");
    if (!a.vlarb_low.empty()) c.vlarb.low = parse_vlarb(a.vlarb_low, "--vlarb-low");
    if (a.vlarb_limit < 0 || a.vlarb_limit > 255)
        throw InputError("--vlarb-high-limit", 0, "must be 0..255");
    c.vlarb.high_limit = std::uint8_t(a.vlarb_limit);

    if (!a.opensm_conf.empty() || !a.cc_options.empty()) {
        std::vector<std::string> warnings;
        sim::CcConfig cc;
        if (!a.opensm_conf.empty()) cc = sim::read_cc_config(a.opensm_conf, &warnings);
        for (const std::string& line : a.cc_options)
            cc = sim::read_cc_config_text(line, "--cc-option", &warnings, std::move(cc));
        for (const std::string& w : warnings) fmt::print(stderr, "ibrt: warning: {}\n", w);
        for (const std::string& n : sim::cc_config_notes(cc))
            fmt::print(stderr, "ibrt: congestion control: {}\n", n);
        c.cc.on = cc.congestion_control;
        c.cc.settings = std::move(cc);
    }
    c.cc.becn_delay_ps = ps_of(a.cc_becn_delay_ns, "--cc-becn-delay-ns");
    c.cc.becn_bytes = a.cc_becn_bytes;
    if (a.cc_injection_delay != "on" && a.cc_injection_delay != "off")
        throw InputError("--cc-injection-delay", 0,
                         fmt::format("expected on or off, got '{}'", a.cc_injection_delay));
    c.cc.throttle = a.cc_injection_delay == "on";
    c.drb.on = a.drb;
    c.drb.max_paths = a.drb_max_paths;
    c.drb.notifications_per_path = a.drb_notifications;
    c.drb.timer_ps = ps_of(a.drb_timer_us * 1000, "--drb-timer-us");
    if (a.drb && !c.cc.on)
        throw InputError("--drb", 0,
                         "DRB needs congestion control's FECN marking and BECNs: give "
                         "--opensm-conf (or --cc-option lines) with congestion_control TRUE; for "
                         "DRB alone add --cc-injection-delay off");
    if (a.drb_paths != "lmc" && a.drb_paths != "dfs")
        throw InputError("--drb-paths", 0,
                         fmt::format("expected lmc or dfs, got '{}'", a.drb_paths));
    c.flow_stats = a.flow_stats;

    const auto p = sim::parse_pattern(a.pattern);
    if (!p)
        throw InputError(
            "--pattern", 0,
            fmt::format("unknown pattern '{}' (known: {})", a.pattern, sim::pattern_names()));
    c.traffic.pattern = *p;
    const bool takes_pairs = sim::reads_pairs(c.traffic.pattern);
    if (takes_pairs && a.pairs_file.empty())
        throw InputError("--pairs-file", 0,
                         fmt::format("--pattern {} needs --pairs-file", a.pattern));
    if (!takes_pairs && !a.pairs_file.empty())
        throw InputError("--pairs-file", 0,
                         fmt::format("--pattern {} reads no pairs (--pairs-file is for "
                                     "--pattern pairs and hot-flows)",
                                     a.pattern));
    if (!a.pairs_file.empty())
        c.traffic.pairs = sim::read_pairs(
            read_input_file(a.pairs_file, kMaxTopologyBytes, "pairs file"), a.pairs_file);
    const auto inj = sim::parse_injection(a.injection);
    if (!inj)
        throw InputError("--injection", 0,
                         fmt::format("unknown injection '{}' (bernoulli, constant)", a.injection));
    c.traffic.injection = *inj;
    c.traffic.hot_fraction = a.hot_fraction;
    c.traffic.hot_node = a.hot_node;
    c.traffic.hot_start_ps = ps_of(a.hot_start_us * 1000, "--hot-start-us");
    if (a.hot_end_us >= 0) {
        c.traffic.hot_end_ps = ps_of(a.hot_end_us * 1000, "--hot-end-us");
        if (c.traffic.hot_end_ps <= c.traffic.hot_start_ps)
            throw InputError("--hot-end-us", 0, "the hot spot must end after it starts");
    }
    if (a.shift >= 0) c.traffic.shift = std::uint32_t(a.shift);
    c.traffic.group_hosts = a.group_hosts;
    const auto order = sim::parse_host_order(a.host_order);
    if (!order)
        throw InputError("--host-order", 0,
                         fmt::format("unknown host order '{}' (known: {})", a.host_order,
                                     sim::host_order_names()));
    c.traffic.host_order = *order;
    c.packet_bytes = a.packet_bytes;
    c.message_bytes = a.message_bytes;
    if (a.dlid == "auto")
        c.dlid = sim::DlidPolicy::Auto;
    else if (a.dlid == "table")
        c.dlid = sim::DlidPolicy::Table;
    else if (a.dlid == "base")
        c.dlid = sim::DlidPolicy::Base;
    else if (a.dlid == "random")
        c.dlid = sim::DlidPolicy::Random;
    else
        throw InputError("--dlid", 0,
                         fmt::format("expected auto, table, base or random, got '{}'", a.dlid));
    if (a.sl == "path")
        c.sl = sim::SlPolicy::Path;
    else if (a.sl == "spread")
        c.sl = sim::SlPolicy::Spread;
    else
        throw InputError("--sl", 0, fmt::format("expected path or spread, got '{}'", a.sl));
    const auto sel = sim::parse_selection(a.selection);
    if (!sel)
        throw InputError("--selection", 0,
                         fmt::format("unknown selection function '{}' (known: {})", a.selection,
                                     sim::selection_names()));
    c.selection = *sel;
    const auto via = sim::parse_via(a.via);
    if (!via)
        throw InputError("--via", 0,
                         fmt::format("expected none, valiant or ugal, got '{}'", a.via));
    c.via = *via;
    if (a.select_at == "head")
        c.select_at = sim::SimConfig::SelectAt::Head;
    else if (a.select_at == "entry")
        c.select_at = sim::SimConfig::SelectAt::Entry;
    else if (a.select_at == "sent")
        c.select_at = sim::SimConfig::SelectAt::Sent;
    else
        throw InputError("--select-at", 0,
                         fmt::format("expected head, entry or sent, got '{}'", a.select_at));
    if (c.select_at != sim::SimConfig::SelectAt::Head && !sim::is_oblivious(c.selection))
        throw InputError(
            "--select-at", 0,
            "entry and sent apply only to the oblivious selections (oblivious, anca, ugal)");
    c.warmup_ps = ps_of(a.warmup_us * 1000, "--warmup-us");
    c.measure_ps = ps_of(a.measure_us * 1000, "--measure-us");
    c.drain_ps = ps_of(a.drain_us * 1000, "--drain-us");
    c.ci_target = a.ci_target;
    c.max_measure_ps = ps_of(a.max_measure_us * 1000, "--max-measure-us");
    if (c.max_measure_ps && c.max_measure_ps < c.measure_ps)
        throw InputError("--max-measure-us", 0, "shorter than --measure-us");
    c.deadlock_ps = ps_of(a.deadlock_us * 1000, "--deadlock-us");
    c.seed = a.seed;
    c.traffic.load = 0;
    return c;
}

void check_sim_config(const sim::SimConfig& c) {
    try {
        sim::check_config(c);
    } catch (const std::invalid_argument& e) {
        throw InputError("options", 0, e.what());
    }
}

void add_routing_options(CLI::App& sub, RoutingOptions& o) {
    sub.add_option("--lfts", o.lfts,
                   "LFTs: opensm-lfts.dump, opensm.fdbs or ibroute/dump_fts output");
    add_engine_cli(sub, o.engine);
    sub.add_option("--guid2lid", o.guid2lid,
                   "LIDs from opensm's guid2lid (default: the topology's `lid` comments)");
    sub.add_option("--sl2vl", o.sl2vl, "SL2VL tables: opensm-sl2vl.dump");
    sub.add_option("--path-sl", o.path_sl,
                   "Path SLs (ibdmchk -c format, written by `ibrt route`) for --sl path; replaces "
                   "an engine's");
    sub.add_option("--path-selection", o.path_selection,
                   "DLID per source/destination (written by `ibrt route`)");
    sub.add_option("--tables", o.tables,
                   "Forwarding sets of the extended switch: candidate ports per (switch, input "
                   "VL, input port, DLID) and VL2VL (written by `ibrt route`; format in "
                   "docs/sim-model.md)");
}

Routing load_sim_routing(const Fabric& f, const std::string& fabric_path, const RoutingOptions& o,
                         const std::string& engine) {
    const RoutingFiles files{fabric_path,      o.lfts,    o.guid2lid, o.sl2vl,
                             o.path_selection, o.path_sl, o.tables};
    Routing r;
    if (engine.empty()) {
        r = load_routing_files(f, files);
    } else {
        const auto e = make_engine_or_throw(engine);
        const EngineOptions opt = engine_options(*e, o.engine, 1);
        std::optional<Lids> pre;
        if (!o.guid2lid.empty()) pre = bind_guid2lid(read_guid2lid_file(o.guid2lid), f, o.guid2lid);
        r = e->route(f, pre ? &*pre : nullptr, opt);
        load_routing_extras(f, files, r);
    }
    // A packet needs its SL to find its VL; a guess would move every result.
    if (r.path_sls.has_unknown())
        throw InputError(o.path_sl, 0,
                         "a partial path-SL file (`ibrt sa-path-sls --sample/--pairs/"
                         "--to-end-ports`): the simulator needs the SL of every path");
    return r;
}

void apply_drb_paths(const Fabric& f, const SimOptions& o, Routing& r, unsigned vls,
                     const char* who) {
    if (o.drb_paths == "lmc") {
        if (!o.drb) return;
        if (sim::max_ca_lmc(f, r) == 0)
            fmt::print(stderr,
                       "{}: DRB: every CA has one LID, so DRB has no alternative path (route "
                       "with an LMC, or --drb-paths dfs)\n",
                       who);
        return;
    }
    if (o.drb_max_paths < 2) return;
    DfsPathsOptions opt;
    opt.paths = o.drb_max_paths;
    try {
        r = add_dfs_paths(f, r, opt);
    } catch (const std::invalid_argument& e) {
        throw InputError("--drb-paths", 0, e.what());
    }
    double layers = 0, paths = 0, disjoint = 0;
    for (const auto& [k, v] : r.stats) {
        if (k == "dfs_layers") layers = v;
        if (k == "dfs_pair_paths") paths = v;
        if (k == "dfs_pair_paths_disjoint") disjoint = v;
    }
    fmt::print(stderr,
               "{}: DRB: DFS paths: LMC {}, {:.0f} of {:.0f} extra paths link-disjoint from the "
               "pair's others, {:.0f} extra VL layer(s), {} data VLs needed\n",
               who, r.lmc, disjoint, paths, layers, r.data_vls);
    if (vls > 0 && vls < r.data_vls)
        throw InputError("--vls", 0,
                         fmt::format("the DFS paths keep free of credit loops on {} data VLs; "
                                     "run with --vls {}",
                                     r.data_vls, r.data_vls));
}

nlohmann::ordered_json sim_config_json(const sim::SimConfig& c, const sim::SimResult& ran) {
    using J = nlohmann::ordered_json;
    const auto table = [](const std::vector<sim::VlArbEntry>& t) {
        J a = J::array();
        for (const auto& e : t) a.push_back({{"vl", e.vl}, {"weight", e.weight}});
        return a;
    };
    const sim::VlArbConfig arb = sim::effective_vlarb(c);
    J j = {{"pattern", sim::to_string(c.traffic.pattern)},
           {"injection", sim::to_string(c.traffic.injection)},
           {"packet_bytes", c.packet_bytes},
           {"message_bytes", c.message_bytes ? c.message_bytes : c.packet_bytes},
           {"buffer_bytes", c.buffer_bytes},
           {"source_queue_packets", c.source_queue_packets},
           {"output_buffer_bytes", c.output_buffer_bytes},
           {"credit_unit", c.credit_unit},
           {"vls", c.num_vls},
           {"speedup", c.speedup},
           {"fly_ns", ns_of(c.fly_ps)},
           {"routing_ns", ns_of(c.routing_ps)},
           {"ns_per_byte", ns_of(c.ps_per_byte)},
           {"dlid", sim::to_string(ran.dlid)},
           {"sl", c.sl == sim::SlPolicy::Path ? "path" : "spread"},
           {"warmup_us", us_of(c.warmup_ps)},
           {"measure_us", us_of(c.measure_ps)},
           {"drain_us", us_of(c.drain_ps)},
           {"seed", c.seed},
           {"hot_fraction", c.traffic.hot_fraction},
           {"hot_node", c.traffic.hot_node},
           {"shift", c.traffic.pattern == sim::Pattern::Rotation
                         ? J(c.traffic.shift.value_or(std::uint32_t(ran.endpoints.size() / 2)))
                         : J()},
           {"credit_delay_ns", ns_of(ran.credit_delay_ps)},
           {"vlarb",
            {{"high", table(arb.high)}, {"low", table(arb.low)}, {"high_limit", arb.high_limit}}},
           {"deadlock_us", us_of(ran.deadlock_period_ps)},
           {"latency_samples", c.latency_samples},
           {"max_hops", c.max_hops}};
    if (ran.forwarding_sets) j["selection"] = sim::to_string(c.selection);
    if (c.via != sim::Via::None) j["via"] = sim::to_string(c.via);
    if (ran.forwarding_sets && c.one_priority_class) j["one_priority_class"] = true;
    if (ran.forwarding_sets && c.room_ignores_bound) j["room_ignores_bound"] = true;
    if (ran.forwarding_sets && c.select_at != sim::SimConfig::SelectAt::Head)
        j["select_at"] = c.select_at == sim::SimConfig::SelectAt::Entry ? "entry" : "sent";
    // Only when not the default, so that the default's output is what it was before the option.
    if (c.traffic.host_order != sim::HostOrder::Natural)
        j["host_order"] = sim::to_string(c.traffic.host_order);
    if (sim::reads_pairs(c.traffic.pattern)) j["pairs"] = c.traffic.pairs.size();
    if (c.traffic.pattern == sim::Pattern::BadDragon) j["group_hosts"] = c.traffic.group_hosts;
    const bool windowed = c.traffic.hot_start_ps > 0 || c.traffic.hot_end_ps != ~std::uint64_t(0);
    // The hot window of the hotspot pattern, of the pairs to the hot node, or of the hot flows.
    if (sim::has_hot_window(c.traffic.pattern) && windowed) {
        j["hot_start_us"] = us_of(c.traffic.hot_start_ps);
        if (c.traffic.hot_end_ps != ~std::uint64_t(0))
            j["hot_end_us"] = us_of(c.traffic.hot_end_ps);
    }
    if (c.vc_router) {
        j["vc_router"] = true;
        j["vc_release"] = c.vc_release == sim::SimConfig::VcRelease::Drained ? "drained" : "sent";
        if (c.vc_alloc_gap_ps) j["vc_alloc_gap_ns"] = ns_of(c.vc_alloc_gap_ps);
        if (c.vc_input_first) j["vc_input_first"] = true;
    }
    if (c.ci_target > 0) { // each run says the window it ended with
        j["ci_target"] = c.ci_target;
        j["max_measure_us"] = us_of(c.max_measure_ps ? c.max_measure_ps : 32 * c.measure_ps);
    }
    if (c.cc.on) {
        const sim::CcConfig& s = c.cc.settings;
        J sls = J::array();
        for (unsigned sl = 0; sl < 16; ++sl) {
            const sim::CaCongEntry& e = s.ca_entries[sl];
            if (!(s.ca_control_map >> sl & 1u)) continue;
            sls.push_back({{"sl", sl},
                           {"ccti_timer", e.ccti_timer},
                           {"ccti_increase", e.ccti_increase},
                           {"trigger_threshold", e.trigger_threshold},
                           {"ccti_min", e.ccti_min}});
        }
        J cct = J::array();
        for (const auto& e : s.cct) cct.push_back({e.shift, e.multiplier});
        const auto mask = [](const std::array<std::uint8_t, 32>& m) {
            std::string t = "0x";
            for (std::uint8_t b : m) t += fmt::format("{:02X}", b);
            return t;
        };
        j["congestion_control"] = {{"sw_control_map", s.sw_control_map},
                                   {"threshold", s.threshold},
                                   {"packet_size", s.packet_size},
                                   {"marking_rate", s.marking_rate},
                                   {"victim_mask", mask(s.victim_mask)},
                                   {"ca_port_control", s.ca_port_control},
                                   {"ca_control_map", s.ca_control_map},
                                   {"ca_entries", sls},
                                   {"cct", cct},
                                   {"becn", c.cc.becn_delay_ps
                                                ? J{{"delay_ns", ns_of(c.cc.becn_delay_ps)}}
                                                : J{{"packet_bytes", c.cc.becn_bytes}}}};
        if (!c.cc.throttle) j["congestion_control"]["injection_delay"] = false;
    }
    if (c.drb.on)
        j["drb"] = {{"max_paths", c.drb.max_paths},
                    {"notifications_per_path", c.drb.notifications_per_path},
                    {"timer_us", us_of(c.drb.timer_ps)}};
    return j;
}

} // namespace ibrt::cli
