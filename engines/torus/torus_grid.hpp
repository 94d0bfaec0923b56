// The torus as the torus engine routes it: every switch's coordinates from the mapping
// (mapping/map_fabric.hpp, paper 003 §2; no descriptions, GUIDs or port numbers), a grid
// index over the complete shape with the missing switches as holes, and per switch, dimension
// and direction the cables to the ring neighbour (paper 003 §1.1: L_n parallel cables).
//
// A torus is a product of rings (§1.1). A complete dimension of 2 or 3 switches is a ring too
// (K2 is a ring of 2, K3 a ring of 3), so fabrics that map as a hypercube, or as a FlatFly or
// torus x FlatFly whose complete dimensions have at most 3 switches, are tori here; a complete
// dimension of 4 or more is a HyperX dimension, and the engine declines it (the flatfly engine
// routes those).
//
// A line is the ring of one dimension through a switch (the other coordinates fixed). What
// routing asks of a line: is it intact (all K_n switches and K_n links there), and how far a
// packet can travel from a switch in each direction before a missing switch or link stops it.
#pragma once

#include "fabric/fabric.hpp"
#include "mapping/shape.hpp"
#include "mapping/switch_links.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ibrt::torus {

inline constexpr std::uint32_t kNone = mapping::kNone;
inline constexpr int kPlus = 0, kMinus = 1; // directions: +1 and -1 mod K_n

// Per switch port: the dimension its cable runs in, or one of these.
inline constexpr std::int8_t kPortNotSwitch = -1; // port 0, a CA/router port, no cable

class TorusGrid {
  public:
    int dims() const { return n_dims_; }
    int k(int d) const { return k_[d]; }
    std::size_t num_switches() const { return node_.size(); }
    NodeId node(std::uint32_t s) const { return node_[s]; }
    // Dense id (mapping::switch_links order) of a switch NodeId, kNone for end nodes.
    std::uint32_t dense(NodeId n) const { return dense_[n]; }
    int coord(std::uint32_t s, int d) const { return coord_[std::size_t(s) * n_dims_ + d]; }
    // The parity of the coordinate sum (ties between the two ways round a ring go by it).
    int parity(std::uint32_t s) const { return parity_[s]; }
    // The switch at `s` moved by `delta` (mod K_d) in dimension d; kNone if that one is missing.
    std::uint32_t at_offset(std::uint32_t s, int d, int delta) const;
    // The neighbour of s one step in direction dir of dimension d; kNone if it is missing.
    std::uint32_t neighbour(std::uint32_t s, int d, int dir) const {
        return neighbour_[slot(s, d, dir)];
    }
    // The port where the first of ports(s, d, dir) enters the neighbour (0: no cable).
    PortNum entry_port(std::uint32_t s, int d, int dir) const {
        return entry_port_[slot(s, d, dir)];
    }
    // Cables from s to its neighbour in dimension d and direction dir, by port number.
    std::span<const PortNum> ports(std::uint32_t s, int d, int dir) const {
        const std::size_t i = slot(s, d, dir);
        return {ports_.data() + port_start_[i], ports_.data() + port_start_[i + 1]};
    }
    // Steps a packet can make from s in direction dir along its line in d (at most K_d - 1).
    int reach(std::uint32_t s, int d, int dir) const { return reach_[slot(s, d, dir)]; }
    // The whole ring of dimension d through s is there: K_d switches and K_d links.
    bool intact(std::uint32_t s, int d) const { return intact_[std::size_t(s) * n_dims_ + d] != 0; }
    // Dimension of the cable on port p of switch NodeId n (kPortNotSwitch if none).
    std::int8_t port_dim(NodeId n, PortNum p) const { return port_dim_[first_port_[n] + p]; }
    std::size_t missing_switches() const { return missing_switches_; }
    std::size_t broken_lines() const { return broken_lines_; }

    // Builds the grid from the mapping; throws RoutingError when the shape is not a torus of
    // rings (see the header comment), with the mapping's reason when it found no shape.
    static TorusGrid build(const Fabric& f, const mapping::SwitchLinks& g,
                           const mapping::Shape& shape);

  private:
    std::size_t slot(std::uint32_t s, int d, int dir) const {
        return (std::size_t(s) * n_dims_ + d) * 2 + dir;
    }
    int n_dims_ = 0;
    std::vector<int> k_;
    std::vector<std::uint64_t> stride_;
    std::vector<std::uint32_t> at_;    // grid index -> dense switch or kNone
    std::vector<std::uint64_t> index_; // dense switch -> grid index
    std::vector<NodeId> node_;
    std::vector<std::uint32_t> dense_;
    std::vector<int> coord_;
    std::vector<std::uint8_t> parity_;
    std::vector<std::uint32_t> port_start_; // CSR over slot(s, d, dir)
    std::vector<PortNum> ports_;
    std::vector<std::uint8_t> reach_;
    std::vector<std::uint32_t> neighbour_;
    std::vector<PortNum> entry_port_;
    std::vector<std::uint8_t> intact_;
    std::vector<PortId> first_port_;    // per NodeId
    std::vector<std::int8_t> port_dim_; // per port slot
    std::size_t missing_switches_ = 0, broken_lines_ = 0;
};

} // namespace ibrt::torus
