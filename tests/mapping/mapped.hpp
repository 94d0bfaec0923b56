// Test support: a fabric relabelled (relabel.hpp), then mapped from its cabling, with the
// generator's coordinates of each switch by dense id to compare with (shape_compare.hpp).
#pragma once

#include "mapping/map_fabric.hpp"
#include "mapping/shape_compare.hpp"
#include "relabel.hpp"

#include <vector>

namespace ibrt::test {

struct Mapped {
    Relabelled r;
    mapping::SwitchLinks g;
    mapping::Shape shape;
    std::vector<std::vector<int>> truth; // from the original labels; empty where none parse
};

inline Mapped map_relabelled(const Fabric& f, std::uint64_t seed) {
    Mapped m{relabel(f, seed), {}, {}, {}};
    m.g = mapping::switch_links(m.r.fabric);
    m.shape = mapping::map_fabric(m.r.fabric, m.g, mapping::link_classes(m.g));
    for (NodeId n : m.g.node)
        m.truth.push_back(
            mapping::generator_coords(m.r.original_desc[n]).value_or(std::vector<int>{}));
    return m;
}

} // namespace ibrt::test
