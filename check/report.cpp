// Running the checks and rendering text and JUnit; JSON is in report_json.cpp.
#include "check/report.hpp"

#include "check/endpoints.hpp"
#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/xml_escape.hpp"

#include <fmt/format.h>

#include <bit>
#include <ostream>

namespace ibrt::check {

CheckReport run_checks(const Fabric& f, const Routing& r, const CheckOptions& opt) {
    CheckReport rep;
    rep.strict = opt.strict;
    rep.max_examples = opt.max_examples;
    rep.switches = f.switches().size();
    rep.cas = f.cas().size();
    rep.endpoints = collect_endpoints(f, r.lids).ports.size();
    for (PortId p : all_end_ports(f)) // every cabled CA port is an end port once it has a LID
        if (!r.lids.has_lid(p)) rep.ports_without_lid.push_back(p);
    rep.path_sls_known = !opt.deadlock || opt.path_sls_known || !sl2vl_depends_on_sl(r);
    if (r.sl2vl.empty() && !r.path_sls.empty()) // SL 0 everywhere is VL 0 in any case
        rep.deadlock_assumptions.push_back(
            "no SL2VL tables: SL s is taken to VL s (identity), as switches keep it when opensm "
            "runs without QoS and as ibdmchk assumes without -d");
    if (!opt.path_sls_known && r.sl2vl.empty())
        rep.deadlock_assumptions.push_back(
            "no path SLs: every path is taken on SL 0, as opensm's single-SL engines (minhop, "
            "updn, ftree, dor) give without a QoS policy; a credit loop found so is real only "
            "if the paths share an SL (dfsssp, lash, nue, torus-2QoS: give --path-sl), and no "
            "credit loop so means none for any SLs");
    for (std::uint32_t lid = 1; lid <= r.lids.max_lid(); ++lid)
        rep.lids += r.lids.owner(static_cast<Lid>(lid)) != kNoPort;

    auto phase = [&](const std::string& name) -> std::function<void(double)> {
        if (!opt.progress) return {};
        return [&opt, name](double x) { opt.progress(name, x); };
    };
    ForwardingOptions fo;
    fo.max_examples = opt.max_examples;
    fo.progress = phase("reachability");
    rep.forwarding = check_forwarding(f, r, fo);
    if (opt.deadlock && rep.path_sls_known) {
        rep.deadlock = check_credit_loops(f, r, phase("deadlock"));
        rep.deadlock_checked = true;
    }
    if (r.forwarding_sets) {
        rep.forwarding_sets =
            check_forwarding_sets(f, r, opt.max_examples, phase("forwarding sets"));
        rep.forwarding_sets_checked = true;
    }
    if (opt.balance) {
        TrafficPattern a2a;
        rep.balance.push_back(check_balance(f, r, a2a, opt.dlid_use, phase("balance all-to-all")));
        if (opt.pattern.kind != TrafficPattern::Kind::AllToAll)
            rep.balance.push_back(check_balance(f, r, opt.pattern, opt.dlid_use,
                                                phase("balance " + opt.pattern.name())));
    }
    return rep;
}

bool forwarding_sets_ok(const ForwardingSetsReport& x) {
    return x.destinations > 0 && x.stuck == 0 && x.misrouted == 0 && x.livelocks == 0 &&
           x.deadlock.loops.empty();
}

namespace {

std::string source_text(const Fabric& f, PortId src) {
    return display_port(f, f.port_node(src), f.port_num(src));
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

} // namespace

std::vector<CheckVerdict> verdicts(const Fabric& f, const CheckReport& rep) {
    std::vector<CheckVerdict> v;
    {
        const auto& re = rep.forwarding.reach;
        const auto& nolid = rep.ports_without_lid;
        CheckVerdict c{"reachability", re.failures() == 0 && nolid.empty() && re.pairs > 0, {}, {}};
        if (re.pairs == 0) {
            c.summary = "examined nothing: no (source port, DLID) pair to walk (does any end "
                        "port have a LID?)";
        } else if (re.failures() == 0) {
            c.summary = fmt::format("{} (source port, DLID) pairs over {}: all reach their "
                                    "destination",
                                    re.pairs, plural(re.dlids, "DLID", "DLIDs"));
        } else {
            std::string kinds;
            for (int k = 1; k < kNumWalkOutcomes; ++k)
                if (re.by_outcome[k])
                    kinds +=
                        fmt::format("{}{} {}", kinds.empty() ? "" : ", ",
                                    outcome_key(static_cast<WalkOutcome>(k)), re.by_outcome[k]);
            c.summary =
                fmt::format("{} of {} (source port, DLID) pairs fail, on {}: {}", re.failures(),
                            re.pairs, plural(re.dlids_with_failures, "DLID", "DLIDs"), kinds);
        }
        if (!nolid.empty())
            c.summary += fmt::format("; {} without a LID, unreachable",
                                     plural(nolid.size(), "CA port", "CA ports"));
        for (std::size_t i = 0; i < nolid.size() && i < rep.max_examples; ++i)
            c.details += fmt::format("no LID: {}\n",
                                     display_port(f, f.port_node(nolid[i]), f.port_num(nolid[i])));
        if (nolid.size() > rep.max_examples)
            c.details +=
                fmt::format("... and {} more without a LID\n", nolid.size() - rep.max_examples);
        for (const PathExample& e : re.examples)
            c.details += fmt::format("DLID {} from {}: {}: {}\n", e.dlid, source_text(f, e.src),
                                     outcome_text(e.trace.outcome), format_trace(f, e.trace));
        v.push_back(std::move(c));
    }
    {
        const auto& m = rep.forwarding.minimal;
        CheckVerdict c{"minimality", m.pairs > 0 && (!rep.strict || m.non_minimal == 0), {}, {}};
        if (m.pairs == 0)
            c.summary = "examined nothing: no reached pair with a known shortest distance";
        else if (m.non_minimal == 0)
            c.summary = fmt::format("{} reached pairs: all on shortest paths", m.pairs);
        else
            c.summary = fmt::format("{} of {} reached pairs are longer than the shortest path "
                                    "(by up to {}){}",
                                    m.non_minimal, m.pairs, plural(m.max_extra_hops, "hop", "hops"),
                                    rep.strict ? "" : "; a violation only with --strict");
        for (const PathExample& e : m.examples)
            c.details +=
                fmt::format("DLID {} from {}: {} switch hops, shortest {}: {}\n", e.dlid,
                            source_text(f, e.src), e.hops, e.min_hops, format_trace(f, e.trace));
        v.push_back(std::move(c));
    }
    if (!rep.path_sls_known) {
        CheckVerdict c{"deadlock", true, {}, {}};
        c.judged = false;
        c.summary = "cannot judge: the SL2VL tables map SLs to different VLs but the path SLs "
                    "are not known (no dump has them; assuming SL 0 would be a guess)";
        c.details = "give them with --path-sl FILE: `ibrt route` writes one for its engines, and "
                    "`ibrt sa-path-sls` reads them from a running SM's SA (opensm's dfsssp, lash, "
                    "torus-2QoS)\n";
        v.push_back(std::move(c));
    } else if (rep.deadlock_checked) {
        const auto& d = rep.deadlock;
        CheckVerdict c{"deadlock",
                       d.loops.empty() && d.vl15_drops == 0 && rep.forwarding.reach.pairs > 0,
                       {},
                       {}};
        // Tables that name more VLs than the paths take (opensm's SL mod VLs with every path
        // on one SL) would overstate what the routing needs.
        const int used = std::popcount(d.vls_used);
        c.summary = fmt::format("{} channels, {} on {}{}: ", d.channels,
                                plural(d.dependencies, "dependency", "dependencies"),
                                plural(d.vls, "VL", "VLs"),
                                used > 0 && unsigned(used) != d.vls
                                    ? fmt::format(" (paths take {} between switches)", used)
                                    : "");
        if (rep.forwarding.reach.pairs == 0)
            c.summary += "examined nothing (no path to walk)";
        else if (d.loops.empty())
            c.summary += "no credit loop";
        else
            c.summary += plural(d.loops.size(), "credit loop", "credit loops");
        if (d.vl15_drops)
            c.summary += fmt::format("; {} walks dropped by SL2VL (VL15)", d.vl15_drops);
        if (d.unknown_sl_pairs > 0) {
            c.summary += fmt::format(" among the paths with a known SL; {} (source port, DLID) "
                                     "pairs have no SL in the partial path-SL file",
                                     d.unknown_sl_pairs);
            if (deadlock_cannot_judge(rep)) {
                c.judged = false;
                c.summary = "cannot judge: " + c.summary;
                c.details += "give the SLs of every pair (`ibrt sa-path-sls` without --sample "
                             "or --pairs), or --end-ports-only for a file from --to-end-ports\n";
            }
        }
        for (const std::string& a : rep.deadlock_assumptions) c.details += "assumes " + a + "\n";
        std::size_t shown = 0;
        for (const graph::CreditLoop& l : d.loops) {
            if (shown++ == rep.max_examples) {
                c.details += fmt::format("... and {} more\n", d.loops.size() - rep.max_examples);
                break;
            }
            std::string cyc;
            for (const graph::Channel& ch : l.cycle)
                cyc += (cyc.empty() ? "" : " => ") + display_channel(f, ch.port, ch.vl);
            c.details += fmt::format("cycle of {} (component of {}): {}\n",
                                     plural(l.cycle.size(), "channel", "channels"),
                                     l.component_channels, cyc);
        }
        v.push_back(std::move(c));
    }
    if (rep.forwarding_sets_checked) {
        const ForwardingSetsReport& x = rep.forwarding_sets;
        const auto& d = x.deadlock;
        CheckVerdict c{"forwarding sets", forwarding_sets_ok(x), {}, {}};
        c.summary = fmt::format(
            "{} over {} (every candidate followed): {} stuck, {} misrouted, "
            "{}, longest path {} switch hops; {} channels, {} on {}: {}",
            plural(x.states, "state", "states"),
            plural(x.destinations, "destination", "destinations"), x.stuck, x.misrouted,
            plural(x.livelocks, "livelock", "livelocks"), x.max_hops, d.channels,
            plural(d.dependencies, "dependency", "dependencies"), plural(d.vls, "VL", "VLs"),
            d.loops.empty() ? std::string("no credit loop")
                            : plural(d.loops.size(), "credit loop", "credit loops"));
        if (x.destinations == 0) c.summary += "; examined nothing";
        for (const std::string& e : x.examples) c.details += e + "\n";
        for (std::size_t i = 0; i < d.loops.size() && i < rep.max_examples; ++i) {
            std::string cyc;
            for (const graph::Channel& ch : d.loops[i].cycle)
                cyc += (cyc.empty() ? "" : " => ") + display_channel(f, ch.port, ch.vl);
            c.details += fmt::format("cycle of {}: {}\n",
                                     plural(d.loops[i].cycle.size(), "channel", "channels"), cyc);
        }
        v.push_back(std::move(c));
    }
    for (const BalanceReport& b : rep.balance) {
        CheckVerdict c{"balance/" + b.pattern, true, {}, {}};
        c.summary = fmt::format("{} flows over {} switch links: max {:g}, mean {:g}, stddev "
                                "{:g}, max/mean {:g}",
                                b.flows, b.links.links, b.links.max, b.links.mean, b.links.stddev,
                                b.links.spread);
        if (b.unrouted > 0) c.summary += fmt::format("; {:g} units unrouted", b.unrouted);
        for (const LevelLoad& l : b.levels)
            c.details += fmt::format("level {}->{}: {} links, max {:g}, mean {:g}, stddev {:g}, "
                                     "max/mean {:g}\n",
                                     l.from_level, l.to_level, l.stats.links, l.stats.max,
                                     l.stats.mean, l.stats.stddev, l.stats.spread);
        for (const LinkLoad& h : b.hottest)
            c.details += fmt::format("hot link {}: {:g}\n", display_link(f, h.port), h.load);
        const LidUsage& u = b.lid_usage;
        std::string hist;
        for (std::size_t k = 0; k < u.by_lids_used.size(); ++k)
            if (u.by_lids_used[k])
                hist += fmt::format("{}{} LIDs used: {}", hist.empty() ? "" : ", ", k,
                                    u.by_lids_used[k]);
        c.details +=
            fmt::format("LID usage over {}: {}; sources per LID min {} max {} mean {:g}\n",
                        plural(u.destinations, "destination", "destinations"), hist,
                        u.min_sources_per_lid, u.max_sources_per_lid, u.mean_sources_per_lid);
        v.push_back(std::move(c));
    }
    return v;
}

bool has_violations(const CheckReport& rep) {
    if (rep.forwarding.reach.failures() > 0 || rep.forwarding.reach.pairs == 0) return true;
    if (!rep.ports_without_lid.empty() || rep.forwarding.minimal.pairs == 0) return true;
    if (rep.strict && rep.forwarding.minimal.non_minimal > 0) return true;
    if (rep.deadlock_checked && (!rep.deadlock.loops.empty() || rep.deadlock.vl15_drops > 0))
        return true;
    if (rep.forwarding_sets_checked && !forwarding_sets_ok(rep.forwarding_sets)) return true;
    return false;
}

bool deadlock_cannot_judge(const CheckReport& rep) {
    return !rep.path_sls_known || (rep.deadlock_checked && rep.deadlock.unknown_sl_pairs > 0 &&
                                   rep.deadlock.loops.empty() && rep.deadlock.vl15_drops == 0);
}

bool cannot_judge(const CheckReport& rep) {
    return !has_violations(rep) && deadlock_cannot_judge(rep);
}

void write_text(std::ostream& out, const Fabric& f, const CheckReport& rep) {
    out << fmt::format("ibrt check: {}, {}, {}, {}\n", plural(rep.switches, "switch", "switches"),
                       plural(rep.cas, "CA", "CAs"), plural(rep.endpoints, "end port", "end ports"),
                       plural(rep.lids, "LID", "LIDs"));
    for (const CheckVerdict& c : verdicts(f, rep)) {
        const bool info = c.name.starts_with("balance/");
        const bool warn = c.name == "minimality" && rep.forwarding.minimal.non_minimal > 0;
        const char* tag = !c.judged   ? "N/A"
                          : !c.passed ? "FAIL"
                          : info      ? "INFO"
                          : warn      ? "WARN"
                                      : "PASS";
        out << fmt::format("{:<5}{}: {}\n", tag, c.name, c.summary);
        std::size_t pos = 0;
        while (pos < c.details.size()) {
            const std::size_t nl = c.details.find('\n', pos);
            out << "       " << c.details.substr(pos, nl - pos) << '\n';
            pos = nl + 1;
        }
    }
    out << (has_violations(rep) ? "verdict: violations\n"
            : cannot_judge(rep) ? "verdict: cannot judge (see N/A above)\n"
                                : "verdict: clean\n");
}

void write_junit(std::ostream& out, const Fabric& f, const CheckReport& rep) {
    const auto v = verdicts(f, rep);
    std::size_t failures = 0, skipped = 0;
    for (const auto& c : v) {
        failures += !c.passed;
        skipped += !c.judged;
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << fmt::format("<testsuites name=\"ibrt check\" tests=\"{}\" failures=\"{}\" "
                       "errors=\"0\">\n",
                       v.size(), failures);
    out << fmt::format("  <testsuite name=\"ibrt check\" tests=\"{}\" failures=\"{}\" "
                       "errors=\"0\" skipped=\"{}\">\n",
                       v.size(), failures, skipped);
    for (const auto& c : v) {
        out << fmt::format("    <testcase classname=\"ibrt.check\" name=\"{}\"",
                           xml_escape(c.name));
        out << ">\n";
        if (!c.judged)
            out << fmt::format("      <skipped message=\"{}\">{}</skipped>\n",
                               xml_escape(c.summary), xml_escape(c.details));
        else if (!c.passed)
            out << fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                               xml_escape(c.name), xml_escape(c.summary), xml_escape(c.details));
        else
            out << fmt::format("      <system-out>{}\n{}</system-out>\n", xml_escape(c.summary),
                               xml_escape(c.details));
        out << "    </testcase>\n";
    }
    out << "  </testsuite>\n</testsuites>\n";
}

void write_junit_bad_input(std::ostream& out, const std::string& message) {
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<testsuites name=\"ibrt check\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
           "  <testsuite name=\"ibrt check\" tests=\"1\" failures=\"0\" errors=\"1\" "
           "skipped=\"0\">\n"
           "    <testcase classname=\"ibrt.check\" name=\"input\">\n";
    out << fmt::format("      <error type=\"bad input\" message=\"{}\">{}</error>\n",
                       xml_escape(message), xml_escape(message));
    out << "    </testcase>\n  </testsuite>\n</testsuites>\n";
}

} // namespace ibrt::check
