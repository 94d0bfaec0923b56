// Fixed-radix fat trees.
//
// fat_tree: the m-port n-tree FT(m,n) of Lin, Chung, Huang, "A Multiple LID Routing Scheme for
// Fat-Tree-Based InfiniBand Networks" (paper 000) §3. Processing nodes P(p0 p1 ... pn-1) with
// p0 in 0..m-1 and p1..pn-1 in 0..m/2-1; switches SW<w0 ... wn-2, l>, level 0 at the root and
// level n-1 at the leaves. SW<w,l>_k and SW<w',l+1>_k' are cabled iff w0..wn-3 equals w' with
// digit l removed, k = w'_l and k' = wn-2 + m/2; leaf SW<w,n-1>_k holds P(p) iff w = p0..pn-2
// and k = pn-1. Paper port k is IB port k+1 (the paper's own path Q in §4.3 numbers ports that
// way). The text's example "SW<20,2>_1 <-> P(211)" contradicts its own justification
// "w0w1 = p0p1 = 21": the rule puts P(211) on SW<21,2> port 1 and P(201) on SW<20,2> port 1.
//
// Node order, which the MLID engine may rely on: CAs first in lexicographic order of p, so the
// CA with NodeId i has PID(P(p)) = i (paper §4.1); then switches level 0..n-1, each level in
// lexicographic order of w.
//
// kary_ntree: the k-ary n-tree of Gilabert et al., "On the Influence of the Selection Function
// on the Performance of Fat-trees" (paper 004) §2: k^n nodes p_{n-1}..p_0, n*k^(n-1) switches
// <s, o_{n-2}..o_0> with stage 0 next to the nodes; <s,o> and <s+1,o'> are cabled iff
// o_i = o'_i for all i != s. Down links are 0..k-1 and up links k..2k-1 (IB ports 1..k and
// k+1..2k): the lower switch uses up link k + o'_s, the upper one down link o_s, and node p
// hangs on <0, p_{n-1}..p_1> at down link p_0. Node order: CAs by the value of p (p_0 least
// significant), then switches stage 0..n-1 by the value of o.
//
// Labels: digits concatenated while every digit is below 10 (m <= 10 for FT(m,n), since
// p0 and w0 range over 0..m-1; k <= 10 for k-ary n-trees), otherwise
// separated by '.'.
#pragma once

#include "fabric/fabric.hpp"

namespace ibrt::gen {
// FT(m,n), the m-port n-tree of paper 000 §3 (m even, n >= 1).
Fabric fat_tree(int m, int n);
// k-ary n-tree of paper 004 §2.
Fabric kary_ntree(int k, int n);
} // namespace ibrt::gen
