// How a FlatFly dimension hop gets round a missing cable (paper 003 §3.3's extra hop, used on
// damaged fabrics): every dimension of a FlatFly is a complete graph, so when the cable from x
// to t (t: x with the destination's coordinate in dimension d) is missing, the packet can go
// x -> z -> t through any other switch z of the same row that is cabled to both. Those two
// hops are exactly ADOR's extra hop followed by its straight hop, so the routings that take
// them put the second on ADOR's second VL and keep ADOR's (dimension, VL) ordering. One
// function answers "which switches of this row may a detour go through", for the static
// engine's DOR (flatfly_engine.cpp) and the adaptive routings (adaptive_routings.cpp) alike.
#pragma once

#include "mapping/map_fabric.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::flatfly {

// The switches z of a row of `k` switches, at coordinates w != from and != to (in_row(w):
// the dense switch there, mapping::kNone where it is missing), cabled to both x = in_row(from)
// and t = in_row(to) (linked(a, b)), in coordinate order, into `via` (cleared first).
template <class InRow, class Linked>
void row_detours(int k, int from, int to, const InRow& in_row, const Linked& linked,
                 std::vector<std::uint32_t>& via) {
    via.clear();
    const std::uint32_t x = in_row(from), t = in_row(to);
    for (int w = 0; w < k; ++w) {
        if (w == from || w == to) continue;
        const std::uint32_t z = in_row(w);
        if (z != mapping::kNone && linked(x, z) && linked(z, t)) via.push_back(z);
    }
}

} // namespace ibrt::flatfly
