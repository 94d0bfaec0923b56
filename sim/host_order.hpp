// Host order: which endpoint (end port, fabric/end_ports.hpp) a traffic pattern's host index
// names.
//
// The bit patterns of paper 003 §4 (Dally & Towles Table 3.2: complement, reverse, rotation,
// shuffle, transpose) act on the bits of a host's index, so their traffic depends on how the
// hosts are numbered. The paper does not say how it numbers them; this is the one place ibrt
// says it, for every pattern of sim/traffic.hpp (issue 15: the Dragonfly's transpose and
// reversal cells turn on it, docs/results/direct-topologies.md).
//
//   natural    host i is the i-th end port of all_end_ports() (the default: Fabric::cas()
//              order, a CA's ports ascending; `ibrt gen` lists the CAs by switch, switch
//              coordinates row major, the host's port last: on the Dragonfly host = (group,
//              switch in group, port));
//   port-major host i = slot * S + r: the slot-th end port (in that order) of the r-th switch
//              that has end ports (in order of first appearance), S such switches. With C end
//              ports per switch this moves the port index from the least to the most
//              significant bits: (port, group, switch in group) on the Dragonfly;
//   random     a random bijection drawn from the run's --seed (fabric/permutations.hpp's
//              random_permutation on a stream of its own): no structure for a pattern to meet.
//
// Patterns that name endpoints directly (hotspot's hot node, pairs) keep all_end_ports() indices.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::sim {

enum class HostOrder { Natural, PortMajor, Random };

std::optional<HostOrder> parse_host_order(std::string_view s);
std::string_view to_string(HostOrder o);
std::string host_order_names(); // "natural, port-major, random" for help texts

// order[i] = the index in `ends` (all_end_ports()) of the endpoint that the patterns call host
// i; a bijection on 0..|ends|-1, a pure function of (f, ends, o, seed).
std::vector<std::uint32_t> host_order(const Fabric& f, const std::vector<PortId>& ends, HostOrder o,
                                      std::uint64_t seed);

} // namespace ibrt::sim
