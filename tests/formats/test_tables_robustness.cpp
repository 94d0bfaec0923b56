// Robustness of the table readers: every sample under test-fabrics/tables/ is truncated at
// every line boundary and at a stride of byte offsets, and mutated deterministically (fixed
// seed: byte flips to format-relevant characters, deletions, duplicated, swapped and dropped
// lines). Each variant must either parse or throw InputError whose message starts with
// `source:line: ` for a line inside the input; any other exception or a crash fails. Inputs
// that parse and bind to the sample fabric must also survive write -> read -> bind.
#include "fabric/input_error.hpp"
#include "formats/guid2lid.hpp"
#include "formats/lft_dump.hpp"
#include "formats/path_sl_file.hpp"
#include "formats/sl2vl_dump.hpp"
#include "tables_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>

using namespace ibrt;
using ibrt::test::read_text;
using ibrt::test::sample_fabric;
using ibrt::test::tables_dir;

namespace {

enum class Kind { Lft, Guid2Lid, Sl2Vl, PathSl };

struct Tally {
    std::size_t parsed = 0, rejected = 0, bound = 0;
};

int count_lines(std::string_view s) {
    return static_cast<int>(std::count(s.begin(), s.end(), '\n')) + 1;
}

// Parses `text` with the reader of `kind`; on success binds it to the router fabric and, when
// that works too, checks that the writer's output reads and binds back.
void exercise(Kind kind, const std::string& text, const std::string& source, Tally& t) {
    static const Fabric f = sample_fabric(true);
    try {
        switch (kind) {
        case Kind::Lft: {
            const LftDump d = read_lft_dump_text(text, source);
            ++t.parsed;
            Routing r;
            r.lft = bind_lft_dump(d, f, source);
            r.lids = Lids(f);
            Lid next = 1;
            for (PortId p = 0; p < f.num_port_slots(); ++p) {
                const Node& n = f.node(f.port_node(p));
                if ((n.is_switch() && f.port_num(p) == 0) || (!n.is_switch() && f.port_num(p) > 0))
                    r.lids.assign(p, next++, 0);
            }
            for (NodeId sw : f.switches())
                r.lft[sw].resize(std::size_t(r.lids.max_lid()) + 1, kNoPath);
            std::ostringstream out;
            write_lft_dump(out, f, r);
            REQUIRE(bind_lft_dump(read_lft_dump_text(out.str(), "w"), f, "w") == r.lft);
            break;
        }
        case Kind::Guid2Lid: {
            const auto e = read_guid2lid_text(text, source);
            ++t.parsed;
            const Lids lids = bind_guid2lid(e, f, source);
            std::ostringstream out;
            write_guid2lid(out, f, lids);
            const Lids back = bind_guid2lid(read_guid2lid_text(out.str(), "w"), f, "w");
            for (PortId p = 0; p < f.num_port_slots(); ++p) {
                REQUIRE(back.base(p) == lids.base(p));
                REQUIRE(back.lmc(p) == lids.lmc(p));
            }
            break;
        }
        case Kind::Sl2Vl: {
            const Sl2VlDump d = read_sl2vl_dump_text(text, source);
            ++t.parsed;
            Routing r;
            r.sl2vl = bind_sl2vl_dump(d, f, source);
            std::ostringstream once, twice;
            write_sl2vl_dump(once, f, r);
            r.sl2vl = bind_sl2vl_dump(read_sl2vl_dump_text(once.str(), "w"), f, "w");
            write_sl2vl_dump(twice, f, r);
            REQUIRE(twice.str() == once.str()); // the writer's output is a fixed point
            break;
        }
        case Kind::PathSl: {
            static const std::string g2l = tables_dir() + "ft-lmc1.guid2lid";
            static const Lids lids = bind_guid2lid(read_guid2lid_file(g2l), f, g2l);
            const auto e = read_path_sl_text(text, source);
            ++t.parsed;
            Routing r;
            r.lids = lids;
            r.path_sls = bind_path_sl(e, f, lids, source);
            std::ostringstream once, twice;
            write_path_sl(once, f, r);
            r.path_sls = bind_path_sl(read_path_sl_text(once.str(), "w"), f, lids, "w");
            write_path_sl(twice, f, r);
            REQUIRE(twice.str() == once.str()); // the writer's output is a fixed point
            break;
        }
        }
        ++t.bound;
    } catch (const InputError& e) {
        // Reader or binder rejected the input; an error from the re-read ("w") would be a
        // writer bug and fails here.
        INFO(e.what());
        REQUIRE(e.file() == source);
        ++t.rejected;
        REQUIRE(e.line() >= 1);
        REQUIRE(e.line() <= count_lines(text));
        const std::string prefix = source + ":" + std::to_string(e.line()) + ": ";
        REQUIRE(std::string_view(e.what()).substr(0, prefix.size()) == prefix);
    }
}

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t nl = s.find('\n', start);
        if (nl == std::string::npos) {
            if (start < s.size()) out.push_back(s.substr(start));
            break;
        }
        out.push_back(s.substr(start, nl - start));
        start = nl + 1;
    }
    return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

std::string mutate(const std::string& in, std::mt19937& rng) {
    static const std::string kChars = "0123456789abcdefxX :,#-'\"()[]\n\t\r\x01\xff";
    std::string s = in;
    auto pick = [&](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    if (s.empty()) return std::string(1, kChars[pick(kChars.size())]);
    switch (pick(6)) {
    case 0:
        s[pick(s.size())] = kChars[pick(kChars.size())];
        break;
    case 1:
        s.erase(pick(s.size()), 1 + pick(4));
        break;
    case 2:
        s.insert(pick(s.size()), 1, kChars[pick(kChars.size())]);
        break;
    default: {
        auto lines = split_lines(s);
        if (lines.size() < 2) break;
        const std::size_t a = pick(lines.size()), b = pick(lines.size());
        switch (pick(3)) {
        case 0:
            lines.insert(lines.begin() + std::ptrdiff_t(a), lines[b]);
            break;
        case 1:
            std::swap(lines[a], lines[b]);
            break;
        default:
            lines.erase(lines.begin() + std::ptrdiff_t(a));
            break;
        }
        s = join_lines(lines);
    }
    }
    return s;
}

std::optional<Kind> kind_of(const std::string& name) {
    if (name.find("sl2vl") != std::string::npos) return Kind::Sl2Vl;
    if (name.find("guid2lid") != std::string::npos) return Kind::Guid2Lid;
    if (name.find("path-sl") != std::string::npos) return Kind::PathSl;
    if (name.find("lfts") != std::string::npos || name.find("dump_fts") != std::string::npos ||
        name.find("ibroute") != std::string::npos || name.find("fdbs") != std::string::npos)
        return Kind::Lft;
    return std::nullopt;
}

} // namespace

TEST_CASE("every table sample survives truncation and mutation", "[tables][robustness]") {
    namespace fs = std::filesystem;
    std::vector<fs::path> samples;
    for (const auto& e : fs::directory_iterator(tables_dir()))
        if (e.is_regular_file() && kind_of(e.path().filename().string()))
            samples.push_back(e.path());
    std::sort(samples.begin(), samples.end());
    REQUIRE(samples.size() >= 19);

    Tally total;
    for (const fs::path& path : samples) {
        const std::string name = path.filename().string();
        const Kind kind = *kind_of(name);
        const std::string text = read_text(path.string());
        INFO(name);
        Tally t;
        exercise(kind, text, name, t);
        REQUIRE(t.parsed == 1); // every sample is valid as captured
        REQUIRE(t.rejected == 0);

        for (std::size_t cut = 0; cut < text.size(); ++cut)
            if (text[cut] == '\n' || cut % 13 == 0) exercise(kind, text.substr(0, cut), name, t);

        std::mt19937 rng(0x1b7 + static_cast<unsigned>(name.size()));
        for (int i = 0; i < 300; ++i) {
            std::string m = mutate(text, rng);
            if (i % 3 == 0) m = mutate(m, rng);
            exercise(kind, m, name, t);
        }
        CHECK(t.rejected > 0); // the mutations do reach the error paths
        total.parsed += t.parsed;
        total.rejected += t.rejected;
        total.bound += t.bound;
    }
    CHECK(total.parsed > total.bound);
    CHECK(total.bound > 0);
}
