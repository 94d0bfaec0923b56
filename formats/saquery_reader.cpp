// `saquery -p` output parsing; see saquery_reader.hpp. The dump prints one `field....value`
// line per PathRecord component (infiniband-diags saquery.c dump_path_record).
#include "formats/saquery_reader.hpp"

#include "fabric/input_error.hpp"

#include <charconv>
#include <optional>

namespace ibrt {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<unsigned> number(std::string_view v) {
    int base = 10;
    if (v.starts_with("0x") || v.starts_with("0X")) {
        v.remove_prefix(2);
        base = 16;
    }
    unsigned x = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x, base);
    if (ec != std::errc() || p != v.data() + v.size() || v.empty()) return std::nullopt;
    return x;
}

} // namespace

std::vector<SaPathRecord> read_saquery_path_records(std::string_view text,
                                                    const std::string& source) {
    std::vector<SaPathRecord> out;
    struct Open {
        SaPathRecord rec;
        std::optional<unsigned> slid, dlid, sl;
    };
    std::optional<Open> cur;
    auto close = [&] {
        if (!cur) return;
        if (!cur->slid || !cur->dlid || !cur->sl)
            throw InputError(source, cur->rec.line, "PathRecord without slid, dlid and sl");
        if (*cur->slid != 0 && *cur->dlid != 0) {
            cur->rec.slid = static_cast<Lid>(*cur->slid);
            cur->rec.dlid = static_cast<Lid>(*cur->dlid);
            cur->rec.sl = static_cast<std::uint8_t>(*cur->sl);
            out.push_back(cur->rec);
        }
        cur.reset();
    };
    int line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        const std::string_view line =
            trim(text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos));
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++line_no;
        if (line == "PathRecord dump:") {
            close();
            cur.emplace();
            cur->rec.line = line_no;
            continue;
        }
        if (!cur) continue; // saquery's own chatter (ibwarn lines and the like)
        const std::size_t dots = line.find("..");
        if (dots == std::string_view::npos) continue;
        const std::string_view key = line.substr(0, dots);
        const std::size_t at = line.find_first_not_of('.', dots);
        const std::string_view value = at == std::string_view::npos ? "" : trim(line.substr(at));
        std::optional<unsigned>* field = key == "slid"   ? &cur->slid
                                         : key == "dlid" ? &cur->dlid
                                         : key == "sl"   ? &cur->sl
                                                         : nullptr;
        if (!field) continue;
        const auto v = number(value);
        const unsigned limit = key == "sl" ? 15 : 0xffff;
        if (!v || *v > limit)
            throw InputError(source, line_no,
                             "bad " + std::string(key) + " value '" + std::string(value) + "'");
        *field = v;
    }
    close();
    return out;
}

} // namespace ibrt
