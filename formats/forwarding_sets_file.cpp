// Reader and writer of the forwarding-sets file (format in forwarding_sets_file.hpp).
#include "formats/forwarding_sets_file.hpp"

#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"
#include "formats/table_text.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <ostream>
#include <vector>

namespace ibrt {
namespace {

using namespace table_text;

struct Header {
    unsigned vl_keys = 1;
    bool by_in_port = false;
    bool vl_by_in_vl = false;
    unsigned height = 0;
};

class Parser {
  public:
    Parser(Lines& lines, const std::string& source, const Fabric& f, Lid max_lid)
        : lines_(lines), source_(source), f_(f), max_lid_(max_lid) {}

    RoutingFunction run() {
        std::string_view raw;
        while (lines_.next(raw)) {
            std::string_view rest = trim(raw);
            if (rest.empty() || rest.front() == '#') continue;
            const std::string_view word = next_word(rest);
            if (word == "vl-keys" || word == "in-port-keys" || word == "vl-by" ||
                word == "tree-height")
                header(word, rest);
            else if (word == "switch")
                switch_line(rest);
            else if (word == "dlid")
                dlid_line(rest);
            else if (word == "vl2vl")
                vl2vl_line(rest);
            else if (word == "ca")
                ca_line(rest);
            else if (word == "source-sl")
                source_sl_line(rest);
            else if (word == "source-vl")
                source_vl_line(rest);
            else
                fail("unknown line " + quote(trim(raw)) +
                     " (expected vl-keys, in-port-keys, vl-by, tree-height, switch, dlid, vl2vl, "
                     "ca, source-sl or source-vl)");
        }
        start();
        rf_->compact();
        if (!source_rows_.empty()) {
            rf_->source_sls = PathSlTable(f_.num_port_slots(), max_lid_);
            for (const auto& [sw, row] : source_rows_) rf_->source_sls.set_switch_row(f_, sw, row);
        }
        if (h_.height > 0)
            for (std::size_t i = 0; i < f_.cas().size(); ++i)
                if (!ca_seen_[i])
                    throw InputError(source_, 0,
                                     fmt::format("tree-height is given but end node 0x{:016x} "
                                                 "has no `ca ... digits` line",
                                                 f_.node(f_.cas()[i]).guid));
        return std::move(*rf_);
    }

  private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(source_, lines_.line_no(), problem);
    }
    std::uint64_t number(std::string_view w, std::uint64_t max, const char* what) const {
        const auto v = parse_hex_or_dec(w, max);
        if (!v) fail(fmt::format("bad {} {} (expected 0..{})", what, quote(w), max));
        return *v;
    }
    NodeId node(std::string_view w) const {
        const auto g = w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')
                           ? parse_uint(w.substr(2), 16, ~std::uint64_t{0})
                           : std::nullopt;
        if (!g) fail("bad node GUID " + quote(w) + " (expected 0x<hex>)");
        const auto n = f_.find_node_by_guid(*g);
        if (!n) fail(fmt::format("node GUID 0x{:016x} is not in the fabric", *g));
        return *n;
    }
    // The routing function exists once the header is complete: at the first switch line.
    void start() {
        if (rf_) return;
        rf_.emplace(f_, max_lid_, h_.vl_keys, h_.by_in_port);
        rf_->vl_by_in_vl = h_.vl_by_in_vl;
        if (h_.height > 0) {
            rf_->tree.height = std::uint8_t(h_.height);
            rf_->tree.level.assign(f_.num_nodes(), 0);
            rf_->tree.switch_digit.assign(f_.num_nodes(), 0);
            rf_->tree.ca_digits.assign(f_.cas().size() * h_.height, 0);
            ca_seen_.assign(f_.cas().size(), 0);
        }
    }
    void header(std::string_view word, std::string_view rest) {
        if (rf_) fail(std::string(word) + " must come before the first switch line");
        const std::string_view v = next_word(rest);
        if (v.empty() || !trim(rest).empty()) fail(std::string(word) + " takes one value");
        if (word == "vl-keys") {
            h_.vl_keys = unsigned(number(v, 15, "VL key count"));
            if (h_.vl_keys == 0) fail("vl-keys must be 1..15");
        } else if (word == "in-port-keys") {
            if (v != "yes" && v != "no") fail("in-port-keys is yes or no, not " + quote(v));
            h_.by_in_port = v == "yes";
        } else if (word == "vl-by") {
            if (v != "sl" && v != "in-vl") fail("vl-by is sl or in-vl, not " + quote(v));
            h_.vl_by_in_vl = v == "in-vl";
        } else {
            h_.height = unsigned(number(v, 16, "tree height"));
        }
    }
    void switch_line(std::string_view rest) {
        start();
        sw_ = node(next_word(rest));
        if (!f_.node(sw_).is_switch()) fail(display_name(f_, sw_) + " is not a switch");
        std::string_view w = next_word(rest);
        if (!w.empty()) {
            if (h_.height == 0) fail("switch coordinates without tree-height in the header");
            const std::string_view lv = next_word(rest), dw = next_word(rest), dv = next_word(rest);
            if (w != "level" || dw != "digit" || dv.empty() || !trim(rest).empty())
                fail("expected `switch 0x<GUID> [level L digit D]`");
            rf_->tree.level[sw_] = std::uint8_t(number(lv, h_.height, "level"));
            rf_->tree.switch_digit[sw_] = std::uint16_t(number(dv, 255, "digit"));
        }
    }
    void need_switch(const char* what) const {
        if (sw_ == kNoNode) fail(std::string(what) + " line before any switch line");
    }
    void dlid_line(std::string_view rest) {
        need_switch("dlid");
        const auto [lo, hi] = dlid_range(next_word(rest));
        unsigned vl = 0;
        PortNum in = 0;
        bool got_vl = false, got_in = false;
        std::string_view w = next_word(rest);
        while (w == "vl" || w == "in") {
            const std::string_view v = next_word(rest);
            if (w == "vl") {
                vl = unsigned(number(v, 14, "input VL"));
                got_vl = true;
            } else {
                in = PortNum(number(v, f_.node(sw_).num_ports, "input port"));
                got_in = true;
            }
            w = next_word(rest);
        }
        if (w != ":") fail("expected `dlid LO[-HI] [vl V] [in P] : port[/priority] ...`");
        if (got_vl != (h_.vl_keys > 1))
            fail(h_.vl_keys > 1 ? "this file keys tables by input VL: `vl V` is needed"
                                : "`vl` given but vl-keys is 1");
        if (got_vl && vl >= h_.vl_keys) fail(fmt::format("input VL {} >= vl-keys", vl));
        if (got_in != h_.by_in_port)
            fail(h_.by_in_port ? "this file keys tables by input port: `in P` is needed"
                               : "`in` given but in-port-keys is no");
        cands_.clear();
        for (std::string_view c = next_word(rest); !c.empty(); c = next_word(rest)) {
            const std::size_t slash = c.find('/');
            Candidate x;
            x.port = PortNum(number(c.substr(0, slash), f_.node(sw_).num_ports, "port"));
            if (x.port == 0) fail("port 0 is the switch itself, not an output");
            if (slash != std::string_view::npos)
                x.priority = std::uint8_t(number(c.substr(slash + 1), 15, "priority"));
            cands_.push_back(x);
        }
        if (cands_.empty()) fail("a dlid line needs at least one candidate port");
        const std::uint32_t id = rf_->intern(cands_);
        for (std::uint32_t d = lo; d <= hi; ++d) rf_->set_entry(sw_, vl, in, Lid(d), id);
    }
    void vl2vl_line(std::string_view rest) {
        need_switch("vl2vl");
        const PortNum np = f_.node(sw_).num_ports;
        if (next_word(rest) != "in") fail("expected `vl2vl in P out Q : v0 .. v15`");
        const auto in = PortNum(number(next_word(rest), np, "input port"));
        if (next_word(rest) != "out") fail("expected `vl2vl in P out Q : v0 .. v15`");
        const auto out = PortNum(number(next_word(rest), np, "output port"));
        if (next_word(rest) != ":") fail("expected `vl2vl in P out Q : v0 .. v15`");
        set_table(sw_, in, out, rest);
    }
    void source_vl_line(std::string_view rest) {
        start();
        const NodeId ca = node(next_word(rest));
        if (f_.node(ca).is_switch()) fail(display_name(f_, ca) + " is a switch, not an end node");
        const PortNum np = f_.node(ca).num_ports;
        if (next_word(rest) != "port") fail("expected `source-vl 0x<GUID> port P : v0 .. v15`");
        const auto port = PortNum(number(next_word(rest), np, "port"));
        if (port == 0 || next_word(rest) != ":")
            fail("expected `source-vl 0x<GUID> port P : v0 .. v15`");
        set_table(ca, 0, port, rest);
    }
    // The 16 VLs left on the line, as node n's table for (in, out).
    void set_table(NodeId n, PortNum in, PortNum out, std::string_view rest) {
        Sl2VlTable t;
        for (auto& v : t) v = std::uint8_t(number(next_word(rest), 15, "VL"));
        if (!trim(rest).empty()) fail("a VL table has 16 VLs");
        const PortNum np = f_.node(n).num_ports;
        auto& tables = rf_->vl2vl.tables;
        if (tables.empty()) tables.resize(f_.num_nodes());
        if (tables[n].empty()) tables[n].assign(Sl2Vl::size(np), kSl2VlDropAll);
        tables[n][Sl2Vl::index(np, in, out)] = t;
    }
    void source_sl_line(std::string_view rest) {
        start();
        const NodeId sw = node(next_word(rest));
        if (!f_.node(sw).is_switch()) fail(display_name(f_, sw) + " is not a switch");
        const auto [lo, hi] = dlid_range(next_word(rest));
        if (next_word(rest) != ":") fail("expected `source-sl 0x<switch GUID> LO[-HI] : SL`");
        const auto sl = std::uint8_t(number(next_word(rest), 15, "SL"));
        if (!trim(rest).empty()) fail("expected `source-sl 0x<switch GUID> LO[-HI] : SL`");
        auto& row = source_rows_[sw];
        row.resize(std::size_t(max_lid_) + 1, 0);
        for (std::uint32_t d = lo; d <= hi; ++d) row[d] = sl;
    }
    std::pair<Lid, Lid> dlid_range(std::string_view range) const {
        const std::size_t dash = range.find('-');
        const Lid lo = Lid(number(range.substr(0, dash), max_lid_, "DLID"));
        const Lid hi = dash == std::string_view::npos
                           ? lo
                           : Lid(number(range.substr(dash + 1), max_lid_, "DLID"));
        if (lo == 0 || hi < lo) fail("bad DLID range " + quote(range));
        return {lo, hi};
    }
    void ca_line(std::string_view rest) {
        start();
        if (h_.height == 0) fail("ca coordinates without tree-height in the header");
        const NodeId n = node(next_word(rest));
        std::size_t ca = 0;
        while (ca < f_.cas().size() && f_.cas()[ca] != n) ++ca;
        if (ca == f_.cas().size()) fail(display_name(f_, n) + " is not an end node");
        if (next_word(rest) != "digits") fail("expected `ca 0x<GUID> digits d1 .. dH`");
        for (unsigned L = 0; L < h_.height; ++L)
            rf_->tree.ca_digits[ca * h_.height + L] =
                std::uint16_t(number(next_word(rest), 255, "digit"));
        if (!trim(rest).empty()) fail(fmt::format("a ca line has {} digits", h_.height));
        ca_seen_[ca] = 1;
    }

    Lines& lines_;
    const std::string& source_;
    const Fabric& f_;
    Lid max_lid_;
    Header h_;
    std::optional<RoutingFunction> rf_;
    NodeId sw_ = kNoNode;
    std::vector<Candidate> cands_;
    std::vector<std::uint8_t> ca_seen_;
    std::map<NodeId, std::vector<std::uint8_t>> source_rows_; // source-sl lines by switch
};

} // namespace

RoutingFunction read_forwarding_sets_text(std::string_view text, const std::string& source,
                                          const Fabric& f, Lid max_lid) {
    Lines lines(text);
    return Parser(lines, source, f, max_lid).run();
}

RoutingFunction load_forwarding_sets_file(const std::string& path, const Fabric& f, Lid max_lid) {
    InputChunks chunks(path, kMaxTableBytes, "forwarding-sets file");
    Lines lines(chunks);
    return Parser(lines, path, f, max_lid).run();
}

void write_forwarding_sets(std::ostream& out, const Fabric& f, const RoutingFunction& rf) {
    const TreeCoords& t = rf.tree;
    out << "# ibrt forwarding sets: candidate output ports per (switch, input VL, input port, "
           "DLID), docs/sim-model.md\n";
    out << "vl-keys " << rf.vl_keys() << "\nin-port-keys " << (rf.by_in_port() ? "yes" : "no")
        << "\nvl-by " << (rf.vl_by_in_vl ? "in-vl" : "sl") << "\n";
    if (!t.empty()) out << "tree-height " << unsigned(t.height) << "\n";
    std::string cands;
    for (NodeId sw : f.switches()) {
        out << fmt::format("switch 0x{:016x}", f.node(sw).guid);
        if (!t.empty())
            out << " level " << unsigned(t.level[sw]) << " digit " << t.switch_digit[sw];
        out << "\n";
        const PortNum np = f.node(sw).num_ports;
        for (unsigned vl = 0; vl < rf.vl_keys(); ++vl)
            for (PortNum in = 0; in <= (rf.by_in_port() ? np : 0); ++in) {
                const std::string keys =
                    (rf.vl_keys() > 1 ? fmt::format(" vl {}", vl) : std::string()) +
                    (rf.by_in_port() ? fmt::format(" in {}", in) : std::string());
                for (Lid d = 1; d <= rf.max_lid();) {
                    const std::uint32_t s = rf.lookup(sw, vl, in, d);
                    Lid e = d;
                    while (e < rf.max_lid() && rf.lookup(sw, vl, in, Lid(e + 1)) == s) ++e;
                    if (s != RoutingFunction::kNoSet) {
                        cands.clear();
                        for (const Candidate& c : rf.set(s)) {
                            cands += fmt::format(" {}", c.port);
                            if (c.priority) cands += fmt::format("/{}", c.priority);
                        }
                        out << (e > d ? fmt::format("dlid {}-{}", d, e) : fmt::format("dlid {}", d))
                            << keys << " :" << cands << "\n";
                    }
                    if (e == rf.max_lid()) break;
                    d = Lid(e + 1);
                }
            }
        if (sw < rf.vl2vl.tables.size() && !rf.vl2vl.tables[sw].empty())
            for (PortNum in = 0; in <= np; ++in)
                for (PortNum o = 1; o <= np; ++o) {
                    const Sl2VlTable* x = rf.vl2vl.find(sw, np, in, o);
                    if (!x || *x == kSl2VlDropAll) continue;
                    out << "vl2vl in " << unsigned(in) << " out " << unsigned(o) << " :";
                    for (auto v : *x) out << " " << unsigned(v);
                    out << "\n";
                }
    }
    for (NodeId ca : f.cas())
        for (PortNum p = 1; p <= f.node(ca).num_ports; ++p)
            if (const Sl2VlTable* x = rf.vl2vl.find(ca, f.node(ca).num_ports, 0, p);
                x && *x != kSl2VlDropAll) {
                out << fmt::format("source-vl 0x{:016x} port {} :", f.node(ca).guid, p);
                for (auto v : *x) out << " " << unsigned(v);
                out << "\n";
            }
    if (!rf.source_sls.empty())
        for (NodeId sw : f.switches()) {
            const PortId own = f.port_id(sw, 0);
            for (Lid d = 1; d <= rf.max_lid();) {
                const std::uint8_t sl = rf.source_sls.sl(own, d);
                Lid e = d;
                while (e < rf.max_lid() && rf.source_sls.sl(own, Lid(e + 1)) == sl) ++e;
                if (sl)
                    out << fmt::format("source-sl 0x{:016x} {} : {}\n", f.node(sw).guid,
                                       e > d ? fmt::format("{}-{}", d, e) : fmt::format("{}", d),
                                       sl);
                if (e == rf.max_lid()) break;
                d = Lid(e + 1);
            }
        }
    if (!t.empty())
        for (std::size_t i = 0; i < f.cas().size(); ++i) {
            out << fmt::format("ca 0x{:016x} digits", f.node(f.cas()[i]).guid);
            for (unsigned L = 1; L <= t.height; ++L) out << " " << t.ca_digit(std::uint32_t(i), L);
            out << "\n";
        }
}

} // namespace ibrt
