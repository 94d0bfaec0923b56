// Paper 001 §VI.B study driver: Tables III/IV average over the "ILP selected" topologies and
// Table V compares them with the first N seeds; on small fabrics every destination is proven,
// so both topology sets are the same seeds and the rows agree exactly.
#include "studies/lids_random.hpp"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

using namespace ibrt::lidassign;

namespace {
// Two seeds of a 12-switch fabric with 16 machines (heuristics), every destination provable.
StudyOptions small_study(std::vector<int> machines_exact) {
    StudyOptions o;
    o.seeds = 2;
    o.time_limit_s = 30;
    o.switches = {12};
    o.machines_heuristics = {16};
    o.machines_exact = std::move(machines_exact);
    return o;
}
} // namespace

TEST_CASE("study: Table V rows and Tables III/IV on fully proven small topologies") {
    const StudyOptions o = small_study({16, 24});
    const StudyResult r = run_study(o);
    REQUIRE(r.table1.size() == 1);
    REQUIRE(r.table3.size() == 2);
    REQUIRE(r.table4.size() == 2);
    REQUIRE(r.table5.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        const SelectionRow& t5 = r.table5[i];
        CHECK(t5.machines == o.machines_exact[i]);
        CHECK(t5.switches == 12);
        CHECK(t5.random_n == 2);
        CHECK(t5.selected_n == 2);
        CHECK(t5.tried == 2);
        CHECK(t5.rejected_seeds.empty());
        for (int k = 0; k < 2; ++k) {
            CHECK(t5.greedy[0][k] == t5.greedy[1][k]);
            CHECK(t5.color_l[0][k] == t5.color_l[1][k]);
            CHECK(t5.improvement[0][k] == t5.improvement[1][k]);
            const ExactRow& e = k == 0 ? r.table3[i] : r.table4[i];
            CHECK(e.seeds == 2);
            CHECK(e.greedy == t5.greedy[1][k]);
            CHECK(e.color_l == t5.color_l[1][k]);
            CHECK(e.ilp <= e.color_l);
            CHECK(e.ilp <= e.greedy);
            CHECK(e.feasible == 0);
            CHECK(e.timed_out == 0);
            CHECK(e.optimal == 2u * std::uint64_t(o.machines_exact[i]));
        }
    }
}

TEST_CASE("study: lids-seeds rows are the topologies behind the tables' means") {
    StudyOptions o = small_study({16});
    o.ps_candidates = 4;
    const StudyResult r = run_study(o);
    REQUIRE(r.seeds.size() == 8); // 2 seeds x Tables I, II, III, IV
    for (int t = 1; t <= 4; ++t) {
        double sum = 0, ilp = 0;
        int n = 0;
        for (const SeedRow& s : r.seeds)
            if (s.table == t) {
                sum += s.heuristics[4];
                ilp += s.ilp;
                ++n;
                CHECK(s.switches == 12);
                if (t >= 3) {
                    CHECK(s.ilp <= s.heuristics[4]);
                    CHECK(s.ilp <= s.heuristics[0]);
                    CHECK((s.color_l_dests_above > 0) == (s.heuristics[4] > s.ilp));
                    CHECK((s.greedy_dests_above > 0) == (s.heuristics[0] > s.ilp));
                }
            }
        REQUIRE(n == 2);
        if (t <= 2)
            CHECK(sum / 2 == Approx((t == 1 ? r.table1 : r.table2)[0].avg[4]));
        else {
            CHECK(sum / 2 == Approx((t == 3 ? r.table3 : r.table4)[0].color_l));
            CHECK(ilp / 2 == Approx((t == 3 ? r.table3 : r.table4)[0].ilp));
        }
    }
}
