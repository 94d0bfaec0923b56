// One answer to "how many hops between two switches" (issue 41): mapping::member_hops, the
// direct engines' table over a set of member switches, and graph::bfs_hops, the graph library's
// search, agree wherever they answer the same question: with every switch a member, on intact
// and damaged fabrics (split ones too, where both say "unreached").
#include "generators/failures.hpp"
#include "generators/torus.hpp"
#include "graph/fabric_walks.hpp"
#include "mapping/switch_links.hpp"

#include <catch2/catch.hpp>

#include <numeric>

using namespace ibrt;

TEST_CASE("member_hops over every switch equals the graph library's switch BFS") {
    gen::TorusParams tp;
    tp.k = {5, 4, 3};
    const Fabric intact = gen::torus(tp);
    for (const double links : {0.0, 0.1, 0.3, 0.6}) {
        gen::FailureSpec fs;
        fs.links = links;
        fs.seed = 7;
        gen::FailureReport report;
        const Fabric f = links > 0 ? gen::inject_failures(intact, fs, report) : intact;
        const mapping::SwitchLinks g = mapping::switch_links(f);
        const std::size_t k = g.num_switches();
        std::vector<std::uint32_t> members(k);
        std::iota(members.begin(), members.end(), 0u);
        const std::vector<std::uint8_t> hops = mapping::member_hops(g, members);
        std::vector<std::uint32_t> dist;
        std::vector<NodeId> queue;
        std::size_t far = 0;
        for (std::size_t t = 0; t < k; ++t) {
            const NodeId src = g.node[t];
            graph::bfs_hops(f, std::span<const NodeId>(&src, 1), true, dist, queue);
            for (std::size_t x = 0; x < k; ++x) {
                CAPTURE(links, t, x);
                const std::uint32_t d = dist[g.node[x]];
                if (d == graph::kFar) {
                    ++far;
                    CHECK(hops[t * k + x] == mapping::kFarHops);
                } else {
                    CHECK(std::uint32_t(hops[t * k + x]) == d);
                }
            }
        }
        if (links == 0.6) CHECK(far > 0); // the heaviest damage splits the torus: both say so
    }
}
