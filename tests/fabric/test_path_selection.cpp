// The path-selection file (fabric/path_selection.hpp): write/read/bind round trip and the
// exact file:line errors of the reader and binder.
#include "fabric/generators/fat_tree.hpp"
#include "fabric/generators/lid_preassign.hpp"
#include "fabric/input_error.hpp"
#include "fabric/path_selection.hpp"

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
    CHECK(entries[0].line == 3); // after the two header comments
    CHECK(entries[0].src_guid == 0x0010000000000101ull);
    CHECK(entries[0].dst_guid == 0x0010000000000201ull);
    CHECK(entries[0].dlid == x.r.dlid_choice[1]);
    const auto bound = bind_path_selection(entries, x.f, x.r.lids, "ps");
    const std::size_t n = x.f.cas().size();
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
            if (a != b) CHECK(bound[a * n + b] == x.r.dlid_choice[a * n + b]);
    // The diagonal (not in the file) falls back to the base LID.
    CHECK(bound[0] == x.r.lids.base(x.f.port_id(x.f.cas()[0], 1)));
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
