// Option value checks; see option_checks.hpp.
#include "cli/option_checks.hpp"

#include "fabric/input_error.hpp"
#include "plot/plot.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace ibrt::cli {
namespace {

// The text as strtold reads it (what CLI11 stores into a double), or nullopt when it is not
// a number at all. NaN and infinities come back as such.
std::optional<long double> parse_real(const std::string& s) {
    if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
    char* end = nullptr;
    const long double v = std::strtold(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    return v;
}

struct Whole {
    bool negative = false;
    std::uint64_t magnitude = 0;
    bool overflow = false;
};

// An optional sign and digits as strtoull(.., 0) reads them (0x hex, leading-0 octal).
std::optional<Whole> parse_whole(const std::string& s) {
    std::size_t i = 0;
    Whole w;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        w.negative = s[0] == '-';
        i = 1;
    }
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long m = std::strtoull(s.c_str() + i, &end, 0);
    if (end != s.c_str() + s.size()) return std::nullopt;
    w.overflow = errno == ERANGE;
    w.magnitude = m;
    if (m == 0) w.negative = false;
    return w;
}

bool whole_within(const Whole& w, std::int64_t lo, std::uint64_t hi) {
    if (w.overflow) return false;
    if (w.negative) {
        if (lo >= 0) return false;
        // -magnitude >= lo  <=>  magnitude <= -lo (computed without overflow)
        return w.magnitude <= std::uint64_t(-(lo + 1)) + 1;
    }
    return w.magnitude <= hi && (lo <= 0 || w.magnitude >= std::uint64_t(lo));
}

std::string bound_text(std::uint64_t v) {
    if (v == std::numeric_limits<std::uint64_t>::max()) return "2^64-1";
    if (v == std::numeric_limits<std::uint32_t>::max()) return "2^32-1";
    if (v == std::uint64_t(std::numeric_limits<std::int32_t>::max())) return "2^31-1";
    return std::to_string(v);
}

std::string whole_range(std::int64_t lo, std::uint64_t hi) {
    return fmt::format("{}..{}", lo, bound_text(hi));
}

// Empty when `s` is a finite number in the range, else the problem.
std::string check_real(const std::string& s, double lo, double hi, bool lo_open) {
    const auto v = parse_real(s);
    const bool ok = v && std::isfinite(*v) && (lo_open ? *v > lo : *v >= lo) && *v <= hi;
    if (ok) return {};
    return lo_open ? fmt::format("must be a number above {} and at most {}, got '{}'", lo, hi, s)
                   : fmt::format("must be a number in {}..{}, got '{}'", lo, hi, s);
}

std::string check_whole(const std::string& s, std::int64_t lo, std::uint64_t hi) {
    const auto w = parse_whole(s);
    if (w && whole_within(*w, lo, hi)) return {};
    return fmt::format("must be a whole number in {}, got '{}'", whole_range(lo, hi), s);
}

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t comma = s.find(',', pos);
        out.push_back(s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
        if (comma == std::string::npos) return out;
        pos = comma + 1;
    }
}

// Empty when every item of the list passes `one`, else the problem with the list.
template <class Check>
std::string check_list(const std::string& s, const Check& one, const std::string& range) {
    for (const std::string& item : split_list(s))
        if (!one(item).empty())
            return fmt::format("must be comma-separated {}, got '{}'{}", range, item,
                               item == s ? std::string() : fmt::format(" in '{}'", s));
    return {};
}

} // namespace

CLI::Validator real_in(double lo, double hi) {
    return CLI::Validator([lo, hi](std::string& s) { return check_real(s, lo, hi, false); },
                          fmt::format("{}..{}", lo, hi));
}

CLI::Validator real_above(double lo, double hi) {
    return CLI::Validator([lo, hi](std::string& s) { return check_real(s, lo, hi, true); },
                          fmt::format("above {}, at most {}", lo, hi));
}

CLI::Validator whole_in(std::int64_t lo, std::uint64_t hi) {
    return CLI::Validator([lo, hi](std::string& s) { return check_whole(s, lo, hi); },
                          whole_range(lo, hi));
}

CLI::Validator whole_in_or(std::int64_t lo, std::uint64_t hi, std::string word) {
    const std::string desc = whole_range(lo, hi) + " or " + word;
    return CLI::Validator(
        [lo, hi, word](std::string& s) -> std::string {
            if (s == word || check_whole(s, lo, hi).empty()) return {};
            return fmt::format("must be a whole number in {} or '{}', got '{}'",
                               whole_range(lo, hi), word, s);
        },
        desc);
}

CLI::Validator reals_in(double lo, double hi) {
    const std::string range = fmt::format("numbers in {}..{}", lo, hi);
    return CLI::Validator(
        [lo, hi, range](std::string& s) {
            return check_list(
                s, [&](const std::string& x) { return check_real(x, lo, hi, false); }, range);
        },
        fmt::format("list in {}..{}", lo, hi));
}

CLI::Validator wholes_in(std::int64_t lo, std::uint64_t hi) {
    const std::string range = "whole numbers in " + whole_range(lo, hi);
    return CLI::Validator(
        [lo, hi, range](std::string& s) {
            return check_list(
                s, [&](const std::string& x) { return check_whole(x, lo, hi); }, range);
        },
        "list in " + whole_range(lo, hi));
}

CLI::Validator input_file() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            if (path == "-") return {};
            return CLI::ExistingFile(path);
        },
        "FILE (- = stdin)", "input_file");
}

CLI::Validator output_file() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            if (path == "-") return {};
            if (path.empty()) return "needs a file name";
            struct stat st {};
            if (::stat(path.c_str(), &st) == 0) {
                if (S_ISDIR(st.st_mode)) return fmt::format("'{}' is a directory", path);
                if (::access(path.c_str(), W_OK) != 0)
                    return fmt::format("cannot write '{}': {}", path, std::strerror(errno));
                return {};
            }
            std::filesystem::path dir = std::filesystem::path(path).parent_path();
            if (dir.empty()) dir = ".";
            if (::stat(dir.c_str(), &st) != 0)
                return fmt::format("cannot create '{}': directory '{}' does not exist", path,
                                   dir.string());
            if (!S_ISDIR(st.st_mode))
                return fmt::format("cannot create '{}': '{}' is not a directory", path,
                                   dir.string());
            if (::access(dir.c_str(), W_OK | X_OK) != 0)
                return fmt::format("cannot create '{}' in '{}': {}", path, dir.string(),
                                   std::strerror(errno));
            return {};
        },
        "writable file");
}

CLI::Validator plot_file() {
    return CLI::Validator(
        [](std::string& path) -> std::string {
            if (plot::plot_format(path).empty())
                return fmt::format("'{}': a plot is an .svg or a .png file", path);
            return output_file()(path);
        },
        "SVG or PNG file");
}

std::vector<double> parse_reals(const std::string& option, const std::string& text, double lo,
                                double hi) {
    std::vector<double> out;
    for (const std::string& item : split_list(text)) {
        const std::string problem = check_real(item, lo, hi, false);
        if (!problem.empty()) throw InputError(option, 0, problem);
        out.push_back(double(*parse_real(item)));
    }
    return out;
}

std::vector<std::int64_t> parse_wholes(const std::string& option, const std::string& text,
                                       std::int64_t lo, std::uint64_t hi) {
    std::vector<std::int64_t> out;
    for (const std::string& item : split_list(text)) {
        const std::string problem = check_whole(item, lo, hi);
        if (!problem.empty()) throw InputError(option, 0, problem);
        const Whole w = *parse_whole(item);
        out.push_back(w.negative ? -std::int64_t(w.magnitude - 1) - 1 : std::int64_t(w.magnitude));
    }
    return out;
}

} // namespace ibrt::cli
