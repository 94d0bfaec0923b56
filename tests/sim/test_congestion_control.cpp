// IBA congestion control (issue 16; IBA annex A10; paper 002 §3-4): the opensm.conf reader,
// and the mechanism in the simulator — FECN marking at switches, BECNs back to the source,
// CCTI and the CCT's injection delay at the source, per-destination source flows.
#include "engines/engine.hpp"
#include "fabric/input_error.hpp"
#include "generators/fat_tree.hpp"
#include "sim/cc_config.hpp"
#include "sim/simulator.hpp"
#include "sim_fixtures.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

constexpr Time ns = kPsPerNs;

std::string error_of(const std::string& text) {
    try {
        read_cc_config_text(text, "osm.conf");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("cc config: opensm's defaults, and every option read as opensm 3.3.23 reads it") {
    const CcConfig d = read_cc_config_text("", "x");
    CHECK_FALSE(d.congestion_control);
    CHECK(d.max_outstanding_mads == 500);
    CHECK(d.cc_key == 0);
    CHECK(d.cct.empty());
    CHECK(d == CcConfig{});

    std::vector<std::string> warnings;
    const CcConfig c =
        read_cc_config_text("# opensm.conf\n"
                            "routing_engine minhop   # not ours: skipped\n"
                            "congestion_control TRUE\n"
                            "cc_key 0x0102030405060708\n"
                            "cc_max_outstanding_mads 100\n"
                            "cc_sw_cong_setting_control_map 0x1F\n"
                            "cc_sw_cong_setting_victim_mask "
                            "0x0000000000000000000000000000000000000000000000000000000000000006\n"
                            "cc_sw_cong_setting_credit_mask 0x1\n"
                            "cc_sw_cong_setting_threshold 0x0C\n"
                            "cc_sw_cong_setting_packet_size 8\n"
                            "cc_sw_cong_setting_credit_starvation_threshold 3\n"
                            "cc_sw_cong_setting_credit_starvation_return_delay 1:100\n"
                            "cc_sw_cong_setting_marking_rate 10\n"
                            "cc_ca_cong_setting_port_control 0x0001\n"
                            "cc_ca_cong_setting_control_map 0x0003\n"
                            "cc_ca_cong_setting_ccti_timer 0 150\n"
                            "cc_ca_cong_setting_ccti_increase 0 1\n"
                            "cc_ca_cong_setting_trigger_threshold 0 5\n"
                            "cc_ca_cong_setting_ccti_min 0 2\n"
                            "cc_ca_cong_setting_ccti_timer 1\t200\n"
                            "\tcc_cct \"0:0, 0:1,,1:3,3:16383\"  \n",
                            "osm.conf", &warnings);
    CHECK(warnings.empty());
    CHECK(c.congestion_control);
    CHECK(c.cc_key == 0x0102030405060708ull);
    CHECK(c.max_outstanding_mads == 100);
    CHECK(c.sw_control_map == 0x1f);
    // Bit p of the 256-bit mask is port p.
    CHECK_FALSE(CcConfig::mask_bit(c.victim_mask, 0));
    CHECK(CcConfig::mask_bit(c.victim_mask, 1));
    CHECK(CcConfig::mask_bit(c.victim_mask, 2));
    CHECK_FALSE(CcConfig::mask_bit(c.victim_mask, 3));
    CHECK(CcConfig::mask_bit(c.credit_mask, 0));
    CHECK(c.threshold == 12);
    CHECK(c.packet_size == 8);
    CHECK(c.cs_threshold == 3);
    CHECK(c.cs_return_delay == CctEntry{1, 100});
    CHECK(c.marking_rate == 10);
    CHECK(c.per_sl());
    CHECK(c.ca_control_map == 3);
    CHECK(c.ca_entries[0] == CaCongEntry{150, 1, 5, 2});
    CHECK(c.ca_entries[1] == CaCongEntry{200, 0, 0, 0});
    CHECK(c.ca_entries[2] == CaCongEntry{});
    REQUIRE(c.cct.size() == 4); // the empty item between commas is skipped, as strtok does
    CHECK(c.cct[1] == CctEntry{0, 1});
    CHECK(c.cct[2] == CctEntry{1, 3});
    CHECK(c.cct[3] == CctEntry{3, 16383});

    // Written in opensm's format, it reads back the same.
    CHECK(read_cc_config_text(write_cc_config(c), "w") == c);
    CHECK(read_cc_config_text(write_cc_config(d), "w") == d);
    // The last occurrence wins; "(null)" is opensm's empty CCT.
    CHECK(read_cc_config_text("cc_cct 0:1\ncc_cct (null)\n", "x").cct.empty());
    CHECK(read_cc_config_text("cc_sw_cong_setting_threshold 3\ncc_sw_cong_setting_threshold 9", "x")
              .threshold == 9);
    // A later text applies on top of an earlier one (--cc-option after --opensm-conf).
    const CcConfig more = read_cc_config_text("cc_sw_cong_setting_marking_rate 3", "o", nullptr, c);
    CHECK(more.marking_rate == 3);
    CHECK(more.threshold == 12);
}

TEST_CASE("cc config: what opensm would misread is refused with file:line, the dubious warned") {
    CHECK(error_of("cc_sw_cong_setting_threshold abc") ==
          "osm.conf:1: cc_sw_cong_setting_threshold: 'abc' is not a number");
    CHECK(error_of("\n\ncc_sw_cong_setting_threshold 256") ==
          "osm.conf:3: cc_sw_cong_setting_threshold: '256' is out of range 0..255");
    CHECK(error_of("cc_sw_cong_setting_marking_rate 65536").find("out of range 0..65535") !=
          std::string::npos);
    CHECK(error_of("cc_sw_cong_setting_packet_size -1") ==
          "osm.conf:1: cc_sw_cong_setting_packet_size: '-1' is not a number");
    CHECK(error_of("cc_sw_cong_setting_packet_size 09").find("octal") != std::string::npos);
    CHECK(error_of("cc_sw_cong_setting_marking_rate") ==
          "osm.conf:1: cc_sw_cong_setting_marking_rate: a number is missing");
    CHECK(error_of("cc_sw_cong_setting_victim_mask 0xZZ") ==
          "osm.conf:1: cc_sw_cong_setting_victim_mask: '0xZZ' is not a hex mask");
    CHECK(error_of("cc_sw_cong_setting_victim_mask 0x" + std::string(65, 'F'))
              .find("65 hex digits") != std::string::npos);
    CHECK(error_of("cc_cct 0:1,2") == "osm.conf:1: cc_cct: CCT entry '2' is not shift:multiplier");
    CHECK(error_of("cc_cct 4:1") == "osm.conf:1: cc_cct: '4' is out of range 0..3");
    CHECK(error_of("cc_cct 0:16384") == "osm.conf:1: cc_cct: '16384' is out of range 0..16383");
    std::string long_cct = "cc_cct 0:0";
    for (int i = 1; i < 128; ++i) long_cct += ",3:16383";
    CHECK(error_of(long_cct).find("opensm reads 1021") != std::string::npos);
    std::string cct129 = "cc_cct 0:0";
    for (int i = 1; i < 129; ++i) cct129 += ",0:1";
    CHECK(error_of(cct129) ==
          "osm.conf:1: cc_cct: more than 128 entries (opensm ignores the rest)");
    CHECK(error_of("cc_ca_cong_setting_ccti_timer 16 5") ==
          "osm.conf:1: cc_ca_cong_setting_ccti_timer: '16' is out of range 0..15");
    CHECK(error_of("cc_ca_cong_setting_ccti_increase 3") ==
          "osm.conf:1: cc_ca_cong_setting_ccti_increase: expected an SL and a value, got '3'");
    CHECK(error_of("cc_ca_cong_setting_ccti_min 3 4 5") ==
          "osm.conf:1: cc_ca_cong_setting_ccti_min: '4 5' is not a number");
    CHECK(error_of("cc_ca_cong_setting_ccti_increase 0 256").find("out of range 0..255") !=
          std::string::npos);

    std::vector<std::string> w;
    const CcConfig c = read_cc_config_text("congestion_control true\n"
                                           "cc_sw_cong_setting_threshold 0x1F\n"
                                           "cc_sw_cong_setting_packet_size 010\n"
                                           "cc_sw_cong_settings_threshold 3\n",
                                           "osm.conf", &w);
    CHECK_FALSE(c.congestion_control); // opensm takes only TRUE
    CHECK(c.packet_size == 8);         // octal, as strtoul base 0
    REQUIRE(w.size() == 4);
    CHECK(w[0] == "osm.conf:1: congestion_control 'true': opensm takes only TRUE as true, so "
                  "this is FALSE");
    CHECK(w[1].starts_with("osm.conf:2: cc_sw_cong_setting_threshold 31 is above 15"));
    CHECK(w[2].starts_with("osm.conf:3: cc_sw_cong_setting_packet_size: '010' is octal (8)"));
    CHECK(w[3].starts_with("osm.conf:4: unknown option 'cc_sw_cong_settings_threshold'"));

    // Settings that leave CC doing nothing are said.
    CHECK(cc_config_notes(CcConfig{}).size() == 1);
    CcConfig on;
    on.congestion_control = true;
    const auto notes = cc_config_notes(on);
    CHECK(notes.size() == 3); // no threshold, no SL, no CCT delay

    // Credit starvation is read but not simulated, and said so exactly when a switch would
    // take a setting of it (control map bit 1: the credit mask; bit 3: CS_Threshold and
    // CS_ReturnDelay).
    const auto starvation = [](const CcConfig& cfg) {
        std::vector<std::string> out;
        for (const std::string& n : cc_config_notes(cfg))
            if (n.starts_with("credit starvation")) out.push_back(n);
        return out;
    };
    const CcConfig cs = read_cc_config_text("congestion_control TRUE\n"
                                            "cc_sw_cong_setting_control_map 0x1f\n"
                                            "cc_sw_cong_setting_credit_mask 0x6\n"
                                            "cc_sw_cong_setting_credit_starvation_threshold 4\n"
                                            "cc_sw_cong_setting_credit_starvation_return_delay "
                                            "1:100\n",
                                            "osm.conf");
    CHECK(CcConfig::mask_bit(cs.credit_mask, 1));
    CHECK(cs.cs_threshold == 4);
    CHECK(cs.cs_return_delay == CctEntry{1, 100});
    REQUIRE(starvation(cs).size() == 1);
    CHECK(starvation(cs)[0] ==
          "credit starvation (cc_sw_cong_setting_credit_mask, "
          "cc_sw_cong_setting_credit_starvation_threshold and _return_delay) is read but not "
          "simulated: IBA annex A10, which defines what a switch does with it, is not public and "
          "no public source describes it, so these switches run without credit starvation");
    CcConfig mask_only = cs;
    mask_only.sw_control_map = 0x17; // the credit mask, not CS_Threshold / CS_ReturnDelay
    REQUIRE(starvation(mask_only).size() == 1);
    CHECK(starvation(mask_only)[0].starts_with(
        "credit starvation (cc_sw_cong_setting_credit_mask) is read but not simulated"));
    CcConfig threshold_only = cs;
    threshold_only.sw_control_map = 0x1d;
    REQUIRE(starvation(threshold_only).size() == 1);
    CHECK(starvation(threshold_only)[0].starts_with(
        "credit starvation (cc_sw_cong_setting_credit_starvation_threshold and _return_delay)"));
    CcConfig not_taken = cs;
    not_taken.sw_control_map = 0x15; // the switches keep the reset values: nothing to say
    CHECK(starvation(not_taken).empty());
    CcConfig zero = cs; // taken, but all zero (opensm's defaults): credit starvation off
    zero.credit_mask = {};
    zero.cs_threshold = 0x10; // the switch gets the low 4 bits: 0
    zero.cs_return_delay = {};
    CHECK(starvation(zero).empty());
}

namespace {

struct Stream {
    std::uint32_t src, dst;
    Time gap_ps; // a packet every gap_ps
};

// Every message of a run: each stream from time 0 to `until_ps`.
std::vector<TraceMessage> streams(const std::vector<Stream>& list, Time until_ps) {
    std::vector<TraceMessage> t;
    for (const Stream& x : list)
        for (Time at = 0; at < until_ps; at += x.gap_ps) t.push_back({at, x.src, x.dst});
    std::stable_sort(t.begin(), t.end(),
                     [](const TraceMessage& a, const TraceMessage& b) { return a.time < b.time; });
    return t;
}

// 256-byte packets at 1 ns/byte (a packet time is 256 ns), 1 KB buffers: four packets.
SimConfig base_config() {
    SimConfig c;
    c.ps_per_byte = 1000;
    c.packet_bytes = 256;
    c.buffer_bytes = 1024;
    c.warmup_ps = 50'000 * ns;
    c.measure_ps = 200'000 * ns;
    c.drain_ps = 20'000 * ns;
    c.flow_stats = true;
    return c;
}

const FlowStat* flow(const SimResult& r, std::uint32_t src, std::uint32_t dst) {
    for (const auto& f : r.flows)
        if (f.src == src && f.dst == dst) return &f;
    throw std::logic_error("no flow " + std::to_string(src) + " -> " + std::to_string(dst));
}

constexpr Time kPacket = 256 * ns;

// The hot spot of two_switches(4) (h0..h3 on S0, h4..h7 on S1): h0, h1 (across the S0-S1
// cable) and h5, h6 (on S1) send to h4 at full rate; the victim h3 -> h7 offers a third of a
// link on the cable the hot flows from h0 and h1 cross, and never needs the congested output
// S1 -> h4.
std::vector<TraceMessage> hot_spot_traffic(const SimConfig& c) {
    return streams(
        {{0, 4, kPacket}, {1, 4, kPacket}, {5, 4, kPacket}, {6, 4, kPacket}, {3, 7, 3 * kPacket}},
        c.warmup_ps + c.measure_ps);
}

SimResult hot_spot(bool cc, std::uint64_t seed = 1, bool victim_mask = false) {
    auto x = test::two_switches(4);
    SimConfig c = base_config();
    c.seed = seed;
    c.trace = hot_spot_traffic(c);
    c.cc.on = cc;
    c.cc.settings = test::marking_cc();
    if (victim_mask) CcConfig::set_mask_bit(c.cc.settings.victim_mask, 5); // S0's port to S1
    return simulate(x.f, x.r, c);
}

} // namespace

TEST_CASE("cc: a hot spot throttles its sources and the victim flow recovers") {
    const SimResult off = hot_spot(false), on = hot_spot(true);
    REQUIRE_FALSE(failed(off));
    REQUIRE_FALSE(failed(on));
    const FlowStat* v_off = flow(off, 3, 7);
    const FlowStat* v_on = flow(on, 3, 7);
    REQUIRE(v_off);
    REQUIRE(v_on);
    // Without CC the victim's packets wait behind hot-spot packets in S1's input buffer from
    // S0 (head-of-line blocking), which drains at a third of the hot link (measured 0.166 of
    // the 0.333 it offers).
    CHECK(v_off->accepted_fraction < 0.2);
    // With CC the hot sources are throttled, S1's input buffer from S0 backs up less, and the
    // victim gets half as much again (measured 0.260) while the hot link stays busy.
    CHECK(v_on->accepted_fraction > v_off->accepted_fraction + 0.06);
    CHECK(v_on->accepted_fraction > 0.23);
    double hot = 0, hot_off = 0;
    for (std::uint32_t s : {0u, 1u, 5u, 6u}) {
        hot += flow(on, s, 4)->accepted_fraction;
        hot_off += flow(off, s, 4)->accepted_fraction;
    }
    CHECK(hot > 0.9);
    CHECK(hot_off > 0.95);
    CHECK(on.cc);
    CHECK(on.cc_stats.fecn_marked > 0);
    CHECK(on.cc_stats.becn_received > 0);
    // Only the root (S1 -> h4) marks: the victim's source never hears of congestion, and the
    // victim port S0 -> S1 marks only once the victim mask has it.
    CHECK(v_on->becns == 0);
    CHECK(flow(on, 0, 4)->becns > 0);
    CHECK(flow(on, 5, 4)->becns > 0);
    const SimResult masked = hot_spot(true, 1, true);
    CHECK(flow(masked, 3, 7)->becns > 0);

    SECTION("packets and notifications are each conserved") {
        for (const SimResult* r : {&off, &on, &masked}) {
            CHECK(r->generated == r->delivered + r->dropped + r->in_flight);
            const CcStats& s = r->cc_stats;
            CHECK(s.becn_sent == s.becn_received + s.becn_dropped + s.becn_in_flight);
        }
        CHECK(on.cc_stats.becn_sent == on.cc_stats.fecn_marked); // each marked packet, one BECN
        CHECK(on.cc_stats.becn_hops >= 2 * on.cc_stats.becn_received); // CA -> S -> (S ->) CA
        CHECK(off.cc_stats.becn_sent == 0);
    }
    SECTION("the same seed gives the same run, with CC on") {
        const SimResult again = hot_spot(true);
        CHECK(again.events == on.events);
        CHECK(again.hops == on.hops);
        CHECK(again.cc_stats.fecn_marked == on.cc_stats.fecn_marked);
        CHECK(again.cc_stats.becn_received == on.cc_stats.becn_received);
        CHECK(again.latency_mean_ns == on.latency_mean_ns);
        REQUIRE(again.flows.size() == on.flows.size());
        for (std::size_t i = 0; i < on.flows.size(); ++i)
            CHECK(again.flows[i].accepted_fraction == on.flows[i].accepted_fraction);
    }
}

TEST_CASE("cc: idealised notifications act like packets without using the reverse path") {
    auto x = test::two_switches(4);
    SimConfig c = base_config();
    c.trace = hot_spot_traffic(c);
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    c.cc.becn_delay_ps = 500 * ns;
    const SimResult r = simulate(x.f, x.r, c);
    REQUIRE_FALSE(failed(r));
    CHECK(r.cc_stats.becn_received > 0);
    CHECK(r.cc_stats.becn_hops == 0);
    CHECK(r.cc_stats.becn_sent == r.cc_stats.becn_received + r.cc_stats.becn_in_flight);
    CHECK(flow(r, 3, 7)->accepted_fraction > 0.2);
}

TEST_CASE("cc: FECN only on a congested port, at the marking rate, not on small packets") {
    // two_switches(2): h0 and h1 both send to h2 at full rate; the S0 -> S1 cable is the root.
    // With ccti_increase 0 nothing is throttled and BECNs travel the other direction, so the
    // data traffic is the same whatever the marking settings: E eligible packets, of which a
    // marking rate r marks ceil(E / (r + 1)).
    auto x = test::two_switches(2);
    SimConfig c = base_config();
    c.trace = streams({{0, 2, kPacket}, {1, 2, kPacket}}, c.warmup_ps + c.measure_ps);
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    c.cc.settings.ca_entries[0].ccti_increase = 0;
    const SimResult r0 = simulate(x.f, x.r, c);
    const std::uint64_t E = r0.cc_stats.fecn_marked;
    CHECK(E > 100);
    for (std::uint16_t rate : {1, 3, 10}) {
        c.cc.settings.marking_rate = rate;
        const SimResult r = simulate(x.f, x.r, c);
        CHECK(r.cc_stats.fecn_marked == (E + rate) / (rate + 1));
        CHECK(r.delivered == r0.delivered);
    }
    c.cc.settings.marking_rate = 0;
    // Packet_Size is in 64-byte credits: 256-byte packets are eligible at 4, not at 5.
    c.cc.settings.packet_size = 4;
    CHECK(simulate(x.f, x.r, c).cc_stats.fecn_marked == E);
    c.cc.settings.packet_size = 5;
    CHECK(simulate(x.f, x.r, c).cc_stats.fecn_marked == 0);
    c.cc.settings.packet_size = 0;
    // Threshold 0, or a control map without bit 2: no marking.
    c.cc.settings.threshold = 0;
    CHECK(simulate(x.f, x.r, c).cc_stats.fecn_marked == 0);
    c.cc.settings.threshold = 15;
    c.cc.settings.sw_control_map = 0x1b;
    CHECK(simulate(x.f, x.r, c).cc_stats.fecn_marked == 0);
    c.cc.settings.sw_control_map = 0x1f;
    // One flow alone never congests its path (equal link rates): nothing marked even at 15.
    c.trace = streams({{0, 2, kPacket}}, c.warmup_ps + c.measure_ps);
    const SimResult one = simulate(x.f, x.r, c);
    CHECK(one.cc_stats.fecn_marked == 0);
    CHECK(flow(one, 0, 2)->accepted_fraction == Approx(1.0).margin(0.01));
}

TEST_CASE("cc: the injection rate follows the CCT entry, CCTI rises by ccti_increase per BECN") {
    auto x = test::two_switches(2);
    SimConfig c = base_config();
    c.trace = streams({{0, 2, kPacket}}, c.warmup_ps + c.measure_ps);
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    // CCTI_Min holds the CCTI at an entry: the flow sends at B / (1 + multiplier / 2^shift).
    c.cc.settings.cct[3] = {0, 1}; // IRD 1: half rate
    c.cc.settings.cct[5] = {2, 3}; // IRD 3/4: rate 4/7
    for (const auto& [min, rate] : {std::pair{3, 0.5}, std::pair{5, 4.0 / 7.0}}) {
        c.cc.settings.ca_entries[0].ccti_min = std::uint8_t(min);
        const SimResult r = simulate(x.f, x.r, c);
        CHECK(flow(r, 0, 2)->accepted_fraction == Approx(rate).margin(0.005));
    }
    // An SL outside the control map is not controlled: full rate.
    c.cc.settings.ca_control_map = 2;
    CHECK(flow(simulate(x.f, x.r, c), 0, 2)->accepted_fraction == Approx(1.0).margin(0.01));

    // Two flows into h2 congest S0 -> S1. With a timer too long to expire within the run,
    // each flow's CCTI is CCTI_Min + increase x its BECNs, up to CCTI_Limit (63).
    c.cc.settings = test::marking_cc();
    c.cc.settings.ca_entries[0].ccti_timer = 0xffff;
    c.cc.settings.ca_entries[0].ccti_increase = 2;
    c.cc.settings.marking_rate = 50;
    c.trace = streams({{0, 2, kPacket}, {1, 2, kPacket}}, c.warmup_ps + c.measure_ps);
    const SimResult r = simulate(x.f, x.r, c);
    const std::uint64_t most = std::max(flow(r, 0, 2)->becns, flow(r, 1, 2)->becns);
    CHECK(most > 0);
    CHECK(r.cc_stats.peak_ccti == std::min<std::uint64_t>(63, 2 * most));
}

TEST_CASE("cc: per-destination source flows do not block each other") {
    // two_switches(3): h0 sends to h3 (congested: h4 and h5 on S1 send there too) and to h1
    // (on its own switch, free), a message each in turn. Without CC, h0's packets for h3 wait
    // in its one source FIFO and in S0's input buffer behind the backed-up cable, and those
    // for h1 behind them. With CC and per-QP control the flow to h3 is throttled at the
    // source and the one to h1 goes on.
    auto x = test::two_switches(3);
    SimConfig c = base_config();
    std::vector<TraceMessage> t;
    for (Time at = 0; at < c.warmup_ps + c.measure_ps; at += 256 * ns) {
        t.push_back({at, 0, 3});
        t.push_back({at, 0, 1});
        t.push_back({at, 4, 3});
        t.push_back({at, 5, 3});
    }
    c.trace = t;
    c.source_queue_packets = 64;
    const SimResult off = simulate(x.f, x.r, c);
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    const SimResult on = simulate(x.f, x.r, c);
    REQUIRE_FALSE(failed(on));
    CHECK(flow(on, 0, 1)->becns == 0);
    CHECK(flow(on, 0, 3)->becns > 0);
    CHECK(flow(on, 0, 1)->accepted_fraction > flow(off, 0, 1)->accepted_fraction + 0.1);
    // Flows exist only while they have packets or CCTI state: a handful, not N^2.
    CHECK(on.cc_stats.peak_flows <= 4);
}

TEST_CASE("cc: the CCTI decays by one per timer expiry, down to CCTI_Min") {
    // h0 -> h2 for the whole run; h1 -> h2 only for the first 30 us, which congests S0 -> S1
    // and drives h0's CCTI up (at most to CCTI_Limit, 63). Once h1 stops, h0's CCTI falls by
    // one every ccti_timer: with a timer of 1.024 us it is back at CCTI_Min within 64.5 us.
    // (Short source queues, so that h1's throttled backlog does not prolong the hot phase.)
    auto x = test::two_switches(2);
    SimConfig c = base_config();
    c.source_queue_packets = 4;
    const Time hot_end = 30'000 * ns;
    c.warmup_ps = hot_end + 66'000 * ns;
    c.measure_ps = 100'000 * ns;
    std::vector<TraceMessage> t = streams({{0, 2, kPacket}}, c.warmup_ps + c.measure_ps);
    for (const TraceMessage& m : streams({{1, 2, kPacket}}, hot_end)) t.push_back(m);
    std::stable_sort(t.begin(), t.end(),
                     [](const TraceMessage& a, const TraceMessage& b) { return a.time < b.time; });
    c.trace = t;
    c.cc.on = true;
    c.cc.settings = test::marking_cc();
    c.cc.settings.ca_entries[0].ccti_timer = 1;
    c.cc.settings.ca_entries[0].ccti_increase = 8;
    const SimResult decayed = simulate(x.f, x.r, c);
    CHECK(decayed.cc_stats.peak_ccti > 8);
    CHECK(flow(decayed, 0, 2)->accepted_fraction == Approx(1.0).margin(0.01));
    // CCTI_Min 3 with entry 3 an IRD of one packet time: it settles at exactly half rate.
    c.cc.settings.ca_entries[0].ccti_min = 3;
    c.cc.settings.cct[3] = {0, 1};
    CHECK(flow(simulate(x.f, x.r, c), 0, 2)->accepted_fraction == Approx(0.5).margin(0.005));
    // A timer that does not expire within the run keeps h0 throttled.
    c.cc.settings.ca_entries[0].ccti_min = 0;
    c.cc.settings.ca_entries[0].ccti_timer = 0xffff;
    CHECK(flow(simulate(x.f, x.r, c), 0, 2)->accepted_fraction < 0.5);
}

TEST_CASE("cc: generated traffic with CC on is a function of --seed") {
    // FT(4,3) under mlid, 10 % of the traffic to one hot node at 0.8 load, random DLIDs over
    // the LMC LIDs and both kinds of control.
    const Fabric f = gen::fat_tree(4, 3);
    const Routing rt = make_engine("mlid")->route(f, nullptr, {});
    for (bool per_sl : {false, true}) {
        SimConfig c = base_config();
        c.warmup_ps = 10'000 * ns;
        c.measure_ps = 50'000 * ns;
        c.traffic.pattern = Pattern::Hotspot;
        c.traffic.hot_fraction = 0.5;
        c.traffic.load = 0.8;
        c.dlid = DlidPolicy::Random;
        c.cc.on = true;
        c.cc.settings = test::marking_cc();
        c.cc.settings.ca_port_control = per_sl ? 1 : 0;
        c.seed = 5;
        const SimResult a = simulate(f, rt, c), b = simulate(f, rt, c);
        c.seed = 6;
        const SimResult other = simulate(f, rt, c);
        REQUIRE_FALSE(failed(a));
        CHECK(a.cc_stats.fecn_marked > 0);
        CHECK(a.events == b.events);
        CHECK(a.hops == b.hops);
        CHECK(a.latency_mean_ns == b.latency_mean_ns);
        CHECK(a.cc_stats.becn_received == b.cc_stats.becn_received);
        CHECK(a.cc_stats.peak_ccti == b.cc_stats.peak_ccti);
        CHECK(a.flows.size() == b.flows.size());
        CHECK(other.events != a.events);
        CHECK(a.generated == a.delivered + a.dropped + a.in_flight);
    }
}

TEST_CASE("cc config: opensm 3.3.23's own opensm.conf reads as opensm read it") {
    // `opensm -c FILE` wrote its defaults; `opensm -F cc-input.conf -c FILE` read our input
    // and wrote what it understood. Every other option of the files is skipped.
    const std::string dir = IBRT_SOURCE_DIR "/fuzz/corpus/fuzz_cc_config/";
    std::vector<std::string> w;
    CHECK(read_cc_config(dir + "opensm-3.3.23-c-defaults.conf", &w) == CcConfig{});
    CHECK(w.empty());
    const CcConfig in = read_cc_config(dir + "cc-input.conf");
    const CcConfig back = read_cc_config(dir + "opensm-3.3.23-c-from-cc-input.conf");
    CHECK(in == back);
    CHECK(in.congestion_control);
    CHECK(in.cc_key == 0x1234);
    CHECK(in.ca_entries[3] == CaCongEntry{32, 0, 0, 2});
    CHECK(in.cs_return_delay == CctEntry{2, 77});
    CHECK(in.cct.size() == 25);
}
