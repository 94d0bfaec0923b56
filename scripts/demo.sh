#!/usr/bin/env bash
# The main job on a bundled fabric: what `make demo` shows.
set -euo pipefail
IBRT=${1:-build/ibrt}
cd "$(dirname "$0")/.."
"$IBRT" --help
