// LID assignment of a subnet: base LID and LMC of every end port, and the reverse map.
//
// End ports are CA/router ports and switch port 0 (IBA 7.11.1). A port with LMC m answers to
// the 2^m LIDs base..base+2^m-1; opensm requires base to be a multiple of 2^m unless m = 0.
// The reverse map is a flat array over the LID space so that forwarding checks and the
// simulator resolve a DLID in O(1).
#pragma once

#include "fabric/fabric.hpp"

#include <string>
#include <vector>

namespace ibrt {

// Empty when `base` is a valid first LID of a port with this LMC, else the problem for a
// reader's message. IBA vol. 1 §7.11.1: a port with LMC m answers to the 2^m LIDs that share
// all but the m low bits, so its base LID is a multiple of 2^m; opensm drops a guid2lid record
// that is not. Readers of inputs that state an LMC (guid2lid, ibnetdiscover `lid N lmc M`)
// reject such a base with the line; only `ibrt route --paper-lids` produces one on purpose.
std::string unaligned_base_lid_problem(Lid base, std::uint8_t lmc);

class Lids {
  public:
    Lids() = default;
    explicit Lids(const Fabric& f) : base_(f.num_port_slots(), 0), lmc_(f.num_port_slots(), 0) {}

    // Assigns base..base+2^lmc-1 to `port`. Throws std::invalid_argument on overlap, on a LID
    // outside 1..0xbfff or on lmc > 7. Alignment is not enforced here: paper mode needs
    // unaligned LIDs; `aligned()` reports it.
    void assign(PortId port, Lid base, std::uint8_t lmc);

    Lid base(PortId port) const { return base_[port]; }
    std::uint8_t lmc(PortId port) const { return lmc_[port]; }
    bool has_lid(PortId port) const { return port < base_.size() && base_[port] != 0; }
    // The end port that owns `lid`, or kNoPort.
    PortId owner(Lid lid) const { return lid < owner_.size() ? owner_[lid] : kNoPort; }
    Lid max_lid() const { return owner_.empty() ? 0 : static_cast<Lid>(owner_.size() - 1); }
    std::size_t num_port_slots() const { return base_.size(); }
    // True when every base LID is a multiple of 2^lmc.
    bool aligned() const;

    // The LIDs recorded in the fabric itself (`lid N lmc M` comments of ibnetdiscover):
    // switch port 0 and every CA/router port with a non-zero base LID.
    static Lids from_fabric(const Fabric& f);

  private:
    std::vector<Lid> base_;
    std::vector<std::uint8_t> lmc_;
    std::vector<PortId> owner_; // indexed by LID
};

} // namespace ibrt
