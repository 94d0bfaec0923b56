// The routing function's storage (fabric/routing_function.hpp): whole tables interned as they
// are built and entries written one by one give the same lookups and the same table
// numbering after compact, and a shared table is copied, never changed, by a later write.
#include "fabric/routing_function.hpp"
#include "tests/formats/tables_fixture.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ibrt;

namespace {

constexpr Lid kMaxLid = 13;

// A deterministic routing over every switch, 2 VL keys, keyed by input port: entries depend on
// (switch, VL, port parity, DLID), so many keys share a table and some tables are empty.
std::uint32_t want(std::uint32_t sets, NodeId sw, unsigned v, PortNum in, Lid d) {
    if (in % 3 == 2) return RoutingFunction::kNoSet; // these keys keep the all-empty table
    return (sw * 7 + v * 3 + (in % 2) + d) % sets;
}

} // namespace

TEST_CASE("routing function: interned tables equal entries written one by one") {
    const Fabric f = test::sample_fabric(false);
    RoutingFunction by_entry(f, kMaxLid, 2, true), by_table(f, kMaxLid, 2, true);
    const Candidate a[] = {{1, 0}}, b[] = {{2, 0}, {3, 1}}, c[] = {{3, 0}};
    for (RoutingFunction* rf : {&by_entry, &by_table})
        for (const auto& s : {std::span<const Candidate>(a), std::span<const Candidate>(b),
                              std::span<const Candidate>(c)})
            rf->intern(s);
    const std::uint32_t sets = std::uint32_t(by_entry.num_sets());
    REQUIRE(sets == 3);
    by_table.reserve_tables(4);
    std::vector<std::uint32_t> row(kMaxLid + 1);
    for (NodeId sw : f.switches())
        for (unsigned v = 0; v < 2; ++v)
            for (PortNum in = 0; in <= f.node(sw).num_ports; ++in) {
                for (Lid d = 0; d <= kMaxLid; ++d) {
                    row[d] = want(sets, sw, v, in, d);
                    if (row[d] != RoutingFunction::kNoSet) by_entry.set_entry(sw, v, in, d, row[d]);
                }
                if (in % 3 != 2) by_table.set_table(sw, v, in, by_table.intern_table(row));
            }
    by_entry.compact();
    by_table.compact();
    REQUIRE(by_table.num_tables() == by_entry.num_tables());
    // At most 2 VLs × 2 port parities per switch, and the empty table shared by all.
    CHECK(by_table.num_tables() <= 4 * f.switches().size() + 1);
    for (NodeId sw : f.switches())
        for (unsigned v = 0; v < 2; ++v)
            for (PortNum in = 0; in <= f.node(sw).num_ports; ++in)
                for (Lid d = 0; d <= kMaxLid; ++d) {
                    CHECK(by_table.lookup(sw, v, in, d) == want(sets, sw, v, in, d));
                    CHECK(by_entry.lookup(sw, v, in, d) == want(sets, sw, v, in, d));
                    CHECK(by_table.entry_index(sw, v, in, d) == by_entry.entry_index(sw, v, in, d));
                }
}

TEST_CASE("routing function: writing a shared table's key copies it") {
    const Fabric f = test::sample_fabric(false);
    RoutingFunction rf(f, kMaxLid, 1, true);
    const Candidate a[] = {{1, 0}}, b[] = {{2, 0}};
    const std::uint32_t sa = rf.intern(a), sb = rf.intern(b);
    const NodeId sw = f.switches().front();
    std::vector<std::uint32_t> row(kMaxLid + 1, sa);
    const std::uint32_t t = rf.intern_table(row);
    CHECK(rf.intern_table(row) == t); // stored once
    rf.set_table(sw, 0, 0, t);
    rf.set_table(sw, 0, 1, t);
    rf.set_entry(sw, 0, 1, 5, sb);
    CHECK(rf.lookup(sw, 0, 0, 5) == sa);
    CHECK(rf.lookup(sw, 0, 1, 5) == sb);
    CHECK(rf.lookup(sw, 0, 2, 5) == RoutingFunction::kNoSet); // never written
    rf.compact();
    CHECK(rf.lookup(sw, 0, 0, 5) == sa);
    CHECK(rf.lookup(sw, 0, 1, 5) == sb);
    CHECK(rf.lookup(sw, 0, 1, 4) == sa);
    CHECK(rf.lookup(sw, 0, 2, 5) == RoutingFunction::kNoSet);
    CHECK(rf.num_tables() == 3);
    // After compact too: every table is shared, a write copies it.
    rf.set_entry(sw, 0, 0, 6, sb);
    CHECK(rf.lookup(sw, 0, 0, 6) == sb);
    CHECK(rf.lookup(sw, 0, 1, 6) == sa);
    CHECK_THROWS(rf.set_table(sw, 0, 2, 99));
    CHECK_THROWS(rf.intern_table(std::vector<std::uint32_t>(kMaxLid, sa)));
}
