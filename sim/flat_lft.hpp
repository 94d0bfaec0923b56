// All switches' LFTs in one contiguous two-level table, built once per simulation.
//
// Why: the simulator looks up one LFT entry per packet-hop, and a flat table is far larger than
// the caches (FT(16,3) with LMC 5: 320 switches x 33,089 LIDs = 10 MB; FT(36,3): 80 MB), so
// nearly every lookup was a miss to memory. But a destination's 2^LMC LIDs mostly share their
// entries: on the way down every LID of a block leaves by the same port, and on the way up the
// port depends only on the LID's offset in its block (paper 000 §4.3, equation (2)), the same
// mapping for every destination. So each (switch, LMC block) holds one 16-bit entry: the port,
// when all LIDs of the block agree, or else a reference to a deduplicated 2^LMC-byte pattern.
// FT(16,3) at LMC 5 shrinks to 0.7 MB of entries plus a few patterns. When the patterns do not
// repeat (no structure to share), blocks are single LIDs: a flat table of 16-bit entries.
// Entries are Routing::out_port's: the port, or kNoPath past a table's end or for a node
// without a table. The block table sits on 2 MB pages where Linux allows (MADV_HUGEPAGE).
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace ibrt::sim {

class FlatLft {
  public:
    FlatLft(const Fabric& f, const Routing& r);

    // The block cell of (switch, DLID): the simulator carries it in the packet's routing event,
    // so that the lookup and its prefetch need no other memory. The last cell is a shared
    // kNoPath for a DLID past the table's end or a node without a table.
    std::uint32_t cell(NodeId sw, Lid dlid) const { return cell_in(row(sw), dlid); }
    // The same in two steps, so that a port can keep its peer switch's row (the simulator's
    // launch then reads no record of the switch a packet goes to): kNoRow for a node without
    // a table.
    static constexpr std::uint32_t kNoRow = 0xffffffffu;
    std::uint32_t row(NodeId sw) const { return row_[sw]; }
    std::uint32_t cell_in(std::uint32_t row, Lid dlid) const {
        if (row == kNoRow || dlid >= lids_) return no_path_;
        return row * blocks_ + (std::uint32_t(dlid) >> shift_);
    }
    PortNum at(std::uint32_t cell, Lid dlid) const {
        const std::uint16_t e = table_[cell];
        if (e < kPattern) return PortNum(e);
        return patterns_[(std::size_t(e - kPattern) << shift_) + (dlid & ((1u << shift_) - 1))];
    }
    const void* address(std::uint32_t cell) const { return table_.get() + cell; }
    PortNum out_port(NodeId sw, Lid dlid) const { return at(cell(sw, dlid), dlid); }

    std::size_t bytes() const { return (std::size_t(no_path_) + 1) * 2 + patterns_.size(); }
    unsigned block_bits() const { return shift_; }
    std::size_t num_patterns() const { return patterns_.size() >> shift_; }

  private:
    static constexpr std::uint16_t kPattern = 0x100; // entries from here on name a pattern
    struct Free {
        void operator()(std::uint16_t* p) const;
    };
    bool build(const Routing& r, unsigned shift);

    std::vector<std::uint32_t> row_; // by NodeId
    std::uint32_t lids_ = 0, blocks_ = 0, no_path_ = 0;
    unsigned shift_ = 0;
    std::unique_ptr<std::uint16_t[], Free> table_;
    std::vector<PortNum> patterns_;
};

} // namespace ibrt::sim
