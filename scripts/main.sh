#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job
# against a private redis-server that is stopped again afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD="${QLESS_BUILD_DIR:-build}"
state="$BUILD/main-redis"
bash tests/redis-fixture.sh start "$state" >/dev/null
trap 'bash tests/redis-fixture.sh stop "$state"' EXIT
bash scripts/walkthrough.sh "$BUILD/lua/qless.lua" -s "$(cat "$state/socket")"
