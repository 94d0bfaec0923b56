// A prefetch the compiler keeps. GCC 12 silently deletes __builtin_prefetch in some inlined
// conditional code (seen in the simulator's event look-ahead: not one prefetch instruction was
// emitted for it), so on x86-64 the instruction is written out; elsewhere the builtin stands.
#pragma once

namespace ibrt::sim {

inline void prefetch(const void* p) {
#if defined(__x86_64__) && defined(__GNUC__)
    asm volatile("prefetcht0 (%0)" : : "r"(p));
#else
    __builtin_prefetch(p);
#endif
}

} // namespace ibrt::sim
