// `ibrt convert IN --to ibnetdiscover|guid2lid`: rewrites a topology in normalized ibnetdiscover
// form (loadable by ibsim, shared/notes/opensm-plugin-api.md §7), or turns the LIDs recorded in
// its `lid N lmc M` comments into opensm's guid2lid file (§3.3), so that a LID plan written as a
// topology can be pinned in a real opensm run (ibsim-e2e.md §5 "Pinning LIDs").
#include "fabric/guid2lid.hpp"
#include "fabric/ibnetdiscover.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"
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
    std::string in, to, out = "-";
    bool no_lids = false;
};

int run(const Options& o) {
    const Fabric f = read_ibnetdiscover_file(o.in);
    std::ofstream file;
    if (o.out != "-") {
        file.open(o.out, std::ios::binary | std::ios::trunc);
        if (!file) throw InputError(o.out, 0, std::string("cannot write: ") + std::strerror(errno));
    }
    std::ostream& out = o.out == "-" ? std::cout : file;
    if (o.to == "guid2lid") {
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
    "Rewrite a topology as normalized ibnetdiscover, or write its LIDs as an opensm guid2lid",
    [](CLI::App& sub) -> std::function<int()> {
        auto o = std::make_shared<Options>();
        sub.add_option("IN", o->in, "Topology in ibnetdiscover / ibsim net format")->required();
        sub.add_option("--to", o->to, "Output format")
            ->required()
            ->check(CLI::IsMember({"ibnetdiscover", "guid2lid"}));
        sub.add_option("-o,--output", o->out, "Output file ('-' = stdout)")->capture_default_str();
        sub.add_flag("--no-lids", o->no_lids,
                     "ibnetdiscover: leave out the `lid N lmc M` comments, so ibsim starts "
                     "with no LIDs set");
        sub.footer("guid2lid: one record per end port with a LID (switch node GUID, CA/router\n"
                   "port GUID), `0x<guid> 0x<min> 0x<max>` and a blank line, as opensm writes\n"
                   "it; copy it to $OSM_CACHE_DIR/guid2lid before opensm starts.");
        return [o] { return run(*o); };
    },
}};

} // namespace
} // namespace ibrt::tools
