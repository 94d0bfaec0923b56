// Failure injection as a Fabric -> Fabric transform: cables and switches are removed and the
// result is rebuilt through FabricBuilder, so it is consistent by construction: both ends of a
// removed cable are unconnected, a removed switch takes its cables with it, and CAs left with
// no cable at all are dropped (and reported) rather than written as isolated nodes.
// Random choices are deterministic for a seed (rng.hpp).
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ibrt::gen {

struct FailureSpec {
    // Random failures: a fraction of the candidates when < 1, otherwise a whole count.
    double links = 0;    // switch-to-switch cables
    double switches = 0; // switches
    // Explicit failures. A cable is named by either end, "NODE[PORT]"; a switch by "NODE".
    // NODE is a NodeDescription, a node id from the input file, or a node GUID (0x...).
    std::vector<std::string> link_names;
    std::vector<std::string> switch_names;
    std::uint64_t seed = 1;
    // Only remove a random cable or switch if the remaining switches stay connected.
    bool keep_connected = false;
};

struct FailureReport {
    // Nodes named as --fail-switch/--fail-link take them (a description that names one node,
    // else the file's node id, else the GUID), so every entry can be given back.
    std::vector<std::string> removed_links;    // "A[pa] <-> B[pb]", cables between kept nodes
    std::vector<std::string> removed_switches; // switches
    std::vector<std::string> dropped_cas;      // CAs left without any cable
    std::size_t components = 0;                // connected components of the result
    bool empty() const {
        return removed_links.empty() && removed_switches.empty() && dropped_cas.empty();
    }
};

// Resolves "fraction or count" against `total` candidates; throws GenError if invalid.
std::size_t failure_count(double value, std::size_t total, const std::string& what);

Fabric inject_failures(const Fabric& f, const FailureSpec& spec, FailureReport& report);

} // namespace ibrt::gen
