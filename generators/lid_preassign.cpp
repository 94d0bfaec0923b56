// Aligned LID pre-assignment; see lid_preassign.hpp.
#include "generators/lid_preassign.hpp"

#include "fabric/end_ports.hpp"
#include "generators/gen_builder.hpp"
#include "generators/rebuild.hpp"

namespace ibrt::gen {

Fabric assign_lids(const Fabric& f, int lmc) {
    require(lmc >= 0 && lmc <= kMaxLmc, "--lmc must be in 0..7, got " + std::to_string(lmc));
    const unsigned block = 1u << lmc;
    std::vector<Lid> base(f.num_port_slots(), 0);
    std::vector<std::uint8_t> port_lmc(f.num_port_slots(), 0);
    std::vector<bool> used(std::size_t(kMaxUnicastLid) + 1, false);
    unsigned next = block; // the first aligned base above LID 0
    for (const PortId id : all_end_ports(f)) {
        require(next + block - 1 <= kMaxUnicastLid,
                "--assign-lids: the CA ports need more than the 49151 unicast LIDs");
        base[id] = static_cast<Lid>(next);
        port_lmc[id] = static_cast<std::uint8_t>(lmc);
        for (unsigned i = 0; i < block; ++i) used[next + i] = true;
        next += block;
    }
    unsigned free_lid = 1;
    for (NodeId s : f.switches()) {
        while (free_lid <= kMaxUnicastLid && used[free_lid]) ++free_lid;
        require(free_lid <= kMaxUnicastLid,
                "--assign-lids: the switches need more than the 49151 unicast LIDs");
        base[f.port_id(s, 0)] = static_cast<Lid>(free_lid);
        used[free_lid] = true;
    }
    std::vector<bool> all_nodes(f.num_nodes(), true), all_cables(f.num_port_slots(), true);
    return rebuild(f, all_nodes, all_cables, [&](PortId id, Port& p) {
        p.base_lid = base[id];
        p.lmc = port_lmc[id];
    });
}

} // namespace ibrt::gen
