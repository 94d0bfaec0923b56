// Cabling of direct topologies given as a switch graph (Slim Fly, random irregular): each
// switch's neighbours are numbered in ascending order and get consecutive port blocks, so the
// port of a cable follows from the graph alone and the output is deterministic.
#pragma once

#include "generators/gen_builder.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::gen {

// Undirected simple graph on 0..n-1 as sorted adjacency lists.
using Adjacency = std::vector<std::vector<std::uint32_t>>;

// Cables every edge {u,v} of `adj` between switches[u] and switches[v] with `parallel` cables:
// neighbour number i of u uses ports first_port + i*parallel .. + parallel - 1 on u.
void cable_switch_graph(GenBuilder& b, const std::vector<NodeId>& switches, const Adjacency& adj,
                        int first_port, int parallel);

// Hop distance between every pair of vertices is at most the returned value (BFS from each);
// -1 when the graph is disconnected.
int graph_diameter(const Adjacency& adj);

} // namespace ibrt::gen
