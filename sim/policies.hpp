// The decisions later work replaces, each behind a small interface so that adaptive output
// selection (paper 004), per-input-VL forwarding with VL2VL tables (paper 003) and IB
// congestion control / DRB (paper 002) plug in without touching the event loop. The defaults
// are the deterministic IBA behaviour: LFT lookup, SL2VL lookup, inject whenever credits allow.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstdint>

namespace ibrt::sim {

using Time = std::uint64_t;

// What a decision may look at; a view of the packet, never the pool itself.
struct PacketView {
    std::uint32_t src_ca = 0, dst_ca = 0; // indices in Fabric::cas()
    Lid dlid = 0;
    std::uint8_t sl = 0;
    std::uint8_t in_vl = 0; // VL of the buffer the packet sits in
};

// Output port at a switch. kNoPath (or a port without a cable) drops the packet.
class RouteSelector {
  public:
    virtual ~RouteSelector() = default;
    virtual PortNum select(NodeId sw, PortNum in, const PacketView& p, Time now) = 0;
};

// VL of the packet on the link leaving `node` through `out`; `in` = 0 at the source CA.
// Returns 15 (or any VL >= the configured count) to drop.
class VlSelector {
  public:
    virtual ~VlSelector() = default;
    virtual std::uint8_t select(NodeId node, PortNum in, PortNum out, const PacketView& p) = 0;
};

// Source throttling: the earliest time CA `ca` may start its next packet (IBA CC's
// inter-packet delay goes here). `sent` is called when a packet leaves the CA.
class InjectionControl {
  public:
    virtual ~InjectionControl() = default;
    virtual Time earliest_start(std::uint32_t ca, Time now) = 0;
    virtual void sent(std::uint32_t ca, const PacketView& p, Time now) = 0;
};

class LftRoute final : public RouteSelector {
  public:
    explicit LftRoute(const Routing& r) : r_(r) {}
    PortNum select(NodeId sw, PortNum, const PacketView& p, Time) override {
        return r_.out_port(sw, p.dlid);
    }

  private:
    const Routing& r_;
};

// Routing::sl2vl when the node has tables; otherwise SL mod num_vls (identity for SL < VLs,
// which is VL 0 everywhere with one VL).
class Sl2VlSelect final : public VlSelector {
  public:
    Sl2VlSelect(const Fabric& f, const Routing& r, std::uint8_t num_vls)
        : f_(f), r_(r), num_vls_(num_vls) {}
    std::uint8_t select(NodeId node, PortNum in, PortNum out, const PacketView& p) override {
        if (const Sl2VlTable* t = r_.sl2vl.find(node, f_.node(node).num_ports, in, out))
            return (*t)[p.sl & 15];
        return std::uint8_t(p.sl % num_vls_);
    }

  private:
    const Fabric& f_;
    const Routing& r_;
    std::uint8_t num_vls_;
};

class NoInjectionControl final : public InjectionControl {
  public:
    Time earliest_start(std::uint32_t, Time now) override { return now; }
    void sent(std::uint32_t, const PacketView&, Time) override {}
};

} // namespace ibrt::sim
