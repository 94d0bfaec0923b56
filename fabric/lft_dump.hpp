// Linear forwarding table dumps: opensm's `opensm-lfts.dump` (also the `lfts_file` format of
// the `file` routing engine) and the output of `ibroute` / `dump_fts`
// (shared/notes/opensm-plugin-api.md §3.1, §6.1, §6.2). The reader detects which one it has.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace ibrt {

enum class LftDumpFormat { OpenSM, Ibroute };

struct LftDump {
    struct Switch {
        std::uint64_t guid = 0; // switch node GUID from the header
        Lid lid = 0;            // the switch's own LID from the header
        std::string desc;
        Lft lft; // out port by LID, kNoPath where the dump has no entry
        int line = 0;
    };
    LftDumpFormat format = LftDumpFormat::OpenSM;
    std::vector<Switch> switches;
};

LftDump read_lft_dump(std::istream& in, const std::string& source);
LftDump read_lft_dump_file(const std::string& path);

// The LFTs per NodeId of `f` (empty for non-switches), each sized to the largest LID + 1.
// Throws InputError naming the header line of a switch GUID that `f` does not have, and of
// an entry whose port does not exist on that switch.
std::vector<Lft> bind_lft_dump(const LftDump& dump, const Fabric& f, const std::string& source);

// Writes opensm's format, loadable by the `file` engine: one block per switch of `f`, in
// node order, with `# <type> portguid 0x...: 'desc'` comments from `r.lids`.
void write_lft_dump(std::ostream& out, const Fabric& f, const Routing& r);

} // namespace ibrt
