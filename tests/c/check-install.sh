#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and checks what a user of
# the installed library sees.
#   check-install.sh pkgconfig BUILD_DIR SOURCE_DIR
#       .pc points at the prefix; a consumer compiled with
#       `pkg-config --cflags --libs libqless` runs (shared), and one linked
#       with `pkg-config --static` against libqless.a runs too.
#   check-install.sh examples BUILD_DIR SOURCE_DIR
#       examples/Makefile builds the examples against the prefix; producer
#       then worker (the engine), process jobs on the fixture
#       redis.
# Needs QLESS_TEST_STATE (the ctest redis fixture). The prefix is removed.
set -euo pipefail
mode="${1:?mode}"; build="${2:?build dir}"; src="${3:?source dir}"
: "${QLESS_TEST_STATE:?run through ctest (redis fixture)}"
port="$(cat "$QLESS_TEST_STATE/port")"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/qless-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() { echo "c.$mode: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
pc="$(find "$prefix" -name libqless.pc -path '*/pkgconfig/*' | head -n1)"
[ -n "$pc" ] || fail "no libqless.pc installed under $prefix"
export PKG_CONFIG_PATH="$(dirname "$pc")"
libdir="$(pkg-config --variable=libdir libqless)"
[ -f "$prefix/include/qless/qless.h" ] || fail "headers not installed in $prefix/include/qless"
for f in libqless.so libqless.so.1 libqless.a; do
  [ -e "$libdir/$f" ] || fail "$libdir/$f missing"
done
redis_url="redis://127.0.0.1:$port/0"
cc="${CC:-cc}"
# Start from an empty server like every other suite: state left by the suite
# that ran before (say, jobs-history set to purge at once) must not decide
# the outcome here.
redis-cli -p "$port" FLUSHALL > /dev/null || fail "cannot flush the fixture redis-server"

# check_squares FILE: the jobs the producer listed in FILE ("<jid> <data>"
# lines) are complete with n and its square, the malformed one failed.
check_squares() {
  while read -r jid data; do
    state="$(redis-cli -p "$port" HGET "ql:j:$jid" state)"
    case "$data" in
      *oops*) [ "$state" = failed ] || fail "$jid is $state, expected failed" ;;
      *) [ "$state" = complete ] || fail "$jid is $state, expected complete"
         out="$(redis-cli -p "$port" HGET "ql:j:$jid" data)"
         n="${data//[^0-9]/}"
         [ "$out" = "{\"n\": $n, \"square\": $((n * n))}" ] || fail "$jid data is '$out'" ;;
    esac
  done < "$1"
}

case "$mode" in
pkgconfig)
  cflags="$(pkg-config --cflags libqless)"
  libs="$(pkg-config --libs libqless)"
  echo "pkg-config: $pc"; echo "  --cflags: $cflags"; echo "  --libs: $libs"
  [ "$(pkg-config --variable=prefix libqless)" = "$prefix" ] || fail "prefix in .pc is not $prefix"
  case "$cflags" in *"-I$prefix/include"*) ;; *) fail "--cflags does not point at $prefix/include: $cflags";; esac
  case "$libs" in *"-L$libdir"*"-lqless"*) ;; *) fail "--libs does not point at $libdir: $libs";; esac
  [ "$(pkg-config --modversion libqless)" = "1.0.0" ] || fail "--modversion is not 1.0.0"

  # Shared.
  # shellcheck disable=SC2086
  "$cc" -Wall -Werror "$src/tests/c/install-consumer.c" $cflags $libs -o "$tmp/consumer-shared"
  resolved="$(LD_LIBRARY_PATH="$libdir" ldd "$tmp/consumer-shared" | awk '/libqless/ {print $3}')"
  [ "$resolved" = "$libdir/libqless.so.1" ] || fail "consumer resolves libqless to '$resolved', not $libdir/libqless.so.1"
  LD_LIBRARY_PATH="$libdir" timeout 60 "$tmp/consumer-shared" "$redis_url" || fail "shared consumer failed"

  # Static libqless (hiredis and jansson from the system, via Requires.private).
  slibs="$(pkg-config --static --libs libqless)"
  echo "  --static --libs: $slibs"
  case "$slibs" in *-lhiredis*) ;; *) fail "--static --libs lacks hiredis: $slibs";; esac
  case "$slibs" in *-ljansson*) ;; *) fail "--static --libs lacks jansson: $slibs";; esac
  slibs="${slibs/-lqless/$libdir/libqless.a}"
  # shellcheck disable=SC2086
  "$cc" -Wall -Werror "$src/tests/c/install-consumer.c" $cflags $slibs -o "$tmp/consumer-static"
  if readelf -d "$tmp/consumer-static" | grep -q 'libqless'; then fail "static consumer still needs libqless.so"; fi
  timeout 60 "$tmp/consumer-static" "$redis_url" || fail "static consumer failed"
  echo "c.pkgconfig: ok"
  ;;
examples)
  mkdir -p "$tmp/ex"
  make -s -C "$src/examples" OUT="$tmp/ex" CFLAGS="-O1 -g -Wall -Wextra -Werror" > "$tmp/make.log" 2>&1 \
    || { cat "$tmp/make.log" >&2; fail "make in examples/ failed"; }
  for p in hello producer worker; do [ -x "$tmp/ex/$p" ] || fail "examples/$p not built"; done
  export LD_LIBRARY_PATH="$libdir"
  QLESS_URL="$redis_url" timeout 60 "$tmp/ex/hello" > "$tmp/hello.out" || fail "hello failed"
  grep -Eqx "[0-9a-f]{32} is complete" "$tmp/hello.out" || fail "hello printed '$(cat "$tmp/hello.out")'"
  queue="examples-$$"
  redis-cli -p "$port" DEL "ql:q:$queue-work" > /dev/null
  "$tmp/ex/producer" -u "$redis_url" -b "$queue" 5 > "$tmp/producer.out" || fail "producer failed"
  [ "$(wc -l < "$tmp/producer.out")" -eq 6 ] || fail "producer printed $(wc -l < "$tmp/producer.out") jids, expected 6"
  # worker (the engine's program) stops after the 6 jobs (--max-jobs) with
  # status 0; one of them is bad input and fails.
  # The URL from the environment, as --help advises for credentials.
  QLESS_URL="$redis_url" timeout 60 "$tmp/ex/worker" --queue "$queue" --max-jobs 6 --interval 0.1 \
    > "$tmp/worker.out" 2>&1 || { cat "$tmp/worker.out" >&2; fail "worker failed (or hung)"; }
  [ "$(grep -c ' complete in ' "$tmp/worker.out")" -eq 5 ] || fail "worker did not complete 5 jobs: $(cat "$tmp/worker.out")"
  [ "$(grep -c ' failed bad-input ' "$tmp/worker.out")" -eq 1 ] || fail "worker did not fail the bad job: $(cat "$tmp/worker.out")"
  check_squares "$tmp/producer.out"
  "$tmp/ex/producer" -u "$redis_url" > /dev/null 2>&1 && fail "producer without arguments succeeded"
  "$tmp/ex/worker" --url "$redis_url" > /dev/null 2>&1 && fail "worker without --queue succeeded"
  echo "c.examples: ok"
  ;;
*) fail "unknown mode $mode" ;;
esac
