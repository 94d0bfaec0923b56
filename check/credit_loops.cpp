// The LFT walk that fills the channel dependency graph; see credit_loops.hpp.
#include "check/credit_loops.hpp"

#include "check/endpoints.hpp"
#include "check/forwarding.hpp"
#include "fabric/display_name.hpp"

#include <algorithm>
#include <array>

namespace ibrt::check {

namespace {

constexpr std::uint8_t kDropVl = 15;

// The VLs the SL2VL tables name; without tables, the identity map's: one per SL the paths use.
unsigned vls_in_use(const Fabric& f, const Routing& r) {
    if (r.sl2vl.empty()) return unsigned(r.path_sls.max_sl()) + 1;
    unsigned max_vl = 0;
    for (NodeId n = 0; n < r.sl2vl.tables.size() && n < f.num_nodes(); ++n)
        for (const Sl2VlTable& t : r.sl2vl.tables[n])
            for (std::uint8_t vl : t)
                if (vl != kDropVl) max_vl = std::max<unsigned>(max_vl, vl);
    return max_vl + 1;
}

} // namespace

bool sl2vl_depends_on_sl(const Routing& r) {
    for (const auto& node : r.sl2vl.tables)
        for (const Sl2VlTable& t : node)
            for (int sl = 1; sl < 15; ++sl)
                if (t[sl] != t[0]) return true;
    return false;
}

bool sls_choose_vls(const Routing& r) {
    return r.sl2vl.empty() || sl2vl_depends_on_sl(r);
}

std::uint8_t sl2vl_at(const Fabric& f, const Routing& r, NodeId node, PortNum in, PortNum out,
                      std::uint8_t sl, unsigned num_vls) {
    return r.sl2vl.vl(node, f.node(node).num_ports, in, out, sl, num_vls);
}

DeadlockReport check_credit_loops(const Fabric& f, const Routing& r,
                                  const std::function<void(double)>& progress) {
    DeadlockReport rep;
    const unsigned nv = vls_in_use(f, r);
    rep.vls = nv;
    const Endpoints ep = collect_endpoints(f, r.lids);
    const bool have_sl2vl = !r.sl2vl.empty();
    // Where every SL gets the same VL, an unknown SL is as good as any: walk it on SL 0.
    const bool sls_matter = sls_choose_vls(r);

    // VLs a packet can take out of each source switch, over its CA in-ports: mask by
    // (out port, SL). Without SL2VL it is the SL's identity VL and no table is needed.
    std::vector<std::size_t> mask_at(f.num_nodes(), 0);
    std::vector<std::uint16_t> masks;
    if (have_sl2vl) {
        for (NodeId s : ep.source_switches) {
            mask_at[s] = masks.size();
            masks.resize(masks.size() + std::size_t(f.node(s).num_ports + 1) * 16, 0);
        }
        for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
            const NodeId s = ep.switch_of[e];
            if (s == kNoNode) continue;
            const PortNum in = f.port(ep.ports[e]).peer_port;
            for (PortNum o = 0; o <= f.node(s).num_ports; ++o)
                for (std::uint8_t sl = 0; sl < 16; ++sl)
                    masks[mask_at[s] + o * 16u + sl] |=
                        static_cast<std::uint16_t>(1u << sl2vl_at(f, r, s, in, o, sl, nv));
        }
    }

    // Path SLs are per source port (Routing::path_sl); the end ports behind one switch usually
    // share a row. Per source switch: its endpoints' distinct rows, each with a port to read
    // SLs from and how many endpoints use it (a destination's own port is not its source).
    struct SourceRow {
        PortId port;
        std::uint32_t row, count;
    };
    std::vector<std::vector<SourceRow>> rows_at(f.num_nodes());
    for (std::uint32_t e = 0; e < ep.ports.size(); ++e) {
        const NodeId s = ep.switch_of[e];
        if (s == kNoNode) continue;
        const std::uint32_t row = r.path_sls.row_of(ep.ports[e]);
        auto& rows = rows_at[s];
        auto it = std::find_if(rows.begin(), rows.end(),
                               [&](const SourceRow& x) { return x.row == row; });
        if (it == rows.end())
            rows.push_back({ep.ports[e], row, 1});
        else
            ++it->count;
    }

    graph::ChannelDependencies deps(f, nv);
    const ForwardingView view(f, r);
    std::vector<std::uint32_t> stamp(f.num_port_slots() * nv, 0);
    std::uint32_t epoch = 0;
    // The walks of one destination share the stamps only within one SL: SL2VL depends on it.
    std::array<std::vector<NodeId>, 16> by_sl;
    const Lid max_lid = r.lids.max_lid();
    for (std::uint32_t dl = 1; dl <= max_lid; ++dl) {
        const Lid d = static_cast<Lid>(dl);
        const PortId owner = r.lids.owner(d);
        if (owner == kNoPort) continue;
        if (progress && (dl & 1023) == 0) progress(double(dl) / max_lid);
        const std::uint32_t owner_ep = ep.index_of_port[owner];
        const NodeId owner_sw = owner_ep == Endpoints::kNone ? kNoNode : ep.switch_of[owner_ep];
        const std::uint32_t owner_row = r.path_sls.row_of(owner);
        for (auto& v : by_sl) v.clear();
        for (NodeId s : ep.source_switches)
            for (const SourceRow& sr : rows_at[s]) {
                const std::uint32_t n = sr.count - (owner_sw == s && owner_row == sr.row ? 1u : 0u);
                if (n == 0) continue;
                const std::uint8_t sl = r.path_sls.sl(sr.port, d);
                if (sl != PathSlTable::kUnknownSl)
                    by_sl[sl & 15].push_back(s);
                else if (sls_matter)
                    rep.unknown_sl_pairs += n; // not walked: its VLs are not known
                else
                    by_sl[0].push_back(s);
            }
        for (std::uint8_t sl = 0; sl < 16; ++sl) {
            if (by_sl[sl].empty()) continue;
            ++epoch;
            for (std::size_t i = 0; i < by_sl[sl].size(); ++i) {
                const NodeId s = by_sl[sl][i];
                if (i > 0 && by_sl[sl][i - 1] == s) continue; // two rows, one SL
                const Step first = view.step(s, d, owner);
                if (first.ends) continue; // delivered or dead at the first switch
                const std::uint16_t mask = have_sl2vl
                                               ? masks[mask_at[s] + first.out_port * 16u + sl]
                                               : std::uint16_t(1u << Sl2Vl::default_vl(sl, nv));
                for (unsigned v0 = 0; v0 < 16; ++v0) {
                    if (!(mask >> v0 & 1)) continue;
                    if (v0 == kDropVl) {
                        ++rep.vl15_drops;
                        continue;
                    }
                    NodeId y = first.next;
                    PortNum in = first.next_in;
                    unsigned v = v0;
                    for (;;) {
                        const std::size_t key = std::size_t(view.port_id(y, in)) * nv + v;
                        if (stamp[key] == epoch) break;
                        stamp[key] = epoch;
                        if (f.node(y).is_switch()) rep.vls_used |= std::uint16_t(1u << v);
                        const Step st = view.step(y, d, owner);
                        if (st.ends) break;
                        const unsigned vout = sl2vl_at(f, r, y, in, st.out_port, sl, nv);
                        if (vout == kDropVl) {
                            ++rep.vl15_drops;
                            break;
                        }
                        deps.add(y, in, v, st.out_port, vout);
                        y = st.next;
                        in = st.next_in;
                        v = vout;
                    }
                }
            }
        }
    }

    graph::CreditLoops found = std::move(deps).find_loops();
    rep.channels = found.channels;
    rep.dependencies = found.dependencies;
    rep.loops = std::move(found.loops);
    if (progress) progress(1.0);
    return rep;
}

} // namespace ibrt::check
