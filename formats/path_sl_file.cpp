// Reader, binder and writer of the path-SL file (ibdmchk -c); format and rules in
// path_sl_file.hpp.
#include "formats/path_sl_file.hpp"

#include "fabric/display_name.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
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

// Calls `take(entry)` for each record of `lines`, in file order, until it returns false; sets
// `partial` when a comment line is kPartialMarker.
template <class Take>
void parse_path_sl(Lines& lines, const std::string& source, bool& partial, Take&& take) {
    std::string_view raw;
    while (lines.next(raw)) {
        std::string_view rest = trim(raw);
        if (rest.starts_with(kPartialMarker)) partial = true;
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
        if (!take(e)) return;
    }
}

// Builds the table an entry at a time, so that a file listing every (node, DLID) of a large
// fabric (hundreds of millions of lines) is bound without holding its entries. The line of
// the first copy of a duplicate is found, only then, by `first_line(entry)`.
class PathSlBinder {
  public:
    using FirstLine = std::function<int(const PathSlEntry&)>;

    PathSlBinder(const Fabric& f, const Lids& lids, const std::string& source, FirstLine first)
        : f_(f), lids_(lids), source_(source), first_line_(std::move(first)),
          width_(std::size_t(lids.max_lid()) + 1), row_(f.num_nodes()) {}

    void add(const PathSlEntry& e) {
        const auto n = f_.find_node_by_guid(e.node_guid);
        if (!n)
            throw InputError(source_, e.line,
                             fmt::format("source node GUID 0x{:016x} is not in the fabric (the "
                                         "file names nodes by node GUID, as ibdmchk does)",
                                         e.node_guid));
        if (lids_.owner(e.dlid) == kNoPort)
            throw InputError(source_, e.line,
                             fmt::format("DLID {} is not assigned to any port", e.dlid));
        std::vector<std::uint8_t>& r = row_[*n];
        if (r.empty()) r.assign(width_, kUnset);
        if (r[e.dlid] != kUnset)
            throw InputError(source_, e.line,
                             fmt::format("{} lists DLID {} twice (first at line {})",
                                         display_name(f_, *n), e.dlid, first_line_(e)));
        r[e.dlid] = e.sl;
    }

    // `partial`: unlisted pairs and nodes are unknown, else SL 0.
    PathSlTable finish(bool partial) {
        const std::uint8_t unlisted = partial ? PathSlTable::kUnknownSl : 0;
        bool any = partial;
        for (auto& r : row_)
            for (std::uint8_t& v : r) {
                if (v == kUnset) v = unlisted;
                any |= v != 0;
            }
        if (!any) return {};
        // Every end port of a listed node sends on its row (one table per node, as in ibdmchk).
        const std::vector<std::uint8_t> default_row(partial ? width_ : 0, unlisted);
        PathSlTable t(f_.num_port_slots(), lids_.max_lid(), default_row);
        for (NodeId n = 0; n < f_.num_nodes(); ++n) {
            if (row_[n].empty()) continue;
            if (f_.node(n).is_switch())
                t.set_row(f_.port_id(n, 0), row_[n]);
            else
                for (PortId p : end_ports(f_, n, &lids_)) t.set_row(p, row_[n]);
        }
        return t;
    }

  private:
    const Fabric& f_;
    const Lids& lids_;
    const std::string& source_;
    FirstLine first_line_;
    std::size_t width_;                          // max_lid + 1
    std::vector<std::vector<std::uint8_t>> row_; // per source node; lazily
};

bool same_path(const PathSlEntry& a, const PathSlEntry& b) {
    return a.node_guid == b.node_guid && a.dlid == b.dlid;
}

} // namespace

std::vector<PathSlEntry> read_path_sl_text(std::string_view text, const std::string& source,
                                           bool* partial) {
    std::vector<PathSlEntry> out;
    Lines lines(text);
    bool marked = false;
    parse_path_sl(lines, source, marked, [&](const PathSlEntry& e) {
        out.push_back(e);
        return true;
    });
    if (partial) *partial = marked;
    return out;
}

PathSlTable bind_path_sl(const std::vector<PathSlEntry>& entries, const Fabric& f, const Lids& lids,
                         const std::string& source, bool partial) {
    if (entries.empty() && !partial) return {};
    PathSlBinder bind(f, lids, source, [&](const PathSlEntry& dup) {
        for (const PathSlEntry& e : entries)
            if (same_path(e, dup)) return e.line;
        return 0;
    });
    for (const PathSlEntry& e : entries) bind.add(e);
    return bind.finish(partial);
}

PathSlTable load_path_sl_file(const std::string& path, const Fabric& f, const Lids& lids) {
    PathSlBinder bind(f, lids, path, [&](const PathSlEntry& dup) {
        // Only on the error path: read the file again up to the first copy.
        InputChunks chunks(path, kMaxTableBytes, "path-SL file");
        Lines lines(chunks);
        int first = 0;
        bool ignored = false;
        parse_path_sl(lines, path, ignored, [&](const PathSlEntry& e) {
            if (same_path(e, dup)) first = e.line;
            return first == 0;
        });
        return first;
    });
    InputChunks chunks(path, kMaxTableBytes, "path-SL file");
    Lines lines(chunks);
    bool partial = false;
    parse_path_sl(lines, path, partial, [&](const PathSlEntry& e) {
        bind.add(e);
        return true;
    });
    return bind.finish(partial);
}

namespace {

// The DLIDs a path-SL file lists (every owned one), and the nodes it lists: those whose row has
// an SL other than 0 for some of them, with the port their SLs are read from. One answer for
// the writer and for the size `ibrt route` weighs before writing.
struct PathSlListing {
    std::vector<Lid> dlids;
    std::vector<std::pair<NodeId, PortId>> sources;
    std::size_t split_nodes = 0;
};

PathSlListing path_sl_listing(const Fabric& f, const Routing& r) {
    PathSlListing l;
    if (r.path_sls.empty()) return l;
    for (std::uint32_t d = 1; d <= r.lids.max_lid(); ++d)
        if (r.lids.owner(static_cast<Lid>(d)) != kNoPort) l.dlids.push_back(static_cast<Lid>(d));
    std::vector<signed char> nonzero(r.path_sls.num_rows(), -1); // per stored row, lazily
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const PortId src = node_port(f, r.lids, n);
        if (src == kNoPort) continue;
        const std::uint32_t row = r.path_sls.row_of(src);
        if (!f.node(n).is_switch())
            for (PortId p : end_ports(f, n, &r.lids))
                if (r.path_sls.row_of(p) != row) { // equal rows are stored once
                    ++l.split_nodes;
                    break;
                }
        if (nonzero[row] < 0)
            nonzero[row] = std::any_of(l.dlids.begin(), l.dlids.end(),
                                       [&](Lid d) { return r.path_sl(src, d) != 0; });
        if (nonzero[row]) l.sources.emplace_back(n, src);
    }
    return l;
}

} // namespace

std::uint64_t path_sl_file_lines(const Fabric& f, const Routing& r) {
    const PathSlListing l = path_sl_listing(f, r);
    return std::uint64_t(l.sources.size()) * l.dlids.size();
}

PathSlWriteStats write_path_sl(std::ostream& out, const Fabric& f, const Routing& r) {
    PathSlWriteStats st;
    const bool partial = r.path_sls.has_unknown();
    if (partial)
        out << kPartialMarker << ": pairs not listed have no known SL (not SL 0)\n"
            << "# path SL per (source node GUID, DLID), the format of ibdmchk -c\n";
    else
        out << "# path SL per (source node GUID, DLID), the format of ibdmchk -c; sources not "
               "listed use SL 0\n";
    const PathSlListing l = path_sl_listing(f, r);
    st.split_nodes = l.split_nodes;
    fmt::memory_buffer buf;
    for (const auto& [n, src] : l.sources) {
        buf.clear();
        std::size_t known = 0;
        for (Lid d : l.dlids)
            if (const std::uint8_t sl = r.path_sl(src, d); sl != PathSlTable::kUnknownSl) {
                fmt::format_to(std::back_inserter(buf), "0x{:016x} {} {}\n", f.node(n).guid, d, sl);
                ++known;
            }
        if (known == 0) continue;
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        ++st.sources;
        st.lines += known;
    }
    return st;
}

} // namespace ibrt
