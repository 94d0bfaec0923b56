// Replaying tables from their files gives the very same run as the routing they were written
// from: opensm-lfts.dump, guid2lid and the path selection carry everything the simulator uses.
#include "engines/engine.hpp"
#include "formats/guid2lid.hpp"
#include "formats/lft_dump.hpp"
#include "formats/path_selection.hpp"
#include "generators/fat_tree.hpp"
#include "sim/simulator.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace ibrt;
using namespace ibrt::sim;

TEST_CASE("tables replayed from their dumps simulate exactly like the in-process routing") {
    const Fabric f = gen::fat_tree(4, 3);
    const Routing direct = make_engine("mlid")->route(f, nullptr, {});
    REQUIRE(!direct.dlid_choice.empty());

    std::ostringstream lfts, g2l, ps;
    write_lft_dump(lfts, f, direct);
    write_guid2lid(g2l, f, direct.lids);
    write_path_selection(ps, f, direct);
    Routing replay;
    replay.lids = bind_guid2lid(read_guid2lid_text(g2l.str(), "guid2lid"), f, "guid2lid");
    replay.lft = bind_lft_dump(read_lft_dump_text(lfts.str(), "lfts"), f, "lfts");
    replay.dlid_choice =
        bind_path_selection(read_path_selection(ps.str(), "ps"), f, replay.lids, "ps");

    SimConfig c;
    c.traffic.load = 0.7;
    c.warmup_ps = 5'000'000;
    c.measure_ps = 20'000'000;
    c.drain_ps = 20'000'000;
    const SimResult a = simulate(f, direct, c), b = simulate(f, replay, c);
    CHECK(a.delivered == b.delivered);
    CHECK(a.events == b.events);
    CHECK(a.hops == b.hops);
    CHECK(a.latency_mean_ns == b.latency_mean_ns);
    CHECK(a.accepted_bytes_per_ns == b.accepted_bytes_per_ns);
    CHECK(a.dropped == 0);
    CHECK(b.misdelivered == 0);

    // Without the path selection every source uses the base LID: another run.
    replay.dlid_choice.clear();
    const SimResult base = simulate(f, replay, c);
    CHECK(base.events != a.events);
    CHECK(base.dropped == 0);
}
