#!/usr/bin/env bash
# The ABI of libqless.so against the committed baseline (docs/conventions.md).
#   check-abi.sh dump  LIB BASELINE HEADERS   write BASELINE from LIB (scripts/abi-baseline.sh)
#   check-abi.sh check LIB BASELINE HEADERS   abi.check: fail on an incompatible change
# Only types of the public headers (HEADERS) count: the handles' structs are
# opaque there, so their layout may change. The dump leaves out what would
# make it differ between machines: paths (only file names are kept) and
# DT_NEEDED; type ids are hashes, not sequence numbers.
set -euo pipefail
mode="${1:?usage: check-abi.sh dump|check LIB BASELINE HEADERS}"
lib="${2:?usage}"; base="${3:?usage}"; inc="${4:?usage}"
for p in abidw abidiff readelf; do
  command -v "$p" >/dev/null || { echo "abi.check: $p not found (scripts/deps.sh installs abigail-tools)" >&2; exit 1; }
done
# Without DWARF abidw sees symbols but no types: a layout change would pass.
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
  echo "abi.check: $lib has no debug info; build with -DCMAKE_BUILD_TYPE=RelWithDebInfo (scripts/build.sh does)" >&2
  exit 1
fi

case "$mode" in
dump)
  # --short-locs, not --no-show-locs: abidiff tells public types from
  # private ones by their header, and a baseline without locations would
  # hide changes to public structs.
  abidw --headers-dir "$inc" --drop-private-types --no-corpus-path --no-comp-dir-path --short-locs \
    --no-elf-needed --type-id-style hash --out-file "$base" "$lib"
  ;;
check)
  [ -f "$base" ] || { echo "abi.check: no baseline $base (bash scripts/abi-baseline.sh)" >&2; exit 1; }
  rc=0
  report="$(abidiff --headers-dir2 "$inc" --drop-private-types --fail-no-debug-info "$base" "$lib" 2>&1)" || rc=$?
  # abidiff's status is a bit set: 1 error, 2 usage error, 4 ABI change,
  # 8 incompatible ABI change (4 alone: compatible, e.g. added functions).
  if (( rc & 3 )); then
    echo "$report" >&2
    echo "abi.check: abidiff failed (status $rc)" >&2
    exit 1
  fi
  if (( rc & 8 )); then
    echo "$report" >&2
    echo "abi.check: INCOMPATIBLE ABI change against $base (status $rc)." >&2
    echo "  Undo it, or make it a major release: bump the SONAME, then bash scripts/abi-baseline.sh." >&2
    exit 1
  fi
  if (( rc & 4 )); then
    # Bit 8 is only set for removed symbols and a few other kinds: a moved or
    # retyped struct member sets bit 4 alone. So every change but the added
    # functions (left out by --no-added-syms) must be known to be compatible.
    rc2=0
    changes="$(abidiff --no-added-syms --headers-dir2 "$inc" --drop-private-types --fail-no-debug-info \
      "$base" "$lib" 2>&1)" || rc2=$?
    if (( rc2 & 4 )) && ! /usr/bin/python3 "$(dirname "$0")/abi-compatible.py" <<< "$changes"; then
      echo "$report" >&2
      echo "abi.check: INCOMPATIBLE ABI change against $base (status $rc)." >&2
      echo "  Undo it, or make it a major release: bump the SONAME, then bash scripts/abi-baseline.sh." >&2
      exit 1
    fi
    echo "$report"
    echo "abi.check: compatible changes only (status $rc); record them with bash scripts/abi-baseline.sh"
  else
    echo "abi.check: same ABI as $base"
  fi
  ;;
*)
  echo "check-abi.sh: unknown mode $mode" >&2; exit 2 ;;
esac
