// Fuzz target for the path-SL file (formats/path_sl_file.hpp, ibdmchk -c format): any input
// must parse or throw ibrt::InputError. What parses and binds to the ft-lmc1 sample fabric is
// written, read and bound again: the SL of every (ingress switch, DLID) must survive, and a
// second write must equal the first.
#include "fabric/input_error.hpp"
#include "formats/path_sl_file.hpp"
#include "tests/formats/tables_fixture.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    static const Fabric f = test::sample_fabric(false);
    static const Lids lids = [] { // test-fabrics/tables/ft-lmc1.guid2lid
        Lids l(f);
        const struct {
            std::uint64_t guid;
            Lid base;
            std::uint8_t lmc;
        } g2l[] = {{0x0010000000000101, 2, 1}, {0x0010000000000401, 12, 1},
                   {0x0020000000020000, 5, 0}, {0x0020000000020001, 7, 0},
                   {0x0010000000000201, 8, 1}, {0x0020000000010000, 4, 0},
                   {0x0020000000010001, 6, 0}, {0x0010000000000301, 10, 1}};
        for (const auto& e : g2l) {
            const auto n = f.find_node_by_guid(e.guid);
            l.assign(n ? f.port_id(*n, 0) : *f.find_port_by_guid(e.guid), e.base, e.lmc);
        }
        return l;
    }();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        Routing r;
        r.lids = lids;
        r.path_sls = bind_path_sl(read_path_sl_text(text, "fuzz"), f, lids, "fuzz");
        std::ostringstream once, twice;
        write_path_sl(once, f, r);
        Routing back = r;
        back.path_sls = bind_path_sl(read_path_sl_text(once.str(), "w"), f, lids, "w");
        for (NodeId s : f.switches())
            for (Lid d = 1; d <= lids.max_lid(); ++d)
                if (lids.owner(d) != kNoPort && back.path_sl(s, d) != r.path_sl(s, d)) std::abort();
        write_path_sl(twice, f, back);
        if (twice.str() != once.str()) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
