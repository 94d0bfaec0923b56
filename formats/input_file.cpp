// Reading an input file within bounds; see input_file.hpp.
#include "formats/input_file.hpp"

#include "fabric/input_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <sys/stat.h>
#include <unistd.h>

namespace ibrt {
namespace {

// What a non-regular file is, for the message.
const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a pipe (FIFO)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

[[noreturn]] void refuse(const std::string& path, mode_t mode) {
    throw InputError(path, 0,
                     fmt::format("is {}, not a regular file (ibrt reads inputs only from regular "
                                 "files)",
                                 kind_of(mode)));
}

[[noreturn]] void too_large(const std::string& source, std::uint64_t max_bytes, const char* what) {
    throw InputError(source, 0,
                     fmt::format("larger than the {} limit for a {} (kMax*Bytes in "
                                 "formats/input_file.hpp)",
                                 format_byte_limit(max_bytes), what));
}

// Standard input ("-"), copied once into a temporary file that is removed at exit: readers
// may open an input more than once (the topology format is detected from the content first),
// which a pipe does not allow. The copy stops past the largest limit; each reader's own limit
// applies when it reads the copy.
class StdinCopy {
  public:
    ~StdinCopy() {
        if (!path_.empty()) std::remove(path_.c_str());
    }
    const std::string& path() {
        if (!path_.empty()) return path_;
        const char* dir = std::getenv("TMPDIR");
        std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/ibrt-stdin.XXXXXX";
        const int fd = ::mkstemp(tmpl.data());
        if (fd < 0)
            throw InputError("-", 0,
                             std::string("cannot copy standard input: ") + std::strerror(errno));
        path_ = tmpl;
        std::FILE* out = ::fdopen(fd, "wb");
        char buf[1 << 16];
        std::uint64_t total = 0;
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, stdin)) > 0;) {
            total += n;
            if (total > kMaxTableBytes || std::fwrite(buf, 1, n, out) != n) {
                std::fclose(out);
                throw InputError(
                    "-", 0,
                    total > kMaxTableBytes
                        ? "standard input is larger than " + format_byte_limit(kMaxTableBytes)
                        : std::string("cannot copy standard input: ") + std::strerror(errno));
            }
        }
        std::fclose(out);
        return path_;
    }

  private:
    std::string path_;
};

const std::string& stdin_copy() {
    static StdinCopy copy;
    return copy.path();
}

} // namespace

std::string format_byte_limit(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t(1) << 30) && bytes % (std::uint64_t(1) << 30) == 0)
        return fmt::format("{} GiB", bytes >> 30);
    if (bytes >= (std::uint64_t(1) << 20) && bytes % (std::uint64_t(1) << 20) == 0)
        return fmt::format("{} MiB", bytes >> 20);
    return fmt::format("{} bytes", bytes);
}

InputChunks::InputChunks(const std::string& name, std::uint64_t max_bytes, const char* what)
    : source_(name), max_bytes_(max_bytes), what_(what) {
    // "-": standard input, through its copy; messages still name "-".
    const std::string& path = name == "-" ? stdin_copy() : name;
    // stat before open: opening a FIFO blocks until a writer appears.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(source_, 0, std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) refuse(source_, st.st_mode);
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw InputError(source_, 0, std::string("cannot open: ") + std::strerror(errno));
    if (::fstat(::fileno(file_), &st) != 0 || !S_ISREG(st.st_mode)) { // replaced meanwhile
        std::fclose(file_);
        refuse(source_, st.st_mode);
    }
    if (std::uint64_t(st.st_size) > max_bytes) {
        std::fclose(file_);
        too_large(source_, max_bytes, what);
    }
    size_hint_ = std::uint64_t(st.st_size);
    // One more byte than the file holds: the first read then sees the end as well.
    chunk_size_ = std::size_t(std::min<std::uint64_t>(size_hint_ + 1, kChunkBytes));
}

InputChunks::InputChunks(std::istream& in, const std::string& source, std::uint64_t max_bytes,
                         const char* what)
    : stream_(&in), source_(source), max_bytes_(max_bytes), what_(what) {}

InputChunks::~InputChunks() {
    if (file_) std::fclose(file_);
}

bool InputChunks::read_more(std::string& buf) {
    if (!chunk_) chunk_.reset(new char[chunk_size_]); // not zeroed: only what is read is used
    std::size_t n = 0;
    if (file_) {
        n = std::fread(chunk_.get(), 1, chunk_size_, file_);
        if (n == 0 && std::ferror(file_))
            throw InputError(source_, 0, std::string("cannot read: ") + std::strerror(errno));
    } else {
        stream_->read(chunk_.get(), static_cast<std::streamsize>(chunk_size_));
        n = static_cast<std::size_t>(stream_->gcount());
    }
    // The file may have grown since it was opened: the limit holds for what is read.
    read_ += n;
    if (read_ > max_bytes_) too_large(source_, max_bytes_, what_);
    buf.append(chunk_.get(), n);
    return n > 0;
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes, const char* what) {
    InputChunks in(path, max_bytes, what);
    std::string text;
    text.reserve(std::size_t(in.size_hint()));
    while (in.read_more(text)) {
    }
    return text;
}

std::string read_input_stream(std::istream& in, const std::string& source, std::uint64_t max_bytes,
                              const char* what) {
    InputChunks chunks(in, source, max_bytes, what);
    std::string text;
    while (chunks.read_more(text)) {
    }
    return text;
}

} // namespace ibrt
