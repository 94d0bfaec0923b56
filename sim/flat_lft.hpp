// All switches' LFTs in one contiguous table [switch row][DLID], built once per simulation.
//
// Why: the simulator looks up one LFT entry per packet-hop, and the tables are far larger than
// the caches (FT(16,3) with LMC 5: 320 switches x 33,089 LIDs = 10 MB; FT(36,3): 80 MB). Routing
// keeps one heap vector per switch, so every lookup also risks a TLB miss on a 4 KB page of a
// different allocation. Here the rows sit in one block that Linux may back with 2 MB pages
// (madvise(MADV_HUGEPAGE)), so a lookup costs at most the one cache miss the simulator already
// prefetches when the packet starts on the link towards the switch.
// Entries are Routing::out_port's: the port, or kNoPath past a table's end or for a node
// without a table.
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

    PortNum out_port(NodeId sw, Lid dlid) const { return *entry(sw, dlid); }
    // The entry's address (for a prefetch); a shared kNoPath cell when there is no entry.
    const PortNum* entry(NodeId sw, Lid dlid) const {
        const std::uint32_t row = row_[sw];
        if (row == kNoRow || dlid >= stride_) return &no_path_;
        return table_.get() + std::size_t(row) * stride_ + dlid;
    }
    std::size_t bytes() const { return bytes_; }

  private:
    static constexpr std::uint32_t kNoRow = 0xffffffffu;
    struct Free {
        void operator()(PortNum* p) const;
    };
    std::vector<std::uint32_t> row_; // by NodeId
    std::size_t stride_ = 0, bytes_ = 0;
    std::unique_ptr<PortNum[], Free> table_;
    PortNum no_path_ = kNoPath;
};

} // namespace ibrt::sim
