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

// A DLID table's hash, a word at a time (tables are 64 KB at 16,384 hosts and every one is
// hashed; only equal-content lookups depend on it).
std::uint64_t table_hash(const std::uint32_t* row, std::size_t n) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (std::size_t i = 0; i < n; ++i) {
        h = (h ^ row[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
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
    table_of_.assign(k, kNoTable);
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

std::uint32_t RoutingFunction::key(NodeId sw, unsigned vl_key, PortNum port_key) const {
    if (sw + 1 >= key_begin_.size() || ports_[sw] == 0)
        throw std::invalid_argument("forwarding sets for node " + std::to_string(sw) +
                                    ", which is not a switch");
    if (vl_key >= vl_keys_ || (by_in_port_ ? port_key >= ports_[sw] : port_key != 0))
        throw std::invalid_argument("forwarding set entry out of range");
    return key_begin_[sw] + vl_key * ports_[sw] + port_key;
}

void RoutingFunction::reserve_tables(std::size_t n) {
    entries_.reserve(std::max(n, num_tables_) * (std::size_t(max_lid_) + 1));
}

std::uint32_t RoutingFunction::append_table(std::uint32_t owner) {
    const std::size_t w = std::size_t(max_lid_) + 1;
    if (entries_.size() + w > entries_.capacity()) {
        // Room at once for a table per key not yet written (what the set_entry writers need
        // at most) rather than doubling: growing moves every table stored.
        std::size_t unwritten = 0;
        for (std::uint32_t t : table_of_) unwritten += t == kNoTable || owner_[t] == kShared;
        entries_.reserve(std::max({entries_.size() + w, (num_tables_ + unwritten) * w,
                                   entries_.capacity() + entries_.capacity() / 2}));
    }
    entries_.resize(entries_.size() + w, kNoSet);
    owner_.push_back(owner);
    return std::uint32_t(num_tables_++);
}

std::uint32_t RoutingFunction::intern_table(std::span<const std::uint32_t> dlid_sets) {
    const std::size_t w = std::size_t(max_lid_) + 1;
    if (dlid_sets.size() != w)
        throw std::invalid_argument("a forwarding table has " + std::to_string(w) + " entries");
    for (std::uint32_t id : dlid_sets)
        if (id != kNoSet && id >= num_sets())
            throw std::invalid_argument("forwarding set entry out of range");
    auto& ids = table_index_[table_hash(dlid_sets.data(), w)];
    for (std::uint32_t t : ids)
        if (std::equal(dlid_sets.begin(), dlid_sets.end(),
                       entries_.begin() + std::ptrdiff_t(t * w)))
            return t;
    const std::uint32_t t = append_table(kShared);
    std::copy(dlid_sets.begin(), dlid_sets.end(), entries_.begin() + std::ptrdiff_t(t * w));
    ids.push_back(t);
    return t;
}

void RoutingFunction::set_table(NodeId sw, unsigned vl_key, PortNum port_key,
                                std::uint32_t table_id) {
    const std::uint32_t k = key(sw, vl_key, port_key);
    if (table_id >= num_tables_ || owner_[table_id] != kShared)
        throw std::invalid_argument("set_table takes a table from intern_table");
    table_of_[k] = table_id;
}

void RoutingFunction::set_entry(NodeId sw, unsigned vl_key, PortNum port_key, Lid dlid,
                                std::uint32_t set_id) {
    const std::uint32_t k = key(sw, vl_key, port_key);
    if (dlid > max_lid_ || (set_id != kNoSet && set_id >= num_sets()))
        throw std::invalid_argument("forwarding set entry out of range");
    const std::size_t w = std::size_t(max_lid_) + 1;
    std::uint32_t t = table_of_[k];
    if (t == kNoTable || owner_[t] != k) { // copy on first write
        const std::uint32_t own = append_table(k);
        if (t != kNoTable)
            std::copy_n(entries_.begin() + std::ptrdiff_t(std::size_t(t) * w), w,
                        entries_.begin() + std::ptrdiff_t(std::size_t(own) * w));
        table_of_[k] = t = own;
    }
    entries_[std::size_t(t) * w + dlid] = set_id;
}

void RoutingFunction::compact() {
    const std::size_t w = std::size_t(max_lid_) + 1;
    constexpr std::uint32_t kUnseen = 0xffffffffu;
    const std::uint32_t empty_src = std::uint32_t(num_tables_); // kNoTable's all-kNoSet table
    const std::vector<std::uint32_t> no_sets(table_of_.empty() ? 0 : w, kNoSet);
    const auto row = [&](std::uint32_t t) {
        return t == empty_src ? no_sets.data() : entries_.data() + std::size_t(t) * w;
    };
    // New ids by first key, equal contents sharing one (as if every key had had its own).
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> seen; // hash -> new ids
    std::vector<std::uint32_t> new_id(num_tables_ + 1, kUnseen);
    std::vector<std::uint32_t> kept; // old ids (or empty_src) of the tables kept, by new id
    for (std::uint32_t& tk : table_of_) {
        const std::uint32_t t = tk == kNoTable ? empty_src : tk;
        if (new_id[t] == kUnseen) {
            const std::uint32_t* r = row(t);
            auto& ids = seen[table_hash(r, w)];
            for (std::uint32_t i : ids)
                if (std::equal(r, r + w, row(kept[i]))) {
                    new_id[t] = i;
                    break;
                }
            if (new_id[t] == kUnseen) {
                new_id[t] = std::uint32_t(kept.size());
                ids.push_back(new_id[t]);
                kept.push_back(t);
            }
        }
        tk = new_id[t];
    }
    // Move the kept tables to their places: in place when each comes from its place or
    // beyond (tables written in key order, the usual case), so no second copy is held.
    bool forward = kept.size() <= num_tables_;
    for (std::uint32_t i = 0; i < kept.size() && forward; ++i) forward = kept[i] >= i;
    if (forward) {
        for (std::uint32_t i = 0; i < kept.size(); ++i) {
            auto dst = entries_.begin() + std::ptrdiff_t(std::size_t(i) * w);
            if (kept[i] == empty_src)
                std::fill_n(dst, w, kNoSet);
            else if (kept[i] != i)
                std::copy_n(entries_.begin() + std::ptrdiff_t(std::size_t(kept[i]) * w), w, dst);
        }
        // Giving back the tables dropped costs a copy of those kept: worth it for many.
        const bool shrink = (num_tables_ - kept.size()) * 4 > kept.size();
        entries_.resize(kept.size() * w);
        if (shrink) entries_.shrink_to_fit();
    } else {
        HugeVector<std::uint32_t> moved(kept.size() * w);
        for (std::uint32_t i = 0; i < kept.size(); ++i)
            std::copy_n(row(kept[i]), w, moved.begin() + std::ptrdiff_t(std::size_t(i) * w));
        entries_ = std::move(moved);
    }
    num_tables_ = kept.size();
    // Every table is now its keys' shared one: the next write copies it. Tables interned
    // from here on are matched among themselves; the next compact merges the rest.
    owner_.assign(num_tables_, kShared);
    table_index_.clear();
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
