#!/bin/sh
# The include graph follows the folder order of common/README.md (see
# tests/check_layers.py), and the checker itself catches a violation.
set -e
python3 tests/check_layers.py "$TOP"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$TOP/common" "$TOP/stages" "$tmp/"
printf '#include "output/csv.h"\n' >>"$tmp/common/util/log.c"
if python3 tests/check_layers.py "$tmp" >"$tmp/out"; then
	echo "t_layers: an upward include was not caught" >&2
	exit 1
fi
grep -q 'util/ may not include output/' "$tmp/out"
