// The path SLs the SA hands out, asked of the routing engine in use for every pair at once, so
// that the SLs of opensm's own engines (lash, dfsssp, nue, torus-2QoS) can be judged and
// simulated on fabrics where one saquery per pair would take hours (docs/deploy.md,
// `path_sl=`). The SA's PathRecord answer is the engine's path_sl(hint, SLID, DLID), the hint
// being the QoS or partition SL, OSM_DEFAULT_SL (0) when neither sets one (opensm
// osm_sa_path_record.c, pr_rcv_get_path_parms); this asks the same callback with that hint.
//
// The pure part (no opensm types, unit-tested): which pairs are asked and how the answers
// become a PathSlTable. Sources are the end ports `ibrt check` walks from (CA and router ports
// with a LID), from their base LID; destinations are every LID of every port.
#pragma once

#include "fabric/end_ports.hpp"
#include "fabric/lids.hpp"
#include "fabric/path_sl_table.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::osm {

// ask(slid, dlid) -> SL. Rows stay unset (SL 0) for sources whose every answer is 0, so a
// routing that sets no SLs gives an empty table.
template <class Ask> PathSlTable ask_path_sls(const Fabric& f, const Lids& lids, Ask&& ask) {
    std::vector<Lid> dlids;
    for (std::uint32_t d = 1; d <= lids.max_lid(); ++d)
        if (lids.owner(Lid(d)) != kNoPort) dlids.push_back(Lid(d));
    PathSlTable table;
    std::vector<std::uint8_t> row(std::size_t(lids.max_lid()) + 1);
    for (PortId src : all_end_ports(f, &lids)) {
        bool any = false;
        for (Lid d : dlids) {
            // The SA does not answer a port's path to itself.
            const std::uint8_t sl = lids.owner(d) == src ? 0 : ask(lids.base(src), d);
            row[d] = sl;
            any |= sl != 0;
        }
        if (!any) continue;
        if (table.empty()) table = PathSlTable(f.num_port_slots(), lids.max_lid());
        table.set_row(src, row);
    }
    return table;
}

} // namespace ibrt::osm
