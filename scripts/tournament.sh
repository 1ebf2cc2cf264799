#!/usr/bin/env bash
# The main job: installs what is missing, builds the Python package, and plays a tournament of the
# built-in bots (expectimax two turns deep, MCTS, the one-ply heuristic, greedy, random; 2 players, seats rotated over paired tile
# orders, games in C++ threads), printing ratings and win rates with 95% intervals. Records, a CSV and a
# plot go to runs/tournament/ (rerunning resumes). Extra arguments replace the default ones of
# `python -m meeple tournament`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/python.sh
if [ $# -eq 0 ]; then
  set -- --bots expectimax:depth=2 mcts:iterations=3000 heuristic greedy random --games 100 --players 2 --seed 1 \
    --expansions river2 king_robber --out runs/tournament
fi
exec .venv/bin/python -m meeple tournament "$@"
