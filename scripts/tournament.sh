#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays a self-play match of the built-in bots,
# printing wins and mean scores per seat. Extra arguments go to `meeple selfplay`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target meeple
if [ $# -eq 0 ]; then
  set -- --players 2 --games 1000 --seed 1 --bot greedy random --expansions river2,king_robber
fi
exec build/bin/meeple selfplay "$@"
