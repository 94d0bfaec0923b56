// Small text helpers shared by the readers (LFT dumps, guid2lid, SL2VL dumps, ibnetdiscover,
// path selection): numbered lines as string_views, from a buffer or streamed from an input a
// chunk at a time (the tables of a large fabric are many GB of text),
// blanks and words, and number parsing with the C library's conventions (strtoul base 0) but
// with overflow and trailing-junk checks that the C library leaves to the caller; and, for the
// writers, the fixed-width numbers of their per-entry lines without a format string to parse
// per number (opensm-lfts.dump has a line per switch and LID: 38 M at 16,384 hosts). The one
// copy of these: internal to fabric/, not part of the public model.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::table_text {

// Iterates the lines of a buffer, or of an InputChunks read a chunk at a time (only the
// current chunk and the line that straddles it are in memory); `line_no` is 1-based. The
// newline is not part of the line; a line is valid until the next call.
class Lines {
  public:
    explicit Lines(std::string_view text) : rest_(text) {}
    explicit Lines(InputChunks& in) : in_(&in) {}
    Lines(const Lines&) = delete; // rest_ may point into buf_
    Lines& operator=(const Lines&) = delete;

    bool next(std::string_view& line) {
        std::size_t nl = rest_.find('\n');
        if (nl == std::string_view::npos && in_) nl = refill();
        if (rest_.empty()) return false;
        line = rest_.substr(0, nl);
        rest_ = nl == std::string_view::npos ? std::string_view{} : rest_.substr(nl + 1);
        ++line_no_;
        return true;
    }
    int line_no() const { return line_no_; }

  private:
    // Keeps the unread tail and reads on until it holds a newline or the input ends; the
    // position of that newline in the new rest_, or npos.
    std::size_t refill() {
        buf_.erase(0, buf_.size() - rest_.size());
        std::size_t scanned = buf_.size(), nl = std::string::npos;
        while (nl == std::string::npos && in_->read_more(buf_)) {
            nl = buf_.find('\n', scanned);
            scanned = buf_.size();
        }
        rest_ = buf_;
        return nl;
    }

    std::string_view rest_;
    InputChunks* in_ = nullptr;
    std::string buf_;
    int line_no_ = 0;
};

inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline std::string_view trim_left(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    return s;
}

inline std::string_view trim(std::string_view s) {
    s = trim_left(s);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Splits off the next whitespace-separated word of `s` (leading blanks skipped).
inline std::string_view next_word(std::string_view& s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    std::size_t n = 0;
    while (n < s.size() && !is_space(s[n])) ++n;
    std::string_view w = s.substr(0, n);
    s.remove_prefix(n);
    return w;
}

// The value of a hex digit (either case), 99 for anything else.
inline int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}

// Parses all of `s` as an unsigned number in `base` (2..16); nullopt on an empty string, a
// stray character or a value above `max`.
inline std::optional<std::uint64_t> parse_uint(std::string_view s, int base, std::uint64_t max) {
    if (s.empty()) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        const int d = digit_value(c);
        if (d >= base || std::uint64_t(d) > max) return std::nullopt;
        if (v > (max - std::uint64_t(d)) / std::uint64_t(base)) return std::nullopt;
        v = v * std::uint64_t(base) + std::uint64_t(d);
    }
    return v;
}

// `0x` hex, else decimal.
inline std::optional<std::uint64_t> parse_hex_or_dec(std::string_view s, std::uint64_t max) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_uint(s.substr(2), 16, max);
    return parse_uint(s, 10, max);
}

// strtoul(s, 0) semantics, whole word: `0x` hex, a leading `0` octal, else decimal.
inline std::optional<std::uint64_t> parse_c_uint(std::string_view s, std::uint64_t max) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_uint(s.substr(2), 16, max);
    if (s.size() > 1 && s[0] == '0') return parse_uint(s.substr(1), 8, max);
    return parse_uint(s, 10, max);
}

// Quotes a fragment of an input line for an error message, shortened so that a binary blob
// does not flood the terminal (InputError escapes what is not printable).
inline std::string quote(std::string_view s) {
    constexpr std::size_t kMax = 60;
    std::string out = "'";
    out += s.substr(0, kMax);
    if (s.size() > kMax) out += "...";
    return out + "'";
}

// Node type as opensm's dumps print it (ib_get_node_type_str).
inline std::string_view opensm_type_name(NodeType t) {
    switch (t) {
    case NodeType::CA:
        return "Channel Adapter";
    case NodeType::Switch:
        return "Switch";
    case NodeType::Router:
        return "Router";
    }
    return "UNKNOWN";
}

// The order in which opensm's dumps list nodes: its GUID-keyed maps (cl_qmap) hold GUIDs in
// network byte order and compare them as host integers, so on the x86 machines opensm runs on
// they ascend by the byte-swapped GUID.
inline std::vector<NodeId> opensm_guid_order(const Fabric& f, std::vector<NodeId> nodes) {
    std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
        return __builtin_bswap64(f.node(a).guid) < __builtin_bswap64(f.node(b).guid);
    });
    return nodes;
}

// Appends v as exactly `digits` hex digits (upper case if `upper`), as {:0Nx} / {:0NX} for a
// v that fits.
inline void put_hex(fmt::memory_buffer& b, unsigned v, int digits, bool upper = false) {
    const char* d = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char t[8];
    for (int i = digits - 1; i >= 0; --i, v >>= 4) t[i] = d[v & 15];
    b.append(t, t + digits);
}

// Appends v in decimal, zero-padded (`zero`) or left-aligned and space-padded to `width`, as
// {:0Nd} / {:<N}.
inline void put_dec(fmt::memory_buffer& b, unsigned v, int width, bool zero) {
    char t[12];
    int n = 0;
    do t[11 - n++] = char('0' + v % 10);
    while ((v /= 10) != 0);
    if (zero)
        for (; n < width; ++n) t[11 - n] = '0';
    b.append(t + 12 - n, t + 12);
    if (!zero)
        for (; n < width; ++n) b.push_back(' ');
}

} // namespace ibrt::table_text
