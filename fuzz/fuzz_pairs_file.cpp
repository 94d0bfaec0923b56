// Fuzz target for the pairs file of `--pattern pairs --pairs-file F` (sim::read_pairs, what
// `ibrt sim` and sweeps read from F): any input must parse or throw ibrt::InputError naming
// the file and a line of it. What parses must be at most one pair per line, each index at
// most 2^31, and read back the same from its canonical form ("S D" per line); else abort.
#include "fabric/input_error.hpp"
#include "sim/traffic.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto lines = 1 + std::count(text.begin(), text.end(), '\n');
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    try {
        pairs = sim::read_pairs(text, "fuzz");
    } catch (const InputError& e) {
        if (e.file() != "fuzz" || e.line() < 1 || e.line() > lines) std::abort();
        return 0;
    }
    if (std::int64_t(pairs.size()) > lines) std::abort();
    std::string canonical;
    for (const auto& [s, d] : pairs) {
        if (s > (1u << 31) || d > (1u << 31)) std::abort();
        canonical += std::to_string(s) + " " + std::to_string(d) + "\n";
    }
    try {
        if (sim::read_pairs(canonical, "w") != pairs) std::abort();
    } catch (const InputError&) {
        std::abort(); // the canonical form must read back
    }
    return 0;
}
