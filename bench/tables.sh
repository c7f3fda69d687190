#!/bin/sh
# The table stages' benchmark (run by bench/run.sh): codec figures; then,
# for each k and N, one table of the three ways to the clusters: permute-
# sort, compress and self-join one after another through files, the same
# as the pipe `permute-sort | compress | self-join`, and self-join
# --from-fingerprints (tables built and joined in memory): wall, CPU,
# peak RSS, temporary disk, pairs, with the pairs of a sample of the
# fingerprints checked against brute force; then two baselines measured
# in the same run: brute force over all pairs and the probe method (every
# fingerprint within k bits looked up by binary search), both
# extrapolated to each N.
#
#   BENCH_N="1000000 10000000"  fingerprint counts (BENCH_LONG=1 adds
#                               100000000: 7.7 GB of fingerprints on disk)
#   BENCH_K="3 6"               Hamming radii
#   BENCH_THREADS=2             thread counts
#   BENCH_SAMPLE_MAX=1000000    up to this N (BENCH_LONG: 100000000) the pairs
#   BENCH_SAMPLE_ROWS=10000     of N / ROWS-th fingerprints are brute-forced
#   BENCH_PIPE_MAX=20000000     above this N the pipe runs only for k <= 3
#   BENCH_BRUTE_N=50000         size of the brute-force and probe baselines
#   BENCH_STAGED_MAX=20000000   above this N no run through files (staging 100M
#                               fingerprints' raw tables writes 12 GB at k = 3)
#   BENCH_DIR=/tmp/ndd-bench    scratch space
#   BENCH_CRAWL_HOSTS=200       the end-to-end row: run_pipeline.sh on a
#                               bench/gen_crawl.py crawl of this many hosts
#                               (150-450 pages each: ~70,000 pages, 210 MB
#                               of .warc.gz; cached in BENCH_DIR; 0: no row)
#                               against the zlib inflate floor of the same
#                               files (bench/inflate_floor), in the same run
set -u
BUILD=${BUILD:-build}
BIN=$BUILD/bin
LONG=${BENCH_LONG:-}
N_LIST=${BENCH_N:-"1000000 10000000${LONG:+ 100000000}"}
K_LIST=${BENCH_K:-"3 6"}
K=$(echo $K_LIST | awk '{ print $1 }') # the baselines'
THREADS=${BENCH_THREADS:-2}
SAMPLE_MAX=${BENCH_SAMPLE_MAX:-${LONG:+100000000}}
SAMPLE_MAX=${SAMPLE_MAX:-1000000}
SAMPLE_ROWS=${BENCH_SAMPLE_ROWS:-10000}
PIPE_MAX=${BENCH_PIPE_MAX:-20000000}
BRUTE_N=${BENCH_BRUTE_N:-50000}
STAGED_MAX=${BENCH_STAGED_MAX:-20000000}
DIR=${BENCH_DIR:-/tmp/ndd-bench}
mkdir -p "$DIR"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
json() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$2" | head -1; }

echo "== codec: bits per key against the bound, block decode speed =="
"$BUILD/bench/bench_codec" 2>&1 | tail -n 12

echo
echo "== table stages, k = $K_LIST, threads $THREADS: through files, the pipe, in memory =="
printf '%-10s %-2s %-3s %-7s %8s %8s %8s %8s %10s %9s %7s %6s\n' N k t path wall CPU peakMB tmpMB \
	pairs cmp/fp tables check
# One run: wall and CPU (all processes) of the command line "$@", into
# $w and $c.
timed() {
	/usr/bin/time -f "%e %U %S" -o "$DIR/time" sh -c "$1" || return 1
	read -r w u s < "$DIR/time"
	c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
}
# Peak RSS in MB of each time -f %M file named, added up (processes of a
# pipe run at once).
peaks() { cat "$@" | awk '{ s += $1 } END { printf "%.0f", s / 1024 }'; }
mb() { du -cm "$@" 2>/dev/null | tail -1 | cut -f1; }
row() { printf '%-10s %-2s %-3s %-7s %8s %8s %8s %8s %10s %9s %7s %6s\n' "$@"; }
TM="/usr/bin/time -f %M -o"
for k in $K_LIST; do
for n in $N_LIST; do
	"$BUILD/bench/gen_fps" -n "$n" -k "$k" -s 1 -o "$DIR/fps.ndf" || exit 1
	check=-
	if [ "$n" -le "$SAMPLE_MAX" ]; then
		# every pair of every M-th fingerprint (about BENCH_SAMPLE_ROWS of
		# them) by brute force, against the pairs the tables find
		m=$((n / SAMPLE_ROWS)); [ "$m" -ge 1 ] || m=1
		"$BUILD/bench/gen_fps" -n "$n" -k "$k" -s 1 --brute "$DIR/sample.txt" --sample "$m" \
			-o "$DIR/fps.ndf" || exit 1
		tail -n +2 "$DIR/sample.txt" | sort > "$DIR/want"
		check=yes
	fi
	for t in $THREADS; do
		if [ "$n" -le "$STAGED_MAX" ]; then
			timed "$TM $DIR/m1 $BIN/ndd-permute-sort -q -t $t -k $k -o $DIR/raw.ndf $DIR/fps.ndf &&
				$TM $DIR/m2 $BIN/ndd-compress -q -t $t -o $DIR/tab.ndf $DIR/raw.ndf &&
				$TM $DIR/m3 $BIN/ndd-self-join -q -t $t -c $DIR/fps.ndf --stats $DIR/j.json \
					-o $DIR/c1.csv $DIR/tab.ndf" || exit 1
			tmp=$(mb "$DIR/raw.ndf" "$DIR/tab.ndf")
			rm -f "$DIR/raw.ndf" "$DIR/tab.ndf"
			peak=$(for f in m1 m2 m3; do peaks "$DIR/$f"; echo; done | sort -n | tail -1)
			row "$n" "$k" "$t" files "$w" "$c" "$peak" "$tmp" "$(json pairs "$DIR/j.json")" \
				"$(json comparisons_per_document "$DIR/j.json")" "$(json tables "$DIR/j.json")" -
		fi
		if [ "$n" -le "$PIPE_MAX" ] || [ "$k" -le 3 ]; then
			timed "$TM $DIR/m1 $BIN/ndd-permute-sort -q -t $t -k $k $DIR/fps.ndf |
				$TM $DIR/m2 $BIN/ndd-compress -q -t $t |
				$TM $DIR/m3 $BIN/ndd-self-join -q -t $t -c $DIR/fps.ndf --stats $DIR/j.json \
					-o $DIR/c2.csv" || exit 1
			row "$n" "$k" "$t" pipe "$w" "$c" "$(peaks "$DIR/m1" "$DIR/m2" "$DIR/m3")" 0 \
				"$(json pairs "$DIR/j.json")" "$(json comparisons_per_document "$DIR/j.json")" \
				"$(json tables "$DIR/j.json")" -
			[ ! -f "$DIR/c1.csv" ] || cmp -s "$DIR/c1.csv" "$DIR/c2.csv" ||
				echo "WARNING: piped and staged clusters differ"
		fi
		pairs=
		[ "$check" = - ] || pairs="--pairs $DIR/pairs.txt"
		timed "$TM $DIR/m1 $BIN/ndd-self-join -q -t $t -k $k --from-fingerprints -c $DIR/fps.ndf \
			--stats $DIR/j.json $pairs -o $DIR/c3.csv" || exit 1
		ok=$check
		if [ "$check" = yes ]; then
			sed 's/,[a-z-]*\r$/\r/' "$DIR/pairs.txt" |
				awk -F'[-,]' -v m="$m" 'NR > 1 && ($2 % m == 0 || $4 % m == 0)' |
				sort | cmp -s - "$DIR/want" || ok=FAIL
		fi
		for f in c1 c2; do
			[ ! -f "$DIR/$f.csv" ] || cmp -s "$DIR/$f.csv" "$DIR/c3.csv" ||
				echo "WARNING: clusters in memory and through $f differ"
		done
		row "$n" "$k" "$t" memory "$w" "$c" "$(peaks "$DIR/m1")" 0 "$(json pairs "$DIR/j.json")" \
			"$(json comparisons_per_document "$DIR/j.json")" "$(json tables "$DIR/j.json")" "$ok"
		echo "summary: k = $k, N = $n, $t threads: in memory $w s wall, $c s CPU," \
			"$(peaks "$DIR/m1") MB, $(json pairs "$DIR/j.json") pairs, sample check $ok" \
			>> "$DIR/summary.txt.$$"
		rm -f "$DIR/c1.csv" "$DIR/c2.csv" "$DIR/c3.csv" "$DIR/pairs.txt"
	done
done
done
rm -f "$DIR/fps.ndf" "$DIR/want" "$DIR/sample.txt" "$DIR"/m[123] "$DIR/time"

# The end-to-end row: run_pipeline.sh -t $THREADS on a generated crawl
# (median wall of 3 runs; CPU and peak of that run; tmpMB the largest the
# work directory grew, polled), its "check" the wall time over the
# single-thread zlib floor of the same files measured here.
HOSTS=${BENCH_CRAWL_HOSTS:-200}
if [ "$HOSTS" -gt 0 ]; then
	CR=$DIR/crawl-h$HOSTS
	if [ ! -s "$CR/all.warc.gz" ]; then
		rm -rf "$CR"
		python3 bench/gen_crawl.py -s 11 -o "$CR" --hosts "$HOSTS" --pages 150 450 --parts 8 \
			> /dev/null 2>&1 || { echo "gen_crawl.py failed"; exit 1; }
		cat "$CR"/crawl/*.warc.gz > "$CR/all.warc.gz"
	fi
	floor=$("$BUILD/bench/inflate_floor" "$CR/all.warc.gz" 2>/dev/null | awk '$1 == "zlib" { print $2 }')
	for r in 1 2 3; do
		rm -rf "$DIR/e2e"
		mkdir -p "$DIR/e2e"
		( while :; do du -sm "$DIR/e2e" 2>/dev/null | cut -f1; sleep 0.1; done ) > "$DIR/e2e.du" &
		poll=$!
		timed "$TM $DIR/m1 ./run_pipeline.sh -q -t $THREADS --bin $BIN -o $DIR/e2e/out $CR/crawl > /dev/null" ||
			{ kill $poll; echo "run_pipeline.sh failed"; exit 1; }
		kill $poll
		wait $poll 2>/dev/null
		echo "$w $c $(peaks "$DIR/m1") $(sort -n "$DIR/e2e.du" | tail -1)"
	done | sort -n > "$DIR/e2e.runs"
	# shellcheck disable=SC2046
	set -- $(sed -n 2p "$DIR/e2e.runs")
	w=$1 c=$2 peak=$3 tmp=$4
	pages=$(sed -n 's/^ *"documents": \([0-9]*\).*/\1/p' "$DIR/e2e/out/stats.json" | head -1)
	pairs=$(sed -n 's/^ *"pairs": \([0-9]*\).*/\1/p' "$DIR/e2e/out/stats.json" | head -1)
	ratio=$(awk -v w="$w" -v f="$floor" 'BEGIN { printf "%.2fxZ", w / f }')
	row "$pages" 6 "$THREADS" e2e "$w" "$c" "$peak" "$tmp" "$pairs" - - "$ratio"
	echo "summary: end to end, $(du -m "$CR/all.warc.gz" | cut -f1) MB .warc.gz, $pages pages," \
		"$THREADS threads: $w s wall (median of 3), $c s CPU, $ratio the zlib floor ($floor s)" \
		>> "$DIR/summary.txt.$$"
	rm -rf "$DIR/e2e" "$DIR/e2e.du" "$DIR/e2e.runs" "$DIR/m1"
fi
echo "(seconds, all processes' CPU; files: permute-sort, compress and self-join one"
echo " after another through files, peakMB the largest of them, tmpMB the raw and"
echo " compressed tables; pipe: the three at once, peakMB their peaks added up;"
echo " memory: ndd-self-join --from-fingerprints; check: the pairs of a sample of"
echo " fingerprints equal brute force's; e2e: run_pipeline.sh on the crawl of"
echo " BENCH_CRAWL_HOSTS hosts, N its pages, median of 3 runs, tmpMB the work"
echo " directory's largest, check its wall over the one-thread zlib inflate"
echo " floor of the same files (xZ))"
cat "$DIR/summary.txt.$$"
rm -f "$DIR/summary.txt.$$"

echo
echo "== baselines at N = $BRUTE_N, extrapolated =="
"$BUILD/bench/gen_fps" -n "$BRUTE_N" -k "$K" -s 1 -o "$DIR/fps-small.ndf" || exit 1
t0=$(now)
"$BUILD/bench/gen_fps" -n "$BRUTE_N" -k "$K" -s 1 --brute "$DIR/brute.txt" -o "$DIR/fps-small.ndf"
tb=$(elapsed "$t0")
"$BIN/ndd-permute-sort" -q -k "$K" "$DIR/fps-small.ndf" | "$BIN/ndd-compress" -q |
	"$BIN/ndd-self-join" -q -c "$DIR/fps-small.ndf" --pairs "$DIR/pairs.txt" -o "$DIR/c.csv"
sed 's/,[a-z-]*\r$/\r/' "$DIR/pairs.txt" | sort > "$DIR/pairs.sorted"
sort "$DIR/brute.txt" | cmp -s - "$DIR/pairs.sorted" && same=yes || same=no
echo "brute force (one thread): $tb s; the tables find the same pairs: $same"
probe=$(OMP_NUM_THREADS=2 "$BUILD/bench/probe_pairs" -k "$K" "$DIR/fps-small.ndf" 2>/dev/null)
echo "probe (2 threads): $probe"
tprobe=$(echo "$probe" | sed -n 's/.*, \([0-9.]*\) s$/\1/p')
for n in $N_LIST; do
	awk -v n="$n" -v b="$BRUTE_N" -v t="$tb" -v p="${tprobe:-0}" 'BEGIN {
		printf "N = %d: brute force ~%.0f s (quadratic), probe ~%.0f s (n log n)\n",
			n, t * (n / b) * (n / b), p * (n / b) * log(n) / log(b) }'
done
rm -f "$DIR/brute.txt" "$DIR/pairs.txt" "$DIR/pairs.sorted" "$DIR/c.csv"
