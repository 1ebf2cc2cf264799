#!/usr/bin/env bash
# The strength table of docs/strength.md: an MCTS bot against greedy, the one-ply heuristic player and
# random, with seats rotated over paired tile orders (meeple match). Prints a Markdown table.
#
#   bash experiments/strength.sh                  # the documented table (about an hour on 2 cores)
#   GAMES=20 MCTS=mcts:iterations=2000,leaf=eval bash experiments/strength.sh   # a quick look
#
# MCTS budgets are iterations, not milliseconds, so results do not depend on the machine's load; the
# docs give the simulations per second that turn them into time.
set -euo pipefail
cd "$(dirname "$0")/.."
meeple=${MEEPLE:-build/bin/meeple}
[ -x "$meeple" ] || { bash scripts/setup.sh && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build; }
mcts=${MCTS:-mcts:iterations=20000,leaf=eval,c=0.4}        # about 0.1 s a decision on one core
mcts_long=${MCTS_LONG:-mcts:iterations=200000,leaf=eval,c=0.4}  # about 1 s a decision
games=${GAMES:-200}
jobs=${JOBS:-$(nproc)}

log=${LOG:-/dev/null}   # LOG=FILE keeps every match's full output
from=${FROM:-1}        # FROM=N starts at the N-th row (the games are reproducible: seeds and iterations)
rows=0
row() {  # row LABEL PLAYERS EXPANSIONS GAMES BOT...
  local label=$1 players=$2 expansions=$3 n=$4
  shift 4
  rows=$((rows + 1))
  [ "$rows" -ge "$from" ] || return 0
  local out
  out=$("$meeple" match --bots "$@" --players "$players" --games "$n" --seed 1 --jobs "$jobs" ${expansions:+--expansions "$expansions"})
  echo "$out" >>"$log"
  # The table's line for the first bot: name games wins win% [lo%, hi%] score margin
  echo "$out" | awk -v label="$label" -v bot="$1" '$1 == bot {
    gsub(/[\[\]]/, " "); gsub(/%,/, "% "); printf "| %s | %s | %s | %s | %s - %s | %s | %s |\n", label, $2, $3, $4, $5, $6, $7, $8 }'
}

echo "MCTS = \`$mcts\`, long MCTS = \`$mcts_long\`"
echo
echo "| game | games | MCTS wins | win % | 95% interval | mean score | mean margin |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
row "2p base: MCTS vs greedy" 2 "" "$games" "$mcts" greedy
row "2p base: MCTS vs heuristic" 2 "" "$games" "$mcts" heuristic
row "2p base: MCTS vs random" 2 "" 40 "$mcts" random
row "2p base: long MCTS vs greedy" 2 "" "${GAMES_LONG:-40}" "$mcts_long" greedy
row "2p base: heuristic vs greedy" 2 "" "$games" heuristic greedy
all=river2,count,king_robber,cult_places,abbey_mayor
row "3p all expansions: MCTS vs greedy vs heuristic" 3 "$all" 60 "$mcts" greedy heuristic
