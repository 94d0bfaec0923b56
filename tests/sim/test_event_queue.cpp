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
// `lanes`: event types 0 .. lanes - 1 have lanes (4 to 8: the merge is unrolled).
// `fifo`: the events far beyond the ring are kept by the caller in a FIFO when in time order
// (as the simulator keeps its idle flows' releases), numbered by take_seq and merged by
// pop_before.
void run(unsigned lanes, std::uint32_t seed, bool fifo = false) {
    EventQueue q;
    for (unsigned t = 0; t < lanes; ++t) q.add_lane(std::uint8_t(t));
    std::priority_queue<Ref, std::vector<Ref>, std::greater<>> ref;
    std::mt19937_64 rng(seed);
    std::uint64_t seq = 0;
    std::uint32_t id = 0;
    std::vector<Event> side;
    std::size_t side_pos = 0, in_side = 0;
    auto push = [&](Time t, std::uint8_t type) {
        if (fifo && type == 5 && (side_pos == side.size() || t >= side.back().time)) {
            side.push_back(Event{t, q.take_seq(), id, 0, 0, type});
            ++in_side;
        } else {
            q.push(t, type, id);
        }
        ref.push({t, seq++, id++});
    };
    auto next = [&](Event& out) {
        if (side_pos < side.size()) {
            const Event& f = side[side_pos];
            if (q.pop_before(f.time, f.seq, out)) return true;
            out = f;
            ++side_pos;
            return true;
        }
        return q.pop_until(~Time(0), out);
    };
    for (int i = 0; i < 200; ++i) push(rng() % 100000, std::uint8_t(rng() % 5));
    Time now = 0;
    std::size_t popped = 0;
    Event e;
    while (next(e)) {
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
            default:   // beyond the ring; with `fifo`, mostly in time order, at times the same
                push(now + (fifo ? 10000000 + (rng() % 8 == 0 ? rng() % 3000000 : 0)
                                 : 10000000 + rng() % 100000000),
                     fifo ? 5 : 4);
            }
        }
        REQUIRE(q.size() + side.size() - side_pos == ref.size());
    }
    if (fifo) REQUIRE(in_side > 500);
    REQUIRE(ref.empty());
    REQUIRE(q.empty());
    REQUIRE(popped > 50000);
}

} // namespace

TEST_CASE("the calendar queue pops in (time, seq) order") {
    for (std::uint32_t seed : {1u, 2u, 3u}) run(0, seed);
}

TEST_CASE("lanes merged with the calendar keep the (time, seq) order") {
    for (unsigned lanes : {3u, 4u, 5u, 6u, 8u})
        for (std::uint32_t seed : {1u, 2u, 3u}) run(lanes, seed);
}

TEST_CASE("a caller's FIFO numbered by take_seq merges in (time, seq) order (pop_before)") {
    for (std::uint32_t seed : {1u, 2u, 3u}) run(3, seed, true);
}

TEST_CASE("pop_before yields to a caller's event of the same time and a lower seq") {
    EventQueue q;
    q.add_lane(0);
    q.push(500, 0, 1);
    const std::uint64_t mine = q.take_seq();
    q.push(500, 0, 2);
    q.push(500, 1, 3);
    Event e;
    REQUIRE(q.pop_before(500, mine, e));
    CHECK(e.a == 1);
    CHECK_FALSE(q.pop_before(500, mine, e)); // 2 and 3 come after the caller's event
    REQUIRE(q.pop_before(501, 0, e));
    CHECK(e.a == 2);
    REQUIRE(q.pop_before(501, 0, e));
    CHECK(e.a == 3);
    CHECK_FALSE(q.pop_before(501, 0, e));
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
