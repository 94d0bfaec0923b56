// Paper 001 §VI.D: the `separate` scheme (path selection + color/L) as a routing engine.
#include "engines/separate/complete_tree.hpp"
#include "engines/separate/separate.hpp"
#include "fabric/display_name.hpp"
#include "fabric/parallel.hpp"
#include "graph/fabric_walks.hpp"
#include "lidassign/heuristics.hpp"
#include "lidassign/path_compute.hpp"
#include "mapping/fat_tree_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <numeric>
#include <optional>
#include <thread>

namespace ibrt {
namespace separate {

using namespace ibrt::lidassign;

Routing route_in_order(const Fabric& f, const Lids* preassigned, const EngineOptions& opt,
                       SeparateStats* stats) {
    SeparateStats local;
    SeparateStats& st = stats ? *stats : local;
    if (f.switches().empty() || f.cas().size() < 1)
        throw RoutingError("separate: the fabric has no switches or no CAs");
    const graph::UpDown ud = graph::make_updown(f, graph::choose_root(f, opt.seed));
    auto report = [&](std::string_view phase, double x) {
        if (opt.progress) opt.progress(phase, x);
    };
    std::function<void(double)> path_progress;
    if (opt.progress) path_progress = [&](double x) { report("path selection", x); };
    // Switch port 0's forwarding (a complete tree with nothing fixed, written at the end)
    // depends on no selected path: with a second core it is computed there while this one runs
    // path selection's sequential loop (issue 12: 2,048 trees at 16,384 hosts), as one column
    // of out ports per switch.
    const auto switches = f.switches();
    const std::vector<PortId> none(f.num_nodes(), kNoPort);
    std::vector<std::uint32_t> port0_tree(f.num_nodes(), 0xffffffffu); // per switch: its column
    std::vector<PortNum> port0_cols;
    std::vector<std::uint32_t> port0_forced;
    const InEdges in_edges(f, ud);
    auto complete_port0 = [&] {
        port0_cols.reserve(switches.size() * switches.size());
        for (std::size_t k = 0; k < switches.size(); ++k) {
            const CompletedTree t = complete_tree(f, ud, in_edges, f.port_id(switches[k], 0), none);
            for (NodeId s : switches)
                port0_cols.push_back(t.out[s] != kNoPort ? f.port_num(t.out[s]) : kNoPath);
            port0_forced.push_back(t.forced);
            port0_tree[switches[k]] = static_cast<std::uint32_t>(k);
        }
    };
    struct Background { // joined on every way out, so an exception here never meets a running one
        std::thread t;
        std::exception_ptr error;
        ~Background() {
            if (t.joinable()) t.join();
        }
    } port0;
    if (worker_count(2) > 1)
        port0.t = std::thread([&] {
            try {
                complete_port0();
            } catch (...) {
                port0.error = std::current_exception();
            }
        });
    // Path selection by switch pair keeps one route per switch pair; the CA-level paths are
    // generated one destination at a time (all of them at once are 268 M paths at 16,384 hosts).
    const SelectedPaths sp = select_paths(f, ud, PairClasses::SwitchPair, 16, path_progress);
    const CaPaths ca_paths_to(f, sp);
    const auto cas = f.cas();
    std::vector<std::uint32_t> ca_index(f.num_nodes(), 0xffffffffu);
    for (std::size_t i = 0; i < cas.size(); ++i) ca_index[cas[i]] = std::uint32_t(i);

    // color/L per class of alike paths (color_by_route). The CAs of one switch t see the same
    // classes (route(u, t) from each source switch u, same weights), so a switch's class
    // colouring is kept and reused when the next destination's classes match it.
    struct ClassColouring {
        std::vector<NodeId> heads; // per class: the first node after the source CA
        std::vector<std::uint32_t> weight;
        Assignment per_class;
    };
    std::vector<ClassColouring> by_switch(f.num_nodes());
    // The colouring of d's classes rc (per class; expand() gives it per path).
    auto assign = [&](const RouteClasses& rc) {
        const PortId dport = first_end_port(f, rc.reps.dst);
        if (dport == kNoPort || !f.node(f.port(dport).peer_node).is_switch())
            return color_classes(f, rc, true);
        ClassColouring& c = by_switch[f.port(dport).peer_node];
        std::vector<NodeId> heads(rc.weight.size(), kNoNode);
        for (std::size_t x = 0; x < heads.size(); ++x) {
            const auto p = rc.reps.path(x);
            if (p.size() >= 2) heads[x] = f.port_node(p[1]);
        }
        if (heads != c.heads || rc.weight != c.weight) {
            c.per_class = color_classes(f, rc, true);
            c.heads = std::move(heads);
            c.weight = rc.weight;
        }
        return c.per_class;
    };
    // A destination's paths as classes (CaPaths::classes_to): path i leaves its source CA
    // src[i] by ca_port[src[i]], then follows its class's edges after the first.
    std::vector<PortId> ca_port(cas.size());
    for (std::size_t i = 0; i < cas.size(); ++i) ca_port[i] = first_end_port(f, cas[i]);
    std::vector<std::uint32_t> src;
    auto tail_of = [](const RouteClasses& rc, std::uint32_t c) {
        return rc.reps.path(c).subspan(1);
    };
    // By destination switch over the cores: a switch's colouring (by_switch) is only touched by
    // the part that owns its CAs, and loads, LID counts and the largest k add up the same in
    // any split.
    struct LidPart {
        std::vector<std::uint64_t> load;
        std::uint32_t max_k = 1;
        std::uint64_t lids = 0;
    };
    const std::size_t lid_parts = worker_count(cas.size(), 64);
    std::vector<LidPart> lid_part(lid_parts);
    auto owner = [&](std::size_t di) {
        const PortId p = ca_port[di];
        const bool on_switch = p != kNoPort && f.node(f.port(p).peer_node).is_switch();
        return (on_switch ? std::size_t(f.port(p).peer_node) : di) % lid_parts;
    };
    run_parts(lid_parts, [&](std::size_t part) {
        LidPart& lp = lid_part[part];
        lp.load.assign(f.num_port_slots(), 0);
        const CaPaths paths_to(f, sp); // its own scratch
        std::vector<std::uint32_t> from;
        for (std::size_t di = 0; di < cas.size(); ++di) {
            if (part == 0 && (di & 63) == 0)
                report("LID assignment", double(di) / double(cas.size()));
            if (owner(di) != part) continue;
            const RouteClasses rc = paths_to.classes_to(di, from);
            const std::uint32_t k = assign(rc).k;
            lp.max_k = std::max(lp.max_k, k);
            lp.lids += lids_for(k);
            for (const std::uint32_t si : from) ++lp.load[ca_port[si]];
            for (std::uint32_t c = 0; c < rc.weight.size(); ++c)
                for (PortId e : tail_of(rc, c)) lp.load[e] += rc.weight[c];
        }
    });
    std::vector<std::uint64_t> load(f.num_port_slots(), 0);
    std::uint32_t max_k = 1;
    for (LidPart& lp : lid_part) {
        max_k = std::max(max_k, lp.max_k);
        st.lids_color_l += lp.lids;
        for (std::size_t e = 0; e < load.size(); ++e) load[e] += lp.load[e];
    }
    lid_part.clear();
    st.needed_lmc = std::uint32_t(lmc_for(max_k));
    st.max_load_selected = max_link_load(f, load);

    // LIDs.
    Routing r;
    std::vector<std::uint32_t> room(cas.size()); // LIDs per destination
    if (preassigned) {
        r.lids = *preassigned;
        int lmc = 0;
        for (std::size_t i = 0; i < cas.size(); ++i) {
            const PortId p = first_end_port(f, cas[i]);
            if (p == kNoPort) continue;
            if (!r.lids.has_lid(p))
                throw RoutingError(
                    fmt::format("separate: CA {} has no preassigned LID", f.node(cas[i]).desc));
            room[i] = 1u << r.lids.lmc(p);
            lmc = std::max<int>(lmc, r.lids.lmc(p));
        }
        for (NodeId s : f.switches())
            if (!r.lids.has_lid(f.port_id(s, 0)))
                throw RoutingError(
                    fmt::format("separate: switch {} has no preassigned LID", f.node(s).desc));
        r.lmc = static_cast<std::uint8_t>(lmc);
    } else {
        int lmc = opt.lmc ? *opt.lmc : std::min<int>(int(st.needed_lmc), kMaxLmc);
        const std::size_t num_end_ports = all_end_ports(f).size(); // dual-port HCAs: two
        auto fits = [&](int l) {
            const std::size_t block = std::size_t(1) << l;
            return (num_end_ports + 1) * block + f.switches().size() <= kMaxUnicastLid;
        };
        while (lmc > 0 && !fits(lmc)) {
            if (opt.lmc)
                throw RoutingError(
                    fmt::format("separate: LMC {} does not fit in 49151 unicast LIDs", lmc));
            --lmc;
        }
        if (!fits(lmc)) throw RoutingError("separate: too many end ports for the LID space");
        r.lmc = static_cast<std::uint8_t>(lmc);
        r.lids = Lids(f);
        const std::uint32_t block = 1u << lmc;
        std::uint32_t next = block; // aligned bases; LIDs 1..block-1 go to switches
        for (std::size_t i = 0; i < cas.size(); ++i) {
            const PortId p = first_end_port(f, cas[i]);
            room[i] = block;
            if (p == kNoPort) continue;
            r.lids.assign(p, static_cast<Lid>(next), r.lmc);
            next += block;
        }
        // A CA's other end ports (a dual-port HCA's second port) get LIDs too: opensm gives
        // every active port one, and a port without a LID is unreachable (issue 12). Their
        // traffic follows the completed trees written below.
        for (NodeId c : cas)
            for (PortId p : end_ports(f, c))
                if (!r.lids.has_lid(p)) {
                    r.lids.assign(p, static_cast<Lid>(next), r.lmc);
                    next += block;
                }
        std::uint32_t low = 1;
        for (NodeId s : f.switches()) {
            const bool in_gap = low < block;
            r.lids.assign(f.port_id(s, 0), static_cast<Lid>(in_gap ? low : next), 0);
            (in_gap ? low : next) += 1;
        }
    }
    st.lmc = r.lmc;

    // Per destination, in order: refit configurations that exceed its LIDs, then its LFT
    // entries and path selection. (Refits only change `load`, which only later refits read.)
    // Work is per class of alike paths (route_classes: the CAs of one source switch share every
    // switch edge) where the result does not depend on the order of the paths, and per path
    // where it does (a refit reads the loads earlier refits left). Trees come from a TreeCache:
    // the CAs of one switch share them (issue 12).
    r.lft.assign(f.num_nodes(), {});
    for (NodeId s : f.switches()) r.lft[s].assign(r.lids.max_lid() + 1u, kNoPath);
    // A LID's entries, one per switch, are gathered for 64 LIDs and then written switch by
    // switch: written one LID at a time across all switches they were a cache miss each (67 M
    // at 16,384 hosts). kNoPath in the buffer leaves the entry as it is.
    constexpr std::size_t kLids = 64;
    std::vector<PortNum> lft_cols;
    std::vector<Lid> lft_lids;
    auto flush_lft = [&] {
        for (std::size_t i = 0; i < switches.size(); ++i) {
            PortNum* row = r.lft[switches[i]].data();
            for (std::size_t b = 0; b < lft_lids.size(); ++b)
                if (const PortNum port = lft_cols[b * switches.size() + i]; port != kNoPath)
                    row[lft_lids[b]] = port;
        }
        lft_cols.clear();
        lft_lids.clear();
    };
    auto write = [&](const CompletedTree& t, Lid lid) {
        if (lft_lids.size() == kLids) flush_lft();
        lft_lids.push_back(lid);
        for (NodeId s : switches)
            lft_cols.push_back(t.out[s] != kNoPort ? f.port_num(t.out[s]) : kNoPath);
        st.forced_entries += t.forced;
    };
    auto write_column = [&](const PortNum* col, std::uint32_t forced, Lid lid) {
        if (lft_lids.size() == kLids) flush_lft();
        lft_lids.push_back(lid);
        lft_cols.insert(lft_cols.end(), col, col + switches.size());
        st.forced_entries += forced;
    };
    const std::size_t n = cas.size();
    r.dlid_choice.assign(n * n, 0);
    // dlid_choice is filled by destination (a column), so a block of columns is gathered and
    // then copied row by row; pairs without a path (a CA to itself) get the base LID.
    constexpr std::size_t kBlock = 64;
    std::vector<Lid> block(kBlock * n, 0); // block[(di - b0) * n + si]
    auto flush = [&](std::size_t b0, std::size_t b1, std::size_t parts) { // rows split in parts
        std::vector<Lid> base_of(b1 - b0, 0);
        for (std::size_t t = b0; t < b1; ++t) {
            const PortId p = first_end_port(f, cas[t]);
            if (p != kNoPort) base_of[t - b0] = r.lids.base(p);
        }
        run_parts(parts, [&](std::size_t part) {
            for (std::size_t si = n * part / parts; si < n * (part + 1) / parts; ++si) {
                Lid* row = r.dlid_choice.data() + si * n;
                for (std::size_t t = b0; t < b1; ++t) {
                    Lid& x = block[(t - b0) * n + si];
                    row[t] = x != 0 ? x : base_of[t - b0];
                    x = 0;
                }
            }
        });
    };
    constexpr std::uint32_t kUnset = 0xffffffffu;
    // Two stages, one destination at a time (issue 12: the forwarding tables were 19 s on one
    // core at 16,384 hosts). The first decides: colouring, refits (they read and write `load`,
    // so destinations go in order) and each out tree's fixed entries. The second, on the
    // other core when there is one, completes the out trees and writes the LFT entries and
    // the dlid_choice column; it takes the destinations in the same order, and only it touches
    // r.lft, `block` and forced_entries, so the tables are those of one thread.
    struct OutJob {
        std::size_t di = 0;
        PortId target = kNoPort;
        std::vector<std::vector<PortId>> fixed; // per out tree j (the configuration's entries)
        std::vector<std::uint32_t> src;         // per path: its source CA
        std::vector<Lid> lid;                   // per path: its DLID
    };
    TreeCache out_cache(f, ud);
    auto write_out = [&](OutJob& job) {
        const std::size_t di = job.di;
        if (di % kBlock == 0 && di > 0) flush(di - kBlock, di, 1);
        out_cache.new_destination();
        if (job.target == kNoPort) return;
        const Lid base = r.lids.base(job.target);
        const std::uint32_t nl = 1u << r.lids.lmc(job.target);
        std::vector<const CompletedTree*> out_trees;
        for (std::vector<PortId>& fx : job.fixed)
            out_trees.push_back(out_cache.get(job.target, fx));
        for (std::uint32_t j = 0; j < nl; ++j)
            write(*out_trees[j % out_trees.size()], Lid(base + j));
        Lid* col = block.data() + (di % kBlock) * n;
        for (std::size_t i = 0; i < job.src.size(); ++i) col[job.src[i]] = job.lid[i];
    };
    struct Writer { // closed and joined on every way out, so an exception never meets a running one
        Channel<OutJob> jobs{32};
        Channel<OutJob> spent{64}; // handed back for reuse: a job's vectors are ~200 kB

        std::thread t;
        std::exception_ptr error;
        ~Writer() {
            jobs.close();
            if (t.joinable()) t.join();
        }
    } writer;
    if (worker_count(2) > 1)
        writer.t = std::thread([&] {
            try {
                OutJob job;
                while (writer.jobs.pop(job)) {
                    write_out(job);
                    writer.spent.push(std::move(job));
                }
            } catch (...) {
                writer.error = std::current_exception();
                writer.jobs.close();
            }
        });
    auto hand_over = [&](OutJob&& job) {
        if (!writer.t.joinable()) {
            write_out(job);
        } else if (!writer.jobs.push(std::move(job))) { // the writer failed
            writer.t.join();
            std::rethrow_exception(writer.error);
        }
    };
    TreeCache cache(f, ud);
    std::vector<std::vector<PortId>> fixed;
    std::vector<std::uint8_t> walked(f.num_nodes(), 0);
    // The fixed out edges of configuration j (fixed_entries) from the class representatives; false
    // when two of its paths leave a switch by different edges (then their order decides, and
    // the caller takes fixed_entries on the paths).
    auto add_fixed = [&](std::span<const PortId> p, std::vector<PortId>& fx) {
        for (PortId e : p) {
            const NodeId x = f.port_node(e);
            if (!f.node(x).is_switch()) continue;
            if (fx[x] != kNoPort && fx[x] != e) return false;
            fx[x] = e;
        }
        return true;
    };
    auto class_fixed = [&](const RouteClasses& rc, const std::vector<std::uint32_t>& cfg,
                           std::uint32_t j, std::vector<PortId>& fx) {
        fx.assign(f.num_nodes(), kNoPort);
        bool ok = true;
        for (std::size_t c = 0; c < cfg.size() && ok; ++c)
            if (cfg[c] == j) ok = add_fixed(rc.reps.path(c), fx);
        return ok;
    };
    auto walk_of = [&](const CompletedTree& t, PortId from, std::vector<PortId>& walk) {
        walk.assign(1, from);
        for (NodeId x = f.port(from).peer_node; x != kNoNode;) {
            const PortId e = t.out[x];
            walk.push_back(e);
            const NodeId nx = f.port(e).peer_node;
            x = f.node(nx).is_switch() ? nx : kNoNode;
        }
    };
    std::vector<std::uint32_t> cls_cfg, path_cfg, best_of;
    std::vector<PortId> walk;
    // The switch edges of refit tree j's walk from switch x, computed on first use per
    // destination: walk_at[j * num_nodes + x] = (offset in walk_edges, length).
    std::vector<const CompletedTree*> trees; // refit trees, configuration j
    std::vector<std::pair<std::uint32_t, std::uint32_t>> walk_at;
    std::vector<std::size_t> walk_used;
    std::vector<PortId> walk_edges;
    auto tree_walk = [&](std::uint32_t j, NodeId x) -> std::span<const PortId> {
        const std::size_t key = std::size_t(j) * f.num_nodes() + x;
        if (walk_at.size() <= key) walk_at.resize(key + 1, {kUnset, 0});
        if (walk_at[key].first == kUnset) {
            const auto at = static_cast<std::uint32_t>(walk_edges.size());
            for (NodeId y = x; y != kNoNode;) {
                const PortId e = trees[j]->out[y];
                walk_edges.push_back(e);
                const NodeId ny = f.port(e).peer_node;
                y = f.node(ny).is_switch() ? ny : kNoNode;
            }
            walk_at[key] = {at, static_cast<std::uint32_t>(walk_edges.size()) - at};
            walk_used.push_back(key);
        }
        return {walk_edges.data() + walk_at[key].first, walk_at[key].second};
    };
    for (std::size_t di = 0; di < n; ++di) {
        if ((di & 63) == 0) report("forwarding tables", double(di) / double(n));
        cache.new_destination();
        const RouteClasses rc = ca_paths_to.classes_to(di, src);
        const std::size_t np = rc.class_of.size(); // paths
        const NodeId dst = rc.reps.dst;
        std::optional<DestPaths> paths; // generated only when needed (stats, a rare fallback)
        auto all_paths = [&]() -> const DestPaths& {
            if (!paths) paths = ca_paths_to.to(di);
            return *paths;
        };
        const Assignment per_class = assign(rc);
        std::uint32_t k = per_class.k;
        const std::uint32_t cap = room[ca_index[dst]];
        const PortId target = first_end_port(f, dst);
        cls_cfg = per_class.config;
        best_of.assign(np, kUnset);
        trees.clear();
        DestPaths nd; // the final paths, only for stats
        if (k > cap) {
            ++st.refit_destinations;
            std::vector<std::uint64_t> size(k, 0);
            for (std::size_t c = 0; c < cls_cfg.size(); ++c) size[cls_cfg[c]] += rc.weight[c];
            std::vector<std::uint32_t> order(k);
            std::iota(order.begin(), order.end(), 0u);
            std::stable_sort(order.begin(), order.end(),
                             [&](std::uint32_t x, std::uint32_t y) { return size[x] > size[y]; });
            std::vector<std::uint32_t> renum(k, kUnset);
            for (std::uint32_t j = 0; j < cap; ++j) renum[order[j]] = j;
            for (std::uint32_t& c : cls_cfg) c = renum[c];
            path_cfg.resize(np);
            for (std::size_t i = 0; i < np; ++i) path_cfg[i] = cls_cfg[rc.class_of[i]];
            fixed.resize(cap);
            for (std::uint32_t j = 0; j < cap; ++j) {
                if (!class_fixed(rc, cls_cfg, j, fixed[j]))
                    fixed[j] = fixed_entries(f, all_paths(), path_cfg, j);
                trees.push_back(cache.get(target, fixed[j]));
            }
            nd.dst = dst;
            for (const std::size_t x : walk_used) walk_at[x] = {kUnset, 0};
            walk_used.clear();
            walk_edges.clear();
            for (std::size_t i = 0; i < np; ++i) {
                if (path_cfg[i] != kUnset) {
                    if (stats) nd.add(all_paths().path(i));
                    continue;
                }
                const PortId from = ca_port[src[i]];
                const auto tail = tail_of(rc, rc.class_of[i]);
                --load[from];
                for (PortId e : tail) --load[e];
                const NodeId leaf = f.port(from).peer_node;
                std::uint32_t best = kUnset, best_hops = graph::kFar;
                std::uint64_t best_load = ~0ull;
                for (std::uint32_t j = 0; j < cap; ++j) {
                    const std::uint32_t h = trees[j]->hops[leaf];
                    if (h == graph::kFar || h > best_hops) continue; // cannot win: skip the walk
                    std::uint64_t mx = load[from];
                    for (PortId e : tree_walk(j, leaf)) mx = std::max(mx, load[e]);
                    if (h < best_hops || (h == best_hops && mx < best_load)) {
                        best = j;
                        best_hops = h;
                        best_load = mx;
                    }
                }
                if (best == kUnset)
                    throw RoutingError(fmt::format("separate: no route to {} fits LMC {}",
                                                   f.node(dst).desc, r.lmc));
                const auto tw = tree_walk(best, leaf);
                ++load[from];
                for (PortId e : tw) ++load[e];
                st.refit_extra_hops += tw.size() > tail.size() ? tw.size() - tail.size() : 0;
                ++st.refit_paths;
                path_cfg[i] = best_of[i] = best;
                if (stats) {
                    walk.assign(1, from);
                    walk.insert(walk.end(), tw.begin(), tw.end());
                    nd.add(walk);
                }
            }
            k = cap;
        }
        OutJob job;
        writer.spent.try_pop(job);
        job.di = di;
        job.target = target;
        if (target != kNoPort) {
            const Lid base = r.lids.base(target);
            const std::uint32_t nl = 1u << r.lids.lmc(target);
            const std::uint32_t kk = std::max<std::uint32_t>(k, 1);
            job.fixed.resize(std::min(kk, nl));
            for (std::uint32_t j = 0; j < kk && j < nl; ++j) {
                std::vector<PortId>& fx = job.fixed[j];
                bool ok = class_fixed(rc, cls_cfg, j, fx);
                // The refitted paths of j follow its refit tree from their source switch.
                std::fill(walked.begin(), walked.end(), 0);
                for (std::size_t i = 0; i < np && ok; ++i) {
                    if (best_of[i] != j) continue;
                    const NodeId leaf = f.port(ca_port[src[i]]).peer_node;
                    if (walked[leaf]) continue;
                    walked[leaf] = 1;
                    ok = add_fixed(tree_walk(j, leaf), fx);
                }
                if (!ok) { // the paths in order, as fixed_entries does
                    fx.assign(f.num_nodes(), kNoPort);
                    const DestPaths& d = all_paths();
                    for (std::size_t i = 0; i < d.size(); ++i) {
                        const std::uint32_t c =
                            best_of[i] != kUnset ? best_of[i] : cls_cfg[rc.class_of[i]];
                        if (c != j) continue;
                        if (best_of[i] == kUnset) {
                            walk.assign(d.path(i).begin(), d.path(i).end());
                        } else {
                            walk_of(*trees[j], d.path(i)[0], walk);
                        }
                        for (PortId e : walk)
                            if (f.node(f.port_node(e)).is_switch()) fx[f.port_node(e)] = e;
                    }
                }
            }
            job.src.assign(src.begin(), src.begin() + np);
            job.lid.resize(np);
            for (std::size_t i = 0; i < np; ++i) {
                const std::uint32_t c = best_of[i] != kUnset ? best_of[i] : cls_cfg[rc.class_of[i]];
                job.lid[i] = static_cast<Lid>(base + c);
            }
        }
        hand_over(std::move(job));
        if (stats) st.paths.push_back(k == per_class.k ? all_paths() : std::move(nd));
    }
    if (writer.t.joinable()) {
        writer.jobs.close();
        writer.t.join();
        if (writer.error) std::rethrow_exception(writer.error);
    }
    if (n > 0) flush((n - 1) / kBlock * kBlock, n, worker_count(n, 4096));
    st.max_load_final = max_link_load(f, load);
    // Every other end port: CA ports besides the first, and switch port 0.
    if (port0.t.joinable()) {
        port0.t.join();
        if (port0.error) std::rethrow_exception(port0.error);
    } else {
        complete_port0();
    }
    for (PortId p = 0; p < f.num_port_slots(); ++p) {
        if (!r.lids.has_lid(p)) continue;
        const NodeId x = f.port_node(p);
        if (!f.node(x).is_switch() && p == first_end_port(f, x)) continue;
        if (!f.node(x).is_switch() && !f.port(p).connected()) continue;
        if (f.node(x).is_switch() && f.port_num(p) == 0) {
            const std::uint32_t k = port0_tree[x];
            for (std::uint32_t j = 0; j < (1u << r.lids.lmc(p)); ++j)
                write_column(port0_cols.data() + std::size_t(k) * switches.size(), port0_forced[k],
                             Lid(r.lids.base(p) + j));
            continue;
        }
        const CompletedTree t = complete_tree(f, ud, in_edges, p, none);
        for (std::uint32_t j = 0; j < (1u << r.lids.lmc(p)); ++j) write(t, Lid(r.lids.base(p) + j));
    }
    flush_lft();
    report("forwarding tables", 1.0);
    r.stats = {{"needed_lmc", st.needed_lmc},
               {"lids_color_l", double(st.lids_color_l)},
               {"refit_destinations", st.refit_destinations},
               {"refit_paths", double(st.refit_paths)},
               {"refit_extra_hops", double(st.refit_extra_hops)},
               {"max_link_load_selected", st.max_load_selected},
               {"max_link_load", st.max_load_final},
               {"forced_entries", double(st.forced_entries)}};
    return r;
}

namespace {

// The fabric renumbered by node GUID, so that the result does not depend on the order in
// which a file or opensm's subnet lists the nodes (the live plugin and `ibrt route` on the
// discovered topology must agree). nullopt when GUIDs are not unique and non-zero.
struct Canonical {
    Fabric g;
    std::vector<NodeId> to_orig, to_canon;
};

std::optional<Canonical> canonical(const Fabric& f) {
    std::vector<NodeId> order(f.num_nodes());
    std::iota(order.begin(), order.end(), NodeId{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](NodeId a, NodeId b) { return f.node(a).guid < f.node(b).guid; });
    for (std::size_t i = 0; i < order.size(); ++i)
        if (f.node(order[i]).guid == 0 ||
            (i > 0 && f.node(order[i]).guid == f.node(order[i - 1]).guid))
            return std::nullopt;
    FabricBuilder b;
    std::vector<NodeId> to_canon(f.num_nodes());
    for (NodeId n : order) {
        const Node& src = f.node(n);
        to_canon[n] = b.add_node(src.type, src.num_ports, src.guid, src.desc);
        for (PortNum p = 0; p <= src.num_ports; ++p)
            b.port(to_canon[n], p).guid = f.port(n, p).guid;
    }
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const Port& port = f.port(n, p);
            if (!port.connected()) continue;
            if (port.peer_node < n || (port.peer_node == n && port.peer_port < p)) continue;
            b.connect(to_canon[n], p, to_canon[port.peer_node], port.peer_port, port.width,
                      port.speed);
        }
    return Canonical{std::move(b).build(), std::move(order), std::move(to_canon)};
}

// Every switch and every cabled CA must be in one component: otherwise some (CA port, LID) pair
// has no route at all and the tables would fail `ibrt check` (issue 19), so decline.
void require_connected(const Fabric& f) {
    const Components comp = connected_components(f);
    if (comp.count <= 1) return;
    NodeId first = kNoNode;
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const Node& node = f.node(n);
        bool cabled = node.is_switch();
        for (PortNum p = 1; p <= node.num_ports && !cabled; ++p) cabled = f.port(n, p).connected();
        if (!cabled) continue;
        if (first == kNoNode) {
            first = n;
        } else if (comp.of_node[n] != comp.of_node[first]) {
            throw RoutingError(fmt::format(
                "separate: the fabric is disconnected ({} components): {} is not connected to {}",
                comp.count, display_name(f, n), display_name(f, first)));
        }
    }
}

} // namespace

Routing route_separate(const Fabric& f, const Lids* preassigned, const EngineOptions& opt,
                       SeparateStats* stats) {
    require_connected(f);
    const std::optional<Canonical> c = canonical(f);
    if (!c) return route_in_order(f, preassigned, opt, stats);
    const Fabric& g = c->g;
    auto port_to_canon = [&](PortId p) {
        return g.port_id(c->to_canon[f.port_node(p)], f.port_num(p));
    };
    auto port_to_orig = [&](PortId p) {
        return f.port_id(c->to_orig[g.port_node(p)], g.port_num(p));
    };
    std::optional<Lids> pre;
    if (preassigned) {
        pre.emplace(g);
        for (PortId p = 0; p < f.num_port_slots(); ++p)
            if (preassigned->has_lid(p))
                pre->assign(port_to_canon(p), preassigned->base(p), preassigned->lmc(p));
    }
    Routing rc = route_in_order(g, pre ? &*pre : nullptr, opt, stats);
    // Already in GUID order (ibrt gen's fabrics): nothing to map back (the per-pair table alone
    // is 268 M entries at 16,384 hosts).
    bool identity = true;
    for (NodeId n = 0; n < f.num_nodes() && identity; ++n) identity = c->to_orig[n] == n;
    if (identity) return rc;
    Routing r;
    r.lmc = rc.lmc;
    r.stats = rc.stats;
    r.lids = Lids(f);
    for (PortId p = 0; p < g.num_port_slots(); ++p)
        if (rc.lids.has_lid(p)) r.lids.assign(port_to_orig(p), rc.lids.base(p), rc.lids.lmc(p));
    r.lft.assign(f.num_nodes(), {});
    for (NodeId n = 0; n < f.num_nodes(); ++n) r.lft[n] = rc.lft[c->to_canon[n]];
    const auto cas = f.cas(), gcas = g.cas();
    std::vector<std::size_t> gidx(g.num_nodes(), 0);
    for (std::size_t i = 0; i < gcas.size(); ++i) gidx[gcas[i]] = i;
    std::vector<std::size_t> ci(cas.size());
    for (std::size_t i = 0; i < cas.size(); ++i) ci[i] = gidx[c->to_canon[cas[i]]];
    r.dlid_choice.assign(cas.size() * cas.size(), 0);
    for (std::size_t i = 0; i < cas.size(); ++i)
        for (std::size_t j = 0; j < cas.size(); ++j)
            r.dlid_choice[i * cas.size() + j] = rc.dlid_choice[ci[i] * cas.size() + ci[j]];
    if (stats)
        for (DestPaths& d : stats->paths) {
            d.dst = c->to_orig[d.dst];
            for (PortId& e : d.edges) e = port_to_orig(e);
        }
    return r;
}

} // namespace separate

namespace {
class SeparateEngine final : public Engine {
  public:
    std::string_view name() const override { return "separate"; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        return separate::route_separate(f, preassigned, opt);
    }
};
} // namespace

std::unique_ptr<Engine> make_separate_engine() {
    return std::make_unique<SeparateEngine>();
}

} // namespace ibrt
