// Bad input never crashes the topology readers: every sample (and a written fabric) cut at
// many points and mutated deterministically (byte flips, deleted, duplicated and swapped
// lines) either parses or throws InputError whose message is `source:line: problem` with a
// real line number. Covers read_ibnetdiscover and read_subnet_lst.
#include "fabric/input_error.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/subnet_lst_reader.hpp"
#include "test_ibnetdiscover_compare.hpp"

#include "tests/test_files.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

using namespace ibrt;

namespace {

const std::string kSamples = std::string(IBRT_SOURCE_DIR) + "/test-fabrics/samples/";

// Deterministic generator (splitmix64) so every run mutates the same way.
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return n ? next() % n : 0; }
};

std::vector<std::string> split_lines(const std::string& t) {
    std::vector<std::string> v;
    std::size_t pos = 0;
    while (pos < t.size()) {
        std::size_t e = t.find('\n', pos);
        if (e == std::string::npos) e = t.size();
        v.push_back(t.substr(pos, e - pos));
        pos = e + 1;
    }
    return v;
}

std::string join_lines(const std::vector<std::string>& v) {
    std::string t;
    for (const auto& l : v) t += l + "\n";
    return t;
}

// Every variant of `text` this test feeds to a reader.
std::vector<std::string> variants(const std::string& text, std::uint64_t seed) {
    std::vector<std::string> out;
    for (std::size_t k = 1; k < 97; ++k) out.push_back(text.substr(0, text.size() * k / 97));
    for (std::size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p + 1))
        out.push_back(text.substr(0, p)); // cut right before each newline
    Rng rng{seed};
    static const char interesting[] = {'"', '[',  ']', '(', ')', '#',  '\n',   '\r', '0', '9', 'x',
                                       ' ', '\t', '=', '+', '@', '\0', '\xff', '-',  '{', '}', ':'};
    for (int i = 0; i < 300 && !text.empty(); ++i) {
        std::string t = text;
        const int flips = 1 + static_cast<int>(rng.below(3));
        for (int j = 0; j < flips; ++j) {
            const std::size_t at = rng.below(t.size());
            t[at] = rng.below(2) ? interesting[rng.below(sizeof interesting)]
                                 : static_cast<char>(rng.below(256));
        }
        out.push_back(std::move(t));
    }
    const std::vector<std::string> lines = split_lines(text);
    for (int i = 0; i < 100 && !lines.empty(); ++i) {
        std::vector<std::string> v = lines;
        const std::size_t a = rng.below(v.size()), b = rng.below(v.size());
        switch (i % 3) {
        case 0:
            v.erase(v.begin() + static_cast<std::ptrdiff_t>(a));
            break;
        case 1:
            v.insert(v.begin() + static_cast<std::ptrdiff_t>(b), v[a]);
            break;
        default:
            std::swap(v[a], v[b]);
            break;
        }
        out.push_back(join_lines(v));
    }
    return out;
}

// "source:N: problem" with N >= 1, or "source: no nodes..." for a variant cut before its first
// node (a file without nodes is refused as a whole).
bool located(const std::string& msg, const std::string& source) {
    if (msg.rfind(source + ": no nodes: ", 0) == 0) return true;
    std::size_t pos;
    if (msg.rfind(source + ":", 0) == 0) {
        pos = source.size() + 1;
    } else if (msg.rfind(kSamples, 0) == 0) { // inside a file the mutated text included
        pos = msg.find(':');
        if (pos == std::string::npos) return false;
        ++pos;
    } else {
        return false;
    }
    std::size_t digits = 0;
    while (pos + digits < msg.size() && std::isdigit(static_cast<unsigned char>(msg[pos + digits])))
        ++digits;
    if (digits == 0 || msg.compare(pos + digits, 2, ": ") != 0) return false;
    return std::stoi(msg.substr(pos, digits)) >= 1;
}

struct Tally {
    int parsed = 0, rejected = 0;
};

void hammer(const std::string& text, const std::string& source, std::uint64_t seed,
            const std::function<void(const std::string&)>& read, Tally& tally) {
    for (const std::string& v : variants(text, seed)) {
        try {
            read(v);
            ++tally.parsed;
        } catch (const InputError& e) {
            ++tally.rejected;
            if (!located(e.what(), source)) {
                INFO("input:\n" << v);
                FAIL("error without source:line: " << e.what());
            }
        }
    }
}

} // namespace

TEST_CASE("truncated and mutated topology files parse or fail with file:line") {
    Tally tally;
    std::uint64_t seed = 1;
    std::vector<std::pair<std::string, std::string>> inputs; // name, text
    for (const auto& e : std::filesystem::directory_iterator(kSamples)) {
        const std::string ext = e.path().extension().string();
        if (ext == ".topo" || ext == ".net" || ext == ".inc")
            inputs.emplace_back(e.path().filename().string(), test::slurp(e.path().string()));
    }
    {
        std::ostringstream out;
        write_ibnetdiscover(out, test::make_fat_tree(3, 3, 2, 8, 8));
        inputs.emplace_back("written.topo", out.str());
    }
    REQUIRE(inputs.size() == 9);
    for (const auto& [name, text] : inputs) {
        INFO(name);
        hammer(
            text, name, seed++,
            [&, n = name](const std::string& v) {
                std::istringstream in(v);
                (void)read_ibnetdiscover(in, n, kSamples);
            },
            tally);
    }
    // The mutations must exercise both outcomes.
    CHECK(tally.parsed > 100);
    CHECK(tally.rejected > 1000);
}

TEST_CASE("truncated and mutated opensm-subnet.lst files parse or fail with file:line") {
    Tally tally;
    const std::string name = "ibsim-2sw2path4hca.opensm-subnet.lst";
    hammer(
        test::slurp(kSamples + name), name, 99,
        [&](const std::string& v) {
            std::istringstream in(v);
            (void)read_subnet_lst(in, name);
        },
        tally);
    CHECK(tally.parsed > 20);
    CHECK(tally.rejected > 300);
}
