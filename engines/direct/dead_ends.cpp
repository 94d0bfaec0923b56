// Pruning the dead ends of forwarding sets on damaged fabrics (engines/direct/dead_ends.hpp).
#include "engines/direct/dead_ends.hpp"

#include "engines/engine.hpp"
#include "fabric/display_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace ibrt::direct {

std::shared_ptr<const RoutingFunction> prune_dead_ends(const Fabric& f, const Lids& lids,
                                                       const RoutingFunction& rf, unsigned vls,
                                                       std::string_view who) {
    if (!rf.vl_by_in_vl) throw std::logic_error("prune_dead_ends: VL2VL by input VL expected");
    const unsigned vk = rf.vl_keys();
    const bool by_port = rf.by_in_port();
    // Dense keys (switch, VL key, port key) in the RoutingFunction's own layout.
    std::vector<std::size_t> key_begin(f.num_nodes() + 1, 0);
    for (NodeId n = 0; n < f.num_nodes(); ++n)
        key_begin[n + 1] =
            key_begin[n] +
            (f.node(n).is_switch() ? vk * (by_port ? std::size_t(f.node(n).num_ports) + 1 : 1) : 0);
    const auto key = [&](NodeId sw, unsigned v, PortNum in) {
        return key_begin[sw] +
               std::size_t(v % vk) * (by_port ? std::size_t(f.node(sw).num_ports) + 1 : 1) +
               (by_port ? in : 0);
    };
    const auto vl_out = [&](NodeId n, PortNum in, PortNum out, unsigned v) {
        return unsigned(rf.vl2vl.vl(n, f.node(n).num_ports, in, out, std::uint8_t(v), vls));
    };
    struct Source {
        PortId port;
        NodeId sw;
        PortNum in;
    };
    std::vector<Source> sources;
    for (NodeId ca : f.cas())
        for (PortNum p = 1; p <= f.node(ca).num_ports; ++p) {
            const Port& q = f.port(ca, p);
            if (q.connected() && f.node(q.peer_node).is_switch())
                sources.push_back({f.port_id(ca, p), q.peer_node, q.peer_port});
        }

    auto out = std::make_shared<RoutingFunction>(f, rf.max_lid(), vk, by_port);
    out->vl2vl = rf.vl2vl;
    out->vl_by_in_vl = true;
    out->source_sls = rf.source_sls;
    out->tree = rf.tree;
    std::vector<std::vector<Candidate>> cur(key_begin.back());
    std::vector<std::uint32_t> seen(f.num_port_slots() * vls, 0);
    std::uint32_t epoch = 0;
    std::vector<std::pair<NodeId, PortNum>> stack; // (switch, in port) with its VL below
    std::vector<unsigned> stack_vl;
    // Per pass, each (set, candidate) judged from each reached state: delivers or not.
    struct Verdict {
        std::size_t key;
        PortNum port;
        std::size_t state;
        bool ok;
    };
    std::vector<Verdict> verdicts;
    std::vector<std::uint8_t> dead_state(f.num_port_slots() * vls, 0);
    for (Lid d = 1; d <= rf.max_lid(); ++d) {
        const PortId owner = lids.owner(d);
        if (owner == kNoPort || f.node(f.port_node(owner)).is_switch()) continue; // CAs only
        const NodeId dest = f.port_node(owner);
        for (NodeId sw : f.switches())
            for (unsigned v = 0; v < vk; ++v)
                for (PortNum in = 0; in <= (by_port ? f.node(sw).num_ports : 0); ++in) {
                    const std::uint32_t s = rf.lookup(sw, v, in, d);
                    auto& c = cur[key(sw, v, in)];
                    c.clear();
                    if (s != RoutingFunction::kNoSet) c.assign(rf.set(s).begin(), rf.set(s).end());
                }
        const auto first_vl = [&](const Source& s) {
            const unsigned sl = rf.source_sls.empty() ? 0 : rf.source_sls.sl(s.port, d);
            return vl_out(f.port_node(s.port), 0, f.port_num(s.port), sl);
        };
        // A state is dead when it has no usable candidate (none whose VL2VL takes the packet
        // from its input port) or is marked so; a usable candidate is bad when it leads to a
        // dead state or delivers to another node. A candidate bad from every reached state of
        // its set is removed from the set; one bad from some only marks those states dead
        // (their own predecessors' candidates then go bad in turn).
        std::fill(dead_state.begin(), dead_state.end(), 0);
        const auto state = [&](NodeId sw, PortNum in, unsigned v) {
            return std::size_t(f.port_id(sw, in)) * vls + v;
        };
        const auto usable = [&](NodeId sw, PortNum in, unsigned v, const Candidate& c) {
            if (c.port < 1 || c.port > f.node(sw).num_ports || !f.port(sw, c.port).connected())
                return vls;
            return vl_out(sw, in, c.port, v);
        };
        const auto is_dead = [&](NodeId sw, PortNum in, unsigned v) {
            if (dead_state[state(sw, in, v)]) return true;
            for (const Candidate& c : cur[key(sw, v, in)])
                if (usable(sw, in, v, c) < vls) return false;
            return true;
        };
        bool source_dead = false;
        for (bool changed = true; changed;) {
            changed = false;
            ++epoch;
            verdicts.clear();
            source_dead = false;
            for (const Source& src : sources) {
                if (f.port_node(src.port) == dest) continue;
                const unsigned v0 = first_vl(src);
                if (v0 >= vls || is_dead(src.sw, src.in, v0)) {
                    source_dead = true;
                    continue;
                }
                const std::size_t k0 = state(src.sw, src.in, v0);
                if (seen[k0] == epoch) continue;
                seen[k0] = epoch;
                stack.assign(1, {src.sw, src.in});
                stack_vl.assign(1, v0);
                while (!stack.empty()) {
                    const auto [sw, in] = stack.back();
                    const unsigned v = stack_vl.back();
                    stack.pop_back();
                    stack_vl.pop_back();
                    const std::size_t k = key(sw, v, in);
                    for (const Candidate& c : cur[k]) {
                        const unsigned vo = usable(sw, in, v, c);
                        if (vo >= vls) continue; // not a candidate from this input port
                        const Port& q = f.port(sw, c.port);
                        bool ok;
                        if (!f.node(q.peer_node).is_switch()) {
                            ok = q.peer_node == dest;
                        } else {
                            ok = !is_dead(q.peer_node, q.peer_port, vo);
                            const std::size_t kn = state(q.peer_node, q.peer_port, vo);
                            if (ok && seen[kn] != epoch) {
                                seen[kn] = epoch;
                                stack.push_back({q.peer_node, q.peer_port});
                                stack_vl.push_back(vo);
                            }
                        }
                        verdicts.push_back({k, c.port, state(sw, in, v), ok});
                    }
                }
            }
            std::sort(verdicts.begin(), verdicts.end(), [](const Verdict& a, const Verdict& b) {
                return std::tie(a.key, a.port) < std::tie(b.key, b.port);
            });
            for (std::size_t i = 0, j; i < verdicts.size(); i = j) {
                bool any_good = false, any_bad = false;
                for (j = i; j < verdicts.size() && verdicts[j].key == verdicts[i].key &&
                            verdicts[j].port == verdicts[i].port;
                     ++j) {
                    any_good |= verdicts[j].ok;
                    any_bad |= !verdicts[j].ok;
                }
                if (!any_bad) continue;
                changed = true;
                if (!any_good) {
                    auto& c = cur[verdicts[i].key];
                    c.erase(std::remove_if(
                                c.begin(), c.end(),
                                [&](const Candidate& x) { return x.port == verdicts[i].port; }),
                            c.end());
                } else {
                    for (std::size_t m = i; m < j; ++m)
                        if (!verdicts[m].ok) dead_state[verdicts[m].state] = 1;
                }
            }
        }
        for (const Source& src : sources) {
            if (!source_dead) break;
            if (f.port_node(src.port) == dest) continue;
            const unsigned v0 = first_vl(src);
            if (v0 >= vls || is_dead(src.sw, src.in, v0))
                throw RoutingError(fmt::format(
                    "{}: no route from {} to DLID {} over the cables present (every candidate "
                    "leads where the routing's rules have no hop left); use distance_based for "
                    "damaged fabrics",
                    who, display_name(f, src.sw), d));
        }
        for (NodeId sw : f.switches())
            for (unsigned v = 0; v < vk; ++v)
                for (PortNum in = 0; in <= (by_port ? f.node(sw).num_ports : 0); ++in)
                    if (!cur[key(sw, v, in)].empty())
                        out->set_entry(sw, v, in, d, out->intern(cur[key(sw, v, in)]));
    }
    out->compact();
    return out;
}

} // namespace ibrt::direct
