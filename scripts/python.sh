#!/usr/bin/env bash
# The Python package in a virtual environment of the repository (.venv): creates it if missing and
# (re)installs meeple with its test dependencies, those of the environment wrappers (OpenSpiel,
# PettingZoo, Gymnasium) and those of experiments/ppo.py (JAX, flax, optax), and the C++ command line as .venv/bin/meeple. The C++ build is kept in build-python/,
# so reinstalling after a change rebuilds only what changed. Usage: bash scripts/python.sh; then
# .venv/bin/python and .venv/bin/meeple.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q ".[test,envs,train]"
.venv/bin/python -c "import meeple; print('python: meeple', meeple.__file__)"
# The C++ command line (meeple selfplay, match, replay, ...) comes out of the same CMake build as the module:
# installed beside .venv/bin/python, so that `.venv/bin/meeple` (or `meeple` in the activated environment) runs.
cli=$(ls -t build-python/*/bin/meeple 2>/dev/null | head -n 1 || true)
if [ -n "$cli" ]; then
  install -m 755 "$cli" .venv/bin/meeple
  echo "cli: $(.venv/bin/meeple --version 2>/dev/null || echo meeple) at .venv/bin/meeple"
else
  echo "python.sh: no C++ command line in build-python/*/bin; build it with cmake (README: Building by hand)" >&2
fi
