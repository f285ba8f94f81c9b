#!/usr/bin/env bash
# Installs the Debian packages pt2ir needs (idempotent), then configures and
# builds a Release tree in build/. Usage: scripts/setup.sh [--no-build]
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ python3
  llvm-19-dev llvm-19-tools libzstd-dev
  rapidjson-dev libfmt-dev libgtest-dev libbenchmark-dev
  libzip-dev zlib1g-dev python3-yaml
  python3-dev pybind11-dev python3-pytest
  graphviz
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ "${1:-}" = "--no-build" ] && exit 0

root="$(cd "$(dirname "$0")/.." && pwd)"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPT2IR_WERROR=ON
cmake --build "$root/build"
