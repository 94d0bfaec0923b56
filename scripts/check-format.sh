#!/usr/bin/env bash
# Fails when a tracked C++ file differs from .clang-format (run by ctest; `make format` fixes).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.cpp' '*.hpp')
clang-format --dry-run -Werror $files
echo "clang-format: $(echo "$files" | wc -l) files formatted"
