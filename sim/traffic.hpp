// Synthetic traffic: destination patterns and injection processes.
//
// Patterns map a source host s in 0..N-1 to a destination host; host s is the endpoint
// order[s] of all_end_ports() (fabric/end_ports.hpp: the CAs in Fabric::cas() order, a CA's
// end ports ascending, as `ibrt check` numbers them; sim/host_order.hpp: natural, the default,
// is the identity), and
// DestinationPattern applies that order to every pattern below, in one place:
//   uniform      a uniformly random other CA;
//   hotspot      with probability `hot_fraction` the hot CA, else uniform (paper 000 §5.2's
//                "10 % centric": 10 of 100 packets go to one particular node); optionally
//                only within a time window, uniform before and after it (paper 002 Fig. 10);
//   complement   N-1-s (the bitwise complement when N is a power of two);
//   bitrev       s with its log2 N bits reversed;
//   transpose    the upper and lower halves of the log2 N bits swapped (log2 N even);
//   shuffle      the log2 N bits rotated left by one (perfect shuffle): d_i = s_(i-1 mod b);
//   bitrot       the log2 N bits rotated right by one: d_i = s_(i+1 mod b) (Dally & Towles
//                Table 3.2's "bit rotation", the "rotation" of paper 003 §4's bit patterns);
//   rotation     (s + shift) mod N, shift default N/2 (a shift of the index, not of its bits);
//   tornado      (s + ceil(N/2) - 1) mod N (BookSim's tornado on one dimension of N nodes);
//   randperm     a fixed random permutation without fixed points (Sattolo), from the seed;
//   alltoall     each source cycles s+1, s+2, ... (mod N), skipping itself;
//   pairs        explicit flows (the hot spot with victims and the parking lot of the IBA
//                congestion-control studies): a list of (source, destination) pairs; a source
//                cycles through its own pairs in the order given, one per message slot, so each
//                pair gets load / (the source's pairs); a source with no pair sends nothing.
//                A pair repeated gets that many slots, a pair (s, s) is an idle slot (s then
//                sends below its load). Read from a file by read_pairs. With a hot window
//                the pairs to `hot_node` send only inside it (idle slots outside): the classic
//                hot spot with victims appears and goes within one run.
//   hot-flows    uniform, and inside the hot window [hot_start_ps, hot_end_ps) a source that
//                has pairs sends each message with probability `hot_fraction` to one of them,
//                else uniform: message slot c of a source belongs to its pair c mod k (k pairs,
//                in the order given, as pairs cycles them), so each pair gets hot_fraction / k
//                of the source's load. Sources without pairs, and every source outside the
//                window, stay uniform throughout; a pair (s, s) makes its hot slots idle. A hot
//                spot on network links rather than on a node (paper 002 §5.3, Fig. 10: "Hot-spot
//                is produced in links 1,2,3,4 and 5"): the pairs are flows to different
//                destinations whose routes share those links, over a background every source
//                keeps. Without a window the flows are hot for the whole run.
//   bad-dragon   a uniformly random host of the next group: hosts in consecutive groups of
//                `group_hosts`, host s sends to ((s / G + 1) mod (N / G)) * G + a uniform draw
//                in 0..G-1, per message (BookSim's `bad_dragon`, traffic.cpp
//                BadPermDFlyTrafficPattern: on `ibrt gen dragonfly`, whose CAs are numbered
//                group by group as BookSim's dragonflynew numbers its nodes, G = a * p and every
//                group's traffic crosses the one global cable to the next group).
// A source whose destination is itself sends nothing. The bit patterns need N a power of two.
// uniform is the same under every order; hotspot's hot node and the pairs (of pairs and
// hot-flows) are endpoint indices (all_end_ports() order) whatever the order.
//
// Injection: `constant` generates a message every message_time / load, `bernoulli` one with
// probability `load` per message time (geometric gaps), where message_time is the message's
// serialization time on the source's own link: load 1.0 is the link's bandwidth.
#pragma once

#include "fabric/rng.hpp"
#include "sim/host_order.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ibrt::sim {

enum class Pattern {
    Uniform,
    Hotspot,
    Complement,
    BitReversal,
    Transpose,
    Shuffle,
    BitRotation,
    Rotation,
    Tornado,
    RandomPermutation,
    AllToAll,
    Pairs,
    BadDragon,
    HotFlows
};
enum class Injection { Bernoulli, Constant };

std::optional<Pattern> parse_pattern(std::string_view s);
std::string_view to_string(Pattern p);
std::string pattern_names(); // "uniform, hotspot, ..." for help texts
// The patterns that read (source, destination) pairs (TrafficSpec::pairs, --pairs-file).
constexpr bool reads_pairs(Pattern p) {
    return p == Pattern::Pairs || p == Pattern::HotFlows;
}
// The patterns a hot window [hot_start_ps, hot_end_ps) applies to.
constexpr bool has_hot_window(Pattern p) {
    return p == Pattern::Hotspot || reads_pairs(p);
}
std::optional<Injection> parse_injection(std::string_view s);
std::string_view to_string(Injection i);

struct TrafficSpec {
    Pattern pattern = Pattern::Uniform;
    Injection injection = Injection::Bernoulli;
    double load = 0.5;          // offered load, fraction of the source link's bandwidth
    double hot_fraction = 0.1;  // hotspot: share to the hot node; hot-flows: share to the pairs
    std::uint32_t hot_node = 0; // hotspot: endpoint index; pairs: with a hot window
    // hotspot: the hot spot exists only for messages scheduled in [hot_start_ps, hot_end_ps);
    // outside it the traffic is uniform (paper 002 Fig. 10: a hot spot appears and goes).
    // pairs: the pairs to hot_node send only in that window (idle slots outside it).
    // hot-flows: the sources send to their pairs only in that window (uniform outside it).
    std::uint64_t hot_start_ps = 0, hot_end_ps = ~std::uint64_t(0);
    std::optional<std::uint32_t> shift;        // rotation; default N/2
    std::uint32_t group_hosts = 0;             // bad-dragon: hosts per group (required)
    HostOrder host_order = HostOrder::Natural; // which end node host i is (sim/host_order.hpp)
    // pairs, hot-flows: (source, destination) CA indices, in the order a source cycles through
    // them.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
};

// The pairs of a pairs file: one "SOURCE DESTINATION" pair of endpoint indices
// (all_end_ports() order) per line, `#` starts a comment, blank lines are skipped. Throws
// InputError naming `source` and the line (not two whole numbers, a number above 2^31).
std::vector<std::pair<std::uint32_t, std::uint32_t>> read_pairs(std::string_view text,
                                                                const std::string& source);

// Destination chooser for N sources. Throws std::invalid_argument when the pattern cannot be
// applied to N (bit patterns on a non-power of two, hot node or a pair out of range, pairs or
// hot-flows without pairs, a hot window that ends before it starts) or `order` is not
// a permutation of 0..N-1. `order` is host_order() of spec.host_order (order[i]: the endpoint
// index of host i); empty means the identity. Sources and destinations of next() are endpoint
// indices.
class DestinationPattern {
  public:
    DestinationPattern(const TrafficSpec& spec, std::uint32_t n, std::uint64_t seed,
                       std::vector<std::uint32_t> order = {});
    // The destination of the next message of `src`, or src itself when it sends nothing.
    // `rng` is the source's own generator; `counter` its message count (alltoall, the pair of
    // pairs and hot-flows); `t_ps` when the message is due (the hot window).
    std::uint32_t next(std::uint32_t src, gen::Rng& rng, std::uint64_t counter,
                       std::uint64_t t_ps = 0) const;

  private:
    TrafficSpec spec_;
    std::uint32_t n_ = 0;
    std::vector<std::uint32_t> fixed_; // precomputed destinations of the permutation patterns
    // alltoall under a host order other than the identity: order_[host], rank_[CA] (its host).
    std::vector<std::uint32_t> order_, rank_;
    // pairs, hot-flows: source s's destinations are
    // pair_dst_[pair_begin_[s] .. pair_begin_[s + 1]).
    std::vector<std::uint32_t> pair_begin_, pair_dst_;
};

} // namespace ibrt::sim
