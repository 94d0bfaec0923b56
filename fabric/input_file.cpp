// Reading an input file within bounds; see input_file.hpp.
#include "fabric/input_file.hpp"

#include "fabric/input_error.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <istream>
#include <sys/stat.h>

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
                                 "fabric/input_file.hpp)",
                                 format_byte_limit(max_bytes), what));
}

class File {
  public:
    explicit File(std::FILE* f) : f_(f) {}
    ~File() {
        if (f_) std::fclose(f_);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    std::FILE* get() const { return f_; }

  private:
    std::FILE* f_;
};

} // namespace

std::string format_byte_limit(std::uint64_t bytes) {
    if (bytes >= (std::uint64_t(1) << 30) && bytes % (std::uint64_t(1) << 30) == 0)
        return fmt::format("{} GiB", bytes >> 30);
    if (bytes >= (std::uint64_t(1) << 20) && bytes % (std::uint64_t(1) << 20) == 0)
        return fmt::format("{} MiB", bytes >> 20);
    return fmt::format("{} bytes", bytes);
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes, const char* what) {
    // stat before open: opening a FIFO blocks until a writer appears.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) refuse(path, st.st_mode);
    const File f(std::fopen(path.c_str(), "rb"));
    if (!f.get()) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    if (::fstat(::fileno(f.get()), &st) != 0 || !S_ISREG(st.st_mode)) // replaced meanwhile
        refuse(path, st.st_mode);
    if (std::uint64_t(st.st_size) > max_bytes) too_large(path, max_bytes, what);
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    text.resize(std::fread(text.data(), 1, text.size(), f.get()));
    // The file may have grown since fstat: read on, within the limit.
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
        if (text.size() + n > max_bytes) too_large(path, max_bytes, what);
        text.append(buf, n);
    }
    if (std::ferror(f.get()))
        throw InputError(path, 0, std::string("cannot read: ") + std::strerror(errno));
    return text;
}

std::string read_input_stream(std::istream& in, const std::string& source, std::uint64_t max_bytes,
                              const char* what) {
    std::string text;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        const auto n = static_cast<std::size_t>(in.gcount());
        if (text.size() + n > max_bytes) too_large(source, max_bytes, what);
        text.append(buf, n);
    }
    return text;
}

} // namespace ibrt
