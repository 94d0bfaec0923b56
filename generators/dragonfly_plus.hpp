// Dragonfly+ (Shpiner, Haramaty, Eliad, Zdornov, Gafni, Zahavi, "Dragonfly+: Low Cost Topology
// for Scaling Datacenters", HiPINEB 2017): the form InfiniBand deployments call a Dragonfly.
// Each group is a two-level fat tree, every one of its `leaves` cabled once to every one of its
// `spines`; hosts hang off the leaves; the spines hold the global ports, `h` each, and the
// groups are joined all to all by `links_per_pair` global cables per pair.
//
// The balanced form of one switch radix k has k/2 hosts and k/2 spines per leaf, k/2 leaves and
// k/2 global ports per spine, and (k/2)^2 + 1 groups (`balanced` = k/2).
//
// Global cabling: group g numbers its spines*h global ports t = spine*h + port; with G groups
// and m links per pair, port t + j*(G-1) (j = 0..m-1) goes where gen::global_ports (the
// Dragonfly's arrangement, dragonfly.hpp) sends port t, landing on the port of the same j.
// Ports not needed stay unconnected. Leaf ports: 1..p hosts, then spine s on p + 1 + s; spine
// ports: leaf l on 1 + l, then h global. Labels "leaf-g<group>-<l>", "spine-g<group>-<s>",
// "host-g<group>-<l>-<c>".
#pragma once

#include "fabric/fabric.hpp"
#include "generators/dragonfly.hpp"

namespace ibrt::gen {

struct DragonflyPlusParams {
    int leaves = 2;         // leaf switches per group
    int spines = 2;         // spine switches per group
    int p = 2;              // hosts per leaf
    int h = 2;              // global ports per spine
    int groups = 0;         // 0: spines*h / links_per_pair + 1
    int links_per_pair = 1; // global cables between every two groups
    int radix = 0;          // 0: the most either kind needs
    GlobalArrangement arrangement = GlobalArrangement::Absolute;
    std::uint64_t seed = 1; // GlobalArrangement::Random
};

Fabric dragonfly_plus(const DragonflyPlusParams& params);

} // namespace ibrt::gen
