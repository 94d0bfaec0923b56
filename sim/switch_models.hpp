// The switch models of the simulator (docs/sim-model.md "Switches" and "VC-router mode"), each a
// type. The network (sim/network.hpp) is a class template over the model: simulate() picks the
// model once per run (switch_model_of), and each model's network is compiled apart, so the IB
// switch's event loop holds no test of the others' and pays nothing for them (issue 38: "the
// static IB path must pay nothing for the others"). What a model does differently is in its
// own functions: the VC router's allocation in vc_router.cpp, the output buffers' crossbar and
// link in network.cpp (Network::transmit, link_arbitrate).
//
// A new model is a new type here with its traits, a case in switch_model_of, a line in
// IBRT_SIM_FOR_EACH_SWITCH_MODEL, and the functions the traits select.
#pragma once

#include "sim/simulator.hpp"

namespace ibrt::sim::detail {

// Paper 000 §5.1 and IBA §7.9: input buffers per VL, a crossbar behind the routing delay,
// credits per VL shared by every packet, the VL of a hop by SL2VL/VL2VL; VLArb at the link.
struct IbSwitch {
    static constexpr bool vc_per_hop = false;     // VLs by the tables, not allocated per hop
    static constexpr bool output_buffers = false; // the crossbar feeds the link directly
};

// The IB switch with an output buffer per VL per port (paper 000 §5.2's per-VL output
// buffer): the crossbar moves packets into it, VLArb serves the link from it.
struct IbOutputBufferedSwitch {
    static constexpr bool vc_per_hop = false;
    static constexpr bool output_buffers = true;
};

// BookSim2's input-queued VC router: an output VC is held by one packet (SimConfig::VcRelease),
// each hop's VC allocated within the range of its SL2VL class (BookSim's OutputSet VC range),
// BookSim's allocation timing (SimConfig::vc_alloc_gap_ps, vc_input_first).
struct VcRouter {
    static constexpr bool vc_per_hop = true;
    static constexpr bool output_buffers = false;
};

// Paper 004 §4's switch: the VC router with output buffers per class, the link taking the
// first VC of the class's range with room.
struct Paper004Switch {
    static constexpr bool vc_per_hop = true;
    static constexpr bool output_buffers = true;
};

enum class SwitchModel { Ib, IbOutputBuffered, VcRouter, Paper004 };

// The one place a configuration names its model.
inline SwitchModel switch_model_of(const SimConfig& c) {
    if (c.vc_router)
        return c.output_buffer_bytes > 0 ? SwitchModel::Paper004 : SwitchModel::VcRouter;
    return c.output_buffer_bytes > 0 ? SwitchModel::IbOutputBuffered : SwitchModel::Ib;
}

// X(type) for each model: the network's explicit instantiations, one list.
#define IBRT_SIM_FOR_EACH_SWITCH_MODEL(X)                                                          \
    X(IbSwitch)                                                                                    \
    X(IbOutputBufferedSwitch)                                                                      \
    X(VcRouter)                                                                                    \
    X(Paper004Switch)

} // namespace ibrt::sim::detail
