#!/usr/bin/env bash
# Regenerates the ABI baseline abi/libqless.abi from a fresh build of
# libqless.so (in ./build, or $QLESS_BUILD_DIR). Only with a SONAME bump for
# an incompatible change, or to record compatible additions that abi.check
# has passed: see docs/conventions.md, "The ABI baseline".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${QLESS_BUILD_DIR:-build}"
[ -f "$BUILD/CMakeCache.txt" ] || bash scripts/build.sh
cmake --build "$BUILD" --target qless -j1 >/dev/null
# The real file the development link points at (libqless.so.MAJOR.MINOR.PATCH
# of this build), so a version bump needs no change here.
lib="$(readlink -f "$BUILD/core/libqless.so")"
[ -f "$lib" ] || { echo "abi-baseline: no libqless.so in $BUILD/core" >&2; exit 1; }
bash tests/c/check-abi.sh dump "$lib" abi/libqless.abi core/include/qless
# The new baseline must match the library it was made from.
bash tests/c/check-abi.sh check "$lib" abi/libqless.abi core/include/qless
echo "abi-baseline: wrote abi/libqless.abi from $lib ($(grep -c '<elf-symbol ' abi/libqless.abi) symbols)"
