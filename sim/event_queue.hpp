// The simulator's event queue: a 4-ary min-heap over one flat vector, ordered by (time, seq)
// (4-ary: half the depth of a binary heap, and the four children of a node share two cache
// lines, which is what the pop loop waits on).
// The sequence number makes the order total, so two runs with the same inputs pop events in
// the same order (std::priority_queue would leave ties to the heap's layout). After warm-up the
// vector no longer grows, so pushing and popping allocate nothing.
#pragma once

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
    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    const Event& top() const { return heap_.front(); }

    void push(Time t, std::uint8_t type, std::uint32_t a, std::uint32_t b = 0,
              std::uint32_t c = 0) {
        heap_.push_back(Event{t, seq_++, a, b, c, type});
        std::size_t i = heap_.size() - 1;
        const Event e = heap_[i];
        while (i > 0) {
            const std::size_t p = (i - 1) / 4;
            if (!less(e, heap_[p])) break;
            heap_[i] = heap_[p];
            i = p;
        }
        heap_[i] = e;
    }

    Event pop() {
        const Event out = heap_.front();
        const Event last = heap_.back();
        heap_.pop_back();
        const std::size_t n = heap_.size();
        if (n > 0) {
            std::size_t i = 0;
            for (;;) {
                const std::size_t first = 4 * i + 1;
                if (first >= n) break;
                std::size_t c = first;
                const std::size_t last_child = first + 4 < n ? first + 4 : n;
                for (std::size_t k = first + 1; k < last_child; ++k)
                    if (less(heap_[k], heap_[c])) c = k;
                if (!less(heap_[c], last)) break;
                heap_[i] = heap_[c];
                i = c;
            }
            heap_[i] = last;
        }
        return out;
    }

  private:
    static bool less(const Event& x, const Event& y) {
        return x.time != y.time ? x.time < y.time : x.seq < y.seq;
    }
    std::vector<Event> heap_;
    std::uint64_t seq_ = 0;
};

} // namespace ibrt::sim
