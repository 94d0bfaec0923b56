// Replay driver for the fuzz targets when libFuzzer is not in use: feeds every regular file
// under the given paths (recursively) to LLVMFuzzerTestOneInput, plus every prefix-truncation
// of each file at 64 points, so ctest exercises the targets on real inputs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::size_t runs = 0;
    auto feed = [&](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::vector<std::uint8_t> buf((std::istreambuf_iterator<char>(in)), {});
        LLVMFuzzerTestOneInput(buf.data(), buf.size());
        ++runs;
        for (std::size_t k = 1; k < 64 && buf.size() > 1; ++k) {
            LLVMFuzzerTestOneInput(buf.data(), buf.size() * k / 64);
            ++runs;
        }
    };
    for (int i = 1; i < argc; ++i) {
        fs::path root(argv[i]);
        if (fs::is_regular_file(root)) {
            feed(root);
            continue;
        }
        for (const auto& e : fs::recursive_directory_iterator(root))
            if (e.is_regular_file()) feed(e.path());
    }
    std::printf("replayed %zu inputs\n", runs);
    return 0;
}
