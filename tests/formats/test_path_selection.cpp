// The path-selection file (formats/path_selection.hpp): write/read/bind round trip and the
// exact file:line errors of the reader and binder.
#include "fabric/input_error.hpp"
#include "formats/path_selection.hpp"
#include "generators/fat_tree.hpp"
#include "generators/lid_preassign.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <sstream>

using namespace ibrt;

namespace {
struct Fixture {
    Fabric f = gen::assign_lids(gen::fat_tree(4, 2), 1); // 8 CAs, LMC 1
    Routing r;
    Fixture() {
        r.lids = Lids::from_fabric(f);
        const std::size_t n = f.cas().size();
        r.dlid_choice.resize(n * n);
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = 0; b < n; ++b)
                r.dlid_choice[a * n + b] =
                    static_cast<Lid>(r.lids.base(f.port_id(f.cas()[b], 1)) + (a + b) % 2);
    }
};
std::string error_of(const std::string& text, const Fabric& f, const Lids& lids) {
    try {
        bind_path_selection(read_path_selection(text, "ps"), f, lids, "ps");
    } catch (const InputError& e) {
        return e.what();
    }
    return "ok";
}
} // namespace

TEST_CASE("path selection: write, read and bind round trip") {
    Fixture x;
    std::ostringstream out;
    write_path_selection(out, x.f, x.r);
    const std::string text = out.str();
    const auto entries = read_path_selection(text, "ps");
    CHECK(entries.size() == 8 * 7);
    CHECK(entries[0].line == 4); // after the three header comments
    CHECK(entries[0].src_guid == 0x0010000000000101ull);
    CHECK(entries[0].dst_guid == 0x0010000000000201ull);
    CHECK(entries[0].dlid == x.r.dlid_choice[1]);
    const std::size_t n = x.f.cas().size();
    const auto bound = bind_path_selection(entries, x.f, x.r.lids, "ps");
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
            if (a != b) CHECK(bound[a * n + b] == x.r.dlid_choice[a * n + b]);
    // The diagonal (not in the file) falls back to the base LID.
    CHECK(bound[0] == x.r.lids.base(x.f.port_id(x.f.cas()[0], 1)));
}

TEST_CASE("path selection: a routing without a choice writes no pair, and reads back") {
    // Every pair on the base LID (the direct engines): the file is its header alone.
    Fixture x;
    x.r.dlid_choice.clear();
    std::ostringstream out;
    write_path_selection(out, x.f, x.r);
    CHECK(read_path_selection(out.str(), "ps").empty());
    const auto bound = bind_path_selection({}, x.f, x.r.lids, "ps");
    const std::size_t n = x.f.cas().size();
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
            CHECK(bound[a * n + b] == x.r.lids.base(x.f.port_id(x.f.cas()[b], 1)));
}

TEST_CASE("path selection: errors name file and line") {
    Fixture x;
    const Lid b2 = x.r.lids.base(x.f.port_id(x.f.cas()[1], 1));
    CHECK(error_of("# c\n\n0x0010000000000101 0x0010000000000201\n", x.f, x.r.lids) ==
          "ps:3: expected `<source port GUID> <destination port GUID> <DLID>`");
    CHECK(error_of("0x0010000000000101 0x0010000000000201 5 6\n", x.f, x.r.lids) ==
          "ps:1: expected `<source port GUID> <destination port GUID> <DLID>`");
    CHECK(error_of("10000000000101 0x0010000000000201 5\n", x.f, x.r.lids) ==
          "ps:1: bad source port GUID '10000000000101'");
    CHECK(error_of("0x0010000000000101 0xzz 5\n", x.f, x.r.lids) ==
          "ps:1: bad destination port GUID '0xzz'");
    CHECK(error_of("0x0010000000000101 0x0010000000000201 49152\n", x.f, x.r.lids) ==
          "ps:1: bad DLID '49152' (expected 1..49151)");
    CHECK(error_of("0x0010000000000101 0x0010000000000201 0\n", x.f, x.r.lids) ==
          "ps:1: bad DLID '0' (expected 1..49151)");
    CHECK(error_of("0x00100000000001ff 0x0010000000000201 5\n", x.f, x.r.lids) ==
          "ps:1: source 0x00100000000001ff is not a CA port of the fabric");
    CHECK(error_of("0x0010000000000101 0x0020000000000100 5\n", x.f, x.r.lids) ==
          "ps:1: destination 0x0020000000000100 is not a CA port of the fabric");
    CHECK(error_of(fmt::format("0x0010000000000101 0x0010000000000201 {}\n", b2 + 2), x.f,
                   x.r.lids) ==
          fmt::format("ps:1: DLID {} is not a LID of destination 0x0010000000000201", b2 + 2));
    CHECK(error_of(fmt::format("0x0010000000000101 0x0010000000000201 {}\n"
                               "0x0010000000000101 0x0010000000000201 {}\n",
                               b2, b2 + 1),
                   x.f, x.r.lids) ==
          "ps:2: pair 0x0010000000000101 -> 0x0010000000000201 is given twice");
}

TEST_CASE("path selection: a line from a port to itself is refused (issue 19)") {
    // The writer never writes one, so accepting it would change the table on a round trip.
    Fixture x;
    const Lid b1 = x.r.lids.base(x.f.port_id(x.f.cas()[0], 1));
    CHECK(error_of(fmt::format("# c\n0x0010000000000101 0x0010000000000201 {}\n"
                               "0x0010000000000101 0x0010000000000101 {}\n",
                               x.r.lids.base(x.f.port_id(x.f.cas()[1], 1)), b1),
                   x.f, x.r.lids) ==
          "ps:3: source and destination are the same port 0x0010000000000101: a port does not "
          "send to itself (ibrt route writes no such line)");
    CHECK_THROWS_WITH(read_path_selection("0x10000000000301 0x10000000000301 7\n", "ps"),
                      "ps:1: source and destination are the same port 0x0010000000000301: a port "
                      "does not send to itself (ibrt route writes no such line)");
}

TEST_CASE("path selection: a guid2lid given as the path selection is named as such (issue 12)") {
    Fixture x;
    const std::string hint =
        "the line looks like a guid2lid record (`<port GUID> <min LID> <max LID>`), not a path "
        "selection (`<source port GUID> <destination port GUID> <decimal DLID>`); was the "
        "guid2lid file given as the path selection?";
    CHECK_THROWS_WITH(read_path_selection("0x0010000000000101 0x0002 0x0003\n\n", "g"),
                      "g:1: bad DLID '0x0003': " + hint);
    CHECK_THROWS_WITH(read_path_selection("0x0020000000000100 0x0001 0x0001\n", "g"),
                      "g:1: bad DLID '0x0001': " + hint);
    // Other bad DLIDs keep the plain message.
    CHECK_THROWS_WITH(read_path_selection("0x0010000000000101 0x0010000000000201 0x3\n", "p"),
                      "p:1: bad DLID '0x3' (expected 1..49151)");
}
