// Paths through an intermediate chosen at the source switch, on a Dragonfly: Valiant's
// randomized routing (Valiant & Brebner 1981; Kim et al., ISCA 2008, §4.1 "VAL") and UGAL-L
// (Kim et al. §4.1, "UGAL with local queue information"), as BookSim2 models them
// (networks/dragonfly.cpp, ugal_dragonflynew): the field's standard Dragonfly baselines, beside
// paper 003 §3.5's routings (issue 38).
//
// Why a routing of its own and not forwarding sets: the path is fixed at the source — a
// random intermediate host, then minimal to it, then minimal to the destination — so the
// switches between must know where the packet is going, which a choice per switch
// (fabric/routing_function.hpp) cannot carry (docs/results/booksim-dragonfly.md measured the
// difference). The packet carries its phase and, until it reaches the intermediate switch, the
// intermediate's LID as the DLID its hops are looked up by; every hop follows the routing's
// LFTs (minimal on a Dragonfly engine's Static routing). Not an IBA mechanism: a switch cannot
// rewrite a DLID; it is a simulation of the literature's routing, for comparisons.
//
// BookSim's rules, one by one:
//   - At the source switch: a destination in the source's group goes minimally. Otherwise an
//     intermediate host is drawn uniformly over every host (the source's own included); one in
//     the source's group means minimal. Valiant then always takes the intermediate (phase 0);
//     UGAL-L takes it only when the credits in use downstream of the minimal output exceed
//     twice those of the output toward the intermediate plus kUgalThreshold (sim/selection.hpp,
//     the one UGAL rule: "1 * min <= 2 * nonmin + 30"). Minimal is phase 1.
//   - Phase 0 ends at the intermediate host's switch (phase 1 from there).
//   - The hop that leaves a group is a dateline (BookSim's "optical dateline").
//   - VLs (SL2VL unused), with 3 VLs BookSim's (its VC = ph): phase 0 on VL 0; phase 1 on VL 1,
//     on VL 2 from its dateline on (and within the source's group); a host injects on a
//     uniformly random one (BookSim's inject_vc). This can deadlock: phase 0's local, global,
//     local hops on one VL chain across groups into a cycle (measured: Valiant on 72 hosts at
//     offered 0.5, tests/sim/test_via_routing.cpp; the watchdog names the cycle). With 4 VLs or
//     more each phase has its dateline: VL 2 * phase + (dateline crossed), so every path climbs
//     local VL 0 < global and local VL 1 < local VL 2 < global and local VL 3 (a phase leaves a
//     group once: one global link joins two groups), and the channel dependencies are acyclic.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/rng.hpp"
#include "fabric/routing.hpp"
#include "sim/selection.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ibrt::sim {

enum class Via : std::uint8_t {
    None,    // the routing's own paths
    Valiant, // every packet through a random intermediate (outside the source's group)
    Ugal,    // UGAL-L: through it only when the minimal output's queue is the longer
};
std::string_view to_string(Via v); // "none", "valiant", "ugal"
std::optional<Via> parse_via(std::string_view name);

// VLs the paths need: BookSim's scheme (3), the deadlock-free one from 4.
inline constexpr std::uint8_t kViaVls = 3;

// What a packet carries on such a path.
struct ViaPacket {
    Lid dlid = 0;           // its destination's DLID while it heads for the intermediate
    NodeId via = 0;         // the intermediate host's switch (phase 0)
    std::uint8_t phase = 1; // 0: toward the intermediate, 1: toward the destination
    bool crossed = false;   // the phase has taken its hop out of a group
};

class ViaRouting {
  public:
    // Per endpoint (all_end_ports() order): the switch it is cabled to and its base LID. Throws
    // std::invalid_argument unless `f` maps as a Dragonfly or Dragonfly+ (the groups come from
    // mapping/, never from names).
    ViaRouting(const Fabric& f, const Routing& r, Via mode, std::uint8_t num_vls,
               std::uint64_t seed, std::vector<NodeId> ca_switch, std::vector<Lid> ca_lid);

    // The source switch's decision for a packet to CA `dst` whose DLID is `dlid`: sets `dlid`
    // to the intermediate's LID when the packet goes through one. `used(port)`: the credits in
    // use downstream of the switch's output `port`, over its VLs (BookSim's GetUsedCredit).
    template <class Used> ViaPacket start(NodeId sw, std::uint32_t dst, Lid& dlid, Used&& used) {
        ViaPacket s;
        s.dlid = dlid;
        if (group_[sw] == group_[ca_switch_[dst]]) { // within the group: past its dateline
            s.crossed = true;
            return s;
        }
        const auto i = std::uint32_t(rng_.below(ca_switch_.size()));
        if (group_[ca_switch_[i]] == group_[sw]) return s; // the intermediate is at home
        if (mode_ == Via::Ugal &&
            ugal_takes_minimal(std::max(used(r_.out_port(sw, dlid)), 0),
                               2 * std::max(used(r_.out_port(sw, ca_lid_[i])), 0)))
            return s;
        s.phase = 0;
        s.via = ca_switch_[i];
        dlid = ca_lid_[i];
        return s;
    }
    // Whether the hop out of `sw` by `port` leaves the switch's group.
    bool leaves_group(NodeId sw, PortNum port) const;
    // The VLs the scheme takes (3: BookSim's, 4: deadlock-free).
    std::uint8_t vls() const { return vls_; }
    // The VL of the packet's next hop, and BookSim's inject_vc (a uniformly random one).
    std::uint8_t vl(const ViaPacket& s) const {
        return vls_ == kViaVls ? (s.phase == 0 ? 0 : 1 + s.crossed) : 2 * s.phase + s.crossed;
    }
    std::uint8_t source_vl(gen::Rng& rng) const { return std::uint8_t(rng.below(vls_)); }

  private:
    const Fabric& f_;
    const Routing& r_;
    Via mode_;
    std::uint8_t vls_;
    std::vector<std::uint32_t> group_; // per NodeId (switches)
    std::vector<NodeId> ca_switch_;    // per endpoint (all_end_ports() order)
    std::vector<Lid> ca_lid_;          // per endpoint: its base LID
    gen::Rng rng_;
};

} // namespace ibrt::sim
