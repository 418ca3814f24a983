#!/usr/bin/env bash
# README command 2: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
cd "${QLESS_BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)" "$@"
