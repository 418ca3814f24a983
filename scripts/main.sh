#!/usr/bin/env bash
# README command 1: install what is missing, build, then run the demo
# (demo/demo.py): the embedded server in build/demo-server, jobs put from the
# qless CLI, Python, Ruby and Lua and run by the Python, Ruby and Lua workers,
# a schedule filled from Python and the CLI and run by `qless schedule listen`,
# with a live progress line and a summary; the dashboard (`qless web`) runs
# beside it and its URL is printed. --keep-web leaves the dashboard and the
# embedded server running afterwards (the demo prints how to stop them).
# Exits with the demo's status.
set -euo pipefail
case "${1:-}" in
  --keep-web) export QLESS_DEMO_KEEP_WEB=1 ;;
  "") ;;
  *) echo "usage: bash scripts/main.sh [--keep-web]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD="$(cd "${QLESS_BUILD_DIR:-build}" && pwd)"
# Debian's interpreter: the qless Python package is built for it. -P keeps
# the current directory off sys.path.
exec /usr/bin/python3 -P demo/demo.py "$BUILD"
