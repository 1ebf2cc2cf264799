#!/usr/bin/env bash
# Every test: installs what is missing, builds, runs the suite in Release and again under
# AddressSanitizer + UndefinedBehaviorSanitizer, the multi-threaded search tests under ThreadSanitizer, and
# the Python package's tests (pytest) in the repository's virtual environment.
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

# ThreadSanitizer: the searches that share one tree (or one root) between threads (the rest is single-threaded and
# already covered above). Any report fails the run.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMEEPLE_SANITIZE=thread -DMEEPLE_BUILD_BENCH=OFF
cmake --build build-tsan -j "$jobs" --target meeple_tests
TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/bin/meeple_tests \
  --gtest_filter='Mcts.TreeParallel*:Mcts.RootParallel*:Mcts/EverySearch.CompletesACityForPointsTwoPlayers/*:Expectimax.TwoThreads*:Policy.TwoThreads*'
