// The service level of every path, as opensm's path_sl(slid, dlid) asks for it.
//
// An SL per destination cannot express torus datelines, per-layer SLs (LASH, DFSSSP) or
// detours, so the SL is per (source end port, DLID), as path_sl(slid, dlid) asks
// (shared/notes/opensm-sl-cc-sa.md "SL2VL and path SL"). With LFT routing the switch where a
// packet enters the fabric and its DLID fix the whole path, so an engine gives one row per
// ingress switch (set_switch_row) and the CA ports behind it share that row; SLs read back from
// a running SM (dfsssp balances paths over its layers per source port) may differ between CAs
// of one switch, so a row per source port is possible too. Identical rows are stored once: a
// per-destination rule costs one row, SL 0 everywhere costs nothing, and only routings whose
// SL really depends on the source pay for a row per switch.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ibrt {

class PathSlTable {
  public:
    // The SL of a pair a partial path-SL file does not list (path_sl_file.hpp): not known, so
    // no verdict may rest on it. Only tables read from such a file hold it.
    static constexpr std::uint8_t kUnknownSl = 0xff;

    PathSlTable() = default; // SL 0 for every path

    // Every source uses `sl_by_dlid[dlid]` (SL 0 past its end).
    static PathSlTable by_dlid(std::vector<std::uint8_t> sl_by_dlid);

    bool empty() const { return rows_.empty(); }

    // The SL of the path from end port `src` (a CA/router port, or a switch's port 0) to
    // `dlid`, or kUnknownSl. A port outside the table uses the default row.
    std::uint8_t sl(PortId src, Lid dlid) const {
        if (dlid >= width_) return 0;
        return rows_[std::size_t(row_of(src)) * width_ + dlid];
    }
    // Which stored row `src` uses: sources on one row have the same SL to every DLID.
    std::uint32_t row_of(PortId src) const { return src < row_of_.size() ? row_of_[src] : 0; }

    // Building: `max_lid` bounds the DLIDs, `num_port_slots` the sources (Fabric's port slots).
    // Every source starts on the default row (`default_row`, SL 0 where it is short).
    PathSlTable(std::size_t num_port_slots, Lid max_lid,
                std::span<const std::uint8_t> default_row = {});
    // Gives source port `src` its own SLs by DLID; a row equal to one already stored is shared.
    void set_row(PortId src, std::span<const std::uint8_t> sl_by_dlid);
    // The engine's case: every source entering the fabric at switch `sw` (its port 0 and each
    // CA/router port cabled to it) gets these SLs.
    void set_switch_row(const Fabric& f, NodeId sw, std::span<const std::uint8_t> sl_by_dlid);
    // Every source uses `sl` to each of `dlids` (an escape layer's destinations), the other
    // DLIDs keeping their SLs: one column of every stored row, O(rows) per DLID. Rows that
    // become equal stay two; sources keep their rows.
    void set_dlids_sl(std::span<const Lid> dlids, std::uint8_t sl);

    std::size_t num_rows() const { return width_ ? rows_.size() / width_ : 0; }
    std::size_t bytes() const {
        return rows_.size() + row_of_.size() * sizeof(std::uint32_t) +
               row_hash_.size() * sizeof(std::uint64_t);
    }
    // The highest known SL any path uses (0 when empty).
    std::uint8_t max_sl() const;
    // The known SLs (bit s) the table holds for any source (bit 0 alone when empty).
    std::uint16_t sl_mask() const;
    // Whether some pair's SL is kUnknownSl (the table came from a partial file).
    bool has_unknown() const;

  private:
    std::uint32_t store_row(std::span<const std::uint8_t> sl_by_dlid);

    std::size_t width_ = 0;               // max_lid + 1
    std::vector<std::uint8_t> rows_;      // row r is [r * width_, (r + 1) * width_)
    std::vector<std::uint32_t> row_of_;   // per NodeId; empty = row 0 for everyone
    std::vector<std::uint64_t> row_hash_; // per row, to find shared rows while building
};

} // namespace ibrt
