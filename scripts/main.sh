#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job
# against a private redis-server that is stopped again afterwards: the
# protocol walk-through, then the same queue used from C, Python, Ruby and Lua.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
BUILD="$(cd "${QLESS_BUILD_DIR:-build}" && pwd)"
state="$BUILD/main-redis"
bash tests/redis-fixture.sh start "$state" >/dev/null
trap 'bash tests/redis-fixture.sh stop "$state"' EXIT
sock="$(cat "$state/socket")"
export QLESS_URL="unix://$sock"
bold() { printf '\n\033[1m%s\033[0m\n' "$*"; }

bash scripts/walkthrough.sh "$BUILD/lua/qless.lua" -s "$sock"

bold "9. C: install libqless into $BUILD/prefix, build the examples with pkg-config, produce and consume"
cmake --install "$BUILD" --prefix "$BUILD/prefix" >/dev/null
mkdir -p "$BUILD/examples"
PKG_CONFIG_PATH="$BUILD/prefix/lib/pkgconfig" make -s -C examples OUT="$BUILD/examples"
export LD_LIBRARY_PATH="$BUILD/prefix/lib"
"$BUILD/examples/producer" squares 5 | tr '\n' ' '; echo
"$BUILD/examples/consumer" squares
unset LD_LIBRARY_PATH

bold "10. Python (bindings/python/example.py)"
PYTHONPATH="$BUILD/bindings/python" /usr/bin/python3 -P bindings/python/example.py
bold "11. Ruby (bindings/ruby/example.rb)"
ruby -I bindings/ruby/lib -I "$BUILD/bindings/ruby/ext" bindings/ruby/example.rb
bold "12. Lua (bindings/lua/example.lua)"
LUA_CPATH="$BUILD/bindings/lua/?.so;;" LUA_PATH="bindings/lua/?.lua;bindings/lua/?/init.lua;;" \
  lua5.4 bindings/lua/example.lua
