// Reader and writer of the path-selection file; see the header for the format.
#include "formats/path_selection.hpp"

#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <charconv>
#include <ostream>

namespace ibrt {
namespace {

// `0x` and 1..16 hex digits.
bool parse_guid(std::string_view tok, std::uint64_t& v) {
    if (tok.size() < 3 || tok.size() > 18 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X'))
        return false;
    const auto g = table_text::parse_uint(tok.substr(2), 16, ~std::uint64_t{0});
    if (g) v = *g;
    return g.has_value();
}

// The CA owning a port GUID, as an index into Fabric::cas(); npos if none.
std::size_t ca_of_guid(const Fabric& f, const std::vector<std::size_t>& ca_index,
                       std::uint64_t guid, PortId* port) {
    const auto p = f.find_port_by_guid(guid);
    if (!p) return std::string::npos;
    *port = *p;
    return ca_index[f.port_node(*p)];
}

// Calls `take(entry)` for each record of `lines`, in file order.
template <class Take>
void parse_path_selection(table_text::Lines& lines, const std::string& source, Take&& take) {
    std::string_view rest;
    while (lines.next(rest)) {
        const int line_no = lines.line_no();
        const std::string_view a = table_text::next_word(rest);
        if (a.empty() || a[0] == '#') continue;
        const std::string_view b = table_text::next_word(rest);
        const std::string_view d = table_text::next_word(rest);
        if (d.empty() || !table_text::next_word(rest).empty())
            throw InputError(source, line_no,
                             "expected `<source port GUID> <destination port GUID> <DLID>`");
        PathSelectionEntry e;
        e.line = line_no;
        if (!parse_guid(a, e.src_guid))
            throw InputError(source, line_no, fmt::format("bad source port GUID '{}'", a));
        if (!parse_guid(b, e.dst_guid))
            throw InputError(source, line_no, fmt::format("bad destination port GUID '{}'", b));
        unsigned v = 0;
        auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
        if (ec != std::errc() || p != d.data() + d.size() || v == 0 || v > kMaxUnicastLid) {
            std::uint64_t lid = 0;
            if (parse_guid(d, lid) && lid <= 0xffff && b.size() <= 6)
                throw InputError(source, line_no,
                                 fmt::format("bad DLID '{}': the line looks like a guid2lid record "
                                             "(`<port GUID> <min LID> <max LID>`), not a path "
                                             "selection (`<source port GUID> <destination port "
                                             "GUID> <decimal DLID>`); was the guid2lid file given "
                                             "as the path selection?",
                                             d));
            throw InputError(source, line_no,
                             fmt::format("bad DLID '{}' (expected 1..{})", d, kMaxUnicastLid));
        }
        if (e.src_guid == e.dst_guid)
            throw InputError(source, line_no,
                             fmt::format("source and destination are the same port 0x{:016x}: a "
                                         "port does not send to itself (ibrt route writes no such "
                                         "line)",
                                         e.src_guid));
        e.dlid = static_cast<Lid>(v);
        take(e);
    }
}

// Fills Routing::dlid_choice an entry at a time, so that a file of 136 M pairs (FT(36,3)) is
// bound without holding its entries.
class SelectionBinder {
  public:
    SelectionBinder(const Fabric& f, const Lids& lids, const std::string& source)
        : f_(f), lids_(lids), source_(source), n_(f.cas().size()), ca_index_(f.num_nodes(), npos),
          choice_(n_ * n_, 0) {
        for (std::size_t i = 0; i < n_; ++i) ca_index_[f.cas()[i]] = i;
    }

    void add(const PathSelectionEntry& e) {
        PortId sp = kNoPort, dp = kNoPort;
        const std::size_t a = ca_of_guid(f_, ca_index_, e.src_guid, &sp);
        if (a == npos)
            throw InputError(
                source_, e.line,
                fmt::format("source 0x{:016x} is not a CA port of the fabric", e.src_guid));
        const std::size_t b = ca_of_guid(f_, ca_index_, e.dst_guid, &dp);
        if (b == npos)
            throw InputError(
                source_, e.line,
                fmt::format("destination 0x{:016x} is not a CA port of the fabric", e.dst_guid));
        if (lids_.owner(e.dlid) != dp)
            throw InputError(
                source_, e.line,
                fmt::format("DLID {} is not a LID of destination 0x{:016x}", e.dlid, e.dst_guid));
        Lid& slot = choice_[a * n_ + b];
        if (slot != 0)
            throw InputError(
                source_, e.line,
                fmt::format("pair 0x{:016x} -> 0x{:016x} is given twice", e.src_guid, e.dst_guid));
        slot = e.dlid;
    }

    std::vector<Lid> finish() {
        for (std::size_t b = 0; b < n_; ++b) {
            const PortId dst = first_end_port(f_, f_.cas()[b], &lids_);
            if (dst == kNoPort) continue; // no end port: nothing is sent to it
            for (std::size_t a = 0; a < n_; ++a)
                if (choice_[a * n_ + b] == 0) choice_[a * n_ + b] = lids_.base(dst);
        }
        return std::move(choice_);
    }

  private:
    static constexpr std::size_t npos = std::string::npos;
    const Fabric& f_;
    const Lids& lids_;
    const std::string& source_;
    std::size_t n_;
    std::vector<std::size_t> ca_index_;
    std::vector<Lid> choice_;
};

} // namespace

std::vector<PathSelectionEntry> read_path_selection(std::string_view text,
                                                    const std::string& source) {
    std::vector<PathSelectionEntry> out;
    table_text::Lines lines(text);
    parse_path_selection(lines, source, [&](const PathSelectionEntry& e) { out.push_back(e); });
    return out;
}

std::vector<Lid> bind_path_selection(const std::vector<PathSelectionEntry>& entries,
                                     const Fabric& f, const Lids& lids, const std::string& source) {
    SelectionBinder bind(f, lids, source);
    for (const auto& e : entries) bind.add(e);
    return bind.finish();
}

std::vector<Lid> load_path_selection_file(const std::string& path, const Fabric& f,
                                          const Lids& lids) {
    InputChunks chunks(path, kMaxTableBytes, "path-selection file");
    table_text::Lines lines(chunks);
    SelectionBinder bind(f, lids, path);
    parse_path_selection(lines, path, [&](const PathSelectionEntry& e) { bind.add(e); });
    return bind.finish();
}

void write_path_selection(std::ostream& out, const Fabric& f, const Routing& r) {
    out << "# ibrt path selection: the DLID each source port uses for each destination port\n"
           "# <source port GUID> <destination port GUID> <DLID>\n"
           "# pairs not listed use the destination's base LID\n";
    if (r.dlid_choice.empty()) return; // no choice: every pair on the base LID
    const std::size_t n = f.cas().size();
    std::vector<PortId> port(n);
    std::vector<std::string> guid(n);
    for (std::size_t i = 0; i < n; ++i) {
        port[i] = first_end_port(f, f.cas()[i], &r.lids);
        if (port[i] != kNoPort) guid[i] = fmt::format("0x{:016x}", f.end_port_guid(port[i]));
    }
    fmt::memory_buffer buf;
    for (std::size_t a = 0; a < n; ++a) {
        if (port[a] == kNoPort) continue;
        buf.clear();
        for (std::size_t b = 0; b < n; ++b) {
            if (a == b || port[b] == kNoPort) continue;
            const Lid dlid = r.dlid_choice[a * n + b];
            fmt::format_to(std::back_inserter(buf), "{} {} {}\n", guid[a], guid[b], dlid);
        }
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    }
}

} // namespace ibrt
