// opensm's `opensm-sl2vl.dump` (osm_dump.c dump_sl2vl_tbl; opensm-plugin-api.md §6.4): one
// block per end port (switch port 0, CA and router ports), in any order:
//
//   <Switch|Channel Adapter|Router> 0x<port guid>, base LID <dec>, "<desc>"
//   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15
//   #--------------------------------------------------------
//   <in> <out> : <16 VLs, by SL>          switches: every cabled out port x in = 0..N
//   #--------------------------------------------------------        CAs/routers: `0 0 :` once
//   (blank line)
//
// Binding into Routing::sl2vl (see routing.hpp): a switch row (in, out) goes to
// tables[node][Sl2Vl::index(N, in, out)]; a CA/router block of port p puts its `0 0` row at
// (in = 0, out = p). Every node named by the dump gets all (N+1)^2 tables, pre-set to VL 15
// (drop) for the pairs the dump does not list; nodes it does not name keep an empty vector.
// The reader checks the block structure strictly (only opensm writes this file), so a
// truncated dump is an error naming the unterminated block.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

struct Sl2VlDump {
    struct Row {
        PortNum in = 0, out = 0;
        Sl2VlTable vl{};
        int line = 0;
    };
    struct Block {
        NodeType type = NodeType::CA;
        std::uint64_t port_guid = 0;
        Lid base_lid = 0;
        std::string desc;
        std::vector<Row> rows; // in file order
        int line = 0;          // of the block header
    };
    std::vector<Block> blocks;
};

Sl2VlDump read_sl2vl_dump(std::istream& in, const std::string& source);
Sl2VlDump read_sl2vl_dump_text(std::string_view text, const std::string& source);
Sl2VlDump read_sl2vl_dump_file(const std::string& path);

// Resolves the blocks against `f` (port GUID; a switch also by node GUID). Throws InputError
// naming the block line for an unknown GUID or a type that does not match the fabric, and the
// row line for a port the switch does not have. A dump without blocks gives an empty Sl2Vl.
Sl2Vl bind_sl2vl_dump(const Sl2VlDump& dump, const Fabric& f, const std::string& source);

// Writes opensm's format byte for byte for every node with tables, in node order: switches
// with rows for each cabled out port (in = 0..N), CAs/routers one block per cabled port. Base
// LIDs come from `r.lids`. Writes nothing when r.sl2vl is empty.
void write_sl2vl_dump(std::ostream& out, const Fabric& f, const Routing& r);

} // namespace ibrt
