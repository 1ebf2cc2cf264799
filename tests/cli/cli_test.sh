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
check "players narrowed" 2 "players must be 2 to 6, got '258'" -- "$meeple" perft --players 258 --depth 2
check "negative seed" 2 "seed" -- "$meeple" selfplay --games 1 --seed -1
check "too many worlds" 2 "bad value '4096' for worlds: must be 0 to 64" -- "$meeple" match --bots mcts:worlds=4096 greedy --games 2
check "node cap beyond memory" 2 "for max_nodes: must be 1000 to 100000000" -- "$meeple" match --bots mcts:max_nodes=2000000000 greedy --games 2
check "no shipped network is for these rules" 2 "no shipped network is for players=2 expansions=river2 \(the shipped ones are for players=2; players=3 expansions=river2,count,king_robber,cult_places,abbey_mayor\)" -- "$meeple" match --bots mcts:net=trained,iterations=10 greedy --games 2 --expansions river2
printf '{"format": "meeple-net/1", "encoding": 1, "rules": "players=2", "players": 2' >"$tmp/net.json"
check "truncated network file" 2 "net.json: not JSON .a truncated file" -- "$meeple" match --bots mcts:net="$tmp/net.json" greedy --games 2
# Self-play streams: 20,000 games in far less memory than their final states would take (12 KB each).
# (Measured without sanitizers: AddressSanitizer holds freed memory back on purpose.)
[ -n "${MEEPLE_SANITIZE:-}" ] || check "selfplay streams" 0 "^small$" -- python3 -c "
import resource, subprocess, sys
subprocess.run([sys.argv[1], 'selfplay', '--games', '20000', '--jobs', '2'], check=True, stdout=subprocess.DEVNULL)
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print('small' if kib < 120_000 else f'{kib} KiB')" "$meeple"


# Issue 27: nesting, size, inputs that never end, outputs, names given twice. Every case exits 2 with a
# message naming what was wrong, and nothing here can hang the script: what could block runs under timeout.
mkdir -p "$tmp/deep"
# Deep brackets (arrays and objects, 65 and 100,000 deep) in place of every value of a record: the
# header's fields and those of its first actions.
python3 - "$tmp/games.jsonl" "$tmp/deep" <<'EOF'
import json, sys
record = json.loads(open(sys.argv[1]).readline())
record["rules"]["options"] = {"small_city": "two_points"}
record["rules"]["deck"] = {"BA.C": 2}
def slots(v, path=()):
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else []
    for k, x in items:
        if path[:1] == ("actions",) and len(path) > 1 and path[1] >= 8: continue
        yield path + (k,)
        yield from slots(x, path + (k,))
n = 0
for path in slots(record):
    for depth in (65, 100000):
        for kind, opening, closing in (("a", "[", "]"), ("o", '{"k":', "}")):
            doc = json.loads(json.dumps(record))
            target = doc
            for k in path[:-1]: target = target[k]
            target[path[-1]] = "@@"
            text = json.dumps(doc).replace('"@@"', opening * depth + "1" + closing * depth)
            open(f"{sys.argv[2]}/{n:04d}-{kind}{depth}.json", "w").write(text)
            n += 1
EOF
deep_cases=0 deep_failed=0
for f in "$tmp"/deep/*.json; do
  out=$(timeout 20 "$meeple" replay "$f" 2>&1); status=$?
  json_out=$(timeout 20 "$meeple" replay --json "$f"); json_status=$?
  deep_cases=$((deep_cases + 1))
  if [ "$status" -ne 2 ] || ! grep -q "not valid JSON: nesting deeper than 64 at offset" <<<"$out" ||
     [ "$json_status" -ne 2 ] || ! grep -q '^{"error":{"action":-1,"message":"not valid JSON: nesting deeper than 64' <<<"$json_out"; then
    deep_failed=$((deep_failed + 1))
    [ "$deep_failed" -le 3 ] && echo "deep nesting $f: status $status/$json_status: ${out:0:200} ${json_out:0:200}"
  fi
done
check "deep nesting in every field, replay and --json" 0 "^0 of [0-9]{3,} failed$" -- echo "$deep_failed of $deep_cases failed"
# What a message quotes is capped: 10 MB in a field gives a message of a few hundred bytes.
python3 -c "
import json, sys
r = json.loads(open(sys.argv[1]).readline())
for field in ('seed', 'players', 'names', 'actions'):
    d = dict(r); d[field] = 'x' * 10_000_000
    open(sys.argv[2] + '/huge-' + field + '.json', 'w').write(json.dumps(d))
d = dict(r); d['x' * 10_000_000] = 1
open(sys.argv[2] + '/huge-key.json', 'w').write(json.dumps(d))
d = dict(r); d['actions'] = [{'draw': 'x' * 10_000_000}]
open(sys.argv[2] + '/huge-action.json', 'w').write(json.dumps(d))
" "$tmp/games.jsonl" "$tmp"
for f in "$tmp"/huge-*.json; do
  check "10 MB value, short message: ${f##*/}" 0 "^short, 2$" -- bash -c "out=\$('$meeple' replay '$f' 2>&1); s=\$?; [ \${#out} -lt 600 ] && echo \"short, \$s\""
  check "10 MB value, short JSON message: ${f##*/}" 0 "^short, 2$" -- bash -c "out=\$('$meeple' replay --json '$f'); s=\$?; [ \${#out} -lt 600 ] && echo \"short, \$s\""
done
sed 's/"players":3/"players":3,"players":2/' <<<"$good" >"$tmp/twice.json"
check "a key given twice" 2 "not valid JSON: key 'players' given twice" -- "$meeple" replay "$tmp/twice.json"

# Inputs that never end, and what is not a file: refused at once, whatever is (or is not) writing to them.
mkfifo "$tmp/fifo.jsonl" "$tmp/fifo.json"
timeout 30 bash -c "while :; do yes; done >'$tmp/fifo.jsonl'" 2>/dev/null &
writer=$!
mkdir "$tmp/folder.json"
ln -s /dev/zero "$tmp/zero.json"
for f in /dev/zero /dev/urandom "$tmp/fifo.jsonl" "$tmp/fifo.json" "$tmp/folder.json" "$tmp/zero.json"; do
  check "not a regular file: replay $f" 2 "cannot read record file '$f': it is a .*, not a regular file" -- timeout 10 "$meeple" replay "$f"
  check "not a regular file: replay --json $f" 2 '^\{"error":\{"action":-1,"message":"cannot read record file .*not a regular file' -- timeout 10 "$meeple" replay --json "$f"
done
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
for f in "$tmp/fifo.json" "$tmp/folder.json" "$tmp/zero.json"; do
  check "not a regular file: evaluator $f" 2 "cannot read evaluator weights '$f': it is .*, not a regular file" -- timeout 10 "$meeple" selfplay --games 1 --bot "heuristic:eval=$f"
  check "not a regular file: policy $f" 2 "cannot read policy weights '$f': it is .*, not a regular file" -- timeout 10 "$meeple" selfplay --games 1 --bot "mcts:iterations=5,policy=$f"
done
truncate -s 100M "$tmp/sparse.jsonl"
check "an endless line is refused after 16 MiB" 2 "line 1 is longer than 16 MiB" -- timeout 20 "$meeple" replay "$tmp/sparse.jsonl"
check "standard input that never ends" 2 "cannot read record file '-': line 1 is longer than 16 MiB" -- timeout 20 bash -c "'$meeple' replay - </dev/zero"
truncate -s 65M "$tmp/big.json"
check "a weight file over 64 MiB" 2 "holds more than 64 MiB" -- timeout 20 "$meeple" selfplay --games 1 --bot "heuristic:eval=$tmp/big.json"
{ head -2 "$tmp/games.jsonl"; head -c 17000000 /dev/zero | tr '\0' ' '; echo; head -1 "$tmp/games.jsonl"; } >"$tmp/long-line.jsonl"
check "records before a line too long are replayed" 2 "long-line.jsonl line 2: final scores" -- "$meeple" replay "$tmp/long-line.jsonl"
check "a line too long is named" 2 "cannot read record file .*long-line.jsonl': line 3 is longer than 16 MiB" -- "$meeple" replay "$tmp/long-line.jsonl"
python3 -c "import json, sys; print(json.dumps(json.loads(sys.argv[1]), indent=2))" "$good" >"$tmp/pretty.json"
check "a record over several lines" 0 "pretty.json: final scores" -- "$meeple" replay "$tmp/pretty.json"
{ echo; head -3 "$tmp/games.jsonl"; echo; echo '{"format":"meeple-game/2"}'; } >"$tmp/numbered.jsonl"
check "JSON Lines errors name the file's line" 2 "numbered.jsonl line 6: format" -- "$meeple" replay "$tmp/numbered.jsonl"

# Outputs: every --out target is checked before any game is played (a million games would not end in the
# time limit), exit 2 and a message; nothing is replaced that should not be.
printf 'precious\n' >"$tmp/readonly.jsonl"
chmod 444 "$tmp/readonly.jsonl"
mkfifo "$tmp/unread.fifo"
for out in "$tmp" /dev/full /dev/null "$tmp/missing/games.jsonl" "$tmp/readonly.jsonl" "$tmp/unread.fifo"; do
  check "bad --out refused before playing: $out" 2 "^meeple: --out '$out'.*(directory|device|folder|read-only|FIFO)" -- timeout 20 "$meeple" selfplay --games 1000000 --out "$out"
done
check "a read-only file is left as it was" 0 "^precious$" -- cat "$tmp/readonly.jsonl"
ln -s "$tmp/nothing.jsonl" "$tmp/dangling.jsonl"
check "a symlink to nothing is refused" 2 "is a symlink to '$tmp/nothing.jsonl', which does not exist" -- timeout 20 "$meeple" selfplay --games 1000000 --out "$tmp/dangling.jsonl"
printf 'old\n' >"$tmp/target.jsonl"
chmod 640 "$tmp/target.jsonl"
ln -s target.jsonl "$tmp/link.jsonl"
"$meeple" selfplay --games 3 --out "$tmp/link.jsonl" >/dev/null
check "a symlink is written through" 0 "^link 3 640$" -- bash -c "[ -L '$tmp/link.jsonl' ] && echo link \$(wc -l <'$tmp/target.jsonl') \$(stat -c %a '$tmp/target.jsonl')"
for mode in 600 644 660; do
  printf 'old\n' >"$tmp/mode.jsonl"
  chmod "$mode" "$tmp/mode.jsonl"
  "$meeple" selfplay --games 2 --out "$tmp/mode.jsonl" >/dev/null
  check "a replaced file keeps its mode $mode" 0 "^$mode 2$" -- bash -c "echo \$(stat -c %a '$tmp/mode.jsonl') \$(wc -l <'$tmp/mode.jsonl')"
done
# (The script holds the FIFO open, read and write, so that a reader is there before meeple starts.)
check "a FIFO with a reader gets the records" 0 "^4$" -- timeout 60 bash -c "mkfifo '$tmp/read.fifo'; exec 3<>'$tmp/read.fifo'
  wc -l <'$tmp/read.fifo' 3>&- & '$meeple' selfplay --games 4 --out '$tmp/read.fifo' >/dev/null; exec 3>&-; wait"

# Stopped runs: the finished games stay in FILE.partial-PID, and the message (or the next run) says where.
for signal in INT TERM; do
  rm -f "$tmp"/stopped.jsonl*
  "$meeple" selfplay --games 1000000 --out "$tmp/stopped.jsonl" >/dev/null 2>"$tmp/stopped.err" &
  run=$!
  for _ in $(seq 600); do  # until a game has finished (at most a minute)
    [ -s "$tmp/stopped.jsonl.partial-$run" ] && break
    sleep 0.1
  done
  kill -"$signal" "$run"
  wait "$run"
  check "SIG$signal says where the finished games are" 0 "stopped; the records of the [0-9]+ games finished so far are in '$tmp/stopped.jsonl.partial-$run'" -- cat "$tmp/stopped.err"
  check "SIG$signal leaves whole records" 0 "^replayed$" -- bash -c "'$meeple' replay '$tmp/stopped.jsonl.partial-$run' >/dev/null && echo replayed"
  check "SIG$signal leaves the file alone" 1 "" -- test -e "$tmp/stopped.jsonl"
done
"$meeple" selfplay --games 1000000 --out "$tmp/killed.jsonl" >/dev/null &
run=$!
for _ in $(seq 600); do
  [ -s "$tmp/killed.jsonl.partial-$run" ] && break
  sleep 0.1
done
kill -9 "$run"
wait "$run" 2>/dev/null
check "after kill -9 the next run names the finished games" 0 "'$tmp/killed.jsonl.partial-$run' holds the records of games finished by an earlier run \(process $run\)" -- "$meeple" selfplay --games 2 --out "$tmp/killed.jsonl"
check "and leaves them" 0 "^kept$" -- bash -c "'$meeple' replay '$tmp/killed.jsonl.partial-$run' >/dev/null && echo kept"
# A record cut off by the kill (a write ended early by the fatal signal) is dropped, the whole ones kept.
true & dead=$!
wait "$dead"
{ printf '%s\n' "$good"; printf '%s' "${good:0:40}"; } >"$tmp/cut.jsonl.partial-$dead"
check "a cut record is dropped" 0 "but for the last record, cut off when that run was killed" -- "$meeple" selfplay --games 1 --out "$tmp/cut.jsonl"
check "and the whole ones replay" 0 "^1 whole$" -- bash -c "'$meeple' replay '$tmp/cut.jsonl.partial-$dead' >/dev/null && echo \$(wc -l < '$tmp/cut.jsonl.partial-$dead') whole"
# A whole last record that only lost its newline is kept, its newline restored.
{ printf '%s\n' "$good"; printf '%s' "$good"; } >"$tmp/whole.jsonl.partial-$dead"
check "a whole record without its newline is kept" 0 "holds the records of games finished by an earlier run" -- "$meeple" selfplay --games 1 --out "$tmp/whole.jsonl"
check "and replays with it" 0 "^2 whole$" -- bash -c "'$meeple' replay '$tmp/whole.jsonl.partial-$dead' >/dev/null && echo \$(wc -l < '$tmp/whole.jsonl.partial-$dead') whole"

# Names given twice, subcommands, --version.
check "unknown subcommand" 2 "unknown subcommand 'bogus'; the subcommands are replay, selfplay, match, perft, analyze, info" -- "$meeple" bogus
check "no subcommand" 2 "a subcommand is required; the subcommands are replay" -- "$meeple"
check "version" 0 "^meeple [0-9]+\.[0-9]+\.[0-9]+$" -- "$meeple" --version
check "an option given twice" 2 "small_city given twice" -- "$meeple" selfplay --games 1 --option small_city=normal --option small_city=two_points
check "an expansion given twice" 2 "expansion 'river2' given twice" -- "$meeple" selfplay --games 1 --expansions river2,count,river2
check "a players flag given twice" 2 "players" -- "$meeple" selfplay --games 1 --players 2 --players 3
# One rules text: --rules, with --players, --expansions and --option as shorthand for its words.
check "--rules" 0 "rules: players=3 expansions=river2 small_city=two_points" -- "$meeple" selfplay --games 1 --rules "players=3 expansions=river2 small_city=two_points"
check "--rules with shorthand" 0 "rules: players=3 expansions=river2,count small_city=two_points" -- "$meeple" selfplay --games 1 --rules "expansions=river2,count" --players 3 --option small_city=two_points
check "match seats one per bot unless told" 0 "3 players, rules: players=3 expansions=count" -- "$meeple" match --bots greedy random random --games 3 --rules "expansions=count"
check "--rules and --players" 2 "rules: players given twice" -- "$meeple" selfplay --games 1 --rules "players=2" --players 3
check "--rules and --expansions" 2 "rules: expansions given twice" -- "$meeple" perft --rules "expansions=count" --expansions river2
check "one bot: one seat by default" 2 "players must be 2 to 6, got '1' \(the game as given: \"players=1\", from --rules, --players, --expansions and --option, and one seat per bot by default\)" -- "$meeple" match --bots greedy --games 2
check "a --rules word without =" 2 "rules: expected NAME=VALUE, got 'river2'" -- "$meeple" analyze --rules "river2" --games 1
for spec in mcts:iterations=5,iterations=7 mcts:c=1,worlds=2,c=2 expectimax:depth=1,depth=2 heuristic:eval=handtuned,eval=endnow; do
  check "a bot parameter given twice: $spec" 2 "bot [a-z]+: parameter [a-z]+ given twice" -- "$meeple" selfplay --games 1 --bot "$spec"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
