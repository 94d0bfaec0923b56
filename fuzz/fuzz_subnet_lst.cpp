// Fuzz target for the opensm-subnet.lst reader (formats/subnet_lst_reader.cpp). Bad input must
// end in ibrt::InputError; anything else (crash, other exception) is a bug.
#include "fabric/input_error.hpp"
#include "formats/subnet_lst_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        (void)ibrt::read_subnet_lst(in, "fuzz.lst");
    } catch (const ibrt::InputError&) {
    }
    return 0;
}
