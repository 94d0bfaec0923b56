// The table of routing engines. Engines live in static libraries, so self-registration by
// static objects would be dropped by the linker; each engine unit instead exports one factory
// and gets one line here.
#include "engines/engine.hpp"

#include <array>

namespace ibrt {

std::unique_ptr<Engine> make_mlid_engine();           // engines/mlid: paper 000 §4
std::unique_ptr<Engine> make_slid_engine();           // engines/slid: paper 000 §5 baseline
std::unique_ptr<Engine> make_separate_engine();       // engines/separate: paper 001 §VI.D
std::unique_ptr<Engine> make_flatfly_engine();        // engines/flatfly: paper 003 §3.3-3.4
std::unique_ptr<Engine> make_dragonfly_engine();      // engines/dragonfly: paper 003 §3.5
std::unique_ptr<Engine> make_torus_engine();          // engines/torus: paper 003 §3.2
std::unique_ptr<Engine> make_slimfly_engine();        // engines/slimfly: paper 003 §3.6
std::unique_ptr<Engine> make_dragonfly_plus_engine(); // engines/dragonfly_plus: issue 37

namespace {
struct EngineEntry {
    std::string_view name;
    std::unique_ptr<Engine> (*make)();
};
constexpr std::array kEngines{
    EngineEntry{"mlid", &make_mlid_engine},
    EngineEntry{"slid", &make_slid_engine},
    EngineEntry{"separate", &make_separate_engine},
    EngineEntry{"flatfly", &make_flatfly_engine},
    EngineEntry{"dragonfly", &make_dragonfly_engine},
    EngineEntry{"torus", &make_torus_engine},
    EngineEntry{"slimfly", &make_slimfly_engine},
    EngineEntry{"dragonfly-plus", &make_dragonfly_plus_engine},
};
} // namespace

std::unique_ptr<Engine> make_engine(std::string_view name) {
    for (const auto& e : kEngines)
        if (e.name == name) return e.make();
    return nullptr;
}

std::vector<std::string> engine_names() {
    std::vector<std::string> names;
    for (const auto& e : kEngines) names.emplace_back(e.name);
    return names;
}

} // namespace ibrt
