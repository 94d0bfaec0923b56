// Opening an input file: the one place that decides what a reader will read. Every reader
// (ibnetdiscover topologies and their `include` files, opensm-subnet.lst, guid2lid, LFT and
// SL2VL dumps, path selection) takes its input through InputChunks, so that all of them
//   - refuse what is not a regular file, naming what it is: a directory (which otherwise
//     fails with "Input/output error"), a device such as /dev/zero (which never ends) or
//     /dev/null, a FIFO or a socket (which may block or never end);
//   - stop at a size limit instead of consuming memory without bound, and say the limit.
// The limits are generous and documented here. A topology of the largest subnet (49,151
// unicast LIDs) in ibnetdiscover format is well under 100 MB; so is its guid2lid. The
// per-switch tables are the large inputs: the opensm-lfts.dump of FT(36,3) at LMC 2 (1,620
// switches x 48,276 LIDs) is about 6.6 GB and its path selection (11,664^2 lines) about 6 GB.
// Those are never held whole: the table readers take them a chunk at a time (InputChunks, read
// line by line through table_text::Lines), so replaying tables from files costs about what
// the tables cost in memory, not what their text costs on disk.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <memory>
#include <string>

namespace ibrt {

// Topologies (ibnetdiscover and each file it includes, subnet.lst) and guid2lid files.
inline constexpr std::uint64_t kMaxTopologyBytes = std::uint64_t(1) << 30; // 1 GiB
// Per-switch and per-pair tables: LFT and SL2VL dumps, path selection.
inline constexpr std::uint64_t kMaxTableBytes = std::uint64_t(64) << 30; // 64 GiB

// An input read a chunk at a time: a regular file (opened with the checks below) or a stream.
// The file name "-" is standard input (copied once to a temporary file, so that it can be read
// more than once; one input of a command at most), named "-" in messages.
// Throws InputError(source, 0, ...) when the file cannot be opened or read, is not a regular
// file, or holds more than `max_bytes`; `what` names the kind of input in the size message
// ("topology", "LFT dump", ...).
class InputChunks {
  public:
    // What one read_more appends at most. Reads go through a buffer of this size (less for a
    // smaller file) and are appended, so a small input costs its size, not a chunk: the fuzz
    // targets read thousands of small inputs a second.
    static constexpr std::size_t kChunkBytes = std::size_t(1) << 16;

    InputChunks(const std::string& path, std::uint64_t max_bytes, const char* what);
    InputChunks(std::istream& in, const std::string& source, std::uint64_t max_bytes,
                const char* what);
    ~InputChunks();
    InputChunks(const InputChunks&) = delete;
    InputChunks& operator=(const InputChunks&) = delete;

    // Appends up to kChunkBytes to `buf`; false (nothing appended) at the end of the input.
    bool read_more(std::string& buf);
    const std::string& source() const { return source_; }

    // The file's size when opened (0 for a stream): what read_input_file reserves.
    std::uint64_t size_hint() const { return size_hint_; }

  private:
    std::unique_ptr<char[]> chunk_;
    std::size_t chunk_size_ = kChunkBytes;
    std::uint64_t size_hint_ = 0;
    std::FILE* file_ = nullptr;
    std::istream* stream_ = nullptr;
    std::string source_;
    std::uint64_t max_bytes_, read_ = 0;
    const char* what_;
};

// The whole content of the regular file `path`. Throws InputError(path, 0, ...) when it
// cannot be opened, is not a regular file, or holds more than `max_bytes`. `what` names the
// kind of input in the size message ("topology", "LFT dump", ...).
std::string read_input_file(const std::string& path, std::uint64_t max_bytes, const char* what);

// The same bound for a stream (the readers' istream entry points): throws InputError(source,
// 0, ...) after `max_bytes`.
std::string read_input_stream(std::istream& in, const std::string& source, std::uint64_t max_bytes,
                              const char* what);

// "1 GiB", "64 GiB", "512 MiB", "1000 bytes": a limit as the messages print it.
std::string format_byte_limit(std::uint64_t bytes);

} // namespace ibrt
