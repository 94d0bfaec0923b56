#include "graph/link_load.hpp"

#include <algorithm>
#include <cmath>

namespace ibrt::graph {

bool is_switch_link(const Fabric& f, PortId p) {
    const Port& port = f.port(p);
    return port.connected() && f.node(f.port_node(p)).is_switch() &&
           f.node(port.peer_node).is_switch();
}

LoadStats load_stats(const std::vector<double>& v) {
    LoadStats s;
    s.links = v.size();
    if (v.empty()) return s;
    double sum = 0;
    s.min = v[0];
    for (double x : v) {
        sum += x;
        s.max = std::max(s.max, x);
        s.min = std::min(s.min, x);
    }
    s.mean = sum / double(v.size());
    double sq = 0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / double(v.size()));
    s.spread = s.mean > 0 ? s.max / s.mean : 0;
    return s;
}

} // namespace ibrt::graph
