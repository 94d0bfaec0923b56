// Engine::route: parameters are checked against each engine's declaration, and a routing that
// needs more data VLs than a port offers is declined (engines/engine.hpp).
#include "engines/engine.hpp"
#include "generators/dragonfly.hpp"
#include "generators/fat_tree.hpp"
#include "generators/hyperx.hpp"
#include "generators/torus.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace ibrt;

namespace {

// Routes nothing; says it needs `vls` data VLs.
class NeedsVls final : public Engine {
  public:
    explicit NeedsVls(std::uint8_t vls) : vls_(vls) {}
    std::string_view name() const override { return "needs-vls"; }

  protected:
    Routing compute(const Fabric&, const Lids*, const EngineOptions&) const override {
        Routing r;
        r.data_vls = vls_;
        return r;
    }

  private:
    std::uint8_t vls_;
};

Fabric with_port_vls(std::uint8_t vls) {
    FabricBuilder b;
    const NodeId s = b.add_node(NodeType::Switch, 2, 0x10, "sw");
    const NodeId h = b.add_node(NodeType::CA, 1, 0x20, "host");
    b.connect(s, 1, h, 1);
    b.port(s, 1).data_vls = vls;
    b.port(h, 1).data_vls = vls;
    return std::move(b).build();
}

} // namespace

TEST_CASE("engine parameters: declared keys only, checked values, defaults") {
    const auto mlid = make_engine("mlid");
    EngineOptions opt;
    CHECK_FALSE(mlid->param_flag(opt, "paper_lids")); // the declared default
    mlid->set_param(opt, "paper_lids=true");
    CHECK(mlid->param_flag(opt, "paper_lids"));
    CHECK_THROWS_WITH(mlid->set_param(opt, "paper_lid=1"),
                      "engine mlid has no option 'paper_lid' (options: paper_lids, adaptive_up)");
    CHECK_THROWS_WITH(mlid->set_param(opt, "paper_lids=maybe"),
                      "engine mlid option paper_lids: 'maybe' is not true or false");
    CHECK_THROWS_WITH(mlid->set_param(opt, "paper_lids"),
                      "engine option 'paper_lids' is not key=value");
    CHECK_THROWS_WITH(make_engine("separate")->set_param(opt, "k=3"),
                      "engine separate has no options (got 'k')");
}

TEST_CASE("engine parameters change the routing: mlid paper_lids") {
    const Fabric f = gen::fat_tree(4, 2);
    const auto mlid = make_engine("mlid");
    EngineOptions plain, paper;
    mlid->set_param(paper, "paper_lids=1");
    CHECK(mlid->route(f, nullptr, plain).lids.aligned());
    CHECK_FALSE(mlid->route(f, nullptr, paper).lids.aligned());
}

TEST_CASE("Engine::route rejects parameters that were not checked") {
    EngineOptions opt;
    opt.params["colour"] = "red";
    CHECK_THROWS_AS(make_engine("slid")->route(gen::fat_tree(4, 2), nullptr, opt),
                    std::invalid_argument);
}

TEST_CASE("a routing that needs more data VLs than a port has is declined") {
    const NeedsVls four(4);
    CHECK_NOTHROW(four.route(with_port_vls(4), nullptr, {}));
    CHECK_NOTHROW(four.route(with_port_vls(8), nullptr, {}));
    CHECK_THROWS_WITH(four.route(with_port_vls(2), nullptr, {}),
                      "needs-vls needs 4 data VLs but switch 'sw' (GUID 0x0000000000000010) "
                      "port 1 has 2");
    // Ports that do not say: the configured default decides.
    EngineOptions opt;
    CHECK_NOTHROW(four.route(with_port_vls(0), nullptr, opt)); // default 8
    opt.default_data_vls = 2;
    CHECK_THROWS_AS(four.route(with_port_vls(0), nullptr, opt), RoutingError);
    CHECK_NOTHROW(NeedsVls(1).route(with_port_vls(1), nullptr, {}));
}

// The opensm plugin ignores (and says so) a parameter declared offline only. For those that
// claim to add only forwarding sets, the claim is checked: set to other values, the LFTs,
// SL2VL tables and path SLs — all that opensm installs — are the same (issue 35).
TEST_CASE("forwarding-sets-only parameters leave what opensm installs unchanged") {
    struct Case {
        const char* engine;
        Fabric fabric;
        std::vector<std::vector<std::string>> settings; // key=value sets, each set tried alone
    };
    const std::vector<Case> cases = {
        {"mlid", gen::fat_tree(4, 2), {{"adaptive_up=true"}}},
        {"slid", gen::fat_tree(4, 2), {{"adaptive_up=true"}}},
        {"torus",
         gen::torus({{4, 4}, {}, 1}),
         {{"distance_based=1", "deflection=true"}, {"adaptive_links=true"}}},
        {"flatfly",
         gen::hyperx({{4, 4}, {}, 1}),
         {{"adaptive=ador"},
          {"adaptive=twisted-mixed-dor", "twist=n"},
          {"distance_based=1"},
          {"adaptive_links=true"}}},
        {"dragonfly", gen::dragonfly({4, 2, 1}), {{"adaptive=gsid"}, {"adaptive=static"}}},
    };
    for (const Case& c : cases) {
        const auto e = make_engine(c.engine);
        const auto ps = e->params();
        const Routing a = e->route(c.fabric, nullptr, EngineOptions{});
        for (const auto& set : c.settings) {
            EngineOptions opt;
            for (const std::string& kv : set) {
                INFO(c.engine << " " << kv);
                const std::string key = kv.substr(0, kv.find('='));
                const auto p = std::find_if(ps.begin(), ps.end(),
                                            [&](const EngineParam& d) { return d.key == key; });
                REQUIRE(p != ps.end());
                CHECK(p->offline_only == kForwardingSetsOnly);
                e->set_param(opt, kv);
            }
            INFO(c.engine << " " << set.front());
            const Routing b = e->route(c.fabric, nullptr, opt);
            CHECK(b.forwarding_sets != nullptr);
            CHECK(b.lft == a.lft);
            CHECK(b.sl2vl.tables == a.sl2vl.tables);
            std::size_t differ = 0;
            for (PortId s = 0; s < c.fabric.num_port_slots(); ++s)
                for (Lid d = 1; d <= a.lids.max_lid(); ++d)
                    differ += b.path_sl(s, d) != a.path_sl(s, d);
            CHECK(differ == 0);
        }
    }
}
