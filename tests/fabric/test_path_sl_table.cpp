// PathSlTable: SL per (ingress switch, DLID), with shared rows.
#include "fabric/path_sl_table.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace ibrt;

TEST_CASE("path SL table: empty means SL 0 for every path and costs nothing") {
    const PathSlTable t;
    CHECK(t.empty());
    CHECK(t.sl(0, 5) == 0);
    CHECK(t.sl(kNoNode, 5) == 0);
    CHECK(t.bytes() == 0);
    CHECK(PathSlTable::by_dlid({0, 0, 0}).empty()); // an all-zero rule is no rule
}

TEST_CASE("path SL table: a per-DLID rule is one row for every source") {
    const PathSlTable t = PathSlTable::by_dlid({0, 1, 2, 3});
    CHECK(t.num_rows() == 1);
    CHECK(t.sl(7, 2) == 2);
    CHECK(t.sl(kNoNode, 3) == 3);
    CHECK(t.sl(7, 4) == 0); // past the end
    CHECK(t.max_sl() == 3);
}

TEST_CASE("path SL table: rows per ingress switch, equal rows stored once") {
    PathSlTable t(4, 5, std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1});
    const std::vector<std::uint8_t> a{0, 2, 2, 0, 0, 0}, b{0, 3};
    t.set_row(1, a);
    t.set_row(2, a);
    t.set_row(3, b); // short rows are padded with SL 0
    CHECK(t.num_rows() == 3);
    CHECK(t.sl(0, 3) == 1); // default row
    CHECK(t.sl(kNoNode, 3) == 1);
    CHECK(t.sl(1, 2) == 2);
    CHECK(t.sl(2, 1) == 2);
    CHECK(t.sl(3, 1) == 3);
    CHECK(t.sl(3, 2) == 0);
    t.set_row(3, std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1}); // back to the default's content
    CHECK(t.sl(3, 1) == 1);
    CHECK_THROWS(t.set_row(4, a));
    CHECK_THROWS(t.set_row(0, std::vector<std::uint8_t>(7, 0)));
}
