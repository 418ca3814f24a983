#!/usr/bin/env bash
# The protocol fuzzer's long form (test_fuzz.py; ctest runs a short one):
#   bash tests/protocol/fuzz.sh [CALLS [SECONDS [SEED]]]    (default 200000 600)
# runs it in both forms, EVALSHA and FCALL, against a private redis-server.
# QLESS_BUILD_DIR picks the build tree (default build).
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${QLESS_BUILD_DIR:-build}"
[ -f "$build/lua/qless.lua" ] || { echo "fuzz.sh: build first (scripts/build.sh)" >&2; exit 2; }
state="$(mktemp -d /tmp/qless-fuzz.XXXXXX)"
trap 'bash tests/redis-fixture.sh stop "$state"; rm -rf "$state"' EXIT
bash tests/redis-fixture.sh start "$state" >/dev/null
export QLESS_TEST_STATE="$state" QLESS_LUA_SCRIPT="$build/lua/qless.lua" \
  QLESS_LUA_LIBRARY="$build/lua/qless-lib.lua" \
  QLESS_FUZZ_CALLS="${1:-200000}" QLESS_FUZZ_SECONDS="${2:-600}" QLESS_FUZZ_SEED="${3:-${QLESS_FUZZ_SEED:-}}"
rc=0
for mode in script function; do
  QLESS_PROTOCOL_MODE=$mode /usr/bin/python3 -m pytest -q -p no:cacheprovider \
    tests/protocol/test_fuzz.py || rc=1
done
exit $rc
