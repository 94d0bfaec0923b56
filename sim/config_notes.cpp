// Notes on a simulation's configuration; see config_notes.hpp.
#include "sim/config_notes.hpp"

#include "fabric/routing_function.hpp"

#include <bit>

namespace ibrt::sim {
namespace {

std::string vl_list(std::uint32_t mask) {
    std::string s;
    for (unsigned v = 0; v < 16; ++v)
        if (mask >> v & 1u) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return s;
}

// SLs (bit s) the sources put on packets.
std::uint32_t sls_in_use(const Routing& r, const SimConfig& cfg) {
    if (cfg.sl == SlPolicy::Spread) return (1u << cfg.num_vls) - 1;
    if (r.forwarding_sets && !r.forwarding_sets->source_sls.empty())
        return r.forwarding_sets->source_sls.sl_mask(); // the extended routing's source SLs
    return r.path_sls.sl_mask();                        // every SL some source uses for some DLID
}

} // namespace

std::uint32_t vls_carrying_traffic(const Fabric& f, const Routing& r, const SimConfig& cfg) {
    const std::uint32_t sls = sls_in_use(r, cfg);
    const std::uint32_t V = cfg.num_vls;
    std::uint32_t vls = 0;
    const auto add = [&](std::uint32_t vl) {
        if (vl < V) vls |= 1u << vl;
    };
    if (cfg.vc_router) return (1u << V) - 1; // a free VC of the class's share, every hop
    // The extended switch's VL2VL: every VL its tables can give (a superset, as below).
    if (r.forwarding_sets && !r.forwarding_sets->vl2vl.empty())
        for (const auto& node : r.forwarding_sets->vl2vl.tables)
            for (const Sl2VlTable& t : node)
                for (std::uint8_t v : t) add(v);
    for (NodeId n = 0; n < f.num_nodes(); ++n) {
        const bool tables = n < r.sl2vl.tables.size() && !r.sl2vl.tables[n].empty();
        for (unsigned sl = 0; sl < 16; ++sl) {
            if (!(sls >> sl & 1u)) continue;
            if (!tables) {
                add(Sl2Vl::default_vl(std::uint8_t(sl), V));
                continue;
            }
            for (const Sl2VlTable& t : r.sl2vl.tables[n]) add(t[sl]);
        }
    }
    return vls;
}

std::uint32_t vls_served(const SimConfig& cfg) {
    const std::uint32_t all = (1u << cfg.num_vls) - 1;
    if (cfg.num_vls == 1) return all; // one VL is never arbitrated
    const VlArbConfig a = effective_vlarb(cfg);
    std::uint32_t served = 0;
    for (const auto* t : {&a.high, &a.low})
        for (const VlArbEntry& e : *t)
            if (e.weight > 0) served |= 1u << e.vl;
    return served & all;
}

std::vector<std::string> config_notes(const Fabric& f, const Routing& r, const SimConfig& cfg) {
    std::vector<std::string> notes;
    if (cfg.via != Via::None && cfg.num_vls == kViaVls)
        notes.push_back("--via " + std::string(to_string(cfg.via)) +
                        " on 3 VLs takes BookSim's VLs, which can deadlock (the paths toward "
                        "the intermediate share one VL); 4 VLs give each phase a dateline");
    if (const unsigned lmc = max_ca_lmc(f, r); lmc > 0 && cfg.drb.on) {
        notes.push_back("LMC " + std::to_string(lmc) + ": DRB starts every flow on its " +
                        (r.dlid_choice.empty() ? "base LID" : "path selection's DLID") +
                        " and spreads it over the destination's " + std::to_string(1u << lmc) +
                        " LIDs as BECNs arrive");
    } else if (lmc > 0) {
        const std::string lids = std::to_string(1u << lmc) + " LIDs";
        const std::string head = "LMC " + std::to_string(lmc) + ": ";
        const bool ps = !r.dlid_choice.empty();
        switch (resolve_dlid_policy(cfg.dlid, f, r)) {
        case DlidPolicy::Table:
            notes.push_back(head + (ps ? "each source uses the DLID its path selection gives "
                                         "(--dlid table)"
                                       : "no path selection, so --dlid table sends to each "
                                         "destination's base LID only (one of its " +
                                             lids + ")"));
            break;
        case DlidPolicy::Random:
            notes.push_back(head + "each packet's DLID is drawn uniformly among the " +
                            "destination's " + lids + " (--dlid random" +
                            (cfg.dlid == DlidPolicy::Auto
                                 ? ", the default without a path selection; give "
                                   "--path-selection to follow one, --dlid base for base LIDs)"
                                 : ")"));
            break;
        case DlidPolicy::Base:
        case DlidPolicy::Auto:
            notes.push_back(head +
                            "--dlid base sends to each destination's base LID only (one "
                            "of its " +
                            lids + ")");
            break;
        }
    }
    const std::uint32_t used = vls_carrying_traffic(f, r, cfg);
    if (cfg.num_vls > 1 && std::popcount(used) < cfg.num_vls) {
        const std::uint32_t sls = sls_in_use(r, cfg);
        notes.push_back(std::to_string(cfg.num_vls) + " VLs configured but unused: traffic " +
                        (used ? "can take only VL " + vl_list(used) : "takes no VL") +
                        (cfg.sl == SlPolicy::Path ? " (the paths use SL " + vl_list(sls) +
                                                        "; --sl spread spreads "
                                                        "messages over the VLs)"
                                                  : "") +
                        ", so the run measures a network of " +
                        std::to_string(std::popcount(used)) + " VL" +
                        (std::popcount(used) == 1 ? "" : "s"));
    }
    if (const std::uint32_t starved = used & ~vls_served(cfg); starved)
        notes.push_back((std::popcount(starved) == 1 ? "VL " + vl_list(starved) + " carries"
                                                     : "VLs " + vl_list(starved) + " carry") +
                        " traffic but no weight in the VL arbitration tables: those packets are "
                        "never sent");
    return notes;
}

} // namespace ibrt::sim
