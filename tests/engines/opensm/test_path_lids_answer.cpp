// The plugin's path_lid_pairs answer (opensm-patches/0001): the path selection's pair first,
// then every other pair of the ranges once.
#include "engines/opensm/path_lids_answer.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <vector>

using namespace ibrt;

namespace {

// One switch, three single-port CAs with LMC 2: h0 LIDs 4-7, h1 8-11, h2 12-15.
struct Three {
    Fabric f;
    Routing r;
    NodeId s = 0, h[3] = {};
    Three() {
        FabricBuilder b;
        s = b.add_node(NodeType::Switch, 3, 0x10, "sw");
        for (int i = 0; i < 3; ++i) {
            h[i] = b.add_node(NodeType::CA, 1, 0x20 + i, "h");
            b.connect(s, PortNum(i + 1), h[i], 1);
        }
        f = std::move(b).build();
        r.lids = Lids(f);
        r.lids.assign(f.port_id(s, 0), 1, 0);
        for (int i = 0; i < 3; ++i) r.lids.assign(f.port_id(h[i], 1), Lid(4 + 4 * i), 2);
    }
    std::vector<std::pair<Lid, Lid>> answer(Lid smin, Lid smax, Lid dmin, Lid dmax,
                                            std::size_t max = 64) const {
        std::vector<Lid> sl(max), dl(max);
        const std::size_t n =
            osm::answer_path_lids(r, osm::ca_index_of_ports(f), f.cas().size(), smin, smax, dmin,
                                  dmax, sl.data(), dl.data(), max);
        std::vector<std::pair<Lid, Lid>> out;
        for (std::size_t i = 0; i < n; ++i) out.emplace_back(sl[i], dl[i]);
        return out;
    }
};

} // namespace

TEST_CASE("without a path selection the base LIDs come first, as in opensm") {
    const Three t;
    const auto a = t.answer(4, 7, 8, 11);
    REQUIRE(a.size() == 16);
    CHECK(a[0] == std::pair<Lid, Lid>{4, 8});
    CHECK(a[1] == std::pair<Lid, Lid>{5, 9}); // distinct LIDs on both ends first
    CHECK(a[3] == std::pair<Lid, Lid>{7, 11});
    CHECK(std::set<std::pair<Lid, Lid>>(a.begin(), a.end()).size() == 16); // each pair once
}

TEST_CASE("the path selection's DLID comes first, with the reverse choice as SLID") {
    Three t;
    // dlid_choice[src * 3 + dst]: h0 -> h1 uses 10, h1 -> h0 uses 7.
    t.r.dlid_choice = {0, 10, 13, 7, 0, 14, 5, 9, 0};
    const auto a = t.answer(4, 7, 8, 11);
    REQUIRE(a.size() == 16);
    CHECK(a[0] == std::pair<Lid, Lid>{7, 10});
    CHECK(a[1] == std::pair<Lid, Lid>{4, 11}); // cyclically after the chosen LIDs
    CHECK(a[2] == std::pair<Lid, Lid>{5, 8});
    CHECK(std::set<std::pair<Lid, Lid>>(a.begin(), a.end()).size() == 16);
    for (const auto& [s, d] : a) {
        CHECK((s >= 4 && s <= 7));
        CHECK((d >= 8 && d <= 11));
    }
    CHECK(t.answer(12, 15, 4, 7)[0] == std::pair<Lid, Lid>{13, 5}); // h2 -> h0
}

TEST_CASE("a query that names one LID gets pairs within it") {
    Three t;
    t.r.dlid_choice = {0, 10, 13, 7, 0, 14, 5, 9, 0};
    const auto pinned_dlid = t.answer(4, 7, 9, 9);
    REQUIRE(pinned_dlid.size() == 4);
    CHECK(pinned_dlid[0] == std::pair<Lid, Lid>{7, 9}); // the reverse choice still first
    const auto pinned_slid = t.answer(5, 5, 8, 11);
    REQUIRE(pinned_slid.size() == 4);
    CHECK(pinned_slid[0] == std::pair<Lid, Lid>{5, 10});
    CHECK(t.answer(5, 5, 9, 9) == std::vector<std::pair<Lid, Lid>>{{5, 9}});
}

TEST_CASE("the answer stops at max_pairs and leaves unknown LIDs to opensm") {
    Three t;
    t.r.dlid_choice = {0, 10, 13, 7, 0, 14, 5, 9, 0};
    CHECK(t.answer(4, 7, 8, 11, 1) == std::vector<std::pair<Lid, Lid>>{{7, 10}});
    CHECK(t.answer(40, 43, 8, 11).empty()); // no port of ours owns SLID 40
    CHECK(t.answer(0, 3, 8, 11).empty());
    // The switch's port 0 is no CA: base LIDs, as opensm.
    CHECK(t.answer(1, 1, 8, 11)[0] == std::pair<Lid, Lid>{1, 8});
}
