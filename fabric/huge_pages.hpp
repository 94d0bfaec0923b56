// Memory on 2 MB pages for the large tables a run reads at random.
//
// At paper 003's scale (16,384 hosts, 2,048 switches) a simulated hop reads a few random lines
// of tables of tens of MB (buffers, credits and port state of ~110,000 ports x 9 VLs) and, with
// forwarding sets, one entry of DLID tables of up to a GB (Distance Based +4: 720 MB). On 4 KB
// pages nearly each such read also misses the TLB, and the page walk (nested, in a virtual
// machine) costs about as much as the cache miss. With 2 MB pages the TLB covers them.
// Transparent huge pages are asked for per allocation (MADV_HUGEPAGE, which Debian's default
// "madvise" mode honours) before the memory is first written, so the kernel maps it in 2 MB
// pages at once instead of copying it later. Only a hint: where the kernel declines, the
// memory is ordinary, and no result depends on it.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace ibrt {

// `bytes` rounded up to whole 2 MB pages, 2 MB aligned, advised for huge pages; throws
// std::bad_alloc. Freed by huge_free.
void* huge_alloc(std::size_t bytes);
void huge_free(void* p) noexcept;

// Below this a vector stays on the ordinary heap: a 2 MB page for a small table wastes memory
// and the TLB covers small tables anyway.
inline constexpr std::size_t kHugeAllocMin = std::size_t(4) << 20;

template <class T> struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() = default;
    template <class U> HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
        if (n * sizeof(T) < kHugeAllocMin) return std::allocator<T>{}.allocate(n);
        return static_cast<T*>(huge_alloc(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugeAllocMin)
            std::allocator<T>{}.deallocate(p, n);
        else
            huge_free(p);
    }
    template <class U> bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

template <class T> using HugeVector = std::vector<T, HugePageAllocator<T>>;

} // namespace ibrt
