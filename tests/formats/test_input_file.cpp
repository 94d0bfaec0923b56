// read_input_file (formats/input_file.hpp), the one way every reader opens its input (issue 19
// "Unbounded reads", issue 12 "Other bad inputs"): only regular files, within a size limit
// that the message states, and the readers built on it: `include "/dev/zero"`, an empty
// topology, binary bytes in messages.
#include "fabric/input_error.hpp"
#include "fabric/printable.hpp"
#include "formats/guid2lid.hpp"
#include "formats/ibnetdiscover.hpp"
#include "formats/input_file.hpp"
#include "formats/lft_dump.hpp"
#include "formats/path_selection.hpp"
#include "formats/path_sl_file.hpp"
#include "formats/sl2vl_dump.hpp"
#include "formats/subnet_lst_reader.hpp"
#include "formats/table_text.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace ibrt;
namespace fs = std::filesystem;

namespace {

// A scratch directory removed at the end of the test.
struct Scratch {
    fs::path dir;
    Scratch() {
        char tmpl[] = "/tmp/ibrt-input-file-XXXXXX";
        REQUIRE(::mkdtemp(tmpl) != nullptr);
        dir = tmpl;
    }
    ~Scratch() { fs::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name, std::ios::binary) << text;
        return (dir / name).string();
    }
};

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "ok";
}

const std::string kNotRegular = "not a regular file (ibrt reads inputs only from regular files)";

} // namespace

TEST_CASE("read_input_file reads a regular file whole") {
    Scratch s;
    std::string text(200000, 'x');
    text[12345] = '\0';
    const std::string p = s.write("f", text);
    CHECK(read_input_file(p, 1 << 20, "test") == text);
    CHECK(read_input_file(s.write("empty", ""), 10, "test").empty());
}

TEST_CASE("read_input_file refuses directories, devices and FIFOs, naming what they are") {
    Scratch s;
    const std::string dir = s.dir.string();
    CHECK(error_of([&] { read_input_file(dir, 1 << 20, "test"); }) ==
          dir + ": is a directory, " + kNotRegular);
    CHECK(error_of([&] { read_input_file("/dev/zero", 1 << 20, "test"); }) ==
          "/dev/zero: is a character device, " + kNotRegular);
    CHECK(error_of([&] { read_input_file("/dev/null", 1 << 20, "test"); }) ==
          "/dev/null: is a character device, " + kNotRegular);
    const std::string fifo = (s.dir / "fifo").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Opening a FIFO without a writer would block: the check comes before open().
    CHECK(error_of([&] { read_input_file(fifo, 1 << 20, "test"); }) ==
          fifo + ": is a pipe (FIFO), " + kNotRegular);
    CHECK(error_of([&] { read_input_file(dir + "/nope", 1 << 20, "test"); }) ==
          dir + "/nope: cannot open: No such file or directory");
}

TEST_CASE("read_input_file and read_input_stream stop at the limit and say it") {
    Scratch s;
    const std::string p = s.write("big", std::string(2 << 20, 'x'));
    CHECK(
        error_of([&] { read_input_file(p, 1 << 20, "LFT dump"); }) ==
        p + ": larger than the 1 MiB limit for a LFT dump (kMax*Bytes in formats/input_file.hpp)");
    CHECK(read_input_file(p, 2 << 20, "LFT dump").size() == (2u << 20));
    std::istringstream in(std::string(5000, 'y'));
    CHECK(error_of([&] { read_input_stream(in, "s", 4096, "topology file"); }) ==
          "s: larger than the 4096 bytes limit for a topology file (kMax*Bytes in "
          "formats/input_file.hpp)");
    CHECK(format_byte_limit(kMaxTopologyBytes) == "1 GiB");
    CHECK(format_byte_limit(kMaxTableBytes) == "64 GiB");
}

TEST_CASE("every reader refuses /dev/zero and a directory instead of reading without end") {
    Scratch s;
    const std::string dir = s.dir.string();
    const std::vector<std::pair<const char*, std::function<void(const std::string&)>>> readers = {
        {"ibnetdiscover", [](const std::string& p) { read_ibnetdiscover_file(p); }},
        {"subnet.lst", [](const std::string& p) { read_subnet_lst_file(p); }},
        {"guid2lid", [](const std::string& p) { read_guid2lid_file(p); }},
        {"lft dump", [](const std::string& p) { read_lft_dump_file(p); }},
        {"sl2vl dump", [](const std::string& p) { read_sl2vl_dump_file(p); }},
        {"path selection",
         [](const std::string& p) { load_path_selection_file(p, Fabric{}, Lids{}); }},
        {"path SL", [](const std::string& p) { load_path_sl_file(p, Fabric{}, Lids{}); }},
    };
    for (const auto& [name, read] : readers) {
        INFO(name);
        CHECK(error_of([&] { read("/dev/zero"); }) ==
              "/dev/zero: is a character device, " + kNotRegular);
        CHECK(error_of([&] { read(dir); }) == dir + ": is a directory, " + kNotRegular);
    }
}

TEST_CASE("an include of /dev/zero or a directory fails at the include line") {
    Scratch s;
    const std::string top = s.write("top.net", "# a comment\ninclude \"/dev/zero\"\n");
    CHECK(error_of([&] { read_ibnetdiscover_file(top); }) ==
          top + ":2: include file \"/dev/zero\": is a character device, " + kNotRegular);
    fs::create_directory(s.dir / "sub");
    const std::string top2 = s.write("top2.net", "include \"sub\"\n");
    CHECK(error_of([&] { read_ibnetdiscover_file(top2); }) ==
          top2 + ":1: include file \"" + (s.dir / "sub").string() + "\": is a directory, " +
              kNotRegular);
}

TEST_CASE("a topology without nodes is an error, not an empty fabric") {
    Scratch s;
    const std::string empty = s.write("empty.net", "");
    CHECK(error_of([&] { read_ibnetdiscover_file(empty); }) ==
          empty + ": no nodes: the file has no Switch, Ca or Rt record (is it an ibnetdiscover "
                  "topology?)");
    const std::string comments = s.write("comments.net", "# nothing\n\n#\n");
    CHECK(error_of([&] { read_ibnetdiscover_file(comments); }).find(": no nodes: ") !=
          std::string::npos);
    const std::string lst = s.write("subnet.lst", "\n");
    CHECK(error_of([&] { read_subnet_lst_file(lst); }) ==
          lst + ": no nodes: the file has no node line (is it an opensm-subnet.lst?)");
}

TEST_CASE("binary bytes are never echoed raw in a reader's message") {
    std::string bin = "\x7f"
                      "ELF\x02\x01\x1b[31m\xff\xfe";
    bin += '\0';
    bin += "\n";
    std::istringstream in(bin);
    const std::string msg = error_of([&] { read_ibnetdiscover(in, "bin"); });
    CHECK(msg == "bin:1: unrecognised line \"\\x7fELF\\x02\\x01\\x1b[31m\\xff\\xfe\\x00\"");
    for (char c : msg) CHECK((c >= 0x20 && c < 0x7f));
}

TEST_CASE("printable escapes controls and invalid UTF-8 but keeps valid UTF-8") {
    CHECK(printable("plain text\twith tab\n") == "plain text\twith tab\n");
    CHECK(printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"); // é → 😀
    CHECK(printable(std::string("a\0b", 3)) == "a\\x00b");
    CHECK(printable("\x1b]0;title\x07") == "\\x1b]0;title\\x07");
    CHECK(printable("\xc2\x9b") == "\\xc2\\x9b");          // C1 control CSI
    CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");          // overlong '/'
    CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80"); // UTF-16 surrogate
    CHECK(printable("\xe2\x86") == "\\xe2\\x86");          // cut sequence
    CHECK(printable("\x7f") == "\\x7f");
    CHECK(std::string(InputError("f\x01", 3, "bad \xff").what()) == "f\\x01:3: bad \\xff");
}

namespace {

std::vector<std::string> all_lines(table_text::Lines& lines) {
    std::vector<std::string> out;
    std::string_view l;
    while (lines.next(l)) out.emplace_back(l);
    return out;
}

} // namespace

TEST_CASE("streamed lines are the lines of the whole text, across chunk boundaries") {
    // Lines shorter and longer than a chunk, one ending exactly at a chunk boundary, blank
    // lines, CRs, and no newline at the end: what table readers meet in real dumps.
    const std::size_t chunk = InputChunks::kChunkBytes;
    std::string text;
    for (int i = 0; i < 5000; ++i) text += "0x" + std::to_string(i) + " 001\r\n\n";
    text += std::string(chunk + 123, 'x') + "\n";
    text += std::string(2 * chunk - text.size() - 1, 'y') + "\n"; // ends at the boundary
    text += "\n\nlast line, no newline";
    Scratch s;
    const std::string p = s.write("t", text);
    InputChunks in(p, kMaxTableBytes, "test");
    table_text::Lines streamed(in);
    table_text::Lines whole(text);
    const auto a = all_lines(streamed), b = all_lines(whole);
    CHECK(a.size() == 5000 * 2 + 5);
    CHECK(a == b);
    CHECK(streamed.line_no() == whole.line_no());
}

TEST_CASE("a streamed table reader stops at the limit, and streams from std::istream too") {
    std::string dump = "Unicast lids [0x0-0x1] of switch Lid 1 guid 0x0000000000000001 ('s'):\n"
                       "0x0001 000 : (Switch portguid 0x0000000000000001: 's')\n"
                       "1 lids dumped \n";
    std::istringstream in(dump);
    const LftDump d = read_lft_dump(in, "s");
    REQUIRE(d.switches.size() == 1);
    CHECK(d.switches[0].lft.at(1) == 0);
    std::istringstream big(std::string(3 * InputChunks::kChunkBytes, '#'));
    InputChunks chunks(big, "big", 2 * InputChunks::kChunkBytes, "LFT dump");
    table_text::Lines lines(chunks);
    CHECK(
        error_of([&] { all_lines(lines); }).starts_with("big: larger than the 131072 bytes limit"));
}
