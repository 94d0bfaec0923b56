// Dynamic Routing Balancing (paper 002 §4): see drb.hpp.
#include "sim/drb.hpp"

#include <algorithm>
#include <tuple>

namespace ibrt::sim {

std::vector<Lid> drb_paths(const Fabric& f, const Routing& r, PortId src, Lid original, Lid base,
                           std::uint8_t lmc, std::uint32_t max) {
    struct Path {
        Lid lid;
        std::vector<PortId> ports;
    };
    std::vector<Path> found;
    const PortId owner = r.lids.owner(base);
    const Port& sp = f.port(src);
    if (!sp.connected()) return {original};
    for (std::uint32_t k = 0; k < (1u << lmc); ++k) {
        const Lid lid = Lid(base + k);
        Path p{lid, {}};
        NodeId n = sp.peer_node;
        PortNum in = sp.peer_port;
        bool reached = false;
        for (std::size_t guard = 0; guard <= f.num_nodes(); ++guard) {
            if (!f.node(n).is_switch()) {
                reached = f.port_id(n, in) == owner;
                break;
            }
            const PortNum o = r.out_port(n, lid);
            if (o == kNoPath || o == 0 || o > f.node(n).num_ports || !f.port(n, o).connected())
                break;
            p.ports.push_back(f.port_id(n, o));
            in = f.port(n, o).peer_port;
            n = f.port(n, o).peer_node;
        }
        if (reached) found.push_back(std::move(p));
    }
    // The original first, then shortest first; a path equal to one already taken is no
    // alternative (an LMC whose LIDs all follow one route gives DRB nothing to spread over).
    std::stable_sort(found.begin(), found.end(), [&](const Path& a, const Path& b) {
        return std::make_tuple(a.lid != original, a.ports.size(), a.lid) <
               std::make_tuple(b.lid != original, b.ports.size(), b.lid);
    });
    std::vector<Lid> out;
    std::vector<const std::vector<PortId>*> taken;
    if (found.empty() || found.front().lid != original) out.push_back(original);
    for (const Path& p : found) {
        if (out.size() >= max) break;
        bool dup = false;
        for (const auto* t : taken) dup |= *t == p.ports;
        if (dup) continue;
        taken.push_back(&p.ports);
        out.push_back(p.lid);
    }
    return out;
}

Drb::Drb(const DrbConfig& cfg, std::uint64_t seed, PathsFn paths)
    : cfg_(cfg), rng_(seed ^ 0x4452422121212121ull), paths_(std::move(paths)) { // "DRB!!!!!"
    cfg_.max_paths = std::clamp<std::uint32_t>(cfg_.max_paths, 1, kDrbMaxPaths);
    if (cfg_.notifications_per_path == 0) cfg_.notifications_per_path = 1;
}

void Drb::release(std::uint32_t f) {
    Flow& fl = flows_[f];
    index_.erase(key(fl.src, fl.dst));
    fl.live = false;
    ++fl.gen;
    fl.check_at = 0;
    free_.push_back(f);
    --live_;
    ++stats_.flows_freed;
}

bool Drb::settle(std::uint32_t f, Time now) {
    Flow& fl = flows_[f];
    const std::uint64_t k = expiries(fl, now);
    if (k == 0) return true;
    if (k >= fl.open) { // every added path closed, then one more expiry: forgotten
        stats_.constrictions += fl.open - 1u;
        release(f);
        return false;
    }
    const std::uint32_t open = fl.open - std::uint32_t(k);
    stats_.constrictions += k;
    const std::size_t at = std::size_t(f) * cfg_.max_paths;
    for (std::uint32_t i = open; i < fl.open; ++i) becns_[at + i] = 0;
    fl.open = std::uint8_t(open);
    fl.last += k * cfg_.timer_ps; // the expiries are spent
    fl.pending = 0;
    return true;
}

Lid Drb::pick(std::uint32_t src, std::uint32_t dst, Lid original, Time now, std::uint8_t& rank) {
    rank = 0;
    if (live_ == 0) return original;
    const std::uint32_t f = index_.find(key(src, dst));
    if (f == FlatMap64::kAbsent) return original;
    const Flow& fl = flows_[f];
    // Open paths now, without changing the state (notify and check do that).
    const std::uint64_t k = expiries(fl, now);
    if (k >= fl.open) return original;
    const std::uint32_t open = fl.open - std::uint32_t(k);
    if (open <= 1) return original;
    const std::size_t at = std::size_t(f) * cfg_.max_paths;
    // Eq. 1: probability inverse to the path's notifications (an unnotified path counts one).
    double total = 0;
    for (std::uint32_t i = 0; i < open; ++i)
        total += 1.0 / std::max<std::uint32_t>(becns_[at + i], 1);
    double u = double(rng_.next() >> 11) * 0x1.0p-53 * total;
    std::uint32_t i = 0;
    for (; i + 1 < open; ++i) {
        u -= 1.0 / std::max<std::uint32_t>(becns_[at + i], 1);
        if (u < 0) break;
    }
    rank = std::uint8_t(i);
    if (i > 0) ++stats_.alternative_packets;
    return lids_[at + i];
}

Time Drb::notify(std::uint32_t src, std::uint32_t dst, Lid original, std::uint8_t rank, Time now,
                 std::uint32_t& flow, std::uint32_t& gen) {
    ++stats_.notifications;
    bool fresh;
    std::uint32_t& slot = index_.get_or_insert(key(src, dst), 0, fresh);
    std::uint32_t f = slot;
    if (fresh) {
        if (!free_.empty()) {
            f = free_.back();
            free_.pop_back();
        } else {
            f = std::uint32_t(flows_.size());
            flows_.emplace_back();
            lids_.resize(flows_.size() * cfg_.max_paths, 0);
            becns_.resize(flows_.size() * cfg_.max_paths, 0);
        }
        slot = f;
        Flow& fl = flows_[f];
        const std::uint32_t g = fl.gen;
        fl = Flow{};
        fl.gen = g;
        fl.live = true;
        fl.src = src;
        fl.dst = dst;
        fl.last = now;
        scratch_.clear();
        paths_(src, dst, original, scratch_);
        if (scratch_.empty()) scratch_.push_back(original);
        fl.npaths = std::uint8_t(std::min<std::size_t>(scratch_.size(), cfg_.max_paths));
        const std::size_t at = std::size_t(f) * cfg_.max_paths;
        for (std::uint32_t i = 0; i < cfg_.max_paths; ++i) {
            lids_[at + i] = i < fl.npaths ? scratch_[i] : 0;
            becns_[at + i] = 0;
        }
        stats_.peak_flows = std::max(stats_.peak_flows, ++live_);
    } else if (!settle(f, now)) {
        // Expired before this BECN: start afresh.
        return notify(src, dst, original, rank, now, flow, gen);
    }
    Flow& fl = flows_[f];
    const std::size_t at = std::size_t(f) * cfg_.max_paths;
    if (rank < fl.open) ++becns_[at + rank];
    fl.last = now;
    if (++fl.pending >= cfg_.notifications_per_path && fl.open < fl.npaths) {
        ++fl.open;
        fl.pending = 0;
        ++stats_.paths_opened;
        stats_.peak_open_paths = std::max<std::uint32_t>(stats_.peak_open_paths, fl.open);
    }
    stats_.peak_open_paths = std::max<std::uint32_t>(stats_.peak_open_paths, fl.open);
    flow = f;
    gen = fl.gen;
    if (cfg_.timer_ps == 0 || fl.check_at != 0) return 0; // a check is pending already
    fl.check_at = fl.last + Time(fl.open) * cfg_.timer_ps;
    return fl.check_at;
}

Time Drb::check(std::uint32_t f, std::uint32_t gen, Time now) {
    if (f >= flows_.size()) return 0;
    Flow& fl = flows_[f];
    if (!fl.live || fl.gen != gen || fl.check_at != now) return 0;
    fl.check_at = 0;
    if (!settle(f, now)) return 0;
    // BECNs came since the check was scheduled: look again when the flow can expire.
    fl.check_at = fl.last + Time(fl.open) * cfg_.timer_ps;
    return fl.check_at;
}

std::uint32_t Drb::open_paths(std::uint32_t src, std::uint32_t dst, Time now) const {
    const std::uint32_t f = index_.find(key(src, dst));
    if (f == FlatMap64::kAbsent) return 1;
    const Flow& fl = flows_[f];
    const std::uint64_t k = expiries(fl, now);
    return k >= fl.open ? 1 : fl.open - std::uint32_t(k);
}

std::uint32_t Drb::notifications(std::uint32_t src, std::uint32_t dst, std::uint32_t rank) const {
    const std::uint32_t f = index_.find(key(src, dst));
    if (f == FlatMap64::kAbsent || rank >= cfg_.max_paths) return 0;
    return becns_[std::size_t(f) * cfg_.max_paths + rank];
}

} // namespace ibrt::sim
