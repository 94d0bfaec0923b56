// The example of paper 001 Fig. 5 (figure lost in extraction), rebuilt from the path list of
// §IV: p1 = m1 s4 s1 s0 m0, p2 = m2 s4 s3 s2 s0 m0, p3 = m4 s5 s2 s0 m0,
// p4 = m3 s5 s3 s1 s0 m0, every hop over link 1. The cables are exactly the hops of these
// paths (one cable per adjacent pair). Splits: p1/p2 at s4, p2/p4 at s3, p3/p4 at s5 (the
// text's Fig. 8); p1/p4 share s1 -> s0 and p2/p3 share s2 -> s0, so no other pair splits.
#pragma once

#include "fabric/fabric.hpp"
#include "lidassign/paths.hpp"

#include <map>
#include <string>
#include <vector>

namespace ibrt::test {

struct Fig5 {
    Fabric f;
    lidassign::DestPaths paths; // p1..p4 as paths 0..3
};

inline Fig5 fig5() {
    FabricBuilder b;
    std::map<std::string, NodeId> id;
    for (const char* m : {"m0", "m1", "m2", "m3", "m4"}) id[m] = b.add_node(NodeType::CA, 1, 0, m);
    for (const char* s : {"s0", "s1", "s2", "s3", "s4", "s5"})
        id[s] = b.add_node(NodeType::Switch, 8, 0, s);
    std::map<NodeId, PortNum> next_port;
    std::map<std::pair<NodeId, NodeId>, PortId> out; // filled after build
    std::vector<std::pair<std::string, std::string>> cables = {
        {"m1", "s4"}, {"m2", "s4"}, {"m3", "s5"}, {"m4", "s5"}, {"s4", "s1"},
        {"s4", "s3"}, {"s5", "s3"}, {"s5", "s2"}, {"s3", "s2"}, {"s3", "s1"},
        {"s1", "s0"}, {"s2", "s0"}, {"s0", "m0"}};
    std::vector<std::tuple<NodeId, PortNum, NodeId, PortNum>> made;
    for (auto& [a, c] : cables) {
        const NodeId x = id[a], y = id[c];
        const PortNum px = ++next_port[x], py = ++next_port[y];
        b.connect(x, px, y, py);
        made.emplace_back(x, px, y, py);
    }
    Fig5 r{std::move(b).build(), {}};
    for (auto [x, px, y, py] : made) {
        out[{x, y}] = r.f.port_id(x, px);
        out[{y, x}] = r.f.port_id(y, py);
    }
    r.paths.dst = id["m0"];
    for (std::vector<std::string> p :
         std::vector<std::vector<std::string>>{{"m1", "s4", "s1", "s0", "m0"},
                                               {"m2", "s4", "s3", "s2", "s0", "m0"},
                                               {"m4", "s5", "s2", "s0", "m0"},
                                               {"m3", "s5", "s3", "s1", "s0", "m0"}}) {
        std::vector<PortId> e;
        for (std::size_t i = 0; i + 1 < p.size(); ++i) e.push_back(out[{id[p[i]], id[p[i + 1]]}]);
        r.paths.add(e);
    }
    return r;
}

} // namespace ibrt::test
