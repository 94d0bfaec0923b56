// Lids: the LID space of a subnet as a flat owner array.
#include "fabric/lids.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace ibrt {

void Lids::assign(PortId port, Lid base, std::uint8_t lmc) {
    if (lmc > kMaxLmc) throw std::invalid_argument("LMC " + std::to_string(lmc) + " exceeds 7");
    const unsigned count = 1u << lmc;
    if (base == 0 || unsigned(base) + count - 1 > kMaxUnicastLid)
        throw std::invalid_argument("LID range " + std::to_string(base) + "+" +
                                    std::to_string(count) +
                                    " is outside the unicast LIDs 1..49151");
    if (port >= base_.size()) {
        base_.resize(std::size_t(port) + 1, 0);
        lmc_.resize(std::size_t(port) + 1, 0);
    }
    if (owner_.size() < std::size_t(base) + count)
        owner_.resize(std::size_t(base) + count, kNoPort);
    for (unsigned i = 0; i < count; ++i)
        if (owner_[base + i] != kNoPort && owner_[base + i] != port)
            throw std::invalid_argument("LID " + std::to_string(base + i) + " is assigned twice");
    if (base_[port] != 0) // reassigning: release the old range first
        for (unsigned i = 0; i < (1u << lmc_[port]); ++i) owner_[base_[port] + i] = kNoPort;
    base_[port] = base;
    lmc_[port] = lmc;
    for (unsigned i = 0; i < count; ++i) owner_[base + i] = port;
}

std::string unaligned_base_lid_problem(Lid base, std::uint8_t lmc) {
    if (lmc == 0 || lmc > 15 || (base & ((1u << lmc) - 1)) == 0) return {};
    const unsigned step = 1u << lmc;
    const unsigned below = base & ~(step - 1);
    return fmt::format("base LID {} ({:#06x}) with LMC {} is not a multiple of 2^LMC = {}: IBA "
                       "requires a port's base LID aligned to its 2^LMC LIDs, and opensm drops "
                       "such a record (aligned: {})",
                       base, base, lmc, step,
                       below ? fmt::format("{} or {}", below, below + step) : std::to_string(step));
}

bool Lids::aligned() const {
    for (std::size_t p = 0; p < base_.size(); ++p)
        if (base_[p] != 0 && (base_[p] & ((1u << lmc_[p]) - 1)) != 0) return false;
    return true;
}

Lids Lids::from_fabric(const Fabric& f) {
    Lids lids(f);
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        if (node.is_switch()) {
            const Port& p0 = f.port(n, 0);
            if (p0.base_lid != 0) lids.assign(f.port_id(n, 0), p0.base_lid, p0.lmc);
        } else {
            for (PortNum p = 1; p <= node.num_ports; ++p) {
                const Port& port = f.port(n, p);
                if (port.base_lid != 0) lids.assign(f.port_id(n, p), port.base_lid, port.lmc);
            }
        }
    }
    return lids;
}

} // namespace ibrt
