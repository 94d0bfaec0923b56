#!/usr/bin/env bash
# Installs the Debian packages ibrt needs; idempotent and non-interactive.
# Runs `apt-get update` at most once, and only when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake make pkg-config clang clang-format
  opensm libopensm-dev libibumad-dev infiniband-diags ibsim-utils ibutils
  libglpk-dev glpk-utils catch2 libcli11-dev nlohmann-json3-dev libfmt-dev
  python3 bc time
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# The opensm postinst tries to start the daemon; a container without an init refuses, which is fine.
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
