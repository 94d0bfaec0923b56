// The network's set-up (sim/network.hpp): the configuration checked against the fabric and the
// routing, then every flat array the event loop reads (ports' slots, buffers, credits per VL,
// the tables in the loop's own forms) sized and filled once, so that the run allocates nothing
// per packet. Cold code, apart from the loop's.
#include "sim/network.hpp"

namespace ibrt::sim::detail {

std::vector<PortId> sim_endpoints(const Fabric& f, const Lids& lids) {
    for (const NodeId n : f.cas())
        if (first_end_port(f, n, &lids) == kNoPort) {
            const PortId cabled = first_end_port(f, n);
            if (cabled == kNoPort)
                throw std::invalid_argument(display_name(f, n) + " has no cable");
            throw std::invalid_argument(display_port(f, n, f.port_num(cabled)) + " has no LID");
        }
    return all_end_ports(f, &lids);
}

template <class Model> void Network<Model>::setup() {
    check_config(cfg_);

    // The events scheduled a (mostly) constant delay ahead: see EventQueue's lanes.
    for (EventType t : {kReady, kDeliver, kOutFree, kCredit}) q_.add_lane(t);
    becn_lanes_ = cfg_.cc.on && !cfg_.cc.becn_delay_ps;
    if (becn_lanes_)
        for (EventType t : {kDeliverBecn, kOutFreeBecn}) q_.add_lane(t);
    if (cfg_.output_buffer_bytes > 0)
        for (EventType t : {kXbarFree, kLinkFree}) q_.add_lane(t);
    if (kVcRouter && cfg_.vc_alloc_gap_ps) q_.add_lane(kVcRetry); // a gap after each link-free
    vlarb_ = effective_vlarb(cfg_);
    fly_ = cfg_.fly_ps;
    credit_delay_ = credit_delay_of(cfg_);
    win_lo_ = cfg_.warmup_ps;
    win_hi_ = cfg_.warmup_ps + cfg_.measure_ps;
    gen_batch_.end = acc_batch_.end = win_lo_ + (win_hi_ - win_lo_) / kBatches;
    end_ = win_hi_ + cfg_.drain_ps;

    const std::size_t P = f_.num_port_slots();
    slots_.assign(P, Slot{});
    arb_.assign(P, VlArbState{});
    bufs_.assign(P * V_, Buf{});
    link_vl_.assign(P * V_, LinkVl{});
    // The slots and the links' credits beyond an L2 cache (2 MB on this project's machines,
    // 1 MB on many): the 16,384-host FlatFly has 12 MB of them at 2 VLs, BookSim's 4-ary
    // 4-tree 0.2 MB.
    prefetch_next_ = P * (sizeof(Slot) + V_ * sizeof(LinkVl)) > (std::size_t(1) << 20);
    busy_seen_.assign((kOutputBuffers ? 2 : 1) * P * V_, 0);
    if constexpr (kOutputBuffers) {
        opopped_.assign(P * V_, 0);
        ohead_.assign(P * V_, kNil);
        otail_.assign(P * V_, kNil);
        ocap_ = std::int32_t(cfg_.output_buffer_bytes / cfg_.credit_unit);
        ocredits_.assign(P * V_, ocap_);
    }
    is_switch_.assign(f_.num_nodes(), 0);
    const auto cap = std::int32_t(cfg_.buffer_bytes / cfg_.credit_unit);
    for (NodeId n = 0; n < f_.num_nodes(); ++n) {
        is_switch_[n] = f_.node(n).is_switch();
        if (is_switch_[n] && f_.node(n).num_ports > 64) use_req_ = false;
        for (PortNum p = 0; p <= f_.node(n).num_ports; ++p) {
            Slot& x = slots_[f_.port_id(n, p)];
            x.sw = is_switch_[n];
            x.node = n;
            x.pnum = p;
            x.nports = f_.node(n).num_ports;
        }
        for (PortNum p = 1; p <= f_.node(n).num_ports; ++p) {
            const Port& port = f_.port(n, p);
            if (!port.connected()) continue;
            const PortId s = f_.port_id(n, p);
            slots_[s].peer = f_.port_id(port.peer_node, port.peer_port);
            slots_[s].peer_sw = f_.node(port.peer_node).is_switch();
            if (slots_[s].peer_sw) slots_[s].peer_row = flat_.row(port.peer_node);
            slots_[s].ppb = link_ps_per_byte(port, cfg_);
            for (std::uint32_t v = 0; v < V_; ++v) link_vl_[s * V_ + v].credits = cap;
        }
    }

    N_ = std::uint32_t(ca_out_.size());
    if (N_ > 0x10000)
        throw std::invalid_argument(std::to_string(N_) +
                                    " end ports: the simulator takes up to "
                                    "65536 (a subnet has 49,151 unicast LIDs)");
    ep_of_slot_.assign(f_.num_port_slots(), kNil);
    for (std::uint32_t i = 0; i < N_; ++i) {
        const PortId out = ca_out_[i];
        ca_node_.push_back(f_.port_node(out));
        ep_of_slot_[out] = i;
        ca_base_.push_back(r_.lids.base(out));
        ca_lmc_.push_back(r_.lids.lmc(out));
        src_.emplace_back(cfg_.seed * 0x9e3779b97f4a7c15ull + i);
    }
    // Path selection is a table per CA (fabric/routing.hpp): it names the route of each CA's
    // first end port; a CA's other end ports send to, and are reached by, base LIDs.
    const std::size_t C = f_.cas().size();
    if (!r_.dlid_choice.empty() && r_.dlid_choice.size() != C * C)
        throw std::invalid_argument("path selection has " + std::to_string(r_.dlid_choice.size()) +
                                    " entries, expected " + std::to_string(C) + "^2");
    if (N_ == C || r_.dlid_choice.empty()) {
        choice_ = r_.dlid_choice; // every CA one end port: the same numbering
    } else {
        std::vector<std::uint32_t> ca_row(N_, kNil); // endpoint -> its CA, if its first end port
        for (std::uint32_t c = 0; c < C; ++c)
            ca_row[ep_of_slot_[first_end_port(f_, f_.cas()[c], &r_.lids)]] = c;
        ep_dlid_.assign(std::size_t(N_) * N_, 0);
        for (std::uint32_t i = 0; i < N_; ++i)
            for (std::uint32_t j = 0; j < N_; ++j)
                if (ca_row[i] != kNil && ca_row[j] != kNil)
                    ep_dlid_[std::size_t(i) * N_ + j] = r_.dlid_choice[ca_row[i] * C + ca_row[j]];
        choice_ = ep_dlid_;
    }
    const Time min_period = min_deadlock_period_ps(f_, cfg_);
    transit_ps_ = min_period - 2 * credit_delay_;
    if (cfg_.deadlock_ps == 0) {
        Time slow = 0;
        for (const Slot& x : slots_) slow = std::max<Time>(slow, x.ppb);
        // No hop anywhere for 100 packet times (and 10 routing + credit round trips) while
        // packets are inside cannot be congestion: some buffer would have drained.
        deadlock_ps_ = std::max({100 * Time(cfg_.packet_bytes) * std::max<Time>(slow, 1),
                                 10 * (cfg_.routing_ps + fly_ + credit_delay_), min_period});
    } else if (cfg_.deadlock_ps < min_period) {
        throw std::invalid_argument(
            "a deadlock watchdog period of " + us_text(cfg_.deadlock_ps) + " us is below the " +
            us_text(min_period) +
            " us this configuration needs to tell a stall from a packet in transit (twice "
            "serialization on the slowest link + fly + routing + credit delay)");
    } else {
        deadlock_ps_ = cfg_.deadlock_ps;
    }
    dlid_ = resolve_dlid_policy(cfg_.dlid, f_, r_);
    // DRB's original path is the path selection's or the base LID, never a random one.
    if (cfg_.drb.on && cfg_.dlid == DlidPolicy::Auto)
        dlid_ = r_.dlid_choice.empty() ? DlidPolicy::Base : DlidPolicy::Table;
    if (cfg_.via != Via::None) {
        if (r_.forwarding_sets)
            throw std::invalid_argument("--via " + std::string(to_string(cfg_.via)) +
                                        " follows the LFTs: not with an engine's forwarding sets");
        std::vector<NodeId> ca_switch(N_);
        for (std::uint32_t i = 0; i < N_; ++i) ca_switch[i] = slots_[slots_[ca_out_[i]].peer].node;
        via_.emplace(f_, r_, cfg_.via, cfg_.num_vls, cfg_.seed, std::move(ca_switch), ca_base_);
    }
    if constexpr (kVcRouter) vc_router_setup();
    if (rf_) {
        if (needs_tree_coords(cfg_.selection) && rf_->tree.empty())
            throw std::invalid_argument("selection function " +
                                        std::string(to_string(cfg_.selection)) +
                                        " needs fat-tree coordinates, which these forwarding "
                                        "sets do not have");
        if (rf_->tree.level.size() > 0 &&
            (rf_->tree.level.size() != f_.num_nodes() ||
             rf_->tree.ca_digits.size() != std::size_t(N_) * rf_->tree.height))
            throw std::invalid_argument("the forwarding sets' tree coordinates are not this "
                                        "fabric's");
        unbound_ports_.assign(bufs_.size(), 0);
        unbound_vls_.assign(slots_.size(), 0);
        ov_.assign(bufs_.size(), OutVl{});
        room_all_.assign(slots_.size(), 0);
        for (PortId o = 0; o < slots_.size(); ++o)
            for (std::uint32_t v = 0; v < V_; ++v) {
                const std::size_t i = std::size_t(o) * V_ + v;
                ov_[i].avail = kOutputBuffers && slots_[o].sw ? ocredits_[i] : link_vl_[i].credits;
                room_all_[o] += link_vl_[i].credits - (kOutputBuffers ? ocap_ - ocredits_[i] : 0);
            }
        unbound_.assign(f_.num_nodes(), 0);
        routed_.assign(f_.num_nodes(), 0);
        rebind_rr_.assign(f_.num_nodes(), 0);
        want_.assign(use_req_ ? slots_.size() : 0, 0);
        by_class_setup();
        selection_rng_ = gen::Rng(cfg_.seed ^ 0x73656c6563742121ull); // "select!!"
        vl2vl_setup();
        rf_base_.assign(P * V_, RoutingFunction::kNoEntry);
        for (PortId s = 0; s < P; ++s)
            if (slots_[s].sw)
                for (std::uint32_t v = 0; v < V_; ++v)
                    rf_base_[s * V_ + v] = rf_->entry_index(slots_[s].node, v, slots_[s].pnum, 0);
        source_tables_setup();
        cabled_.assign(f_.num_nodes(), 0);
        for (NodeId n = 0; n < f_.num_nodes() && !cabled_.empty(); ++n) {
            if (f_.node(n).num_ports > 64) cabled_.clear(); // read the slots
            for (PortNum q = 1; q <= f_.node(n).num_ports && !cabled_.empty(); ++q)
                if (slots_[f_.port_id(n, q)].peer != kNoPort) cabled_[n] |= 1ull << (q - 1);
        }
    }

    latency_rng_ = gen::Rng(cfg_.seed ^ 0x6c6174656e6379ull); // "latency"
    log1p_load_ = std::log1p(-cfg_.traffic.load);
    for (const auto& t : cfg_.trace)
        if (t.src >= N_ || t.dst >= N_)
            throw std::invalid_argument("trace message names an end node out of range");
    flow_stats_ = cfg_.flow_stats;
    cc_or_flows_ = cc_ || flow_stats_;
    if (cc_) cc_setup();
    becn_dlid_table_ = cc_ && !cfg_.cc.becn_delay_ps && dlid_ == DlidPolicy::Table &&
                       !r_.dlid_choice.empty() && std::size_t(N_) * N_ < 0xffffffffu;
    if (cfg_.drb.on) {
        if (!cc_)
            throw std::invalid_argument(
                "DRB needs congestion control's FECN marking and BECNs: give an opensm.conf with "
                "congestion_control TRUE (for DRB alone, without injection throttling, turn the "
                "injection delay off)");
        if (dlid_ == DlidPolicy::Random)
            throw std::invalid_argument("DRB chooses among a destination's LIDs itself: it "
                                        "cannot run with random DLIDs (use --dlid table or base)");
        drb_.emplace(
            cfg_.drb, cfg_.seed,
            [this](std::uint32_t src, std::uint32_t dst, Lid original, std::vector<Lid>& out) {
                out = drb_paths(f_, r_, ca_out_[src], original, ca_base_[dst], ca_lmc_[dst],
                                cfg_.drb.max_paths);
            });
    }
    if (cfg_.link_series_ps) {
        series_step_ = cfg_.link_series_ps;
        const Time span = cfg_.warmup_ps + cfg_.measure_ps + cfg_.drain_ps;
        const double cells = (double(span) / double(series_step_) + 2) * double(slots_.size());
        if (cells > 5e7)
            throw std::invalid_argument("a link time series of " + us_text(series_step_) +
                                        " us steps over this run would hold " +
                                        std::to_string(std::uint64_t(cells)) +
                                        " values; take longer steps");
    }
}

#define IBRT_SIM_INSTANTIATE(M) template class Network<M>;
IBRT_SIM_FOR_EACH_SWITCH_MODEL(IBRT_SIM_INSTANTIATE)
#undef IBRT_SIM_INSTANTIATE

} // namespace ibrt::sim::detail
