#!/usr/bin/env bash
# The Python package in a virtual environment of the repository (.venv): creates it if missing and
# (re)installs meeple with its test dependencies and those of the environment wrappers (OpenSpiel,
# PettingZoo, Gymnasium). The C++ build is kept in build-python/, so reinstalling after a change rebuilds
# only what changed. Usage: bash scripts/python.sh; then .venv/bin/python.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q ".[test,envs]"
.venv/bin/python -c "import meeple; print('python: meeple', meeple.__file__)"
