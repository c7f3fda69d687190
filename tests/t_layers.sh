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
# The top level is fixed: a file outside these names (a generator in a new
# tools/ folder, say) belongs in one of them.
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	extra=$(git -C "$TOP" ls-files | cut -d/ -f1 | sort -u |
		grep -vxE 'stages|common|corpus-samples|bench|tests|docs|Makefile|run_pipeline\.sh|README\.md|\.ci|\.gitignore' || true)
	if [ -n "$extra" ]; then
		echo "t_layers: outside the fixed top-level layout:" $extra >&2
		exit 1
	fi
fi
