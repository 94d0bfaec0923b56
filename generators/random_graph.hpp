// Random irregular fabrics as in Nienaber, Yuan, Duan, "LID Assignment in InfiniBand Networks"
// (paper 001) §VI: a random connected switch graph with a given average degree, then the
// machines spread over the switches with uniform probability.
//
// Construction (deterministic for a seed, see rng.hpp): a random spanning tree (switches in a
// shuffled order, each attached to a uniformly chosen earlier one) guarantees connectivity;
// random extra edges between distinct, not yet adjacent switches follow until the graph has
// round(S * D / 2) edges. Each machine then picks a switch uniformly (among those with a free
// port when a radix is given). Ports: switch-to-switch cables first, neighbours in ascending
// order, then the machines in the order they were placed. Labels "sw-<i>", "host-<i>".
//
// Model::Waxman (issue 39: paper 001 draws its switch graphs with GT-ITM, whose random models
// place nodes in a plane and prefer short edges): the switches at uniform points of the unit
// square, edge (u, v) weighted by Waxman's exp(-d(u, v) / (beta * L)), L = sqrt(2) the largest
// distance; exactly round(S * D / 2) distinct edges drawn without replacement in proportion to
// their weights (Efraimidis-Spirakis keys), which is Waxman's P = alpha * exp(...) with alpha
// set by the edge count; points and edges drawn again until the graph is connected (at most
// 1000 tries). beta = infinity gives uniform random graphs G(S, E) conditioned on connectivity
// (GT-ITM's pure random model). Machines as above; a radix only checked, not planned for.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>

namespace ibrt::gen {

struct RandomParams {
    int switches = 16;
    double degree = 8; // average switch-to-switch degree
    int cas = 64;
    std::uint64_t seed = 1;
    int radix = 0; // 0: the most ports any switch ends up using
    enum class Model { SpanningTree, Waxman } model = Model::SpanningTree;
    double waxman_beta = 0.2; // Model::Waxman: locality, larger = less local
};

Fabric random_fabric(const RandomParams& params);

} // namespace ibrt::gen
