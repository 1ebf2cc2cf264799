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
check "missing file" 2 "cannot read record file .*nope.json.: No such file" -- "$meeple" replay "$tmp/nope.json"
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


# Hostile input (issue 13): every case a clear message and exit 2, never an abort or a silent success.
good=$(head -1 "$tmp/games.jsonl")
printf '{"format":"meeple-game/1","names":["\xff"]}' >"$tmp/latin1.json"
check "non-UTF-8 record, --json" 2 '^\{"error":\{"action":-1,"message":"not valid JSON: .*UTF-8' -- "$meeple" replay --json "$tmp/latin1.json"
echo '{"format":"meeple-game/1","rules":{},"players":2,"actions":[],"seed":1e400}' >"$tmp/huge.json"
check "number beyond a double" 2 "not valid JSON: .*number overflow" -- "$meeple" replay "$tmp/huge.json"
check "directory as record" 2 "is a directory" -- "$meeple" replay "$tmp"
check "directory as record, --json" 2 '^\{"error":\{"action":-1,"message":".*is a directory' -- "$meeple" replay --json "$tmp"
sed 's/"players":3/"players":4294967299/' <<<"$good" >"$tmp/players.json"
check "players beyond 32 bits" 2 "players must be 2 to 6, got 4294967299" -- "$meeple" replay "$tmp/players.json"
echo '{"format":"meeple-game/1","rules":{},"players":2,"actions":[{"draw":"BA.C"},{"place":[4294967296,-1,180]}]}' >"$tmp/x.json"
check "coordinate beyond 32 bits" 2 "x must be -128 to 127, got 4294967296" -- "$meeple" replay "$tmp/x.json"
{ printf '%s' "$good"; printf '\0{"more":1}\n'; } >"$tmp/nul.jsonl"
check "NUL byte in a record" 2 "not valid JSON" -- "$meeple" replay "$tmp/nul.jsonl"
check "device as --out, refused before playing" 2 "^meeple: --out ./dev/full. is a character device" -- "$meeple" selfplay --games 3 --out /dev/full
printf 'precious\n' >"$tmp/keep.jsonl"
check "failed run" 2 "cannot write '$tmp/keep.jsonl'" -- bash -c "trap '' XFSZ; ulimit -f 4; '$meeple' selfplay --games 50 --out '$tmp/keep.jsonl'"
check "failed run keeps the old file" 0 "^precious$" -- cat "$tmp/keep.jsonl"
check "no temporary file left" 0 "^1$" -- bash -c "ls '$tmp' | grep -c keep"
check "good run replaces the file" 0 "^2$" -- bash -c "'$meeple' selfplay --games 2 --out '$tmp/keep.jsonl' >/dev/null && wc -l < '$tmp/keep.jsonl' | tr -d ' '"
check "players narrowed" 2 "players must be 2 to 6, got 258" -- "$meeple" perft --players 258 --depth 2
check "negative seed" 2 "seed" -- "$meeple" selfplay --games 1 --seed -1
check "too many worlds" 2 "bad value '4096' for worlds: must be 0 to 64" -- "$meeple" match --bots mcts:worlds=4096 greedy --games 2
check "node cap beyond memory" 2 "for max_nodes: must be 1000 to 100000000" -- "$meeple" match --bots mcts:max_nodes=2000000000 greedy --games 2
# Self-play streams: 20,000 games in far less memory than their final states would take (12 KB each).
# (Measured without sanitizers: AddressSanitizer holds freed memory back on purpose.)
[ -n "${MEEPLE_SANITIZE:-}" ] || check "selfplay streams" 0 "^small$" -- python3 -c "
import resource, subprocess, sys
subprocess.run([sys.argv[1], 'selfplay', '--games', '20000', '--jobs', '2'], check=True, stdout=subprocess.DEVNULL)
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print('small' if kib < 120_000 else f'{kib} KiB')" "$meeple"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
