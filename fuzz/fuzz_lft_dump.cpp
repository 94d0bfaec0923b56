// Fuzz target for the LFT dump reader (formats/lft_dump.hpp): any input must parse or throw
// ibrt::InputError. What parses and binds to the ft-rt sample fabric must come back unchanged
// through write_lft_dump -> read -> bind; a difference aborts.
#include "fabric/input_error.hpp"
#include "formats/lft_dump.hpp"
#include "tests/formats/tables_fixture.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    static const Fabric f = test::sample_fabric(true);
    static const Lids lids = [] {
        Lids l(f);
        Lid next = 1;
        for (NodeId n = 0; n < f.num_nodes(); ++n)
            l.assign(f.port_id(n, f.node(n).is_switch() ? 0 : 1), next++, 0);
        return l;
    }();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const LftDump d = read_lft_dump_text(text, "fuzz");
        Routing r;
        r.lids = lids;
        r.lft = bind_lft_dump(d, f, "fuzz");
        for (NodeId sw : f.switches()) r.lft[sw].resize(std::size_t(lids.max_lid()) + 1, kNoPath);
        std::ostringstream out;
        write_lft_dump(out, f, r);
        if (bind_lft_dump(read_lft_dump_text(out.str(), "w"), f, "w") != r.lft) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
