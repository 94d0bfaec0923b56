// Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008; paper 003 §1.4): groups of a switches
// ("routers") fully connected by local cables; the groups fully connected by global cables,
// h global ports per switch and p CAs per switch. The balanced layout is a = 2p = 2h.
//
// The complete form has a*h + 1 groups, one global cable between every pair. Paper 003
// (notation K = a, G = h, C = p) instead takes K*G groups and "omits one global link per
// group" so the switch count is a power of two; any group count 2..a*h+1 is accepted and the
// unused global ports stay unconnected.
//
// Global cabling (the "absolute" arrangement): group g numbers its a*h global ports
// t = router*h + port; port t goes to group (t < g ? t : t + 1), and lands there on that
// group's port numbered (g < target ? g : g - 1), so every pair is joined exactly once.
// Ports: 1..p CAs, p+1..p+a-1 local (peer router r' uses p + (r' < r ? r' : r' - 1) + 1),
// then h global. Labels: "sw-g<group>-<router>", "host-g<group>-<router>-<c>".
#pragma once

#include "fabric/fabric.hpp"

namespace ibrt::gen {

struct DragonflyParams {
    int a = 4;      // switches per group (K)
    int h = 2;      // global ports per switch (G)
    int p = 2;      // CAs per switch (C)
    int groups = 0; // 0: a*h + 1
    int radix = 0;  // 0: p + a - 1 + h
};

Fabric dragonfly(const DragonflyParams& params);

} // namespace ibrt::gen
