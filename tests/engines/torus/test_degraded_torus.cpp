// The torus engine's escape VL (issue 37): degraded tori it used to decline (a ring cut in two
// with no later dimension to detour through, detours that loop or close a credit loop) are
// routed, the destinations DOR cannot serve on Up*/Down* with an SL and a VL of their own
// (engines/common/escape_layer.hpp). Every routed fabric passes the check library with the
// engine's path SLs and SL2VL: all pairs reached, no credit loop. The engine declines only a
// fabric whose switches are not connected, whose ports have too few data VLs (saying how many
// it needs) or that leaves no SL for the escape VL.
#include "../direct_checks.hpp"
#include "engines/engine.hpp"
#include "generators/failures.hpp"
#include "generators/torus.hpp"
#include "torus_fixtures.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ibrt;

namespace {

Fabric degraded_torus(std::vector<int> k, gen::FailureSpec spec, int cas = 1) {
    gen::TorusParams p;
    p.k = std::move(k);
    p.cas_per_switch = cas;
    gen::FailureReport rep;
    return gen::inject_failures(gen::torus(p), spec, rep);
}

Routing route(const Fabric& f, EngineOptions opt = {}) {
    return test::route_torus(f, opt);
}

std::string refusal(const Fabric& f, EngineOptions opt = {}) {
    return test::torus_refusal(f, opt);
}

// -1 for a stat the engine did not report (no escape, no reason of that kind).
double stat(const Routing& r, const std::string& name) {
    return test::torus_stat(r, name, -1);
}

double escaped(const Routing& r) {
    return stat(r, "escaped_blocked") + stat(r, "escaped_looping") + stat(r, "escaped_credit_loop");
}

} // namespace

TEST_CASE("torus: a ring cut in two goes on the escape VL", "[torus]") {
    // The ring of the last dimension DOR corrects (K = 6) cut in two: no later dimension to
    // detour through. The engine used to decline ("cut into disjoint pieces").
    gen::FailureSpec spec;
    spec.link_names = {"sw-0.0.0[6]", "sw-0.0.2[6]"}; // the z ring of (0, 0): 0-1 and 2-3
    const Fabric f = degraded_torus({4, 5, 6}, spec);
    const Routing r = route(f);
    test::clean_within_data_vls(f, r);
    test::escape_layer_sound(f, r);
    CHECK(stat(r, "escaped_blocked") > 0);
    CHECK(stat(r, "escape_sl") == 8); // SLs 0-7 are the three dateline bits
    // No detour turn: the torus uses VL 0-1, the escape VL 2, and ports run 4.
    CHECK(stat(r, "escape_vl") == 2);
    CHECK(r.data_vls == 4);
    // Every LID of an escaped switch: its own and its CA's.
    CHECK(stat(r, "escape_dlids") == 2 * escaped(r));
    EngineOptions two;
    two.default_data_vls = 2;
    CHECK(refusal(f, two).find("needs 4 data VLs but") != std::string::npos);
}

TEST_CASE("torus: a 4x4x4 torus that maps as a hypercube routes around a failed link", "[torus]") {
    // C4 = K2 x K2: a failed link cuts a K2, which DOR cannot detour; the engine used to send
    // the user to the flatfly engine.
    gen::FailureSpec spec;
    spec.link_names = {"sw-0.0.0[2]"};
    const Fabric f = degraded_torus({4, 4, 4}, spec);
    const Routing r = route(f);
    test::clean_within_data_vls(f, r);
    test::escape_layer_sound(f, r);
    CHECK(escaped(r) > 0);
    CHECK(stat(r, "escape_sl") == 1); // rings of 2 need no dateline: SL 0 only
}

TEST_CASE("torus: degraded 5x5x4 tori are routed, declined only without enough VLs", "[torus]") {
    // Issue 37's fabric: 5 % of the cables out, and a few with failed switches too. Before the
    // escape VL the engine declined 24 of the 40 seeds of `ibrt gen torus --k 5,5,4
    // --fail-links 0.05` (10 for a credit loop, 14 for a cut ring).
    struct Case {
        double links, switches;
        int seeds;
    };
    const std::vector<Case> cases = {{0.05, 0, 40}, {0.03, 1, 12}, {0.08, 2, 12}};
    int routed = 0, with_escape = 0, by_credit = 0, by_block = 0, on_eight = 0;
    for (const Case& c : cases)
        for (int seed = 1; seed <= c.seeds; ++seed) {
            gen::FailureSpec spec;
            spec.links = c.links;
            spec.switches = c.switches;
            spec.seed = std::uint64_t(seed);
            spec.keep_connected = true;
            const Fabric f = degraded_torus({5, 5, 4}, spec);
            INFO(c.links << " links, " << c.switches << " switches, seed " << seed);
            const Routing r = route(f);
            test::clean_within_data_vls(f, r);
            ++routed;
            if (escaped(r) == 0) {
                CHECK(stat(r, "escape_dlids") == -1); // untouched: no escape SL or VL
                CHECK(r.data_vls <= 4);
                continue;
            }
            ++with_escape;
            test::escape_layer_sound(f, r);
            by_credit += stat(r, "escaped_credit_loop") > 0;
            by_block += stat(r, "escaped_blocked") + stat(r, "escaped_looping") > 0;
            CHECK(stat(r, "escape_sl") == 8);
            CHECK(stat(r, "escape_vl") >= 1);
            CHECK(stat(r, "escape_vl") <= 4);
            // With fewer data VLs than the escape VL needs: declined, naming the count.
            EngineOptions few;
            few.default_data_vls = r.data_vls / 2;
            CHECK(refusal(f, few).find("torus needs " + std::to_string(r.data_vls) +
                                       " data VLs but") != std::string::npos);
            on_eight += r.data_vls == 8;
        }
    CHECK(routed == 64);
    // What these seeds need (each one the engine declined before): 43 of 64 the escape VL, 30
    // for a credit loop, 25 for a cut ring (some both), 36 on 8 VLs (escape VL 4 after the turn
    // VLs), the others on 4.
    CHECK(with_escape == 43);
    CHECK(by_credit == 30);
    CHECK(by_block == 25);
    CHECK(on_eight == 36);
}

TEST_CASE("torus: degraded 4D and 2-switch-ring tori are routed on the escape VL", "[torus]") {
    // 5x5x4x2: three dateline bits (the ring of 2 needs none), so the escape SL is 8 again;
    // 4x6x5 with a failed switch: every ring needs one.
    struct Case {
        std::vector<int> k;
        double links, switches;
    };
    const std::vector<Case> cases = {{{5, 5, 4, 2}, 0.04, 1}, {{4, 6, 5}, 0.06, 1}};
    int with_escape = 0;
    for (const Case& c : cases)
        for (int seed = 1; seed <= 6; ++seed) {
            gen::FailureSpec spec;
            spec.links = c.links;
            spec.switches = c.switches;
            spec.seed = std::uint64_t(seed);
            spec.keep_connected = true;
            const Fabric f = degraded_torus(c.k, spec);
            INFO(c.k.size() << "D, seed " << seed);
            const Routing r = route(f);
            test::clean_within_data_vls(f, r);
            if (escaped(r) == 0) continue;
            ++with_escape;
            test::escape_layer_sound(f, r);
            CHECK(stat(r, "escape_sl") == 8);
        }
    CHECK(with_escape == 11); // of 12, each declined before
}

TEST_CASE("torus: declines disconnected switches and when no SL is left", "[torus]") {
    // Switch (1, 1, 1) loses its six cables (ports 2-7; port 1 is its CA): the mapping already
    // sees two fabrics.
    gen::FailureSpec cut;
    for (int p = 2; p <= 7; ++p) cut.link_names.push_back("sw-1.1.1[" + std::to_string(p) + "]");
    const std::string why = refusal(degraded_torus({5, 5, 4}, cut));
    CHECK(why.find("2 separate parts") != std::string::npos);
    // A 4D torus of rings >= 5 uses all 16 SLs for its datelines: none left to escape on. Every
    // ring through (0, 0, 0, 0) is cut twice (links 0-1 and 2-3; port 2d + 2 is the + cable of
    // dimension d), so whichever dimension DOR corrects last, some destination is blocked.
    gen::FailureSpec ring;
    for (int d = 0; d < 4; ++d) {
        std::string far = "sw-0.0.0.0";
        far[3 + 2 * d] = '2';
        const std::string port = "[" + std::to_string(2 * d + 2) + "]";
        ring.link_names.push_back("sw-0.0.0.0" + port);
        ring.link_names.push_back(far + port);
    }
    const std::string full = refusal(degraded_torus({5, 5, 5, 5}, ring));
    CHECK(full.find("need the escape VL") != std::string::npos);
    CHECK(full.find("cut into disjoint pieces") != std::string::npos);
    CHECK(full.find("no SL is left") != std::string::npos);
}
