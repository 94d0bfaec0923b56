// saquery -p output: (SLID, DLID, SL) per PathRecord; chatter skipped, bad blocks named.
#include "fabric/input_error.hpp"
#include "formats/saquery_reader.hpp"

#include <catch2/catch.hpp>

using namespace ibrt;

namespace {
// As infiniband-diags 44 prints it (captured under ibsim from opensm's dfsssp).
const char* kDump = "ibwarn: [10049] sim_connect: attached as client 1 at node \"host-0.0-0\"\n"
                    "PathRecord dump:\n"
                    "\t\tservice_id..............0x0000000000000000\n"
                    "\t\tdgid....................fe80::20:0:0:100\n"
                    "\t\tdlid....................2\n"
                    "\t\tslid....................3\n"
                    "\t\tsl......................0x3\n"
                    "\t\tmtu.....................0x83\n"
                    "PathRecord dump:\n"
                    "\t\tdlid....................0\n"
                    "\t\tslid....................0\n"
                    "\t\tsl......................0x0\n"
                    "PathRecord dump:\n"
                    "\t\tdlid....................0x1c\n"
                    "\t\tslid....................7\n"
                    "\t\tsl......................0x1\n";
} // namespace

TEST_CASE("saquery PathRecords: slid, dlid and sl of every real record") {
    const auto r = read_saquery_path_records(kDump, "sa");
    REQUIRE(r.size() == 2); // the all-zero record of a truncated answer is skipped
    CHECK(r[0].slid == 3);
    CHECK(r[0].dlid == 2);
    CHECK(r[0].sl == 3);
    CHECK(r[0].line == 2);
    CHECK(r[1].slid == 7);
    CHECK(r[1].dlid == 0x1c);
    CHECK(r[1].sl == 1);
    CHECK(read_saquery_path_records("", "sa").empty());
}

TEST_CASE("saquery PathRecords: a record without its fields or with bad values is named") {
    CHECK_THROWS_WITH(read_saquery_path_records("PathRecord dump:\n\t\tdlid.....2\n", "sa"),
                      "sa:1: PathRecord without slid, dlid and sl");
    CHECK_THROWS_WITH(
        read_saquery_path_records(
            "PathRecord dump:\n\t\tdlid.....2\n\t\tslid....1\n\t\tsl.....0x10\n", "sa"),
        "sa:4: bad sl value '0x10'");
    CHECK_THROWS_WITH(read_saquery_path_records("PathRecord dump:\n\t\tdlid.....\n", "sa"),
                      "sa:2: bad dlid value ''");
}
