// Selection functions (sim/selection.hpp; paper 004 §4) on hand-made congestion views: the
// preferred candidate of each, the linear rotative search past candidates without room, MC's
// most credits with ties broken round the class, and the draws of RP, two random choices and
// the oblivious selection.
#include "sim/selection.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ibrt;
using namespace ibrt::sim;

namespace {

std::vector<CandidateView> views(std::initializer_list<bool> fits) {
    std::vector<CandidateView> v;
    for (bool f : fits) v.push_back({f, f ? 10 : 0, 0});
    return v;
}

} // namespace

TEST_CASE("preferred-link selection functions search rotatively from their preference") {
    gen::Rng rng(1);
    SelectionKey key;
    key.switch_digit = 2;
    key.source_digit0 = 1;
    key.dest_digit0 = 3;
    key.dest_stage_digit = 6; // taken modulo the class size
    key.counter = 5;
    const auto all = views({true, true, true, true});
    CHECK(select_candidate(Selection::FirstFree, all, key, rng) == 0);
    CHECK(select_candidate(Selection::SwitchPriority, all, key, rng) == 2);
    CHECK(select_candidate(Selection::OriginPriority, all, key, rng) == 1);
    CHECK(select_candidate(Selection::DestinationPriority, all, key, rng) == 3);
    CHECK(select_candidate(Selection::StageDestinationPriority, all, key, rng) == 2);
    CHECK(select_candidate(Selection::CyclicPriority, all, key, rng) == 1);
    // Without room at the preferred candidate, the next one round the class that has room.
    const auto some = views({true, false, false, true});
    CHECK(select_candidate(Selection::FirstFree, views({false, false, true, true}), key, rng) == 2);
    CHECK(select_candidate(Selection::SwitchPriority, some, key, rng) == 3);
    CHECK(select_candidate(Selection::DestinationPriority, some, key, rng) == 3);
    CHECK(select_candidate(Selection::OriginPriority, some, key, rng) == 3);
    key.dest_digit0 = 0;
    CHECK(select_candidate(Selection::DestinationPriority, views({false, false, true, false}), key,
                           rng) == 2);
}

TEST_CASE("MC takes the most credits, ties go round the class from the counter") {
    gen::Rng rng(1);
    SelectionKey key;
    std::vector<CandidateView> c = {{true, 4, 0}, {true, 9, 0}, {false, 20, 0}, {true, 9, 0}};
    key.counter = 0;
    CHECK(select_candidate(Selection::MoreCredits, c, key, rng) == 1);
    key.counter = 2; // from candidate 2: 3 before 1
    CHECK(select_candidate(Selection::MoreCredits, c, key, rng) == 3);
    // Idle links (all equal): successive packets spread instead of piling onto the first.
    const auto idle = views({true, true, true});
    for (std::uint32_t n = 0; n < 3; ++n) {
        key.counter = n;
        CHECK(select_candidate(Selection::MoreCredits, idle, key, rng) == n);
        CHECK(select_candidate(Selection::LeastLoaded, idle, key, rng) == n);
    }
    // Least loaded: fewest packets bound, then most credits.
    std::vector<CandidateView> q = {{true, 9, 2}, {true, 1, 1}, {true, 5, 1}};
    key.counter = 0;
    CHECK(select_candidate(Selection::LeastLoaded, q, key, rng) == 2);
}

TEST_CASE("RP and two random choices draw only candidates with room, all of them") {
    gen::Rng rng(7);
    SelectionKey key;
    std::vector<CandidateView> c = {{true, 1, 0}, {false, 0, 0}, {true, 8, 0}, {true, 3, 0}};
    int rp[4] = {}, two[4] = {};
    for (int i = 0; i < 3000; ++i) {
        ++rp[select_candidate(Selection::RandomPriority, c, key, rng)];
        ++two[select_candidate(Selection::TwoRandomChoices, c, key, rng)];
    }
    CHECK(rp[1] == 0);
    CHECK(two[1] == 0);
    // RP: the preferred draw is uniform over 4; candidate 1 has no room, so its share goes to 2.
    CHECK(rp[0] == Approx(750).margin(120));
    CHECK(rp[2] == Approx(1500).margin(150));
    // Two distinct draws among {0, 2, 3}, the one with more credits taken: 2 wins every pair it
    // is in (2 of 3 pairs), 3 beats 0 (1 of 3), 0 never wins.
    CHECK(two[0] == 0);
    CHECK(two[2] == Approx(2000).margin(150));
    CHECK(two[3] == Approx(1000).margin(150));
}

TEST_CASE("Oblivious draws every candidate uniformly, with room or not") {
    // BookSim's nca: the packet waits for the drawn candidate (sim/extended_switch.cpp binds it
    // even when it cannot take the packet now), so congestion does not bend the draw as it does
    // RP's.
    gen::Rng rng(7);
    SelectionKey key;
    std::vector<CandidateView> c = {{true, 1, 0}, {false, 0, 0}, {true, 8, 0}, {true, 3, 0}};
    int n[4] = {};
    for (int i = 0; i < 4000; ++i) ++n[select_candidate(Selection::Oblivious, c, key, rng)];
    for (int k : n) CHECK(k == Approx(1000).margin(120));
    CHECK(parse_selection("oblivious") == Selection::Oblivious);
}

TEST_CASE("anca is BookSim's: two draws over all candidates, fewer credits in use wins") {
    // fattree_anca draws two up ports independently (the same one possibly twice) and takes
    // the one with fewer used credits, keeping the first on a tie; room does not filter the
    // draw, so the candidate without room (1) still wins the pairs it is the roomier in.
    gen::Rng rng(11);
    SelectionKey key;
    std::vector<CandidateView> c = {{true, 1, 0}, {false, 2, 0}, {true, 8, 0}, {true, 8, 0}};
    int n[4] = {};
    for (int i = 0; i < 16000; ++i)
        ++n[select_candidate(Selection::TwoRandomOblivious, c, key, rng)];
    // Of the 16 ordered pairs: 0 wins only (0,0); 1 wins (0,1), (1,0), (1,1); 2 wins (2,x)
    // for every x (the tie with 3 keeps the first) and (0,2), (1,2); 3 likewise.
    CHECK(n[0] == Approx(1000).margin(150));
    CHECK(n[1] == Approx(3000).margin(250));
    CHECK(n[2] == Approx(6000).margin(300));
    CHECK(n[3] == Approx(6000).margin(300));
    CHECK(parse_selection("anca") == Selection::TwoRandomOblivious);
    CHECK(parse_selection("two-choices") == Selection::TwoRandomChoices);
    CHECK(is_oblivious(Selection::TwoRandomOblivious));
    CHECK_FALSE(is_oblivious(Selection::TwoRandomChoices));
}

TEST_CASE("ugal is BookSim's: minimal unless its queue exceeds twice a non-minimal one's + 30") {
    // ugal_dragonflynew: 1 * min_queue_size <= 2 * nonmin_queue_size + 30 takes the minimal
    // path; the queues are the downstream buffers' credits in use over their VLs, room
    // ignored (a candidate without room is still taken), the non-minimal one a uniform draw.
    gen::Rng rng(3);
    SelectionKey key;
    key.hops = 1; // at the source switch (the host's link crossed)
    const auto view = [](std::int32_t used, std::uint8_t priority) {
        CandidateView v{false, 0, 0};
        v.used_all = used;
        v.priority = priority;
        return v;
    };
    // Minimal at 55 in use; non-minimal at 10 and 20: 55 > 2 * 10 + 30 but 55 <= 2 * 20 + 30.
    std::vector<CandidateView> c = {view(55, 0), view(10, 1), view(20, 1)};
    int n[3] = {};
    for (int i = 0; i < 4000; ++i) ++n[select_candidate(Selection::Ugal, c, key, rng)];
    CHECK(n[0] == Approx(2000).margin(150)); // drew 2
    CHECK(n[1] == Approx(2000).margin(150)); // drew 1
    CHECK(n[2] == 0);
    // At the threshold the minimal one is kept: 50 == 2 * 10 + 30.
    c = {view(50, 0), view(10, 1)};
    for (int i = 0; i < 100; ++i) CHECK(select_candidate(Selection::Ugal, c, key, rng) == 0);
    c = {view(51, 0), view(10, 1)};
    for (int i = 0; i < 100; ++i) CHECK(select_candidate(Selection::Ugal, c, key, rng) == 1);
    // Past the source switch it decides nothing: the minimal candidate, however full.
    key.hops = 2;
    for (int i = 0; i < 100; ++i) CHECK(select_candidate(Selection::Ugal, c, key, rng) == 0);
    key.hops = 1;
    // Several minimal candidates: a uniform draw among them, the non-minimal ones never when
    // they hold as much.
    c = {view(0, 0), view(0, 0), view(0, 1), view(0, 1)};
    int m[4] = {};
    for (int i = 0; i < 4000; ++i) ++m[select_candidate(Selection::Ugal, c, key, rng)];
    CHECK(m[0] == Approx(2000).margin(150));
    CHECK(m[1] == Approx(2000).margin(150));
    CHECK(m[2] + m[3] == 0);
    // One class: a uniform draw, as nca.
    c = {view(90, 0), view(0, 0), view(40, 0)};
    int o[3] = {};
    for (int i = 0; i < 3000; ++i) ++o[select_candidate(Selection::Ugal, c, key, rng)];
    for (int k : o) CHECK(k == Approx(1000).margin(120));
    CHECK(parse_selection("ugal") == Selection::Ugal);
    CHECK(to_string(Selection::Ugal) == "ugal");
    CHECK(is_oblivious(Selection::Ugal));
    CHECK(uses_load(Selection::Ugal));
    CHECK(sees_every_class(Selection::Ugal));
    CHECK_FALSE(sees_every_class(Selection::TwoRandomOblivious));
}
