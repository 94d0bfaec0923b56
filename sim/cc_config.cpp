// Reader and writer of opensm.conf's congestion-control options (format in cc_config.hpp).
// The syntax and defaults follow opensm 3.3.23 (osm_subnet.c: osm_subn_parse_conf_file,
// clean_val, opts_strtoul, opts_parse_256bit, opts_parse_cc_cct, parse_ca_cong_common); the
// code is our own.
#include "sim/cc_config.hpp"

#include "fabric/input_error.hpp"
#include "formats/input_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace ibrt::sim {
namespace {

constexpr std::size_t kOpensmLineChars = 1021; // fgets(line, 1023): the rest is a new line

bool space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::string quoted(std::string_view s) {
    constexpr std::size_t kMax = 60;
    return "'" + std::string(s.substr(0, kMax)) + (s.size() > kMax ? "...'" : "'");
}

class Parser {
  public:
    Parser(const std::string& source, std::vector<std::string>* warnings, CcConfig start)
        : source_(source), warnings_(warnings), c_(std::move(start)) {}

    CcConfig run(std::string_view text) {
        while (!text.empty()) {
            ++line_;
            const std::size_t nl = text.find('\n');
            std::string_view raw = text.substr(0, nl);
            text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
            if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
            line(raw);
        }
        return c_;
    }

  private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(source_, line_, problem);
    }
    void warn(const std::string& text) const {
        if (warnings_) warnings_->push_back(fmt::format("{}:{}: {}", source_, line_, text));
    }

    void line(std::string_view raw) {
        std::string_view s = raw;
        if (const std::size_t hash = s.find('#'); hash != std::string_view::npos)
            s = s.substr(0, hash);
        // The key: the first token separated by blanks (opensm: strtok_r " \t\n").
        std::size_t b = s.find_first_not_of(" \t");
        if (b == std::string_view::npos) return;
        s.remove_prefix(b);
        const std::size_t e = s.find_first_of(" \t");
        key_ = s.substr(0, e);
        std::string_view v = e == std::string_view::npos ? std::string_view() : trim(s.substr(e));
        if (v.size() >= 2 &&
            ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\'')))
            v = v.substr(1, v.size() - 2);
        if (key_ != "congestion_control" && !key_.starts_with("cc_")) return; // not ours
        if (raw.size() > kOpensmLineChars)
            fail(fmt::format("{}: the line is {} characters long; opensm reads {} and takes the "
                             "rest as a line of its own",
                             key_, raw.size(), kOpensmLineChars));
        option(v);
    }

    // C's strtoul base 0 on the whole value, as opensm's opts_strtoul, without its leniency:
    // no sign, nothing left over.
    std::uint64_t number(std::string_view v, std::uint64_t max) const {
        if (v.empty()) fail(fmt::format("{}: a number is missing", key_));
        unsigned base = 10;
        std::string_view d = v;
        if (d.size() >= 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
            base = 16;
            d.remove_prefix(2);
        } else if (d.size() >= 2 && d[0] == '0') {
            base = 8;
            d.remove_prefix(1);
        }
        if (d.empty()) fail(fmt::format("{}: {} is not a number", key_, quoted(v)));
        std::uint64_t x = 0;
        for (char ch : d) {
            unsigned digit;
            if (ch >= '0' && ch <= '9')
                digit = unsigned(ch - '0');
            else if (base == 16 && ch >= 'a' && ch <= 'f')
                digit = unsigned(ch - 'a' + 10);
            else if (base == 16 && ch >= 'A' && ch <= 'F')
                digit = unsigned(ch - 'A' + 10);
            else
                fail(fmt::format("{}: {} is not a number{}", key_, quoted(v),
                                 base == 8 && ch >= '0' && ch <= '9'
                                     ? " (a leading 0 makes it octal, as opensm reads it)"
                                     : ""));
            if (digit >= base)
                fail(fmt::format("{}: {} is not a number (a leading 0 makes it octal, as "
                                 "opensm reads it)",
                                 key_, quoted(v)));
            if (x > (std::numeric_limits<std::uint64_t>::max() - digit) / base)
                fail(fmt::format("{}: {} is out of range 0..{}", key_, quoted(v), max));
            x = x * base + digit;
        }
        if (x > max) fail(fmt::format("{}: {} is out of range 0..{}", key_, quoted(v), max));
        if (base == 8 && x != 0)
            warn(fmt::format("{}: {} is octal ({}), as opensm reads a leading 0", key_, quoted(v),
                             x));
        return x;
    }

    std::array<std::uint8_t, 32> mask(std::string_view v) const {
        std::string_view d = v;
        if (d.size() >= 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d.remove_prefix(2);
        if (d.empty()) fail(fmt::format("{}: a 256-bit hex mask is missing", key_));
        if (d.size() > 64)
            fail(fmt::format("{}: {} hex digits, more than a 256-bit mask has (64; opensm would "
                             "keep the first 64)",
                             key_, d.size()));
        std::array<std::uint8_t, 32> m{};
        // The least significant digit is bit 0..3 of byte 31 (big-endian, as opensm).
        for (std::size_t k = 0; k < d.size(); ++k) {
            const char ch = d[d.size() - 1 - k];
            if (!std::isxdigit(static_cast<unsigned char>(ch)))
                fail(fmt::format("{}: {} is not a hex mask", key_, quoted(v)));
            const unsigned digit =
                ch <= '9' ? unsigned(ch - '0') : unsigned((ch | 0x20) - 'a' + 10);
            m[31 - k / 2] |= std::uint8_t(digit << (4 * (k % 2)));
        }
        return m;
    }

    CctEntry cct_entry(std::string_view tok) const {
        const std::size_t colon = tok.find(':');
        if (colon == std::string_view::npos)
            fail(fmt::format("{}: CCT entry {} is not shift:multiplier", key_, quoted(tok)));
        CctEntry e;
        const std::string_view s = trim(tok.substr(0, colon)), m = trim(tok.substr(colon + 1));
        // Two and fourteen bits: opensm would shift a larger value into the other field.
        e.shift = std::uint8_t(number(s, 3));
        e.multiplier = std::uint16_t(number(m, 0x3fff));
        return e;
    }

    // "SL value" of the per-SL CA options.
    std::pair<unsigned, std::string_view> sl_value(std::string_view v) const {
        const std::size_t e = v.find_first_of(" \t");
        if (e == std::string_view::npos)
            fail(fmt::format("{}: expected an SL and a value, got {}", key_, quoted(v)));
        const auto sl = unsigned(number(v.substr(0, e), 15));
        return {sl, trim(v.substr(e))};
    }

    void option(std::string_view v) {
        const std::string_view k = key_;
        if (k == "congestion_control") {
            c_.congestion_control = v == "TRUE";
            if (v != "TRUE" && v != "FALSE")
                warn(fmt::format("congestion_control {}: opensm takes only TRUE as true, so this "
                                 "is FALSE",
                                 quoted(v)));
        } else if (k == "cc_key") {
            c_.cc_key = number(v, std::numeric_limits<std::uint64_t>::max());
        } else if (k == "cc_max_outstanding_mads") {
            c_.max_outstanding_mads = std::uint32_t(number(v, 0xffffffffu));
        } else if (k == "cc_sw_cong_setting_control_map") {
            c_.sw_control_map = std::uint32_t(number(v, 0xffffffffu));
        } else if (k == "cc_sw_cong_setting_victim_mask") {
            c_.victim_mask = mask(v);
        } else if (k == "cc_sw_cong_setting_credit_mask") {
            c_.credit_mask = mask(v);
        } else if (k == "cc_sw_cong_setting_threshold") {
            c_.threshold = std::uint8_t(number(v, 255));
            if (c_.threshold > 15)
                warn(fmt::format("cc_sw_cong_setting_threshold {} is above 15: the switches get "
                                 "its low 4 bits, {}",
                                 c_.threshold, c_.threshold & 15));
        } else if (k == "cc_sw_cong_setting_packet_size") {
            c_.packet_size = std::uint8_t(number(v, 255));
        } else if (k == "cc_sw_cong_setting_credit_starvation_threshold") {
            c_.cs_threshold = std::uint8_t(number(v, 255));
            if (c_.cs_threshold > 15)
                warn(fmt::format("cc_sw_cong_setting_credit_starvation_threshold {} is above 15: "
                                 "the switches get its low 4 bits, {}",
                                 c_.cs_threshold, c_.cs_threshold & 15));
        } else if (k == "cc_sw_cong_setting_credit_starvation_return_delay") {
            c_.cs_return_delay = cct_entry(v);
        } else if (k == "cc_sw_cong_setting_marking_rate") {
            c_.marking_rate = std::uint16_t(number(v, 0xffff));
        } else if (k == "cc_ca_cong_setting_port_control") {
            c_.ca_port_control = std::uint16_t(number(v, 0xffff));
        } else if (k == "cc_ca_cong_setting_control_map") {
            c_.ca_control_map = std::uint16_t(number(v, 0xffff));
        } else if (k == "cc_ca_cong_setting_ccti_timer") {
            const auto [sl, x] = sl_value(v);
            c_.ca_entries[sl].ccti_timer = std::uint16_t(number(x, 0xffff));
        } else if (k == "cc_ca_cong_setting_ccti_increase") {
            const auto [sl, x] = sl_value(v);
            c_.ca_entries[sl].ccti_increase = std::uint8_t(number(x, 255));
        } else if (k == "cc_ca_cong_setting_trigger_threshold") {
            const auto [sl, x] = sl_value(v);
            c_.ca_entries[sl].trigger_threshold = std::uint8_t(number(x, 255));
        } else if (k == "cc_ca_cong_setting_ccti_min") {
            const auto [sl, x] = sl_value(v);
            c_.ca_entries[sl].ccti_min = std::uint8_t(number(x, 255));
        } else if (k == "cc_cct") {
            c_.cct.clear();
            if (v == "(null)") return; // opensm's way of writing "no table"
            // Comma-separated; empty items are skipped (opensm: strtok_r).
            while (!v.empty()) {
                const std::size_t comma = v.find(',');
                const std::string_view tok = trim(v.substr(0, comma));
                v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
                if (tok.empty()) continue;
                if (c_.cct.size() == kCctMaxEntries)
                    fail(fmt::format("cc_cct: more than {} entries (opensm ignores the rest)",
                                     kCctMaxEntries));
                c_.cct.push_back(cct_entry(tok));
            }
        } else {
            warn(fmt::format("unknown option {} (opensm 3.3.23 ignores it)", quoted(k)));
        }
    }

    const std::string& source_;
    std::vector<std::string>* warnings_;
    int line_ = 0;
    std::string_view key_;
    CcConfig c_;
};

std::string mask_text(const std::array<std::uint8_t, 32>& m) {
    std::string s = "0x";
    for (std::uint8_t b : m) s += fmt::format("{:02X}", b);
    return s;
}

constexpr std::string_view kOptionNames[] = {
    "congestion_control",
    "cc_key",
    "cc_max_outstanding_mads",
    "cc_sw_cong_setting_control_map",
    "cc_sw_cong_setting_victim_mask",
    "cc_sw_cong_setting_credit_mask",
    "cc_sw_cong_setting_threshold",
    "cc_sw_cong_setting_packet_size",
    "cc_sw_cong_setting_credit_starvation_threshold",
    "cc_sw_cong_setting_credit_starvation_return_delay",
    "cc_sw_cong_setting_marking_rate",
    "cc_ca_cong_setting_port_control",
    "cc_ca_cong_setting_control_map",
    "cc_ca_cong_setting_ccti_timer",
    "cc_ca_cong_setting_ccti_increase",
    "cc_ca_cong_setting_trigger_threshold",
    "cc_ca_cong_setting_ccti_min",
    "cc_cct",
};

} // namespace

bool is_cc_option(std::string_view key) {
    for (const std::string_view n : kOptionNames)
        if (n == key) return true;
    return false;
}

CcConfig read_cc_config_text(std::string_view text, const std::string& source,
                             std::vector<std::string>* warnings, CcConfig start) {
    return Parser(source, warnings, std::move(start)).run(text);
}

CcConfig read_cc_config(const std::string& path, std::vector<std::string>* warnings) {
    const std::string text = read_input_file(path, kMaxTopologyBytes, "opensm.conf");
    return read_cc_config_text(text, path, warnings);
}

std::string write_cc_config(const CcConfig& c) {
    std::string s;
    s += fmt::format("congestion_control {}\n", c.congestion_control ? "TRUE" : "FALSE");
    s += fmt::format("cc_key 0x{:016x}\n", c.cc_key);
    s += fmt::format("cc_max_outstanding_mads {}\n", c.max_outstanding_mads);
    s += fmt::format("cc_sw_cong_setting_control_map 0x{:X}\n", c.sw_control_map);
    s += fmt::format("cc_sw_cong_setting_victim_mask {}\n", mask_text(c.victim_mask));
    s += fmt::format("cc_sw_cong_setting_credit_mask {}\n", mask_text(c.credit_mask));
    s += fmt::format("cc_sw_cong_setting_threshold 0x{:02X}\n", c.threshold);
    s += fmt::format("cc_sw_cong_setting_packet_size {}\n", c.packet_size);
    s += fmt::format("cc_sw_cong_setting_credit_starvation_threshold 0x{:02X}\n", c.cs_threshold);
    s += fmt::format("cc_sw_cong_setting_credit_starvation_return_delay {}:{}\n",
                     c.cs_return_delay.shift, c.cs_return_delay.multiplier);
    s += fmt::format("cc_sw_cong_setting_marking_rate {}\n", c.marking_rate);
    s += fmt::format("cc_ca_cong_setting_port_control 0x{:04X}\n", c.ca_port_control);
    s += fmt::format("cc_ca_cong_setting_control_map 0x{:04X}\n", c.ca_control_map);
    for (unsigned sl = 0; sl < 16; ++sl) {
        const CaCongEntry& e = c.ca_entries[sl];
        if (e == CaCongEntry{}) continue;
        s += fmt::format("cc_ca_cong_setting_ccti_timer {} {}\n", sl, e.ccti_timer);
        s += fmt::format("cc_ca_cong_setting_ccti_increase {} {}\n", sl, e.ccti_increase);
        s += fmt::format("cc_ca_cong_setting_trigger_threshold {} {}\n", sl, e.trigger_threshold);
        s += fmt::format("cc_ca_cong_setting_ccti_min {} {}\n", sl, e.ccti_min);
    }
    s += "cc_cct ";
    if (c.cct.empty()) s += "(null)";
    for (std::size_t i = 0; i < c.cct.size(); ++i)
        s += fmt::format("{}{}:{}", i ? "," : "", c.cct[i].shift, c.cct[i].multiplier);
    s += "\n";
    return s;
}

std::vector<std::string> cc_config_notes(const CcConfig& c) {
    std::vector<std::string> notes;
    if (!c.congestion_control) {
        notes.push_back("congestion_control is not TRUE: opensm configures no congestion "
                        "control, so the simulation runs without it");
        return notes;
    }
    if (!(c.sw_control_map & 4u))
        notes.push_back("cc_sw_cong_setting_control_map lacks bit 2 (threshold and packet size): "
                        "switches keep threshold 0 and mark no packet");
    else if ((c.threshold & 15u) == 0)
        notes.push_back("cc_sw_cong_setting_threshold is 0: switches mark no packet");
    if (c.ca_control_map == 0) {
        notes.push_back("cc_ca_cong_setting_control_map is 0: no SL of any CA reacts to BECNs");
    } else {
        bool any = false;
        for (unsigned sl = 0; sl < 16; ++sl) {
            if (!(c.ca_control_map >> sl & 1u)) continue;
            const CaCongEntry& e = c.ca_entries[sl];
            any |= e.ccti_increase > 0;
            if (e.ccti_increase > 0 && e.ccti_timer == 0)
                notes.push_back(fmt::format("SL {}: cc_ca_cong_setting_ccti_timer is 0: its CCTI "
                                            "never decreases",
                                            sl));
        }
        if (!any)
            notes.push_back("every SL of cc_ca_cong_setting_control_map has ccti_increase 0: "
                            "BECNs change no injection rate");
    }
    bool delay = false;
    for (const CctEntry& e : c.cct) delay |= e.multiplier > 0;
    if (!delay)
        notes.push_back("cc_cct has no entry with a multiplier above 0: every injection delay "
                        "is 0");
    // Credit starvation: what the switches would take (control map bit 1 the credit mask, bit 3
    // CS_Threshold and CS_ReturnDelay). Its semantics are in IBA annex A10, which is not public;
    // the public sources (opensm's ib_types.h: "the port ... shall apply Credit Starvation",
    // "how aggressive", "controls credit return rate") give no rule to simulate, so the
    // settings are read and said not to run rather than guessed (docs/sim-model.md).
    const bool credit_mask =
        (c.sw_control_map & 2u) && std::any_of(c.credit_mask.begin(), c.credit_mask.end(),
                                               [](std::uint8_t b) { return b != 0; });
    const bool cs =
        (c.sw_control_map & 8u) && ((c.cs_threshold & 15u) || c.cs_return_delay != CctEntry{});
    if (credit_mask || cs)
        notes.push_back(fmt::format(
            "credit starvation ({}) is read but not simulated: IBA annex A10, which defines "
            "what a switch does with it, is not public and no public source describes it, so "
            "these switches run without credit starvation",
            credit_mask && cs ? "cc_sw_cong_setting_credit_mask, "
                                "cc_sw_cong_setting_credit_starvation_threshold and "
                                "_return_delay"
            : credit_mask     ? "cc_sw_cong_setting_credit_mask"
                              : "cc_sw_cong_setting_credit_starvation_threshold and "
                                "_return_delay"));
    return notes;
}

} // namespace ibrt::sim
