// Verdicts and the three renderings (text, JSON, JUnit) of a check report.
#include "check/report.hpp"
#include "fixtures.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;
using namespace ibrt::check;
using namespace ibrt::test;

TEST_CASE("a clean tree is clean in every rendering") {
    const Routed x = two_level_tree();
    const CheckReport rep = run_checks(x.f, x.r);
    CHECK_FALSE(has_violations(rep));
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK(text.str() ==
          "ibrt check: 4 switches, 4 CAs, 4 end ports, 8 LIDs\n"
          "PASS reachability: 28 (source port, DLID) pairs over 8 DLIDs: all reach their "
          "destination\n"
          "PASS minimality: 28 reached pairs: all on shortest paths\n"
          "PASS deadlock: 8 channels, 4 dependencies on 1 VL: no credit loop\n"
          "INFO balance/all-to-all: 12 flows over 8 switch links: max 2, mean 2, stddev 0, "
          "max/mean 1\n"
          "       level 1->2: 4 links, max 2, mean 2, stddev 0, max/mean 1\n"
          "       level 2->1: 4 links, max 2, mean 2, stddev 0, max/mean 1\n"
          "       hot link switch 'L0' (GUID 0x0000000000000204) port 3 -> switch 'S0' (GUID "
          "0x0000000000000206) port 1: 2\n"
          "       hot link switch 'L0' (GUID 0x0000000000000204) port 4 -> switch 'S1' (GUID "
          "0x0000000000000207) port 1: 2\n"
          "       hot link switch 'L1' (GUID 0x0000000000000205) port 3 -> switch 'S0' (GUID "
          "0x0000000000000206) port 2: 2\n"
          "       hot link switch 'L1' (GUID 0x0000000000000205) port 4 -> switch 'S1' (GUID "
          "0x0000000000000207) port 2: 2\n"
          "       hot link switch 'S0' (GUID 0x0000000000000206) port 1 -> switch 'L0' (GUID "
          "0x0000000000000204) port 3: 2\n"
          "       LID usage over 4 destinations: 1 LIDs used: 4; sources per LID min 3 max 3 "
          "mean 3\n"
          "verdict: clean\n");
    const auto j = to_json(x.f, rep);
    CHECK(j["schema"] == "ibrt-check/1");
    CHECK(j["verdict"] == "clean");
    CHECK(j["exit_code"] == 0);
    // (L0->S0, S0->L1), (L1->S0, S0->L0) and the same through S1.
    CHECK(j["checks"]["deadlock"]["dependencies"] == 4);
    CHECK(j["checks"]["balance"][0]["links"]["max"] == 2.0);
}

TEST_CASE("a loop fails reachability in text, JSON and JUnit") {
    Routed x = two_level_tree();
    x.r.lft[S0][3] = 1;
    CheckOptions opt;
    opt.balance = false;
    const CheckReport rep = run_checks(x.f, x.r, opt);
    CHECK(has_violations(rep));
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK_THAT(text.str(),
               Catch::Contains(
                   "FAIL reachability: 2 of 28 (source port, DLID) pairs fail, on 1 "
                   "DLID: loop 2\n"
                   "       DLID 3 from CA 'h0' (GUID 0x0000000000000100) port 1: loop: CA 'h0' "
                   "(GUID 0x0000000000000100):1 -> switch 'L0' (GUID 0x0000000000000204):1>3 -> "
                   "switch 'S0' (GUID 0x0000000000000206):1>1 -> switch 'L0' (GUID "
                   "0x0000000000000204):3\n"));
    CHECK_THAT(text.str(), Catch::EndsWith("verdict: violations\n"));

    const auto j = to_json(x.f, rep);
    CHECK(j["verdict"] == "violations");
    CHECK(j["exit_code"] == 1);
    const auto& r = j["checks"]["reachability"];
    CHECK(r["passed"] == false);
    CHECK(r["failures"] == 2);
    CHECK(r["by_outcome"]["loop"] == 2);
    REQUIRE(r["examples"].size() == 1);
    const auto& e = r["examples"][0];
    CHECK(e["dlid"] == 3);
    CHECK(e["outcome"] == "loop");
    CHECK(e["source"]["node"] == "CA 'h0' (GUID 0x0000000000000100)");
    CHECK(e["source"]["guid"] == "0x0000000000000100");
    REQUIRE(e["path"].size() == 4);
    CHECK(e["path"][2]["node"] == "switch 'S0' (GUID 0x0000000000000206)");
    CHECK(e["path"][2]["in_port"] == 1);
    CHECK(e["path"][2]["out_port"] == 1);
    CHECK(j["checks"].contains("balance"));
    CHECK(j["checks"]["balance"].empty());

    std::ostringstream xml;
    write_junit(xml, x.f, rep);
    const std::string s = xml.str();
    // The forwarding loop L0 -> S0 -> L0 is also a credit loop of two channels.
    CHECK_THAT(s, Catch::Contains("<testsuites name=\"ibrt check\" tests=\"3\" failures=\"2\""));
    CHECK_THAT(s, Catch::Contains("<testcase classname=\"ibrt.check\" name=\"reachability\">\n"
                                  "      <failure type=\"reachability\" message=\"2 of 28 "
                                  "(source port, DLID) pairs fail, on 1 DLID: loop 2\">DLID 3 "
                                  "from CA &apos;h0&apos; (GUID 0x0000000000000100) port 1: loop: "
                                  "CA &apos;h0&apos; (GUID 0x0000000000000100):1 -&gt; "));
    CHECK_THAT(s, Catch::Contains(
                      "<testcase classname=\"ibrt.check\" name=\"deadlock\">\n"
                      "      <failure type=\"deadlock\" message=\"8 channels, 6 "
                      "dependencies on 1 VL: 1 credit loop\">cycle of 2 channels "
                      "(component of 2): switch &apos;L0&apos; (GUID 0x0000000000000204) port "
                      "3 -&gt; switch &apos;S0&apos; (GUID 0x0000000000000206) port 1 "
                      "VL 0 =&gt; switch &apos;S0&apos; (GUID 0x0000000000000206) port 1 -&gt; "
                      "switch &apos;L0&apos; (GUID 0x0000000000000204) port 3 VL 0\n"));
    CHECK_THAT(s, Catch::Contains("<testcase classname=\"ibrt.check\" name=\"minimality\">\n"
                                  "      <system-out>26 reached pairs: all on shortest paths\n"));
}

TEST_CASE("non-minimal paths are a violation only in strict mode") {
    Routed x = two_level_tree();
    x.r.lft[L0][8] = 3;
    x.r.lft[S0][8] = 2;
    CheckOptions opt;
    opt.balance = false;
    CheckReport rep = run_checks(x.f, x.r, opt);
    CHECK_FALSE(has_violations(rep));
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK_THAT(text.str(), Catch::Contains("WARN minimality: 2 of 28 reached pairs are longer "
                                           "than the shortest path (by up to 2 hops); a "
                                           "violation only with --strict\n"));
    opt.strict = true;
    rep = run_checks(x.f, x.r, opt);
    CHECK(has_violations(rep));
    CHECK(to_json(x.f, rep)["checks"]["minimality"]["passed"] == false);
}

TEST_CASE("a credit loop is a violation and lists its channels") {
    const Routed x = clockwise_ring();
    CheckOptions opt;
    opt.balance = false;
    const CheckReport rep = run_checks(x.f, x.r, opt);
    CHECK(has_violations(rep));
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK_THAT(
        text.str(),
        Catch::Contains("FAIL deadlock: 4 channels, 4 dependencies on 1 VL: 1 credit loop\n"
                        "       cycle of 4 channels (component of 4): switch 'A' (GUID "
                        "0x0000000000000500) port 2 -> switch 'B' (GUID 0x0000000000000501) port 3 "
                        "VL 0 => switch 'B' (GUID 0x0000000000000501) port 2 -> switch 'C' (GUID "
                        "0x0000000000000502) port 3 VL 0 => switch 'C' (GUID 0x0000000000000502) "
                        "port 2 -> switch 'D' (GUID 0x0000000000000503) port 3 VL 0 => "
                        "switch 'D' (GUID 0x0000000000000503) port 2 -> switch 'A' (GUID "
                        "0x0000000000000500) port 3 VL 0\n"));
    const auto j = to_json(x.f, rep);
    CHECK(j["checks"]["deadlock"]["credit_loops"] == 1);
    CHECK(j["checks"]["deadlock"]["loops"][0]["cycle"][3]["node"] ==
          "switch 'D' (GUID 0x0000000000000503)");
    CHECK(j["checks"]["deadlock"]["loops"][0]["cycle"][3]["peer_node"] ==
          "switch 'A' (GUID 0x0000000000000500)");
}

TEST_CASE("a CA port without a LID is a reachability failure that names it") {
    // opensm ran out of LIDs for h3 (e.g. lmc 7 on a large fabric): nobody can reach it.
    Routed x = two_level_tree();
    Lids lids(x.f);
    for (PortId p = 0; p < x.r.lids.num_port_slots(); ++p)
        if (x.r.lids.has_lid(p) && p != x.f.port_id(h3, 1))
            lids.assign(p, x.r.lids.base(p), x.r.lids.lmc(p));
    x.r.lids = lids;
    const CheckReport rep = run_checks(x.f, x.r);
    CHECK(has_violations(rep));
    REQUIRE(rep.ports_without_lid.size() == 1);
    const auto v = verdicts(x.f, rep);
    CHECK_FALSE(v[0].passed);
    CHECK(v[0].summary.ends_with("; 1 CA port without a LID, unreachable"));
    CHECK(v[0].details.starts_with("no LID: CA 'h3' (GUID 0x0000000000000103) port 1\n"));
    CHECK(to_json(x.f, rep)["exit_code"] == 1);
}

TEST_CASE("a check that examined nothing fails") {
    Routed x = two_level_tree();
    x.r.lids = Lids(x.f); // no LIDs at all: nothing to walk
    const CheckReport rep = run_checks(x.f, x.r);
    CHECK(has_violations(rep));
    const auto v = verdicts(x.f, rep);
    CHECK_FALSE(v[0].passed);
    CHECK(v[0].summary.starts_with("examined nothing"));
    CHECK_FALSE(v[1].passed); // minimality: 0 reached pairs is no pass either
    CHECK_FALSE(v[2].passed); // deadlock: no path walked
}

TEST_CASE("multi-VL SL2VL without path SLs: deadlock freedom cannot be judged") {
    Routed x = two_level_tree();
    x.r.sl2vl.tables.assign(x.f.num_nodes(), {});
    for (NodeId s = L0; s <= S1; ++s) {
        Sl2VlTable t{};
        for (int sl = 0; sl < 16; ++sl) t[sl] = std::uint8_t(sl % 2); // SL parity picks VL
        x.r.sl2vl.tables[s].assign(Sl2Vl::size(x.f.node(s).num_ports), t);
    }
    CheckOptions opt;
    opt.path_sls_known = false;
    const CheckReport rep = run_checks(x.f, x.r, opt);
    CHECK_FALSE(has_violations(rep));
    CHECK(cannot_judge(rep));
    CHECK_FALSE(rep.deadlock_checked);
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK(text.str().find("N/A  deadlock: cannot judge") != std::string::npos);
    CHECK(text.str().ends_with("verdict: cannot judge (see N/A above)\n"));
    CHECK(to_json(x.f, rep)["exit_code"] == 3);
    std::ostringstream junit;
    write_junit(junit, x.f, rep);
    CHECK(junit.str().find("<skipped message=\"cannot judge") != std::string::npos);

    // With the path SLs known (an engine's routing, or --path-sl), it is judged as usual.
    CHECK_FALSE(cannot_judge(run_checks(x.f, x.r)));
    // SL2VL tables that ignore the SL make the SLs irrelevant: judged without them.
    for (NodeId s = L0; s <= S1; ++s)
        for (Sl2VlTable& t : x.r.sl2vl.tables[s]) t.fill(1);
    const CheckReport same = run_checks(x.f, x.r, opt);
    CHECK_FALSE(cannot_judge(same));
    CHECK(same.deadlock_checked);
}

TEST_CASE("unknown path SLs: no loop among the known ones cannot judge, a loop is a violation") {
    Routed x = clockwise_ring();
    const std::size_t width = x.r.lids.max_lid() + 1u;
    PathSlTable t(x.f.num_port_slots(), x.r.lids.max_lid(),
                  std::vector<std::uint8_t>(width, PathSlTable::kUnknownSl));
    for (NodeId s = A; s <= C; ++s)
        t.set_switch_row(x.f, s, std::vector<std::uint8_t>(width, std::uint8_t(s)));
    x.r.path_sls = t; // no SL2VL tables: identity
    CheckOptions opt;
    opt.balance = false;
    const CheckReport rep = run_checks(x.f, x.r, opt);
    CHECK_FALSE(has_violations(rep));
    CHECK(cannot_judge(rep));
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK_THAT(text.str(),
               Catch::Contains("N/A  deadlock: cannot judge: 9 channels, 6 dependencies on 3 "
                               "VLs: no credit loop among the paths with a known SL; 7 (source "
                               "port, DLID) pairs have no SL in the partial path-SL file\n"));
    CHECK_THAT(text.str(), Catch::Contains("       assumes no SL2VL tables: SL s is taken to VL s "
                                           "(identity), as switches keep it when opensm runs "
                                           "without QoS and as ibdmchk assumes without -d\n"));
    CHECK(text.str().ends_with("verdict: cannot judge (see N/A above)\n"));
    const auto j = to_json(x.f, rep);
    CHECK(j["exit_code"] == 3);
    CHECK(j["checks"]["deadlock"]["judged"] == false);
    CHECK(j["checks"]["deadlock"]["passed"].is_null());
    CHECK(j["checks"]["deadlock"]["unknown_sl_pairs"] == 7);
    CHECK(j["checks"]["deadlock"]["assumptions"].size() == 1);
    std::ostringstream junit;
    write_junit(junit, x.f, rep);
    CHECK_THAT(junit.str(), Catch::Contains("<skipped message=\"cannot judge: 9 channels"));
    CHECK_THAT(junit.str(), Catch::Contains("ibrt sa-path-sls` without --sample"));

    // A loop among the known paths is real whatever the others' SLs: a violation.
    for (NodeId s = A; s <= C; ++s) t.set_switch_row(x.f, s, std::vector<std::uint8_t>(width, 0));
    x.r.path_sls = t;
    const CheckReport loop = run_checks(x.f, x.r, opt);
    CHECK(has_violations(loop));
    CHECK_FALSE(cannot_judge(loop));
    CHECK(to_json(x.f, loop)["checks"]["deadlock"]["passed"] == false);
}

TEST_CASE("a verdict says which assumption it rests on") {
    // Tables from files without SL2VL or path SLs: identity SL2VL and SL 0 for every path.
    Routed x = clockwise_ring();
    CheckOptions opt;
    opt.balance = false;
    opt.path_sls_known = false;
    const CheckReport rep = run_checks(x.f, x.r, opt);
    REQUIRE(rep.deadlock_assumptions.size() == 1);
    CHECK(rep.deadlock_assumptions[0].starts_with("no path SLs: every path is taken on SL 0"));
    CHECK(has_violations(rep)); // the ring's loop, with every path on SL 0
    std::ostringstream text;
    write_text(text, x.f, rep);
    CHECK_THAT(text.str(), Catch::Contains("       assumes no path SLs: every path is taken on "
                                           "SL 0"));
    // --no-deadlock: no deadlock verdict, so nothing it cannot judge.
    x.r.sl2vl.tables.assign(x.f.num_nodes(), {});
    for (NodeId s = A; s <= D; ++s) {
        Sl2VlTable tab{};
        for (int sl = 0; sl < 16; ++sl) tab[sl] = std::uint8_t(sl % 2);
        x.r.sl2vl.tables[s].assign(Sl2Vl::size(x.f.node(s).num_ports), tab);
    }
    opt.deadlock = false;
    CHECK_FALSE(cannot_judge(run_checks(x.f, x.r, opt)));
    opt.deadlock = true;
    CHECK(cannot_judge(run_checks(x.f, x.r, opt))); // SL-dependent tables, SLs unknown
}

TEST_CASE("bad input still gets a JSON and a JUnit report naming the problem") {
    const auto j = bad_input_json("net:3: cannot parse");
    CHECK(j["verdict"] == "bad input");
    CHECK(j["exit_code"] == 2);
    CHECK(j["error"] == "net:3: cannot parse");
    std::ostringstream junit;
    write_junit_bad_input(junit, "net:3: a <bad> line");
    CHECK_THAT(junit.str(),
               Catch::Contains("<testcase classname=\"ibrt.check\" name=\"input\">\n"
                               "      <error type=\"bad input\" message=\"net:3: a &lt;bad&gt; "
                               "line\">net:3: a &lt;bad&gt; line</error>\n"));
    CHECK_THAT(junit.str(), Catch::Contains("errors=\"1\""));
}
