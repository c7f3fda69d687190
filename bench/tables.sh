#!/bin/sh
# The table stages' benchmark (run by bench/run.sh): codec figures, then
# permute-sort, compress and self-join per N and thread count, and the
# brute-force baseline measured in the same run.
#
#   BENCH_N="1000000 10000000"  fingerprint counts for the table stages
#   BENCH_K=3                   Hamming radius
#   BENCH_THREADS="1 2"         thread counts
#   BENCH_BRUTE_N=50000         size of the brute-force baseline
#   BENCH_DIR=/tmp/ndd-bench    scratch space (several GB at 10M)
set -u
BUILD=${BUILD:-build}
BIN=$BUILD/bin
N_LIST=${BENCH_N:-"1000000 10000000"}
K=${BENCH_K:-3}
THREADS=${BENCH_THREADS:-"1 2"}
BRUTE_N=${BENCH_BRUTE_N:-50000}
DIR=${BENCH_DIR:-/tmp/ndd-bench}
OUT=$BUILD/bench-results.txt
mkdir -p "$DIR"
# Everything below goes to the terminal and to $OUT.
if [ -z "${NDD_BENCH_TEED:-}" ]; then
	NDD_BENCH_TEED=1 sh "$0" "$@" 2>&1 | tee "$OUT"
	exit 0
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

echo "ndd benchmarks, commit $commit, $(date -u +%FT%TZ), $(nproc) cores"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
# The stages end with "...; X s wall, Y s CPU, Z MB peak RSS": keep the RSS.
rss() { sed -n 's/.* \([0-9.]*\) MB peak RSS$/\1/p' "$1" | tail -1; }

echo
echo "== codec: bits per key against the bound, block decode speed =="
"$BUILD/bench/bench_codec" 2>&1 | tail -n 20

echo
echo "== table stages: permute-sort, compress, self-join (k = $K) =="
printf '%-10s %-3s %9s %9s %9s %9s %9s %10s %10s %10s\n' N t permute compress join total "cmp/fp" pairs "bits/rec" "peakMB"
for n in $N_LIST; do
	"$BUILD/bench/gen_fps" -n "$n" -k "$K" -s 1 -o "$DIR/fps.ndf" || exit 1
	for t in $THREADS; do
		t0=$(now)
		"$BIN/ndd-permute-sort" -t "$t" -k "$K" -o "$DIR/raw.ndf" "$DIR/fps.ndf" 2> "$DIR/ps.log" || exit 1
		tp=$(elapsed "$t0"); t1=$(now)
		"$BIN/ndd-compress" -t "$t" -o "$DIR/tab.ndf" "$DIR/raw.ndf" 2> "$DIR/c.log" || exit 1
		tc=$(elapsed "$t1"); t2=$(now)
		"$BIN/ndd-self-join" -t "$t" -c "$DIR/fps.ndf" --stats "$DIR/j.json" -o "$DIR/c.csv" \
			"$DIR/tab.ndf" 2> "$DIR/j.log" || exit 1
		tj=$(elapsed "$t2")
		total=$(awk -v a="$tp" -v b="$tc" -v c="$tj" 'BEGIN { printf "%.3f", a + b + c }')
		cmp=$(sed -n 's/.*"comparisons_per_document": \([0-9.]*\).*/\1/p' "$DIR/j.json")
		pairs=$(sed -n 's/.*"pairs": \([0-9]*\).*/\1/p' "$DIR/j.json")
		bits=$(sed -n 's/.*(\([0-9.]*\) bits\/record).*/\1/p' "$DIR/c.log")
		peak=$(printf '%s\n%s\n%s\n' "$(rss "$DIR/ps.log")" "$(rss "$DIR/c.log")" "$(rss "$DIR/j.log")" | sort -n | tail -1)
		printf '%-10s %-3s %9s %9s %9s %9s %9s %10s %10s %10s\n' "$n" "$t" "$tp" "$tc" "$tj" "$total" "$cmp" "$pairs" "$bits" "$peak"
	done
done
rm -f "$DIR/raw.ndf" "$DIR/tab.ndf" "$DIR/c.csv"

echo
echo "== baseline: brute force over all pairs, N = $BRUTE_N (quadratic) =="
"$BUILD/bench/gen_fps" -n "$BRUTE_N" -k "$K" -s 1 -o "$DIR/fps-small.ndf" || exit 1
t0=$(now)
"$BUILD/bench/gen_fps" -n "$BRUTE_N" -k "$K" -s 1 --brute "$DIR/brute.txt" -o "$DIR/fps-small.ndf"
tb=$(elapsed "$t0")
t0=$(now)
"$BIN/ndd-permute-sort" -q -k "$K" "$DIR/fps-small.ndf" | "$BIN/ndd-compress" -q |
	"$BIN/ndd-self-join" -q -c "$DIR/fps-small.ndf" --pairs "$DIR/pairs.txt" -o "$DIR/c.csv"
ts=$(elapsed "$t0")
same=no
sort "$DIR/brute.txt" | cmp -s - "$(sort "$DIR/pairs.txt" > "$DIR/pairs.sorted"; echo "$DIR/pairs.sorted")" && same=yes
echo "brute force: $tb s (includes generating); tables: $ts s; same pairs: $same"
for n in $N_LIST; do
	awk -v n="$n" -v b="$BRUTE_N" -v t="$tb" 'BEGIN { printf "brute force extrapolated to N = %d: %.0f s\n", n, t * (n / b) * (n / b) }'
done
