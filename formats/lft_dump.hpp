// Linear forwarding table dumps: opensm's `opensm-lfts.dump` (also the `lfts_file` format of
// the `file` routing engine), opensm's `opensm.fdbs` (`osm.fdbs` in old versions; what
// `ibdmchk -f` reads) and the output of `ibroute` / `dump_fts`
// (shared/notes/opensm-plugin-api.md §3.1, §6.1, §6.2, §6.5; opensm osm_dump.c dump_ucast_lfts,
// dump_ucast_routes, osm_ucast_file.c; rdma-core infiniband-diags ibroute.c, dump_fts.c). The
// reader detects which one it has.
//
// What the reader accepts, line by line (leading/trailing blanks ignored):
//   `Unicast lids [lo-hi] of switch <where> guid 0x<hex> ('desc'):`  opensm header (decimal range)
//   `Unicast lids [0xlo-0xhi] of switch <where> guid 0x<hex> (desc):` ibroute/dump_fts header;
//       <where> is `Lid N` or `DR path ...` (dump_fts), which gives no LID (Switch::lid = 0).
//       As in opensm's `file` engine, everything before ` guid` is free-form and the range
//       may be missing (a hand-written lfts_file).
//   `0x<lid> <port> [anything]`     an entry; the rest (`# ...`, `: (...)`) is commentary.
//       Port 255 (what `ibroute -a` prints for an invalid entry) is stored as kNoPath.
//   `  Lid  Out   Destination`, `       Port     Info`: ibroute's column headers.
//   `N lids dumped`, `N valid lids dumped`: the trailer; it closes the switch block. opensm
//       prints the range top, ibroute the number of entries; both are checked.
//   `Multicast mlids ...`: an MFT section of `ibroute -M` / `dump_fts -M`; skipped up to the
//       next `Unicast lids` header.
//   `dump_ucast_routes: Switch 0x<hex>`: an opensm.fdbs switch header (no LID, no range, no
//       trailer: the block ends at the next header), followed by its column header
//       `LID    : Port : Hops : Optimal` and entries `0x<LID> : <port> : <hops> : <optimal>`,
//       `0x<LID> : <port>  : HOPS UNKNOWN` or `0x<LID> : UNREACHABLE` (no entry).
//   blank lines and `#` comments.
// Anything else is an error, as are entries outside a switch block, LIDs above 0xbfff,
// unparsable LIDs or ports, a LID listed twice for one switch and a switch listed twice.
// Data is taken as dumped: infiniband-diags do not print the top LID when it is a multiple of
// 64 (ibsim-e2e.md §9.7), so such an LFT reads with kNoPath there.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

enum class LftDumpFormat { OpenSM, Ibroute, Fdbs };

struct LftDump {
    struct Switch {
        std::uint64_t guid = 0; // switch node GUID from the header
        Lid lid = 0;            // the switch's own LID from the header; 0 if not given
        std::string desc;
        // Out port by LID, kNoPath where the dump has no entry. Sized to the larger of the
        // header's range top and the largest listed LID, plus one.
        Lft lft;
        int line = 0; // of the header
    };
    LftDumpFormat format = LftDumpFormat::OpenSM;
    std::vector<Switch> switches;
};

LftDump read_lft_dump(std::istream& in, const std::string& source);
LftDump read_lft_dump_text(std::string_view text, const std::string& source);
LftDump read_lft_dump_file(const std::string& path);

// The LFTs per NodeId of `f` (empty for non-switches); every switch's LFT is sized to the
// largest LFT of the dump (switches the dump lacks get all kNoPath, as opensm's `file` engine
// leaves them). Throws InputError naming the header line of a switch GUID that `f` does not
// have or that is not a switch, and the line of an entry whose port does not exist on that
// switch (found again in the file `source`; the header's when it is not a file).
std::vector<Lft> bind_lft_dump(const LftDump& dump, const Fabric& f, const std::string& source);

// Throws InputError when a switch of `f` has no table in `dump`: a partial dump (or one of
// another fabric) would make every verdict about the missing switches wrong. Consumers that
// judge tables (`ibrt check`, `ibrt sim`) call it; bind_lft_dump alone maps what is there.
void require_every_switch(const LftDump& dump, const Fabric& f, const std::string& source);

// Writes opensm's format byte for byte as dump_ucast_lfts does, loadable by the `file`
// engine: one block per switch of `f` in node order, LIDs 0..r.lids.max_lid(), entries with
// no valid port (kNoPath or above the port count) omitted, `# <type> portguid 0x...: 'desc'`
// comments from `r.lids`, and the `N lids dumped` trailer that prints the top LID.
// `annotate` false leaves the comments out (`0x<lid> <port>` alone): opensm's `file` engine
// then takes each LID as it is instead of looking up its port GUID, and the dump is a sixth of
// the size (2.6 GB -> 0.4 GB for 2,048 switches and 18,433 LIDs).
void write_lft_dump(std::ostream& out, const Fabric& f, const Routing& r, bool annotate = true);

// Writes opensm.fdbs as opensm 3.3.23's dump_ucast_routes does (formats/fdbs_writer.cpp says
// how the hop columns are derived), byte for byte where every entry is on a shortest path.
void write_opensm_fdbs(std::ostream& out, const Fabric& f, const Routing& r);

} // namespace ibrt
