// `ibrt check` as a library: run every check over a Fabric + Routing and render the verdict
// for people (text), scripts (JSON, schema in docs/check.md) and CI (JUnit XML).
//
// Verdict: violations are unreachable pairs (dead ends, loops), credit loops and SL2VL drops
// (VL15); non-minimal paths count only in strict mode. Balance is informational.
#pragma once

#include "check/balance.hpp"
#include "check/credit_loops.hpp"
#include "check/forwarding_sets.hpp"
#include "check/reachability.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace ibrt::check {

struct CheckOptions {
    bool strict = false;        // non-minimal paths are violations
    bool path_sls_known = true; // false: tables from files without a path-SL file
    std::size_t max_examples = 10;
    bool deadlock = true;
    bool balance = true;
    // Balance is always computed for all-to-all; a different pattern is added after it.
    TrafficPattern pattern;
    // How sources pick a destination's DLID (balance.hpp). `ibrt check` spreads unless it
    // was given a path-selection file.
    DlidUse dlid_use = DlidUse::Selection;
    // Progress: the phase name and the fraction done.
    std::function<void(const std::string&, double)> progress;
};

struct CheckReport {
    bool strict = false;
    std::size_t max_examples = 10;
    std::uint64_t switches = 0, cas = 0, endpoints = 0, lids = 0;
    ForwardingReport forwarding;
    // Cabled CA/router ports without a LID: opensm ran out of LIDs or never activated them.
    // Nobody can reach them, so they fail reachability (named by GUID and description).
    std::vector<PortId> ports_without_lid;
    // False when the SL2VL tables map SLs to different VLs but the path SLs are not known
    // (opensm's dfsssp, lash and torus-2QoS set them; no dump has them): then deadlock freedom
    // cannot be judged, and pretending SL 0 would be a guess. See docs/check.md.
    bool path_sls_known = true;
    bool deadlock_checked = false;
    DeadlockReport deadlock;
    // What the deadlock verdict takes for granted where the data is missing (no SL2VL tables:
    // identity; no path SLs: SL 0), one sentence each, printed with the verdict.
    std::vector<std::string> deadlock_assumptions;
    // The extended switch's forwarding sets (Routing::forwarding_sets), when the routing has
    // them: every choice reaches the destination, no livelock, no credit loop.
    bool forwarding_sets_checked = false;
    ForwardingSetsReport forwarding_sets;
    std::vector<BalanceReport> balance;
};

CheckReport run_checks(const Fabric& f, const Routing& r, const CheckOptions& opt = {});

// One line per check for JUnit and the summary: name, pass/fail, what failed.
struct CheckVerdict {
    std::string name; // "reachability", "minimality", "deadlock", "balance/<pattern>"
    bool passed = true;
    std::string summary; // one line
    std::string details; // the examples, one per line
    bool judged = true;  // false: the data to judge it is missing (not a pass, not a fail)
};
std::vector<CheckVerdict> verdicts(const Fabric& f, const CheckReport& rep);
bool has_violations(const CheckReport& rep);
// The forwarding-sets check passed: something examined, nothing stuck, misrouted, circling or
// in a credit loop.
bool forwarding_sets_ok(const ForwardingSetsReport& x);
// True when some check could not be judged (and none failed): `ibrt check` exits 3.
bool cannot_judge(const CheckReport& rep);
// Deadlock freedom could not be judged: SL-dependent SL2VL without path SLs, or pairs whose SL
// a partial path-SL file leaves unknown and no credit loop among the others.
bool deadlock_cannot_judge(const CheckReport& rep);

void write_text(std::ostream& out, const Fabric& f, const CheckReport& rep);
nlohmann::ordered_json to_json(const Fabric& f, const CheckReport& rep);
void write_junit(std::ostream& out, const Fabric& f, const CheckReport& rep);

// The reports of a check that could not run on its input (exit 2): verdict "bad input" and
// the message (`file:line: problem`), so that CI shows the reason rather than no report.
nlohmann::ordered_json bad_input_json(const std::string& message);
void write_junit_bad_input(std::ostream& out, const std::string& message);

} // namespace ibrt::check
