// The two path computations of paper 001 §VI, both restricted to Up*/Down* legal routes
// (updown.hpp), one path per ordered pair of distinct CAs.
//
// shortest-widest: pairs one by one (destinations in Fabric::cas() order, sources in the same
// order); every directed edge starts with weight 1 and gains 1 per path that uses it; a pair
// gets the legal route with the fewest hops, and among those the smallest weight sum (ties:
// lowest port numbers first). Weights are per directed edge: a cable carries the two
// directions independently.
// Variants (WidestOptions, issue 39: paper 001's text allows other readings; the default is the
// rule above, the study measures the others): weights per cable (both directions of a cable
// share one weight, +1 whichever way a path crosses it); cost = bottleneck (the smallest
// MAXIMUM switch-to-switch link weight among the fewest-hop routes, the "widest" path; a
// pair's CA links are on all its routes; ties lowest ports, as above); pair order source-major
// (sources in Fabric::cas() order, all destinations of one source in that order) or random (all
// ordered pairs shuffled by order_seed). The order only changes which route a pair gets: every
// DestPaths keeps its sources in Fabric::cas() order.
//
// path-selection: as in §VI, up to `candidates` (16) loopless legal routes per pair from
// Yen's k shortest paths (yen.hpp; computed once per switch pair, ordered by hops then
// PortIds, so longer routes join when fewer than 16 shortest exist), then Koibuchi, Jouraku,
// Amano's most-loaded-link-first selection (paper 001 ref. [12]). Load of a directed link =
// sum over the pairs of (that pair's candidates through the link) / (that pair's
// candidates), kept exactly in integers scaled by lcm(1..16). Selection: take the link of
// highest load on which some pair still has a candidate avoiding it (ties: lowest PortId);
// drop that pair's candidates through the link; repeat until every pair has one candidate
// left. Documented deviation: one visit of the most loaded link drops classes (lowest first)
// until it is no longer above the next most loaded link, rather than one class per global
// re-selection.
//
// Classes (PairClasses): by CA pair, each pair alone, in (destination, source) Fabric::cas()
// order: the rule above. By switch pair (engine `separate`, issue 12): the CA pairs whose CAs
// hang off the same two switches (u, t) share their candidates and form one class, dropped
// together (one reduction removes the candidates through the link from every pair of the
// class, weight = its number of pairs), so all pairs of a switch pair keep the same route;
// classes in order of their first CA pair. Cost: the pairs of one switch pair are no longer
// spread over several routes; on the benchmark fabrics the maximum link load stays within
// 0.5 % of selecting pair by pair and color/L needs fewer LIDs (a destination's paths from
// one switch never split); on a fabric with few switch pairs (two leaves) it is visibly
// worse. Pair by pair took 10 M reductions on the 1,056-host Dragonfly, where tied links let
// one visit drop one pair (docs/history/performance-log.md, "separate on real sizes").
//
// Data layout: candidates stored once per switch pair, as one block per class (weight, lengths
// and link ids, 16-bit ids when the links fit: a reduction reads one random place); state per
// class (a 16-bit mask of the candidates still alive, beside where its block is), each link
// lists the classes with a candidate through it and which ones, and the most loaded link comes
// from a max tree over the links, updated once per edge and reduction.
// tests/lidassign/test_path_compute.cpp keeps the plain rule (per CA pair, optionally dropping a
// switch pair's pairs together) as the reference for both.
#pragma once

#include "graph/updown.hpp"
#include "lidassign/heuristics.hpp"
#include "lidassign/paths.hpp"

#include <functional>
#include <string_view>

namespace ibrt::lidassign {

enum class PathScheme { ShortestWidest, PathSelection };
std::string_view to_string(PathScheme s);

struct PathOptions {
    std::uint64_t seed = 1; // Up*/Down* root choice
    int candidates = 16;
};

// One DestPaths per CA in Fabric::cas() order (dst = that CA), sources in the same order;
// a pair without a legal route is left out (the fabric is disconnected).
PathSet compute_paths(const Fabric& f, PathScheme s, const PathOptions& opt = {});

// Shortest-widest's variants (above); the defaults are the rule of the header.
struct WidestOptions {
    enum class Weights { PerDirection, PerCable } weights = Weights::PerDirection;
    enum class Cost { Sum, Bottleneck } cost = Cost::Sum;
    enum class Order { DestinationMajor, SourceMajor, Random } order = Order::DestinationMajor;
    std::uint64_t order_seed = 1; // Order::Random only
};
PathSet shortest_widest(const Fabric& f, const graph::UpDown& ud, const WidestOptions& w = {});
// Which CA pairs form one class of path selection (above): each CA pair alone (the paper's
// rule; the study and `ibrt lids` use it), or all CA pairs of one switch pair (engine
// `separate`, issue 12: 16x to 64x fewer classes).
enum class PairClasses { CaPair, SwitchPair };

// Path selection's result: one switch-level route per class (switch-to-switch edges only;
// the empty route when both CAs hang off one switch).
struct SelectedPaths {
    static constexpr std::uint32_t kNone = 0xffffffffu;
    PairClasses by = PairClasses::CaPair;
    std::size_t num_switches = 0, num_cas = 0;
    std::vector<std::uint32_t> index;  // per node: its index in Fabric::switches(), or kNone
    std::vector<std::uint32_t> chosen; // per class (pair di * num_cas + si, or switch pair
                                       // index[u] * num_switches + index[t]): route or kNone
    std::vector<std::uint32_t> off{0}; // route r is edges[off[r], off[r+1])
    std::vector<PortId> edges;
    // The route of the pair from the si-th to the di-th CA of Fabric::cas(), hanging off
    // nodes u and t, or kNone (no legal route, or a CA not cabled to a switch).
    std::uint32_t route_of(std::size_t si, std::size_t di, NodeId u, NodeId t) const;
    std::span<const PortId> route(std::uint32_t r) const;
};

// The link ids the selection stores its candidates in: 16 bits when the fabric's switch-to-switch
// links fit (Auto; half the memory of the loop's random reads), else 32. Wide forces 32 bits
// (tests: the selection is the same either way).
enum class LinkIds { Auto, Wide };
// Which of Yen's routes are candidates: all `candidates` k shortest (the rule above: longer
// routes join when fewer than k shortest exist), or only those as short as the pair's shortest
// legal route (issue 39: paper 001's "some pairs may not have 16 different shortest paths"
// allows this reading too).
enum class Candidates { KShortest, Shortest };
// progress, if set, is called now and then with the fraction done (for long runs; no I/O here).
SelectedPaths select_paths(const Fabric& f, const graph::UpDown& ud, PairClasses by,
                           int candidates = 16, const std::function<void(double)>& progress = {},
                           LinkIds ids = LinkIds::Auto, Candidates which = Candidates::KShortest);
// The CA-level paths of a switch-level selection (CA up edge, route, CA down edge), one
// destination at a time (a whole PathSet is one path per CA pair: 268 M at 16,384 hosts).
class CaPaths {
  public:
    CaPaths(const Fabric& f, const SelectedPaths& sp); // both must outlive this
    // The paths to the di-th CA of Fabric::cas(), sources in that order (ca_paths()[di]).
    DestPaths to(std::size_t di) const;
    // route_classes(f, to(di)) without generating the paths, and per path its source (index in
    // Fabric::cas()) in src. By switch pair, every path from the CAs of one switch u is the CA's
    // own edge and then the same edges (route(u, t), the edge into the destination), so the
    // classes are the source switches in order of their first CA, and a CA cabled straight to
    // the destination is a class of its own (issue 12: 16,383 paths per destination at 16,384
    // hosts, about 1,000 classes). By CA pair it generates the paths. Not thread-safe (scratch).
    RouteClasses classes_to(std::size_t di, std::vector<std::uint32_t>& src) const;

  private:
    const Fabric& f_;
    const SelectedPaths& sp_;
    std::vector<PortId> sport_;                     // per CA: its first end port
    std::vector<std::uint32_t> ca_index_;           // per node: its index in Fabric::cas()
    mutable std::vector<std::uint32_t> at_, stamp_; // per switch: its class, valid at epoch_
    mutable std::uint32_t epoch_ = 0;
};
PathSet ca_paths(const Fabric& f, const SelectedPaths& sp);
// select_paths by CA pair (the paper's rule), then ca_paths.
PathSet path_selection(const Fabric& f, const graph::UpDown& ud, int candidates = 16,
                       const std::function<void(double)>& progress = {},
                       Candidates which = Candidates::KShortest);

// All-to-all link load of a path set: max over directed switch-to-switch links
// (graph/link_load.hpp) of the paths using it, divided by (#CAs - 1) (paper 001 §VI.D normalises
// each machine's traffic to 1).
double max_link_load(const Fabric& f, const PathSet& paths);
// The same from the paths' count per directed edge (PortId-indexed).
double max_link_load(const Fabric& f, std::span<const std::uint64_t> load);

} // namespace ibrt::lidassign
