#!/usr/bin/env bash
# Installs the meeple build in $1 into a temporary prefix, then configures, builds and runs the project in
# this folder against it with find_package(meeple), as a researcher's own C++ project would. Then configures
# the same project with meeple's sources added by add_subdirectory (configure only: the targets meeple::core
# and meeple::ai exist there too, and meeple's tests and benchmarks are off by default).
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component sdk >/dev/null
test -f "$work/prefix/include/meeple/version.h"
test -x "$work/prefix/bin/meeple"
cmake -S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
cmake -S "$here" -B "$work/superproject" -DMEEPLE_SOURCE_DIR="$here/../.." >/dev/null
