// Checks for the values of command-line options, shared by every subcommand (gen, route,
// check, lids, diff, sim, sweep), so that a bad value is refused the same way everywhere:
// while the command line is parsed, before any file is read or any work is done, with exit 2
// and a message that names the option and what it accepts. CLI11's own conversions let
// through what ibrt must not take: `nan` and `inf` for a floating-point option (and
// CLI::Range and CLI::PositiveNumber pass NaN, as every comparison with it is false), and a
// negative number for a 64-bit unsigned one (strtoull wraps `-3` to 2^64 - 3). These checks
// parse the text themselves, as CLI11 will (strtoull/strtold, base prefixes allowed), and
// name the range in `--help`.
//
// Use: `sub.add_option("--hot-fraction", x, "...")->check(real_in(0, 1));`
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ibrt::cli {

// A finite number with lo <= value <= hi.
CLI::Validator real_in(double lo, double hi);
// A finite number with lo < value <= hi (a duration or size that must be positive).
CLI::Validator real_above(double lo, double hi);
// A whole number with lo <= value <= hi, without wrap-around or overflow.
CLI::Validator whole_in(std::int64_t lo, std::uint64_t hi);
// A whole number in lo..hi, or the word `word` (e.g. `--lmc auto`).
CLI::Validator whole_in_or(std::int64_t lo, std::uint64_t hi, std::string word);
// A comma-separated list of finite numbers, each in lo..hi (e.g. `--load 0.1,0.5`).
CLI::Validator reals_in(double lo, double hi);
// A comma-separated list of whole numbers, each in lo..hi (e.g. `ibrt sweep --vls 1,2,4`).
CLI::Validator wholes_in(std::int64_t lo, std::uint64_t hi);
// A file that can be written: its directory exists and is writable, and the file, if it
// exists, is a writable regular file. `-` (stdout) passes.
CLI::Validator output_file();
// A plot to write (plot/plot.hpp): a name ending in .svg or .png, and output_file's checks.
CLI::Validator plot_file();
// An existing file, or "-" for standard input (formats/input_file.hpp).
CLI::Validator input_file();

// The list that reals_in / wholes_in accepted, as numbers. Throws InputError(option, 0, ...)
// on a value out of range (for lists that did not pass through the validator).
std::vector<double> parse_reals(const std::string& option, const std::string& text, double lo,
                                double hi);
std::vector<std::int64_t> parse_wholes(const std::string& option, const std::string& text,
                                       std::int64_t lo, std::uint64_t hi);

// The largest value of an unsigned option type, for whole_in(0, kMax<T>).
template <class T> inline constexpr std::uint64_t kMax = std::numeric_limits<T>::max();

// Bounds of the simulator's model options, shared by `ibrt sim` and `ibrt sweep`: far beyond
// any meaningful run, within what the model's integer picosecond time and 32-bit byte and
// credit counters hold (docs/sim-model.md).
inline constexpr double kMaxSimNs = 1e9;        // link and switch delays: 1 s
inline constexpr double kMaxSimUs = 1e9;        // warm-up, window, drain: 1,000 s
inline constexpr double kMaxSimNsPerByte = 4e6; // ps per byte must fit 32 bits
inline constexpr std::uint64_t kMaxSimSize =
    1ull << 30; // bytes of buffers and messages, packets of a queue

} // namespace ibrt::cli
