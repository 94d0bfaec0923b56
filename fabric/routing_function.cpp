// Storage of the extended switch's routing function (fabric/routing_function.hpp).
#include "fabric/routing_function.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ibrt {
namespace {

std::uint64_t fnv1a(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

} // namespace

RoutingFunction::RoutingFunction(const Fabric& f, Lid max_lid, unsigned vl_keys, bool by_in_port)
    : max_lid_(max_lid), vl_keys_(vl_keys ? vl_keys : 1), by_in_port_(by_in_port) {
    if (vl_keys_ > 15) throw std::invalid_argument("at most 15 data VLs key forwarding tables");
    key_begin_.assign(f.num_nodes() + 1, 0);
    ports_.assign(f.num_nodes(), 0);
    std::uint32_t k = 0;
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        key_begin_[n] = k;
        if (!f.node(n).is_switch()) continue;
        ports_[n] = by_in_port ? std::uint32_t(f.node(n).num_ports) + 1 : 1;
        k += ports_[n] * vl_keys_;
    }
    key_begin_[f.num_nodes()] = k;
    // Every key starts with its own table; compact() shares the equal ones.
    table_of_.resize(k);
    for (std::uint32_t i = 0; i < k; ++i) table_of_[i] = i;
    num_tables_ = k;
    entries_.assign(std::size_t(k) * (std::size_t(max_lid) + 1), kNoSet);
}

std::uint32_t RoutingFunction::intern(std::span<const Candidate> cands) {
    std::vector<std::uint16_t> key;
    key.reserve(cands.size());
    for (const Candidate& c : cands) key.push_back(std::uint16_t(c.port << 8 | c.priority));
    const std::uint64_t h = fnv1a(key.data(), key.size() * sizeof key[0]);
    auto& ids = set_index_[h];
    for (std::uint32_t id : ids) {
        const auto s = set(id);
        if (std::equal(s.begin(), s.end(), cands.begin(), cands.end())) return id;
    }
    const auto id = std::uint32_t(num_sets());
    cands_.insert(cands_.end(), cands.begin(), cands.end());
    set_begin_.push_back(std::uint32_t(cands_.size()));
    ids.push_back(id);
    return id;
}

void RoutingFunction::set_entry(NodeId sw, unsigned vl_key, PortNum port_key, Lid dlid,
                                std::uint32_t set_id) {
    if (sw + 1 >= key_begin_.size() || ports_[sw] == 0)
        throw std::invalid_argument("forwarding sets for node " + std::to_string(sw) +
                                    ", which is not a switch");
    if (vl_key >= vl_keys_ || (by_in_port_ ? port_key >= ports_[sw] : port_key != 0) ||
        dlid > max_lid_ || (set_id != kNoSet && set_id >= num_sets()))
        throw std::invalid_argument("forwarding set entry out of range");
    const std::uint32_t k = key_begin_[sw] + vl_key * ports_[sw] + port_key;
    entries_[std::size_t(table_of_[k]) * (std::size_t(max_lid_) + 1) + dlid] = set_id;
}

void RoutingFunction::compact() {
    const std::size_t w = std::size_t(max_lid_) + 1;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> seen;
    std::vector<std::uint32_t> new_id(num_tables_, 0);
    std::vector<std::uint32_t> kept; // old ids of the tables kept, in new id order
    std::vector<std::uint8_t> used(num_tables_, 0);
    for (std::uint32_t t : table_of_) used[t] = 1;
    for (std::uint32_t t = 0; t < num_tables_; ++t) {
        if (!used[t]) continue;
        const std::uint32_t* row = entries_.data() + t * w;
        auto& cands = seen[fnv1a(row, w * sizeof *row)];
        bool found = false;
        for (std::uint32_t k : cands)
            if (std::equal(row, row + w, entries_.data() + std::size_t(kept[k]) * w)) {
                new_id[t] = k;
                found = true;
                break;
            }
        if (found) continue;
        new_id[t] = std::uint32_t(kept.size());
        cands.push_back(new_id[t]);
        kept.push_back(t);
    }
    for (std::uint32_t i = 0; i < kept.size(); ++i)
        if (kept[i] != i)
            std::copy_n(entries_.begin() + std::ptrdiff_t(std::size_t(kept[i]) * w), w,
                        entries_.begin() + std::ptrdiff_t(std::size_t(i) * w));
    entries_.resize(kept.size() * w);
    entries_.shrink_to_fit();
    for (auto& t : table_of_) t = new_id[t];
    num_tables_ = kept.size();
}

RoutingFunction static_routing_function(const Fabric& f, const Routing& r) {
    const Lid max_lid = r.lids.max_lid();
    RoutingFunction rf(f, max_lid, 1, false);
    for (NodeId sw : f.switches()) {
        for (Lid d = 1; d <= max_lid; ++d) {
            const PortNum p = r.out_port(sw, d);
            if (p == kNoPath) continue;
            const Candidate c{p, 0};
            rf.set_entry(sw, 0, 0, d, rf.intern({&c, 1}));
        }
    }
    rf.compact();
    return rf;
}

} // namespace ibrt
