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

    std::string o =
        fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
                    "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n"
                    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                    "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
                    W, H, W, H, L + pw / 2, xml_escape(title));
    for (double x = 0; x <= xmax + xs / 2; x += xs) {
        o += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" "
                         "stroke=\"#ddd\"/>\n<text x=\"{0:.1f}\" y=\"{3:.1f}\" "
                         "text-anchor=\"middle\">{4:g}</text>\n",
                         px(x), T, T + ph, T + ph + 18, x);
    }
    for (double y = 0; y <= ymax + ys / 2; y += ys) {
        o += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
                         "stroke=\"#ddd\"/>\n<text x=\"{3:.1f}\" y=\"{4:.1f}\" "
                         "text-anchor=\"end\">{5:g}</text>\n",
                         L, py(y), L + pw, L - 6, py(y) + 4, y);
    }
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                     "stroke=\"black\"/>\n",
                     L, T, pw, ph);
    o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                     L + pw / 2, H - 16, xml_escape(x_label));
    o += fmt::format("<text x=\"18\" y=\"{:.1f}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 18 {:.1f})\">{}</text>\n",
                     T + ph / 2, T + ph / 2, xml_escape(y_label));
    static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    for (std::size_t i = 0; i < series.size(); ++i) {
        const char* c = colours[i % 8];
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

} // namespace ibrt::sim
