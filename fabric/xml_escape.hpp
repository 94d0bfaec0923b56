// XML/SVG text escaping, shared by the writers of XML-based output (`ibrt check --junit`,
// the simulator's SVG plots).
#pragma once

#include <string>
#include <string_view>

namespace ibrt {

inline std::string xml_escape(std::string_view s) {
    std::string o;
    o.reserve(s.size());
    for (char ch : s) {
        switch (ch) {
        case '<':
            o += "&lt;";
            break;
        case '>':
            o += "&gt;";
            break;
        case '&':
            o += "&amp;";
            break;
        case '"':
            o += "&quot;";
            break;
        case '\'':
            o += "&apos;";
            break;
        default:
            o += ch;
        }
    }
    return o;
}

} // namespace ibrt
