#!/usr/bin/env bash
# The qless benchmark in one command: builds if needed, starts private
# redis-servers (unix socket + 127.0.0.1, no persistence), runs qless-bench
# with the Python, Ruby, Lua and PHP life-cycle drivers and the C, Python,
# Ruby, Lua and PHP worker programs (no-op jobs: the conformance suite's Noop classes),
# prints the table and writes it as JSON, then stops the servers.
# Then bench/profile.py prints the per-command, per-part and memory profile
# (INFO commandstats, MEMORY USAGE) on the main server, JSON beside FILE.
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
[ -x "$BUILD/bench/qless-bench" ] && [ -x "$BUILD/tests/worker/qless-cworker" ] || bash scripts/build.sh >/dev/null
# One server for the main rows and one per scaling level (1k, 100k, 1M;
# --quick: 1k, 100k), each level alone in its server's memory.
nlevels=3
[ ${#quick[@]} -eq 0 ] || nlevels=2
states=()
cleanup() {
  for s in "${states[@]}"; do bash tests/redis-fixture.sh stop "$s"; rm -rf "$s"; done
}
trap cleanup EXIT
levels=()
for i in $(seq 0 "$nlevels"); do
  s="$(mktemp -d /tmp/qless-bench.XXXXXX)"
  states+=("$s")
  bash tests/redis-fixture.sh start "$s" >/dev/null
  [ "$i" -eq 0 ] || levels+=(--level-socket "$(cat "$s/socket")")
done
sock="$(cat "${states[0]}/socket")"
export QLESS_URL="unix://$sock"
root="$(pwd)"
jobs="$root/tests/worker/jobs"   # the no-op job class of each worker program, Noop: all it may run (--allow)
php="php -n -d extension='$(cd "$BUILD" && pwd)/bindings/php/qless.so'"

"$BUILD/bench/qless-bench" --socket "$sock" --lib "$BUILD/lua/qless-lib.lua" "${quick[@]}" --json "$json" "${levels[@]}" \
  --driver "python=PYTHONPATH='$BUILD/bindings/python' /usr/bin/python3 '$root/bench/roundtrip.py'" \
  --driver "ruby=ruby -I '$root/bindings/ruby/lib' -I '$BUILD/bindings/ruby/ext' '$root/bench/roundtrip.rb'" \
  --driver "lua=LUA_CPATH='$BUILD/bindings/lua/?.so;;' LUA_PATH='$root/bindings/lua/?.lua;$root/bindings/lua/?/init.lua;;' lua5.4 '$root/bench/roundtrip.lua'" \
  --driver "php=$php '$root/bench/roundtrip.php'" \
  --worker "C serial,threads,processes Noop='$BUILD/tests/worker/qless-cworker'" \
  --worker "python serial,threads,processes conformance_jobs.Noop=env PYTHONPATH='$BUILD/bindings/python:$jobs/python' /usr/bin/python3 -m qless.worker --allow conformance_jobs.Noop" \
  --worker "ruby serial,processes ConformanceJobs::Noop=ruby -I '$BUILD/bindings/ruby/ext' -I '$root/bindings/ruby/lib' '$root/bindings/ruby/bin/qless-worker' --require '$jobs/ruby/conformance_jobs.rb' --allow ConformanceJobs::Noop" \
  --worker "lua serial,processes conformance_jobs.noop=env LUA_CPATH='$BUILD/bindings/lua/?.so;;' LUA_PATH='$root/bindings/lua/?.lua;$root/bindings/lua/?/init.lua;$jobs/lua/?.lua;$jobs/lua/?/init.lua;;' lua5.4 '$root/bindings/lua/qless-worker' --allow conformance_jobs.noop" \
  --worker "php serial,processes ConformanceJobs\\Noop=$php '$root/bindings/php/qless-worker' --require '$jobs/php/conformance_jobs.php' --allow 'ConformanceJobs\\Noop'"
profile_n=5000
[ ${#quick[@]} -eq 0 ] || profile_n=1000
/usr/bin/python3 bench/profile.py --socket "$sock" --lib "$BUILD/lua/qless-lib.lua" --n "$profile_n" \
  --floor bench/floor.lua --json "${json%.json}-profile.json"
echo "JSON: $json, ${json%.json}-profile.json"
