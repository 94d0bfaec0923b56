// The builder every topology generator goes through: one documented GUID scheme, one label
// style, one default link, so that the same parameters always give the same file.
//
// GUID scheme (chosen to never collide and to be readable in dumps):
//   switch s (0-based, in the order the generator adds it):
//       node GUID = system image GUID = port-0 GUID = 0x0020000000000000 + ((s + 1) << 8)
//   CA c (0-based, in the order the generator adds it):
//       node GUID = system image GUID = 0x0010000000000000 + ((c + 1) << 8)
//       port p GUID = node GUID + p            (ibsim derives CA port GUIDs the same way)
// The low byte is left free for port numbers, so switch and CA GUIDs stay in disjoint ranges
// for up to 2^44 nodes of each kind.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ibrt::gen {

inline constexpr std::uint64_t kSwitchGuidBase = 0x0020000000000000ull;
inline constexpr std::uint64_t kCaGuidBase = 0x0010000000000000ull;
inline constexpr int kMaxPorts = 254; // IB port numbers are 1..254 on a node

std::uint64_t switch_guid(std::uint64_t s);
std::uint64_t ca_guid(std::uint64_t c);

// Bad generator parameters: the CLI reports them as bad input (exit 2).
struct GenError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Link attributes every generated cable gets (ibsim's default is 4x SDR).
struct LinkSpec {
    std::uint8_t width = 4;
    LinkSpeed speed = LinkSpeed::SDR;
};

// Every generated node gets its label as both NodeDescription and node id, so ibsim console
// commands and --fail-link can name it ("leaf-0"[5]).
class GenBuilder {
  public:
    explicit GenBuilder(LinkSpec link = {}) : link_(link) {}
    NodeId add_switch(std::string desc, int ports);
    NodeId add_ca(std::string desc, int ports = 1);
    // Cables a:pa <-> b:pb with the builder's link attributes.
    void link(NodeId a, int pa, NodeId b, int pb);
    std::size_t num_switches() const { return switches_; }
    std::size_t num_cas() const { return cas_; }
    Fabric build() &&;

  private:
    FabricBuilder b_;
    LinkSpec link_;
    std::uint64_t switches_ = 0, cas_ = 0;
};

// Digits of a label: concatenated when every digit is below 10 (`012`), otherwise joined by
// '.' (`12.0.3`) so labels stay unambiguous for any radix.
std::string join_digits(const std::vector<int>& digits, bool concatenate);

// Throws GenError(what) unless cond.
inline void require(bool cond, const std::string& what) {
    if (!cond) throw GenError(what);
}

} // namespace ibrt::gen
