// Test support: a fabric with random failures (generators/failures.hpp), the way the
// mapping and engine tests damage their fabrics: `links` and `switches` are fractions when < 1,
// else counts; deterministic per seed.
#pragma once

#include "generators/failures.hpp"

#include <cstdint>

namespace ibrt::test {

struct Damaged {
    Fabric fabric;
    gen::FailureReport report; // what was removed
};

inline Damaged damaged(const Fabric& f, double links, double switches, std::uint64_t seed,
                       bool keep_connected = true) {
    gen::FailureSpec spec;
    spec.links = links;
    spec.switches = switches;
    spec.seed = seed;
    spec.keep_connected = keep_connected;
    Damaged d;
    d.fabric = gen::inject_failures(f, spec, d.report);
    return d;
}

} // namespace ibrt::test
