// `ibrt sa-path-sls`: the path SLs a running SM hands out, read from its SA with infiniband-
// diags' saquery, written as a path-SL file (`src_node_guid dlid sl`, ibdmchk's -c format) so
// that `ibrt check --path-sl` can judge the credit loops of tables from opensm's dfsssp, lash
// or torus-2QoS, whose SLs live in no dump (docs/check.md, exit 3).
//
// One `saquery -p` asks for every PathRecord at once (opensm answers all port pairs). Where
// that answer is short of pairs (ibsim's umad2sim passes only the first MAD of a multi-packet
// answer, three records), the missing (SLID, DLID) pairs are asked one by one, -j at a time.
// A process per pair costs ~0.1 s under ibsim, so on hundreds of switches (100k pairs) --sample
// asks only a seeded random subset of them, and skips the table query: enough to hold the
// SA's SLs against an offline path-SL file, not a complete file for `ibrt check`.
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "fabric/end_ports.hpp"
#include "fabric/input_error.hpp"
#include "fabric/lids.hpp"
#include "fabric/rng.hpp"
#include "formats/guid2lid.hpp"
#include "formats/path_sl_file.hpp"
#include "formats/routing_files.hpp"
#include "formats/saquery_reader.hpp"
#include "tools/command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace ibrt::tools {
namespace {

struct Args {
    std::string fabric, guid2lid, out, saquery = "saquery", pairs;
    unsigned jobs = 4;
    std::size_t sample = 0; // 0: every pair
    std::uint64_t seed = 1;
    bool to_end_ports = false, quiet = false;
};

// Runs `cmd` through the shell and returns its stdout; throws when it fails.
std::string run_capture(const std::string& cmd) {
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen((cmd + " 2>/dev/null").c_str(), "r"), pclose);
    if (!p) throw std::runtime_error("cannot run " + cmd);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p.get())) > 0;) out.append(buf, n);
    const int rc = pclose(p.release());
    if (rc != 0)
        throw std::runtime_error(fmt::format("'{}' failed (status {}): is an SM running and "
                                             "reachable?",
                                             cmd, rc));
    return out;
}

int run(const Args& a) {
    const Fabric f = load_topology(a.fabric);
    const Lids lids = a.guid2lid.empty()
                          ? Lids::from_fabric(f)
                          : bind_guid2lid(read_guid2lid_file(a.guid2lid), f, a.guid2lid);
    if (lids.max_lid() == 0)
        throw InputError(a.fabric, 0, "no LIDs: give opensm's guid2lid with --guid2lid");

    // The sources `ibrt check` walks from (CA ports with a LID) and every owned DLID (only the
    // end ports' with --to-end-ports).
    const std::vector<PortId> sources = all_end_ports(f, &lids);
    std::vector<char> is_source(f.num_port_slots(), 0);
    for (PortId p : sources) is_source[p] = 1;
    std::vector<Lid> dlids;
    for (Lid l = 1; l <= lids.max_lid(); ++l)
        if (lids.owner(l) != kNoPort && (!a.to_end_ports || is_source[lids.owner(l)]))
            dlids.push_back(l);
    const std::size_t nd = dlids.size();
    constexpr int kUnanswered = -1, kNotAsked = -2;
    std::vector<int> sl(sources.size() * nd, kUnanswered);
    std::vector<std::uint32_t> dlid_index(std::size_t(lids.max_lid()) + 1, ~0u); // ~0u: not asked
    for (std::size_t i = 0; i < nd; ++i) dlid_index[dlids[i]] = std::uint32_t(i);
    std::vector<std::uint32_t> source_of_slid(std::size_t(lids.max_lid()) + 1, ~0u);
    for (std::size_t i = 0; i < sources.size(); ++i)
        source_of_slid[lids.base(sources[i])] = std::uint32_t(i);

    auto record = [&](const SaPathRecord& r) {
        if (r.slid > lids.max_lid() || r.dlid > lids.max_lid()) return;
        const std::uint32_t s = source_of_slid[r.slid];
        if (s == ~0u || dlid_index[r.dlid] == ~0u || lids.owner(r.dlid) == sources[s]) return;
        sl[s * nd + dlid_index[r.dlid]] = r.sl;
    };
    // With --sample the table query is skipped: the SM computes every PathRecord of the subnet
    // for it (on 512 ports, 262k records, each through the routing engine's path_sl), which
    // can outlast saquery's timeout and holds up the SM's next sweep.
    // --pairs: only the (source node, DLID) pairs a path-SL file lists.
    std::vector<char> listed;
    if (!a.pairs.empty()) {
        listed.assign(sl.size(), 0);
        std::vector<std::vector<std::uint32_t>> sources_of_guid_node(f.num_nodes());
        for (std::size_t i = 0; i < sources.size(); ++i)
            sources_of_guid_node[f.port_node(sources[i])].push_back(std::uint32_t(i));
        std::ifstream in(a.pairs);
        if (!in) throw InputError(a.pairs, 0, "cannot open file");
        std::string line;
        for (std::size_t no = 1; std::getline(in, line); ++no) {
            std::istringstream fields(line);
            std::string guid;
            unsigned long dlid = 0;
            if (!(fields >> guid) || guid[0] == '#') continue;
            std::uint64_t g = 0;
            const bool hex =
                guid.size() > 2 && guid.compare(0, 2, "0x") == 0 &&
                std::from_chars(guid.data() + 2, guid.data() + guid.size(), g, 16).ptr ==
                    guid.data() + guid.size();
            const auto node = hex ? f.find_node_by_guid(g) : std::nullopt;
            if (!(fields >> dlid) || !node || dlid > lids.max_lid() || dlid_index[dlid] == ~0u)
                throw InputError(a.pairs, no,
                                 "expected `0x<source node GUID> <DLID> ...` with a node and a "
                                 "DLID of this fabric");
            for (std::uint32_t s : sources_of_guid_node[*node])
                listed[s * nd + dlid_index[dlid]] = 1;
        }
    }
    if (a.sample == 0 && listed.empty())
        for (const SaPathRecord& r :
             read_saquery_path_records(run_capture(a.saquery + " -p"), a.saquery + " -p"))
            record(r);

    std::vector<std::size_t> missing;
    for (std::size_t s = 0; s < sources.size(); ++s)
        for (std::size_t d = 0; d < nd; ++d)
            if (sl[s * nd + d] < 0 && lids.owner(dlids[d]) != sources[s]) {
                if (listed.empty() || listed[s * nd + d])
                    missing.push_back(s * nd + d);
                else
                    sl[s * nd + d] = kNotAsked;
            }
    if (a.sample > 0 && missing.size() > a.sample) {
        gen::Rng rng(a.seed);
        rng.shuffle(missing);
        for (std::size_t k = a.sample; k < missing.size(); ++k) sl[missing[k]] = kNotAsked;
        missing.resize(a.sample);
        std::sort(missing.begin(), missing.end()); // ask in (source, DLID) order
    }
    if (!a.quiet && !missing.empty())
        fmt::print(stderr,
                   "ibrt sa-path-sls: {} of {} pairs not in the table answer; asking each\n",
                   missing.size(), sources.size() * nd);
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex m;
    std::string error;
    auto worker = [&] {
        for (std::size_t k; (k = next++) < missing.size();) {
            const std::size_t i = missing[k];
            const Lid slid = lids.base(sources[i / nd]), dlid = dlids[i % nd];
            const std::string cmd = fmt::format("{} -p --slid {} --dlid {}", a.saquery, slid, dlid);
            try {
                for (const SaPathRecord& r : read_saquery_path_records(run_capture(cmd), cmd))
                    if (r.slid == slid && r.dlid == dlid) {
                        std::lock_guard lock(m);
                        record(r);
                    }
            } catch (const std::exception& e) {
                std::lock_guard lock(m);
                if (error.empty()) error = e.what();
                next = missing.size();
            }
            const std::size_t n = ++done;
            if (!a.quiet && (n % 64 == 0 || n == missing.size()))
                cli::progress(fmt::format("ibrt sa-path-sls: {} of {} pairs", n, missing.size()));
        }
    };
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < std::max(1u, a.jobs); ++j) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    if (!a.quiet) cli::progress("");
    if (!error.empty()) throw std::runtime_error(error);

    // A file that leaves out pairs `ibrt check` walks says so (path_sl_file.hpp): their SLs
    // are unknown, not 0. Left out: pairs not asked, not answered, and, with --to-end-ports,
    // every path to a switch.
    std::size_t owned = 0;
    for (Lid l = 1; l <= lids.max_lid(); ++l) owned += lids.owner(l) != kNoPort;
    bool partial = nd < owned;
    for (std::size_t i = 0; i < sl.size() && !partial; ++i)
        partial = sl[i] < 0 && lids.owner(dlids[i % nd]) != sources[i / nd];
    std::ofstream out(a.out, std::ios::binary);
    if (!out) throw InputError(a.out, 0, "cannot create file");
    if (partial) out << kPartialMarker << ": pairs not listed have no known SL (not SL 0)\n";
    std::size_t written = 0, unanswered = 0;
    for (std::size_t s = 0; s < sources.size(); ++s)
        for (std::size_t d = 0; d < nd; ++d) {
            const int v = sl[s * nd + d];
            if (lids.owner(dlids[d]) == sources[s] || v == kNotAsked) continue;
            if (v == kUnanswered) {
                ++unanswered;
                continue;
            }
            out << fmt::format("0x{:016x} {} {}\n", f.node(f.port_node(sources[s])).guid, dlids[d],
                               v);
            ++written;
        }
    if (!out) throw InputError(a.out, 0, "write failed");
    fmt::print("{} path SLs from the SA of {} sources to {} DLIDs -> {}\n", written, sources.size(),
               nd, a.out);
    if (unanswered) {
        fmt::print(stderr, "ibrt sa-path-sls: the SA gave no PathRecord for {} pairs (no path?)\n",
                   unanswered);
        return kExitViolations;
    }
    return kExitOk;
}

const CommandRegistrar reg{{
    "sa-path-sls",
    "Read the path SLs a running SM hands out from its SA (saquery) into a path-SL file",
    [](CLI::App& sub) -> std::function<int()> {
        auto a = std::make_shared<Args>();
        sub.add_option("--fabric", a->fabric, "Topology (ibnetdiscover output of the subnet)")
            ->required()
            ->check(cli::input_file());
        sub.add_option("--guid2lid", a->guid2lid,
                       "LIDs from opensm's guid2lid (default: the topology's `lid` comments)")
            ->check(cli::input_file());
        sub.add_option("--out", a->out, "Path-SL file to write (`src_node_guid dlid sl`)")
            ->required();
        sub.add_option("--saquery", a->saquery,
                       "The saquery command, with options to reach the SM (e.g. 'saquery -C "
                       "mlx5_0 -P 1')")
            ->capture_default_str();
        sub.add_option("-j,--jobs", a->jobs, "Per-pair queries run at once")
            ->capture_default_str()
            ->check(CLI::Range(1u, 256u));
        sub.add_flag("--to-end-ports", a->to_end_ports,
                     "Only paths to end ports' LIDs (host traffic; about half the queries on a "
                     "direct fabric with one CA per switch). Paths to switches are left out, "
                     "and `ibrt check --end-ports-only` leaves them out");
        sub.add_option(
            "--sample", a->sample,
            "Ask only this many pairs, one by one, chosen at random with --seed, and "
            "skip the query for all (0: all pairs); the file then holds those pairs only, and "
            "says so (a file that leaves pairs out is marked partial: `ibrt check` takes their "
            "SLs as unknown, not 0)");
        sub.add_option("--seed", a->seed, "Seed of --sample")->capture_default_str();
        sub.add_option("--pairs", a->pairs,
                       "Ask only the (source node, DLID) pairs this path-SL file lists, e.g. the "
                       "pairs an engine puts on SLs other than 0")
            ->check(cli::input_file());
        sub.add_flag("-q,--quiet", a->quiet, "No progress on stderr");
        sub.footer("Then: ibrt check --fabric F --lfts opensm-lfts.dump --sl2vl "
                   "opensm-sl2vl.dump --path-sl FILE.\nExit codes: 0 every pair answered, 1 "
                   "some pair had no PathRecord, 2 bad input or saquery failed.");
        return [a] { return run(*a); };
    },
}};

} // namespace
} // namespace ibrt::tools
