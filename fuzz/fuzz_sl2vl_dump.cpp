// Fuzz target for the SL2VL dump reader (formats/sl2vl_dump.hpp): any input must parse or
// throw ibrt::InputError. What parses and binds to the ft-rt sample fabric is written, read
// and bound again; the second write must equal the first (the writer's output is a fixed
// point), else abort.
#include "fabric/input_error.hpp"
#include "formats/sl2vl_dump.hpp"
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
        Routing r;
        r.sl2vl = bind_sl2vl_dump(read_sl2vl_dump_text(text, "fuzz"), f, "fuzz");
        std::ostringstream once, twice;
        write_sl2vl_dump(once, f, r);
        r.sl2vl = bind_sl2vl_dump(read_sl2vl_dump_text(once.str(), "w"), f, "w");
        write_sl2vl_dump(twice, f, r);
        if (twice.str() != once.str()) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
