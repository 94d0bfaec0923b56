// Hand-built fabrics with analytic answers for the simulator tests, the congestion-control
// settings the CC and DRB tests share, and BookSim's Dragonfly set-up the Dragonfly tests share.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"
#include "generators/dragonfly.hpp"
#include "sim/cc_config.hpp"
#include "sim/simulator.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ibrt::test {

struct SimFabric {
    Fabric f;
    Routing r;
};

inline Routing empty_routing(const Fabric& f) {
    Routing r;
    r.lids = Lids(f);
    return r;
}

// Two switches S0, S1 with k CAs each (h0..h(k-1) on S0 ports 1..k, hk..h(2k-1) on S1), one
// cable S0:k+1 - S1:k+1: the bottleneck. CA i has LID i+1; S0, S1 have 2k+1, 2k+2.
// Node ids: CAs 0..2k-1, S0 = 2k, S1 = 2k+1.
inline SimFabric two_switches(int k) {
    FabricBuilder b;
    for (int i = 0; i < 2 * k; ++i) b.add_node(NodeType::CA, 1, 0x100 + i, "h" + std::to_string(i));
    const NodeId s0 = b.add_node(NodeType::Switch, PortNum(k + 1), 0x200, "S0");
    const NodeId s1 = b.add_node(NodeType::Switch, PortNum(k + 1), 0x201, "S1");
    for (int i = 0; i < k; ++i) {
        b.connect(NodeId(i), 1, s0, PortNum(i + 1));
        b.connect(NodeId(k + i), 1, s1, PortNum(i + 1));
    }
    b.connect(s0, PortNum(k + 1), s1, PortNum(k + 1));
    SimFabric x{std::move(b).build(), {}};
    x.r = empty_routing(x.f);
    for (int i = 0; i < 2 * k; ++i) x.r.lids.assign(x.f.port_id(NodeId(i), 1), Lid(i + 1), 0);
    x.r.lids.assign(x.f.port_id(s0, 0), Lid(2 * k + 1), 0);
    x.r.lids.assign(x.f.port_id(s1, 0), Lid(2 * k + 2), 0);
    x.r.lft.assign(x.f.num_nodes(), {});
    for (NodeId s : {s0, s1}) x.r.lft[s].assign(x.r.lids.max_lid() + 1u, kNoPath);
    for (int i = 0; i < k; ++i) {
        x.r.lft[s0][Lid(i + 1)] = PortNum(i + 1);
        x.r.lft[s0][Lid(k + i + 1)] = PortNum(k + 1);
        x.r.lft[s1][Lid(k + i + 1)] = PortNum(i + 1);
        x.r.lft[s1][Lid(i + 1)] = PortNum(k + 1);
    }
    return x;
}

// A unidirectional ring of four switches A B C D (ids 4..7), CA hX (ids 0..3) on port 1 of X;
// port 2 goes to the next switch's port 3. Every switch forwards its own CA's LID (1..4) to
// port 1 and all others clockwise to port 2: a credit loop over the four ring links.
inline SimFabric ring4() {
    FabricBuilder b;
    const char* hn[] = {"hA", "hB", "hC", "hD"};
    const char* sn[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::CA, 1, 0x100 + i, hn[i]);
    for (int i = 0; i < 4; ++i) b.add_node(NodeType::Switch, 3, 0x200 + i, sn[i]);
    for (int i = 0; i < 4; ++i) {
        b.connect(NodeId(i), 1, NodeId(4 + i), 1);
        b.connect(NodeId(4 + i), 2, NodeId(4 + (i + 1) % 4), 3);
    }
    SimFabric x{std::move(b).build(), {}};
    x.r = empty_routing(x.f);
    for (int i = 0; i < 4; ++i) {
        x.r.lids.assign(x.f.port_id(NodeId(i), 1), Lid(i + 1), 0);
        x.r.lids.assign(x.f.port_id(NodeId(4 + i), 0), Lid(5 + i), 0);
    }
    x.r.lft.assign(x.f.num_nodes(), {});
    for (int s = 0; s < 4; ++s) {
        auto& t = x.r.lft[NodeId(4 + s)];
        t.assign(x.r.lids.max_lid() + 1u, 2);
        t[0] = kNoPath;
        t[Lid(s + 1)] = 1;
        t[Lid(5 + s)] = 0;
    }
    return x;
}

// The channels of ring4's credit loop (A:2 -> B:3, ..., D:2 -> A:3 on VL 0), sorted, as the
// simulator's deadlock cycle and the checker's credit loop spell them; with `output_buffers`
// each followed by the output buffer that feeds it. Written out, not derived: the tests hold
// the spelling itself.
inline std::vector<std::string> ring4_loop_channels(bool output_buffers = false) {
    const char* names[] = {"switch 'A' (GUID 0x0000000000000200) port 2 -> switch 'B' (GUID "
                           "0x0000000000000201) port 3 VL 0",
                           "switch 'B' (GUID 0x0000000000000201) port 2 -> switch 'C' (GUID "
                           "0x0000000000000202) port 3 VL 0",
                           "switch 'C' (GUID 0x0000000000000202) port 2 -> switch 'D' (GUID "
                           "0x0000000000000203) port 3 VL 0",
                           "switch 'D' (GUID 0x0000000000000203) port 2 -> switch 'A' (GUID "
                           "0x0000000000000200) port 3 VL 0"};
    std::vector<std::string> out;
    for (const char* n : names) {
        out.emplace_back(n);
        if (output_buffers) out.push_back(std::string(n) + " (output buffer)");
    }
    return out;
}

// SL2VL for ring4 that breaks the loop for two-hop traffic: the first ring hop (in from the
// CA, port 1) on VL 0, every later hop (in from the ring, port 3) on VL 1.
inline void ring4_vl_by_hop(SimFabric& x) {
    x.r.sl2vl.tables.assign(x.f.num_nodes(), {});
    for (NodeId s = 4; s < 8; ++s) {
        auto& t = x.r.sl2vl.tables[s];
        t.assign(Sl2Vl::size(3), kSl2VlDropAll);
        Sl2VlTable vl0{}, vl1{};
        vl1.fill(1);
        t[Sl2Vl::index(3, 1, 2)] = vl0;
        t[Sl2Vl::index(3, 3, 2)] = vl1;
        t[Sl2Vl::index(3, 3, 1)] = vl1;
    }
}

// Switches mark every eligible packet at threshold 8 (more than 512 bytes waiting for the port
// VL); SL 0 is controlled per QP (flow): +1 per BECN, -1 every 5.12 us, CCT entry i an
// injection rate delay of i packet times (4i / 2^2).
inline sim::CcConfig marking_cc() {
    sim::CcConfig s;
    s.congestion_control = true;
    s.sw_control_map = 0x1f;
    s.threshold = 8;
    s.ca_control_map = 1;
    s.ca_entries[0].ccti_increase = 1;
    s.ca_entries[0].ccti_timer = 5; // 5.12 us
    for (std::uint16_t i = 0; i < 64; ++i) s.cct.push_back({2, std::uint16_t(i * 4)});
    return s;
}

// BookSim's dragonflynew k = 2 (docs/results/booksim-dragonfly.md): a = 4 switches a group,
// h = 2 global ports, p = 2 hosts each, 9 groups, 72 hosts.
inline Fabric booksim_dragonfly() {
    gen::DragonflyParams d;
    d.a = 4;
    d.h = 2;
    d.p = 2;
    return gen::dragonfly(d);
}

// That page's configuration with shorter windows: one-flit packets (one cycle = 1,024 ps),
// 256-packet buffers per VC, BookSim's VC router and allocation timing.
inline sim::SimConfig booksim_dragonfly_timing() {
    sim::SimConfig c;
    c.vc_router = true;
    c.vc_release = sim::SimConfig::VcRelease::Sent;
    c.vc_alloc_gap_ps = 1024;
    c.vc_input_first = true;
    c.packet_bytes = 64;
    c.credit_unit = 64;
    c.ps_per_byte = 16;
    c.fly_ps = 1024;
    c.routing_ps = 3072;
    c.credit_delay_ps = 2048;
    c.buffer_bytes = 256 * 64;
    c.warmup_ps = 3000 * sim::kPsPerNs;
    c.measure_ps = 5000 * sim::kPsPerNs;
    c.drain_ps = 5000 * sim::kPsPerNs;
    return c;
}

} // namespace ibrt::test
