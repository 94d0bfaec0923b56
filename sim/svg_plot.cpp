// SVG 1.1 by hand (no plotting dependency): axes with "nice" ticks (1, 2, 5 x 10^k), one
// coloured polyline with point markers per series, and a legend.
#include "sim/svg_plot.hpp"
#include "fabric/xml_escape.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace ibrt::sim {
namespace {

double nice_step(double range, int target) {
    const double raw = range / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * mag) return m * mag;
    return 10 * mag;
}

const char* colour(std::size_t i) {
    static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
    return colours[i % 10];
}

std::string svg_header(double w, double h, double title_x, const std::string& title) {
    return fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
        "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
        w, h, w, h, title_x, xml_escape(title));
}

// Horizontal grid lines with their values at every `ys` up to ymax, then the plot's frame.
void y_grid_and_frame(std::string& o, double L, double T, double pw, double ph, double ymax,
                      double ys) {
    for (double y = 0; y <= ymax + ys / 2; y += ys) {
        const double py = T + ph - y / ymax * ph;
        o += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
                         "stroke=\"#ddd\"/>\n<text x=\"{3:.1f}\" y=\"{4:.1f}\" "
                         "text-anchor=\"end\">{5:g}</text>\n",
                         L, py, L + pw, L - 6, py + 4, y);
    }
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                     "stroke=\"black\"/>\n",
                     L, T, pw, ph);
}

} // namespace

std::string line_plot_svg(const std::vector<PlotSeries>& series, const std::string& title,
                          const std::string& x_label, const std::string& y_label) {
    constexpr double W = 720, H = 480, L = 80, R = 190, T = 40, B = 60;
    double xmax = 0, ymax = 0;
    for (const auto& s : series)
        for (auto [x, y] : s.points) {
            if (std::isfinite(x)) xmax = std::max(xmax, x);
            if (std::isfinite(y)) ymax = std::max(ymax, y);
        }
    if (xmax <= 0) xmax = 1;
    if (ymax <= 0) ymax = 1;
    const double xs = nice_step(xmax, 6), ys = nice_step(ymax, 6);
    xmax = std::ceil(xmax / xs) * xs;
    ymax = std::ceil(ymax / ys) * ys;
    const double pw = W - L - R, ph = H - T - B;
    auto px = [&](double x) { return L + x / xmax * pw; };
    auto py = [&](double y) { return T + ph - y / ymax * ph; };

    std::string o = svg_header(W, H, L + pw / 2, title);
    for (double x = 0; x <= xmax + xs / 2; x += xs) {
        o += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" "
                         "stroke=\"#ddd\"/>\n<text x=\"{0:.1f}\" y=\"{3:.1f}\" "
                         "text-anchor=\"middle\">{4:g}</text>\n",
                         px(x), T, T + ph, T + ph + 18, x);
    }
    y_grid_and_frame(o, L, T, pw, ph, ymax, ys);
    o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                     L + pw / 2, H - 16, xml_escape(x_label));
    o += fmt::format("<text x=\"18\" y=\"{:.1f}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 18 {:.1f})\">{}</text>\n",
                     T + ph / 2, T + ph / 2, xml_escape(y_label));
    for (std::size_t i = 0; i < series.size(); ++i) {
        const char* c = colour(i);
        std::string pts;
        for (auto [x, y] : series[i].points)
            if (std::isfinite(x) && std::isfinite(y))
                pts += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
        o += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
                         "points=\"{}\"/>\n",
                         c, pts);
        for (auto [x, y] : series[i].points)
            if (std::isfinite(x) && std::isfinite(y))
                o += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n",
                                 px(x), py(y), c);
        const double ly = T + 10 + 20 * double(i);
        o += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
                         "stroke=\"{3}\" stroke-width=\"2\"/>\n<text x=\"{4:.1f}\" y=\"{5:.1f}\">"
                         "{6}</text>\n",
                         L + pw + 12, ly, L + pw + 36, c, L + pw + 42, ly + 4,
                         xml_escape(series[i].name));
    }
    o += "</svg>\n";
    return o;
}

std::string bar_chart_svg(const std::vector<std::string>& groups,
                          const std::vector<BarSeries>& series, const std::string& title,
                          const std::string& y_label) {
    constexpr double L = 70, R = 190, T = 40, B = 60, H = 420;
    const double bar = 12, gap = 18;
    const double group_w = double(std::max<std::size_t>(series.size(), 1)) * bar + gap;
    const double pw = std::max(360.0, double(groups.size()) * group_w), W = L + pw + R;
    const double ph = H - T - B;
    double ymax = 0;
    for (const auto& s : series)
        for (double v : s.values)
            if (std::isfinite(v)) ymax = std::max(ymax, v);
    if (ymax <= 0) ymax = 1;
    const double ys = nice_step(ymax, 5);
    ymax = std::ceil(ymax / ys) * ys;
    auto py = [&](double y) { return T + ph - y / ymax * ph; };
    std::string o = svg_header(W, H, L + pw / 2, title);
    y_grid_and_frame(o, L, T, pw, ph, ymax, ys);
    o += fmt::format("<text x=\"18\" y=\"{:.1f}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 18 {:.1f})\">{}</text>\n",
                     T + ph / 2, T + ph / 2, xml_escape(y_label));
    const double step = pw / double(std::max<std::size_t>(groups.size(), 1));
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const double x0 = L + step * double(g) + (step - group_w + gap) / 2;
        for (std::size_t i = 0; i < series.size(); ++i) {
            const double v = g < series[i].values.size() ? series[i].values[g] : NAN;
            if (!std::isfinite(v)) continue;
            o += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
                             "fill=\"{}\"><title>{}: {:.3f}</title></rect>\n",
                             x0 + bar * double(i), py(v), bar - 1, T + ph - py(v), colour(i),
                             xml_escape(series[i].name), v);
        }
        o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                         L + step * (double(g) + 0.5), T + ph + 18, xml_escape(groups[g]));
    }
    for (std::size_t i = 0; i < series.size(); ++i) {
        const double ly = T + 10 + 20 * double(i);
        o += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"20\" height=\"10\" fill=\"{}\"/>\n"
            "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
            L + pw + 12, ly - 6, colour(i), L + pw + 38, ly + 4, xml_escape(series[i].name));
    }
    o += "</svg>\n";
    return o;
}

} // namespace ibrt::sim
