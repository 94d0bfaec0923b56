// The routing-engine interface: one engine per unit, chosen by name like opensm's
// `routing_engine` option. An engine computes LIDs (or honours preassigned ones), one LFT per
// switch and, for multipath engines, the DLID each source uses per destination.
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

struct EngineOptions {
    std::optional<int> lmc;  // nullopt = the engine chooses (auto)
    bool paper_lids = false; // paper 000 §4.1 numbering: BaseLID = 2^LMC * PID + 1 (unaligned)
    std::uint64_t seed = 1;
};

// The engine declines the fabric (not a fat tree, not enough LIDs, ...). The message says why;
// the opensm adapter logs it and lets opensm fall back to its next engine.
class RoutingError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class Engine {
  public:
    virtual ~Engine() = default;
    virtual std::string_view name() const = 0;
    // preassigned: LIDs to honour (e.g. what opensm assigned; not necessarily contiguous), or
    // nullptr to let the engine assign its own.
    virtual Routing route(const Fabric& f, const Lids* preassigned,
                          const EngineOptions& opt) const = 0;
};

// nullptr if no engine has that name.
std::unique_ptr<Engine> make_engine(std::string_view name);
std::vector<std::string> engine_names();

} // namespace ibrt
