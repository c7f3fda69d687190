#!/bin/sh
# The real-HTML crawl of distinct pages (issues 18 and 15): ~77,000 pages of
# 26 documentation sites installed from Debian (bench/realcrawl_sites.txt:
# rustdoc, javadoc, Doxygen, DocBook, Sphinx themes, gtk-doc, texinfo,
# haddock, qdoc...), each site under its own host name, served over loopback
# by bench/serve_docs.py and crawled by wget into one real .warc.gz.  Built
# once and cached in BENCH_DIR/realcrawl (the page list is sorted and the
# server deterministic; the record ids and dates wget writes are not).
#
# Then, in one run: the zlib floor of the file, ndd-extract -t 1 against it,
# run_pipeline.sh -t 2 against it (median of 3 by wall time), and the
# quality the clusters show (bench/realcrawl_quality.py): clusters whose
# members do not share their visible text, large clusters, duplicates
# across sites; the tune sites' clusters itemised, the holdout sites' as
# aggregates only.
#
# `make bench` runs it only with BENCH_REALCRAWL=1; `make bench-realcrawl`
# runs it alone.
#
#   BENCH_DIR=/tmp/ndd-bench   scratch space (the crawl and a run's work)
#   REALCRAWL_ROUNDS=3         timed rounds of each command
#   REALCRAWL_LIST=0           tune clusters to itemise, worst first
#   REALCRAWL_ONLY=crawl       build the crawl and stop
set -u
if [ "${BENCH_REALCRAWL:-1}" != 1 ]; then
	echo "skipped: the real-HTML crawl of distinct pages runs with BENCH_REALCRAWL=1 (make bench-realcrawl)"
	exit 0
fi
BUILD=${BUILD:-build}
BIN=$BUILD/bin
DIR=${BENCH_DIR:-/tmp/ndd-bench}/realcrawl
ROUNDS=${REALCRAWL_ROUNDS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
SITES=$HERE/realcrawl_sites.txt
CRAWL=$DIR/crawl.warc.gz
mkdir -p "$DIR"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

missing() {
	for p in $(sed 's/#.*//' "$SITES" | awk 'NF { print $3 }' | sort -u); do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || echo "$p"
	done
}

crawl() {
	command -v wget >/dev/null || { echo "realcrawl: needs wget (apt-get install wget)"; return 1; }
	need=$(missing)
	if [ -n "$need" ]; then
		echo "realcrawl: the crawl's sites are not all installed; as root:"
		echo "  apt-get install --no-install-recommends" $need
		return 1
	fi
	list=$DIR/urls.txt
	python3 "$HERE/serve_docs.py" --sites "$SITES" --list >"$list" || return 1
	port=$((20000 + $$ % 20000))
	python3 "$HERE/serve_docs.py" --sites "$SITES" "$port" &
	server=$!
	sleep 1
	rm -rf "$DIR/dl"
	t0=$(now)
	# the server is the proxy of every host: no name need resolve
	wget -q --tries=1 --delete-after -P "$DIR/dl" -i "$list" \
		-e use_proxy=yes -e "http_proxy=127.0.0.1:$port" \
		--warc-file="${CRAWL%.warc.gz}.tmp" --no-warc-keep-log
	rc=$?
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	rm -rf "$DIR/dl"
	[ "$rc" -eq 0 ] || { echo "realcrawl: wget failed ($rc)"; return 1; }
	mv "${CRAWL%.warc.gz}.tmp.warc.gz" "$CRAWL"
	echo "crawled $(wc -l <"$list") pages of $(grep -c '^[a-z]' "$SITES") sites into $CRAWL ($(du -m "$CRAWL" | cut -f1) MB) in $(elapsed "$t0") s"
}

[ -s "$CRAWL" ] || crawl || exit 1
[ "${REALCRAWL_ONLY:-}" = crawl ] && exit 0
in_mb=$(du -mL "$CRAWL" | cut -f1)
echo "input: $CRAWL, $in_mb MB"

echo
echo "== floor: bare inflate member by member, output discarded (best of 3, CPU s) =="
"$BUILD/bench/inflate_floor" "$CRAWL" >"$DIR/floor.txt" 2>/dev/null || exit 1
cat "$DIR/floor.txt"
floor=$(awk '$1 == "zlib" { print $2 }' "$DIR/floor.txt")

# timed CMD...: ROUNDS runs; prints the median's "wall user sys maxKB"
timed() {
	for r in $(seq "$ROUNDS"); do
		/usr/bin/time -f '%e %U %S %M' -o "$DIR/time.txt" "$@" >/dev/null 2>"$DIR/cmd.log" ||
			{ echo "failed: $*" >&2; tail -3 "$DIR/cmd.log" >&2; }
		cat "$DIR/time.txt"
	done | sort -n | sed -n "$(((ROUNDS + 1) / 2))p"
}
row() {
	set -- "$1" $2
	awk -v n="$1" -v w="$2" -v u="$3" -v s="$4" -v m="$5" -v i="$in_mb" -v f="$floor" \
		'BEGIN { printf "summary: %s MB of .warc.gz of distinct pages, %s: %.2f s wall (%.2f x the zlib floor, %.2f s), %.2f s CPU, %.0f MB peak RSS\n", i, n, w, w / f, f, u + s, m / 1024 }'
}

echo
echo "== ndd-extract -t 1 and run_pipeline.sh -t 2 (median of $ROUNDS by wall time) =="
row "ndd-extract -t 1" "$(timed "$BIN/ndd-extract" -q -t 1 -o /dev/null "$CRAWL")"
rm -rf "$DIR/out"
row "run_pipeline.sh -t 2" "$(timed ./run_pipeline.sh -q -t 2 --bin "$BIN" -o "$DIR/out" "$CRAWL")"
"$BIN/ndd-extract" -q -t 2 --stats "$DIR/extract.json" -o "$DIR/documents.ndf" "$CRAWL" 2>/dev/null
docs=$(sed -n 's/.*"documents_written": \([0-9]*\).*/\1/p' "$DIR/extract.json")
echo "documents file: $(du -m "$DIR/documents.ndf" | cut -f1) MB, $docs documents"
# what a night keeps in the index of nights (issue 18: ~100 bytes a page)
kept=$(($(stat -L -c %s "$DIR/out/fingerprints.ndf") + $(stat -L -c %s "$DIR/out/templates.ndf")))
awk -v b="$kept" -v n="$docs" 'BEGIN { printf "summary: a night in the index (fingerprints.ndf and templates.ndf): %.1f MB, %.1f bytes a page\n", b / 1e6, b / n }'
rm -f "$DIR/documents.ndf"

echo
echo "== the clusters (k 6): members whose visible text shares < 0.5 of its 3-shingles with the representative =="
python3 "$HERE/realcrawl_quality.py" "$SITES" "$DIR/out/clusters.csv" --list "${REALCRAWL_LIST:-0}"
