// Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008; paper 003 §1.4): groups of a switches
// ("routers") fully connected by local cables; the groups fully connected by global cables,
// h global ports per switch and p CAs per switch. The balanced layout is a = 2p = 2h.
//
// The complete form has a*h + 1 groups, one global cable between every pair (with m
// `links_per_pair`, a*h/m + 1 groups and m cables between every pair: port t + j*(G-1),
// j = 0..m-1, goes where port t goes below, landing on the port of the same j). Paper 003
// (notation K = a, G = h, C = p) instead takes K*G groups and "omits one global link per
// group" so the switch count is a power of two; any group count 2..a*h+1 is accepted and the
// unused global ports stay unconnected.
//
// Global cabling: group g numbers its a*h global ports t = router*h + port; with G groups,
// ports 0..G-2 are cabled, one to each other group, so every pair is joined exactly once:
//   - absolute (the default): port t goes to group (t < g ? t : t + 1), and lands there on
//     that group's port numbered (g < target ? g : g - 1);
//   - relative (palm tree, Camarero et al. 2014): port t goes to group (g + t + 1) mod G and
//     lands on its port G - t - 2;
//   - circulant: ports 2k-2 and 2k-1 go to groups g + k and g - k (mod G), k = 1, 2, ...,
//     landing on the other one's port of the same k (with G even, the last port goes to
//     g + G/2, landing on that group's last port);
//   - random: each group's ports shuffled (by `seed`), the pairs (g, g') in order taking the
//     next port of each: any bijection of group pairs to ports.
// Ports: 1..p CAs, p+1..p+a-1 local (peer router r' uses p + (r' < r ? r' : r' - 1) + 1),
// then h global. Labels: "sw-g<group>-<router>", "host-g<group>-<router>-<c>".
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <vector>

namespace ibrt::gen {

enum class GlobalArrangement { Absolute, Relative, Circulant, Random };

struct DragonflyParams {
    int a = 4;      // switches per group (K)
    int h = 2;      // global ports per switch (G)
    int p = 2;      // CAs per switch (C)
    int groups = 0; // 0: a*h / links_per_pair + 1
    int radix = 0;  // 0: p + a - 1 + h
    GlobalArrangement arrangement = GlobalArrangement::Absolute;
    std::uint64_t seed = 1; // GlobalArrangement::Random
    int links_per_pair = 1; // global cables between every two groups
};

Fabric dragonfly(const DragonflyParams& params);

// The arrangement above for g groups of g - 1 global ports each: [x * g + y] is group x's
// port (0..g-2) cabled to group y, -1 on the diagonal. Shared with the Dragonfly+
// (dragonfly_plus.hpp), whose spines hold the global ports.
std::vector<int> global_ports(int g, GlobalArrangement arrangement, std::uint64_t seed);

} // namespace ibrt::gen
