// libibrt.so: ibrt's engines as named routing engines inside a stock opensm 3.3.23.
//
// opensm loads event plugins before it sets up its routing engines, and 3.3.23 exports
// osm_register_external_routing_engine(), so create() registers every ibrt engine by name and
// `routing_engine mlid,updn` selects one with a fallback (shared/notes/opensm-plugin-api.md
// §1, §2.2). Each routing run snapshots the subnet into a Fabric, runs the engine on opensm's
// LIDs and copies the LFTs into sw->new_lft; opensm pushes them to the switches.
//
// The plugin must never crash the SM: every callback catches everything at the C boundary,
// logs it and returns -1, so opensm tries the next engine (and finally minhop).
//
// On an opensm with opensm-patches/0001 the SA also asks the engine which LID pairs to hand
// out for a port pair (path_lid_pairs), so applications get the engine's path selection; on
// a stock opensm that callback does not exist and the plugin works as before.
#include "engines/engine.hpp"
#include "engines/opensm/engine_params.hpp"
#include "engines/opensm/path_lids_answer.hpp"
#include "engines/opensm/path_sl_answer.hpp"
#include "engines/opensm/path_sl_dump.hpp"
#include "engines/opensm/plugin_options.hpp"
#include "engines/opensm/subnet_snapshot.hpp"
#include "formats/path_sl_file.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <dlfcn.h>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engines/opensm/osm_includes.hpp"

namespace {

using namespace ibrt;

struct PluginContext;

// What path_sl and update_sl2vl answer from: written by the routing run under opensm's
// exclusive lock, read by SA threads under the shared lock. The pointer is swapped atomically
// so a reader never sees a half-built routing.
struct RoutedSubnet {
    Routing routing;
    std::unordered_map<std::uint64_t, NodeId> node_by_guid;
    std::vector<PortNum> num_ports;        // per NodeId
    std::vector<std::uint32_t> ca_of_port; // for path_lid_pairs: dlid_choice's row per port
    std::size_t num_cas = 0;
};

struct EngineContext {
    PluginContext* plugin = nullptr;
    std::string name;
    std::unique_ptr<Engine> engine;
    EngineOptions options;     // from ENGINE.key=value in event_plugin_options
    std::string options_error; // a bad engine parameter: the engine declines every run
    std::shared_ptr<const RoutedSubnet> last;
    unsigned runs = 0;
};

struct PluginContext {
    osm_opensm_t* osm = nullptr;
    bool sa_path_lids = false;  // the running opensm has path_lid_pairs (opensm-patches/0001)
    bool path_sl_tried = false; // path_sl= was written, or its failure logged
    osm::PluginOptions options;
    std::vector<std::unique_ptr<EngineContext>> engines;
};

osm_log_t* log_of(const EngineContext* e) {
    return &e->plugin->osm->log;
}

void write_report(const EngineContext& e, const Routing& r, const osm::SubnetSnapshot& s,
                  double ms) {
    const std::string& path = e.plugin->options.report;
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        std::size_t entries = 0;
        for (const Lft& t : r.lft)
            for (PortNum p : t) entries += p != kNoPath;
        out << "{\"engine\": \"" << e.name << "\", \"run\": " << e.runs
            << ", \"switches\": " << s.fabric.switches().size()
            << ", \"end_nodes\": " << s.fabric.cas().size()
            << ", \"links\": " << s.fabric.num_links() << ", \"lmc\": " << int(r.lmc)
            << ", \"max_lid\": " << r.lids.max_lid() << ", \"lft_entries\": " << entries
            << ", \"route_ms\": " << ms;
        for (const auto& [name, value] : r.stats) out << ", \"" << name << "\": " << value;
        out << "}\n";
        if (!out) throw std::runtime_error("cannot write report " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename report to " + path);
}

int route(EngineContext* e) {
    osm_opensm_t* osm = e->plugin->osm;
    const auto t0 = std::chrono::steady_clock::now();
    if (!e->options_error.empty()) throw RoutingError(e->options_error);
    osm::SubnetSnapshot snap = osm::snapshot_subnet(osm->subn);
    Routing r = e->engine->route(snap.fabric, &snap.lids, e->options);
    // opensm programs SL2VL tables (update_sl2vl) only with QoS on; without them the switches
    // keep SL mod VLs, which is not the routing this engine proved deadlock-free.
    if (!r.sl2vl.empty() && !osm->subn.opt.qos)
        throw RoutingError("this routing needs its SL2VL tables on " +
                           std::to_string(int(r.data_vls)) +
                           " VLs, which opensm programs only with `qos TRUE` in opensm.conf "
                           "(or -Q); it is off");

    // Validate everything before touching opensm's tables, so a failure leaves them as they
    // were (opensm then routes with the next engine from a clean slate).
    for (NodeId n : snap.fabric.switches()) {
        const osm_switch_t* sw = snap.switch_of[n];
        if (!sw) throw std::runtime_error("switch without opensm switch object");
        const Lft& t = r.lft.at(n);
        for (std::size_t lid = 1; lid < t.size() && lid <= sw->max_lid_ho; ++lid)
            if (t[lid] != kNoPath && t[lid] >= sw->num_ports)
                throw std::runtime_error("engine produced port " + std::to_string(t[lid]) +
                                         " for LID " + std::to_string(lid) + " on '" +
                                         snap.fabric.node(n).desc + "'");
    }
    std::size_t entries = 0;
    for (NodeId n : snap.fabric.switches()) {
        osm_switch_t* sw = snap.switch_of[n];
        const Lft& t = r.lft[n];
        for (std::size_t lid = 1; lid <= sw->max_lid_ho; ++lid) {
            const PortNum p = lid < t.size() ? t[lid] : kNoPath;
            sw->new_lft[lid] = p;
            entries += p != kNoPath;
        }
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++e->runs;
    OSM_LOG(log_of(e), OSM_LOG_INFO,
            "ibrt %s: routed %zu switches, %zu end nodes, LMC %d, %zu LFT entries in %.1f ms\n",
            e->name.c_str(), snap.fabric.switches().size(), snap.fabric.cas().size(), int(r.lmc),
            entries, ms);
    for (const auto& [name, value] : r.stats)
        OSM_LOG(log_of(e), OSM_LOG_INFO, "ibrt %s: %s %g\n", e->name.c_str(), name.c_str(), value);
    // The report is optional: failing to write it must not cost the user their engine.
    if (!e->plugin->options.report.empty()) try {
            write_report(*e, r, snap, ms);
        } catch (const std::exception& err) {
            OSM_LOG(log_of(e), OSM_LOG_ERROR,
                    "ERR IB07: ibrt %s: %s; the routes are installed all the same\n",
                    e->name.c_str(), err.what());
        }

    auto routed = std::make_shared<RoutedSubnet>();
    routed->node_by_guid = std::move(snap.node_by_guid);
    routed->ca_of_port = osm::ca_index_of_ports(snap.fabric);
    routed->num_cas = snap.fabric.cas().size();
    for (const Node& node : snap.fabric.nodes()) routed->num_ports.push_back(node.num_ports);
    routed->routing = std::move(r);
    std::atomic_store(&e->last, std::shared_ptr<const RoutedSubnet>(std::move(routed)));
    return 0;
}

int cb_build_lid_matrices(void*) {
    return 1;
} // opensm's min-hop matrices: other code reads them

int cb_ucast_build_fwd_tables(void* ctx) {
    auto* e = static_cast<EngineContext*>(ctx);
    try {
        return route(e);
    } catch (const RoutingError& err) {
        OSM_LOG(log_of(e), OSM_LOG_ERROR, "ERR IB01: ibrt %s declines this fabric: %s\n",
                e->name.c_str(), err.what());
    } catch (const std::exception& err) {
        OSM_LOG(log_of(e), OSM_LOG_ERROR, "ERR IB02: ibrt %s failed: %s\n", e->name.c_str(),
                err.what());
    } catch (...) {
        OSM_LOG(log_of(e), OSM_LOG_ERROR, "ERR IB03: ibrt %s failed: unknown exception\n",
                e->name.c_str());
    }
    return -1;
}

uint8_t cb_path_sl(void* ctx, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid) {
    auto* e = static_cast<EngineContext*>(ctx);
    const auto r = std::atomic_load(&e->last);
    if (!r) return hint; // not routed by us yet: keep the QoS policy's SL
    return osm::answer_path_sl(r->routing, hint, cl_ntoh16(slid), cl_ntoh16(dlid));
}

// The ports are not needed: their LID ranges, which the answer must stay within, name them.
int cb_path_lid_pairs(void* ctx, const osm_port_t*, const osm_port_t*, uint16_t src_lid_min,
                      uint16_t src_lid_max, uint16_t dest_lid_min, uint16_t dest_lid_max,
                      uint16_t* slids, uint16_t* dlids, unsigned max_pairs) {
    try {
        const auto r = std::atomic_load(&static_cast<EngineContext*>(ctx)->last);
        if (!r) return 0; // not routed by us yet: opensm's order
        return static_cast<int>(osm::answer_path_lids(r->routing, r->ca_of_port, r->num_cas,
                                                      src_lid_min, src_lid_max, dest_lid_min,
                                                      dest_lid_max, slids, dlids, max_pairs));
    } catch (...) {
        return 0; // opensm's order; the SA must not die over a path lookup
    }
}

// osm_routing_engine_t of an opensm with opensm-patches/0001: one more callback after `next`,
// the last field, so the stock layout is a prefix of it. The plugin is built against the stock
// headers, so it spells the field out; it may write it only when that opensm is running (the
// struct is opensm's allocation, the field past its end on a stock opensm).
using PathLidPairsFn = int (*)(void*, const osm_port_t*, const osm_port_t*, uint16_t, uint16_t,
                               uint16_t, uint16_t, uint16_t*, uint16_t*, unsigned);
struct PatchedRoutingEngine {
    osm_routing_engine_t stock;
    PathLidPairsFn path_lid_pairs;
};
static_assert(offsetof(PatchedRoutingEngine, path_lid_pairs) == sizeof(osm_routing_engine_t),
              "the patched field follows the stock struct without padding");

// Built against the patched headers (the patched libopensm-dev) the field is a member already.
template <class RoutingEngine> void set_path_lid_pairs(RoutingEngine* re) {
    if constexpr (requires { re->path_lid_pairs; })
        re->path_lid_pairs = cb_path_lid_pairs;
    else
        reinterpret_cast<PatchedRoutingEngine*>(re)->path_lid_pairs = cb_path_lid_pairs;
}

void cb_update_sl2vl(void* ctx, osm_physp_t* port, uint8_t in_port, uint8_t out_port,
                     ib_slvl_table_t* t) {
    auto* e = static_cast<EngineContext*>(ctx);
    try {
        const auto r = std::atomic_load(&e->last);
        if (!r || r->routing.sl2vl.empty()) return; // keep opensm's configured table
        const auto it =
            r->node_by_guid.find(cl_ntoh64(osm_node_get_node_guid(osm_physp_get_node_ptr(port))));
        if (it == r->node_by_guid.end()) return;
        // opensm asks an end port with in = out = 0; ibrt keeps a CA port p's table at (0, p).
        const osm_node_t* node = osm_physp_get_node_ptr(port);
        const bool end_port = osm_node_get_type(node) != IB_NODE_TYPE_SWITCH;
        const Sl2VlTable* table =
            r->routing.sl2vl.find(it->second, r->num_ports[it->second], end_port ? 0 : in_port,
                                  end_port ? osm_physp_get_port_num(port) : out_port);
        if (!table) return;
        for (uint8_t sl = 0; sl < 16; ++sl) ib_slvl_table_set(t, sl, (*table)[sl]);
    } catch (...) {
        // Keep opensm's table; the SM must not die over an SL2VL lookup.
    }
}

void cb_destroy(void*) {} // contexts belong to the plugin and die with it

int cb_setup(osm_routing_engine_t* re, osm_opensm_t*) {
    // re->context is our EngineContext: opensm copies the registration's context into it.
    if (static_cast<EngineContext*>(re->context)->plugin->sa_path_lids) set_path_lid_pairs(re);
    re->build_lid_matrices = cb_build_lid_matrices;
    re->ucast_build_fwd_tables = cb_ucast_build_fwd_tables;
    re->ucast_dump_tables = nullptr;
    re->update_sl2vl = cb_update_sl2vl;
    re->update_vlarb = nullptr;
    re->path_sl = cb_path_sl;
    re->mcast_build_stree = nullptr; // opensm's default spanning tree
    re->destroy = cb_destroy;
    return 0;
}

void* plugin_create(osm_opensm_t* osm) {
    try {
        auto plugin = std::make_unique<PluginContext>();
        plugin->osm = osm;
        // The patch exports this function; a stock opensm has neither it nor the field.
        plugin->sa_path_lids =
            dlsym(RTLD_DEFAULT, "osm_routing_engine_path_lid_pairs_supported") != nullptr;
        if (!plugin->sa_path_lids)
            OSM_LOG(&osm->log, OSM_LOG_INFO,
                    "ibrt: this opensm has no path_lid_pairs routing-engine callback (stock "
                    "opensm, without opensm-patches/0001): the SA hands out opensm's own LID "
                    "pairs, so applications do not get the engines' path selection\n");
        else
            OSM_LOG(&osm->log, OSM_LOG_INFO,
                    "ibrt: the SA asks the engines for the LID pairs of PathRecords "
                    "(path_lid_pairs): applications get the path selection\n");
        const char* opts = osm->subn.opt.event_plugin_options;
        plugin->options = osm::parse_plugin_options(opts ? opts : "", engine_names());
        for (const std::string& err : plugin->options.errors)
            OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR IB04: ibrt event_plugin_options: %s\n",
                    err.c_str());
        for (const std::string& tok : plugin->options.other_plugins)
            OSM_LOG(&osm->log, OSM_LOG_INFO,
                    "ibrt event_plugin_options: '%s' left to another plugin\n", tok.c_str());
        for (const std::string& name : engine_names()) {
            auto e = std::make_unique<EngineContext>();
            e->plugin = plugin.get();
            e->name = name;
            e->engine = make_engine(name);
            e->options.seed = plugin->options.seed;
            const osm::EngineParamsApplied applied =
                osm::apply_engine_params(*e->engine, plugin->options.engine_params, e->options);
            for (const std::string& msg : applied.ignored)
                OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR IB04: ibrt event_plugin_options: %s\n",
                        msg.c_str());
            for (const std::string& err : applied.errors) {
                e->options_error = "bad option in event_plugin_options: " + err;
                OSM_LOG(&osm->log, OSM_LOG_ERROR,
                        "ERR IB04: ibrt event_plugin_options: %s; engine %s will decline "
                        "every routing run (opensm uses the next engine)\n",
                        err.c_str(), name.c_str());
            }
            // opensm strdup()s the name; the module's own context field is ignored (§2.2).
            external_routing_engine_module_t mod = {e->name.c_str(), cb_setup, nullptr};
            if (osm_register_external_routing_engine(osm, &mod, e.get()) != CL_SUCCESS) {
                OSM_LOG(&osm->log, OSM_LOG_ERROR,
                        "ERR IB05: ibrt cannot register routing engine '%s' (name taken?)\n",
                        name.c_str());
                continue;
            }
            plugin->engines.push_back(std::move(e));
        }
        OSM_LOG(&osm->log, OSM_LOG_INFO, "ibrt plugin loaded: %zu routing engines registered\n",
                plugin->engines.size());
        // Non-NULL even with no engine registered: opensm would dlclose() us otherwise while
        // it may still hold our setup pointers.
        return plugin.release();
    } catch (const std::exception& err) {
        OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR IB06: ibrt plugin failed to load: %s\n", err.what());
    } catch (...) {
    }
    return nullptr;
}

void plugin_delete(void* ctx) {
    auto* plugin = static_cast<PluginContext*>(ctx);
    // opensm is stopping (its log lives on until after the plugins are gone). A path_sl= file
    // never written must not pass unnoticed: e.g. opensm stopped before the subnet came up.
    if (!plugin->options.path_sl.empty() && !plugin->path_sl_tried)
        OSM_LOG(&plugin->osm->log, OSM_LOG_ERROR,
                "ERR IB08: ibrt path_sl=%s: no file written: opensm stopped before a routing "
                "run finished\n",
                plugin->options.path_sl.c_str());
    delete plugin;
}

// path_sl=PATH: after every routing run, the SL the SA would hand out for every pair (see
// path_sl_dump.hpp), from whichever engine routed, ours or opensm's. Under the shared lock, as
// the SA asks; the state manager holds no lock when it reports UCAST_ROUTING_DONE
// (osm_ucast_mgr_process and osm_qos_setup release theirs before).
void write_sa_path_sls(osm_opensm_t* osm, const std::string& path) {
    const auto t0 = std::chrono::steady_clock::now();
    struct SharedLock {
        cl_plock_t* lock;
        explicit SharedLock(cl_plock_t* l) : lock(l) { cl_plock_acquire(lock); }
        ~SharedLock() { cl_plock_release(lock); }
    };
    std::string engine = "none";
    Fabric fabric;
    Routing r;
    {
        const SharedLock held(&osm->lock);
        osm::SubnetSnapshot snap = osm::snapshot_subnet(osm->subn);
        const osm_routing_engine_t* re = osm->routing_engine_used;
        if (re && re->name) engine = re->name;
        if (re && re->path_sl)
            r.path_sls = osm::ask_path_sls(snap.fabric, snap.lids, [&](Lid slid, Lid dlid) {
                return re->path_sl(re->context, OSM_DEFAULT_SL, cl_hton16(slid), cl_hton16(dlid));
            });
        fabric = std::move(snap.fabric);
        r.lids = std::move(snap.lids);
    }
    const std::string tmp = path + ".tmp";
    PathSlWriteStats st;
    {
        std::ofstream out(tmp);
        out << "# opensm routing engine " << engine << "\n";
        st = write_path_sl(out, fabric, r);
        out.flush();
        if (!out) throw std::runtime_error("cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename " + tmp + " to " + path);
    OSM_LOG(&osm->log, OSM_LOG_INFO,
            "ibrt: path SLs of engine %s written to %s: %zu sources, %zu paths, %.1f s\n",
            engine.c_str(), path.c_str(), st.sources, st.lines,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

void plugin_report(void* ctx, osm_epi_event_id_t id, void*) {
    auto* plugin = static_cast<PluginContext*>(ctx);
    // At the end of every routing run (heavy sweep or console reroute): LIDs, routing and the
    // engine's SL answers are final then. Not at SUBNET UP: under `opensm -o` opensm sets
    // osm_exit_flag once the subnet is up, and osm_opensm_report_event() then skips every
    // plugin, so SUBNET UP never reached one and no file was written (issue 35); a reroute
    // reports no SUBNET UP either.
    if (plugin->options.path_sl.empty() || id != OSM_EVENT_ID_UCAST_ROUTING_DONE) return;
    plugin->path_sl_tried = true;
    try {
        write_sa_path_sls(plugin->osm, plugin->options.path_sl);
    } catch (const std::exception& err) {
        OSM_LOG(&plugin->osm->log, OSM_LOG_ERROR, "ERR IB08: ibrt path_sl=%s: %s\n",
                plugin->options.path_sl.c_str(), err.what());
    } catch (...) {
        OSM_LOG(&plugin->osm->log, OSM_LOG_ERROR, "ERR IB08: ibrt path_sl=%s: unknown error\n",
                plugin->options.path_sl.c_str());
    }
}

} // namespace

// The symbol opensm's loader dlsym()s; its version string must equal the running opensm's.
extern "C" {
__attribute__((visibility("default")))
osm_event_plugin_t osm_event_plugin = {OSM_VERSION, plugin_create, plugin_delete, plugin_report};
}
