#include "fabric/huge_pages.hpp"

#include <cstdlib>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace ibrt {

void* huge_alloc(std::size_t bytes) {
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    const std::size_t whole = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, whole == 0 ? kHuge : whole);
    if (!p) throw std::bad_alloc();
#ifdef __linux__
    madvise(p, whole, MADV_HUGEPAGE);
#endif
    return p;
}

void huge_free(void* p) noexcept {
    std::free(p);
}

} // namespace ibrt
