#!/usr/bin/env bash
# Installs everything meeple needs to build and test, and nothing that is already there.
# Idempotent: safe to run before every build. Debian 12 and 13 (apt-get, as root or with sudo).
set -euo pipefail

debian_packages=(
  cmake g++ make ninja-build pkg-config git
  libeigen3-dev libtbb-dev libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev pybind11-dev python3-dev python3-venv
  chromium chromium-driver  # headless browser tests: the HTML game viewer, `meeple play` played by clicks
  clang libclang-rt-dev  # libFuzzer targets (tests/fuzz)
)

missing=()
for pkg in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: Debian packages already installed"
fi
