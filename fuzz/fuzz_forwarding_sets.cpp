// Fuzz target for the forwarding-sets file (formats/forwarding_sets_file.hpp): any input must
// parse or throw ibrt::InputError. What parses against the ft-lmc1 sample fabric is written,
// read again and written again: every (switch, key, DLID) candidate set, the VL2VL tables and
// the tree coordinates must survive, and the second write must equal the first.
#include "fabric/input_error.hpp"
#include "formats/forwarding_sets_file.hpp"
#include "tests/formats/tables_fixture.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    static const Fabric f = test::sample_fabric(false);
    constexpr Lid kMaxLid = 13; // test-fabrics/tables/ft-lmc1.guid2lid
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const RoutingFunction rf = read_forwarding_sets_text(text, "fuzz", f, kMaxLid);
        std::ostringstream once, twice;
        write_forwarding_sets(once, f, rf);
        const RoutingFunction back = read_forwarding_sets_text(once.str(), "w", f, kMaxLid);
        for (NodeId s : f.switches())
            for (unsigned vl = 0; vl < rf.vl_keys(); ++vl)
                for (PortNum in = 0; in <= (rf.by_in_port() ? f.node(s).num_ports : 0); ++in)
                    for (Lid d = 1; d <= kMaxLid; ++d) {
                        const std::uint32_t a = rf.lookup(s, vl, in, d),
                                            b = back.lookup(s, vl, in, d);
                        if ((a == RoutingFunction::kNoSet) != (b == RoutingFunction::kNoSet))
                            std::abort();
                        if (a != RoutingFunction::kNoSet) {
                            const auto x = rf.set(a), y = back.set(b);
                            if (!std::equal(x.begin(), x.end(), y.begin(), y.end())) std::abort();
                        }
                    }
        write_forwarding_sets(twice, f, back);
        if (twice.str() != once.str()) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
