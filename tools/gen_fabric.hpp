// `ibrt gen`'s fabric, in memory: the same arguments (family, parameters, failures with their
// --seed, link width/speed, LIDs) give the same fabric as `ibrt gen ARGS -o FILE` writes, so a
// sweep spec can name generated and degraded fabrics (issue 17) without files in between.
#pragma once

#include "fabric/fabric.hpp"

#include <string>
#include <vector>

namespace ibrt::tools {

// args as after `ibrt gen`, e.g. {"fat-tree", "-m", "4", "-n", "2", "--fail-links", "1"}.
// Throws InputError("gen", ...) for arguments `ibrt gen` refuses.
Fabric generate_fabric(const std::vector<std::string>& args);

} // namespace ibrt::tools
