#!/usr/bin/env bash
# c.symbols: the dynamic symbols libqless.so defines must be exactly the
# functions declared with QLESS_EXTERN in the public headers, and the SONAME
# must be libqless.so.1.
#   check-symbols.sh <path/to/libqless.so> <core/include/qless>
set -euo pipefail
lib="${1:?usage: check-symbols.sh LIB INCLUDE_DIR}"
inc="${2:?usage: check-symbols.sh LIB INCLUDE_DIR}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Declared: QLESS_EXTERN(<type>) <name>( ... — skipping the macro's own #define.
grep -h -v '^[[:space:]]*#' "$inc"/*.h \
  | grep -oE 'QLESS_EXTERN\([^()]*\)[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(' \
  | sed -E 's/^QLESS_EXTERN\([^()]*\)[[:space:]]*([A-Za-z_][A-Za-z0-9_]*).*/\1/' \
  | sort -u > "$tmp/declared"
# Exported: every defined dynamic symbol except absolute ones (version nodes).
nm -D --defined-only "$lib" | awk 'NF >= 3 && $2 != "A" { print $3 }' | sed 's/@.*//' \
  | sort -u > "$tmp/exported"

ndecl=$(wc -l < "$tmp/declared")
nexp=$(wc -l < "$tmp/exported")
status=0
if [ "$ndecl" -lt 50 ]; then
  echo "c.symbols: only $ndecl QLESS_EXTERN declarations parsed from $inc: parser broken?" >&2
  status=1
fi
if ! diff -u "$tmp/declared" "$tmp/exported" > "$tmp/diff"; then
  echo "c.symbols: exported symbols differ from the QLESS_EXTERN declarations" >&2
  echo "  (- declared but not exported, + exported but not declared)" >&2
  grep -E '^[-+][^-+]' "$tmp/diff" >&2 || true
  status=1
fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" != "libqless.so.1" ]; then
  echo "c.symbols: SONAME is '$soname', expected libqless.so.1" >&2
  status=1
fi
# Every export carries the QLESS_1 version node of qless.map.
unversioned=$(objdump -T "$lib" | awk '$2 ~ /g/ && $4 != "*UND*" && $NF ~ /^qless_/ && $(NF-1) !~ /QLESS_1/' | wc -l)
if [ "$unversioned" -ne 0 ]; then
  echo "c.symbols: $unversioned exported symbols lack the QLESS_1 version" >&2
  status=1
fi
[ $status -eq 0 ] && echo "c.symbols: $nexp exported symbols == $ndecl declared; SONAME $soname"
exit $status
