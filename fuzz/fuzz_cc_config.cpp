// Fuzz target for the reader of opensm.conf's congestion-control options (sim/cc_config.hpp):
// any input must parse or throw ibrt::InputError. What parses must read back the same from
// its canonical form (write_cc_config, opensm's own format) without an error, else abort.
#include "fabric/input_error.hpp"
#include "sim/cc_config.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    sim::CcConfig c;
    try {
        std::vector<std::string> warnings;
        c = sim::read_cc_config_text(text, "fuzz", &warnings);
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort();
        return 0;
    }
    try {
        if (sim::read_cc_config_text(sim::write_cc_config(c), "w") != c) std::abort();
    } catch (const InputError&) {
        std::abort(); // the writer's own output must read back
    }
    (void)sim::cc_config_notes(c);
    return 0;
}
