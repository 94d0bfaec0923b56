// The MLID routing engine (paper 000 §4): multiple LIDs per end port (§4.1), path selection by
// rank in the greatest-common-prefix group (§4.2) and forwarding by equations (1) and (2)
// (§4.3), on any fabric fat-tree recognition accepts. docs/engines/mlid.md has the LID layout
// and the capped-LMC policy.
#include "engines/engine.hpp"
#include "engines/fattree/adaptive_up.hpp"
#include "engines/fattree/tree_lids.hpp"
#include "engines/fattree/updown_tables.hpp"
#include "engines/mlid/path_selection_by_rank.hpp"
#include "mapping/fat_tree_shape.hpp"

namespace ibrt {
namespace {

constexpr EngineParam kParams[] = {fattree::kPaperLidsParam, fattree::kAdaptiveUpParam};

class MlidEngine final : public Engine {
  public:
    std::string_view name() const override { return "mlid"; }
    std::span<const EngineParam> params() const override { return kParams; }

  protected:
    Routing compute(const Fabric& f, const Lids* preassigned,
                    const EngineOptions& opt) const override {
        const fattree::FatTreeShape t = fattree::recognize_fat_tree(f);
        Routing r;
        if (preassigned) {
            r.lmc = static_cast<std::uint8_t>(fattree::check_preassigned(f, t, *preassigned));
            r.lids = *preassigned;
        } else {
            const int lmc = fattree::choose_lmc(t.num_end_ports(), f.switches().size(),
                                                fattree::path_space(t), opt.lmc);
            r.lmc = static_cast<std::uint8_t>(lmc);
            r.lids = fattree::assign_tree_lids(f, t, lmc, param_flag(opt, "paper_lids"));
        }
        fattree::build_updown_lfts(f, t, r);
        r.dlid_choice = mlid::select_paths_by_rank(f, t, r.lids);
        if (param_flag(opt, "adaptive_up")) r.forwarding_sets = fattree::adaptive_up_sets(f, t, r);
        return r;
    }
};

} // namespace

std::unique_ptr<Engine> make_mlid_engine() {
    return std::make_unique<MlidEngine>();
}

} // namespace ibrt
