#!/usr/bin/env bash
# Every #include "MODULE/..." of a module's sources is the module itself or a module it
# depends on (directly or through others), by the arrows CMakeLists.txt's ibrt_module() DEPS
# write to module_arrows.txt ("dir: dep-dir ..."), so the layering has one statement and a
# test. engines/opensm/ is the opensm plugin, its own target above every module.
#   check_module_includes.sh MODULE_ARROWS SOURCE_DIR
set -euo pipefail
arrows=$1 src=$2
python3 - "$arrows" "$src" <<'PY'
import os, re, sys
arrows, src = sys.argv[1], sys.argv[2]
deps = {}
for line in open(arrows):
    if ":" in line:
        mod, rest = line.split(":", 1)
        deps[mod.strip()] = rest.split()
def closure(m, seen=None):
    seen = set() if seen is None else seen
    for d in deps.get(m, []):
        if d not in seen:
            seen.add(d)
            closure(d, seen)
    return seen
bad = []
for mod in deps:
    allowed = closure(mod) | {mod}
    for root, _, files in os.walk(os.path.join(src, mod)):
        if mod == "engines" and "/engines/opensm" in root + "/":
            continue
        for f in files:
            if not f.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(root, f)
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#include "([a-z_]+)/', line)
                if m and m.group(1) in deps and m.group(1) not in allowed:
                    bad.append(f"{os.path.relpath(path, src)}:{n}: {mod} includes {m.group(1)}/, "
                               f"not among its dependencies ({' '.join(sorted(allowed - {mod})) or 'none'})")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print(f"module includes: {len(deps)} modules, every include within the arrows")
PY
