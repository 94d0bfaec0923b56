// The fabric model: nodes, ports and cables of an InfiniBand subnet.
//
// Every reader builds one of these through FabricBuilder and every engine, checker and
// simulator reads it. Ids are dense: nodes are 0..num_nodes()-1 and every node owns the
// contiguous port slots [first_port, first_port + num_ports] (slot 0 is switch port 0,
// the management port, kept for CAs too so that `port_id(node, n)` needs no branch).
// GUID lookups go through hash maps that are meant for the edges (parsing, reporting),
// never for hot loops.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ibrt {

using NodeId = std::uint32_t;
using PortId = std::uint32_t; // index into the flat port array
using PortNum = std::uint8_t; // IB port number on its node, 0..254
using Lid = std::uint16_t;

inline constexpr NodeId kNoNode = 0xffffffffu;
inline constexpr PortId kNoPort = 0xffffffffu;
inline constexpr Lid kMaxUnicastLid = 0xbfff; // 49,151
inline constexpr int kMaxLmc = 7;             // 128 LIDs per port

// IB NodeInfo:NodeType values.
enum class NodeType : std::uint8_t { CA = 1, Switch = 2, Router = 3 };

// LinkSpeedActive / LinkSpeedExtActive as ibnetdiscover prints them.
enum class LinkSpeed : std::uint8_t { Unknown, SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR };

std::string_view to_string(NodeType t);
std::string_view to_string(LinkSpeed s);
std::optional<LinkSpeed> parse_link_speed(std::string_view s);
// Data rate per lane in Gb/s after line encoding (8b/10b up to QDR, 64b/66b from FDR10 on).
double lane_data_gbps(LinkSpeed s);
// Lanes of a link width string ("1x", "2x", "4x", "8x", "12x"); nullopt if not one of these.
std::optional<std::uint8_t> parse_link_width(std::string_view s);
// The width as ibnetdiscover and opensm print it ("4x"); "??" for an unknown lane count.
std::string_view link_width_str(std::uint8_t lanes);

struct Port {
    NodeId peer_node = kNoNode; // kNoNode when unconnected
    PortNum peer_port = 0;
    std::uint8_t width = 0; // lanes: 1, 2, 4, 8, 12; 0 = unknown (unconnected)
    LinkSpeed speed = LinkSpeed::Unknown;
    std::uint64_t guid = 0; // port GUID; 0 = unknown
    Lid base_lid = 0;       // 0 = not assigned / not known
    std::uint8_t lmc = 0;   // LMC of an end port where known
    std::uint8_t ext_num =
        0; // external (front-panel) port number from `ibnetdiscover -g`; 0 = none
    // Operational data VLs (PortInfo:OperationalVLs as a count: 1, 2, 4, 8 or 15); 0 = the
    // source did not say (ibnetdiscover dumps do not), and tools assume a configured default.
    std::uint8_t data_vls = 0;
    bool connected() const { return peer_node != kNoNode; }
    // Bandwidth of the link in Gb/s (data rate); 0 if unknown.
    double gbps() const { return width * lane_data_gbps(speed); }
};

struct Node {
    NodeType type = NodeType::CA;
    PortNum num_ports = 0; // external ports, numbered 1..num_ports
    bool enhanced_port0 = false;
    std::uint64_t guid = 0;
    std::uint64_t sysimg_guid = 0;
    std::uint32_t vendor_id = 0;
    std::uint32_t device_id = 0;
    std::uint32_t revision = 0; // NodeInfo:Revision (opensm-subnet.lst `Rev:`); 0 = not given
    PortId first_port = 0;      // slot of port 0
    std::string desc;           // NodeDescription
    std::string id; // the file's node id ("S-0002c90300001234", "leaf-0"); empty if none
    bool is_switch() const { return type == NodeType::Switch; }
};

class FabricBuilder;

class Fabric {
  public:
    std::size_t num_nodes() const { return nodes_.size(); }
    std::size_t num_port_slots() const { return ports_.size(); }
    const Node& node(NodeId n) const { return nodes_[n]; }
    std::span<const Node> nodes() const { return nodes_; }

    PortId port_id(NodeId n, PortNum p) const { return nodes_[n].first_port + p; }
    const Port& port(NodeId n, PortNum p) const { return ports_[port_id(n, p)]; }
    const Port& port(PortId id) const { return ports_[id]; }
    NodeId port_node(PortId id) const { return port_owner_[id]; }
    PortNum port_num(PortId id) const {
        return static_cast<PortNum>(id - nodes_[port_owner_[id]].first_port);
    }

    std::span<const NodeId> switches() const { return switches_; }
    std::span<const NodeId> cas() const { return cas_; } // CAs and routers: the end nodes
    std::size_t num_links() const { return num_links_; } // cables, each counted once

    // Edge-only lookups (hash maps).
    std::optional<NodeId> find_node_by_guid(std::uint64_t node_guid) const;
    std::optional<PortId> find_port_by_guid(std::uint64_t port_guid) const;
    std::optional<NodeId> find_node_by_id(std::string_view id) const;

    // The GUID that identifies an end port the way opensm keys it (guid2lid, portguid in dumps):
    // a CA/router port's own GUID, or a switch's port-0 GUID (= node GUID unless given).
    std::uint64_t end_port_guid(PortId id) const;

  private:
    friend class FabricBuilder;
    std::vector<Node> nodes_;
    std::vector<Port> ports_;
    std::vector<NodeId> port_owner_;
    std::vector<NodeId> switches_, cas_;
    std::size_t num_links_ = 0;
    std::unordered_map<std::uint64_t, NodeId> node_by_guid_;
    std::unordered_map<std::uint64_t, PortId> port_by_guid_;
    std::unordered_map<std::string, NodeId> node_by_id_;
};

// Collects nodes and cables, then checks consistency once and freezes them into a Fabric.
// Errors carry the source location given to add_node/connect, so readers report `file:line`.
// Where in an input file something came from, for error messages.
struct SourceRef {
    std::string file;
    int line = 0;
};

class FabricBuilder {
  public:
    using Where = SourceRef;

    // Adds a node; its ports 0..num_ports get default (unconnected) entries.
    NodeId add_node(NodeType type, PortNum num_ports, std::uint64_t guid, std::string desc,
                    Where where = {});
    Node& node(NodeId n) { return nodes_[n]; }
    Port& port(NodeId n, PortNum p);
    std::size_t num_nodes() const { return nodes_.size(); }
    std::optional<NodeId> find_node_by_guid(std::uint64_t guid) const;

    // Cables a<->b; both directions are recorded. Connecting an already cabled port to a
    // different peer is an error.
    void connect(NodeId a, PortNum pa, NodeId b, PortNum pb, std::uint8_t width = 4,
                 LinkSpeed speed = LinkSpeed::SDR, Where where = {});

    // Records one side of a cable as a file lists it. build() then requires that every
    // half-link is matched by its reverse (ibsim's rule: each cable is listed on both ends).
    void add_half_link(NodeId a, PortNum pa, NodeId b, PortNum pb, std::uint8_t width,
                       LinkSpeed speed, Where where = {});

    // Validates and freezes. Throws InputError naming the first inconsistency.
    Fabric build() &&;

  private:
    struct HalfLink {
        NodeId a;
        PortNum pa;
        NodeId b;
        PortNum pb;
        std::uint8_t width;
        LinkSpeed speed;
        Where where;
    };
    std::vector<Node> nodes_;
    std::vector<std::vector<Port>> ports_;
    std::vector<Where> node_where_;
    std::vector<HalfLink> half_links_;
    std::unordered_map<std::uint64_t, NodeId> by_guid_;
};

} // namespace ibrt
