#!/bin/sh
# The table stages' benchmark (run by bench/run.sh): codec figures; then,
# for each N, permute-sort, compress and self-join run one after another
# (time, peak RSS, comparisons, pairs, bits per record) and as the pipe
# `permute-sort | compress | self-join` (the end-to-end time); then two
# baselines measured in the same run: brute force over all pairs and the
# probe method (every fingerprint within 3 bits looked up by binary
# search), both extrapolated to each N.
#
#   BENCH_N="1000000 10000000"  fingerprint counts (100000000 needs ~10 GB disk)
#   BENCH_K=3                   Hamming radius
#   BENCH_THREADS="1 2"         thread counts
#   BENCH_BRUTE_N=50000         size of the brute-force and probe baselines
#   BENCH_STAGED_MAX=20000000   above this N only the pipe runs (staging 100M
#                               fingerprints' raw tables writes 12 GB)
#   BENCH_DIR=/tmp/ndd-bench    scratch space
set -u
BUILD=${BUILD:-build}
BIN=$BUILD/bin
N_LIST=${BENCH_N:-"1000000 10000000"}
K=${BENCH_K:-3}
THREADS=${BENCH_THREADS:-"1 2"}
BRUTE_N=${BENCH_BRUTE_N:-50000}
STAGED_MAX=${BENCH_STAGED_MAX:-20000000}
DIR=${BENCH_DIR:-/tmp/ndd-bench}
mkdir -p "$DIR"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
# The stages end with "...; X s wall, Y s CPU, Z MB peak RSS": keep the RSS.
rss() { sed -n 's/.* \([0-9.]*\) MB peak RSS$/\1/p' "$1" | tail -1; }
json() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$2" | head -1; }

echo "== codec: bits per key against the bound, block decode speed =="
"$BUILD/bench/bench_codec" 2>&1 | tail -n 12

echo
echo "== table stages, k = $K (seconds; peak RSS in MB) =="
printf '%-10s %-3s %8s %8s %8s %8s %9s %8s %8s %8s %10s %9s %7s\n' N t permute compress join sum \
	"pipe" "peakMB" "pipeMB" "cmp/fp" pairs "bits/rec" design
for n in $N_LIST; do
	"$BUILD/bench/gen_fps" -n "$n" -k "$K" -s 1 -o "$DIR/fps.ndf" || exit 1
	for t in $THREADS; do
		tp=- tc=- tj=- sum=- peak=-
		if [ "$n" -le "$STAGED_MAX" ]; then
			t0=$(now)
			"$BIN/ndd-permute-sort" -t "$t" -k "$K" -o "$DIR/raw.ndf" "$DIR/fps.ndf" 2> "$DIR/ps.log" || exit 1
			tp=$(elapsed "$t0"); t1=$(now)
			"$BIN/ndd-compress" -t "$t" -o "$DIR/tab.ndf" "$DIR/raw.ndf" 2> "$DIR/c.log" || exit 1
			tc=$(elapsed "$t1"); t2=$(now)
			"$BIN/ndd-self-join" -t "$t" -c "$DIR/fps.ndf" -o "$DIR/c.csv" \
				"$DIR/tab.ndf" 2> "$DIR/j.log" || exit 1
			tj=$(elapsed "$t2")
			rm -f "$DIR/raw.ndf"
			sum=$(awk -v a="$tp" -v b="$tc" -v c="$tj" 'BEGIN { printf "%.3f", a + b + c }')
			peak=$(printf '%s\n%s\n%s\n' "$(rss "$DIR/ps.log")" "$(rss "$DIR/c.log")" "$(rss "$DIR/j.log")" | sort -n | tail -1)
		fi
		t3=$(now)
		(
			"$BIN/ndd-permute-sort" -t "$t" -k "$K" "$DIR/fps.ndf" 2> "$DIR/ps2.log" |
				"$BIN/ndd-compress" -t "$t" 2> "$DIR/c2.log" |
				"$BIN/ndd-self-join" -t "$t" -c "$DIR/fps.ndf" --stats "$DIR/j.json" \
					-o "$DIR/c2.csv" 2> "$DIR/j2.log"
		) &
		pipe=$!
		# the three run at once: their resident memory, added up, sampled
		# every 0.1 s (each one's own peak is in its summary line)
		pipekb=0
		while kill -0 "$pipe" 2>/dev/null; do
			kb=$(ps --ppid "$pipe" -o rss= 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
			[ "$kb" -gt "$pipekb" ] && pipekb=$kb
			sleep 0.1
		done
		wait "$pipe" || exit 1
		tpipe=$(elapsed "$t3")
		pipemb=$(awk -v k="$pipekb" 'BEGIN { printf "%.0f", k / 1024 }')
		[ "$tp" = - ] || cmp -s "$DIR/c.csv" "$DIR/c2.csv" || echo "WARNING: piped and staged clusters differ"
		bits=$(sed -n 's/.*(\([0-9.]*\) bits\/record).*/\1/p' "$DIR/c2.log")
		design=$(sed -n 's/.*design \([0-9x]*\):.*/\1/p' "$DIR/ps2.log")
		printf '%-10s %-3s %8s %8s %8s %8s %9s %8s %8s %8s %10s %9s %7s\n' "$n" "$t" "$tp" "$tc" "$tj" \
			"$sum" "$tpipe" "$peak" "$pipemb" "$(json comparisons_per_document "$DIR/j.json")" \
			"$(json pairs "$DIR/j.json")" "$bits" "$design"
		echo "$n $t $tpipe" >> "$DIR/times.txt.$$"
		echo "summary: k = $K, N = $n, $t threads: pipe $tpipe s, ${pipemb} MB (all stages), $bits bits/record, design $design" \
			>> "$DIR/summary.txt.$$"
	done
done
rm -f "$DIR/tab.ndf" "$DIR/c.csv" "$DIR/c2.csv" "$DIR/fps.ndf"
echo "(seconds; permute/compress/join: each stage alone through files, peakMB the"
echo " largest of them; pipe: the three in a pipe, end to end, pipeMB the peak of"
echo " their resident memory added up, sampled every 0.1 s; bits/rec: key + document"
echo " index; the information bound for the keys alone is 2 + 64 - log2 N bits, see"
echo " the codec figures above)"
# Time ratio of each N against the previous one, at the largest thread count.
awk -v t="$(echo $THREADS | awk '{ print $NF }')" '$2 == t { if (pn) printf "N x %.0f -> time x %.2f\n", $1 / pn, $3 / pt; pn = $1; pt = $3 }' \
	"$DIR/times.txt.$$"
rm -f "$DIR/times.txt.$$"
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
sort "$DIR/pairs.txt" > "$DIR/pairs.sorted"
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
