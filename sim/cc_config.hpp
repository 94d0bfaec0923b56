// IBA congestion control settings as opensm 3.3.23 reads them from opensm.conf (issue 16).
//
// opensm configures congestion control (IBA vol. 1 annex A10) on every switch and CA from the
// options below (osm_subnet.c's option table; osm_congestion_control.c builds the MADs). The
// names, formats and defaults are opensm's; every default is 0 except cc_max_outstanding_mads
// (500), so CC does nothing until an admin sets thresholds, marking rates, timers and a CCT.
//
//   congestion_control TRUE|FALSE              only the exact word TRUE is true (opensm)
//   cc_key N                                   64-bit, not used by the model
//   cc_max_outstanding_mads N                  32-bit, not used by the model
//   cc_sw_cong_setting_control_map N           32-bit: which SwitchCongestionSetting fields
//                                              the switches take: bit 0 victim mask, 1 credit
//                                              mask, 2 threshold + packet size, 3 credit
//                                              starvation threshold + return delay, 4 marking
//                                              rate
//   cc_sw_cong_setting_victim_mask 0xHEX       256-bit port mask, bit p = port p
//   cc_sw_cong_setting_credit_mask 0xHEX       256-bit port mask
//   cc_sw_cong_setting_threshold N             0 = off, 1 loose .. 15 aggressive (4 bits sent)
//   cc_sw_cong_setting_packet_size N           packets smaller than N credits (64 B) unmarked
//   cc_sw_cong_setting_credit_starvation_threshold N      4 bits sent
//   cc_sw_cong_setting_credit_starvation_return_delay S:M a CCT entry
//                                              (credit mask, CS threshold and return delay:
//                                              read, not simulated; cc_config_notes says so)
//   cc_sw_cong_setting_marking_rate N          16-bit: mean packets between marks
//   cc_ca_cong_setting_port_control N          16-bit: bit 0 = 1 per SL (port), 0 per QP
//   cc_ca_cong_setting_control_map N           16-bit: which SLs the CAs configure
//   cc_ca_cong_setting_ccti_timer SL N         16-bit, units of 1.024 us
//   cc_ca_cong_setting_ccti_increase SL N      8-bit
//   cc_ca_cong_setting_trigger_threshold SL N  8-bit
//   cc_ca_cong_setting_ccti_min SL N           8-bit
//   cc_cct S:M,S:M,...                         the CCT, at most 128 entries; "(null)" = none
//
// Numbers are C's strtoul base 0, as opensm parses them: decimal, 0x hex, and a leading 0 is
// octal. A line is a key and the rest of it; `#` starts a comment anywhere; quotes around a
// value are dropped. Options other than these are opensm's and skipped; the last occurrence of
// an option wins. Where opensm would silently misread a value (an SL or a CCT field that is not
// a number, a mask of more than 256 bits, a value out of its field) the reader refuses it
// with `file:line: problem` (InputError); where opensm reads it but it is probably not what
// was meant (`congestion_control true`, an octal number, a threshold above 15) it warns.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt::sim {

// One CCT entry (IBA A10: CCT_Shift 2 bits, CCT_Multiplier 14 bits).
struct CctEntry {
    std::uint8_t shift = 0;
    std::uint16_t multiplier = 0;
    bool operator==(const CctEntry&) const = default;
};

// A CACongestionSetting entry, per SL.
struct CaCongEntry {
    std::uint16_t ccti_timer = 0; // units of 1.024 us
    std::uint8_t ccti_increase = 0, trigger_threshold = 0, ccti_min = 0;
    bool operator==(const CaCongEntry&) const = default;
};

inline constexpr std::size_t kCctMaxEntries = 128; // opensm's OSM_CCT_ENTRY_MAX

struct CcConfig {
    bool congestion_control = false;
    std::uint64_t cc_key = 0;
    std::uint32_t max_outstanding_mads = 500;
    // SwitchCongestionSetting.
    std::uint32_t sw_control_map = 0;
    // As opensm stores them: big-endian bytes, byte 31 bit 0 is port 0.
    std::array<std::uint8_t, 32> victim_mask{}, credit_mask{};
    std::uint8_t threshold = 0; // as written; the switch gets the low 4 bits
    std::uint8_t packet_size = 0;
    std::uint8_t cs_threshold = 0; // as written; the switch gets the low 4 bits
    CctEntry cs_return_delay;
    std::uint16_t marking_rate = 0;
    // CACongestionSetting.
    std::uint16_t ca_port_control = 0, ca_control_map = 0;
    std::array<CaCongEntry, 16> ca_entries{};
    std::vector<CctEntry> cct;

    bool operator==(const CcConfig&) const = default;

    static bool mask_bit(const std::array<std::uint8_t, 32>& m, unsigned port) {
        return port < 256 && (m[31 - port / 8] >> (port % 8) & 1u);
    }
    static void set_mask_bit(std::array<std::uint8_t, 32>& m, unsigned port) {
        m[31 - port / 8] |= std::uint8_t(1u << (port % 8));
    }
    // IBA A10: port_control bit 0 set = congestion control per SL (port), clear = per QP.
    bool per_sl() const { return ca_port_control & 1u; }
};

// Reads the congestion-control options of an opensm.conf text. `source` names it in errors.
// Warnings (file:line: text) are appended to `warnings` when given. Throws InputError.
// `start`: the settings the options apply to (opensm's defaults, or a file read before).
CcConfig read_cc_config_text(std::string_view text, const std::string& source,
                             std::vector<std::string>* warnings = nullptr, CcConfig start = {});
// The same from a file (a regular file of at most 1 GiB).
CcConfig read_cc_config(const std::string& path, std::vector<std::string>* warnings = nullptr);

// Whether `key` is one of the option names above (opensm 3.3.23's spelling): what a sweep
// spec's "cc" object may name (sweep/sweep_spec.hpp).
bool is_cc_option(std::string_view key);

// The options in opensm's own format (`opensm -c` writes the same lines), every one given,
// the per-SL entries of the SLs whose entry is not all zero: read back, it gives `c`.
std::string write_cc_config(const CcConfig& c);

// Why these settings would leave congestion control doing nothing, or what the simulator does
// not model of them, one sentence each (empty when CC is on and can act).
std::vector<std::string> cc_config_notes(const CcConfig& c);

} // namespace ibrt::sim
