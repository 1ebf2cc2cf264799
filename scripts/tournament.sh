#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays a 4-player tournament of the built-in bots
# (MCTS, the one-ply heuristic, greedy, random; seats rotated over paired tile orders, games in parallel),
# printing win rates with 95% intervals and mean scores. Extra arguments replace the default ones of
# `meeple match`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target meeple
if [ $# -eq 0 ]; then
  set -- --bots mcts:iterations=3000,leaf=eval heuristic greedy random --games 40 --seed 1 \
    --expansions river2,king_robber --jobs "$(nproc)"
fi
exec build/bin/meeple match "$@"
