// Destination patterns (the pairs file of the congestion-control scenarios too, and the hot flows
// of a link hot spot) and VL arbitration, exactly.
#include "fabric/input_error.hpp"
#include "sim/config_check.hpp"
#include "sim/simulator.hpp"
#include "sim/traffic.hpp"
#include "sim/vl_arbiter.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

using namespace ibrt;
using namespace ibrt::sim;

namespace {
std::vector<std::uint32_t> map_all(Pattern p, std::uint32_t n,
                                   std::optional<std::uint32_t> shift = {}) {
    TrafficSpec s;
    s.pattern = p;
    s.shift = shift;
    DestinationPattern d(s, n, 1);
    gen::Rng rng(1);
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(d.next(i, rng, 0));
    return out;
}
using V = std::vector<std::uint32_t>;
} // namespace

TEST_CASE("permutation patterns on 8 and 16 nodes") {
    CHECK(map_all(Pattern::Complement, 8) == V{7, 6, 5, 4, 3, 2, 1, 0});
    CHECK(map_all(Pattern::BitReversal, 8) == V{0, 4, 2, 6, 1, 5, 3, 7});
    CHECK(map_all(Pattern::Shuffle, 8) == V{0, 2, 4, 6, 1, 3, 5, 7});
    CHECK(map_all(Pattern::Tornado, 8) == V{3, 4, 5, 6, 7, 0, 1, 2});
    // Dally & Towles Table 3.2's bit rotation, d_i = s_(i+1 mod b): paper 003 §4's "Rotn"
    // (not the index rotation below). It is the inverse of the shuffle.
    CHECK(map_all(Pattern::BitRotation, 8) == V{0, 4, 1, 5, 2, 6, 3, 7});
    CHECK(map_all(Pattern::Rotation, 8) == V{4, 5, 6, 7, 0, 1, 2, 3});
    CHECK(map_all(Pattern::Rotation, 8, 1) == V{1, 2, 3, 4, 5, 6, 7, 0});
    CHECK(map_all(Pattern::Transpose, 16) ==
          V{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15});
    const V shuffle = map_all(Pattern::Shuffle, 16), rot = map_all(Pattern::BitRotation, 16);
    for (std::uint32_t i = 0; i < 16; ++i) CHECK(rot[shuffle[i]] == i);
    // Each bit pattern of Dally & Towles Table 3.2, bit by bit on 2^6 nodes (b = 6).
    const std::uint32_t b = 6, n = 1u << b;
    const V cmp = map_all(Pattern::Complement, n), rev = map_all(Pattern::BitReversal, n),
            shf = map_all(Pattern::Shuffle, n), brt = map_all(Pattern::BitRotation, n),
            trn = map_all(Pattern::Transpose, n);
    const auto bit = [](std::uint32_t x, std::uint32_t i) { return (x >> i) & 1u; };
    for (std::uint32_t s = 0; s < n; ++s)
        for (std::uint32_t i = 0; i < b; ++i) {
            CHECK(bit(cmp[s], i) == 1 - bit(s, i));
            CHECK(bit(rev[s], i) == bit(s, b - 1 - i));
            CHECK(bit(brt[s], i) == bit(s, (i + 1) % b));
            CHECK(bit(shf[s], i) == bit(s, (i + b - 1) % b));
            CHECK(bit(trn[s], i) == bit(s, (i + b / 2) % b));
        }
    CHECK_THROWS_AS(map_all(Pattern::BitRotation, 12), std::invalid_argument);
    const V p = map_all(Pattern::RandomPermutation, 16);
    CHECK(std::set<std::uint32_t>(p.begin(), p.end()).size() == 16);
    for (std::uint32_t i = 0; i < 16; ++i) CHECK(p[i] != i);
}

TEST_CASE("all-to-all cycles through every other node") {
    TrafficSpec s;
    s.pattern = Pattern::AllToAll;
    DestinationPattern d(s, 4, 1);
    gen::Rng rng(1);
    V got;
    for (std::uint64_t k = 0; k < 6; ++k) got.push_back(d.next(2, rng, k));
    CHECK(got == V{3, 0, 1, 3, 0, 1});
}

TEST_CASE("bad-dragon sends every host to a uniformly random host of the next group") {
    // BookSim's bad_dragon on dragonflynew k = 1 (a = 2, p = 1: 3 groups of 2 hosts), here 4
    // groups of 3 hosts: host s to ((s / 3 + 1) mod 4) * 3 + a draw in 0..2.
    TrafficSpec s;
    s.pattern = Pattern::BadDragon;
    s.group_hosts = 3;
    DestinationPattern d(s, 12, 1);
    gen::Rng rng(5);
    for (std::uint32_t src = 0; src < 12; ++src) {
        std::vector<int> hist(12, 0);
        for (int k = 0; k < 3000; ++k) ++hist[d.next(src, rng, 0)];
        const std::uint32_t next = (src / 3 + 1) % 4 * 3;
        for (std::uint32_t x = 0; x < 12; ++x) {
            if (x >= next && x < next + 3)
                CHECK(std::abs(hist[x] - 1000) < 120);
            else
                CHECK(hist[x] == 0);
        }
    }
    // Under a host order the groups are of host indices: CA order[s] sends to a CA order[d].
    std::vector<std::uint32_t> order(12);
    for (std::uint32_t i = 0; i < 12; ++i) order[i] = (i * 5) % 12; // a bijection
    DestinationPattern o(s, 12, 1, order);
    for (std::uint32_t host = 0; host < 12; ++host)
        for (int k = 0; k < 50; ++k) {
            const std::uint32_t ca = o.next(order[host], rng, 0);
            std::uint32_t dst_host = 0;
            while (order[dst_host] != ca) ++dst_host;
            CHECK(dst_host / 3 == (host / 3 + 1) % 4);
        }
    CHECK(parse_pattern("bad-dragon") == Pattern::BadDragon);
    CHECK(to_string(Pattern::BadDragon) == "bad-dragon");
    s.group_hosts = 0;
    CHECK_THROWS_WITH(DestinationPattern(s, 12, 1),
                      "pattern bad-dragon needs the hosts per group (--group-hosts)");
    s.group_hosts = 5;
    CHECK_THROWS_WITH(DestinationPattern(s, 12, 1),
                      "pattern bad-dragon needs at least two whole groups of 5 hosts, have 12 end "
                      "nodes");
    s.group_hosts = 12;
    CHECK_THROWS_AS(DestinationPattern(s, 12, 1), std::invalid_argument);
}

TEST_CASE("uniform never picks the source and hot spot picks the hot node at its fraction") {
    TrafficSpec s;
    DestinationPattern u(s, 5, 1);
    gen::Rng rng(7);
    std::vector<int> hist(5, 0);
    for (int k = 0; k < 10000; ++k) ++hist[u.next(3, rng, 0)];
    CHECK(hist[3] == 0);
    for (int i : {0, 1, 2, 4}) CHECK(hist[i] == Approx(2500).margin(200));

    s.pattern = Pattern::Hotspot;
    s.hot_fraction = 0.1;
    s.hot_node = 0;
    DestinationPattern h(s, 11, 1);
    int hot = 0;
    for (int k = 0; k < 100000; ++k) hot += h.next(5, rng, 0) == 0;
    // 10 % directly plus 1/10 of the remaining uniform 90 %.
    CHECK(hot == Approx(100000 * (0.1 + 0.9 / 10)).margin(1000));
}

TEST_CASE("patterns that do not fit are refused") {
    TrafficSpec s;
    s.pattern = Pattern::Transpose;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1),
                      "pattern transpose needs an even number of address bits, have 8 end nodes");
    s.pattern = Pattern::Hotspot;
    s.hot_node = 9;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "hot node 9 out of range (0..7)");
    CHECK(parse_pattern("centric") == Pattern::Hotspot);
    CHECK(!parse_pattern("nope"));
}

TEST_CASE("a NaN hot fraction and a rotation onto the source itself are refused (issue 19)") {
    TrafficSpec s;
    s.pattern = Pattern::Hotspot;
    s.hot_fraction = std::nan("");
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "hot fraction must be in 0..1");
    s.hot_fraction = 0.5;
    CHECK_NOTHROW(DestinationPattern(s, 8, 1));
    s.pattern = Pattern::Rotation;
    for (std::uint32_t shift : {0u, 8u, 16u}) {
        s.shift = shift;
        CHECK_THROWS_WITH(DestinationPattern(s, 8, 1),
                          "rotation shift " + std::to_string(shift) +
                              " is a multiple of the 8 end nodes: every message would go to its "
                              "own source");
    }
    CHECK(map_all(Pattern::Rotation, 8, 9) == V{1, 2, 3, 4, 5, 6, 7, 0});
}

TEST_CASE("VL arbitration: weighted round robin and the high-priority limit") {
    VlArbConfig c;
    c.low = {{0, 2}, {1, 1}}; // VL0 gets 128 bytes per turn, VL1 64
    VlArbState st;
    std::string seq;
    for (int k = 0; k < 9; ++k) seq += char('0' + vl_arbitrate(c, st, 0b11, 64));
    CHECK(seq == "001001001");
    // A VL with nothing ready is skipped.
    st = {};
    seq.clear();
    for (int k = 0; k < 3; ++k) seq += char('0' + vl_arbitrate(c, st, 0b10, 64));
    CHECK(seq == "111");

    VlArbConfig h;
    h.high = {{1, 255}};
    h.low = {{0, 1}};
    h.high_limit = 1; // 4096 bytes of high priority while low waits
    st = {};
    seq.clear();
    for (int k = 0; k < 6; ++k) seq += char('0' + vl_arbitrate(h, st, 0b11, 2048));
    CHECK(seq == "110110");
    CHECK(vl_arbitrate(h, st, 0, 64) == kNoVl);
}

TEST_CASE("pairs: each source cycles through its own pairs, repeats weigh, (s, s) idles") {
    const auto pairs = read_pairs("# hot spot and a victim\n1 0\n2 0   # contributor\n\n"
                                  "3 5\n3 3\n3 6\n3 5\n",
                                  "p.txt");
    using P = std::pair<std::uint32_t, std::uint32_t>;
    CHECK(pairs == std::vector<P>{{1, 0}, {2, 0}, {3, 5}, {3, 3}, {3, 6}, {3, 5}});
    TrafficSpec s;
    s.pattern = Pattern::Pairs;
    s.pairs = pairs;
    DestinationPattern d(s, 8, 1);
    gen::Rng rng(1);
    V got;
    for (std::uint64_t k = 0; k < 8; ++k) got.push_back(d.next(3, rng, k));
    CHECK(got == V{5, 3, 6, 5, 5, 3, 6, 5}); // 5 gets half the slots, one in four idles
    for (std::uint64_t k = 0; k < 3; ++k) CHECK(d.next(1, rng, k) == 0);
    CHECK(d.next(4, rng, 0) == 4); // no pair: sends nothing
    CHECK(parse_pattern("pairs") == Pattern::Pairs);
}

TEST_CASE("pairs with a hot window: the pairs to the hot node send only inside it") {
    TrafficSpec s;
    s.pattern = Pattern::Pairs;
    s.pairs = {{1, 0}, {3, 0}, {3, 5}};
    s.hot_node = 0;
    s.hot_start_ps = 1000;
    s.hot_end_ps = 2000;
    DestinationPattern d(s, 8, 1);
    gen::Rng rng(1);
    for (std::uint64_t t : {0, 999, 2000, 5000}) { // outside: the hot pairs idle, the rest send
        CHECK(d.next(1, rng, 0, t) == 1);
        CHECK(d.next(3, rng, 0, t) == 3);
        CHECK(d.next(3, rng, 1, t) == 5);
    }
    for (std::uint64_t t : {1000, 1999}) {
        CHECK(d.next(1, rng, 0, t) == 0);
        CHECK(d.next(3, rng, 0, t) == 0);
        CHECK(d.next(3, rng, 1, t) == 5);
    }
    // Without a window every slot is in it, whatever the hot node; with one, the hot node must
    // exist.
    TrafficSpec all = s;
    all.hot_start_ps = 0;
    all.hot_end_ps = ~std::uint64_t(0);
    all.hot_node = 99;
    CHECK(DestinationPattern(all, 8, 1).next(3, rng, 1, 0) == 5);
    s.hot_node = 8;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "hot node 8 out of range (0..7)");
}

TEST_CASE("pairs: bad lines name the file and line, end nodes out of range are refused") {
    const auto line_of = [](const char* text) {
        try {
            read_pairs(text, "p.txt");
        } catch (const InputError& e) {
            CHECK(e.file() == "p.txt");
            return e.line();
        }
        return 0;
    };
    CHECK(line_of("1 2\n3\n") == 2);
    CHECK(line_of("1 2\n\n1 2 3\n") == 3);
    CHECK(line_of("1 -2\n") == 1);
    CHECK(line_of("1 x2\n") == 1);
    CHECK(line_of("1 99999999999\n") == 1);
    CHECK(line_of("1 2\r\n# x\n") == 0);
    TrafficSpec s;
    s.pattern = Pattern::Pairs;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "pattern pairs needs pairs");
    s.pairs = {{1, 8}};
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1),
                      "pair 1 8 names an end node out of range (0..7)");
}

namespace {
// Whether `count` successes of `trials` fit a binomial of probability p: within 4.5 standard
// deviations (a false alarm once in 10^5 seeds; these are seeded, so they either pass or not).
bool binomial_fits(int count, int trials, double p) {
    const double mean = trials * p, sd = std::sqrt(trials * p * (1 - p));
    return std::abs(count - mean) <= 4.5 * sd;
}
} // namespace

TEST_CASE("hot-flows: in the window a listed source sends its hot fraction to its pairs in turn") {
    // 16 CAs; source 3 has three pairs (in this order), source 7 one; the others none.
    TrafficSpec s;
    s.pattern = Pattern::HotFlows;
    s.pairs = {{3, 5}, {7, 2}, {3, 9}, {3, 12}};
    s.hot_fraction = 0.4;
    s.hot_start_ps = 1'000'000;
    s.hot_end_ps = 2'000'000;
    const std::uint32_t n = 16;
    DestinationPattern d(s, n, 1);
    const std::uint32_t pair3[] = {5, 9, 12};
    const double f = s.hot_fraction, other = (1 - f) / (n - 1); // P(a given other CA | uniform)

    // Inside the window: slot c of source 3 goes to pair3[c % 3] with probability f + other
    // (hot, or uniform by chance), to each of its two other pairs with `other` alone.
    gen::Rng rng(11);
    const int per_slot = 20000;
    int to_own[3] = {}, to_others[3] = {}, to_pairs = 0;
    std::vector<int> hist(n, 0);
    for (std::uint64_t c = 0; c < 3u * per_slot; ++c) {
        const std::uint32_t dst = d.next(3, rng, c, 1'500'000);
        ++hist[dst];
        const std::uint32_t j = std::uint32_t(c % 3);
        for (std::uint32_t i = 0; i < 3; ++i)
            if (dst == pair3[i]) {
                ++to_pairs;
                ++(i == j ? to_own[j] : to_others[j]);
            }
    }
    CHECK(hist[3] == 0);
    for (std::uint32_t j = 0; j < 3; ++j) {
        CHECK(binomial_fits(to_own[j], per_slot, f + other));
        CHECK(binomial_fits(to_others[j], per_slot, 2 * other));
    }
    // Close to the hot fraction in all: f directly plus the uniform share that lands on a pair.
    CHECK(binomial_fits(to_pairs, 3 * per_slot, f + 3 * other));
    // The rest is uniform over the 12 CAs that are neither the source nor a pair.
    for (std::uint32_t x = 0; x < n; ++x)
        if (x != 3 && x != 5 && x != 9 && x != 12)
            CHECK(binomial_fits(hist[x], 3 * per_slot, other));
    // The one-pair source: every hot message to its pair.
    int to_2 = 0;
    for (std::uint64_t c = 0; c < 20000; ++c) to_2 += d.next(7, rng, c, 1'999'999) == 2;
    CHECK(binomial_fits(to_2, 20000, f + other));

    // With every message hot the cycle is exact: the pairs in file order, slot by slot.
    TrafficSpec all = s;
    all.hot_fraction = 1;
    DestinationPattern h(all, n, 1);
    V got;
    for (std::uint64_t c = 0; c < 7; ++c) got.push_back(h.next(3, rng, c, 1'000'000));
    CHECK(got == V{5, 9, 12, 5, 9, 12, 5});
    // A pair (s, s) is an idle hot slot.
    all.pairs = {{4, 4}, {4, 6}};
    DestinationPattern idle(all, n, 1);
    CHECK(idle.next(4, rng, 0, 1'000'000) == 4);
    CHECK(idle.next(4, rng, 1, 1'000'000) == 6);
    CHECK(parse_pattern("hot-flows") == Pattern::HotFlows);
    CHECK(to_string(Pattern::HotFlows) == "hot-flows");
    CHECK_THAT(pattern_names(), Catch::Contains("pairs, hot-flows"));
}

TEST_CASE("hot-flows: uniform outside the window and for sources without pairs") {
    TrafficSpec s;
    s.pattern = Pattern::HotFlows;
    s.pairs = {{3, 5}, {3, 9}};
    s.hot_fraction = 0.5;
    s.hot_start_ps = 1'000'000;
    s.hot_end_ps = 2'000'000;
    const std::uint32_t n = 16;
    DestinationPattern d(s, n, 1);
    gen::Rng rng(12);
    const int m = 30000;
    // (source, time): the listed source before and after the window (its end excluded), an
    // unlisted one inside it.
    const std::pair<std::uint32_t, std::uint64_t> cases[] = {
        {3, 0}, {3, 999'999}, {3, 2'000'000}, {3, 9'000'000}, {0, 1'500'000}, {15, 1'000'000}};
    for (const auto& [src, t] : cases) {
        CAPTURE(src, t);
        std::vector<int> hist(n, 0);
        for (std::uint64_t c = 0; c < std::uint64_t(m); ++c) ++hist[d.next(src, rng, c, t)];
        CHECK(hist[src] == 0);
        for (std::uint32_t x = 0; x < n; ++x)
            if (x != src) CHECK(binomial_fits(hist[x], m, 1.0 / (n - 1)));
    }
    // Inside the window the pairs draw far above a uniform share: what the cases above would
    // miss if the window were ignored.
    int to_5 = 0;
    for (std::uint64_t c = 0; c < std::uint64_t(m); c += 2)
        to_5 += d.next(3, rng, c, 1'000'000) == 5;
    CHECK(binomial_fits(to_5, m / 2, 0.5 + 0.5 / (n - 1)));
    CHECK(!binomial_fits(to_5, m / 2, 1.0 / (n - 1)));
    // The same seed gives the same destinations.
    gen::Rng a(3), b(3);
    for (std::uint64_t c = 0; c < 100; ++c)
        CHECK(d.next(3, a, c, 1'500'000) == d.next(3, b, c, 1'500'000));
}

TEST_CASE(
    "hot-flows: no pairs, pairs out of range, an empty window and a bad fraction are refused") {
    TrafficSpec s;
    s.pattern = Pattern::HotFlows;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "pattern hot-flows needs pairs");
    s.pairs = {{1, 2}, {8, 1}};
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1),
                      "pair 8 1 names an end node out of range (0..7)");
    s.pairs = {{1, 2}};
    s.hot_start_ps = s.hot_end_ps = 5000;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "the hot spot ends before it starts");
    s.hot_end_ps = 6000;
    CHECK_NOTHROW(DestinationPattern(s, 8, 1));
    s.hot_fraction = std::nan("");
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "hot fraction must be in 0..1");
    s.hot_fraction = 1.5;
    CHECK_THROWS_WITH(DestinationPattern(s, 8, 1), "hot fraction must be in 0..1");
}

TEST_CASE("hot-flows: the configuration check refuses it without pairs or without a window") {
    SimConfig c;
    c.traffic.pattern = Pattern::HotFlows;
    CHECK_THROWS_WITH(check_config(c), "pattern hot-flows needs pairs (SOURCE DESTINATION lines "
                                       "of --pairs-file): none given");
    c.traffic.pattern = Pattern::Pairs;
    CHECK_THROWS_WITH(check_config(c), "pattern pairs needs pairs (SOURCE DESTINATION lines of "
                                       "--pairs-file): none given");
    c.traffic.pattern = Pattern::HotFlows;
    c.traffic.pairs = {{1, 2}};
    CHECK_NOTHROW(check_config(c));
    c.traffic.hot_start_ps = 2000;
    c.traffic.hot_end_ps = 1000;
    CHECK_THROWS_WITH(check_config(c), "the hot spot must start before it ends");
}
