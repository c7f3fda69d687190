#!/bin/sh
# make bench: every benchmark script bench/*.sh (but this one), in name
# order; never part of the tests.  Output goes to the terminal and, with
# the commit and date, to $BUILD/bench-results.txt.  BENCH_ONLY=tables
# runs only bench/tables.sh.
set -u
BUILD=${BUILD:-build}
export BUILD
# As run_pipeline.sh does: stages in a pipe share the cores, and spinning
# OpenMP threads would take them from each other.
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export OMP_WAIT_POLICY
OUT=$BUILD/bench-results.txt
{
	echo "ndd benchmarks, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
		"$(date -u +%FT%TZ), $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB"
	status=0
	for s in bench/*.sh; do
		name=$(basename "$s" .sh)
		[ "$name" = run ] && continue
		[ -n "${BENCH_ONLY:-}" ] && [ "$name" != "$BENCH_ONLY" ] && continue
		echo
		echo "######## $name"
		sh "$s" || { echo "bench $name FAILED"; status=1; }
	done
	exit $status
} 2>&1 | tee "$OUT"
echo "results written to $OUT"
