// Reader of the ibnetdiscover topology format and of ibsim's net files (the same grammar).
//
// Follows rdma-core infiniband-diags/ibnetdiscover.c (what it prints: out_switch, out_ca,
// out_switch_port, out_ca_port, `-f` and `-g` extras) and ibsim/sim_net.c (what the simulator
// accepts: parse_netconf, parse_port, parse_guidbase, new_node, link_ports); see
// shared/notes/opensm-plugin-api.md §7 and ibsim-e2e.md §3. Where the two differ, the result
// is the fabric ibsim would simulate:
//   * nodes without a GUID line get ibsim's sequential GUIDs (per type: CAs from 0x100000,
//     switches from 0x200000, routers from ~0); a switch uses one GUID, a CA or router
//     num_ports + 1; `xxguid=V` sets the base absolutely, `xxguid+V` relative to the last
//     absolute base; a CA port's GUID is node GUID + port number unless the file states it;
//   * `vendid`/`sysimgguid` apply to the next node only, `devid` sticks (new_node);
//   * the NodeDescription is the node id unless a `# "desc"` comment gives one;
//   * a port line without `[M]` after the remote id means remote port 1;
//   * link width and speed follow ibsim's enable-mask negotiation (link_ports): each end's
//     enabled set comes from the defaults, its `w=`/`s=`/`e=` options and then its
//     `lid N <width><speed>` comment, and the cable runs at the highest common value.
// Deliberately stricter than ibsim (which warns and carries on): unknown lines, malformed
// numbers, unknown widths/speeds, port lines outside a node record, ports listed twice and
// port aliases (`@`) are errors naming `file:line`.
//
// A file without any node record (an empty file, comments only) is an error, not an empty
// fabric. Files are read through read_input_file (formats/input_file.hpp): only regular files,
// and at most kMaxTopologyBytes for the top file and all its includes together.
//
// The whole input is held in memory and scanned as string_views; node ids and remote ids
// stay views into the buffers until the single resolution pass after the last line.
#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/input_file.hpp"
#include "formats/table_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <istream>
#include <string_view>
#include <vector>

namespace ibrt {

namespace {

// ---- scanning helpers over one line ---------------------------------------------------------

using table_text::is_space;
using table_text::next_word;
using table_text::trim;
using table_text::trim_left;

bool eat(std::string_view& s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
}

// An unsigned number the way strtoull(s, 0) reads it (0x.. hex, 0.. octal, else decimal), as
// ibsim does. Consumes the digits; nullopt if there are none or the value overflows 64 bits.
std::optional<std::uint64_t> take_number(std::string_view& s) {
    if (!s.empty() && s[0] >= '1' && s[0] <= '9') { // plain decimal, the common case
        std::uint64_t v = 0;
        std::size_t i = 0;
        while (i < s.size() && i < 19 && s[i] >= '0' && s[i] <= '9')
            v = v * 10 + unsigned(s[i++] - '0');
        if (i == s.size() || s[i] < '0' || s[i] > '9') { // 19 digits cannot overflow
            s.remove_prefix(i);
            return v;
        }
    }
    unsigned base = 10;
    std::size_t i = 0;
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (!s.empty() && s[0] == '0') {
        base = 8;
    }
    const std::size_t start = i;
    std::uint64_t v = 0;
    for (; i < s.size(); ++i) {
        const int d = table_text::digit_value(s[i]);
        if (static_cast<unsigned>(d) >= base) break;
        if (v > (~std::uint64_t{0} - static_cast<unsigned>(d)) / base) return std::nullopt;
        v = v * base + static_cast<unsigned>(d);
    }
    if (i == start) return std::nullopt;
    s.remove_prefix(i);
    return v;
}

// Bare hex without 0x, as ibnetdiscover prints port GUIDs in parentheses: at most 16 digits.
std::optional<std::uint64_t> take_hex(std::string_view& s) {
    std::size_t i = 0;
    std::uint64_t v = 0;
    for (; i < s.size() && i <= 16; ++i) {
        const int d = table_text::digit_value(s[i]);
        if (d >= 16) break;
        v = v << 4 | static_cast<unsigned>(d);
    }
    if (i == 0 || i > 16) return std::nullopt;
    s.remove_prefix(i);
    return v;
}

// `"text"`; s must start at the opening quote. nullopt if the closing quote is missing.
std::optional<std::string_view> take_quoted(std::string_view& s) {
    const std::size_t close = s.find('"', 1);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view q = s.substr(1, close - 1);
    s.remove_prefix(close + 1);
    return q;
}

// The leading keyword of a line: letters, digits, '-' and '_' ("Switch", "caguid", "Non-Chassis").
std::string_view leading_word(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_'))
        ++i;
    return s.substr(0, i);
}

std::string quote(std::string_view s) {
    return "\"" + std::string(s) + "\"";
}

constexpr const char* kWhat = "topology file";

// ---- ibsim's link enable masks (sim.h LINKWIDTH_*, LINKSPEED_*, LINKSPEEDEXT_*) -------------

namespace ena {
constexpr std::uint8_t w1x = 1, w4x = 2, w8x = 4, w12x = 8, w2x = 16;
constexpr std::uint8_t sSDR = 1, sDDR = 2, sQDR = 4;
constexpr std::uint8_t eFDR = 1, eEDR = 2, eHDR = 4, eNDR = 8;
constexpr std::uint8_t eXDR = 16; // not in ibsim; ibrt's own bit so that XDR survives a read
} // namespace ena

struct LinkEnable {
    std::uint8_t width = ena::w4x;  // LinkWidthEnabled
    std::uint8_t speed = ena::sSDR; // LinkSpeedEnabled
    std::uint8_t ext = 0;           // LinkSpeedExtEnabled
    std::uint8_t fdr10 = 0;         // Mellanox extended speed (FDR10)
    bool width_unknown = false;     // the comment said `??`
    bool speed_unknown = false;
};

std::uint8_t active_width(std::uint8_t m) {
    for (auto [bit, lanes] :
         {std::pair{ena::w12x, 12}, {ena::w8x, 8}, {ena::w4x, 4}, {ena::w2x, 2}, {ena::w1x, 1}})
        if (m & bit) return static_cast<std::uint8_t>(lanes);
    return 0;
}

// What ibnetdiscover prints for the negotiated masks (dump_linkspeed[ext]_compat).
std::optional<LinkSpeed> active_speed(std::uint8_t speed, std::uint8_t ext, std::uint8_t fdr10) {
    if (!(speed & (ena::sSDR | ena::sDDR | ena::sQDR))) return std::nullopt; // ibsim panics
    if (ext & ena::eXDR) return LinkSpeed::XDR;
    if (ext & ena::eNDR) return LinkSpeed::NDR;
    if (ext & ena::eHDR) return LinkSpeed::HDR;
    if (ext & ena::eEDR) return LinkSpeed::EDR;
    if (ext & ena::eFDR) return LinkSpeed::FDR;
    if (speed & ena::sQDR) return fdr10 ? LinkSpeed::FDR10 : LinkSpeed::QDR;
    if (speed & ena::sDDR) return LinkSpeed::DDR;
    if (speed & ena::sSDR) return LinkSpeed::SDR;
    return std::nullopt;
}

// Node id -> NodeId: open addressing over flat arrays, since resolving every port line's
// remote id is the reader's hottest lookup (one per cable end).
class IdTable {
  public:
    // NodeId of `id`, or kNoNode.
    NodeId find(std::string_view id) const {
        if (slots_.empty()) return kNoNode;
        const std::uint64_t h = hash(id);
        for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
            const NodeId n = slots_[i];
            if (n == kNoNode) return kNoNode;
            if (hashes_[n] == h && ids_[n] == id) return n;
        }
    }
    // Adds `id` as node ids_.size(); returns the existing node if the id is taken.
    NodeId insert(std::string_view id) {
        if ((ids_.size() + 1) * 2 > slots_.size()) grow();
        const std::uint64_t h = hash(id);
        std::size_t i = h & mask_;
        for (; slots_[i] != kNoNode; i = (i + 1) & mask_)
            if (hashes_[slots_[i]] == h && ids_[slots_[i]] == id) return slots_[i];
        slots_[i] = static_cast<NodeId>(ids_.size());
        ids_.push_back(id);
        hashes_.push_back(h);
        return slots_[i];
    }

  private:
    std::vector<NodeId> slots_;
    std::vector<std::string_view> ids_;
    std::vector<std::uint64_t> hashes_;
    std::size_t mask_ = 0;

    static std::uint64_t hash(std::string_view s) {
        std::uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
        std::size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
            h ^= h >> 31;
        }
        std::uint64_t w = 0;
        std::memcpy(&w, s.data() + i, s.size() - i);
        h = (h ^ w) * 0x94d049bb133111ebull;
        return h ^ (h >> 29);
    }
    void grow() {
        const std::size_t size = std::max<std::size_t>(64, slots_.size() * 2);
        slots_.assign(size, kNoNode);
        mask_ = size - 1;
        for (NodeId n = 0; n < ids_.size(); ++n) {
            std::size_t i = hashes_[n] & mask_;
            while (slots_[i] != kNoNode) i = (i + 1) & mask_;
            slots_[i] = n;
        }
    }
};

// ---- the parser -----------------------------------------------------------------------------

constexpr int kMaxIncludeDepth = 8;          // ibsim: MAX_INCLUDE 9 files open at once
constexpr std::size_t kMaxModulePrefix = 20; // ibsim: NODEPREFIX

struct PortLine {
    NodeId node;
    PortNum port;
    PortNum rport;
    std::uint8_t rext;
    std::uint16_t src;
    int line;
    std::string_view rid;
    std::uint64_t rguid; // port GUID the line states for the remote port; 0 = none
    LinkEnable link;
};

class NetParser {
  public:
    Fabric parse_top(std::string text, const std::string& source, const std::string& dir) {
        parse_text(keep(std::move(text)), add_source(source), dir, 0);
        if (node_line_.empty())
            throw InputError(source, 0,
                             "no nodes: the file has no Switch, Ca or Rt record (is it an "
                             "ibnetdiscover topology?)");
        return finish();
    }

  private:
    std::deque<std::string> buffers_;  // file contents; ids are views into them
    std::deque<std::string> owned_;    // ids expanded with a module prefix
    std::vector<std::string> sources_; // file names, indexed by PortLine::src
    FabricBuilder b_;
    IdTable by_id_;                           // NodeIds are dense in file order, as in the builder
    std::vector<int> node_line_;              // header line of each node, for duplicate-id errors
    std::vector<std::uint32_t> first_slot_;   // per node: index of its port 0 in the slot arrays
    std::vector<std::uint32_t> line_at_slot_; // port line index + 1 listing that port; 0 = none
    std::vector<std::uint8_t> guid_stated_;   // the port's own line gave its GUID
    std::vector<PortLine> lines_;

    // Settings that ibsim keeps across lines and include files.
    std::array<std::uint64_t, 4> abs_guid_{0, 0x100000, 0x200000, ~std::uint64_t{0}};
    std::array<std::uint64_t, 4> cur_guid_ = abs_guid_;
    std::uint32_t vendid_ = 0;        // next node only
    std::uint32_t devid_ = 0;         // sticky
    std::uint64_t sysimg_ = 0;        // next node only
    std::uint64_t sw_port0_guid_ = 0; // `(portguid)` of the last switchguid line, next switch only
    LinkEnable default_link_;
    std::string prefix_; // module= prefix

    NodeId record_ = kNoNode; // the node whose port lines may follow
    std::uint16_t src_ = 0;
    int line_ = 0;

    std::uint64_t bytes_ = 0; // read so far, the top file and its includes

    std::string_view keep(std::string text) {
        bytes_ += text.size();
        return buffers_.emplace_back(std::move(text));
    }

    std::uint16_t add_source(const std::string& name) {
        if (sources_.size() >= 0xffff) fail("too many include files");
        sources_.push_back(name);
        return static_cast<std::uint16_t>(sources_.size() - 1);
    }

    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(sources_.empty() ? std::string() : sources_[src_], line_, problem);
    }
    [[noreturn]] void fail_at(const PortLine& pl, const std::string& problem) const {
        throw InputError(sources_[pl.src], pl.line, problem);
    }

    void parse_text(std::string_view text, std::uint16_t src, const std::string& dir, int depth) {
        const std::uint16_t saved_src = src_;
        const int saved_line = line_;
        src_ = src;
        line_ = 0;
        record_ = kNoNode;
        std::size_t pos = 0;
        while (pos < text.size()) {
            const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
            const std::size_t end =
                nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data())
                   : text.size();
            ++line_;
            parse_line(trim(text.substr(pos, end - pos)), dir, depth);
            pos = end + 1;
        }
        record_ = kNoNode;
        src_ = saved_src;
        line_ = saved_line;
    }

    void parse_line(std::string_view s, const std::string& dir, int depth) {
        if (s.empty()) {
            record_ = kNoNode; // a blank line ends a node record
            return;
        }
        switch (s[0]) {
        case '#':
            return; // comment lines do not end a record (ibsim parse_ports)
        case '[':
            if (record_ == kNoNode)
                fail("port line outside a node record (a blank or other line ended the record)");
            parse_port_line(s);
            return;
        case '@':
            fail("ibsim port aliases ('@') are not supported");
        default:
            break;
        }
        record_ = kNoNode;
        const std::string_view kw = leading_word(s);
        std::string_view rest = s.substr(kw.size());
        if (kw == "Switch") return parse_node(NodeType::Switch, rest);
        if (kw == "Ca" || kw == "Hca") return parse_node(NodeType::CA, rest);
        if (kw == "Rt") return parse_node(NodeType::Router, rest);
        if (kw == "switchguid") return parse_guid_base(NodeType::Switch, rest);
        if (kw == "caguid" || kw == "hcaguids") return parse_guid_base(NodeType::CA, rest);
        if (kw == "rtguid") return parse_guid_base(NodeType::Router, rest);
        if (kw == "vendid") {
            vendid_ = static_cast<std::uint32_t>(assigned_number(rest, "vendid", 0xffffff));
            return;
        }
        if (kw == "devid") {
            devid_ = static_cast<std::uint32_t>(assigned_number(rest, "devid", 0xffff));
            return;
        }
        if (kw == "sysimgguid") {
            sysimg_ = assigned_number(rest, "sysimgguid", ~std::uint64_t{0});
            return;
        }
        if (kw == "width") {
            const auto v = assigned_number(rest, "width", 31);
            if (v < 1) fail("bad default link width " + std::to_string(v) + " (1..31)");
            default_link_.width = static_cast<std::uint8_t>(v);
            return;
        }
        if (kw == "speed") {
            const auto v = assigned_number(rest, "speed", 7);
            if (v < 1) fail("bad default link speed " + std::to_string(v) + " (1..7)");
            default_link_.speed = static_cast<std::uint8_t>(v);
            return;
        }
        if (kw == "extspeed") {
            default_link_.ext = static_cast<std::uint8_t>(assigned_number(rest, "extspeed", 15));
            return;
        }
        if (kw == "module") return parse_module(rest);
        if (kw == "include") return parse_include(rest, dir, depth);
        // ibsim console commands run at load time and its parser debug switch: nothing for
        // the topology. `ibnetdiscover -g` chassis headings are informational.
        if (kw == "do" || kw == "pdebug" || kw == "Chassis" || kw == "Non-Chassis" ||
            kw == "Hostname")
            return;
        fail("unrecognised line \"" + std::string(s.substr(0, 40)) + "\"");
    }

    // `key=value` (plus an optional trailing comment); value checked against max.
    std::uint64_t assigned_number(std::string_view rest, const char* key, std::uint64_t max) {
        rest = trim_left(rest);
        if (!eat(rest, "=")) fail(std::string("missing '=' after ") + key);
        rest = trim_left(rest);
        const auto v = take_number(rest);
        if (!v || *v > max) fail(std::string("bad ") + key + " value");
        expect_line_end(trim_left(rest));
        return *v;
    }

    void expect_line_end(std::string_view rest) {
        if (!rest.empty() && rest[0] != '#')
            fail("unexpected text \"" + std::string(rest.substr(0, 40)) + "\"");
    }

    void parse_guid_base(NodeType t, std::string_view rest) {
        rest = trim_left(rest);
        const auto ti = static_cast<std::size_t>(t);
        bool relative = false;
        if (eat(rest, "+"))
            relative = true;
        else if (!eat(rest, "="))
            fail("missing '=' or '+' after the GUID keyword");
        rest = trim_left(rest);
        const std::string_view token = rest.substr(0, rest.find_first_of(" \t(#"));
        const auto v = take_number(rest);
        if (!v || (!rest.empty() && rest[0] != '(' && rest[0] != '#' && !is_space(rest[0])))
            fail("bad GUID \"" + std::string(token.substr(0, 40)) + "\"");
        if (relative) {
            cur_guid_[ti] = abs_guid_[ti] + *v;
        } else {
            abs_guid_[ti] = cur_guid_[ti] = *v;
        }
        if (t == NodeType::Switch) sw_port0_guid_ = 0;
        if (!rest.empty() && rest[0] == '(') { // switchguid=0x..(port GUID)
            rest.remove_prefix(1);
            const auto pg = take_hex(rest);
            if (!pg || !eat(rest, ")")) fail("bad port GUID in parentheses");
            if (t == NodeType::Switch) sw_port0_guid_ = *pg;
        }
        expect_line_end(trim_left(rest));
    }

    void parse_module(std::string_view rest) {
        rest = trim_left(rest);
        if (!eat(rest, "=")) fail("missing '=' after module");
        rest = trim_left(rest);
        if (rest.empty() || rest[0] != '"') fail("module prefix must be quoted");
        const auto p = take_quoted(rest);
        if (!p) fail("unterminated quoted string");
        if (p->size() > kMaxModulePrefix)
            fail("module prefix longer than " + std::to_string(kMaxModulePrefix) + " characters");
        prefix_ = std::string(*p);
        expect_line_end(trim_left(rest));
    }

    void parse_include(std::string_view rest, const std::string& dir, int depth) {
        rest = trim_left(rest);
        if (rest.empty() || rest[0] != '"') fail("include needs a quoted file name");
        const auto name = take_quoted(rest);
        if (!name || name->empty()) fail("bad include file name");
        expect_line_end(trim_left(rest));
        if (depth + 1 > kMaxIncludeDepth) fail("includes nested too deeply (an include cycle?)");
        std::filesystem::path p{std::string(*name)};
        if (p.is_relative() && !dir.empty()) p = std::filesystem::path(dir) / p;
        const std::string path = p.string();
        std::string text;
        try {
            text = read_input_file(path, kMaxTopologyBytes, kWhat);
        } catch (const InputError& e) {
            fail("include file \"" + path + "\": " + e.problem());
        }
        if (bytes_ + text.size() > kMaxTopologyBytes)
            fail("include file \"" + path +
                 "\": the topology and its include files hold more "
                 "than the " +
                 format_byte_limit(kMaxTopologyBytes) + " limit");
        const std::uint16_t src = add_source(path);
        parse_text(keep(std::move(text)), src, p.parent_path().string(), depth + 1);
    }

    // A node id with the module prefix applied the way ibsim builds and looks up ids.
    std::string_view expand_id(std::string_view id) {
        if (prefix_.empty() || id.find('#') != std::string_view::npos) return id;
        return owned_.emplace_back(prefix_ + "#" + std::string(id));
    }

    // `Switch 8 "id"  # "desc" enhanced port 0 lid 4 lmc 0`, `Ca 2 "id" # "desc"`.
    void parse_node(NodeType type, std::string_view rest) {
        rest = trim_left(rest);
        const auto nports = take_number(rest);
        if (!nports) fail("missing port count");
        if (*nports < 1 || *nports > 254)
            fail("bad port count " + std::to_string(*nports) + " (1..254)");
        rest = trim_left(rest);
        if (rest.empty() || rest[0] != '"') fail("missing quoted node id");
        const auto raw_id = take_quoted(rest);
        if (!raw_id) fail("unterminated quoted string");
        if (raw_id->empty()) fail("empty node id");
        if (raw_id->find('@') != std::string_view::npos)
            fail("'@' is reserved in node ids (ibsim aliases)");
        rest = trim_left(rest);
        if (!rest.empty() && rest[0] != '#')
            fail("unexpected text after the node id \"" + std::string(rest.substr(0, 40)) + "\"");
        if (raw_id->find('#') != std::string_view::npos)
            fail("'#' is reserved in node ids (ibsim module prefixes)");
        const std::string_view id = expand_id(*raw_id);

        std::string_view desc;
        bool have_desc = false;
        if (!rest.empty()) { // the comment
            rest = trim_left(rest.substr(1));
            if (!rest.empty() && rest[0] == '"') {
                const auto d = take_quoted(rest);
                if (!d) fail("unterminated quoted string");
                desc = *d;
            } else { // unquoted description runs up to the switch fields (ibsim parse_node_desc)
                std::size_t cut = rest.size();
                for (std::string_view m : {" enhanced port ", " base port ", " lid ", " lmc "})
                    cut = std::min(cut, rest.find(m));
                desc = trim(rest.substr(0, cut));
                rest.remove_prefix(cut);
            }
            have_desc = !desc.empty();
        }

        const auto ti = static_cast<std::size_t>(type);
        const std::uint64_t guid = cur_guid_[ti];
        const NodeId known = by_id_.insert(id);
        if (known != b_.num_nodes())
            fail("duplicate node id " + quote(id) + " (first defined at line " +
                 std::to_string(node_line_[known]) + ")");
        // Checked here so that the builder needs no source location per node.
        if (guid != 0 && b_.find_node_by_guid(guid)) fail("duplicate node GUID " + guid_hex(guid));
        const NodeId n = b_.add_node(type, static_cast<PortNum>(*nports), guid,
                                     std::string(have_desc ? desc : id));
        node_line_.push_back(line_);
        Node& node = b_.node(n);
        node.id = std::string(id);
        node.vendor_id = vendid_;
        node.device_id = devid_;
        node.sysimg_guid = sysimg_;
        vendid_ = 0;
        sysimg_ = 0;
        cur_guid_[ti] += type == NodeType::Switch ? 1 : *nports + 1;

        first_slot_.push_back(static_cast<std::uint32_t>(line_at_slot_.size()));
        line_at_slot_.resize(line_at_slot_.size() + *nports + 1, 0);
        guid_stated_.resize(line_at_slot_.size(), 0);

        if (type == NodeType::Switch) {
            if (sw_port0_guid_ != 0 && sw_port0_guid_ != guid) b_.port(n, 0).guid = sw_port0_guid_;
            sw_port0_guid_ = 0;
            parse_switch_fields(n, rest);
        } else {
            for (PortNum p = 1; p <= *nports; ++p) b_.port(n, p).guid = guid + p;
        }
        record_ = n;
    }

    Lid take_lid(std::string_view& s) {
        s = trim_left(s);
        std::string_view token = s;
        token = next_word(token);
        const auto v = take_number(s);
        if (!v || *v > kMaxUnicastLid) fail("bad LID \"" + std::string(token) + "\"");
        return static_cast<Lid>(*v);
    }

    std::uint8_t take_lmc(std::string_view& s) {
        s = trim_left(s);
        std::string_view token = s;
        token = next_word(token);
        const auto v = take_number(s);
        if (!v || *v > kMaxLmc) fail("bad LMC \"" + std::string(token) + "\"");
        return static_cast<std::uint8_t>(*v);
    }

    void check_aligned(Lid lid, std::uint8_t lmc) const {
        if (const std::string p = unaligned_base_lid_problem(lid, lmc); !p.empty()) fail(p);
    }

    // `enhanced port 0 lid 4 lmc 0` after a switch description; other words are free text.
    void parse_switch_fields(NodeId n, std::string_view rest) {
        Port& p0 = b_.port(n, 0);
        for (std::string_view t = next_word(rest); !t.empty(); t = next_word(rest)) {
            if (t == "enhanced" || t == "base") {
                b_.node(n).enhanced_port0 = t == "enhanced";
            } else if (t == "lid") {
                p0.base_lid = take_lid(rest);
            } else if (t == "lmc") {
                p0.lmc = take_lmc(rest);
            }
        }
        check_aligned(p0.base_lid, p0.lmc);
    }

    // `[N]` or `[N][ext M]`; s starts at '['.
    PortNum take_port_ref(std::string_view& s, std::uint8_t& ext, const char* what) {
        s.remove_prefix(1);
        const auto v = take_number(s);
        if (!v || !eat(s, "]")) fail(std::string("bad ") + what + " port number");
        if (*v > 255) fail(std::string("bad ") + what + " port number " + std::to_string(*v));
        if (eat(s, "[ext")) {
            s = trim_left(s);
            const auto e = take_number(s);
            if (!e || *e > 255 || !eat(s, "]")) fail("bad [ext N] port number");
            ext = static_cast<std::uint8_t>(*e);
        }
        return static_cast<PortNum>(*v);
    }

    // `(hex)` port GUID if s starts with '('.
    std::uint64_t take_paren_guid(std::string_view& s) {
        if (s.empty() || s[0] != '(') return 0;
        s.remove_prefix(1);
        const auto g = take_hex(s);
        if (!g || !eat(s, ")")) fail("bad port GUID in parentheses");
        return *g;
    }

    void parse_port_line(std::string_view s) {
        const NodeId n = record_;
        const Node& node = b_.node(n);
        std::uint8_t ext = 0;
        const PortNum p = take_port_ref(s, ext, "local");
        if (p == 0) fail("port 0 cannot be cabled");
        if (p > node.num_ports)
            fail("port " + std::to_string(p) + " does not exist on " + quote(node.id) + " (" +
                 std::to_string(node.num_ports) + " ports)");
        const std::uint32_t slot = first_slot_[n] + p;
        if (line_at_slot_[slot] != 0)
            fail("port " + std::to_string(p) + " of " + quote(node.id) +
                 " is listed twice (first at line " +
                 std::to_string(lines_[line_at_slot_[slot] - 1].line) + ")");
        Port& port = b_.port(n, p);
        if (ext) port.ext_num = ext;
        if (const std::uint64_t g = take_paren_guid(s)) {
            if (node.is_switch()) fail("a switch port line cannot state a port GUID");
            port.guid = g;
            guid_stated_[slot] = 1;
        }
        s = trim_left(s);
        if (s.empty() || s[0] != '"') fail("missing quoted remote node id");
        const auto rid_raw = take_quoted(s);
        if (!rid_raw) fail("unterminated quoted string");
        if (rid_raw->empty()) fail("empty remote node id");
        if (rid_raw->find('@') != std::string_view::npos)
            fail("ibsim port aliases ('@') are not supported");

        PortLine pl{};
        pl.node = n;
        pl.port = p;
        pl.rport = 1; // ibsim: no [M] means the remote's port 1
        pl.src = src_;
        pl.line = line_;
        pl.rid = expand_id(*rid_raw);
        pl.link = default_link_;
        if (!s.empty() && s[0] == '[') pl.rport = take_port_ref(s, pl.rext, "remote");
        s = trim_left(s);
        pl.rguid = take_paren_guid(s);

        // ibsim link options before the comment: w=<width mask> s=<speed mask> e=<ext mask>.
        for (s = trim_left(s); !s.empty() && s[0] != '#'; s = trim_left(s)) {
            std::size_t len = 0;
            while (len < s.size() && !is_space(s[len]) && s[len] != '#') ++len;
            std::string_view opt = s.substr(0, len);
            s.remove_prefix(len);
            apply_link_option(pl.link, opt);
        }
        if (!s.empty()) parse_port_comment(pl, port, node.is_switch(), s.substr(1));
        lines_.push_back(pl);
        line_at_slot_[slot] = static_cast<std::uint32_t>(lines_.size());
    }

    void apply_link_option(LinkEnable& l, std::string_view opt) {
        std::string_view v = opt.substr(std::min<std::size_t>(2, opt.size()));
        const char key = opt.size() > 2 && opt[1] == '=' ? opt[0] : 0;
        const auto num = key ? take_number(v) : std::nullopt;
        if (!key || !num || !v.empty())
            fail("unexpected text \"" + std::string(opt.substr(0, 40)) + "\" in port line");
        switch (key) {
        case 'w':
            if (*num < 1 || *num > 31) fail("bad link width option " + std::string(opt));
            l.width = static_cast<std::uint8_t>(*num);
            return;
        case 's':
            if (*num > 7) fail("bad link speed option " + std::string(opt));
            l.speed = static_cast<std::uint8_t>(*num ? *num : ena::sQDR); // ibsim: 0 means QDR
            return;
        case 'e':
            if (*num > 15) fail("bad extended link speed option " + std::string(opt));
            l.ext = static_cast<std::uint8_t>(*num);
            return;
        default:
            fail("unknown port option " + std::string(opt));
        }
    }

    // Switch port: `"peer desc" lid N 4xQDR [s=.. w=.. v=..]`; CA/router port:
    // `lid L lmc M "peer desc" lid N 4xQDR ...`. Any other comment is free text.
    void parse_port_comment(PortLine& pl, Port& port, bool is_switch, std::string_view c) {
        c = trim_left(c);
        std::string_view probe = c;
        if (next_word(probe) == "lid") {
            c = probe;
            const Lid lid = take_lid(c);
            std::uint8_t lmc = 0;
            std::string_view after = c;
            if (next_word(after) == "lmc") {
                c = after;
                lmc = take_lmc(c);
            }
            if (!is_switch) {
                check_aligned(lid, lmc);
                port.base_lid = lid;
                port.lmc = lmc;
            }
            c = trim_left(c);
        } else if (c.empty() || c[0] != '"') {
            return;
        }
        if (!c.empty() && c[0] == '"' && !take_quoted(c)) fail("unterminated quoted string");
        probe = c;
        if (next_word(probe) != "lid") return;
        c = probe;
        (void)take_lid(c); // the peer's LID: the peer's own line is authoritative
        const std::string_view link = next_word(c);
        if (!link.empty()) apply_link_token(pl.link, link);
    }

    // `4xEDR`, `12xHDR`, `??SDR`, `4x???`: what ibnetdiscover prints; mapped onto enable
    // masks exactly as ibsim's parse_port_link_width_and_speed does.
    void apply_link_token(LinkEnable& l, std::string_view t) {
        std::string_view speed;
        if (t.substr(0, 2) == "??") {
            l.width_unknown = true;
            speed = t.substr(2);
        } else {
            const std::size_t x = t.find('x');
            const auto lanes =
                x == std::string_view::npos ? std::nullopt : parse_link_width(t.substr(0, x + 1));
            if (!lanes) fail("bad link width in \"" + std::string(t) + "\"");
            speed = t.substr(x + 1);
            l.width_unknown = false;
            switch (*lanes) {
            case 12:
                l.width = ena::w1x | ena::w4x | ena::w12x;
                break;
            case 8:
                l.width = ena::w8x;
                break;
            case 4:
                l.width = ena::w1x | ena::w4x;
                break;
            case 2:
                l.width = ena::w2x;
                break;
            default:
                l.width = ena::w1x;
                break;
            }
        }
        if (speed == "??" || speed == "???") {
            l.speed_unknown = true;
            return;
        }
        const auto sp = parse_link_speed(speed);
        if (!sp) fail("bad link speed in \"" + std::string(t) + "\"");
        l.speed_unknown = false;
        constexpr std::uint8_t upto_qdr = ena::sSDR | ena::sDDR | ena::sQDR;
        switch (*sp) {
        case LinkSpeed::SDR:
            l.speed = ena::sSDR;
            break;
        case LinkSpeed::DDR:
            l.speed = ena::sSDR | ena::sDDR;
            break;
        case LinkSpeed::QDR:
            l.speed = upto_qdr;
            break;
        case LinkSpeed::FDR10:
            l.speed = upto_qdr, l.fdr10 = 1;
            break;
        case LinkSpeed::FDR:
            l.speed = upto_qdr, l.fdr10 = 1, l.ext = ena::eFDR;
            break;
        case LinkSpeed::EDR:
            l.speed = upto_qdr, l.fdr10 = 1, l.ext = ena::eFDR | ena::eEDR;
            break;
        case LinkSpeed::HDR:
            l.speed = upto_qdr, l.fdr10 = 1, l.ext = ena::eFDR | ena::eEDR | ena::eHDR;
            break;
        case LinkSpeed::NDR:
            l.speed = upto_qdr, l.fdr10 = 1, l.ext = ena::eFDR | ena::eEDR | ena::eHDR | ena::eNDR;
            break;
        case LinkSpeed::XDR:
            l.speed = upto_qdr, l.fdr10 = 1,
            l.ext = ena::eFDR | ena::eEDR | ena::eHDR | ena::eNDR | ena::eXDR;
            break;
        case LinkSpeed::Unknown:
            break;
        }
    }

    // ibsim link_ports: each property runs at the highest value both ends enable. An end whose
    // comment said `??` does not constrain it.
    std::pair<std::uint8_t, LinkSpeed> negotiate(const PortLine& a, const LinkEnable* b) const {
        const LinkEnable* ends[2] = {&a.link, b};
        std::uint8_t width = 0;
        LinkSpeed speed = LinkSpeed::Unknown;
        std::uint8_t wm = 0xff, sm = 0xff, em = 0xff, fm = 0xff;
        bool any_width = false, any_speed = false;
        for (const LinkEnable* e : ends) {
            if (!e) continue;
            if (!e->width_unknown) wm &= e->width, any_width = true;
            if (!e->speed_unknown) sm &= e->speed, em &= e->ext, fm &= e->fdr10, any_speed = true;
        }
        if (any_width) {
            width = active_width(wm);
            if (width == 0) fail_at(a, "link width mismatch: the two ends enable no common width");
        }
        if (any_speed) {
            const auto sp = active_speed(sm, em, fm);
            if (!sp) fail_at(a, "link speed mismatch: the two ends enable no common speed");
            speed = *sp;
        }
        return {width, speed};
    }

    // Resolves remote ids and checks every cable from both ends here, where the lines are
    // known, so the builder is handed consistent half-links without per-cable locations.
    Fabric finish() {
        std::vector<NodeId> rnode(lines_.size());
        for (std::size_t i = 0; i < lines_.size(); ++i) {
            const PortLine& pl = lines_[i];
            const NodeId rn = by_id_.find(pl.rid);
            if (rn == kNoNode) fail_at(pl, "unknown remote node " + quote(pl.rid));
            const Node& r = b_.node(rn);
            if (pl.rport == 0 || pl.rport > r.num_ports)
                fail_at(pl, "port " + std::to_string(pl.rport) + " does not exist on " +
                                quote(r.id) + " (" + std::to_string(r.num_ports) + " ports)");
            if (rn == pl.node && pl.rport == pl.port)
                fail_at(pl,
                        quote(r.id) + " port " + std::to_string(pl.port) + " is cabled to itself");
            rnode[i] = rn;
            Port& rp = b_.port(rn, pl.rport);
            if (pl.rguid != 0 && !r.is_switch()) {
                const std::uint32_t rslot = first_slot_[rn] + pl.rport;
                if (guid_stated_[rslot] && rp.guid != pl.rguid)
                    fail_at(pl, "port GUID " + guid_hex(pl.rguid) + " given for " + quote(r.id) +
                                    " port " + std::to_string(pl.rport) + " differs from " +
                                    guid_hex(rp.guid) + " on its own line");
                rp.guid = pl.rguid;
            }
            if (pl.rext != 0 && rp.ext_num == 0) rp.ext_num = pl.rext;
        }
        for (std::size_t i = 0; i < lines_.size(); ++i) {
            const PortLine& pl = lines_[i];
            const std::uint32_t back = line_at_slot_[first_slot_[rnode[i]] + pl.rport];
            if (back == 0 || rnode[back - 1] != pl.node || lines_[back - 1].rport != pl.port)
                fail_at(pl, quote(b_.node(pl.node).id) + " port " + std::to_string(pl.port) +
                                " names " + quote(b_.node(rnode[i]).id) + " port " +
                                std::to_string(pl.rport) +
                                " as its peer, but that port does not name it back");
            const auto [width, speed] = negotiate(pl, &lines_[back - 1].link);
            b_.add_half_link(pl.node, pl.port, rnode[i], pl.rport, width, speed);
        }
        return std::move(b_).build();
    }
};

} // namespace

Fabric read_ibnetdiscover(std::istream& in, const std::string& source,
                          const std::string& base_dir) {
    return NetParser().parse_top(read_input_stream(in, source, kMaxTopologyBytes, kWhat), source,
                                 base_dir);
}

Fabric read_ibnetdiscover_file(const std::string& path) {
    std::string text = read_input_file(path, kMaxTopologyBytes, kWhat);
    return NetParser().parse_top(std::move(text), path,
                                 std::filesystem::path(path).parent_path().string());
}

} // namespace ibrt
