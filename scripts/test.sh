#!/usr/bin/env bash
# Every test: installs what is missing, builds, runs the suite in Release and again under
# AddressSanitizer + UndefinedBehaviorSanitizer, the Python package's tests (pytest) in the repository's
# virtual environment, each libFuzzer target for a short while, and the multi-threaded search tests under
# ThreadSanitizer.
# Conformance games of an independent engine are replayed when MEEPLE_CONFORMANCE_DIR names their folder
# (default: ../shared/conformance beside the repository, when it exists).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
if [ -z "${MEEPLE_CONFORMANCE_DIR:-}" ] && [ -d ../shared/conformance ]; then
  MEEPLE_CONFORMANCE_DIR=$(cd ../shared/conformance && pwd)
fi
export MEEPLE_CONFORMANCE_DIR="${MEEPLE_CONFORMANCE_DIR:-}"
echo "test: conformance games from '${MEEPLE_CONFORMANCE_DIR:-(none: those tests are skipped)}'"

jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure

cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEEPLE_SANITIZE=address,undefined \
  -DMEEPLE_BUILD_BENCH=OFF
cmake --build build-sanitize -j "$jobs"
ctest --test-dir build-sanitize -j "$jobs" --output-on-failure

# The Python package, installed with pip as a user would, and its tests.
bash scripts/python.sh
.venv/bin/python -m pytest -q tests/python

# Fuzzing (libFuzzer, clang): each target for a short while from its committed corpus, new inputs kept in a
# temporary folder; any finding fails the run. Longer runs: tests/fuzz/README.md.
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEEPLE_FUZZ=ON \
  -DMEEPLE_SANITIZE=address,undefined -DMEEPLE_BUILD_TESTS=OFF -DMEEPLE_BUILD_BENCH=OFF
cmake --build build-fuzz -j "$jobs" --target meeple_fuzz_record meeple_fuzz_actions meeple_fuzz_state_bytes meeple_fuzz_weights
fuzz_out=$(mktemp -d)
for target in record actions state_bytes weights; do
  mkdir -p "$fuzz_out/$target"
  dict=()
  [ -f "tests/fuzz/$target.dict" ] && dict=(-dict="tests/fuzz/$target.dict")
  status=0
  build-fuzz/bin/meeple_fuzz_$target "$fuzz_out/$target" "tests/fuzz/corpus/$target" "${dict[@]}" \
    -max_total_time="${MEEPLE_FUZZ_SECONDS:-30}" -max_len=8192 -print_final_stats=1 -artifact_prefix="$fuzz_out/" \
    >"$fuzz_out/$target.log" 2>&1 || status=$?
  echo "fuzz $target: $(grep -E '^stat::number_of_executed_units' "$fuzz_out/$target.log" || echo 'no statistics')"
  if [ "$status" -ne 0 ]; then
    tail -40 "$fuzz_out/$target.log"
    echo "fuzz: meeple_fuzz_$target found a problem; its input is in $fuzz_out"
    exit 1
  fi
done
rm -rf "$fuzz_out"

# ThreadSanitizer: the searches that share one tree (or one root) between threads (the rest is single-threaded and
# already covered above). Any report fails the run.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEEPLE_SANITIZE=thread -DMEEPLE_BUILD_BENCH=OFF
cmake --build build-tsan -j "$jobs" --target meeple_tests
TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/bin/meeple_tests \
  --gtest_filter='Mcts.TreeParallel*:Mcts.RootParallel*:Mcts/EverySearch.CompletesACityForPointsTwoPlayers/*:Expectimax.TwoThreads*:Policy.TwoThreads*:Network.TwoThreads*'
