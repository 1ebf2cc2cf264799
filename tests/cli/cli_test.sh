#!/usr/bin/env bash
# Command-line checks: what a user sees for good and bad input. Usage: cli_test.sh PATH/TO/meeple
set -u
meeple=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() {  # check NAME EXPECTED_STATUS PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  local out status
  out=$("$@" 2>&1)
  status=$?
  if [ "$status" -eq "$want" ] && grep -qE -- "$pattern" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: status $status (want $want), output:"
    echo "$out" | head -20
  fi
}

"$meeple" selfplay --players 3 --games 5 --seed 9 --bot greedy --expansions river2,king_robber --out "$tmp/games.jsonl" >/dev/null
check "selfplay table" 0 "seat +bot +wins" -- "$meeple" selfplay --players 2 --games 20 --seed 1 --bot random
check "selfplay records replay" 0 '"terminal":true' -- "$meeple" replay --json "$tmp/games.jsonl"
check "records count" 0 "^5$" -- bash -c "wc -l < '$tmp/games.jsonl' | tr -d ' '"
check "unknown bot" 2 "unknown bot 'clever'" -- "$meeple" selfplay --bot clever --games 1
check "unknown expansion" 2 "unknown expansion 'dragons'" -- "$meeple" selfplay --expansions dragons --games 1
check "bad option" 2 "valid values: normal, two_points" -- "$meeple" selfplay --option small_city=big --games 1
check "missing file" 2 "cannot open" -- "$meeple" replay "$tmp/nope.json"
echo '{"format":"meeple-game/1","rules":{},"players":2,"actions":[{"draw":"BA.C"},{"place":[3,3,0]}]}' >"$tmp/bad.json"
check "bad record json" 2 '^\{"error":\{"action":1,"message":".*does not touch the board' -- "$meeple" replay --json "$tmp/bad.json"
echo '{"format":"meeple-game/1","rules":{},"players":2,"actions":[],"extra":1}' >"$tmp/bad2.json"
check "unknown key" 2 '"action":-1,"message":"extra: unknown key' -- "$meeple" replay --json "$tmp/bad2.json"
check "match table" 0 "greedy +4 .*\\[" -- "$meeple" match --bots greedy random --games 4 --seed 2
check "match records" 0 "^4$" -- bash -c "'$meeple' match --bots random greedy --games 4 --out '$tmp/m.jsonl' >/dev/null && wc -l < '$tmp/m.jsonl' | tr -d ' '"
"$meeple" match --bots heuristic mcts:iterations=30 --games 6 --seed 3 --jobs 1 --out "$tmp/j1.jsonl" >"$tmp/j1.txt"
"$meeple" match --bots heuristic mcts:iterations=30 --games 6 --seed 3 --jobs 2 --out "$tmp/j2.jsonl" >"$tmp/j2.txt"
check "match jobs give the same results" 0 "^same$" -- bash -c "cmp -s '$tmp/j1.txt' '$tmp/j2.txt' && [ \"\$(sort '$tmp/j1.jsonl')\" = \"\$(sort '$tmp/j2.jsonl')\" ] && echo same"
check "match seats" 2 "multiple of --players" -- "$meeple" match --bots random greedy --games 3
check "match bad mcts" 2 "unknown parameter .depth." -- "$meeple" match --bots mcts:depth=3 greedy --games 2
check "analyze rows" 0 "^ +400 +[0-9.]+ " -- "$meeple" analyze --games 1 --iterations 200,400 --seed 3
check "analyze needs mcts" 2 "must be an mcts spec" -- "$meeple" analyze --bot greedy --games 1
check "expectimax match" 0 "expectimax:depth=2 +2 " -- "$meeple" match --bots expectimax:depth=2 greedy --games 2 --seed 4
check "perft" 0 "^7 +22527$" -- "$meeple" perft --seed 1 --depth 7
check "info json" 0 '"state_size_bytes"' -- "$meeple" info --json
check "bad args" 2 "" -- "$meeple" selfplay --games -3

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
