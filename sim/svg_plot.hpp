// A hand-written SVG line chart for latency against accepted traffic, the form of the
// figures of paper 000 §5.2 (x: accepted traffic, y: average latency), one polyline per series.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ibrt::sim {

struct PlotSeries {
    std::string name;
    std::vector<std::pair<double, double>> points; // (x, y), drawn in the given order
};

std::string line_plot_svg(const std::vector<PlotSeries>& series, const std::string& title,
                          const std::string& x_label, const std::string& y_label);

} // namespace ibrt::sim
