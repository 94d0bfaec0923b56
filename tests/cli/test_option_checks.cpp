// The shared option checks (cli/option_checks.hpp), through a real CLI11 parse as every
// subcommand uses them: NaN, infinities, negative values of unsigned options, wrap-around and
// out-of-range values are refused with the option's name and the accepted range (issue 19
// "NaN and negative values pass silently", issue 12 "Validate every option").
#include "cli/option_checks.hpp"
#include "fabric/input_error.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using namespace ibrt;
using namespace ibrt::cli;

namespace {

// Parses `--x VALUE` into an option of type T with `check`; "ok" or the CLI11 message.
template <class T>
std::string parse_one(const CLI::Validator& check, const std::string& value, T* out = nullptr) {
    CLI::App app;
    T x{};
    app.add_option("--x", x)->check(check);
    std::vector<std::string> args = {value, "--x"}; // CLI11 parses argv back to front
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        return e.what();
    }
    if (out) *out = x;
    return "ok";
}

} // namespace

TEST_CASE("real_in refuses NaN, infinities and values out of range") {
    for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "-0.5",
                            "1.0000001", "", "0.5x", " 0.5", "abc"})
        CHECK(parse_one<double>(real_in(0, 1), bad) ==
              std::string("--x: must be a number in 0..1, got '") + bad + "'");
    double v = -1;
    for (const char* good : {"0", "1", "0.5", "1e-3", "0x0.8", "-0"}) {
        INFO(good);
        CHECK(parse_one<double>(real_in(0, 1), good, &v) == "ok");
    }
    CHECK(parse_one<double>(real_in(0, 1), "0.25", &v) == "ok");
    CHECK(v == 0.25);
}

TEST_CASE("real_above excludes its lower bound") {
    CHECK(parse_one<double>(real_above(0, 10), "0") ==
          "--x: must be a number above 0 and at most 10, got '0'");
    CHECK(parse_one<double>(real_above(0, 10), "nan") ==
          "--x: must be a number above 0 and at most 10, got 'nan'");
    CHECK(parse_one<double>(real_above(0, 10), "1e-9") == "ok");
    CHECK(parse_one<double>(real_above(0, 10), "10") == "ok");
}

TEST_CASE("whole_in refuses fractions, signs on unsigned options, wrap-around and overflow") {
    const auto seed = whole_in(0, kMax<std::uint64_t>);
    // strtoull wraps "-3" to 2^64 - 3, which CLI11 stores in a std::uint64_t without a word.
    CHECK(parse_one<std::uint64_t>(seed, "-3") ==
          "--x: must be a whole number in 0..2^64-1, got '-3'");
    CHECK(parse_one<std::uint64_t>(seed, "18446744073709551616") ==
          "--x: must be a whole number in 0..2^64-1, got '18446744073709551616'");
    std::uint64_t s = 0;
    CHECK(parse_one<std::uint64_t>(seed, "18446744073709551615", &s) == "ok");
    CHECK(s == std::numeric_limits<std::uint64_t>::max());
    CHECK(parse_one<std::uint64_t>(seed, "0x10", &s) == "ok");
    CHECK(s == 16);
    CHECK(parse_one<std::uint64_t>(seed, "-0") == "ok");

    const auto steps = whole_in(1, 30);
    for (const char* bad : {"0", "31", "1.5", "nan", "inf", "-1", "", "+", "--1", " 3", "3 "})
        CHECK(parse_one<int>(steps, bad) ==
              std::string("--x: must be a whole number in 1..30, got '") + bad + "'");
    int n = 0;
    CHECK(parse_one<int>(steps, "30", &n) == "ok");
    CHECK(n == 30);
    CHECK(parse_one<int>(steps, "+7", &n) == "ok");
    CHECK(n == 7);

    const auto signed_range = whole_in(-5, 5);
    CHECK(parse_one<int>(signed_range, "-5") == "ok");
    CHECK(parse_one<int>(signed_range, "-6") == "--x: must be a whole number in -5..5, got '-6'");
    CHECK(parse_one<std::int64_t>(whole_in(std::numeric_limits<std::int64_t>::min(), 0),
                                  "-9223372036854775808") == "ok");
}

TEST_CASE("whole_in_or accepts its word, reals_in and wholes_in check each list item") {
    CHECK(parse_one<std::string>(whole_in_or(0, 7, "auto"), "auto") == "ok");
    CHECK(parse_one<std::string>(whole_in_or(0, 7, "auto"), "7") == "ok");
    CHECK(parse_one<std::string>(whole_in_or(0, 7, "auto"), "nan") ==
          "--x: must be a whole number in 0..7 or 'auto', got 'nan'");
    CHECK(parse_one<std::string>(reals_in(0, 1), "0.1,0.5,1") == "ok");
    CHECK(parse_one<std::string>(reals_in(0, 1), "5") ==
          "--x: must be comma-separated numbers in 0..1, got '5'");
    CHECK(parse_one<std::string>(reals_in(0, 1), "0.1,nan,0.3") ==
          "--x: must be comma-separated numbers in 0..1, got 'nan' in '0.1,nan,0.3'");
    CHECK(parse_one<std::string>(reals_in(0, 1), "0.1,") ==
          "--x: must be comma-separated numbers in 0..1, got '' in '0.1,'");
    CHECK(parse_one<std::string>(wholes_in(1, 15), "1,2,4") == "ok");
    CHECK(parse_one<std::string>(wholes_in(1, 15), "1,2.5") ==
          "--x: must be comma-separated whole numbers in 1..15, got '2.5' in '1,2.5'");
}

TEST_CASE("parse_reals and parse_wholes return the values and refuse the same way") {
    CHECK(parse_reals("--load", "0.2,0.5,1", 0, 1) == std::vector<double>{0.2, 0.5, 1});
    CHECK_THROWS_WITH(parse_reals("--load", "0.2,inf", 0, 1),
                      "--load: must be a number in 0..1, got 'inf'");
    CHECK(parse_wholes("--vls", "1,2,15", 1, 15) == std::vector<std::int64_t>{1, 2, 15});
    CHECK(parse_wholes("--x", "-4,3", -5, 5) == std::vector<std::int64_t>{-4, 3});
    CHECK_THROWS_AS(parse_wholes("--vls", "0", 1, 15), InputError);
}

TEST_CASE("plot_file takes .svg and .png in a writable directory") {
    const std::string tmp = std::filesystem::temp_directory_path().string();
    CHECK(parse_one<std::string>(plot_file(), tmp + "/p.svg") == "ok");
    CHECK(parse_one<std::string>(plot_file(), tmp + "/p.PNG") == "ok");
    CHECK(parse_one<std::string>(plot_file(), "p.pdf") ==
          "--x: 'p.pdf': a plot is an .svg or a .png file");
    CHECK(parse_one<std::string>(plot_file(), "-") == "--x: '-': a plot is an .svg or a .png file");
    CHECK(parse_one<std::string>(plot_file(), "/no/such/dir/p.png") ==
          "--x: cannot create '/no/such/dir/p.png': directory '/no/such/dir' does not exist");
}

TEST_CASE("output_file refuses a missing directory and a directory as the file") {
    CHECK(parse_one<std::string>(output_file(), "-") == "ok");
    CHECK(parse_one<std::string>(output_file(), "/no/such/dir/p.svg") ==
          "--x: cannot create '/no/such/dir/p.svg': directory '/no/such/dir' does not exist");
    const std::string tmp = std::filesystem::temp_directory_path().string();
    CHECK(parse_one<std::string>(output_file(), tmp) == "--x: '" + tmp + "' is a directory");
    CHECK(parse_one<std::string>(output_file(), tmp + "/ibrt-option-checks-test.svg") == "ok");
    CHECK_FALSE(std::filesystem::exists(tmp + "/ibrt-option-checks-test.svg")); // not created
    const std::string file = tmp + "/ibrt-option-checks-file";
    std::ofstream(file) << "x";
    CHECK(parse_one<std::string>(output_file(), file + "/x") ==
          "--x: cannot create '" + file + "/x': '" + file + "' is not a directory");
    std::filesystem::remove(file);
}
