// The extended switch's routing function as data (paper 003 §3.1; paper 004 §4): for each
// (switch, input VL, [input port,] DLID) a set of candidate output ports, each with a priority
// class, and the output VL from a VL2VL table indexed by (switch, input VL, input port, output
// port). A selection function in the simulator picks one candidate from the live congestion
// state (sim/selection.hpp). Static IBA tables are the special case of one candidate per
// (switch, DLID) and SL2VL; docs/sim-model.md "The extended switch" states the model.
//
// Candidate sets are stored once (a fat tree has a handful: each down port alone, and the up
// ports that reach a leaf), and so are whole DLID tables: a switch keyed by input VL whose
// tables for two VLs agree stores one. Lookups are two array reads.
//
// A key gets a table of its own only when it is written: engines that compute whole tables
// intern them (intern_table, set_table) and store each distinct one once as they go, so a
// routing keyed by input port (paper 003 §3.3, footnote 8: 2,048 switches × 37 ports × 16,384
// DLIDs) never holds the tables it shares; set_entry copies a shared table on first write.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/huge_pages.hpp"
#include "fabric/path_sl_table.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace ibrt {

// One candidate output port. Priority 0 is the highest (minimal routes); paper 003 uses two
// classes (minimal, non-minimal) and three for deflection routing.
struct Candidate {
    PortNum port = 0;
    std::uint8_t priority = 0;
    bool operator==(const Candidate&) const = default;
};

// Where the selection functions of paper 004 §4 find a fat tree's coordinates: the stage of a
// switch (level 1 = leaves), its own digit o_s (its rank among the down-port groups of its
// parents) and each end node's digits p_0..p_{n-1} (digit L = the down-port group through
// which a level-L ancestor reaches it; mapping/fat_tree_shape.hpp). Empty when the
// routing is not a tree's.
struct TreeCoords {
    std::uint8_t height = 0;                 // switch levels
    std::vector<std::uint8_t> level;         // per NodeId; 0 for end nodes
    std::vector<std::uint16_t> switch_digit; // per NodeId
    std::vector<std::uint16_t> ca_digits;    // [ca * height + L - 1], CAs in Fabric::cas() order
    bool empty() const { return height == 0; }
    std::uint16_t ca_digit(std::uint32_t ca, unsigned level_1based) const {
        return ca_digits[std::size_t(ca) * height + level_1based - 1];
    }
};

class RoutingFunction {
  public:
    static constexpr std::uint32_t kNoSet = 0xffffffffu;   // no route: the packet is dropped
    static constexpr std::uint32_t kNoTable = 0xffffffffu; // a key not written: all kNoSet

    RoutingFunction() = default;
    // Tables for every switch of `f` over DLIDs 0..max_lid, one per input VL (`vl_keys` > 1:
    // forwarding depends on the input VL) and per input port when `by_in_port`; every entry
    // starts as kNoSet (no memory is taken until a key is written).
    RoutingFunction(const Fabric& f, Lid max_lid, unsigned vl_keys, bool by_in_port);

    // The set id of these candidates (stored once; the order is kept: it is the order a
    // selection function's rotative search follows).
    std::uint32_t intern(std::span<const Candidate> cands);
    std::span<const Candidate> set(std::uint32_t id) const {
        return {cands_.data() + set_begin_[id], cands_.data() + set_begin_[id + 1]};
    }
    std::size_t num_sets() const { return set_begin_.size() - 1; }

    // Writing: the entry of (switch, input VL key, input port key, dlid). With vl_keys == 1
    // the VL key is 0; without by_in_port the port key is 0.
    void set_entry(NodeId sw, unsigned vl_key, PortNum port_key, Lid dlid, std::uint32_t set_id);
    // Writing whole tables: the id of this DLID table (max_lid + 1 set ids, stored once), and
    // the key that uses it. Room for `n` distinct tables can be asked for ahead (address space
    // only), so that storing them never moves the ones already stored.
    std::uint32_t intern_table(std::span<const std::uint32_t> dlid_sets);
    void set_table(NodeId sw, unsigned vl_key, PortNum port_key, std::uint32_t table_id);
    void reserve_tables(std::size_t n);
    // Stores identical DLID tables once, numbered in the order of their first key (the same
    // numbering whichever way they were written). Call after the last write.
    void compact();

    // The candidate set for a packet on input VL `in_vl` entering `sw` by `in_port`.
    std::uint32_t lookup(NodeId sw, unsigned in_vl, PortNum in_port, Lid dlid) const {
        const std::size_t i = position(sw, in_vl, in_port, dlid);
        return i == kNoPosition ? kNoSet : entries_[i];
    }

    // The same lookup in two steps, for the simulator: the entry's index (kNoEntry when
    // lookup would give kNoSet at once, or the index needs more than 32 bits), computed when
    // the packet is sent, from tables small enough to stay cached; then, when the packet is
    // routed, the entry itself, whose cache line the event loop fetched ahead of time.
    static constexpr std::uint32_t kNoEntry = ~std::uint32_t(0);
    std::uint32_t entry_index(NodeId sw, unsigned in_vl, PortNum in_port, Lid dlid) const {
        const std::size_t i = position(sw, in_vl, in_port, dlid);
        return i < kNoEntry ? std::uint32_t(i) : kNoEntry;
    }
    std::uint32_t entry(std::uint32_t index) const { return entries_[index]; }
    const void* entry_address(std::uint32_t index) const { return entries_.data() + index; }
    // Every entry of every table (the simulator puts them on huge pages).
    std::span<const std::uint32_t> entries() const { return entries_; }

    Lid max_lid() const { return max_lid_; }
    unsigned vl_keys() const { return vl_keys_; }
    bool by_in_port() const { return by_in_port_; }
    std::size_t num_tables() const { return table_of_.empty() ? 0 : num_tables_; }

    // Output VLs. Empty `vl2vl`: the Routing's SL2VL tables by SL, as IBA switches do. Otherwise
    // vl2vl's table of (node, in port, out port) indexed by the input VL when `vl_by_in_vl`
    // (VL2VL; VL hopping is the table v -> v + 1) or by the SL. A CA's first VL is vl2vl's
    // table of the CA (in 0, out its port) for the packet's SL when there is one, else the
    // Routing's SL2VL entry.
    Sl2Vl vl2vl;
    bool vl_by_in_vl = false;
    // The SL a source gives a packet for each DLID ("(Source, Destination) -> (DLID, VL)"),
    // e.g. the hop budget of distance-based routing (paper 003 §3.7); with --sl path it
    // replaces the Routing's path SLs while these forwarding sets are in use. Empty: those.
    PathSlTable source_sls;

    TreeCoords tree;

  private:
    // Where (sw, in_vl, in_port, dlid)'s entry is in entries_, kNoPosition when there is none.
    static constexpr std::size_t kNoPosition = ~std::size_t(0);
    std::size_t position(NodeId sw, unsigned in_vl, PortNum in_port, Lid dlid) const {
        if (dlid > max_lid_ || sw >= key_begin_.size() - 1) return kNoPosition;
        const std::uint32_t k = key_begin_[sw] +
                                (vl_keys_ > 1 ? in_vl % vl_keys_ : 0) * ports_[sw] +
                                (by_in_port_ ? in_port : 0);
        if (k >= key_begin_[sw + 1] || table_of_[k] == kNoTable) return kNoPosition;
        return std::size_t(table_of_[k]) * (std::size_t(max_lid_) + 1) + dlid;
    }
    static constexpr std::uint32_t kShared = 0xffffffffu; // owner_ of an interned table
    std::uint32_t key(NodeId sw, unsigned vl_key, PortNum port_key) const;
    std::uint32_t append_table(std::uint32_t owner); // a new table, all kNoSet
    Lid max_lid_ = 0;
    unsigned vl_keys_ = 1;
    bool by_in_port_ = false;
    std::vector<std::uint32_t> key_begin_; // per node + 1: first key of the node
    std::vector<std::uint32_t> ports_;     // per node: port keys (num_ports + 1, or 1)
    std::vector<std::uint32_t> table_of_;  // per key: its DLID table, or kNoTable
    HugeVector<std::uint32_t> entries_;    // table t: entries_[t * (max_lid + 1) + dlid]
    std::size_t num_tables_ = 0;
    // Until compact: per table, the one key that may write it in place, or kShared (interned:
    // never written again); and the interned tables by content hash.
    std::vector<std::uint32_t> owner_;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> table_index_;
    std::vector<std::uint32_t> set_begin_{0};
    std::vector<Candidate> cands_;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> set_index_; // hash -> ids
};

// The static routing as a routing function: one candidate (the LFT's port) per (switch,
// DLID), SL2VL by SL. Simulating it gives exactly the static run (tests/sim).
RoutingFunction static_routing_function(const Fabric& f, const Routing& r);

} // namespace ibrt
