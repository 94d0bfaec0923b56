// Text from an input file made safe to print in a message. A binary file given by mistake
// (`ibrt info /bin/ls`, a core dump as --lfts) must not put raw bytes on the user's terminal
// or into a log: control characters can move the cursor or retitle the terminal, and bytes
// that are not UTF-8 garble the line. Control characters, DEL, C1 controls and bytes that are
// not valid UTF-8 become `\xNN`; valid UTF-8 (node descriptions in any script), tab and
// newline pass through. InputError applies it to every message, so each reader is covered.
#pragma once

#include <string>
#include <string_view>

namespace ibrt {

// Length of the valid UTF-8 sequence of a printable character starting at s[i], or 0 when
// s[i] starts no such sequence (a C1 control U+0080..U+009F counts as not printable).
inline std::size_t printable_utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        if (c == 0xC2) lo = 0xA0; // U+0080..U+009F are C1 controls
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0; // overlong
        if (c == 0xED) hi = 0x9F; // UTF-16 surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90; // overlong
        if (c == 0xF4) hi = 0x8F; // above U+10FFFF
    } else {
        return 0;
    }
    if (i + n > s.size() || b(1) < lo || b(1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(k) < 0x80 || b(k) > 0xBF) return 0;
    return n;
}

inline std::string printable(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n') {
            out += char(c);
            ++i;
        } else if (const std::size_t n = c >= 0x80 ? printable_utf8_length(s, i) : 0) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
            ++i;
        }
    }
    return out;
}

} // namespace ibrt
