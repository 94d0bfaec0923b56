// The simulator's event queue: a calendar (bucket) queue keyed by integer time (R. Brown,
// "Calendar queues", CACM 31(10), 1988), ordered by (time, seq).
//
// Why not a heap: nearly every event the simulator schedules lies a few hundred ns ahead
// (fly, routing, serialization, credit delays), and a heap of ~10^4 events pays a sift-down of
// several cache-missing levels per pop. Here time is cut into buckets of 2^shift ps on a ring
// that covers the near future; a push links a node (from a LIFO free list, so it is warm in
// the cache) onto its bucket's list; when the clock reaches a bucket, that bucket alone (a few
// events) is copied out, sorted and popped in order. Events beyond the ring's horizon wait in
// a small 4-ary heap and join when their bucket comes up.
//
// The order is exactly (time, seq), the same total order as a heap: the sequence number breaks
// ties in scheduling order, so a run is a pure function of its inputs, and the bucket width
// only changes the speed, never the result. A push into the bucket being popped (a zero or
// tiny delay) goes to a side heap that pop merges. After warm-up no vector grows, so pushing and
// popping allocate nothing.
//
// Lanes: most events are scheduled a constant delay ahead (a credit returns credit-delay after
// the tail left; with equal packets and links, a head is routed fly + routing delay after it
// started, and the link is free a serialization time after), so events of one such type are
// pushed in time order. A lane is a FIFO per type that takes each push whose time is not below
// its last one; it is sorted by (time, seq) by construction, costs one sequential write per
// push and no sorting, and pop merges the lanes' heads with the calendar. A push that would
// break a lane's order (a shorter packet, a slower link) goes to the calendar instead, so the
// order of events, hence every result, stays the one a single heap gives.
#pragma once

#include "sim/prefetch.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace ibrt::sim {

using Time = std::uint64_t; // picoseconds

struct Event {
    Time time = 0;
    std::uint64_t seq = 0;
    std::uint32_t a = 0, b = 0, c = 0;
    std::uint8_t type = 0;
};

class EventQueue {
  public:
    // Buckets of 2^shift ps, 2^ring_bits of them (default 256 ps x 16384 = 4.2 us ahead).
    explicit EventQueue(unsigned shift = 8, unsigned ring_bits = 14)
        : shift_(shift), mask_((std::uint64_t(1) << ring_bits) - 1), first_(mask_ + 1, kNone) {
        lane_of_.fill(kNoLane);
        heads_.fill(kNeverKey);
    }

    // Events of this type go to their own lane (see above); at most kMaxLanes types.
    void add_lane(std::uint8_t type) {
        if (nlanes_ < kMaxLanes && type < lane_of_.size()) lane_of_[type] = std::uint8_t(nlanes_++);
    }

    bool empty() const { return size() == 0; }
    std::size_t size() const {
        std::size_t n = size_;
        for (unsigned l = 0; l < nlanes_; ++l) n += lanes_[l].end - lanes_[l].pos;
        return n;
    }
    // Events waiting, leaving out those of one type's lane.
    std::size_t size_except_lane(std::uint8_t type) const {
        const unsigned l = type < lane_of_.size() ? lane_of_[type] : kNoLane;
        return l == kNoLane ? size() : size() - (lanes_[l].end - lanes_[l].pos);
    }

    // Events are written field by field where they are stored: building one on the stack and
    // copying it read back 16 bytes over the narrower stores just made, and the failed
    // store-to-load forwarding stalled every push.
    // Inline only the common case, a lane with room whose last event is not later; the rest is
    // out of line (as one call, every push paid a call and its spills: ~85 instructions).
    [[gnu::always_inline]] void push(Time t, std::uint8_t type, std::uint32_t a,
                                     std::uint32_t b = 0, std::uint32_t c = 0) {
        const std::uint64_t seq = seq_++;
        if (const unsigned l = type < lane_of_.size() ? lane_of_[type] : kNoLane; l != kNoLane) {
            Lane& x = lanes_[l];
            if (t >= x.last && x.end < x.cap) {
                if (x.pos == x.end) heads_[l] = Key{t, seq};
                set(x.ev[x.end++], t, seq, a, b, c, type);
                x.last = t;
                return;
            }
            if (push_lane(l, t, seq, a, b, c, type)) return;
        }
        push_calendar(t, seq, a, b, c, type);
    }

    // A sequence number for an event the caller keeps outside the queue (and merges itself, by
    // pop_before), so that it has its place in the (time, seq) order and every event pushed
    // after it the number it would have had anyway.
    std::uint64_t take_seq() { return seq_++; }

    // Pops the earliest event into `out` if it comes before (time, seq) = (t, seq); false
    // otherwise (or when empty). The caller's own events (take_seq) merge with this.
    [[gnu::always_inline]] bool pop_before(Time t, std::uint64_t seq, Event& out) {
        return pop_until(t, out, seq);
    }

    // Pops the earliest event (of the calendar and the lanes) into `out` if its time is at most
    // `limit`; false otherwise (or when empty).
    // The merge reads the lanes' head keys from one small array (least).
    [[gnu::always_inline]] bool pop_until(Time limit, Event& out,
                                          std::uint64_t limit_seq = ~std::uint64_t(0)) {
        Key best = kNeverKey;
        if (size_ > 0) {
            const Event& c = top();
            best = Key{c.time, c.seq};
        }
        // The simulator's numbers of lanes (4 to 8, by its options) as constants, so that the
        // merge is unrolled.
        unsigned from;
        switch (nlanes_) {
        case 4:
            from = least<4>(best);
            break;
        case 5:
            from = least<5>(best);
            break;
        case 6:
            from = least<6>(best);
            break;
        case 7:
            from = least<7>(best);
            break;
        case 8:
            from = least<8>(best);
            break;
        default:
            from = least<kMaxLanes>(best, nlanes_);
            break;
        }
        if (from == kNoLane && size_ == 0) return false; // empty
        if (best.time > limit || (best.time == limit && best.seq >= limit_seq)) return false;
        last_lane_ = from;
        passed_ = kNone;
        if (from != kNoLane) {
            Lane& x = lanes_[from];
            // A lane is read a few lines ahead of where the simulator's look-ahead reads it: at
            // 16,384 hosts the events between its write and its read (a routing delay's worth,
            // ~10^4) have pushed it out of the inner caches.
            prefetch(x.ev.data() + std::min(x.pos + kLaneAhead, x.cap - 1));
            out = x.ev[x.pos++];
            heads_[from] = x.pos < x.end ? Key{x.ev[x.pos].time, x.ev[x.pos].seq} : kNeverKey;
        } else {
            out = pop();
        }
        return true;
    }

    // The event k places after the next one of the source (lane or calendar bucket) the last
    // pop took from, or nullptr: what the simulator prefetches for, a few events early.
    const Event* ahead(std::size_t k) const {
        if (last_lane_ != kNoLane) {
            const Lane& x = lanes_[last_lane_];
            return x.pos + k < x.end ? &x.ev[x.pos + k] : nullptr;
        }
        return side_.empty() && pos_ + k < cur_n_ ? &cur_[pos_ + k] : nullptr;
    }

    // The event of a later bucket that the last pop walked past (see walk_ahead), or nullptr:
    // its node is in the cache by now, and it is due soon, after the rest of this bucket.
    const Event* passed() const { return passed_ != kNone ? &nodes_[passed_].e : nullptr; }

  private:
    // A lane's push that is not the common case: the lane is empty (it starts again at its
    // front, any time accepted) or full; false when the event would break its order.
    [[gnu::noinline]] bool push_lane(unsigned l, Time t, std::uint64_t seq, std::uint32_t a,
                                     std::uint32_t b, std::uint32_t c, std::uint8_t type) {
        Lane& x = lanes_[l];
        if (x.pos == x.end)
            x.pos = x.end = 0;
        else if (t < x.last)
            return false;
        if (x.end == x.cap) x.make_room();
        if (x.pos == x.end) heads_[l] = Key{t, seq};
        set(x.ev[x.end++], t, seq, a, b, c, type);
        x.last = t;
        return true;
    }

    [[gnu::noinline]] void push_calendar(Time t, std::uint64_t seq, std::uint32_t a,
                                         std::uint32_t b, std::uint32_t c, std::uint8_t type) {
        const Event e{t, seq, a, b, c, type};
        ++size_;
        const std::uint64_t k = t >> shift_;
        if (started_ && k <= bucket_) {
            // The bucket being popped (or, defensively, an earlier one): it is the minimum of
            // everything but the current bucket, so the side heap serves it in order.
            heap_push(side_, e);
        } else if (k - bucket_ <= mask_) {
            std::uint32_t n = free_;
            if (n != kNone) {
                free_ = nodes_[n].next;
            } else {
                n = std::uint32_t(nodes_.size());
                nodes_.emplace_back();
            }
            // Linked at the head: appending would write into the bucket's last node, pushed
            // long ago and no longer cached. load_bucket sorts anyway.
            const std::size_t slot = k & mask_;
            set(nodes_[n].e, t, seq, a, b, c, type);
            nodes_[n].next = first_[slot];
            first_[slot] = n;
            ++in_ring_;
        } else {
            heap_push(far_, e);
        }
    }

    static void set(Event& d, Time t, std::uint64_t seq, std::uint32_t a, std::uint32_t b,
                    std::uint32_t c, std::uint8_t type) {
        d.time = t;
        d.seq = seq;
        d.a = a;
        d.b = b;
        d.c = c;
        d.type = type;
    }

    // The calendar's earliest event; the queue must not be empty. Not const: it may advance the
    // ring.
    const Event& top() {
        settle();
        if (!side_.empty() && (pos_ == cur_n_ || less(side_.front(), cur_[pos_])))
            return side_.front();
        return cur_[pos_];
    }

    Event pop() {
        top();
        if (!side_.empty() && (pos_ == cur_n_ || less(side_.front(), cur_[pos_]))) {
            --size_;
            return heap_pop(side_);
        }
        --size_;
        walk_ahead();
        return cur_[pos_++];
    }

    static bool less(const Event& x, const Event& y) {
        return x.time != y.time ? x.time < y.time : x.seq < y.seq;
    }

    // The next bucket's list is a chain of nodes written long ago and no longer cached, and
    // load_bucket would follow it one dependent cache miss at a time. Instead, each pop moves a
    // cursor one node along that chain and prefetches the node after, so the chain is in the
    // cache when its bucket comes up. Nodes pushed meanwhile go to the chain's head, still warm.
    void walk_ahead() {
        passed_ = ahead_;
        if (ahead_ == kNone) return;
        ahead_ = nodes_[ahead_].next;
        if (ahead_ != kNone) prefetch(&nodes_[ahead_]);
    }
    void start_walk() {
        ahead_ = passed_ = kNone;
        for (std::uint64_t j = 1; j <= 16; ++j) {
            const std::uint32_t n = first_[(bucket_ + j) & mask_];
            if (n != kNone) {
                ahead_ = n;
                prefetch(&nodes_[n]);
                return;
            }
        }
    }

    // Makes the current bucket (cur_ from pos_, plus side_) hold the earliest event.
    void settle() {
        if (pos_ < cur_n_ || !side_.empty()) return;
        if (!started_) {
            started_ = true;
            bucket_ = 0;
            if (load_bucket()) return;
        }
        for (;;) {
            if (in_ring_ == 0) {
                // Nothing near: jump straight to the far heap's first bucket.
                bucket_ = far_.front().time >> shift_;
            } else {
                ++bucket_;
            }
            if (load_bucket()) return;
        }
    }

    // Moves bucket_'s events (from the ring and the far heap) into cur_, sorted.
    bool load_bucket() {
        // cur_ only grows (its size is its capacity, cur_n_ the events in it): a push_back per
        // event was a call that did not inline, and this loop runs once per event.
        std::size_t k = 0;
        pos_ = 0;
        const std::size_t slot = bucket_ & mask_;
        for (std::uint32_t n = first_[slot]; n != kNone;) {
            if (k == cur_.size()) cur_.resize(std::max<std::size_t>(64, 2 * k));
            cur_[k++] = nodes_[n].e;
            const std::uint32_t next = nodes_[n].next;
            nodes_[n].next = free_;
            free_ = n;
            n = next;
        }
        first_[slot] = kNone;
        const std::size_t from_ring = k;
        in_ring_ -= from_ring;
        while (!far_.empty() && (far_.front().time >> shift_) == bucket_) {
            if (k == cur_.size()) cur_.resize(std::max<std::size_t>(64, 2 * k));
            cur_[k++] = heap_pop(far_);
        }
        cur_n_ = k;
        if (k == 0) return false;
        start_walk();
        // The list is newest first: reversed, it is in seq order, and usually already in time
        // order too (the simulator's delays are mostly whole ns, so a bucket tends to hold one
        // time), which the check below finds in one pass.
        std::reverse(cur_.begin() + 0, cur_.begin() + std::ptrdiff_t(from_ring));
        const auto cmp = [](const Event& x, const Event& y) { return less(x, y); };
        const auto end = cur_.begin() + std::ptrdiff_t(k);
        if (!std::is_sorted(cur_.begin(), end, cmp)) std::sort(cur_.begin(), end, cmp);
        return true;
    }

    static void heap_push(std::vector<Event>& h, const Event& e) {
        h.push_back(e);
        std::size_t i = h.size() - 1;
        while (i > 0) {
            const std::size_t p = (i - 1) / 4;
            if (!less(e, h[p])) break;
            h[i] = h[p];
            i = p;
        }
        h[i] = e;
    }

    static Event heap_pop(std::vector<Event>& h) {
        const Event out = h.front();
        const Event last = h.back();
        h.pop_back();
        const std::size_t n = h.size();
        if (n > 0) {
            std::size_t i = 0;
            for (;;) {
                const std::size_t first = 4 * i + 1;
                if (first >= n) break;
                std::size_t c = first;
                const std::size_t last_child = first + 4 < n ? first + 4 : n;
                for (std::size_t k = first + 1; k < last_child; ++k)
                    if (less(h[k], h[c])) c = k;
                if (!less(h[c], last)) break;
                h[i] = h[c];
                i = c;
            }
            h[i] = last;
        }
        return out;
    }

    unsigned shift_;
    std::uint64_t mask_;
    static constexpr std::uint32_t kNone = 0xffffffffu;
    struct Node {
        Event e;
        std::uint32_t next = kNone;
    };
    std::vector<std::uint32_t> first_; // per ring slot: its list of nodes, newest first
    std::vector<Node> nodes_;
    std::uint32_t free_ = kNone;
    static constexpr unsigned kMaxLanes = 8;
    static constexpr std::uint8_t kNoLane = 0xff;
    static constexpr std::size_t kLaneAhead = 16; // events: 8 cache lines
    struct Lane {
        std::vector<Event> ev; // ev[pos, end) are waiting, sorted; its size is the capacity
        std::size_t pos = 0, end = 0, cap = 0;
        Time last = 0; // the time of the last event pushed
        // Full: slide the waiting events to the front when at least half are gone (the same
        // memory, still warm, serves the next lap), else grow. (A ring measured slower.)
        void make_room() {
            if (pos > 0 && pos * 2 >= end) {
                std::copy(ev.begin() + std::ptrdiff_t(pos), ev.begin() + std::ptrdiff_t(end),
                          ev.begin());
                end -= pos;
                pos = 0;
            } else {
                ev.resize(std::max<std::size_t>(256, 2 * ev.size()));
                cap = ev.size();
            }
        }
    };
    std::array<Lane, kMaxLanes> lanes_;
    struct Key {
        Time time;
        std::uint64_t seq;
    };
    // Each lane's first event's key; kNeverKey when the lane is empty (it then never wins: a
    // lane event at that time would need a simulated time of 213 days).
    static constexpr Key kNeverKey{~Time(0), 0};
    // The least of `best` and the first n lanes' heads (N: n as a constant, or its bound),
    // without a branch per lane: which source is next is a coin toss, and branches on it
    // mispredicted. Returns its lane, or kNoLane when `best` stays.
    template <unsigned N> [[gnu::always_inline]] unsigned least(Key& best, unsigned n = N) const {
        unsigned from = kNoLane;
#pragma GCC unroll 8
        for (unsigned l = 0; l < N; ++l) {
            if (l == n) break; // n = N unless called with fewer
            const Key k = heads_[l];
            const bool lt = (k.time < best.time) | ((k.time == best.time) & (k.seq < best.seq));
            best.time = lt ? k.time : best.time;
            best.seq = lt ? k.seq : best.seq;
            from = lt ? l : from;
        }
        return from;
    }
    std::array<Key, kMaxLanes> heads_;
    std::array<std::uint8_t, 32> lane_of_; // by event type: its lane, or kNoLane
    unsigned nlanes_ = 0, last_lane_ = kNoLane;
    std::uint32_t ahead_ = kNone;  // walk_ahead's cursor
    std::uint32_t passed_ = kNone; // the node it left on the last pop
    std::vector<Event> cur_, side_, far_;
    std::size_t pos_ = 0, cur_n_ = 0, size_ = 0, in_ring_ = 0;
    std::uint64_t bucket_ = 0, seq_ = 0;
    bool started_ = false;
};

} // namespace ibrt::sim
