// Reader of `opensm-subnet.lst`, as opensm/osm_dump.c dump_topology_node writes it
// (shared/notes/opensm-plugin-api.md §6.3):
//
//   { SW-SM Ports:08 SystemGUID:%016x NodeGUID:%016x PortGUID:%016x VenID:%06X DevID:%04X
//     Rev:%08X {desc} LID:%04X PN:%02X } { <peer, VenID:%08X> } PHY=4x LOG=ACT SPD=2.5
//
// (one line). The LID is a switch's port-0 LID or the CA port's own. The peer half is read for
// the cable's far end only: OpenSM prints the peer's DevID through cl_ntoh32 of a 16-bit field,
// so node attributes come from the lines where the node is the local side (every connected
// node has one). SPD: 2.5/5/10 = SDR/DDR/QDR, FDR10, 14/25/50 = FDR/EDR/HDR, `??` otherwise;
// old dumps (older opensm, ibdiagnet) end at `LOG=` without `SPD=`, and their speed is Unknown.
// Blank lines and `#` comment lines (which opensm does not write) are skipped.
// A DevID of 8 hex digits is a 16-bit DevID printed through a 32-bit byte swap (opensm's peer
// half, both halves in old dumps): its first 4 digits are the DevID, as ibdmchk reads it.
#include "formats/subnet_lst_reader.hpp"
#include "fabric/display_name.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"

#include <fmt/format.h>

#include <istream>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ibrt {

namespace {

struct Side {
    NodeType type = NodeType::CA;
    PortNum num_ports = 0;
    std::uint64_t sys_guid = 0, node_guid = 0, port_guid = 0;
    std::uint32_t vendor = 0, device = 0, revision = 0;
    std::string_view desc;
    Lid lid = 0;
    PortNum port = 0;
};

struct NodeRec {
    Side info;
    bool from_local = false; // info came from a line where this node is the local side
    int line = 0;
};

struct Cable {
    std::uint32_t a, b; // NodeRec indices
    PortNum pa, pb;
    std::uint8_t width;
    LinkSpeed speed;
    int line;
};

class LstParser {
  public:
    explicit LstParser(std::string source) : source_(std::move(source)) {}

    Fabric parse(std::string_view text) {
        std::size_t pos = 0;
        while (pos < text.size()) {
            std::size_t end = text.find('\n', pos);
            if (end == std::string_view::npos) end = text.size();
            ++line_;
            std::string_view l = text.substr(pos, end - pos);
            while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t'))
                l.remove_suffix(1);
            const std::size_t first = l.find_first_not_of(" \t");
            if (first != std::string_view::npos && l[first] != '#') parse_line(l.substr(first));
            pos = end + 1;
        }
        if (nodes_.empty())
            throw InputError(source_, 0,
                             "no nodes: the file has no node line (is it an opensm-subnet.lst?)");
        return build();
    }

  private:
    std::string source_;
    int line_ = 0;
    std::vector<NodeRec> nodes_;
    std::unordered_map<std::uint64_t, std::uint32_t> by_guid_;
    std::vector<Cable> cables_;

    static std::string name(const Side& d) { return display_name(d.type, d.desc, d.node_guid); }

    [[noreturn]] void fail(const std::string& problem, int line = -1) const {
        throw InputError(source_, line < 0 ? line_ : line, problem);
    }

    void expect(std::string_view& s, std::string_view lit) {
        if (s.substr(0, lit.size()) != lit)
            fail(fmt::format("expected \"{}\" at \"{}\"", lit, s.substr(0, 24)));
        s.remove_prefix(lit.size());
    }

    // `Key:<hex>` followed by a space.
    std::uint64_t hex_field(std::string_view& s, std::string_view key, std::uint64_t max) {
        expect(s, key);
        const std::string_view token = s.substr(0, s.find(' '));
        std::uint64_t v = 0;
        bool ok = !token.empty() && token.size() <= 16;
        for (char c : token) {
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                d = -1;
            if (d < 0) ok = false;
            v = v << 4 | static_cast<unsigned>(d & 15);
        }
        if (!ok || v > max)
            fail(fmt::format("bad {} value \"{}\"", key.substr(0, key.size() - 1),
                             token.substr(0, 20)));
        s.remove_prefix(token.size());
        expect(s, " ");
        return v;
    }

    Side parse_side(std::string_view& s) {
        Side d;
        expect(s, "{ ");
        if (s.substr(0, 2) == "SW")
            d.type = NodeType::Switch;
        else if (s.substr(0, 2) == "CA")
            d.type = NodeType::CA;
        else if (s.substr(0, 2) == "Rt")
            d.type = NodeType::Router;
        else
            fail(fmt::format("unknown node type \"{}\"", s.substr(0, 2)));
        s.remove_prefix(2);
        if (s.substr(0, 3) == "-SM") s.remove_prefix(3);
        expect(s, " ");
        d.num_ports = static_cast<PortNum>(hex_field(s, "Ports:", 254));
        if (d.num_ports == 0) fail("node with 0 ports");
        d.sys_guid = hex_field(s, "SystemGUID:", ~std::uint64_t{0});
        d.node_guid = hex_field(s, "NodeGUID:", ~std::uint64_t{0});
        if (d.node_guid == 0) fail("node GUID 0");
        d.port_guid = hex_field(s, "PortGUID:", ~std::uint64_t{0});
        d.vendor = static_cast<std::uint32_t>(hex_field(s, "VenID:", 0xffffffff));
        const std::size_t dev_digits = s.find(' ') - 6; // after "DevID:"
        d.device = static_cast<std::uint32_t>(hex_field(s, "DevID:", 0xffffffff));
        // 8 digits: the 16-bit DevID printed through a 32-bit byte swap (opensm's peer half,
        // and both halves in old dumps); ibdmchk keeps the first 4 digits too.
        if (dev_digits == 8) d.device >>= 16;
        d.revision = static_cast<std::uint32_t>(hex_field(s, "Rev:", 0xffffffff));
        expect(s, "{");
        const std::size_t close = s.find("} LID:");
        if (close == std::string_view::npos) fail("unterminated node description");
        d.desc = s.substr(0, close);
        s.remove_prefix(close + 2);
        d.lid = static_cast<Lid>(hex_field(s, "LID:", 0xffff));
        d.port = static_cast<PortNum>(hex_field(s, "PN:", 0xff));
        if (d.port == 0 || d.port > d.num_ports)
            fail(fmt::format("port {} does not exist on {} ({} ports)", d.port, name(d),
                             d.num_ports));
        expect(s, "} ");
        return d;
    }

    std::uint32_t node_for(const Side& d, bool local) {
        const auto [it, fresh] = by_guid_.emplace(d.node_guid, nodes_.size());
        if (fresh) {
            nodes_.push_back({d, local, line_});
            return it->second;
        }
        NodeRec& r = nodes_[it->second];
        if (r.info.type != d.type || r.info.num_ports != d.num_ports)
            fail(fmt::format("{} is a {} with {} ports here but a {} with {} ports at line {}",
                             name(d), to_string(d.type), d.num_ports, to_string(r.info.type),
                             r.info.num_ports, r.line));
        if (local && !r.from_local) {
            r.info = d;
            r.from_local = true;
            r.line = line_;
        }
        return it->second;
    }

    // ` SPD=<2.5|5|10|FDR10|14|25|50|??>`: the rest of the line.
    LinkSpeed parse_speed(std::string_view s) {
        expect(s, " SPD=");
        if (s == "2.5") return LinkSpeed::SDR;
        if (s == "5") return LinkSpeed::DDR;
        if (s == "10") return LinkSpeed::QDR;
        if (s == "FDR10") return LinkSpeed::FDR10;
        if (s == "14") return LinkSpeed::FDR;
        if (s == "25") return LinkSpeed::EDR;
        if (s == "50") return LinkSpeed::HDR;
        if (s == "??") return LinkSpeed::Unknown;
        fail(fmt::format("bad link speed \"{}\"", s.substr(0, 20)));
    }

    void parse_line(std::string_view s) {
        const Side a = parse_side(s);
        const Side b = parse_side(s);
        expect(s, "PHY=");
        const std::size_t sp = s.find(' ');
        const std::string_view phy = s.substr(0, sp);
        std::uint8_t width = 0;
        if (phy != "??") {
            const auto w = parse_link_width(phy);
            if (!w) fail(fmt::format("bad link width \"{}\"", phy));
            width = *w;
        }
        s.remove_prefix(std::min(sp, s.size()));
        expect(s, " LOG=");
        const std::string_view log = s.substr(0, 3);
        if (log != "ACT" && log != "ARM" && log != "INI" && log != "DWN")
            fail(fmt::format("bad port state \"{}\"", s.substr(0, s.find(' '))));
        s.remove_prefix(3);
        // Old dumps end at LOG=: the speed is not known (ibdmchk assumes SDR).
        const LinkSpeed speed = s.empty() ? LinkSpeed::Unknown : parse_speed(s);
        const std::uint32_t na = node_for(a, true);
        const std::uint32_t nb = node_for(b, false);
        cables_.push_back({na, nb, a.port, b.port, width, speed, line_});
        // Port GUIDs and LIDs of both ends, kept on the cable's records for build().
        ends_.push_back({a.port_guid, a.lid, b.port_guid, b.lid});
    }

    struct Ends {
        std::uint64_t guid_a;
        Lid lid_a;
        std::uint64_t guid_b;
        Lid lid_b;
    };
    std::vector<Ends> ends_;

    Fabric build() {
        FabricBuilder fb;
        std::vector<std::uint32_t> first_slot(nodes_.size() + 1, 0);
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            const Side& d = nodes_[i].info;
            const NodeId n = fb.add_node(d.type, d.num_ports, d.node_guid, std::string(d.desc));
            Node& node = fb.node(n);
            const char t = d.type == NodeType::Switch ? 'S' : d.type == NodeType::CA ? 'H' : 'R';
            node.id = fmt::format("{}-{:016x}", t, d.node_guid);
            node.sysimg_guid = d.sys_guid;
            node.vendor_id = d.vendor;
            node.device_id = d.device;
            node.revision = d.revision;
            if (d.type != NodeType::Switch)
                for (PortNum p = 1; p <= d.num_ports; ++p) fb.port(n, p).guid = d.node_guid + p;
            first_slot[i + 1] = first_slot[i] + d.num_ports + 1u;
        }
        std::vector<std::uint32_t> line_at(first_slot.back(), 0); // cable index + 1 per port
        for (std::size_t i = 0; i < cables_.size(); ++i) {
            const Cable& c = cables_[i];
            std::uint32_t& slot = line_at[first_slot[c.a] + c.pa];
            if (slot != 0)
                fail(fmt::format("port {} of {} is listed twice (first at line {})", c.pa,
                                 name(nodes_[c.a].info), cables_[slot - 1].line),
                     c.line);
            slot = static_cast<std::uint32_t>(i + 1);
        }
        for (std::size_t i = 0; i < cables_.size(); ++i) {
            const Cable& c = cables_[i];
            const std::uint32_t back = line_at[first_slot[c.b] + c.pb];
            if (back == 0 || cables_[back - 1].b != c.a || cables_[back - 1].pb != c.pa)
                fail(fmt::format("{} port {} names {} port {} as its peer, but that port does not "
                                 "name it back",
                                 name(nodes_[c.a].info), c.pa, name(nodes_[c.b].info), c.pb),
                     c.line);
            if (c.a == c.b && c.pa == c.pb)
                fail(fmt::format("{} port {} is cabled to itself", name(nodes_[c.a].info), c.pa),
                     c.line);
            const Ends& e = ends_[i];
            const Side& a = nodes_[c.a].info;
            Port& pa = fb.port(c.a, c.pa);
            if (a.type == NodeType::Switch) {
                fb.port(c.a, 0).base_lid = e.lid_a;
                if (e.guid_a != a.node_guid) fb.port(c.a, 0).guid = e.guid_a;
            } else {
                pa.guid = e.guid_a;
                pa.base_lid = e.lid_a;
            }
            fb.add_half_link(c.a, c.pa, c.b, c.pb, c.width, c.speed);
        }
        return std::move(fb).build();
    }
};

} // namespace

Fabric read_subnet_lst(std::istream& in, const std::string& source) {
    return LstParser(source).parse(read_input_stream(in, source, kMaxTopologyBytes, "subnet.lst"));
}

Fabric read_subnet_lst_file(const std::string& path) {
    return LstParser(path).parse(read_input_file(path, kMaxTopologyBytes, "subnet.lst"));
}

} // namespace ibrt
