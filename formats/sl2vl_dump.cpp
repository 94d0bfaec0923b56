// Reader, binder and writer of opensm's `opensm-sl2vl.dump` (osm_dump.c dump_sl2vl_tbl;
// opensm-plugin-api.md §6.4). Format and binding rules are in sl2vl_dump.hpp.
#include "formats/sl2vl_dump.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <istream>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <unordered_map>

namespace ibrt {
namespace {

using namespace table_text;

constexpr std::string_view kColumns = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15";
constexpr std::string_view kSeparator = "#--------------------------------------------------------";

class Reader {
  public:
    Reader(Lines& lines, const std::string& source) : lines_(lines), source_(source) {}

    Sl2VlDump run() {
        std::string_view raw;
        while (lines_.next(raw)) {
            const std::string_view line = trim(raw);
            switch (state_) {
            case State::Between:
                if (line.empty()) break;
                header(line);
                state_ = State::Columns;
                break;
            case State::Columns:
                if (!line.starts_with("#in out"))
                    fail(fmt::format("expected the column header '#in out : 0  1 ...' after the "
                                     "block header at line {}",
                                     block().line));
                state_ = State::Separator;
                break;
            case State::Separator:
                if (!line.starts_with("#---"))
                    fail(fmt::format("expected the '#---' separator of the block at line {}",
                                     block().line));
                state_ = State::Rows;
                break;
            case State::Rows:
                if (line.starts_with("#---")) {
                    state_ = State::Between;
                    break;
                }
                row(line);
                break;
            }
        }
        if (state_ != State::Between)
            throw InputError(source_, block().line,
                             "block is not closed by its '#---' separator line (truncated dump?)");
        return std::move(dump_);
    }

  private:
    enum class State { Between, Columns, Separator, Rows };

    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(source_, lines_.line_no(), problem);
    }
    Sl2VlDump::Block& block() { return dump_.blocks.back(); }

    void header(std::string_view line) {
        Sl2VlDump::Block b;
        b.line = lines_.line_no();
        std::string_view rest;
        bool typed = false;
        for (NodeType t : {NodeType::Switch, NodeType::CA, NodeType::Router}) {
            const std::string_view name = opensm_type_name(t);
            if (line.starts_with(name) && line.size() > name.size() && line[name.size()] == ' ') {
                b.type = t;
                rest = line.substr(name.size() + 1);
                typed = true;
                break;
            }
        }
        if (!typed)
            fail("expected a block header '<Switch|Channel Adapter|Router> 0x<port guid>, base "
                 "LID <n>, \"<desc>\"', got " +
                 quote(line));
        const std::size_t comma = rest.find(',');
        const std::string_view guid_s = trim(rest.substr(0, comma));
        const auto guid = guid_s.starts_with("0x")
                              ? parse_uint(guid_s.substr(2), 16, ~std::uint64_t{0})
                              : std::nullopt;
        if (!guid || comma == std::string_view::npos)
            fail("cannot parse the port GUID " + quote(guid_s) + " of the block header");
        b.port_guid = *guid;
        rest = trim(rest.substr(comma + 1));
        if (!rest.starts_with("base LID ")) fail("block header without 'base LID <n>,'");
        rest.remove_prefix(9);
        const std::size_t comma2 = rest.find(',');
        const std::string_view lid_s = rest.substr(0, comma2);
        const auto lid = parse_uint(lid_s, 10, 0xffff);
        if (!lid || comma2 == std::string_view::npos)
            fail("cannot parse the base LID " + quote(lid_s) + " of the block header");
        if (*lid > kMaxUnicastLid)
            fail(fmt::format("base LID {} is above the unicast LIDs (49151)", *lid));
        b.base_lid = static_cast<Lid>(*lid);
        rest = trim(rest.substr(comma2 + 1));
        if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"')
            fail("block header without a quoted description");
        b.desc = std::string(rest.substr(1, rest.size() - 2));
        const auto [it, fresh] = block_line_.emplace(b.port_guid, b.line);
        if (!fresh)
            fail(fmt::format("port guid {:#018x} has a second block (first at line {})",
                             b.port_guid, it->second));
        dump_.blocks.push_back(std::move(b));
        seen_.clear();
    }

    void row(std::string_view line) {
        Sl2VlDump::Row r;
        r.line = lines_.line_no();
        std::string_view rest = line;
        const std::string_view in_s = next_word(rest), out_s = next_word(rest);
        const auto in = parse_uint(in_s, 10, 254), out = parse_uint(out_s, 10, 254);
        if (!in || !out) fail("cannot parse the in/out ports of row " + quote(line));
        if (next_word(rest) != ":") fail("expected ':' after the in/out ports in " + quote(line));
        for (int sl = 0; sl < 16; ++sl) {
            const std::string_view w = next_word(rest);
            if (w.empty()) fail(fmt::format("row has {} VLs; expected 16", sl));
            const auto vl = parse_uint(w, 10, 15);
            if (!vl) fail(fmt::format("cannot parse the VL {} of SL {}", quote(w), sl));
            r.vl[sl] = static_cast<std::uint8_t>(*vl);
        }
        if (!trim(rest).empty()) fail("unexpected text after the 16 VLs: " + quote(trim(rest)));
        r.in = static_cast<PortNum>(*in);
        r.out = static_cast<PortNum>(*out);
        Sl2VlDump::Block& b = block();
        if (b.type != NodeType::Switch && (r.in != 0 || r.out != 0))
            fail(fmt::format("a {} block has only the row '0 0', not '{} {}'",
                             opensm_type_name(b.type), r.in, r.out));
        const unsigned key = unsigned(r.in) << 8 | r.out;
        const auto [it, fresh] = seen_.emplace(key, r.line);
        if (!fresh)
            fail(fmt::format("row {} {} is listed twice in the block (first at line {})", r.in,
                             r.out, it->second));
        b.rows.push_back(r);
    }

    Lines& lines_;
    const std::string& source_;
    Sl2VlDump dump_;
    State state_ = State::Between;
    std::unordered_map<std::uint64_t, int> block_line_;
    std::unordered_map<unsigned, int> seen_;
};

} // namespace

Sl2VlDump read_sl2vl_dump_text(std::string_view text, const std::string& source) {
    Lines lines(text);
    return Reader(lines, source).run();
}

Sl2VlDump read_sl2vl_dump(std::istream& in, const std::string& source) {
    InputChunks chunks(in, source, kMaxTableBytes, "SL2VL dump");
    Lines lines(chunks);
    return Reader(lines, source).run();
}

Sl2VlDump read_sl2vl_dump_file(const std::string& path) {
    InputChunks chunks(path, kMaxTableBytes, "SL2VL dump");
    Lines lines(chunks);
    return Reader(lines, path).run();
}

Sl2Vl bind_sl2vl_dump(const Sl2VlDump& dump, const Fabric& f, const std::string& source) {
    Sl2Vl out;
    if (dump.blocks.empty()) return out;
    out.tables.resize(f.num_nodes());
    for (const auto& b : dump.blocks) {
        PortId port = kNoPort;
        if (const auto p = f.find_port_by_guid(b.port_guid)) {
            port = *p;
        } else if (const auto n = f.find_node_by_guid(b.port_guid); n && f.node(*n).is_switch()) {
            port = f.port_id(*n, 0);
        } else {
            throw InputError(source, b.line,
                             fmt::format("port guid {:#018x} is not in the fabric", b.port_guid));
        }
        const NodeId n = f.port_node(port);
        const Node& node = f.node(n);
        if (node.type != b.type)
            throw InputError(source, b.line,
                             fmt::format("block says {} but guid {:#018x} is a {} ('{}') in the "
                                         "fabric",
                                         opensm_type_name(b.type), b.port_guid,
                                         opensm_type_name(node.type), node.desc));
        auto& t = out.tables[n];
        if (t.empty()) t.assign(Sl2Vl::size(node.num_ports), kSl2VlDropAll);
        if (node.is_switch()) {
            for (const auto& r : b.rows) {
                if (r.in > node.num_ports || r.out > node.num_ports)
                    throw InputError(source, r.line,
                                     fmt::format("row {} {}: switch '{}' has ports 0..{}", r.in,
                                                 r.out, node.desc, node.num_ports));
                t[Sl2Vl::index(node.num_ports, r.in, r.out)] = r.vl;
            }
        } else {
            const PortNum p = f.port_num(port);
            if (p == 0)
                throw InputError(source, b.line,
                                 fmt::format("guid {:#018x} names port 0 of '{}', not an end port",
                                             b.port_guid, node.desc));
            for (const auto& r : b.rows) t[Sl2Vl::index(node.num_ports, 0, p)] = r.vl;
        }
    }
    return out;
}

void write_sl2vl_dump(std::ostream& out, const Fabric& f, const Routing& r) {
    if (r.sl2vl.empty()) return;
    fmt::memory_buffer buf;
    auto it = std::back_inserter(buf);
    auto lid_of = [&](PortId p) -> unsigned {
        return p < r.lids.num_port_slots() ? r.lids.base(p) : 0;
    };
    auto put_row = [&](PortNum in, PortNum outp, const Sl2VlTable& t) {
        table_text::put_dec(buf, in, 3, false);
        buf.push_back(' ');
        table_text::put_dec(buf, outp, 3, false);
        buf.append(std::string_view(" :"));
        for (std::uint8_t vl : t) {
            buf.push_back(' ');
            table_text::put_dec(buf, vl, 2, false);
        }
        buf.push_back('\n');
    };
    // Written a node at a time: at 16,384 hosts the dump is 118 MB.
    auto flush = [&] {
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
    };
    auto put_header = [&](NodeType type, PortId p, const Node& node) {
        fmt::format_to(it, "{} 0x{:016x}, base LID {}, \"{}\"\n{}\n{}\n",
                       table_text::opensm_type_name(type), f.end_port_guid(p), lid_of(p), node.desc,
                       kColumns, kSeparator);
    };
    for (NodeId n = 0; n < f.num_nodes() && n < r.sl2vl.tables.size(); ++n) {
        const auto& t = r.sl2vl.tables[n];
        if (t.empty()) continue;
        const Node& node = f.node(n);
        if (t.size() != Sl2Vl::size(node.num_ports))
            throw std::invalid_argument(fmt::format("SL2VL tables of '{}' have {} entries, not {}",
                                                    node.desc, t.size(),
                                                    Sl2Vl::size(node.num_ports)));
        if (node.num_ports == 0) continue; // opensm skips nodes without ports
        if (node.is_switch()) {
            put_header(node.type, f.port_id(n, 0), node);
            for (unsigned o = 0; o <= node.num_ports; ++o) {
                if (!f.port(n, static_cast<PortNum>(o)).connected()) continue;
                for (unsigned i = 0; i <= node.num_ports; ++i)
                    put_row(static_cast<PortNum>(i), static_cast<PortNum>(o),
                            t[Sl2Vl::index(node.num_ports, static_cast<PortNum>(i),
                                           static_cast<PortNum>(o))]);
            }
            fmt::format_to(it, "{}\n\n", kSeparator);
            flush();
        } else {
            for (unsigned p = 1; p <= node.num_ports; ++p) {
                if (!f.port(n, static_cast<PortNum>(p)).connected()) continue;
                put_header(node.type, f.port_id(n, static_cast<PortNum>(p)), node);
                put_row(0, 0, t[Sl2Vl::index(node.num_ports, 0, static_cast<PortNum>(p))]);
                fmt::format_to(it, "{}\n\n", kSeparator);
            }
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

} // namespace ibrt
