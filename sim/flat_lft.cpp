// See flat_lft.hpp: the simulator's contiguous LFT, on transparent huge pages where available.
#include "sim/flat_lft.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace ibrt::sim {

void FlatLft::Free::operator()(PortNum* p) const {
    std::free(p);
}

FlatLft::FlatLft(const Fabric& f, const Routing& r) {
    row_.assign(f.num_nodes(), kNoRow);
    std::uint32_t rows = 0;
    for (NodeId n = 0; n < f.num_nodes() && n < r.lft.size(); ++n) {
        if (r.lft[n].empty()) continue;
        row_[n] = rows++;
        stride_ = std::max(stride_, r.lft[n].size());
    }
    if (rows == 0) return;
    // Whole 2 MB pages, aligned, so the kernel can map every one of them as a huge page.
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    bytes_ = std::size_t(rows) * stride_;
    const std::size_t alloc = (bytes_ + kHuge - 1) / kHuge * kHuge;
    auto* p = static_cast<PortNum*>(std::aligned_alloc(kHuge, alloc));
    if (!p) throw std::bad_alloc();
    table_.reset(p);
#ifdef __linux__
    madvise(p, alloc, MADV_HUGEPAGE); // a hint: without THP the table still works
#endif
    std::memset(p, kNoPath, alloc);
    for (NodeId n = 0; n < row_.size(); ++n)
        if (row_[n] != kNoRow)
            std::memcpy(p + std::size_t(row_[n]) * stride_, r.lft[n].data(), r.lft[n].size());
}

} // namespace ibrt::sim
