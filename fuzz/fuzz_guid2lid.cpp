// Fuzz target for the guid2lid reader (formats/guid2lid.hpp): any input must parse or throw
// ibrt::InputError. What parses and binds to the ft-rt sample fabric must come back with the
// same LIDs through write_guid2lid -> read -> bind; a difference aborts.
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "tests/formats/tables_fixture.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    static const Fabric f = test::sample_fabric(true);
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const Lids lids = bind_guid2lid(read_guid2lid_text(text, "fuzz"), f, "fuzz");
        std::ostringstream out;
        write_guid2lid(out, f, lids);
        const Lids back = bind_guid2lid(read_guid2lid_text(out.str(), "w"), f, "w");
        for (PortId p = 0; p < f.num_port_slots(); ++p)
            if (back.base(p) != lids.base(p) || back.lmc(p) != lids.lmc(p)) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
