// Files in unit tests: a whole file as a string, and a fresh directory under the temporary
// directory. The names carry the suite's prefix (`fresh_dir("sweep-j1")`), so test programs run
// in parallel by ctest never share one.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ibrt::test {

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// temp/ibrt-test-NAME, emptied and created.
inline std::filesystem::path fresh_dir(const std::string& name) {
    const std::filesystem::path d = std::filesystem::temp_directory_path() / ("ibrt-test-" + name);
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

} // namespace ibrt::test
