// Loading a Routing from files; see routing_files.hpp.
#include "formats/routing_files.hpp"

#include "formats/forwarding_sets_file.hpp"

#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/lft_dump.hpp"
#include "formats/path_selection.hpp"
#include "formats/path_sl_file.hpp"
#include "formats/sl2vl_dump.hpp"
#include "formats/subnet_lst_reader.hpp"
#include "formats/table_text.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace ibrt {

TopologyFormat detect_topology_format(const std::string& path) {
    // Only a regular file is peeked at (a FIFO would block here); the reader then refuses
    // anything else with the input opener's message (formats/input_file.hpp).
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return TopologyFormat::Ibnetdiscover;
    std::ifstream in(path, std::ios::binary);
    std::string chunk(1 << 16, '\0');
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    chunk.resize(static_cast<std::size_t>(in.gcount()));
    table_text::Lines lines(chunk);
    std::string_view line;
    while (lines.next(line)) {
        line = table_text::trim(line);
        if (line.empty() || line.front() == '#') continue;
        return line.front() == '{' ? TopologyFormat::SubnetLst : TopologyFormat::Ibnetdiscover;
    }
    return TopologyFormat::Ibnetdiscover;
}

Fabric load_topology(const std::string& path) {
    if (detect_topology_format(path) == TopologyFormat::SubnetLst)
        return read_subnet_lst_file(path);
    return read_ibnetdiscover_file(path);
}

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
    if (files.guid2lid.empty() && !files.fabric.empty() &&
        detect_topology_format(files.fabric) == TopologyFormat::SubnetLst)
        for (const auto& sw : dump.switches)
            for (std::size_t lid = 1; lid < sw.lft.size(); ++lid)
                if (sw.lft[lid] != kNoPath && r.lids.owner(static_cast<Lid>(lid)) == kNoPort)
                    throw InputError(
                        files.lfts, sw.line,
                        fmt::format("{} routes LID {}, which no port owns in {}: the subnet "
                                    "ran with LMC > 0, which opensm-subnet.lst does not record; "
                                    "give the LIDs with --guid2lid",
                                    display_name(f, *f.find_node_by_guid(sw.guid)), lid,
                                    files.fabric));
    for (const auto& sw : dump.switches) {
        if (sw.lid == 0) continue; // dump_fts over DR paths gives no LID
        const NodeId n = *f.find_node_by_guid(sw.guid);
        const Lid mine = r.lids.base(f.port_id(n, 0));
        if (mine != sw.lid)
            throw InputError(files.lfts, sw.line,
                             fmt::format("{} has LID {} in the dump but {} in the {}",
                                         display_name(f, n), sw.lid, mine,
                                         files.guid2lid.empty() ? "topology" : "guid2lid file"));
    }
    load_routing_extras(f, files, r);
    return r;
}

void load_routing_extras(const Fabric& f, const RoutingFiles& files, Routing& r) {
    if (!files.sl2vl.empty())
        r.sl2vl = bind_sl2vl_dump(read_sl2vl_dump_file(files.sl2vl), f, files.sl2vl);
    if (!files.path_sl.empty()) r.path_sls = load_path_sl_file(files.path_sl, f, r.lids);
    if (!files.path_selection.empty())
        r.dlid_choice = load_path_selection_file(files.path_selection, f, r.lids);
    if (!files.forwarding_sets.empty())
        r.forwarding_sets = std::make_shared<const RoutingFunction>(
            load_forwarding_sets_file(files.forwarding_sets, f, r.lids.max_lid()));
}

} // namespace ibrt
