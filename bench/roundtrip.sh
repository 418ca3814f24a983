#!/usr/bin/env bash
# Sequential put -> pop -> complete jobs/s: bare hiredis, C, Python, Ruby, Lua,
# all in one run against one private redis-server (unix socket, no
# persistence) that this script starts and stops.
#   bash bench/roundtrip.sh [N]       (default 5000 jobs per loop)
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-5000}"
BUILD="${QLESS_BUILD_DIR:-build}"
[ -f "$BUILD/bench/roundtrip" ] || bash scripts/build.sh
state="$(mktemp -d /tmp/qless-bench.XXXXXX)"
bash tests/redis-fixture.sh start "$state" >/dev/null
trap 'bash tests/redis-fixture.sh stop "$state"; rm -rf "$state"' EXIT
sock="$(cat "$state/socket")"
export QLESS_URL="unix://$sock"

"$BUILD/bench/roundtrip" "$sock" "$BUILD/lua/qless.lua" "$N"
PYTHONPATH="$BUILD/bindings/python" /usr/bin/python3 bench/roundtrip.py "$N"
ruby -I bindings/ruby/lib -I "$BUILD/bindings/ruby/ext" bench/roundtrip.rb "$N"
LUA_CPATH="$BUILD/bindings/lua/?.so;;" LUA_PATH="bindings/lua/?.lua;bindings/lua/?/init.lua;;" \
  lua5.4 bench/roundtrip.lua "$N"
