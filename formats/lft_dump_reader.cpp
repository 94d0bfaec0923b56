// Reader of LFT dumps: opensm's `opensm-lfts.dump` / `lfts_file` and infiniband-diags'
// `ibroute` / `dump_fts` output (opensm-plugin-api.md §3.1, §6.1, §6.2). The grammar and the
// errors are listed in lft_dump.hpp. One pass over the input, streamed a chunk at a time (a dump of
// a large fabric is GBs); a switch's LFT is a flat array indexed by LID, with a parallel "listed"
// bitmap to find duplicate entries.
#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/lft_dump.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <istream>
#include <optional>
#include <unordered_map>

namespace ibrt {
namespace {

using namespace table_text;

std::string_view format_name(LftDumpFormat f) {
    switch (f) {
    case LftDumpFormat::OpenSM:
        return "opensm-lfts.dump";
    case LftDumpFormat::Ibroute:
        return "ibroute/dump_fts";
    case LftDumpFormat::Fdbs:
        return "opensm.fdbs";
    }
    return "?";
}

struct Header {
    LftDump::Switch sw;
    LftDumpFormat format = LftDumpFormat::OpenSM;
    bool has_range = false;
    unsigned top = 0;
};

class Reader {
  public:
    Reader(Lines& lines, const std::string& source) : lines_(lines), source_(source) {}

    LftDump run() {
        std::string_view raw;
        while (lines_.next(raw)) {
            const std::string_view line = trim(raw);
            if (line.empty() || line.front() == '#') continue;
            if (line.starts_with("Unicast lids")) {
                start_switch(line);
            } else if (line.starts_with("dump_ucast_routes:")) {
                start_fdbs_switch(line);
            } else if (line.starts_with("Multicast mlids")) {
                close_switch();
                in_multicast_ = true;
            } else if (in_multicast_) {
                continue; // MFT rows and column headers up to the next unicast header
            } else if (line.starts_with("0x")) {
                if (open_ && cur_format_ == LftDumpFormat::Fdbs)
                    fdbs_entry(line);
                else
                    entry(line);
            } else if (line == "Lid  Out   Destination" || line == "Port     Info") {
                if (!open_) fail("ibroute column header outside a switch block");
            } else if (line == "LID    : Port : Hops : Optimal") {
                if (!open_ || cur_format_ != LftDumpFormat::Fdbs)
                    fail("opensm.fdbs column header outside a 'dump_ucast_routes:' switch block");
            } else if (line.ends_with("lids dumped")) {
                trailer(line);
            } else {
                fail("unrecognized line " + quote(line));
            }
        }
        close_switch();
        // Hand-written tables (opensm's `file` engine) may have no trailers at all; a dump
        // that has them but lacks one was cut off, and judging it would blame the fabric.
        if (trailers_ > 0 && untrailed_line_)
            throw InputError(source_, untrailed_line_,
                             "this switch block has no 'lids dumped' trailer while the others do: "
                             "the dump is truncated or was edited");
        return std::move(dump_);
    }

  private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(source_, lines_.line_no(), problem);
    }

    Header parse_header(std::string_view line) const {
        Header h;
        h.sw.line = lines_.line_no();
        std::string_view rest = trim(line.substr(12)); // after "Unicast lids"
        if (rest.starts_with('[')) {
            const std::size_t close = rest.find(']');
            const std::size_t dash = rest.find('-');
            if (close == std::string_view::npos || dash == std::string_view::npos || dash > close)
                fail("cannot parse the LID range of the switch header");
            const std::string_view lo_s = rest.substr(1, dash - 1);
            const std::string_view hi_s = rest.substr(dash + 1, close - dash - 1);
            h.format = lo_s.starts_with("0x") ? LftDumpFormat::Ibroute : LftDumpFormat::OpenSM;
            const auto lo = parse_hex_or_dec(lo_s, 0xffff);
            const auto hi = parse_hex_or_dec(hi_s, 0xffffffffu);
            if (!lo || !hi)
                fail("cannot parse the LID range [" + std::string(lo_s) + "-" + std::string(hi_s) +
                     "] of the switch header");
            if (*hi > kMaxUnicastLid)
                fail(fmt::format("LID range top {:#x} is above the unicast LIDs (0xbfff)", *hi));
            if (*lo > *hi) fail(fmt::format("LID range [{:#x}-{:#x}] is empty", *lo, *hi));
            h.has_range = true;
            h.top = static_cast<unsigned>(*hi);
        }
        const std::size_t g = line.find(" guid 0x");
        if (g == std::string_view::npos) fail("switch header without 'guid 0x<hex>'");
        std::string_view after = line.substr(g + 8);
        std::size_t n = 0;
        while (n < after.size() && digit_value(after[n]) < 16) ++n;
        const auto guid = parse_uint(after.substr(0, n), 16, ~std::uint64_t{0});
        if (!guid || (n < after.size() && !is_space(after[n])))
            fail("cannot parse the switch GUID " + quote(after.substr(0, n + 1)));
        h.sw.guid = *guid;
        // `of switch Lid N` (opensm, ibroute by LID); dump_fts prints a DR path instead.
        const std::string_view before = line.substr(0, g);
        const std::size_t l = before.find("of switch Lid ");
        if (l != std::string_view::npos) {
            std::string_view w = before.substr(l + 14);
            const std::string_view word = next_word(w);
            const auto lid = parse_uint(word, 10, 0xffff);
            if (!lid) fail("cannot parse the switch LID " + quote(word));
            if (*lid > kMaxUnicastLid)
                fail(fmt::format("switch LID {} is above the unicast LIDs (49151)", *lid));
            h.sw.lid = static_cast<Lid>(*lid);
        }
        // Description: ` ('desc'):` (opensm) or ` (desc):` (ibroute).
        after = trim(after.substr(n));
        if (after.size() >= 3 && after.front() == '(' && after.ends_with("):")) {
            std::string_view d = after.substr(1, after.size() - 3);
            if (h.format == LftDumpFormat::OpenSM && d.size() >= 2 && d.front() == '\'' &&
                d.back() == '\'')
                d = d.substr(1, d.size() - 2);
            h.sw.desc = std::string(d);
        }
        return h;
    }

    void start_switch(std::string_view line) {
        close_switch();
        in_multicast_ = false;
        Header h = parse_header(line);
        // The format is set by the first header with a LID range; a hand-written lfts_file
        // may have headers without one, which fit either format.
        if (h.has_range && !format_line_) {
            dump_.format = h.format;
            format_line_ = h.sw.line;
        } else if ((h.has_range || dump_.format == LftDumpFormat::Fdbs) &&
                   h.format != dump_.format) {
            mixed(h.format);
        }
        open_block(std::move(h));
    }

    [[noreturn]] void mixed(LftDumpFormat f) const {
        fail(fmt::format("{} switch header in a dump that started in {} format at line {}",
                         format_name(f), format_name(dump_.format), format_line_));
    }

    void open_block(Header h) {
        const auto [it, fresh] = header_line_.emplace(h.sw.guid, h.sw.line);
        if (!fresh)
            fail(fmt::format("switch GUID 0x{:016x} is listed twice (first at line {})", h.sw.guid,
                             it->second));
        cur_ = std::move(h.sw);
        cur_.lft.assign(std::size_t(h.top) + 1, kNoPath);
        listed_.assign(cur_.lft.size(), 0);
        cur_format_ = h.format;
        has_range_ = h.has_range;
        top_ = h.top;
        entries_ = 0;
        open_ = true;
    }

    // `dump_ucast_routes: Switch 0x<hex>` (opensm.fdbs).
    void start_fdbs_switch(std::string_view line) {
        close_switch();
        in_multicast_ = false;
        std::string_view rest = line.substr(18); // after "dump_ucast_routes:"
        const std::string_view word = next_word(rest);
        const std::string_view guid_s = next_word(rest);
        const auto guid = word == "Switch" && guid_s.starts_with("0x")
                              ? parse_uint(guid_s.substr(2), 16, ~std::uint64_t{0})
                              : std::nullopt;
        if (!guid || !trim(rest).empty())
            fail("cannot parse the opensm.fdbs switch header " + quote(line) +
                 " (expected 'dump_ucast_routes: Switch 0x<GUID>')");
        Header h;
        h.format = LftDumpFormat::Fdbs;
        h.sw.guid = *guid;
        h.sw.line = lines_.line_no();
        if (!format_line_ && dump_.switches.empty()) {
            dump_.format = LftDumpFormat::Fdbs;
            format_line_ = h.sw.line;
        } else if (dump_.format != LftDumpFormat::Fdbs) {
            if (!format_line_) format_line_ = dump_.switches.front().line;
            mixed(LftDumpFormat::Fdbs);
        }
        open_block(std::move(h));
    }

    // `0x<LID> : UNREACHABLE`, `0x<LID> : <port>  : HOPS UNKNOWN` or
    // `0x<LID> : <port>  : <hops>   : <yes | No ...>` (opensm.fdbs).
    void fdbs_entry(std::string_view line) {
        std::string_view rest = line;
        const std::string_view lid_s = next_word(rest);
        const auto lid = parse_uint(lid_s.substr(2), 16, 0xffff);
        if (!lid) fail("cannot parse LID " + quote(lid_s));
        if (*lid == 0 || *lid > kMaxUnicastLid)
            fail(fmt::format("LID {:#06x} is not a unicast LID (1..0xbfff)", *lid));
        if (next_word(rest) != ":")
            fail("expected '0x<LID> : <port> : <hops> : <optimal>' or '0x<LID> : UNREACHABLE', "
                 "got " +
                 quote(line));
        const std::string_view port_s = next_word(rest);
        std::optional<std::uint64_t> port;
        if (port_s == "UNREACHABLE") {
            if (!trim(rest).empty()) fail("text after UNREACHABLE: " + quote(line));
        } else {
            port = parse_uint(port_s, 10, 254);
            if (!port)
                fail("cannot parse the out port " + quote(port_s) + " of LID " + quote(lid_s));
            if (next_word(rest) != ":" || trim(rest).empty())
                fail("expected ': <hops> : <optimal>' or ': HOPS UNKNOWN' after the port: " +
                     quote(line));
            fdbs_hops(trim(rest), line);
        }
        set_entry(static_cast<Lid>(*lid), port ? static_cast<PortNum>(*port) : kNoPath);
    }

    // What follows the port: `HOPS UNKNOWN`, or `<hops> : yes` / `<hops> : No ...` with the
    // hop count opensm keeps in a byte (0xff = no path). The LFT does not need them, but a
    // value opensm cannot write (NaN, -1, 1e9) means the file is not what it claims to be.
    void fdbs_hops(std::string_view rest, std::string_view line) {
        if (rest == "HOPS UNKNOWN") return;
        const std::string_view hops_s = next_word(rest);
        if (!parse_uint(hops_s, 10, 254))
            fail("cannot parse the hop count " + quote(hops_s) +
                 " (expected 0..254 or HOPS UNKNOWN): " + quote(line));
        rest = trim(rest);
        const std::string_view optimal = rest.starts_with(":") ? trim(rest.substr(1)) : "";
        if (optimal != "yes" && !optimal.starts_with("No "))
            fail("expected ': yes' or ': No <n> hop path possible via port <p>!' after the hop "
                 "count: " +
                 quote(line));
    }

    void set_entry(Lid lid, PortNum port) {
        if (lid >= cur_.lft.size()) {
            cur_.lft.resize(std::size_t(lid) + 1, kNoPath);
            listed_.resize(std::size_t(lid) + 1, 0);
        }
        if (listed_[lid])
            fail(fmt::format("LID {:#06x} is listed twice for switch 0x{:016x}", lid, cur_.guid));
        listed_[lid] = 1;
        cur_.lft[lid] = port;
        ++entries_;
    }

    void entry(std::string_view line) {
        if (!open_) {
            if (closed_line_)
                fail(fmt::format("entry after the 'lids dumped' trailer of the switch block "
                                 "(line {}) and before the next 'Unicast lids' header",
                                 closed_line_));
            fail("entry before any 'Unicast lids' switch header");
        }
        std::string_view rest = line;
        const std::string_view lid_s = next_word(rest);
        const auto lid = parse_uint(lid_s.substr(2), 16, 0xffff);
        if (!lid) fail("cannot parse LID " + quote(lid_s));
        if (*lid > kMaxUnicastLid)
            fail(fmt::format("LID {:#06x} is above the unicast LIDs (0xbfff)", *lid));
        const std::string_view port_s = next_word(rest);
        const auto port = parse_uint(port_s, 10, 255);
        if (!port) fail("cannot parse the out port " + quote(port_s) + " of LID " + quote(lid_s));
        set_entry(static_cast<Lid>(*lid), static_cast<PortNum>(*port)); // 255 is kNoPath
    }

    void trailer(std::string_view line) {
        if (!open_) fail("'lids dumped' trailer outside a switch block");
        if (cur_format_ == LftDumpFormat::Fdbs)
            fail("'lids dumped' trailer in an opensm.fdbs block");
        std::string_view rest = line;
        const std::string_view count_s = next_word(rest);
        const auto count = parse_uint(count_s, 10, 0xffffffffu);
        rest = trim(rest);
        if (!count || (rest != "lids dumped" && rest != "valid lids dumped"))
            fail("cannot parse the trailer " + quote(line));
        // opensm prints the range top; ibroute counts the entries it printed.
        if (cur_format_ == LftDumpFormat::OpenSM) {
            if (has_range_ && *count != top_)
                fail(fmt::format("trailer says {} but the header's LID range ends at {}", *count,
                                 top_));
        } else if (*count != entries_) {
            fail(fmt::format("trailer says {} lids but the block lists {} (truncated or edited?)",
                             *count, entries_));
        }
        trailed_ = true;
        close_switch();
        closed_line_ = lines_.line_no();
        ++trailers_;
    }

    void close_switch() {
        if (!open_) return;
        if (!trailed_ && !untrailed_line_) untrailed_line_ = cur_.line;
        trailed_ = false;
        dump_.switches.push_back(std::move(cur_));
        cur_ = {};
        open_ = false;
    }

    Lines& lines_;
    const std::string& source_;
    LftDump dump_;
    int format_line_ = 0;
    std::unordered_map<std::uint64_t, int> header_line_;
    LftDump::Switch cur_;
    std::vector<char> listed_;
    LftDumpFormat cur_format_ = LftDumpFormat::OpenSM;
    bool has_range_ = false;
    unsigned top_ = 0;
    std::size_t entries_ = 0;
    bool open_ = false;
    bool trailed_ = false;     // the open block ended with its trailer
    std::size_t trailers_ = 0; // blocks closed by a trailer
    int untrailed_line_ = 0;   // header line of the first block without one
    bool in_multicast_ = false;
    int closed_line_ = 0;
};

// The line of `lid`'s entry in the block whose header is line `header` of file `source`, found
// again on the error path only (a dump keeps no line per entry: that would be 4 bytes per LID
// per switch); `header` when the file cannot be read again. Entries start with their LID (0x..
// or decimal) in every format; the next block's header does not.
int entry_line(const std::string& source, int header, Lid lid) {
    std::ifstream in(source);
    std::string line;
    int n = 0;
    while (n < header && std::getline(in, line)) ++n;
    while (std::getline(in, line)) {
        ++n;
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        std::size_t used = 0;
        unsigned long v = 0;
        try {
            v = std::stoul(line.substr(first), &used, 0);
        } catch (const std::exception&) {
            break; // the next block
        }
        if (v == lid) return n;
    }
    return header;
}

} // namespace

LftDump read_lft_dump_text(std::string_view text, const std::string& source) {
    Lines lines(text);
    return Reader(lines, source).run();
}

LftDump read_lft_dump(std::istream& in, const std::string& source) {
    InputChunks chunks(in, source, kMaxTableBytes, "LFT dump");
    Lines lines(chunks);
    return Reader(lines, source).run();
}

LftDump read_lft_dump_file(const std::string& path) {
    InputChunks chunks(path, kMaxTableBytes, "LFT dump");
    Lines lines(chunks);
    return Reader(lines, path).run();
}

std::vector<Lft> bind_lft_dump(const LftDump& dump, const Fabric& f, const std::string& source) {
    std::size_t size = 0;
    for (const auto& s : dump.switches) size = std::max(size, s.lft.size());
    std::vector<Lft> out(f.num_nodes());
    for (NodeId sw : f.switches()) out[sw].assign(size, kNoPath);
    for (const auto& s : dump.switches) {
        const auto n = f.find_node_by_guid(s.guid);
        if (!n)
            throw InputError(source, s.line,
                             fmt::format("switch GUID 0x{:016x} is not in the fabric", s.guid));
        const Node& node = f.node(*n);
        if (!node.is_switch())
            throw InputError(
                source, s.line,
                fmt::format("GUID 0x{:016x} is {}, not a switch", s.guid, display_name(f, *n)));
        Lft& lft = out[*n];
        for (std::size_t lid = 0; lid < s.lft.size(); ++lid) {
            const PortNum p = s.lft[lid];
            if (p != kNoPath && p > node.num_ports)
                throw InputError(source, entry_line(source, s.line, Lid(lid)),
                                 fmt::format("{}: LID {:#06x} goes out port {} but the switch has "
                                             "{} ports",
                                             display_name(f, *n), lid, p, node.num_ports));
            lft[lid] = p;
        }
    }
    return out;
}

void require_every_switch(const LftDump& dump, const Fabric& f, const std::string& source) {
    std::vector<char> seen(f.num_nodes(), 0);
    for (const auto& s : dump.switches)
        if (const auto n = f.find_node_by_guid(s.guid)) seen[*n] = 1;
    std::size_t missing = 0;
    NodeId first = kNoNode;
    for (NodeId sw : f.switches())
        if (!seen[sw] && missing++ == 0) first = sw;
    if (missing) // pointed at the last block: where the missing tables would have followed
        throw InputError(source, dump.switches.empty() ? 1 : dump.switches.back().line,
                         fmt::format("the dump has no table for {} of the fabric's {} switches, "
                                     "e.g. {}: it is partial or from another fabric",
                                     missing, f.switches().size(), display_name(f, first)));
}

} // namespace ibrt
