// Fabric-independent SimConfig checks; see config_check.hpp.
#include "sim/config_check.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ibrt::sim {
namespace {

[[noreturn]] void bad(const std::string& problem) {
    throw std::invalid_argument(problem);
}

std::string bytes(std::uint64_t n) {
    return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

std::string credits(std::uint64_t n) {
    return std::to_string(n) + (n == 1 ? " credit" : " credits");
}

// A buffer of `buffer` bytes is `buffer / unit` whole credits; a packet needs
// ceil(packet / unit) of them (IBA flow control counts whole credits).
void check_holds(const char* what, std::uint32_t buffer, const SimConfig& c) {
    const std::uint32_t have = buffer / c.credit_unit;
    const std::uint32_t need = (c.packet_bytes + c.credit_unit - 1) / c.credit_unit;
    if (need > have)
        bad(std::string(what) + " of " + bytes(buffer) + " (" + credits(have) + " of " +
            bytes(c.credit_unit) +
            (buffer % c.credit_unit ? ", rounded down to whole credits" : "") +
            ") cannot hold a packet of " + bytes(c.packet_bytes) + " (" + credits(need) + ")");
}

} // namespace

void check_config(const SimConfig& c) {
    if (c.num_vls < 1 || c.num_vls > 15) bad("number of VLs must be 1..15");
    if (c.speedup < 1) bad("crossbar speedup must be at least 1");
    if (c.credit_unit == 0) bad("credit unit must be positive");
    if (c.packet_bytes == 0) bad("packet size must be positive");
    if (c.packet_bytes > 0xffff) bad("packet size " + bytes(c.packet_bytes) + " above 65535 bytes");
    check_holds("a buffer", c.buffer_bytes, c);
    if (c.output_buffer_bytes > 0) check_holds("an output buffer", c.output_buffer_bytes, c);
    // With output buffers the VC router is paper 004's switch: the crossbar fills an output
    // buffer per port (per class), the link picks the first downstream VC with room. BookSim's
    // allocation timing models its input-queued router alone.
    if (c.vc_router && c.output_buffer_bytes > 0 && (c.vc_alloc_gap_ps || c.vc_input_first))
        bad("--vc-alloc-gap-ns and --vc-input-first model BookSim's input-queued router: not "
            "with output buffers");
    if (c.ps_per_byte > 0xffffffffu) bad("serialization time per byte above 4.29 ms");
    if (c.latency_samples == 0) bad("latency samples must be positive");
    if (c.measure_ps == 0) bad("measurement window must be positive");
    for (const auto* table : {&c.vlarb.high, &c.vlarb.low})
        for (const auto& e : *table)
            if (e.vl >= c.num_vls)
                bad("VL arbitration entry names VL " + std::to_string(e.vl) + " >= VL count");
    const double load = c.traffic.load;
    if (!std::isfinite(load) || load < 0) bad("offered load must be a finite number >= 0");
    const double hot = c.traffic.hot_fraction;
    if (!(hot >= 0 && hot <= 1)) bad("hot fraction must be in 0..1");
    if (c.traffic.pattern == Pattern::Rotation && c.traffic.shift && *c.traffic.shift == 0)
        bad("rotation shift 0 sends every message to its own source");
    if (c.cc.on) {
        if (c.vc_router)
            bad("congestion control is modelled on the IB switch, not in the VC-router mode");
        if (c.cc.becn_bytes == 0 || c.cc.becn_bytes > 0xffff)
            bad("a congestion notification packet must be 1..65535 bytes");
        if (c.cc.becn_delay_ps == 0 &&
            (c.cc.becn_bytes + c.credit_unit - 1) / c.credit_unit > c.buffer_bytes / c.credit_unit)
            bad("a buffer of " + bytes(c.buffer_bytes) +
                " cannot hold a congestion notification "
                "packet of " +
                bytes(c.cc.becn_bytes));
    }
    if (c.drb.on) {
        if (!c.cc.on)
            bad("DRB needs congestion control's FECN marking and BECNs (an opensm.conf with "
                "congestion_control TRUE); for DRB alone turn the injection delay off");
        if (c.drb.max_paths < 1 || c.drb.max_paths > kDrbMaxPaths)
            bad("DRB paths must be 1.." + std::to_string(kDrbMaxPaths));
        if (c.drb.notifications_per_path < 1) bad("DRB needs at least 1 notification per path");
        if (c.dlid == DlidPolicy::Random)
            bad("DRB chooses among a destination's LIDs itself: not with random DLIDs");
    }
    if (c.via != Via::None) {
        const std::string via = "--via " + std::string(to_string(c.via));
        if (c.num_vls < kViaVls) bad(via + " takes a VL per phase: it needs 3 VLs");
        if (c.cc.on) bad(via + " does not run with congestion control");
        if (c.drb.on) bad(via + " chooses the path itself: not with DRB");
    }
    if (c.traffic.hot_start_ps >= c.traffic.hot_end_ps)
        bad("the hot spot must start before it ends");
    // The flows of pairs and hot-flows; whether they name end nodes that exist needs the fabric
    // (DestinationPattern).
    if (reads_pairs(c.traffic.pattern) && c.traffic.pairs.empty())
        bad("pattern " + std::string(to_string(c.traffic.pattern)) +
            " needs pairs (SOURCE DESTINATION lines of --pairs-file): none given");
    if (c.source_queue_packets > 0) {
        const std::uint64_t msg = c.message_bytes ? c.message_bytes : c.packet_bytes;
        const std::uint64_t packets = (msg + c.packet_bytes - 1) / c.packet_bytes;
        if (packets > c.source_queue_packets)
            bad("a message of " + bytes(msg) + " is " + std::to_string(packets) + " packets of " +
                bytes(c.packet_bytes) + ", more than a source queue of " +
                std::to_string(c.source_queue_packets) +
                " packets holds (raise the source queue or shorten the message)");
    }
}

} // namespace ibrt::sim
