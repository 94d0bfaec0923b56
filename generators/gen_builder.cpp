// GenBuilder: GUIDs, labels and cabling shared by all generators (see gen_builder.hpp).
#include "generators/gen_builder.hpp"

namespace ibrt::gen {

std::uint64_t switch_guid(std::uint64_t s) {
    return kSwitchGuidBase + ((s + 1) << 8);
}
std::uint64_t ca_guid(std::uint64_t c) {
    return kCaGuidBase + ((c + 1) << 8);
}

NodeId GenBuilder::add_switch(std::string desc, int ports) {
    require(ports >= 1 && ports <= kMaxPorts, "a switch needs 1.." + std::to_string(kMaxPorts) +
                                                  " ports, got " + std::to_string(ports));
    const std::uint64_t g = switch_guid(switches_++);
    NodeId n = b_.add_node(NodeType::Switch, static_cast<PortNum>(ports), g, desc);
    b_.node(n).sysimg_guid = g;
    b_.node(n).id = std::move(desc);
    b_.port(n, 0).guid = g;
    return n;
}

NodeId GenBuilder::add_ca(std::string desc, int ports) {
    require(ports >= 1 && ports <= kMaxPorts,
            "a CA needs 1.." + std::to_string(kMaxPorts) + " ports, got " + std::to_string(ports));
    const std::uint64_t g = ca_guid(cas_++);
    NodeId n = b_.add_node(NodeType::CA, static_cast<PortNum>(ports), g, desc);
    b_.node(n).sysimg_guid = g;
    b_.node(n).id = std::move(desc);
    for (int p = 1; p <= ports; ++p) b_.port(n, static_cast<PortNum>(p)).guid = g + p;
    return n;
}

void GenBuilder::link(NodeId a, int pa, NodeId b, int pb) {
    b_.connect(a, static_cast<PortNum>(pa), b, static_cast<PortNum>(pb), link_.width, link_.speed);
}

Fabric GenBuilder::build() && {
    return std::move(b_).build();
}

std::string join_digits(const std::vector<int>& digits, bool concatenate) {
    std::string s;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && !concatenate) s += '.';
        s += std::to_string(digits[i]);
    }
    return s;
}

} // namespace ibrt::gen
