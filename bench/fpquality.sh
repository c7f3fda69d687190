#!/bin/sh
# Fingerprint quality (run by bench/run.sh): the labelled evaluation of
# bench/fpquality.py on real Debian documentation pages and planted
# variants, through the real stages for k = 1..8, with the plain baseline
# in the same run.  Needs python3, python3-doc, debian-reference-zh-cn
# (and optionally maint-guide-zh-cn) installed.
#   FPQ_K="1 2 3 4 5 6 7 8"  radii;  FPQ_OPTS="--method simhash"  fingerprint options
#   BENCH_DIR=/tmp/ndd-bench  scratch space
set -u
BUILD=${BUILD:-build}
DIR=${BENCH_DIR:-/tmp/ndd-bench}/fpq
if [ ! -d /usr/share/doc/python3/html/library ] || [ ! -d /usr/share/debian-reference ]; then
	echo "fpquality: skipped: install python3-doc debian-reference-zh-cn (apt-get install)"
	exit 0
fi
make -s "$BUILD/bench/fp_baseline" || exit 1
exec python3 bench/fpquality.py --bin "$BUILD/bin" --bench-bin "$BUILD/bench" --dir "$DIR" \
	--k "${FPQ_K:-1 2 3 4 5 6 7 8}" --fp-opts "${FPQ_OPTS:-}" --diag 6
