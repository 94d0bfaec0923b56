// The fabrics of test-fabrics/tables/ (ft-lmc1.net, ft-rt.net) built with FabricBuilder, so
// that the table tests and fuzz targets do not depend on the ibnetdiscover reader. Node order
// is chosen by the caller: opensm writes its dumps in hash-table order, and byte-exact
// comparisons need the writer's node order to match it.
#pragma once

#include "fabric/fabric.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace ibrt::test {

struct SampleNode {
    NodeType type;
    PortNum ports;
    std::uint64_t guid;
    const char* name;
};

inline const std::vector<SampleNode>& sample_nodes() {
    static const std::vector<SampleNode> nodes = {
        {NodeType::Switch, 4, 0x0020000000010000, "leaf-0"},
        {NodeType::Switch, 4, 0x0020000000020000, "spine-0"},
        {NodeType::Switch, 4, 0x0020000000010001, "leaf-1"},
        {NodeType::Switch, 4, 0x0020000000020001, "spine-1"},
        {NodeType::CA, 1, 0x0010000000000100, "host-l0-0"},
        {NodeType::Router, 1, 0x0030000000000100, "gw-0"},
        {NodeType::CA, 1, 0x0010000000000200, "host-l0-1"},
        {NodeType::CA, 2, 0x0010000000000300, "host-l1-0"},
        {NodeType::CA, 1, 0x0010000000000400, "host-l1-1"},
    };
    return nodes;
}

// The order in which opensm's dumps list the nodes (sw_guid_tbl, port_guid_tbl).
inline std::vector<std::string> dump_order() {
    return {"leaf-0", "spine-0",   "leaf-1",    "spine-1",  "host-l0-0",
            "gw-0",   "host-l0-1", "host-l1-0", "host-l1-1"};
}

// ft-lmc1.net (with_router = false) or ft-rt.net (true), nodes added in `order`; names not in
// the fabric are skipped. CA/router port p has GUID node GUID + p, as ibsim assigns them.
inline Fabric sample_fabric(bool with_router,
                            const std::vector<std::string>& order = dump_order()) {
    FabricBuilder b;
    std::vector<std::pair<std::string, NodeId>> ids;
    auto id = [&](const std::string& name) {
        for (auto& [n, i] : ids)
            if (n == name) return i;
        throw std::logic_error("sample fabric: no node " + name);
    };
    for (const std::string& name : order) {
        if (!with_router && name == "gw-0") continue;
        for (const SampleNode& s : sample_nodes()) {
            if (name != s.name) continue;
            const NodeId n = b.add_node(s.type, s.ports, s.guid, s.name);
            b.node(n).id = s.name;
            if (s.type != NodeType::Switch)
                for (PortNum p = 1; p <= s.ports; ++p) b.port(n, p).guid = s.guid + p;
            ids.emplace_back(name, n);
        }
    }
    b.connect(id("leaf-0"), 1, id("host-l0-0"), 1);
    b.connect(id("leaf-0"), 2, id("host-l0-1"), 1);
    b.connect(id("leaf-0"), 3, id("spine-0"), 1);
    b.connect(id("leaf-0"), 4, id("spine-1"), 1);
    b.connect(id("leaf-1"), 1, id("host-l1-0"), 1);
    b.connect(id("leaf-1"), 2, id("host-l1-1"), 1);
    b.connect(id("leaf-1"), 3, id("spine-0"), 2);
    b.connect(id("leaf-1"), 4, id("spine-1"), 2);
    if (with_router) b.connect(id("spine-1"), 3, id("gw-0"), 1);
    return std::move(b).build();
}

inline std::string tables_dir() {
#ifdef IBRT_SOURCE_DIR
    return std::string(IBRT_SOURCE_DIR) + "/test-fabrics/tables/";
#else
    return "test-fabrics/tables/";
#endif
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace ibrt::test
