// The event queue must pop exactly in (time, seq) order — the order a single heap gives —
// whichever of its parts (calendar ring, side heap, far heap, lanes) holds an event, because
// every simulation result depends on that order.
#include "sim/event_queue.hpp"

#include <catch2/catch.hpp>

#include <queue>
#include <random>
#include <tuple>
#include <vector>

using ibrt::sim::Event;
using ibrt::sim::EventQueue;
using ibrt::sim::Time;

namespace {

struct Ref {
    Time time;
    std::uint64_t seq;
    std::uint32_t a;
    bool operator>(const Ref& o) const { return std::tie(time, seq) > std::tie(o.time, o.seq); }
};

// A process like the simulator's: pop the earliest event, schedule a few more at or after it:
// some at a fixed delay (lane material), some at random delays (near, tiny, far beyond the ring).
void run(bool lanes, std::uint32_t seed) {
    EventQueue q;
    if (lanes)
        for (std::uint8_t t : {0, 1, 2}) q.add_lane(t);
    std::priority_queue<Ref, std::vector<Ref>, std::greater<>> ref;
    std::mt19937_64 rng(seed);
    std::uint64_t seq = 0;
    std::uint32_t id = 0;
    auto push = [&](Time t, std::uint8_t type) {
        q.push(t, type, id);
        ref.push({t, seq++, id++});
    };
    for (int i = 0; i < 200; ++i) push(rng() % 100000, std::uint8_t(rng() % 5));
    Time now = 0;
    std::size_t popped = 0;
    Event e;
    while (q.pop_until(~Time(0), e)) {
        REQUIRE(!ref.empty());
        const Ref want = ref.top();
        ref.pop();
        REQUIRE(e.time == want.time);
        REQUIRE(e.a == want.a);
        REQUIRE(e.time >= now);
        now = e.time;
        ++popped;
        if (popped > 60000) continue; // drain
        const int n = int(rng() % 3);
        for (int k = 0; k < n; ++k) {
            switch (rng() % 6) {
            case 0:
                push(now + 120000, 0);
                break; // constant delay
            case 1:
                push(now + 256000 - (rng() % 4 == 0 ? 64000 : 0), 1);
                break; // mostly constant
            case 2:
                push(now + 20000, 2);
                break; // constant delay
            case 3:
                push(now + rng() % 300, 3);
                break; // into the current bucket
            case 4:
                push(now + rng() % 2000000, 4);
                break; // anywhere near
            default:
                push(now + 10000000 + rng() % 100000000, 4); // beyond the ring
            }
        }
        REQUIRE(q.size() == ref.size());
    }
    REQUIRE(ref.empty());
    REQUIRE(q.empty());
    REQUIRE(popped > 50000);
}

} // namespace

TEST_CASE("the calendar queue pops in (time, seq) order") {
    for (std::uint32_t seed : {1u, 2u, 3u}) run(false, seed);
}

TEST_CASE("lanes merged with the calendar keep the (time, seq) order") {
    for (std::uint32_t seed : {1u, 2u, 3u}) run(true, seed);
}

TEST_CASE("equal times pop in scheduling order across lanes and the calendar") {
    EventQueue q;
    q.add_lane(0);
    for (std::uint32_t i = 0; i < 10; ++i) q.push(500, std::uint8_t(i % 2), i);
    Event e;
    for (std::uint32_t i = 0; i < 10; ++i) {
        REQUIRE(q.pop_until(1000, e));
        CHECK(e.a == i);
    }
    CHECK_FALSE(q.pop_until(1000, e));
}

TEST_CASE("pop_until leaves later events in the queue") {
    EventQueue q;
    q.add_lane(1);
    q.push(100, 1, 7);
    q.push(5000, 0, 8);
    Event e;
    REQUIRE(q.pop_until(1000, e));
    CHECK(e.a == 7);
    CHECK_FALSE(q.pop_until(1000, e));
    CHECK(q.size() == 1);
    CHECK(q.size_except_lane(1) == 1);
    REQUIRE(q.pop_until(5000, e));
    CHECK(e.a == 8);
}
