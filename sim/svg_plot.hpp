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

// A grouped bar chart, the form of paper 003's saturation table: one group per column name
// (a traffic pattern, say), one coloured bar per series within each group (a routing);
// values[s][g] is series s in group g (NaN: no bar).
struct BarSeries {
    std::string name;
    std::vector<double> values;
};
std::string bar_chart_svg(const std::vector<std::string>& groups,
                          const std::vector<BarSeries>& series, const std::string& title,
                          const std::string& y_label);

} // namespace ibrt::sim
