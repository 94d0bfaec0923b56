// Splitting independent work over the machine's cores (issue 12: `separate` at 16,384 hosts
// within a minute on the 2-core SM hosts it targets). Callers split work so that the result does
// not depend on the number of parts: the same tables for any core count.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace ibrt {

// How many parts to split `items` independent items into: one per core, or IBRT_THREADS if it
// is set to a positive number (to leave cores to opensm, and for tests), and none smaller than
// `min_items` (a thread costs more than a few small items).
inline std::size_t worker_count(std::size_t items, std::size_t min_items = 1) {
    std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("IBRT_THREADS"); env && std::atoi(env) > 0)
        cores = static_cast<std::size_t>(std::atoi(env));
    return std::clamp<std::size_t>(items / std::max<std::size_t>(min_items, 1), 1, cores);
}

// fn(p) for every p in [0, parts), each on its own thread; part 0 runs on the calling thread,
// so progress callbacks made only from part 0 stay on the caller's thread.
template <class Fn> void run_parts(std::size_t parts, Fn&& fn) {
    std::vector<std::thread> pool;
    for (std::size_t p = 1; p < parts; ++p) pool.emplace_back([&fn, p] { fn(p); });
    fn(std::size_t{0});
    for (std::thread& t : pool) t.join();
}

// A bounded first-in first-out hand-over from one thread to another: the two stages of a
// pipeline whose second stage takes the items in the order the first made them, so the result
// is the same as running both stages item by item on one thread. push() waits while `capacity`
// items are waiting; once close() is called, push() drops its item and returns false and pop()
// returns false when nothing is left.
template <class T> class Channel {
  public:
    explicit Channel(std::size_t capacity) : cap_(std::max<std::size_t>(capacity, 1)) {}
    bool push(T x) {
        std::unique_lock lock(m_);
        not_full_.wait(lock, [&] { return q_.size() < cap_ || closed_; });
        if (closed_) return false;
        q_.push_back(std::move(x));
        not_empty_.notify_one();
        return true;
    }
    bool pop(T& x) {
        std::unique_lock lock(m_);
        not_empty_.wait(lock, [&] { return !q_.empty() || closed_; });
        if (q_.empty()) return false;
        x = std::move(q_.front());
        q_.pop_front();
        not_full_.notify_one();
        return true;
    }
    // pop() without waiting: false when nothing is waiting.
    bool try_pop(T& x) {
        std::lock_guard lock(m_);
        if (q_.empty()) return false;
        x = std::move(q_.front());
        q_.pop_front();
        not_full_.notify_one();
        return true;
    }
    void close() {
        std::lock_guard lock(m_);
        closed_ = true;
        not_full_.notify_all();
        not_empty_.notify_all();
    }

  private:
    std::size_t cap_;
    std::mutex m_;
    std::condition_variable not_full_, not_empty_;
    std::deque<T> q_;
    bool closed_ = false;
};

} // namespace ibrt
