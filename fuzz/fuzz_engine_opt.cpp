// Fuzz target for the engine options of the command line (cli/engine_cli.hpp: --lmc and
// --engine-opt, read by Engine::set_param; `ibrt route`, `ibrt sim`, `ibrt sweep`): the first
// byte picks the engine, the first line is --lmc, every further line one --engine-opt. Any
// input must be taken or throw ibrt::InputError naming --lmc or --engine-opt. What is taken
// must be what the engine declares: each key one of its parameters with the last value given
// for it, a value set_param takes again and the engine reads within its declared range, and
// the LMC auto or 0..7; else abort.
#include "cli/engine_cli.hpp"
#include "engines/engine.hpp"
#include "fabric/input_error.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ibrt;
    static const std::vector<std::string> names = engine_names();
    if (size == 0) return 0;
    const auto engine = make_engine(names[data[0] % names.size()]);
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    cli::EngineCli given;
    std::map<std::string, std::string> last; // key -> the last value given for it
    for (std::size_t pos = 0, line = 0; pos <= text.size(); ++line) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        const std::string item = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (line == 0) {
            given.lmc = item;
            continue;
        }
        given.opts.push_back(item);
        if (const auto eq = item.find('='); eq != std::string::npos)
            last[item.substr(0, eq)] = item.substr(eq + 1);
    }
    EngineOptions opt;
    try {
        opt = cli::engine_options(*engine, given, 1);
    } catch (const InputError& e) {
        if (e.file() != "--lmc" && e.file() != "--engine-opt") std::abort();
        return 0;
    }
    if (opt.lmc.has_value() == (given.lmc == "auto")) std::abort();
    if (opt.lmc && (*opt.lmc < 0 || *opt.lmc > kMaxLmc)) std::abort();
    if (opt.params.size() > given.opts.size()) std::abort();
    for (const auto& kv : opt.params) {
        const std::string& key = kv.first; // not a structured binding: the lambda uses it
        const std::string& value = kv.second;
        if (last.count(key) == 0 || last.at(key) != value) std::abort();
        const auto ps = engine->params();
        const auto p =
            std::find_if(ps.begin(), ps.end(), [&](const EngineParam& x) { return x.key == key; });
        if (p == ps.end()) std::abort();
        EngineOptions again;
        try {
            engine->set_param(again, key + "=" + value);
        } catch (const std::invalid_argument&) {
            std::abort();
        }
        switch (p->kind) {
        case EngineParam::Kind::Flag:
            (void)engine->param_flag(opt, key);
            break;
        case EngineParam::Kind::Integer: {
            const std::int64_t x = engine->param_int(opt, key);
            if (x < p->min || x > p->max) std::abort();
            break;
        }
        case EngineParam::Kind::Choice:
            if (std::find(p->choices.begin(), p->choices.end(), engine->param_choice(opt, key)) ==
                p->choices.end())
                std::abort();
            break;
        }
    }
    return 0;
}
