#!/usr/bin/env bash
# The qless benchmark in one command: builds if needed, starts a private
# redis-server (unix socket + 127.0.0.1, no persistence), runs qless-bench
# with the Python, Ruby and Lua life-cycle drivers, prints the table and
# writes it as JSON, then stops the server.
#   bash bench/run.sh [--quick] [--json FILE]     (default FILE: build/bench/results.json)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${QLESS_BUILD_DIR:-build}"
quick=()
json="$BUILD/bench/results.json"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --json) json="$2"; shift ;;
    *) echo "usage: bash bench/run.sh [--quick] [--json FILE]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$BUILD/bench/qless-bench" ] || bash scripts/build.sh >/dev/null
state="$(mktemp -d /tmp/qless-bench.XXXXXX)"
bash tests/redis-fixture.sh start "$state" >/dev/null
trap 'bash tests/redis-fixture.sh stop "$state"; rm -rf "$state"' EXIT
sock="$(cat "$state/socket")"
export QLESS_URL="unix://$sock"
root="$(pwd)"

"$BUILD/bench/qless-bench" --socket "$sock" --lib "$BUILD/lua/qless-lib.lua" "${quick[@]}" --json "$json" \
  --driver "python=PYTHONPATH='$BUILD/bindings/python' /usr/bin/python3 '$root/bench/roundtrip.py'" \
  --driver "ruby=ruby -I '$root/bindings/ruby/lib' -I '$BUILD/bindings/ruby/ext' '$root/bench/roundtrip.rb'" \
  --driver "lua=LUA_CPATH='$BUILD/bindings/lua/?.so;;' LUA_PATH='$root/bindings/lua/?.lua;$root/bindings/lua/?/init.lua;;' lua5.4 '$root/bench/roundtrip.lua'"
echo "JSON: $json"
