#!/bin/sh
# The extract stage's benchmark (run by bench/run.sh): one .warc.gz of
# real HTML, and in the same run the floor (bare inflate, member by
# member, output discarded: zlib and libdeflate), zcat for reference, and
# ndd-extract on 1 and on 2 threads.
#
# The input: every HTML page under /usr/share/doc (Debian documentation
# packages: python3-doc, debian-reference-en, ... whatever is installed;
# `apt-get install python3-doc debian-reference-en` gives ~100 MB; the
# packages bench/realcrawl.sh needs add ~72,000 pages to it, so a crawl
# built after installing them is another input: see docs/BENCHMARKS.md),
# served over loopback by bench/serve_docs.py (plain, chunked and gzip
# bodies) and crawled by wget into a real WARC; then that crawl is
# repeated until the file is BENCH_EXTRACT_MB big.  Built once and cached
# in BENCH_DIR (the page list is sorted and the server deterministic; the
# record ids and dates wget writes are not).  Last, the whole night on
# that file: run_pipeline.sh against the same zlib floor (issue 18's end
# to end on real HTML; bench/tables.sh has it on a generated crawl).
#
#   BENCH_EXTRACT_MB=200     size of the .warc.gz (compressed MB; issue 18
#                            names a ~1 GB crawl: BENCH_EXTRACT_MB=1000)
#   BENCH_DIR=/tmp/ndd-bench scratch space
#   BENCH_DOC_ROOT=/usr/share/doc
set -u
BUILD=${BUILD:-build}
BIN=$BUILD/bin
MB=${BENCH_EXTRACT_MB:-200}
DIR=${BENCH_DIR:-/tmp/ndd-bench}
ROOT=${BENCH_DOC_ROOT:-/usr/share/doc}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR"
CRAWL=$DIR/extract-crawl.warc.gz
WARC=$DIR/extract-${MB}MB.warc.gz

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
rss() { sed -n 's/.* \([0-9.]*\) MB peak RSS$/\1/p' "$1" | tail -1; }
cpu() { sed -n 's/.* \([0-9.]*\) s CPU, .*/\1/p' "$1" | tail -1; }

crawl() {
	command -v wget >/dev/null || { echo "extract bench: needs wget (apt-get install wget)"; return 1; }
	list=$DIR/extract-urls.txt
	port=$((20000 + $$ % 20000))
	(cd "$ROOT" && find . -type f \( -name '*.html' -o -name '*.htm' \) | LC_ALL=C sort) |
		sed "s|^\./|http://127.0.0.1:$port/|" >"$list"
	[ -s "$list" ] || { echo "extract bench: no HTML under $ROOT"; return 1; }
	python3 "$HERE/serve_docs.py" "$ROOT" "$port" &
	server=$!
	sleep 1
	rm -rf "$DIR/extract-dl"
	# the pages themselves are not kept: only the WARC matters
	wget -q --tries=1 --delete-after -P "$DIR/extract-dl" -i "$list" \
		--warc-file="${CRAWL%.warc.gz}" --no-warc-keep-log
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	rm -rf "$DIR/extract-dl"
	[ -s "$CRAWL" ] || { echo "extract bench: wget wrote no WARC"; return 1; }
	echo "crawled $(wc -l <"$list") pages from $ROOT into $CRAWL ($(du -m "$CRAWL" | cut -f1) MB)"
}

if [ ! -s "$WARC" ]; then
	[ -s "$CRAWL" ] || crawl || exit 1
	# per-record gzip members concatenate into a valid .warc.gz
	: >"$WARC.tmp"
	while [ "$(du -m "$WARC.tmp" | cut -f1)" -lt "$MB" ]; do
		cat "$CRAWL" >>"$WARC.tmp"
	done
	mv "$WARC.tmp" "$WARC"
fi
in_mb=$(du -mL "$WARC" | cut -f1)
echo "input: $WARC, $in_mb MB"

echo
echo "== floor: bare inflate member by member, output discarded (best of 3, CPU s) =="
"$BUILD/bench/inflate_floor" "$WARC" >"$DIR/floor.txt" 2>/dev/null || exit 1
printf '%-12s %8s %9s %9s %10s %10s\n' inflater seconds members "in MB" "MB/s in" "MB/s out"
awk '{ printf "%-12s %8s %9s %9s %10.1f %10.1f\n", $1, $2, $3, $4, $4 / $2, $5 / $2 }' "$DIR/floor.txt"
out_mb=$(awk '$1 == "zlib" { print $5 }' "$DIR/floor.txt")
floor_z=$(awk '$1 == "zlib" { print $2 }' "$DIR/floor.txt")
floor_ld=$(awk '$1 == "libdeflate" { print $2 }' "$DIR/floor.txt")

echo
echo "== zcat (gzip's own inflate), wall s =="
t0=$(now)
zcat "$WARC" >/dev/null
echo "zcat: $(elapsed "$t0") s"

echo
echo "== ndd-extract (best of 3 by wall time, like the floor; file in the page cache; load average $(cut -d' ' -f1 /proc/loadavg)) =="
printf '%-4s %8s %8s %10s %10s %10s %9s %12s %12s\n' t wall CPU "MB/s in" "MB/s out" "docs/s" "peak MB" "x zlib floor" "x ld floor"
for t in 1 2; do
	best=
	for r in 1 2 3; do
		t0=$(now)
		"$BIN/ndd-extract" -t "$t" --stats "$DIR/extract-stats.json" -o "$DIR/extract.ndf" "$WARC" 2>"$DIR/extract.log"
		rc=$?
		wall=$(elapsed "$t0")
		[ "$rc" -le 1 ] || { echo "ndd-extract failed ($rc):"; tail -3 "$DIR/extract.log"; exit 1; }
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$wall
			cp "$DIR/extract.log" "$DIR/extract-best.log"
		fi
	done
	docs=$(sed -n 's/.*"documents_written": \([0-9]*\).*/\1/p' "$DIR/extract-stats.json")
	awk -v t="$t" -v w="$best" -v c="$(cpu "$DIR/extract-best.log")" -v i="$in_mb" -v o="$out_mb" -v d="$docs" -v r="$(rss "$DIR/extract-best.log")" \
		-v fz="$floor_z" -v fl="$floor_ld" \
		'BEGIN { printf "%-4s %8.2f %8.2f %10.1f %10.1f %10.0f %9s %12.2f %12.2f\n", t, w, c, i / w, o / w, d / w, r, w / fz, w / fl }'
	awk -v t="$t" -v w="$best" -v i="$in_mb" -v r="$(rss "$DIR/extract-best.log")" -v fz="$floor_z" \
		'BEGIN { printf "summary: %s MB of .warc.gz, %s threads: %.2f s wall, %.2f x the zlib floor (%.2f s), %s MB peak\n", i, t, w, w / fz, fz, r }' \
		>> "$DIR/summary.txt.$$"
done
tail -1 "$DIR/extract.log"
rm -f "$DIR/extract.ndf"

echo
echo "== run_pipeline.sh -t 2, end to end (median of 3 by wall time; CPU = user + sys of the whole run) =="
mkdir -p "$DIR/extract-e2e"
ln -sf "$WARC" "$DIR/extract-e2e/crawl.warc.gz"
for r in 1 2 3; do
	rm -rf "$DIR/extract-e2e-out"
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/extract-e2e.time" \
		./run_pipeline.sh -q -t 2 --bin "$BIN" -o "$DIR/extract-e2e-out" "$DIR/extract-e2e" >/dev/null ||
		{ echo "run_pipeline.sh failed"; exit 1; }
	cat "$DIR/extract-e2e.time"
done | sort -n > "$DIR/extract-e2e.runs"
set -- $(sed -n 2p "$DIR/extract-e2e.runs")
awk -v w="$1" -v u="$2" -v s="$3" -v m="$4" -v i="$in_mb" -v fz="$floor_z" \
	'BEGIN { printf "summary: %s MB of .warc.gz, run_pipeline.sh -t 2: %.2f s wall (%.2f x the zlib floor), %.2f s CPU, %.0f MB peak RSS\n", i, w, w / fz, u + s, m / 1024 }' \
	>> "$DIR/summary.txt.$$"
rm -rf "$DIR/extract-e2e-out"
cat "$DIR/summary.txt.$$"
rm -f "$DIR/summary.txt.$$"
