// `ibrt convert IN --to FORMAT`: rewrites a topology in normalized ibnetdiscover form (loadable
// by ibsim, shared/notes/opensm-plugin-api.md §7), or turns the LIDs recorded in its
// `lid N lmc M` comments into opensm's guid2lid file (§3.3), so that a LID plan written as a
// topology can be pinned in a real opensm run (ibsim-e2e.md §5 "Pinning LIDs"). It also writes
// what ibdmchk (Debian ibutils) reads, from any tables ibrt reads: the topology as
// opensm-subnet.lst, LFTs (--lfts: opensm-lfts.dump, dump_fts, ibroute) as opensm.fdbs, and a
// path-SL file (--path-sl) normalized as `ibrt route` writes it.
#include "cli/option_checks.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"
#include "formats/guid2lid.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/lft_dump.hpp"
#include "formats/path_sl_file.hpp"
#include "formats/routing_files.hpp"
#include "formats/subnet_lst_writer.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

namespace ibrt::tools {
namespace {

struct Options {
    std::string in, to, out = "-", lfts, guid2lid, path_sl;
    unsigned sm_lid = 0;
    bool no_lids = false;
};

Lids lids_of(const Fabric& f, const Options& o) {
    if (!o.guid2lid.empty()) return bind_guid2lid(read_guid2lid_file(o.guid2lid), f, o.guid2lid);
    try {
        return Lids::from_fabric(f);
    } catch (const std::invalid_argument& e) {
        throw InputError(o.in, 0, std::string("the topology's LIDs cannot be used: ") + e.what());
    }
}

int run(const Options& o) {
    const Fabric f = load_topology(o.in);
    std::ofstream file;
    if (o.out != "-") {
        file.open(o.out, std::ios::binary | std::ios::trunc);
        if (!file) throw InputError(o.out, 0, std::string("cannot write: ") + std::strerror(errno));
    }
    std::ostream& out = o.out == "-" ? std::cout : file;
    if (o.to == "opensm-subnet.lst") {
        if (o.sm_lid > kMaxUnicastLid)
            throw InputError("--sm-lid", 0, fmt::format("{} is not a unicast LID", o.sm_lid));
        write_subnet_lst(out, f, lids_of(f, o), static_cast<Lid>(o.sm_lid));
    } else if (o.to == "opensm.fdbs") {
        if (o.lfts.empty()) throw InputError("--lfts", 0, "--to opensm.fdbs needs --lfts");
        write_opensm_fdbs(out, f, load_routing_files(f, {o.in, o.lfts, o.guid2lid}));
    } else if (o.to == "path-sl") {
        if (o.path_sl.empty()) throw InputError("--path-sl", 0, "--to path-sl needs --path-sl");
        Routing r;
        r.lids = lids_of(f, o);
        r.path_sls = load_path_sl_file(o.path_sl, f, r.lids);
        write_path_sl(out, f, r);
    } else if (o.to == "guid2lid") {
        Lids lids;
        try {
            lids = Lids::from_fabric(f);
        } catch (const std::invalid_argument& e) {
            throw InputError(o.in, 0,
                             std::string("LIDs cannot be written as guid2lid: ") + e.what());
        }
        if (lids.max_lid() == 0)
            fmt::print(stderr, "ibrt convert: {} has no LIDs; the guid2lid is empty\n", o.in);
        write_guid2lid(out, f, lids);
    } else {
        IbnetdiscoverWriteOptions opt;
        opt.lid_comments = !o.no_lids;
        write_ibnetdiscover(out, f, opt);
    }
    out.flush();
    if (!out) throw InputError(o.out, 0, "write failed");
    return kExitOk;
}

const CommandRegistrar reg{{
    "convert",
    "Rewrite a topology as ibnetdiscover or opensm-subnet.lst, its LIDs as guid2lid, tables for "
    "ibdmchk",
    [](CLI::App& sub) -> std::function<int()> {
        auto o = std::make_shared<Options>();
        sub.add_option("IN", o->in, "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst")
            ->required();
        sub.add_option("--to", o->to, "Output format")
            ->required()
            ->check(CLI::IsMember(
                {"ibnetdiscover", "guid2lid", "opensm-subnet.lst", "opensm.fdbs", "path-sl"}));
        sub.add_option("-o,--output", o->out, "Output file ('-' = stdout)")->capture_default_str();
        sub.add_flag("--no-lids", o->no_lids,
                     "ibnetdiscover: leave out the `lid N lmc M` comments, so ibsim starts "
                     "with no LIDs set");
        sub.add_option("--guid2lid", o->guid2lid,
                       "opensm-subnet.lst, opensm.fdbs, path-sl: LIDs from opensm's guid2lid "
                       "(default: the topology's)")
            ->check(cli::input_file());
        sub.add_option("--lfts", o->lfts,
                       "opensm.fdbs: the LFTs (opensm-lfts.dump, opensm.fdbs, dump_fts/ibroute)")
            ->check(cli::input_file());
        sub.add_option("--path-sl", o->path_sl, "path-sl: the path-SL file to normalize")
            ->check(cli::input_file());
        sub.add_option("--sm-lid", o->sm_lid,
                       "opensm-subnet.lst: mark the node with this LID `-SM`, as opensm marks "
                       "its own (default: none)");
        sub.footer(
            "guid2lid: one record per end port with a LID (switch node GUID, CA/router\n"
            "port GUID), `0x<guid> 0x<min> 0x<max>` and a blank line, as opensm writes\n"
            "it; copy it to $OSM_CACHE_DIR/guid2lid before opensm starts.\n"
            "opensm-subnet.lst, opensm.fdbs: opensm 3.3.23's formats, which `ibdmchk -s -f`\n"
            "reads; path-sl: `0x<source node GUID> <DLID> <SL>`, `ibdmchk -c` (written as\n"
            "`ibrt route` writes it: sources with an SL other than 0, all DLIDs each).\n"
            "Exit codes: 0 written, 2 bad input.");
        return [o] { return run(*o); };
    },
}};

} // namespace
} // namespace ibrt::tools
