// The spec builder and the python3 run; see plot.hpp.
#include "plot/plot.hpp"

#include "ibrt_plot_script.hpp" // generated from plot/render.py (CMakeLists.txt)

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ibrt::plot {
namespace {

using json = nlohmann::ordered_json;

std::string value_of(const Curve& c, const std::string& key) {
    for (const auto& [k, v] : c.settings)
        if (k == key) return v;
    return {};
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
    std::string s;
    for (const auto& p : parts)
        if (!p.empty()) s += (s.empty() ? "" : sep) + p;
    return s;
}

// Non-finite values become null (nlohmann writes NaN as null; infinities too, made explicit).
json numbers(const std::vector<double>& v) {
    json a = json::array();
    for (double x : v) a.push_back(std::isfinite(x) ? json(x) : json());
    return a;
}

// Half-widths: besides non-finite ones, negative ones (the simulator's -1, "no interval") are
// null too.
json half_widths(const std::vector<double>& v) {
    json a = json::array();
    for (double x : v) a.push_back(std::isfinite(x) && x >= 0 ? json(x) : json());
    return a;
}

struct Panel {
    std::string title;
    std::vector<std::size_t> curves;
    std::size_t axes = 0; // the parts of one split panel share their axes' ranges
};

// Curves grouped by their values of `keys`, in order of first appearance.
std::vector<Panel> group_by(const Figure& f, const std::vector<std::string>& keys) {
    std::vector<Panel> panels;
    std::map<std::vector<std::string>, std::size_t> index;
    for (std::size_t i = 0; i < f.curves.size(); ++i) {
        std::vector<std::string> values;
        for (const auto& k : keys) values.push_back(value_of(f.curves[i], k));
        auto [it, fresh] = index.emplace(values, panels.size());
        if (fresh) panels.push_back({join(values, ", "), {}, panels.size()});
        panels[it->second].curves.push_back(i);
    }
    return panels;
}

// n things in parts of nearly equal size, none above `most`: the parts' sizes.
std::vector<std::size_t> parts_of(std::size_t n, std::size_t most) {
    const std::size_t parts = std::max<std::size_t>((n + most - 1) / most, 1);
    std::vector<std::size_t> sizes;
    for (std::size_t k = 0; k < parts; ++k) sizes.push_back(n / parts + (k < n % parts ? 1 : 0));
    return sizes;
}

template <class T> json slice(const T& values, std::size_t at, std::size_t size) {
    json a = json::array();
    for (std::size_t i = at; i < at + size && i < values.size(); ++i) a.push_back(values[i]);
    return a;
}

std::size_t fullest(const std::vector<Panel>& panels) {
    std::size_t n = 0;
    for (const auto& p : panels) n = std::max(n, p.curves.size());
    return n;
}

// A unique temporary name beside `path` with the same extension (matplotlib and readers look
// at it; the spec says the format anyway).
std::string temporary_beside(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    const std::filesystem::path p(path);
    return (p.parent_path() / fmt::format(".{}.tmp.{}.{}{}", p.stem().string(), ::getpid(),
                                          counter++, p.extension().string()))
        .string();
}

// A fresh file under the temporary directory; its descriptor, and its name in `name`.
int temporary_file(const char* what, std::string& name) {
    std::string t =
        (std::filesystem::temp_directory_path() / fmt::format("ibrt-plot-{}-XXXXXX", what))
            .string();
    const int fd = ::mkstemp(t.data());
    if (fd < 0) throw PlotError(fmt::format("cannot create {}: {}", t, std::strerror(errno)));
    name = t;
    return fd;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The last non-empty line of a script's stderr: Python ends a traceback with the error.
std::string last_line(const std::string& text) {
    std::istringstream in(text);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    return last;
}

} // namespace

json plot_spec(const Figure& f, std::size_t max_curves) {
    max_curves = std::max<std::size_t>(max_curves, 1);
    std::vector<std::string> keys;
    for (const auto& c : f.curves)
        for (const auto& [k, v] : c.settings)
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    // Settings every curve shares go under the title; the others name panels or curves.
    std::vector<std::string> common, facet_keys, legend_keys;
    for (const auto& k : keys) {
        const std::string first = f.curves.empty() ? "" : value_of(f.curves[0], k);
        const bool shared = std::all_of(f.curves.begin(), f.curves.end(),
                                        [&](const Curve& c) { return value_of(c, k) == first; });
        if (shared)
            common.push_back(first);
        else if (std::find(f.facets.begin(), f.facets.end(), k) != f.facets.end())
            facet_keys.push_back(k);
        else
            legend_keys.push_back(k);
    }
    // Facets in the order the figure lists them.
    std::vector<std::string> ordered;
    for (const auto& k : f.facets)
        if (std::find(facet_keys.begin(), facet_keys.end(), k) != facet_keys.end())
            ordered.push_back(k);
    facet_keys = ordered;
    std::vector<Panel> panels = group_by(f, facet_keys);
    while (fullest(panels) > max_curves && legend_keys.size() > 1) {
        // The moved setting joins the panels' titles in the order of the settings.
        const std::string moved = legend_keys.back();
        legend_keys.pop_back();
        auto at = facet_keys.begin() + long(ordered.size());
        while (at != facet_keys.end() && std::find(keys.begin(), keys.end(), *at) <
                                             std::find(keys.begin(), keys.end(), moved))
            ++at;
        facet_keys.insert(at, moved);
        panels = group_by(f, facet_keys);
    }
    // Still too full: parts of nearly equal size, none above max_curves.
    std::vector<Panel> split;
    for (auto& p : panels) {
        const auto sizes = parts_of(p.curves.size(), max_curves);
        if (sizes.size() <= 1) {
            split.push_back(std::move(p));
            continue;
        }
        for (std::size_t k = 0, at = 0; k < sizes.size(); ++k) {
            Panel part{
                join({p.title, fmt::format("({}/{})", k + 1, sizes.size())}, " "), {}, p.axes};
            part.curves.assign(p.curves.begin() + long(at), p.curves.begin() + long(at + sizes[k]));
            at += sizes[k];
            split.push_back(std::move(part));
        }
    }
    // Bars: at most kMaxGroupsPerPanel groups a panel, or their names overwrite each other.
    const auto group_sizes = f.kind == Kind::Bar ? parts_of(f.groups.size(), kMaxGroupsPerPanel)
                                                 : std::vector<std::size_t>{f.groups.size()};
    // Styles follow names, in order of first appearance.
    std::map<std::string, std::size_t> style_of;
    std::vector<std::string> names_in_order;
    json jpanels = json::array();
    for (const auto& p : split)
        for (std::size_t g = 0, at = 0; g < group_sizes.size(); at += group_sizes[g++]) {
            const std::size_t size = group_sizes[g];
            json curves = json::array();
            for (std::size_t i : p.curves) {
                const Curve& c = f.curves[i];
                std::vector<std::string> parts;
                for (const auto& k : legend_keys) parts.push_back(value_of(c, k));
                const std::string name = join(parts, ", ");
                auto [it, fresh] = style_of.emplace(name, style_of.size());
                if (fresh) names_in_order.push_back(name);
                json jc = {{"name", name}, {"style", it->second}};
                if (f.kind == Kind::Line) {
                    jc["x"] = numbers(c.x);
                    jc["y"] = numbers(c.y);
                } else {
                    jc["y"] = slice(numbers(c.y), at, size);
                }
                if (!c.x_err.empty()) jc["x_err"] = half_widths(c.x_err);
                if (!c.y_err.empty())
                    jc["y_err"] = f.kind == Kind::Line ? half_widths(c.y_err)
                                                       : slice(half_widths(c.y_err), at, size);
                curves.push_back(std::move(jc));
            }
            json jp = {{"title", group_sizes.size() > 1
                                     ? join({p.title, fmt::format("(groups {}-{} of {})", at + 1,
                                                                  at + size, f.groups.size())},
                                            " ")
                                     : p.title},
                       {"axes", p.axes},
                       {"curves", std::move(curves)}};
            if (f.kind == Kind::Bar) jp["groups"] = slice(f.groups, at, size);
            jpanels.push_back(std::move(jp));
        }
    std::vector<std::string> common_text;
    for (const auto& v : common)
        if (!v.empty()) common_text.push_back(v);
    json spec = {{"schema", "ibrt-plot/1"},
                 {"kind", f.kind == Kind::Bar ? "bar" : "line"},
                 {"title", f.title},
                 {"common", common_text},
                 {"x_label", f.x_label},
                 {"y_label", f.y_label},
                 {"legend_title", join(legend_keys, ", ")},
                 {"shared_legend", jpanels.size() > 1 && names_in_order.size() <= max_curves}};
    if (f.log_y && f.kind == Kind::Line) spec["log_y"] = true;
    if (f.kind == Kind::Bar) spec["groups"] = f.groups;
    spec["panels"] = std::move(jpanels);
    return spec;
}

std::string plot_format(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".svg") return "svg";
    if (ext == ".png") return "png";
    return {};
}

void render(json spec, const std::vector<std::string>& paths) {
    std::string files;
    for (const auto& p : paths) files += (files.empty() ? "" : ", ") + p;
    const auto fail = [&](const std::string& cause) {
        return PlotError(fmt::format("cannot write {}: {}", files, cause));
    };
    std::vector<std::pair<std::string, std::string>> temporaries; // (temporary, the file)
    spec["outputs"] = json::array();
    for (const auto& p : paths) {
        const std::string format = plot_format(p);
        if (format.empty()) throw fail("a plot's file name ends in .svg or .png");
        temporaries.emplace_back(temporary_beside(p), p);
        spec["outputs"].push_back({{"path", temporaries.back().first}, {"format", format}});
    }
    const char* env_python = std::getenv("IBRT_PYTHON");
    const std::string python = env_python && *env_python ? env_python : "/usr/bin/python3";

    std::string spec_path, err_path;
    const int spec_fd = temporary_file("spec", spec_path);
    const std::string text = spec.dump();
    const bool written = ::write(spec_fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(spec_fd);
    int err_fd = -1;
    const auto cleanup = [&](bool outputs) {
        std::remove(spec_path.c_str());
        if (!err_path.empty()) std::remove(err_path.c_str());
        if (outputs)
            for (const auto& t : temporaries) std::remove(t.first.c_str());
    };
    if (!written) {
        cleanup(false);
        throw fail(fmt::format("cannot write the spec to {}", spec_path));
    }
    try {
        err_fd = temporary_file("stderr", err_path);
    } catch (...) {
        cleanup(false);
        throw;
    }

    // The child: stdin from /dev/null, stdout and stderr into err_path, MPLBACKEND=Agg.
    std::vector<std::string> env_text;
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, "MPLBACKEND=", 11) != 0) env_text.emplace_back(*e);
    env_text.emplace_back("MPLBACKEND=Agg");
    std::vector<char*> envp;
    for (auto& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string arg0 = python, arg1 = "-c", arg2 = kRenderScript, arg3 = spec_path;
    char* argv[] = {arg0.data(), arg1.data(), arg2.data(), arg3.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, python.c_str(), &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(err_fd);
    if (rc != 0) {
        cleanup(true);
        throw fail(fmt::format("cannot run {}: {} (install python3-matplotlib, or set "
                               "IBRT_PYTHON to a python3 that has matplotlib)",
                               python, std::strerror(rc)));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    const std::string err = last_line(read_text(err_path));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        cleanup(true);
        if (WIFSIGNALED(status))
            throw fail(fmt::format("{} was killed by signal {}", python, WTERMSIG(status)));
        if (WEXITSTATUS(status) == 3)
            throw fail(fmt::format("{} has no matplotlib: install python3-matplotlib "
                                   "(scripts/install-deps.sh), or set IBRT_PYTHON to a python3 "
                                   "that has it ({})",
                                   python, err));
        throw fail(fmt::format("the plotting script failed ({} exit {}): {}", python,
                               WEXITSTATUS(status), err.empty() ? "no message" : err));
    }
    cleanup(false);
    for (const auto& [tmp, dest] : temporaries)
        if (std::rename(tmp.c_str(), dest.c_str()) != 0) {
            const std::string why = std::strerror(errno);
            cleanup(true);
            throw PlotError(fmt::format("cannot write {}: {}", dest, why));
        }
}

void write_plot(const Figure& f, const std::string& path) {
    render(plot_spec(f), {path});
}

} // namespace ibrt::plot
