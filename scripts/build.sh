#!/usr/bin/env bash
# Configures and builds libqless into ./build (or $QLESS_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${QLESS_BUILD_DIR:-build}"
# Debian's interpreter is the one that has python3-pytest and python3-redis;
# the pyenv python3 on PATH has neither.
cmake -S . -B "$BUILD" -DPython3_EXECUTABLE=/usr/bin/python3 -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
