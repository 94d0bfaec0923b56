// Loading a Routing from files; see routing_files.hpp.
#include "fabric/routing_files.hpp"

#include "fabric/guid2lid.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lft_dump.hpp"
#include "fabric/path_selection.hpp"
#include "fabric/sl2vl_dump.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace ibrt {

Routing load_routing_files(const Fabric& f, const RoutingFiles& files) {
    Routing r;
    if (!files.guid2lid.empty()) {
        r.lids = bind_guid2lid(read_guid2lid_file(files.guid2lid), f, files.guid2lid);
    } else {
        r.lids = Lids::from_fabric(f);
        if (r.lids.max_lid() == 0)
            throw InputError(files.fabric, 0,
                             "the topology has no `lid N` comments; give the LIDs with --guid2lid");
    }
    for (PortId p = 0; p < r.lids.num_port_slots(); ++p)
        if (r.lids.has_lid(p)) r.lmc = std::max(r.lmc, r.lids.lmc(p));

    const LftDump dump = read_lft_dump_file(files.lfts);
    r.lft = bind_lft_dump(dump, f, files.lfts);
    require_every_switch(dump, f, files.lfts);
    for (const auto& sw : dump.switches) {
        if (sw.lid == 0) continue; // dump_fts over DR paths gives no LID
        const NodeId n = *f.find_node_by_guid(sw.guid);
        const Lid mine = r.lids.base(f.port_id(n, 0));
        if (mine != sw.lid)
            throw InputError(files.lfts, sw.line,
                             fmt::format("switch 0x{:016x} has LID {} in the dump but {} in the {}",
                                         sw.guid, sw.lid, mine,
                                         files.guid2lid.empty() ? "topology" : "guid2lid file"));
    }
    load_routing_extras(f, files, r);
    return r;
}

void load_routing_extras(const Fabric& f, const RoutingFiles& files, Routing& r) {
    if (!files.sl2vl.empty())
        r.sl2vl = bind_sl2vl_dump(read_sl2vl_dump_file(files.sl2vl), f, files.sl2vl);
    if (!files.path_selection.empty())
        r.dlid_choice = bind_path_selection(read_path_selection_file(files.path_selection), f,
                                            r.lids, files.path_selection);
}

} // namespace ibrt
