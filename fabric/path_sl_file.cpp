// Reader, binder and writer of the path-SL file (ibdmchk -c); format and rules in
// path_sl_file.hpp.
#include "fabric/path_sl_file.hpp"

#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "fabric/input_file.hpp"
#include "fabric/table_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace ibrt {
namespace {

using namespace table_text;

constexpr std::uint8_t kUnset = 0xff;

// The port whose SLs stand for node `n` in the file (ibdmchk keeps one table per node): a
// switch's port 0, a CA's first end port with a LID; kNoPort if it has none.
PortId node_port(const Fabric& f, const Lids& lids, NodeId n) {
    return f.node(n).is_switch() ? f.port_id(n, 0) : first_end_port(f, n, &lids);
}

} // namespace

std::vector<PathSlEntry> read_path_sl_text(std::string_view text, const std::string& source) {
    std::vector<PathSlEntry> out;
    Lines lines(text);
    std::string_view raw;
    while (lines.next(raw)) {
        std::string_view rest = trim(raw);
        if (rest.empty() || rest.front() == '#') continue;
        auto fail = [&](const std::string& problem) {
            throw InputError(source, lines.line_no(), problem);
        };
        const std::string_view g = next_word(rest);
        const std::string_view d = next_word(rest);
        const std::string_view s = next_word(rest);
        if (s.empty() || !trim(rest).empty())
            fail("expected `0x<source node GUID> <DLID> <SL>` (ibdmchk -c format), got " +
                 quote(trim(raw)));
        PathSlEntry e;
        e.line = lines.line_no();
        const auto guid = g.size() > 2 && g[0] == '0' && (g[1] == 'x' || g[1] == 'X')
                              ? parse_uint(g.substr(2), 16, ~std::uint64_t{0})
                              : std::nullopt;
        if (!guid || *guid == 0) fail("bad source node GUID " + quote(g) + " (expected 0x<hex>)");
        const auto dlid = parse_uint(d, 10, 0xffff);
        if (!dlid || *dlid == 0 || *dlid > kMaxUnicastLid)
            fail("bad DLID " + quote(d) + " (expected a decimal unicast LID, 1..49151)");
        const auto sl = parse_uint(s, 10, 255);
        if (!sl || *sl > 15) fail("bad SL " + quote(s) + " (expected 0..15)");
        e.node_guid = *guid;
        e.dlid = static_cast<Lid>(*dlid);
        e.sl = static_cast<std::uint8_t>(*sl);
        out.push_back(e);
    }
    return out;
}

std::vector<PathSlEntry> read_path_sl_file(const std::string& path) {
    const std::string text = read_input_file(path, kMaxTableBytes, "path-SL file");
    return read_path_sl_text(text, path);
}

PathSlTable bind_path_sl(const std::vector<PathSlEntry>& entries, const Fabric& f, const Lids& lids,
                         const std::string& source) {
    if (entries.empty()) return {};
    const std::size_t width = std::size_t(lids.max_lid()) + 1;
    std::vector<std::vector<std::uint8_t>> row(f.num_nodes()); // per source node; lazily
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const PathSlEntry& e = entries[i];
        const auto n = f.find_node_by_guid(e.node_guid);
        if (!n)
            throw InputError(source, e.line,
                             fmt::format("source node GUID 0x{:016x} is not in the fabric (the "
                                         "file names nodes by node GUID, as ibdmchk does)",
                                         e.node_guid));
        if (lids.owner(e.dlid) == kNoPort)
            throw InputError(source, e.line,
                             fmt::format("DLID {} is not assigned to any port", e.dlid));
        std::vector<std::uint8_t>& r = row[*n];
        if (r.empty()) r.assign(width, kUnset);
        if (r[e.dlid] != kUnset) {
            int first = 0;
            for (std::size_t j = 0; j < i && !first; ++j)
                if (entries[j].node_guid == e.node_guid && entries[j].dlid == e.dlid)
                    first = entries[j].line;
            throw InputError(source, e.line,
                             fmt::format("{} lists DLID {} twice (first at line {})",
                                         display_name(f, *n), e.dlid, first));
        }
        r[e.dlid] = e.sl;
    }
    bool any = false;
    for (auto& r : row)
        for (std::uint8_t& v : r) {
            if (v == kUnset) v = 0; // unlisted: SL 0
            any |= v != 0;
        }
    if (!any) return {};
    // Every end port of a listed node sends on its row (one table per node, as in ibdmchk).
    PathSlTable t(f.num_port_slots(), lids.max_lid());
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        if (row[n].empty()) continue;
        if (f.node(n).is_switch())
            t.set_row(f.port_id(n, 0), row[n]);
        else
            for (PortId p : end_ports(f, n, &lids)) t.set_row(p, row[n]);
    }
    return t;
}

PathSlWriteStats write_path_sl(std::ostream& out, const Fabric& f, const Routing& r) {
    PathSlWriteStats st;
    out << "# path SL per (source node GUID, DLID), the format of ibdmchk -c; sources not "
           "listed use SL 0\n";
    if (r.path_sls.empty()) return st;
    std::vector<Lid> dlids;
    for (std::uint32_t d = 1; d <= r.lids.max_lid(); ++d)
        if (r.lids.owner(static_cast<Lid>(d)) != kNoPort) dlids.push_back(static_cast<Lid>(d));
    std::vector<signed char> nonzero(r.path_sls.num_rows(), -1); // per stored row, lazily
    fmt::memory_buffer buf;
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const PortId src = node_port(f, r.lids, n);
        if (src == kNoPort) continue;
        const std::uint32_t row = r.path_sls.row_of(src);
        if (!f.node(n).is_switch())
            for (PortId p : end_ports(f, n, &r.lids))
                if (r.path_sls.row_of(p) != row) { // equal rows are stored once
                    ++st.split_nodes;
                    break;
                }
        if (nonzero[row] < 0)
            nonzero[row] = std::any_of(dlids.begin(), dlids.end(),
                                       [&](Lid d) { return r.path_sl(src, d) != 0; });
        if (!nonzero[row]) continue;
        buf.clear();
        for (Lid d : dlids)
            fmt::format_to(std::back_inserter(buf), "0x{:016x} {} {}\n", f.node(n).guid, d,
                           r.path_sl(src, d));
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        ++st.sources;
        st.lines += dlids.size();
    }
    return st;
}

} // namespace ibrt
