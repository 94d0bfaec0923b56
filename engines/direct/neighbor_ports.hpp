// What the direct-topology engines share once a fabric is mapped (mapping/): the ports of each
// switch toward each neighbouring switch, so that parallel cables (L > 1, paper 003 §1) carry
// destinations in balance; and SL2VL tables built from a rule on (input port, output port,
// SL), the only inputs an IBA SL2VL table has (paper 003 §3: "(Switch, SL, In Port, Out
// Port) -> Out VL").
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"
#include "fabric/routing.hpp"
#include "mapping/switch_links.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ibrt::direct {

class NeighborPorts {
  public:
    NeighborPorts(const Fabric& f, const mapping::SwitchLinks& g);
    // The ports of dense switch v cabled to dense switch t, ascending; empty if none.
    std::span<const PortNum> to(std::uint32_t v, std::uint32_t t) const;
    bool linked(std::uint32_t v, std::uint32_t t) const { return !to(v, t).empty(); }
    // One of those ports for `lid`: destinations spread over parallel cables.
    PortNum spread(std::uint32_t v, std::uint32_t t, Lid lid) const {
        const auto p = to(v, t);
        return p[lid % p.size()];
    }

  private:
    // Per switch, its cables sorted by (peer, port), as two parallel arrays.
    std::vector<std::vector<std::uint32_t>> peers_;
    std::vector<std::vector<PortNum>> ports_;
};

// Where each LID leads: the dense switch that delivers it (a switch's own LID, or the switch a
// CA port is cabled to) and the port there (0 for the switch itself); switch kNone for LIDs no
// port owns or CA ports not cabled to a switch. Direct engines route by destination switch
// and fill every LFT from this.
struct LidTarget {
    std::uint32_t sw = mapping::kNone;
    PortNum port = 0;
};
std::vector<LidTarget> lid_targets(const Fabric& f, const mapping::SwitchLinks& g,
                                   const Lids& lids);

// SL2VL tables for every switch of `g`: table (in, out)[sl] = vl(class of in, class of out,
// sl) where class(PortId) is the engine's classification of a port (host, dimension, local,
// global, ...; port 0 is a PortId too). SLs >= `used_sls` map to VL 15 (dropped): no path
// uses them.
Sl2Vl sl2vl_by_port(const Fabric& f, const mapping::SwitchLinks& g,
                    const std::function<int(PortId)>& port_class,
                    const std::function<std::uint8_t(int in, int out, unsigned sl)>& vl,
                    unsigned used_sls);

} // namespace ibrt::direct
