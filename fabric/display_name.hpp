// How a node or port is named for a person: in errors, check examples, hot links, JUnit and
// the simulator's per-link output. One function, so every message names things the same way.
// Real clusters give many HCAs one description ("MT25408 ConnectX Mellanox Technologies"),
// so the GUID is always part of the name.
#pragma once

#include "fabric/fabric.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace ibrt {

// "switch 'leaf-3' (GUID 0x0002c90300001234)"; a node without description: "CA 0x…".
std::string display_name(const Fabric& f, NodeId n);
// The same for a node not yet in a Fabric (FabricBuilder's errors, readers).
std::string display_name(const Node& node);
std::string display_name(NodeType type, std::string_view desc, std::uint64_t guid);
// display_name plus " port N".
std::string display_port(const Fabric& f, NodeId n, PortNum p);
// The directed link out of `port`: "switch 'sw1' (GUID …) port 2 -> switch 'sw2' (GUID …) port
// 1" (the far end left out where the port has no cable).
std::string display_link(const Fabric& f, PortId port);
// A channel, the link out of `port` on VL `vl`: display_link plus " VL 0". The one spelling of
// a channel for the checker's credit loops and the simulator's deadlock cycles (whose input
// buffer is the channel that feeds it).
std::string display_channel(const Fabric& f, PortId port, unsigned vl);
// A GUID as every dump prints it: "0x%016x".
std::string guid_hex(std::uint64_t guid);

} // namespace ibrt
