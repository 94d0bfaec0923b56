// Fuzz target for the path-selection reader (formats/path_selection.hpp): any input must parse
// or throw ibrt::InputError. What parses and binds to FT(4,2) with the LIDs `ibrt route`
// assigns there (LMC 1, CA i at base 2(i+1)) must come back with the same DLID choices
// through write_path_selection -> read -> bind; a difference aborts.
#include "fabric/input_error.hpp"
#include "formats/path_selection.hpp"
#include "generators/fat_tree.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace {

struct Subject {
    ibrt::Fabric fabric = ibrt::gen::fat_tree(4, 2);
    ibrt::Lids lids{fabric};
    Subject() {
        ibrt::Lid next = 2;
        for (ibrt::NodeId ca : fabric.cas()) {
            lids.assign(fabric.port_id(ca, 1), next, 1);
            next += 2;
        }
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    static const Subject s;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        Routing r;
        r.lids = s.lids;
        r.dlid_choice =
            bind_path_selection(read_path_selection(text, "fuzz"), s.fabric, s.lids, "fuzz");
        std::ostringstream out;
        write_path_selection(out, s.fabric, r);
        const auto back =
            bind_path_selection(read_path_selection(out.str(), "w"), s.fabric, s.lids, "w");
        if (back != r.dlid_choice) std::abort();
    } catch (const InputError& e) {
        if (e.file() != "fuzz") std::abort(); // the writer's own output must read back
    }
    return 0;
}
