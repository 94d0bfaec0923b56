// The SLID baseline of paper 000 §5: one LID per processing node (LMC 0) and forwarding
// tables that spread destinations evenly over the up ports (d-mod-k on the destination's
// tree-order index, equation (2) with one LID). Paper mode numbers LIDs PID + 1.
#include "engines/engine.hpp"
#include "engines/fattree/adaptive_up.hpp"
#include "engines/fattree/tree_lids.hpp"
#include "engines/fattree/updown_tables.hpp"
#include "mapping/fat_tree_shape.hpp"

#include <fmt/format.h>

namespace ibrt {
namespace {

constexpr EngineParam kParams[] = {fattree::kPaperLidsParam, fattree::kAdaptiveUpParam};

class SlidEngine final : public Engine {
  public:
    std::string_view name() const override { return "slid"; }
    std::span<const EngineParam> params() const override { return kParams; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        if (opt.lmc && *opt.lmc != 0)
            throw RoutingError(
                fmt::format("slid routes one LID per end port; LMC {} was requested", *opt.lmc));
        const fattree::FatTreeShape t = fattree::recognize_fat_tree(f);
        Routing r;
        if (preassigned) {
            r.lmc = static_cast<std::uint8_t>(fattree::check_preassigned(f, t, *preassigned));
            r.lids = *preassigned;
        } else {
            fattree::choose_lmc(t.num_end_ports(), f.switches().size(), 1, 0);
            r.lids = fattree::assign_tree_lids(f, t, 0, param_flag(opt, "paper_lids"));
        }
        fattree::build_updown_lfts(f, t, r, /*single_path=*/true);
        if (param_flag(opt, "adaptive_up")) r.forwarding_sets = fattree::adaptive_up_sets(f, t, r);
        return r; // dlid_choice empty: every source uses the base LID
    }
};

} // namespace

std::unique_ptr<Engine> make_slid_engine() {
    return std::make_unique<SlidEngine>();
}

} // namespace ibrt
