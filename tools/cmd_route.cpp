// `ibrt route`: runs a routing engine (engines/engine.hpp) on a topology and writes what opensm
// would hold afterwards: opensm-lfts.dump, guid2lid, the path selection, report.json, and the
// files ibdmchk (Debian ibutils) checks independently: opensm-subnet.lst + opensm.fdbs, the
// path-SL file (ibdmchk -c) and, when the routing has SL2VL tables, opensm-sl2vl.dump (which
// ibdmchk -d reads as it is).
//
// report.json, schema "ibrt-route/1" (fields are only ever added):
//   { "schema": "ibrt-route/1", "engine": str, "fabric": str, "lmc": n,
//     "data_vls": n,   (the VLs the routing's paths take from switch to switch)
//     "lids": {"assigned": n, "max_lid": n, "source": "engine"|"paper"|"fabric", "aligned": b},
//     "tree": {"switches_by_level": [{"level": n, "switches": n}], "max_level": n,
//              "end_ports": n},
//     "route_time_ms": x,
//     "link_load": {"pattern": "all-to-all", "links": n, "max": x, "min": x, "mean": x,
//                   "max_over_mean": x, "unrouted": x},      (absent with --no-load; the
//                   figures of `ibrt check --path-selection`'s all-to-all balance)
//     "engine_stats": {name: x, ...},   (what the engine reports, e.g. separate's cost of
//                                         fitting its paths into the LMC; absent if none)
//     "files": {name: bytes, ...} }       (every file written before report.json)
#include "check/balance.hpp"
#include "cli/engine_cli.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "engines/engine.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "formats/forwarding_sets_file.hpp"
#include "formats/guid2lid.hpp"
#include "formats/lft_dump.hpp"
#include "formats/path_selection.hpp"
#include "formats/path_sl_file.hpp"
#include "formats/routing_files.hpp"
#include "formats/sl2vl_dump.hpp"
#include "formats/subnet_lst_writer.hpp"
#include "graph/fabric_walks.hpp"
#include "tools/command.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

namespace ibrt::tools {
namespace {

// Outputs above this size are announced before they are written.
constexpr double kWarnBytes = 1e9;
// Without --fdbs / --lft-comments, opensm.fdbs and the per-entry comments of opensm-lfts.dump
// (both a line or part of one per switch and LID) are written only while each stays under
// this: at 16,384 hosts they would be 1.0 and 2.2 GB, for ibdmchk and for human readers.
constexpr double kOptionalBytes = 256e6;

// --x / --no-x: always, never, or by size (kOptionalBytes).
struct Optional {
    bool yes = false, no = false;
    bool wanted(double bytes) const { return yes || (!no && bytes <= kOptionalBytes); }
};

struct RouteArgs {
    std::string engine, fabric, out;
    cli::EngineCli ecli;
    std::uint64_t seed = 1;
    bool paper_lids = false, lids_from_fabric = false, no_path_selection = false, no_load = false;
    Optional fdbs, lft_comments, path_sl;
};

// An output file that counts what is written through it and shows progress on the large ones
// (tables of a big fabric are GBs: FT(36,3) at LMC 2 writes 13.5 GB).
class OutFile : public std::filebuf {
  public:
    OutFile(const std::filesystem::path& p, double expect_bytes)
        : path_(p.string()), name_(p.filename().string()), expect_(expect_bytes), out_(this) {
        if (!open(p, std::ios::out | std::ios::binary | std::ios::trunc))
            throw InputError(p.string(), 0, "cannot create file");
    }
    ~OutFile() override {
        if (shown_) cli::progress("");
    }
    std::ostream& stream() { return out_; }
    // Flushes and reports a failed write (a full disk) as an error naming the file.
    void finish() {
        out_.flush();
        const int err = errno;
        if (!out_ || !close())
            throw InputError(path_, 0, std::string("cannot write: ") + std::strerror(err));
    }

  protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        const std::streamsize w = std::filebuf::xsputn(s, n);
        count(w);
        return w;
    }
    int_type overflow(int_type c) override {
        const int_type r = std::filebuf::overflow(c);
        if (!traits_type::eq_int_type(c, traits_type::eof())) count(1);
        return r;
    }

  private:
    static constexpr std::uint64_t kStep = std::uint64_t(64) << 20;
    void count(std::streamsize n) {
        written_ += std::uint64_t(n);
        if (written_ < next_) return;
        next_ = written_ + kStep;
        shown_ = true;
        cli::progress(fmt::format("ibrt route: writing {} {:.1f} of about {:.1f} GB", name_,
                                  double(written_) / 1e9, expect_ / 1e9));
    }
    std::string path_, name_;
    double expect_;
    std::ostream out_;
    std::uint64_t written_ = 0, next_ = kStep;
    bool shown_ = false;
};

// Sizes of the per-switch and per-pair files, from bytes per line measured on FT(36,3)
// (docs/history/performance-log.md): an estimate for the warning and the progress line, not a
// promise.
struct OutputEstimate {
    double lfts = 0, fdbs = 0, path_selection = 0;
    bool lft_comments = true;
    double total() const { return lfts + fdbs + path_selection; }
};

OutputEstimate estimate_output(const Fabric& f, const Routing& r, const RouteArgs& a) {
    const double entries = double(f.switches().size()) * (double(r.lids.max_lid()) + 1);
    const double cas = double(f.cas().size());
    OutputEstimate e;
    e.lft_comments = a.lft_comments.wanted(entries * 59);
    e.lfts = entries * (e.lft_comments ? 70 : 11);
    if (a.fdbs.wanted(entries * 27)) e.fdbs = entries * 27;
    // Only pairs off the base LID are listed (formats/path_selection.hpp): none without a choice.
    if (!a.no_path_selection && !r.dlid_choice.empty()) e.path_selection = cas * (cas - 1) * 44;
    return e;
}

int run_route(const RouteArgs& a) {
    const auto engine = cli::make_engine_or_throw(a.engine);
    cli::EngineCli ecli = a.ecli;
    if (a.paper_lids) ecli.opts.push_back("paper_lids=true");
    EngineOptions opt = cli::engine_options(*engine, ecli, a.seed);
    opt.progress = [](std::string_view phase, double x) {
        cli::progress(fmt::format("ibrt route: {} {:.0f}%", phase, x * 100));
    };
    const Fabric f = load_topology(a.fabric);
    std::optional<Lids> pre;
    if (a.lids_from_fabric) pre = Lids::from_fabric(f);

    Routing r;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        r = engine->route(f, pre ? &*pre : nullptr, opt);
    } catch (const RoutingError& e) {
        cli::progress("");
        fmt::print(stderr, "ibrt route: engine {} declined {}: {}\n", a.engine, a.fabric, e.what());
        return kExitBadInput;
    }
    cli::progress("");
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

    const std::filesystem::path dir(a.out);
    std::filesystem::create_directories(dir);
    using J = nlohmann::ordered_json;
    const OutputEstimate size = estimate_output(f, r, a);
    if (size.total() > kWarnBytes)
        fmt::print(stderr,
                   "ibrt route: writing about {:.1f} GB to {} (opensm-lfts.dump {:.1f} GB, "
                   "path-selection {:.1f} GB, opensm.fdbs {:.1f} GB); --no-path-selection, "
                   "--no-fdbs and --no-lft-comments make it smaller\n",
                   size.total() / 1e9, dir.string(), size.lfts / 1e9, size.path_selection / 1e9,
                   size.fdbs / 1e9);
    if (!size.lft_comments && !a.lft_comments.no)
        fmt::print(stderr,
                   "ibrt route: opensm-lfts.dump without its per-entry comments (they would add "
                   "{:.1f} GB; --lft-comments writes them)\n",
                   size.lfts / 11 * 59 / 1e9);
    const double fdbs_bytes = double(f.switches().size()) * (double(r.lids.max_lid()) + 1) * 27;
    if (size.fdbs == 0 && !a.fdbs.no)
        fmt::print(stderr,
                   "ibrt route: opensm.fdbs not written ({:.1f} GB, for ibdmchk; --fdbs writes "
                   "it, `ibrt convert --to opensm.fdbs` makes it later)\n",
                   fdbs_bytes / 1e9);
    J files = J::object(); // name -> bytes written
    const auto write = [&](const char* name, double expect, auto&& writer) {
        OutFile o(dir / name, expect);
        writer(o.stream());
        o.finish();
        files[name] = std::filesystem::file_size(dir / name);
    };
    write("opensm-lfts.dump", size.lfts,
          [&](std::ostream& o) { write_lft_dump(o, f, r, size.lft_comments); });
    write("guid2lid", 0, [&](std::ostream& o) { write_guid2lid(o, f, r.lids); });
    if (!a.no_path_selection)
        write("path-selection", size.path_selection,
              [&](std::ostream& o) { write_path_selection(o, f, r); });
    write("opensm-subnet.lst", 0, [&](std::ostream& o) { write_subnet_lst(o, f, r.lids); });
    if (size.fdbs > 0)
        write("opensm.fdbs", size.fdbs, [&](std::ostream& o) { write_opensm_fdbs(o, f, r); });
    if (!r.sl2vl.empty())
        write("opensm-sl2vl.dump", 0, [&](std::ostream& o) { write_sl2vl_dump(o, f, r); });
    if (r.forwarding_sets)
        write("forwarding-sets", 0,
              [&](std::ostream& o) { write_forwarding_sets(o, f, *r.forwarding_sets); });
    // path-sl lists every DLID of every source with an SL other than 0: with path SLs on half
    // the LIDs (dragonfly-plus, LMC 1) that is 8.3 GB at 11,520 hosts.
    PathSlWriteStats psl;
    const double psl_bytes = double(path_sl_file_lines(f, r)) * 27;
    if (a.path_sl.wanted(psl_bytes))
        write("path-sl", psl_bytes, [&](std::ostream& o) { psl = write_path_sl(o, f, r); });
    else if (!a.path_sl.no)
        fmt::print(stderr,
                   "ibrt route: path-sl not written ({:.1f} GB, for ibdmchk -c and `ibrt check "
                   "--path-sl`: without it a check of SL-dependent tables cannot judge deadlock "
                   "freedom; --path-sl-file writes it)\n",
                   psl_bytes / 1e9);
    if (psl.split_nodes)
        fmt::print(stderr,
                   "ibrt route: {} CAs have ports entering at switches with different path SLs; "
                   "path-sl (one SL table per node, as ibdmchk reads it) gives each the SLs of its "
                   "first port with a LID\n",
                   psl.split_nodes);

    J j;
    j["schema"] = "ibrt-route/1";
    j["engine"] = a.engine;
    j["fabric"] = a.fabric;
    j["lmc"] = r.lmc;
    j["data_vls"] = r.data_vls;
    std::size_t assigned = 0;
    for (Lid l = 1; l <= r.lids.max_lid(); ++l) assigned += r.lids.owner(l) != kNoPort;
    j["lids"] = {
        {"assigned", assigned},
        {"max_lid", r.lids.max_lid()},
        {"source", a.lids_from_fabric ? "fabric"
                   : opt.params.contains("paper_lids") && engine->param_flag(opt, "paper_lids")
                       ? "paper"
                       : "engine"},
        {"aligned", r.lids.aligned()}};
    const std::vector<std::uint32_t> lv = levels_from_cas(f);
    std::uint32_t max_level = 0;
    for (NodeId s : f.switches())
        if (lv[s] != graph::kFar) max_level = std::max(max_level, lv[s]);
    std::vector<std::size_t> per(max_level + 1, 0);
    for (NodeId s : f.switches())
        if (lv[s] != graph::kFar) ++per[lv[s]];
    J levels = J::array();
    for (std::uint32_t l = 1; l <= max_level; ++l)
        levels.push_back({{"level", l}, {"switches", per[l]}});
    const std::size_t end_ports = all_end_ports(f, &r.lids).size();
    j["tree"] = {{"switches_by_level", levels}, {"max_level", max_level}, {"end_ports", end_ports}};
    j["route_time_ms"] = ms;
    if (!a.no_load) {
        // `ibrt check`'s balance on the tables as written (path selection, else base LIDs).
        const check::BalanceReport ld =
            check::check_balance(f, r, check::TrafficPattern{}, check::DlidUse::Selection);
        j["link_load"] = {{"pattern", ld.pattern},  {"links", ld.links.links},
                          {"max", ld.links.max},    {"min", ld.links.min},
                          {"mean", ld.links.mean},  {"max_over_mean", ld.links.spread},
                          {"unrouted", ld.unrouted}};
    }
    if (!r.stats.empty()) {
        J st = J::object();
        for (const auto& [name, value] : r.stats) st[name] = value;
        j["engine_stats"] = st;
    }
    j["files"] = files;
    write("report.json", 0, [&](std::ostream& o) { o << j.dump(2) << "\n"; });
    fmt::print("{}: LMC {}, {} LIDs (max {}), {:.1f} ms -> {}\n", a.engine, r.lmc, assigned,
               r.lids.max_lid(), ms, dir.string());
    for (const auto& [name, value] : r.stats) fmt::print("  {} {}\n", name, value);
    return kExitOk;
}

const CommandRegistrar reg{{
    "route",
    "Route a fabric with an engine (mlid, slid, separate, torus, flatfly, dragonfly, slimfly, "
    "dragonfly-plus) and write LFTs, guid2lid, path selection",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<RouteArgs>();
        sub.add_option(
               "--engine", a->engine,
               "Routing engine: mlid (paper 000 §4), slid (its single-LID baseline), separate "
               "(paper 001: path selection, then color/L LID assignment), torus (paper 003 "
               "§3.2: DOR with dateline SLs), flatfly (§3.3: DOR on FlatFly/HyperX/hypercube), "
               "dragonfly (§3.5: Static routing), slimfly (§3.6: minimal routing, VL 0 then "
               "VL 1) or dragonfly-plus (Dragonfly+ of Shpiner et al.: minimal on the base LID, "
               "through an intermediate group on the others, 2 VLs)")
            ->required();
        sub.add_option("--fabric", a->fabric,
                       "Topology: ibnetdiscover / ibsim net, or opensm-subnet.lst")
            ->required();
        cli::add_engine_cli(sub, a->ecli);
        sub.add_option("--seed", a->seed,
                       "Engines' tie-breaking seed; the plugin's seed=N, so a live run can be "
                       "reproduced offline")
            ->default_val(1)
            ->check(cli::whole_in(0, cli::kMax<std::uint64_t>));
        sub.add_flag("--paper-lids", a->paper_lids, "Same as --engine-opt paper_lids=true");
        sub.add_flag("--lids-from-fabric", a->lids_from_fabric,
                     "Honour the `lid N lmc M` comments of the fabric instead of assigning LIDs");
        sub.add_option("--out", a->out, "Output directory (created if missing)")->required();
        sub.add_flag("--no-path-selection", a->no_path_selection,
                     "Do not write path-selection (a line per CA pair when the engine "
                     "chooses among a destination's LIDs)");
        auto* fdbs = sub.add_flag("--fdbs", a->fdbs.yes,
                                  "Write opensm.fdbs (for ibdmchk; a line per switch and LID) "
                                  "however large; by default only while under 256 MB");
        sub.add_flag("--no-fdbs", a->fdbs.no, "Do not write opensm.fdbs")->excludes(fdbs);
        auto* psl = sub.add_flag("--path-sl-file", a->path_sl.yes,
                                 "Write path-sl (ibdmchk -c: the SL of every DLID from every "
                                 "source with an SL other than 0) however large; by default only "
                                 "while under 256 MB");
        sub.add_flag("--no-path-sl-file", a->path_sl.no, "Do not write path-sl")->excludes(psl);
        auto* comments = sub.add_flag(
            "--lft-comments", a->lft_comments.yes,
            "Give every opensm-lfts.dump entry opensm's `# <type> portguid 0x...: 'name'` "
            "comment however large; by default only while they add under 256 MB");
        sub.add_flag("--no-lft-comments", a->lft_comments.no,
                     "Write opensm-lfts.dump entries as `0x<LID> <port>` alone")
            ->excludes(comments);
        sub.add_flag("--no-load", a->no_load,
                     "Skip the all-to-all link-load summary in report.json");
        sub.footer(
            "Writes DIR/opensm-lfts.dump (opensm's format, loadable by its `file` "
            "engine),\nDIR/guid2lid, DIR/path-selection (`<src GUID> <dst GUID> <DLID>` "
            "per CA pair;\nnone when every pair takes the base LID) and DIR/report.json (schema "
            "\"ibrt-route/1\": engine, lmc, lids, tree\nlevels, route_time_ms, "
            "link_load, files written). For ibdmchk (Debian "
            "ibutils) and `ibrt check`/`sim`:\nDIR/opensm-subnet.lst + DIR/opensm.fdbs "
            "(opensm's formats, ibdmchk -s/-f; the fdbs, like the LFT\ndump's per-entry "
            "comments, only under 256 MB without --fdbs / --lft-comments),\nDIR/path-sl "
            "(`0x<source node GUID> "
            "<DLID> <SL>`, ibdmchk -c; only sources with an SL other than 0; only under 256 MB\n"
            "without --path-sl-file) and, "
            "when the engine sets SL2VL tables, DIR/opensm-sl2vl.dump (ibdmchk -d reads "
            "it).\nWith an engine's forwarding sets (mlid/slid adaptive_up=true): "
            "DIR/forwarding-sets\n(`ibrt sim --tables`).\nExit codes: 0 routed, 2 bad input "
            "or the engine declines the fabric (the "
            "reason is printed),\ne.g. a fabric that is not a fat tree.\n\n" +
            cli::engine_params_help());
        return [a] { return run_route(*a); };
    },
}};

} // namespace
} // namespace ibrt::tools
