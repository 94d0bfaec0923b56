// The host order of the traffic patterns (sim/host_order.hpp): each order is a bijection, a
// pure function of (fabric, order, seed), and DestinationPattern applies it to the patterns as
// "CA order[s] sends to CA order[pattern(s)]", checked on an example worked by hand.
#include "fabric/end_ports.hpp"
#include "generators/hyperx.hpp"
#include "sim/host_order.hpp"
#include "sim/traffic.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace ibrt;
using namespace ibrt::sim;

namespace {
using V = std::vector<std::uint32_t>;

// The destination CA of every source CA.
V map_all(Pattern p, const V& order, std::optional<std::uint32_t> shift = {}) {
    TrafficSpec s;
    s.pattern = p;
    s.shift = shift;
    const auto n = std::uint32_t(order.size());
    DestinationPattern d(s, n, 1, order);
    gen::Rng rng(1);
    V out;
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(d.next(i, rng, 0));
    return out;
}

bool bijection(const V& v) {
    return std::set<std::uint32_t>(v.begin(), v.end()).size() == v.size() &&
           (v.empty() || *std::max_element(v.begin(), v.end()) == v.size() - 1);
}

// The switch an end node is cabled to.
NodeId switch_of(const Fabric& f, std::uint32_t ca) {
    return f.port(first_end_port(f, f.cas()[ca])).peer_node;
}
} // namespace

TEST_CASE("host orders are bijections, deterministic, and port-major puts the port first") {
    // 8 switches of a complete graph, 2 CAs each: CA c = 2 * switch + port (ibrt gen's order).
    const Fabric f = gen::hyperx({{8}, {}, 2, 0});
    REQUIRE(f.cas().size() == 16);
    for (std::uint32_t c = 0; c < 16; ++c) CHECK(switch_of(f, c) == switch_of(f, c & ~1u));

    const V nat = host_order(f, all_end_ports(f), HostOrder::Natural, 1);
    for (std::uint32_t i = 0; i < 16; ++i) CHECK(nat[i] == i);

    // Port-major: host h = 8 * port + switch, so host h is CA 2 * (h mod 8) + h / 8.
    const V pm = host_order(f, all_end_ports(f), HostOrder::PortMajor, 1);
    CHECK(pm == V{0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15});
    // Hosts 0..7 are the first CA of each switch, in switch order; 8..15 the second.
    std::set<NodeId> first;
    for (std::uint32_t h = 0; h < 8; ++h) first.insert(switch_of(f, pm[h]));
    CHECK(first.size() == 8);
    for (std::uint32_t h = 0; h < 8; ++h) CHECK(switch_of(f, pm[h]) == switch_of(f, pm[h + 8]));

    const V r1 = host_order(f, all_end_ports(f), HostOrder::Random, 1),
            r1b = host_order(f, all_end_ports(f), HostOrder::Random, 1),
            r2 = host_order(f, all_end_ports(f), HostOrder::Random, 2);
    CHECK(bijection(pm));
    CHECK(bijection(r1));
    CHECK(bijection(r2));
    CHECK(r1 == r1b);
    CHECK(r1 != r2);
    CHECK(r1 != nat);

    // Neither count a power of two: a 3x4 HyperX (12 switches) with 3 CAs each; host h < 12 is
    // the first CA of switch h, CA 3h.
    const Fabric g = gen::hyperx({{3, 4}, {}, 3, 0});
    const V pg = host_order(g, all_end_ports(g), HostOrder::PortMajor, 1);
    CHECK(bijection(pg));
    for (std::uint32_t h = 0; h < 12; ++h) CHECK(pg[h] == 3 * h); // slot 0 of switch h
}

TEST_CASE("every pattern under port-major matches its definition on 8 switches x 2 CAs") {
    // Host h = (p, s2, s1, s0) = 8p + s, CA c = (s2, s1, s0, p) = 2s + p: port-major rotates
    // the index right by one bit. Complement, shuffle, bit rotation and transpose (a rotation
    // by b/2) commute with a rotation, so on CAs they are the natural ones; bit reversal and
    // the index shift are not.
    const V pm{0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
    const V id{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    for (Pattern p :
         {Pattern::Complement, Pattern::Shuffle, Pattern::BitRotation, Pattern::Transpose})
        CHECK(map_all(p, pm) == map_all(p, id));
    CHECK(map_all(Pattern::Tornado, pm) != map_all(Pattern::Tornado, id));
    // Transpose by hand: CA 1 = (switch 0, port 1) is host 8 = 1000b; halves swapped, 0010b =
    // host 2 = (port 0, switch 2) = CA 4. CA 4 = (switch 2, port 0) is host 2 = 0010b -> 1000b
    // = host 8 = CA 1. The natural transpose of 0001b and 0100b is the same.
    CHECK(map_all(Pattern::Transpose, pm)[1] == 4);
    CHECK(map_all(Pattern::Transpose, pm)[4] == 1);
    // Bit reversal by hand: CA 1 (switch 0, port 1) is host 8 = 1000b, reversed 0001b = host 1
    // = (port 0, switch 1) = CA 2 (naturally CA 1 = 0001b would go to 1000b = CA 8). CA 6 =
    // (switch 3, port 0) is host 3 = 0011b -> 1100b = host 12 = (port 1, switch 4) = CA 9.
    CHECK(map_all(Pattern::BitReversal, pm) ==
          V{0, 2, 1, 3, 8, 10, 9, 11, 4, 6, 5, 7, 12, 14, 13, 15});
    CHECK(map_all(Pattern::BitReversal, id) ==
          V{0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15});
    // The index shift by N/2 = 8: host 8p + s -> 8(1-p) + s, the other CA of the same switch.
    CHECK(map_all(Pattern::Rotation, pm) ==
          V{1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14});
}

TEST_CASE("a random host order relabels every pattern, all-to-all too") {
    const Fabric f = gen::hyperx({{8}, {}, 2, 0});
    const V o = host_order(f, all_end_ports(f), HostOrder::Random, 7);
    V rank(16);
    for (std::uint32_t h = 0; h < 16; ++h) rank[o[h]] = h;
    // CA o[s] sends to CA o[pattern(s)], with pattern(s) the natural one.
    const V id{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    for (Pattern p : {Pattern::Complement, Pattern::BitReversal, Pattern::Transpose,
                      Pattern::Shuffle, Pattern::BitRotation, Pattern::Rotation}) {
        const V nat = map_all(p, id), got = map_all(p, o);
        CHECK(bijection(got));
        for (std::uint32_t s = 0; s < 16; ++s) CHECK(got[o[s]] == o[nat[s]]);
    }
    TrafficSpec s;
    s.pattern = Pattern::AllToAll;
    DestinationPattern d(s, 16, 1, o);
    gen::Rng rng(1);
    for (std::uint64_t k = 0; k < 15; ++k) CHECK(d.next(o[3], rng, k) == o[(3 + 1 + k) % 16]);
}

TEST_CASE("a host order that is not a permutation is refused") {
    TrafficSpec s;
    s.pattern = Pattern::Complement;
    CHECK_THROWS_AS(DestinationPattern(s, 4, 1, V{0, 1, 1, 3}), std::invalid_argument);
    CHECK_THROWS_AS(DestinationPattern(s, 4, 1, V{0, 1, 2}), std::invalid_argument);
    CHECK(parse_host_order("port-major") == HostOrder::PortMajor);
    CHECK(!parse_host_order("bogus"));
    CHECK(to_string(HostOrder::Random) == "random");
}
