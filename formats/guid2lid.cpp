// guid2lid reader, binder and writer (opensm osm_db_files.c osm_db_restore, osm_db_pack.c
// unpack_lids, osm_lid_mgr.c; opensm-plugin-api.md §3.3 and ibsim-e2e.md §5 "Pinning LIDs").
// The reader follows osm_db_restore's two states (before a key / inside a record) so that
// every way opensm would misread a file is reported at the line where it happens.
#include "formats/guid2lid.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <bit>
#include <istream>
#include <iterator>
#include <ostream>
#include <unordered_map>

namespace ibrt {
namespace {

using namespace table_text;

// unpack_lids rejects values >= 0xC000.
constexpr std::uint64_t kLidLimit = 0xC000;

Lid parse_lid(std::string_view word, const char* what, const std::string& source, int line) {
    if (word.empty()) throw InputError(source, line, "record needs '<guid> <min lid> <max lid>'");
    const auto v = parse_c_uint(word, 0xffffffffu);
    if (!v)
        throw InputError(source, line, fmt::format("cannot parse {} LID {}", what, quote(word)));
    if (*v >= kLidLimit)
        throw InputError(
            source, line,
            fmt::format("{} LID {:#x} is not below 0xc000 (opensm rejects the record)", what, *v));
    return static_cast<Lid>(*v);
}

} // namespace

std::vector<Guid2LidEntry> read_guid2lid_text(std::string_view text, const std::string& source) {
    std::vector<Guid2LidEntry> out;
    std::unordered_map<std::uint64_t, int> first_line;
    Lines lines(text);
    std::string_view line;
    int open_record = 0; // line of the record whose terminating blank line is still due
    while (lines.next(line)) {
        const int no = lines.line_no();
        if (!line.empty() && line.back() == '\r')
            throw InputError(source, no,
                             "line ends with CR (DOS line endings): opensm does not see the "
                             "blank lines between records");
        if (line.empty()) {
            open_record = 0;
            continue;
        }
        if (trim(line).empty())
            throw InputError(source, no,
                             "line holds only blanks: opensm needs empty lines between records "
                             "(this one does not end a record, and at a record start it stops "
                             "reading)");
        if (open_record)
            throw InputError(source, no,
                             fmt::format("no blank line between this line and the record at line "
                                         "{}: opensm would append it to that record and lose this "
                                         "GUID (guid2lid records must be separated by blank lines)",
                                         open_record));
        if (is_space(line.front()))
            throw InputError(source, no,
                             "record starts with a blank: opensm stops reading the file here");
        if (line.front() == '#')
            throw InputError(source, no,
                             line.starts_with("# ibrt path selection")
                                 ? "this is an ibrt path-selection file, not a guid2lid (give it "
                                   "with --path-selection)"
                                 : "guid2lid has no comments: opensm would take '#...' as a GUID");
        std::string_view rest = line;
        const std::string_view guid_s = next_word(rest);
        const auto guid = parse_c_uint(guid_s, ~std::uint64_t{0});
        if (!guid) throw InputError(source, no, "cannot parse GUID " + quote(guid_s));
        if (*guid == 0) throw InputError(source, no, "GUID 0 is not a port GUID");
        Guid2LidEntry e;
        e.guid = *guid;
        e.line = no;
        e.min = parse_lid(next_word(rest), "min", source, no);
        e.max = parse_lid(next_word(rest), "max", source, no);
        if (!trim(rest).empty())
            throw InputError(source, no, "unexpected text after the max LID: " + quote(trim(rest)));
        if ((e.min == 0) != (e.max == 0))
            throw InputError(source, no,
                             fmt::format("{} LID is 0 (reserved; opensm writes 0x0000 0x0000 only "
                                         "for a port it gave no LID)",
                                         e.min == 0 ? "min" : "max"));
        if (e.min > e.max)
            throw InputError(source, no,
                             fmt::format("min LID {:#06x} is above max LID {:#06x}", e.min, e.max));
        const auto [it, fresh] = first_line.emplace(e.guid, no);
        if (!fresh)
            throw InputError(source, no,
                             fmt::format("GUID {:#018x} is listed twice (first at line {}); "
                                         "opensm drops the second record",
                                         e.guid, it->second));
        out.push_back(e);
        open_record = no;
    }
    return out;
}

std::vector<Guid2LidEntry> read_guid2lid(std::istream& in, const std::string& source) {
    const std::string text = read_input_stream(in, source, kMaxTopologyBytes, "guid2lid file");
    return read_guid2lid_text(text, source);
}

std::vector<Guid2LidEntry> read_guid2lid_file(const std::string& path) {
    const std::string text = read_input_file(path, kMaxTopologyBytes, "guid2lid file");
    return read_guid2lid_text(text, path);
}

Lids bind_guid2lid(const std::vector<Guid2LidEntry>& entries, const Fabric& f,
                   const std::string& source) {
    Lids lids(f);
    std::vector<int> line_by_lid(kLidLimit, 0);           // record that claimed each LID
    std::vector<int> line_by_port(f.num_port_slots(), 0); // record that gave a port its LIDs
    for (const Guid2LidEntry& e : entries) {
        PortId port = kNoPort;
        if (const auto p = f.find_port_by_guid(e.guid)) {
            const NodeId n = f.port_node(*p);
            port = f.node(n).is_switch() ? f.port_id(n, 0) : *p;
        } else if (const auto n = f.find_node_by_guid(e.guid)) {
            if (!f.node(*n).is_switch())
                throw InputError(source, e.line,
                                 fmt::format("GUID {:#018x} is the node GUID of {} '{}'; guid2lid "
                                             "keys CA and router ports by port GUID",
                                             e.guid, to_string(f.node(*n).type), f.node(*n).desc));
            port = f.port_id(*n, 0);
        } else {
            throw InputError(source, e.line,
                             fmt::format("GUID {:#018x} is not a port of the fabric", e.guid));
        }
        const NodeId node = f.port_node(port);
        if (!f.node(node).is_switch() && f.port_num(port) == 0)
            throw InputError(source, e.line,
                             fmt::format("GUID {:#018x} names port 0 of '{}', which is not an end "
                                         "port",
                                         e.guid, f.node(node).desc));
        if (line_by_port[port])
            throw InputError(source, e.line,
                             fmt::format("port of '{}' already got LIDs from the record at line {}",
                                         f.node(node).desc, line_by_port[port]));
        line_by_port[port] = e.line;
        if (e.min == 0) continue; // `0x0000 0x0000`: the port has no LID (opensm ran out)
        const unsigned count = unsigned(e.max) - e.min + 1;
        if (!std::has_single_bit(count))
            throw InputError(source, e.line,
                             fmt::format("LID range {:#06x}-{:#06x} holds {} LIDs, not a power of "
                                         "two (2^LMC)",
                                         e.min, e.max, count));
        const int lmc = std::countr_zero(count);
        if (lmc > kMaxLmc)
            throw InputError(source, e.line,
                             fmt::format("LID range {:#06x}-{:#06x} needs LMC {}; the maximum is 7",
                                         e.min, e.max, lmc));
        if (const std::string p = unaligned_base_lid_problem(e.min, std::uint8_t(lmc)); !p.empty())
            throw InputError(source, e.line, "LID range: " + p);
        for (unsigned lid = e.min; lid <= e.max; ++lid)
            if (line_by_lid[lid])
                throw InputError(source, e.line,
                                 fmt::format("LID {:#06x} is also claimed by the record at line {}",
                                             lid, line_by_lid[lid]));
        for (unsigned lid = e.min; lid <= e.max; ++lid) line_by_lid[lid] = e.line;
        lids.assign(port, e.min, static_cast<std::uint8_t>(lmc));
    }
    return lids;
}

void write_guid2lid(std::ostream& out, const Fabric& f, const Lids& lids) {
    fmt::memory_buffer buf;
    auto it = std::back_inserter(buf);
    auto put = [&](PortId p) {
        if (!lids.has_lid(p)) return;
        const unsigned base = lids.base(p);
        fmt::format_to(it, "0x{:016x} 0x{:04x} 0x{:04x}\n\n", f.end_port_guid(p), base,
                       base + (1u << lids.lmc(p)) - 1);
    };
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        if (node.is_switch()) {
            put(f.port_id(n, 0));
        } else {
            for (PortNum p = 1; p <= node.num_ports; ++p) put(f.port_id(n, p));
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

} // namespace ibrt
