// Fuzz target for the ibnetdiscover / ibsim topology reader (formats/ibnetdiscover_reader.cpp).
// Bad input must end in ibrt::InputError; anything else (crash, other exception) is a bug.
// `include` lines are defused first: a fuzzer must not make the reader open arbitrary files
// such as /dev/zero.
#include "fabric/input_error.hpp"
#include "formats/ibnetdiscover.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    for (std::size_t p = text.find("include"); p != std::string::npos;
         p = text.find("include", p + 1))
        text[p + 2] = 'K';
    std::istringstream in(text);
    try {
        (void)ibrt::read_ibnetdiscover(in, "fuzz.topo", "/nonexistent");
    } catch (const ibrt::InputError&) {
    }
    return 0;
}
