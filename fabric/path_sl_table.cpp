// PathSlTable: rows of SLs by DLID, shared between source ports that agree.
#include "fabric/path_sl_table.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ibrt {
namespace {

std::uint64_t hash_row(const std::uint8_t* p, std::size_t n) {
    std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a: rows are hashed once, when stored
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

} // namespace

PathSlTable PathSlTable::by_dlid(std::vector<std::uint8_t> sl_by_dlid) {
    PathSlTable t;
    if (std::all_of(sl_by_dlid.begin(), sl_by_dlid.end(), [](std::uint8_t s) { return s == 0; }))
        return t;
    t.width_ = sl_by_dlid.size();
    t.row_hash_.push_back(hash_row(sl_by_dlid.data(), sl_by_dlid.size()));
    t.rows_ = std::move(sl_by_dlid);
    return t;
}

PathSlTable::PathSlTable(std::size_t num_port_slots, Lid max_lid,
                         std::span<const std::uint8_t> default_row)
    : width_(std::size_t(max_lid) + 1), row_of_(num_port_slots, 0) {
    if (default_row.size() > width_)
        throw std::invalid_argument("path SL row longer than the LID space");
    std::vector<std::uint8_t> row(width_, 0);
    std::copy(default_row.begin(), default_row.end(), row.begin());
    store_row(row);
}

std::uint32_t PathSlTable::store_row(std::span<const std::uint8_t> r) {
    const std::uint64_t h = hash_row(r.data(), r.size());
    for (std::size_t i = 0; i < row_hash_.size(); ++i)
        if (row_hash_[i] == h && std::memcmp(&rows_[i * width_], r.data(), width_) == 0)
            return static_cast<std::uint32_t>(i);
    row_hash_.push_back(h);
    rows_.insert(rows_.end(), r.begin(), r.end());
    return static_cast<std::uint32_t>(row_hash_.size() - 1);
}

void PathSlTable::set_row(PortId src, std::span<const std::uint8_t> sl_by_dlid) {
    if (src >= row_of_.size())
        throw std::invalid_argument("path SL row for a port outside the table");
    if (sl_by_dlid.size() > width_)
        throw std::invalid_argument("path SL row longer than the LID space");
    if (sl_by_dlid.size() == width_) {
        row_of_[src] = store_row(sl_by_dlid);
        return;
    }
    std::vector<std::uint8_t> row(width_, 0);
    std::copy(sl_by_dlid.begin(), sl_by_dlid.end(), row.begin());
    row_of_[src] = store_row(row);
}

void PathSlTable::set_switch_row(const Fabric& f, NodeId sw, std::span<const std::uint8_t> sls) {
    const PortId own = f.port_id(sw, 0);
    set_row(own, sls);
    for (PortNum p = 1; p <= f.node(sw).num_ports; ++p) {
        const Port& port = f.port(sw, p);
        if (port.connected() && !f.node(port.peer_node).is_switch())
            row_of_.at(f.port_id(port.peer_node, port.peer_port)) = row_of_[own];
    }
}

void PathSlTable::set_dlids_sl(std::span<const Lid> dlids, std::uint8_t sl) {
    for (Lid d : dlids)
        if (d >= width_) throw std::invalid_argument("path SL for a DLID outside the table");
    const std::size_t rows = num_rows();
    for (std::size_t r = 0; r < rows; ++r) {
        std::uint8_t* row = &rows_[r * width_];
        for (Lid d : dlids) row[d] = sl;
        // set_row finds shared rows by hash: keep it the hash of what the row now holds.
        row_hash_[r] = hash_row(row, width_);
    }
}

std::uint8_t PathSlTable::max_sl() const {
    std::uint8_t m = 0;
    for (std::uint8_t sl : rows_)
        if (sl != kUnknownSl) m = std::max(m, sl);
    return m;
}

std::uint16_t PathSlTable::sl_mask() const {
    std::uint16_t m = rows_.empty() ? 1 : 0;
    for (std::uint8_t sl : rows_)
        if (sl != kUnknownSl) m = static_cast<std::uint16_t>(m | 1u << (sl & 15));
    return m;
}

bool PathSlTable::has_unknown() const {
    return std::find(rows_.begin(), rows_.end(), kUnknownSl) != rows_.end();
}

} // namespace ibrt
