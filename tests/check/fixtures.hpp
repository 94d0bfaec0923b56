// Hand-built fabrics and routings with known answers for the check tests.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <initializer_list>
#include <utility>

namespace ibrt::test {

struct Routed {
    Fabric f;
    Routing r;
};

inline void set_lft(Routing& r, NodeId sw, std::initializer_list<std::pair<Lid, PortNum>> e) {
    for (auto [lid, port] : e) r.lft[sw][lid] = port;
}

// Two leaves, two spines, two CAs per leaf:
//   h0 h1 -> L0 ports 1, 2;  h2 h3 -> L1 ports 1, 2;  L0:3-S0:1, L0:4-S1:1, L1:3-S0:2, L1:4-S1:2
// Node ids: h0..h3 = 0..3, L0 = 4, L1 = 5, S0 = 6, S1 = 7.
// LMC 0: LIDs h0..h3 = 1..4, L0 = 5, L1 = 6, S0 = 7, S1 = 8. Down-routes from the spines,
// up-routes d-mod-k style: h2 (and S0) over S0, h3 (and S1) over S1, and the same mirrored.
// With lmc = 1: CA i gets LIDs 2+2i, 3+2i (2..9), switches 10..13; the first LID of each CA
// goes up over S0 and the second over S1.
enum : NodeId { h0 = 0, h1, h2, h3, L0, L1, S0, S1 };

inline Routed two_level_tree(int lmc = 0) {
    FabricBuilder b;
    const char* names[] = {"h0", "h1", "h2", "h3", "L0", "L1", "S0", "S1"};
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::CA, 1, 0x100 + i, names[i]);
    for (int i = 4; i < 6; ++i) b.add_node(NodeType::Switch, 4, 0x200 + i, names[i]);
    for (int i = 6; i < 8; ++i) b.add_node(NodeType::Switch, 2, 0x200 + i, names[i]);
    b.connect(h0, 1, L0, 1);
    b.connect(h1, 1, L0, 2);
    b.connect(h2, 1, L1, 1);
    b.connect(h3, 1, L1, 2);
    b.connect(L0, 3, S0, 1);
    b.connect(L0, 4, S1, 1);
    b.connect(L1, 3, S0, 2);
    b.connect(L1, 4, S1, 2);
    Routed x{std::move(b).build(), {}};
    Fabric& f = x.f;
    Routing& r = x.r;
    r.lids = Lids(f);
    r.lmc = static_cast<std::uint8_t>(lmc);
    const Lid nl = static_cast<Lid>(1u << lmc);
    const Lid ca_base = lmc == 0 ? 1 : 2;
    for (NodeId h = h0; h <= h3; ++h)
        r.lids.assign(f.port_id(h, 1), static_cast<Lid>(ca_base + nl * h),
                      static_cast<std::uint8_t>(lmc));
    const Lid sw_base = static_cast<Lid>(ca_base + 4 * nl);
    for (NodeId s = L0; s <= S1; ++s)
        r.lids.assign(f.port_id(s, 0), static_cast<Lid>(sw_base + s - L0), 0);
    r.lft.assign(f.num_nodes(), {});
    for (NodeId s = L0; s <= S1; ++s) r.lft[s].assign(r.lids.max_lid() + 1u, kNoPath);
    auto ca = [&](NodeId h, int k) { return static_cast<Lid>(ca_base + nl * h + k); };
    auto sw = [&](NodeId s) { return static_cast<Lid>(sw_base + s - L0); };
    for (int k = 0; k < nl; ++k) {
        // Leaves: own CAs down, the other leaf's CAs up: offset 0 over S0 when lmc = 1, else
        // h2/h0 over S0 and h3/h1 over S1.
        auto up = [&](NodeId h) -> PortNum {
            if (lmc == 1) return k == 0 ? 3 : 4;
            return (h == h0 || h == h2) ? 3 : 4;
        };
        set_lft(r, L0, {{ca(h0, k), 1}, {ca(h1, k), 2}, {ca(h2, k), up(h2)}, {ca(h3, k), up(h3)}});
        set_lft(r, L1, {{ca(h2, k), 1}, {ca(h3, k), 2}, {ca(h0, k), up(h0)}, {ca(h1, k), up(h1)}});
        for (NodeId s : {S0, S1})
            set_lft(r, s, {{ca(h0, k), 1}, {ca(h1, k), 1}, {ca(h2, k), 2}, {ca(h3, k), 2}});
    }
    set_lft(r, L0, {{sw(L0), 0}, {sw(L1), 3}, {sw(S0), 3}, {sw(S1), 4}});
    set_lft(r, L1, {{sw(L0), 3}, {sw(L1), 0}, {sw(S0), 3}, {sw(S1), 4}});
    set_lft(r, S0, {{sw(L0), 1}, {sw(L1), 2}, {sw(S0), 0}, {sw(S1), 1}});
    set_lft(r, S1, {{sw(L0), 1}, {sw(L1), 2}, {sw(S0), 1}, {sw(S1), 0}});
    return x;
}

// A ring of four switches A B C D (node ids 0..3), each with a CA hA..hD (ids 4..7) on port 1;
// port 2 goes clockwise (A:2-B:3, B:2-C:3, C:2-D:3, D:2-A:3). LIDs: hA..hD = 1..4,
// A..D = 5..8. Every switch forwards clockwise: a credit loop over the four ring channels.
enum : NodeId { A = 0, B, C, D, hA, hB, hC, hD };

inline Routed clockwise_ring() {
    FabricBuilder b;
    const char* names[] = {"A", "B", "C", "D", "hA", "hB", "hC", "hD"};
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::Switch, 3, 0x500 + i, names[i]);
    for (int i = 4; i < 8; ++i) b.add_node(NodeType::CA, 1, 0x600 + i, names[i]);
    for (NodeId s = A; s <= D; ++s) {
        b.connect(s, 1, s + 4, 1);
        b.connect(s, 2, (s + 1) % 4, 3);
    }
    Routed x{std::move(b).build(), {}};
    Routing& r = x.r;
    r.lids = Lids(x.f);
    for (NodeId h = hA; h <= hD; ++h) r.lids.assign(x.f.port_id(h, 1), static_cast<Lid>(h - 3), 0);
    for (NodeId s = A; s <= D; ++s) r.lids.assign(x.f.port_id(s, 0), static_cast<Lid>(s + 5), 0);
    r.lft.assign(x.f.num_nodes(), {});
    for (NodeId s = A; s <= D; ++s) {
        r.lft[s].assign(9, 2);
        r.lft[s][0] = kNoPath;
        r.lft[s][s + 1] = 1; // own CA
        r.lft[s][s + 5] = 0; // own LID
    }
    return x;
}

} // namespace ibrt::test
