#!/bin/sh
# make bench: every benchmark script bench/*.sh (but this one), in name
# order; never part of the tests.  Output goes to the terminal and, with
# the commit and date, to $BUILD/bench-results.txt.  BENCH_ONLY=tables
# runs only bench/tables.sh.  Each line a benchmark prints as
# "summary: TEXT" becomes a row of docs/bench-log.md (BENCH_LOG), with
# the date and the commit, so figures always name the code they measured.
set -u
BUILD=${BUILD:-build}
export BUILD
# As run_pipeline.sh does: stages in a pipe share the cores, and spinning
# OpenMP threads would take them from each other.
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export OMP_WAIT_POLICY
OUT=$BUILD/bench-results.txt
LOG=${BENCH_LOG:-docs/bench-log.md}
# The commit measured; -dirty when code differs from it (docs/ aside, where
# this log itself is written).
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- . ':!docs' 2>/dev/null || commit=$commit-dirty
{
	echo "ndd benchmarks, commit $commit," \
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
[ -f "$LOG" ] || printf '%s\n\n%s\n%s\n' \
	"# Bench log: one row per summary line of \`make bench\` (see BENCHMARKS.md)" \
	"| date (UTC) | commit | cores | benchmark | summary |" "|---|---|---|---|---|" > "$LOG"
awk -v d="$(date -u +%F)" -v c="$commit" -v n="$(nproc)" '
	/^######## / { bench = $2 }
	/^summary: / { sub(/^summary: /, ""); gsub(/[|]/, "/"); printf "| %s | %s | %s | %s | %s |\n", d, c, n, bench, $0 }
' "$OUT" >> "$LOG"
echo "results written to $OUT, summary rows to $LOG"
