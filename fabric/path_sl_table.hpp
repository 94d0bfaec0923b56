// The service level of every path, as opensm's path_sl(slid, dlid) asks for it.
//
// An SL per destination cannot express torus datelines, per-layer SLs (LASH, DFSSSP) or
// detours, so the SL is per (source, DLID). With LFT routing the switch where a packet enters
// the fabric and its DLID fix the whole path, so one row per ingress switch says everything
// (shared/notes/opensm-sl-cc-sa.md "SL2VL and path SL"). Identical rows are stored once: a
// per-destination rule costs one row, a routing with SL 0 everywhere costs nothing, and only
// engines whose SL really depends on the source pay for a row per switch.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ibrt {

class PathSlTable {
  public:
    PathSlTable() = default; // SL 0 for every path

    // Every source uses `sl_by_dlid[dlid]` (SL 0 past its end).
    static PathSlTable by_dlid(std::vector<std::uint8_t> sl_by_dlid);

    bool empty() const { return rows_.empty(); }

    // The SL of the path that enters the fabric at switch `ingress` towards `dlid`. A source
    // with no ingress switch (kNoNode: a CA cabled straight to a CA) uses the default row.
    std::uint8_t sl(NodeId ingress, Lid dlid) const {
        if (dlid >= width_) return 0;
        const std::uint32_t row = ingress < row_of_.size() ? row_of_[ingress] : 0;
        return rows_[std::size_t(row) * width_ + dlid];
    }

    // Building per ingress switch: `max_lid` bounds the DLIDs, `num_nodes` the ingress ids.
    // Every source starts on the default row (`default_row`, SL 0 where it is short).
    PathSlTable(std::size_t num_nodes, Lid max_lid, std::span<const std::uint8_t> default_row = {});
    // Gives `ingress` its own SLs by DLID; a row equal to one already stored is shared.
    void set_row(NodeId ingress, std::span<const std::uint8_t> sl_by_dlid);

    std::size_t num_rows() const { return width_ ? rows_.size() / width_ : 0; }
    std::size_t bytes() const {
        return rows_.size() + row_of_.size() * sizeof(std::uint32_t) +
               row_hash_.size() * sizeof(std::uint64_t);
    }
    // The highest SL any path uses (0 when empty).
    std::uint8_t max_sl() const;

  private:
    std::uint32_t store_row(std::span<const std::uint8_t> sl_by_dlid);

    std::size_t width_ = 0;               // max_lid + 1
    std::vector<std::uint8_t> rows_;      // row r is [r * width_, (r + 1) * width_)
    std::vector<std::uint32_t> row_of_;   // per NodeId; empty = row 0 for everyone
    std::vector<std::uint64_t> row_hash_; // per row, to find shared rows while building
};

} // namespace ibrt
