// Fuzz target for opensm.fdbs (read by formats/lft_dump_reader.cpp, written by
// formats/fdbs_writer.cpp): any input must parse or throw ibrt::InputError. Tables that parse
// and bind to the ft-rt sample fabric are written as opensm.fdbs, read and bound again: the
// LFTs must be the input's on every assigned LID, and a second write must equal the first.
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
        Routing r;
        r.lids = lids;
        r.lft = bind_lft_dump(read_lft_dump_text(text, "fuzz"), f, "fuzz");
        std::ostringstream once, twice;
        write_opensm_fdbs(once, f, r);
        Routing back = r;
        back.lft = bind_lft_dump(read_lft_dump_text(once.str(), "w"), f, "w");
        for (NodeId sw : f.switches())
            for (Lid lid = 1; lid <= lids.max_lid(); ++lid)
                if (back.out_port(sw, lid) != r.out_port(sw, lid)) std::abort();
        write_opensm_fdbs(twice, f, back);
        if (twice.str() != once.str()) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
