// The routing-engine interface: one engine per unit, chosen by name like opensm's
// `routing_engine` option. An engine computes LIDs (or honours preassigned ones), one LFT per
// switch and, for multipath engines, the DLID each source uses per destination; multi-VL
// engines add path SLs and SL2VL tables. Engine::route is the one entry point: it checks the
// engine's parameters and the data VLs the result needs around the engine's compute().
#pragma once

#include "fabric/fabric.hpp"
#include "fabric/lids.hpp"
#include "fabric/routing.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ibrt {

// One engine parameter, declared by the engine that reads it (`--engine-opt key=value`
// offline, `ENGINE.key=value` in the plugin's options string). Values are checked against the
// declaration before any routing, so a typo is an error, never a silently ignored setting.
struct EngineParam {
    enum class Kind { Flag, Integer, Choice };
    std::string_view key;
    Kind kind = Kind::Flag;
    std::string_view default_value;
    std::string_view help;
    std::int64_t min = 0, max = 0;             // Integer: the accepted range
    std::span<const std::string_view> choices; // Choice: the accepted words
    // Non-empty: the parameter takes effect only offline (`ibrt route`, `ibrt sim`), and this
    // says why not inside opensm (e.g. it numbers LIDs, which opensm assigns there). The opensm
    // plugin then logs the parameter as ignored, naming the reason, instead of accepting a
    // setting that changes nothing; its default value, what happens anyway, passes silently.
    std::string_view offline_only;
};

// The offline_only reason of every parameter that only adds the extended switch's forwarding
// sets (adaptive routings for `ibrt sim`): the LFTs, SL2VL and path SLs stay the same.
inline constexpr std::string_view kForwardingSetsOnly =
    "it only adds forwarding sets for `ibrt sim`; opensm installs the LFTs alone";

// Data VLs assumed for ports whose count the fabric does not give (ibnetdiscover dumps do
// not): 8, what opensm's default max_op_vls gives on current HCAs and switches (VLCap VL0-7).
inline constexpr unsigned kDefaultDataVls = 8;

struct EngineOptions {
    std::optional<int> lmc; // nullopt = the engine chooses (auto)
    std::uint64_t seed = 1;
    unsigned default_data_vls = kDefaultDataVls; // for ports with Port::data_vls == 0
    // Engine parameters as given (key -> value); validated by set_param, read by the engine
    // through param_flag/param_int/param_choice, which fall back to the declared default.
    std::map<std::string, std::string, std::less<>> params;
    // Called now and then by long-running engines with the phase and the fraction of it done
    // (0..1). Engines do no I/O: `ibrt route` prints it on stderr; the opensm plugin leaves it
    // empty, so nothing is printed inside opensm.
    std::function<void(std::string_view phase, double fraction)> progress;
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
    // The parameters this engine reads; listed in the --help of route, sim and sweep.
    virtual std::span<const EngineParam> params() const { return {}; }

    // preassigned: LIDs to honour (e.g. what opensm assigned; not necessarily contiguous), or
    // nullptr to let the engine assign its own. Throws std::invalid_argument for a parameter
    // the engine does not declare or a bad value, and RoutingError when the engine declines,
    // including when the routing needs more data VLs than a port it uses offers.
    Routing route(const Fabric& f, const Lids* preassigned, const EngineOptions& opt) const;

    // Checks `key=value` against params() and stores it in opt.params; throws
    // std::invalid_argument naming the engine, the key and what is accepted.
    void set_param(EngineOptions& opt, std::string_view key_value) const;
    bool param_flag(const EngineOptions& opt, std::string_view key) const;
    std::int64_t param_int(const EngineOptions& opt, std::string_view key) const;
    std::string_view param_choice(const EngineOptions& opt, std::string_view key) const;

  protected:
    virtual Routing compute(const Fabric& f, const Lids* preassigned,
                            const EngineOptions& opt) const = 0;

  private:
    const EngineParam& param(std::string_view key) const;
    std::string_view param_value(const EngineOptions& opt, std::string_view key) const;
};

// The data VLs of end port or switch port `p` (its own count, else `default_data_vls`).
unsigned port_data_vls(const Fabric& f, PortId p, unsigned default_data_vls);

// The fewest data VLs of any connected port (15 if none): what Engine::route holds a routing's
// data_vls to.
unsigned fewest_port_data_vls(const Fabric& f, unsigned default_data_vls);

// nullptr if no engine has that name.
std::unique_ptr<Engine> make_engine(std::string_view name);
std::vector<std::string> engine_names();

} // namespace ibrt
