// Completing one LID's forwarding into a legal Up*/Down* tree (paper 001 §VI.D's `separate`
// scheme needs every LID reachable from every switch, not only along the selected paths).
//
// A configuration fixes the out edge of the switches its paths cross; every other switch needs
// an entry that reaches the target without a credit loop. Up*/Down* is deadlock free when no
// route turns from a down edge to an up edge, so every switch is labelled:
//   D: its onward walk takes only down edges (the target's switch, fixed switches leaving by a
//      down edge, and free switches given a down edge to a D switch) -- any edge may enter it;
//   U: its onward walk starts with an up edge -- only up edges may enter it.
// Free switches first get the shortest down-only route into D (multi-source Dijkstra over
// down edges), then the remaining ones the shortest up edge into a labelled switch. Fixed
// switches of a legal configuration never violate this (a path that went down never turns up,
// and two paths of one configuration leave a shared switch by the same edge). A free switch
// that still has no label (all its legal routes are cut off by fixed U switches) gets the
// shortest entry into any labelled switch; such entries may turn down->up and are counted as
// `forced` so callers can report them.
#pragma once

#include "fabric/fabric.hpp"
#include "graph/updown.hpp"
#include "lidassign/paths.hpp"

#include <deque>
#include <vector>

namespace ibrt::separate {

struct CompletedTree {
    std::vector<PortId> out; // per node: the out edge (kNoPort: not a switch, or unreachable);
                             // the target switch itself holds its port 0 for a switch target
    std::vector<std::uint32_t> hops; // switch hops to the target, graph::kFar if unreachable
    std::uint32_t forced = 0;
};

// The `fixed` argument below for configuration j of one destination: per switch the out edge
// of the last of its paths in j that crosses it (kNoPort elsewhere).
std::vector<PortId> fixed_entries(const Fabric& f, const lidassign::DestPaths& d,
                                  const std::vector<std::uint32_t>& config, std::uint32_t j);

// The switch-to-switch edges into each switch, in port order, with their Up*/Down* direction:
// what complete_tree's searches read for every switch they settle (issue 12: ~36,000 trees a
// sweep at 16,384 hosts, where looking each port up in the Fabric was a third of the
// forwarding-table phase). Built once per fabric and orientation.
struct InEdges {
    struct Edge {
        NodeId from; // the switch the edge leaves
        PortId out;  // its port on `from`
        bool up;     // ud.up(f, out)
    };
    std::vector<std::uint32_t> off; // per node: edges[off[v], off[v + 1]) enter v
    std::vector<Edge> edges;
    InEdges(const Fabric& f, const graph::UpDown& ud);
};

// target: an end port (a CA port, or port 0 of a switch). fixed: per node the out edge the
// configuration fixes, kNoPort elsewhere (CA entries are ignored).
CompletedTree complete_tree(const Fabric& f, const graph::UpDown& ud, PortId target,
                            const std::vector<PortId>& fixed);
// The same with the fabric's InEdges built by the caller (once for many trees).
CompletedTree complete_tree(const Fabric& f, const graph::UpDown& ud, const InEdges& in,
                            PortId target, const std::vector<PortId>& fixed);

// complete_tree() for CA targets, shared by the CAs of one switch (issue 12: 4 trees per
// destination were most of the forwarding-table pass at 16,384 hosts). complete_tree never
// reads fixed[entry] (the switch next to the target is labelled first), and the trees of two
// CAs behind the same switch with the same fixed entries differ only in out[entry], the
// switch's port towards the CA. So a tree is kept per (entry switch, fixed) and handed out with
// out[entry] set for the target: exactly complete_tree(f, ud, target, fixed).
class TreeCache {
  public:
    TreeCache(const Fabric& f, const graph::UpDown& ud) : f_(f), ud_(ud), in_(f, ud) {}
    // Clears fixed[entry switch] (complete_tree ignores it). The pointer stays valid until the
    // next new_destination().
    const CompletedTree* get(PortId target, std::vector<PortId>& fixed);
    // Call before each destination's first get(): may drop trees handed out before.
    void new_destination();
    std::uint64_t hits = 0, misses = 0;

  private:
    struct Entry {
        std::vector<PortId> fixed;
        CompletedTree tree;
    };
    const Fabric& f_;
    const graph::UpDown& ud_;
    InEdges in_;
    NodeId entry_ = kNoNode;
    std::deque<Entry> entries_; // stable addresses
};

} // namespace ibrt::separate
