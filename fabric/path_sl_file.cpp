// Reader, binder and writer of the path-SL file (ibdmchk -c); format and rules in
// path_sl_file.hpp.
#include "fabric/path_sl_file.hpp"

#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "fabric/table_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace ibrt {
namespace {

using namespace table_text;

constexpr std::uint8_t kUnset = 0xff;

// The switch a node's paths enter the fabric at (see the header): itself for a switch; for a
// CA or router the switch of its first cabled port with a LID, else of its first cabled port
// (a file may predate the LIDs); kNoNode if it has none. With `need_lid` only ports with a LID
// count, as in the writer.
NodeId primary_ingress(const Fabric& f, const Lids& lids, NodeId n, bool need_lid) {
    if (f.node(n).is_switch()) return n;
    NodeId any = kNoNode;
    for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
        const PortId id = f.port_id(n, p);
        const NodeId s = f.ingress_switch(id);
        if (s == kNoNode) continue;
        if (lids.has_lid(id)) return s;
        if (any == kNoNode) any = s;
    }
    return need_lid ? kNoNode : any;
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
    const std::string text = slurp_file(path);
    return read_path_sl_text(text, path);
}

PathSlTable bind_path_sl(const std::vector<PathSlEntry>& entries, const Fabric& f, const Lids& lids,
                         const std::string& source) {
    if (entries.empty()) return {};
    const std::size_t width = std::size_t(lids.max_lid()) + 1;
    std::vector<NodeId> node_of(entries.size());
    std::vector<std::vector<std::uint8_t>> row(f.num_nodes()); // per ingress switch; lazily
    std::vector<NodeId> ingress(f.num_nodes(), kNoNode);

    // The line of an earlier entry that put an SL into (switch s, dlid); error path only.
    auto line_setting = [&](NodeId s, Lid dlid, std::size_t before) {
        for (std::size_t i = 0; i < before; ++i)
            if (entries[i].dlid == dlid && ingress[node_of[i]] == s) return entries[i].line;
        return 0;
    };

    for (std::size_t i = 0; i < entries.size(); ++i) {
        const PathSlEntry& e = entries[i];
        const auto n = f.find_node_by_guid(e.node_guid);
        if (!n)
            throw InputError(source, e.line,
                             fmt::format("source node GUID 0x{:016x} is not in the fabric (the "
                                         "file names nodes by node GUID, as ibdmchk does)",
                                         e.node_guid));
        node_of[i] = *n;
        if (lids.owner(e.dlid) == kNoPort)
            throw InputError(source, e.line,
                             fmt::format("DLID {} is not assigned to any port", e.dlid));
        if (ingress[*n] == kNoNode) {
            ingress[*n] = primary_ingress(f, lids, *n, false);
            if (ingress[*n] == kNoNode)
                throw InputError(source, e.line,
                                 fmt::format("{} is not cabled to a switch, so none of its paths "
                                             "enters the fabric",
                                             display_name(f, *n)));
        }
        const NodeId s = ingress[*n];
        std::vector<std::uint8_t>& r = row[s];
        if (r.empty()) r.assign(width, kUnset);
        if (r[e.dlid] == kUnset) {
            r[e.dlid] = e.sl;
        } else if (r[e.dlid] != e.sl) {
            const int other = line_setting(s, e.dlid, i);
            throw InputError(
                source, e.line,
                fmt::format("{} sends to DLID {} on SL {}, but line {} gives SL {} to a path "
                            "from the same ingress switch {}: ibrt keys path SLs by ingress "
                            "switch, whose LFTs fix the path",
                            display_name(f, *n), e.dlid, e.sl, other, r[e.dlid],
                            display_name(f, s)));
        }
    }

    // Pairs listed twice by one node (sorted copy of (node, DLID, index)).
    struct Key {
        NodeId node;
        Lid dlid;
        std::uint32_t index;
    };
    std::vector<Key> keys(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
        keys[i] = {node_of[i], entries[i].dlid, static_cast<std::uint32_t>(i)};
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return a.node != b.node   ? a.node < b.node
               : a.dlid != b.dlid ? a.dlid < b.dlid
                                  : a.index < b.index;
    });
    for (std::size_t k = 1; k < keys.size(); ++k)
        if (keys[k].node == keys[k - 1].node && keys[k].dlid == keys[k - 1].dlid)
            throw InputError(source, entries[keys[k].index].line,
                             fmt::format("{} lists DLID {} twice (first at line {})",
                                         display_name(f, keys[k].node), keys[k].dlid,
                                         entries[keys[k - 1].index].line));

    // An end node that shares an ingress switch with listed nodes, but does not list a DLID they
    // send to on an SL other than 0, claims SL 0 for it: a disagreement. Per node, the DLIDs it
    // lists are a run of `keys`.
    std::vector<std::size_t> run_start(f.num_nodes(), keys.size()), run_end(f.num_nodes(), 0);
    for (std::size_t k = 0; k < keys.size(); ++k) {
        run_start[keys[k].node] = std::min(run_start[keys[k].node], k);
        run_end[keys[k].node] = k + 1;
    }
    for (NodeId c : f.cas()) {
        const NodeId s = primary_ingress(f, lids, c, true);
        if (s == kNoNode || row[s].empty()) continue;
        const std::vector<std::uint8_t>& r = row[s];
        std::size_t k = run_start[c];
        for (std::size_t d = 1; d < width; ++d) {
            while (k < run_end[c] && keys[k].dlid < d) ++k;
            const bool listed = k < run_end[c] && keys[k].dlid == d;
            if (listed || r[d] == kUnset || r[d] == 0) continue;
            const Lid dlid = static_cast<Lid>(d);
            throw InputError(source, line_setting(s, dlid, entries.size()),
                             fmt::format("this line sends to DLID {} on SL {} from ingress switch "
                                         "{}, but {}, which enters there too, lists no SL for "
                                         "DLID {} (so SL 0): ibrt keys path SLs by ingress "
                                         "switch, whose LFTs fix the path",
                                         dlid, r[d], display_name(f, s), display_name(f, c), dlid));
        }
    }

    bool any = false;
    for (auto& r : row)
        for (std::uint8_t& v : r) {
            if (v == kUnset) v = 0;
            any |= v != 0;
        }
    if (!any) return {};
    PathSlTable t(f.num_nodes(), lids.max_lid());
    for (NodeId s : f.switches())
        if (!row[s].empty()) t.set_row(s, row[s]);
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
    std::vector<char> nonzero(f.num_nodes(), 0);
    for (NodeId s : f.switches())
        for (Lid d : dlids)
            if (r.path_sl(s, d) != 0) {
                nonzero[s] = 1;
                break;
            }
    fmt::memory_buffer buf;
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const NodeId s = primary_ingress(f, r.lids, n, true);
        if (s == kNoNode) continue;
        for (PortNum p = 1; p <= f.node(n).num_ports && !f.node(n).is_switch(); ++p) {
            const PortId id = f.port_id(n, p);
            const NodeId other = f.ingress_switch(id);
            if (!r.lids.has_lid(id) || other == kNoNode || other == s) continue;
            if (std::any_of(dlids.begin(), dlids.end(),
                            [&](Lid d) { return r.path_sl(other, d) != r.path_sl(s, d); })) {
                ++st.split_nodes;
                break;
            }
        }
        if (!nonzero[s]) continue;
        buf.clear();
        for (Lid d : dlids)
            fmt::format_to(std::back_inserter(buf), "0x{:016x} {} {}\n", f.node(n).guid, d,
                           r.path_sl(s, d));
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        ++st.sources;
        st.lines += dlids.size();
    }
    return st;
}

} // namespace ibrt
