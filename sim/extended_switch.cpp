// The extended switch (docs/sim-model.md): routing by forwarding sets, candidate outputs by
// priority class with their VLs (VL2VL), and the selection functions that choose among them
// (paper 004 §3; paper 003 §3.1), bound when the packet reaches the head of its buffer.
#include "sim/network.hpp"

namespace ibrt::sim::detail {

template <class Model>
void Network<Model>::on_ready_adaptive(std::uint32_t h, PortId d, std::uint32_t entry) {
    Packet& p = pkts_[h];
    const Slot& in = slots_[d];
    const NodeId m = in.node;
    const PortNum inp = in.pnum;
    const PortId first = d - inp;
    if (p.hops > cfg_.max_hops) return drop(h, d);
    const std::uint32_t set =
        entry != RoutingFunction::kNoEntry ? rf_->entry(entry) : rf_->lookup(m, p.vl, inp, p.dlid);
    if (set == RoutingFunction::kNoSet) return drop(h, d);
    const auto cands = candidates(set);
    // A candidate without a cable or on a VL the ports do not run is none; a set with none
    // drops the packet here, as an LFT entry to nowhere does.
    bool any = false;
    for (const Candidate& c : cands)
        if (c.port != 0 && c.port <= in.nports && cabled(m, first, c.port) &&
            candidate_vl(m, in.nports, inp, c.port, p) < V_) {
            any = true;
            break;
        }
    if (!any) return drop(h, d);
    const std::uint32_t b = d * V_ + p.vl;
    if (cands.size() == 1) {
        p.out = first + cands[0].port;
        p.out_vl = candidate_vl(m, in.nports, inp, cands[0].port, p);
        if (cc_) cc_bound(p);
        if (push_fifo(b, h)) head_bound(p.out, inp, p.out_vl, p.credits);
        return;
    }
    cset_[h] = set;
    p.out = kNoPort; // unbound
    if (cfg_.select_at == SimConfig::SelectAt::Entry) {
        // Chosen now, from what the packet sees entering the buffer; bound at the head.
        std::uint64_t ports = 0;
        early_pick_[h] =
            choose(p, d, cands, view_candidates(d, cands, vl_or_sl(p), p.credits, ports));
    }
    if (push_fifo(b, h)) bind_head(b);
}

template <class Model> bool Network<Model>::bind_head(std::uint32_t b) {
    Buf& q = bufs_[b];
    if (q.head == kNil || q.out != kNoPort) return false;
    Packet& p = pkts_[q.head];
    const PortId i = slot_of(b);
    const Slot& in = slots_[i];
    const NodeId m = in.node;
    const PortId first = i - in.pnum;
    const auto cands = candidates(cset_[q.head]);
    // A head refused again is judged from its buffer alone (its VL, its credits): the packet
    // is read once it is bound.
    const std::uint8_t vl_or_sl = vl_or_sl_at(p, b);
    std::uint64_t ports = 0;
    const int best = view_candidates(i, cands, vl_or_sl, q.need, ports);
    // unbound_vls_ says what unbound_ports_[b] != 0 says, from a line the switch's heads share.
    const std::uint16_t vl_bit = std::uint16_t(1u << vl_of(b));
    if (best == 256) {
        if (!(unbound_vls_[i] & vl_bit)) {
            // A VC router's VC also frees when its allocation gap ends, with no event of that
            // output in between: such heads are offered at every rebind, as are those on
            // switches of more than 64 ports.
            unbound_ports_[b] = kVcRouter || ports == 0 ? ~0ull : ports;
            unbound_vls_[i] |= vl_bit;
            ++unbound_[m];
            if (!want_.empty()) {
                const std::uint64_t all = in.nports == 64 ? ~0ull : (1ull << in.nports) - 1;
                const std::uint64_t in_bit = 1ull << (in.pnum - 1);
                for (std::uint64_t w = unbound_ports_[b] & all; w; w &= w - 1)
                    want_[first + 1 + unsigned(std::countr_zero(w))] |= in_bit;
            }
        }
        return false;
    }
    // Chosen earlier (oblivious selections only, so the choice is in the best class still).
    const std::uint32_t pick = early_ ? early_pick_[q.head] : choose(p, i, cands, best);
    ++routed_[m];
    if (unbound_vls_[i] & vl_bit) {
        unbound_ports_[b] = 0;
        unbound_vls_[i] &= std::uint16_t(~vl_bit);
        --unbound_[m];
    }
    const PortId o = first + cands[pick].port;
    p.out = o;
    p.out_vl = cand_vls_[pick];
    if (cc_) cc_bound(p);
    cache_head(q);
    head_bound(o, in.pnum, p.out_vl, p.credits);
    return true;
}

// SimConfig::SelectAt::Sent: the choice at the switch the packet is sent to, made now from its
// state, as BookSim's lookahead routing does (routing_delay = 0: the upstream router routes
// the flit for the next hop when it sends it). A set without a usable candidate is left to
// on_ready_adaptive, which drops the packet.
template <class Model>
void Network<Model>::choose_when_sent(std::uint32_t h, PortId d, std::uint32_t entry) {
    const Packet& p = pkts_[h];
    early_pick_[h] = 0; // a set of one, or one left to on_ready_adaptive: never a stale pick
    const std::uint32_t set = entry != RoutingFunction::kNoEntry
                                  ? rf_->entry(entry)
                                  : rf_->lookup(slots_[d].node, p.vl, slots_[d].pnum, p.dlid);
    if (set == RoutingFunction::kNoSet) return;
    const auto cands = candidates(set);
    if (cands.size() < 2) return;
    std::uint64_t ports = 0;
    const int best = view_candidates(d, cands, vl_or_sl(p), p.credits, ports);
    if (best != 256) early_pick_[h] = choose(p, d, cands, best);
}

template <class Model>
int Network<Model>::view_candidates(PortId in_slot, std::span<const Candidate> cands,
                                    std::uint8_t vl_or_sl, std::int32_t need,
                                    std::uint64_t& ports) {
    const Slot& in = slots_[in_slot];
    const PortId first = in_slot - in.pnum;
    // Entries past the first worse class are left as they were: choose reads the best class
    // alone, which comes before it.
    if (views_.size() < cands.size()) {
        views_.resize(cands.size());
        cand_vls_.resize(cands.size());
    }
    // The best priority class with a candidate that can take the packet (nca, anca: with a
    // candidate: the packet waits for the one drawn).
    const bool oblivious = is_oblivious(cfg_.selection);
    const bool every_class = sees_every_class(cfg_.selection);
    int best = 256;
    for (std::size_t j = 0; j < cands.size(); ++j) {
        // A candidate of a worse class than one that can take the packet is never chosen
        // (choose reads the best class alone, but for UGAL), and the candidates come by class
        // (candidates()): none after it can be. Its ports are read only when none fits.
        if (cands[j].priority > best && !every_class) break;
        views_[j] = CandidateView{};
        cand_vls_[j] = 0;
        const PortNum outp = cands[j].port;
        if (outp == 0 || outp > in.nports || !cabled(in.node, first, outp)) continue;
        // VC-router mode: the class, any free VC of its range takes the packet.
        const std::uint8_t ovl = candidate_vl_by(in.node, in.nports, in.pnum, outp, vl_or_sl);
        cand_vls_[j] = ovl;
        if (ovl >= V_) continue;
        ports |= outp <= 64 ? 1ull << (outp - 1) : ~0ull;
        if (oblivious) {           // blind to room: the output's line is not read
            views_[j].fits = true; // usable: what UGAL gathers
            best = std::min<int>(best, cands[j].priority);
            continue;
        }
        // A VC router's head takes a free VC of its class; with output buffers, room there.
        views_[j].fits = kVcRouter && !kOutputBuffers
                             ? vc_free(first + outp, std::uint32_t(need), ovl)
                             : room(first + outp, ovl) >= need;
        if (views_[j].fits) best = std::min<int>(best, cands[j].priority);
    }
    return best;
}

template <class Model>
std::uint32_t Network<Model>::choose(const Packet& p, PortId in_slot,
                                     std::span<const Candidate> cands, int best) {
    if (cfg_.selection == Selection::Oblivious) {
        // BookSim's nca: select_candidate's uniform draw over the best class, which reads no
        // view, so none is gathered. The candidates come by class: the class is one run.
        std::uint32_t j = 0, k = 0;
        while (cands[j].priority != best) ++j;
        while (j + k < cands.size() && cands[j + k].priority == best) ++k;
        return j + std::uint32_t(selection_rng_.below(k));
    }
    const Slot& in = slots_[in_slot];
    const NodeId m = in.node;
    const PortId first = in_slot - in.pnum;
    class_idx_.clear();
    class_views_.clear();
    // Only the load-based functions read credits and queues (two more cache lines per
    // candidate); the preferred-link ones need the room test alone.
    const bool load = uses_load(cfg_.selection);
    const bool anca = cfg_.selection == Selection::TwoRandomOblivious;
    const bool ugal = cfg_.selection == Selection::Ugal;
    // anca: the downstream buffer's capacity over its VLs, less what it holds, is its room.
    const auto cap_all = std::int32_t(V_ * (cfg_.buffer_bytes / cfg_.credit_unit));
    for (std::size_t j = 0; j < cands.size(); ++j) {
        // UGAL sees every usable candidate of every class (in class order), the others the
        // best class alone.
        if (ugal ? !views_[j].fits : cands[j].priority != best) continue;
        CandidateView v = views_[j];
        const PortId o = first + cands[j].port;
        if (load && cands[j].port != 0 && cands[j].port <= in.nports) {
            // The link's credits not yet claimed: downstream credits, less what already
            // waits in the output buffer for them. BookSim's anca reads the downstream
            // buffer's occupancy alone (GetUsedCredit), blind to packets routed to the output
            // and still waiting for it.
            if (anca || ugal) {
                v.used_all = used_credits(o);
                v.room_all = cap_all - v.used_all;
                v.priority = cands[j].priority;
            } else {
                v.room_all = room_all_[o];
            }
            if (cfg_.selection == Selection::LeastLoaded) // another cache line per candidate
                v.queued = slots_[o].waiting + slots_[o].busy;
        }
        class_idx_.push_back(std::uint32_t(j));
        class_views_.push_back(v);
    }
    SelectionKey key;
    key.counter = routed_[m];
    key.hops = p.hops;
    // Only the preferred-link functions read the coordinates (three more tables to read).
    if (const TreeCoords& t = rf_->tree; !t.empty() && needs_tree_coords(cfg_.selection)) {
        key.switch_digit = t.switch_digit[m];
        key.source_digit0 = t.ca_digit(p.src, 1);
        key.dest_digit0 = t.ca_digit(p.dst, 1);
        const unsigned level = t.level[m];
        key.dest_stage_digit = level >= 1 && level <= t.height ? t.ca_digit(p.dst, level) : 0;
    }
    return class_idx_[select_candidate(cfg_.selection, class_views_, key, selection_rng_)];
}

template <class Model> void Network<Model>::vl2vl_setup() {
    vl2vl_by_vl_ = !rf_->vl2vl.empty() && rf_->vl_by_in_vl;
    vlx_begin_.assign(f_.num_nodes(), 0);
    vlx_row_.clear();
    vlx_pool_.clear();
    vlx_width_ = 1;
    for (NodeId n = 0; n < f_.num_nodes(); ++n)
        vlx_width_ = std::max<std::uint32_t>(vlx_width_, f_.node(n).num_ports + 1u);
    vlx_rows_.clear();
    const auto give_up = [&] { // too many to name: read the tables
        vlx_begin_.clear();
        vlx_row_.clear();
        vlx_rows_.clear();
        vlx_pool_.clear();
    };
    std::map<Sl2VlTable, std::uint8_t> pool;
    std::map<std::vector<std::uint8_t>, std::uint16_t> rows;
    std::vector<std::uint8_t> row(vlx_width_);
    Sl2VlTable t{};
    std::uint8_t last = 0;
    for (NodeId n = 0; n < f_.num_nodes(); ++n) {
        const PortNum np = f_.node(n).num_ports;
        vlx_begin_[n] = std::uint32_t(vlx_row_.size());
        for (std::uint32_t in = 0; in <= np; ++in) {
            std::fill(row.begin(), row.end(), std::uint8_t(0));
            for (std::uint32_t out = 0; out <= np; ++out) {
                // What the tables say, key by key (the reading of candidate_vl without these).
                for (std::uint8_t k = 0; k < 16; ++k)
                    t[k] =
                        rf_->vl2vl.empty()
                            ? (sl_mod_vls_ ? sl_vl(k) : vl_at(n, np, PortNum(in), PortNum(out), k))
                            : rf_->vl2vl.vl(n, np, PortNum(in), PortNum(out), k, V_);
                if (vlx_pool_.empty() || vlx_pool_[last] != t) {
                    const auto [it, added] = pool.try_emplace(t, std::uint8_t(vlx_pool_.size()));
                    if (added) {
                        if (vlx_pool_.size() == 256) return give_up();
                        vlx_pool_.push_back(t);
                    }
                    last = it->second;
                }
                row[out] = last;
            }
            const auto [it, added] = rows.try_emplace(row, std::uint16_t(rows.size()));
            if (added) {
                if (rows.size() > 0x10000) return give_up();
                vlx_rows_.insert(vlx_rows_.end(), row.begin(), row.end());
            }
            vlx_row_.push_back(it->second);
        }
    }
}

template <class Model> void Network<Model>::by_class_setup() {
    set_lines_.clear();
    by_class_begin_.clear();
    by_class_.clear();
    const auto by_priority = [](const Candidate& a, const Candidate& b) {
        return a.priority < b.priority;
    };
    const bool one_class = cfg_.one_priority_class;
    const auto copy_classed = [one_class](std::span<const Candidate> set, Candidate* out) {
        std::copy(set.begin(), set.end(), out);
        if (one_class)
            for (std::size_t k = 0; k < set.size(); ++k) out[k].priority = 0;
    };
    std::size_t largest = 0;
    bool sorted = true;
    for (std::uint32_t id = 0; id < rf_->num_sets(); ++id) {
        const auto set = rf_->set(id);
        largest = std::max(largest, set.size());
        sorted = sorted && std::is_sorted(set.begin(), set.end(), by_priority);
    }
    if (largest <= std::size(SetLine{}.c)) {
        set_lines_.resize(rf_->num_sets());
        for (std::uint32_t id = 0; id < rf_->num_sets(); ++id) {
            const auto set = rf_->set(id);
            SetLine& line = set_lines_[id];
            line.n = std::uint8_t(set.size());
            copy_classed(set, line.c);
            std::stable_sort(line.c, line.c + line.n, by_priority);
        }
        return;
    }
    if (sorted && !one_class) return;
    by_class_begin_.reserve(rf_->num_sets() + 1);
    for (std::uint32_t id = 0; id < rf_->num_sets(); ++id) {
        by_class_begin_.push_back(std::uint32_t(by_class_.size()));
        const auto set = rf_->set(id);
        by_class_.resize(by_class_.size() + set.size());
        copy_classed(set, by_class_.data() + by_class_begin_.back());
        std::stable_sort(by_class_.end() - std::ptrdiff_t(set.size()), by_class_.end(),
                         by_priority);
    }
    by_class_begin_.push_back(std::uint32_t(by_class_.size()));
}

template <class Model> void Network<Model>::source_tables_setup() {
    if (const PathSlTable& t = rf_->source_sls; !t.empty()) {
        // The table answers SL 0 from its row's end on: so does generate.
        src_sl_width_ = std::uint32_t(r_.lids.max_lid()) + 1;
        src_sl_row_.resize(N_);
        std::map<std::uint32_t, std::uint32_t> copied; // the table's row -> ours
        for (std::uint32_t ca = 0; ca < N_; ++ca) {
            const auto [it, added] =
                copied.try_emplace(t.row_of(ca_out_[ca]), std::uint32_t(copied.size()));
            if (added)
                for (std::uint32_t dlid = 0; dlid < src_sl_width_; ++dlid)
                    src_sl_rows_.push_back(t.sl(ca_out_[ca], Lid(dlid)));
            src_sl_row_[ca] = it->second;
        }
    }
    std::map<Sl2VlTable, std::uint8_t> pool;
    src_vlt_.resize(N_);
    for (std::uint32_t ca = 0; ca < N_; ++ca) {
        Sl2VlTable t{};
        for (std::uint8_t k = 0; k < 16; ++k) t[k] = source_vl(ca, k);
        const auto [it, added] = pool.try_emplace(t, std::uint8_t(src_vl_pool_.size()));
        if (added) {
            if (src_vl_pool_.size() == 256) { // too many to name in a byte: read the tables
                src_vlt_.clear();
                src_vl_pool_.clear();
                return;
            }
            src_vl_pool_.push_back(t);
        }
        src_vlt_[ca] = it->second;
    }
}

// An output of this switch gained room: offer it to the heads nothing could take that have it
// among their candidates, input ports in turn from a rotating start so that no input is always
// first. The others would be refused (unbound_ports_), so the bindings are those of offering
// every unbound head.
template <class Model> void Network<Model>::rebind(PortId output) {
    const NodeId m = slots_[output].node;
    const PortNum op = slots_[output].pnum;
    const std::uint32_t np = slots_[output].nports;
    const std::uint64_t bit = op <= 64 ? 1ull << (op - 1) : ~0ull;
    const std::uint32_t start = rebind_rr_[m];
    rebind_rr_[m] = start + 1 == np ? 0 : start + 1;
    const PortId first = output - op;
    if (want_.empty()) {
        for (std::uint32_t k = 0; k < np && unbound_[m]; ++k)
            rebind_input(output, first + 1 + (start + k) % np, bit);
        return;
    }
    // The same visits in the same order (ports start + 1 .. np, then 1 .. start), skipping the
    // inputs want_ rules out; read afresh after each visit, since binding a head may bind or
    // refuse others. An input found without such a head leaves want_ (nothing changed there).
    std::uint32_t j = start, end = np;
    for (bool wrapped = false; unbound_[m];) {
        const std::uint64_t w = j < end ? want_[output] >> j : 0;
        if (w != 0 && (j += std::uint32_t(std::countr_zero(w))) < end) {
            if (!rebind_input(output, first + 1 + j, bit)) want_[output] &= ~(1ull << j);
            ++j;
            continue;
        }
        if (wrapped) break;
        wrapped = true;
        j = 0;
        end = start;
    }
}

template <class Model>
bool Network<Model>::rebind_input(PortId output, PortId i, std::uint64_t bit) {
    const NodeId m = slots_[output].node;
    const PortNum op = slots_[output].pnum;
    const std::uint32_t np = slots_[output].nports;
    bool found = false;
    for (std::uint32_t v = 0; v < V_; ++v) {
        // The next VL with such a head, read afresh: binding one may bind or refuse others.
        const std::uint32_t left = std::uint32_t(unbound_vls_[i]) >> v;
        if (!left) break;
        v += std::uint32_t(std::countr_zero(left));
        const std::uint32_t b = i * V_ + v;
        if (!(unbound_ports_[b] & bit)) continue;
        found = true;
        // Its other candidates had no room when it was last refused and have gained none
        // since: without room for it here either, it would be refused again. (A VC
        // router's heads take any free VC, its own test.)
        // With VL2VL by input VL the VL it would take here is known from the buffer: only
        // room on that one can change the verdict.
        if (vl2vl_by_vl_ && !kVcRouter) {
            const std::uint8_t ovl =
                candidate_vl_by(m, PortNum(np), slots_[i].pnum, op, std::uint8_t(v));
            if (ovl >= V_ || room(output, ovl) < std::int32_t(bufs_[b].need)) continue;
        } else if (!kVcRouter || kOutputBuffers) {
            bool fits = false;
            for (std::uint32_t x = 0; x < V_ && !fits; ++x)
                fits = room(output, x) >= std::int32_t(bufs_[b].need);
            if (!fits) continue;
        }
        bind_head(b);
    }
    return found;
}

#define IBRT_SIM_INSTANTIATE(M) template class Network<M>;
IBRT_SIM_FOR_EACH_SWITCH_MODEL(IBRT_SIM_INSTANTIATE)
#undef IBRT_SIM_INSTANTIATE

} // namespace ibrt::sim::detail
