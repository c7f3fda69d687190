#!/bin/sh
# Crawl quality (run by bench/run.sh): a synthetic crawl of many hosts with
# many pages each on the template families of bench/crawl_templates.py
# (forums beside a board index, knowledge bases with feedback boxes, news
# with teasers and widgets, list pages, short pages, cookie banners,
# Sphinx-like docs with genindex and toctree pages), half of the families
# for tuning and half held out, made by bench/gen_crawl.py (cached per seed
# and generator version), run through run_pipeline.sh and scored by
# bench/crawl_score.py (its header says what each column means), with the
# duplicate types of the pairs (ndd-self-join --pairs) against the kinds.
# Why pairs were missed: bench/crawl_missed.py (tune families only) on the
# texts bench/decided_text prints for the run's documents and templates.
#
#   CRAWL_SEED=1          the crawl's seed
#   CRAWL_HOSTS=42        hosts (families are dealt to them in turn)
#   CRAWL_PAGES="50 200"  pages per host, before duplicates
#   CRAWL_ADDED=21        hosts on the tune families added for issue 15
#                         (after the CRAWL_HOSTS hosts, which keep their pages;
#                         the table's tune-first row is those hosts' tune part)
#   CRAWL_ADDED2=24       hosts on the tune families added in issue 15's second
#                         round (after those; the table's tune-14 row is the
#                         tune part without them)
#   CRAWL_ADDED3=9        hosts on the tune forum families of the third round
#                         (after those; the tune-22 row is the tune part
#                         without them)
#   CRAWL_K=6             the pipeline's -k (default: its own default)
#   BENCH_DIR=/tmp/ndd-bench  scratch space: crawls in BENCH_DIR/crawl/,
#                         this checkout's last clusters and extraction in
#                         BENCH_DIR/crawl/res-*/ (one per checkout)
set -u
SEED=${CRAWL_SEED:-1}
HOSTS=${CRAWL_HOSTS:-42}
PAGES=${CRAWL_PAGES:-50 200}
ADDED=${CRAWL_ADDED:-21}
ADDED2=${CRAWL_ADDED2:-24}
ADDED3=${CRAWL_ADDED3:-9}
DIR=${BENCH_DIR:-/tmp/ndd-bench}/crawl
[ -x build/bin/ndd-extract ] || { echo "crawlquality: build/bin/ndd-extract missing (make)" >&2; exit 1; }
mkdir -p "$DIR" || exit 1
export PYTHONDONTWRITEBYTECODE=1
# The cache key: seed, sizes and the generator's own code.
ver=$(cat bench/gen_crawl.py bench/crawl_text.py bench/crawl_chrome.py bench/crawl_templates.py |
	cksum | cut -d' ' -f1)
CRAWL=$DIR/seed$SEED-h$HOSTS-a$ADDED-b$ADDED2-c$ADDED3-p$(echo "$PAGES" | tr ' ' -)-$ver
if [ ! -f "$CRAWL/truth.csv" ]; then
	# a private name renamed into place: other checkouts may run this at once
	tmp=$CRAWL.tmp.$$
	# shellcheck disable=SC2086
	python3 bench/gen_crawl.py -s "$SEED" -o "$tmp" --hosts "$HOSTS" --added-hosts "$ADDED" \
		--added2-hosts "$ADDED2" --added3-hosts "$ADDED3" --pages $PAGES 2>/dev/null ||
		{ rm -rf "$tmp"; echo "crawlquality: gen_crawl.py failed" >&2; exit 1; }
	mv -T "$tmp" "$CRAWL" 2>/dev/null || rm -rf "$tmp"
fi
RES=$DIR/res-$(pwd | cksum | cut -d' ' -f1)
rm -rf "$RES"
mkdir -p "$RES" || exit 1
kopt=
[ -n "${CRAWL_K:-}" ] && kopt="-k $CRAWL_K"
build/bin/ndd-extract -q --json -o "$RES/extract.jsonl" "$CRAWL"/crawl/*.warc.gz ||
	{ echo "crawlquality: ndd-extract failed" >&2; exit 1; }
# shellcheck disable=SC2086
./run_pipeline.sh -q $kopt -o "$RES/out" "$CRAWL/crawl" >/dev/null ||
	{ echo "crawlquality: run_pipeline.sh failed" >&2; exit 1; }
# Every pair within k with its duplicate type, for the table of pair kind
# against type (as bench/realpages.sh does).
build/bin/ndd-self-join -q -k "${CRAWL_K:-6}" --from-fingerprints -c "$RES/out/fingerprints.ndf" \
	--pairs "$RES/pairs.csv" -o "$RES/pairs-clusters.csv" ||
	{ echo "crawlquality: self-join --pairs failed" >&2; exit 1; }
echo "synthetic crawl: seed $SEED, $HOSTS hosts + $ADDED + $ADDED2 + $ADDED3 on added tune families, $PAGES pages each + duplicates;" \
	"run_pipeline.sh ${kopt:-(default k)}; $CRAWL; results $RES"
python3 bench/crawl_score.py "$CRAWL" "$RES/out/clusters.csv" --extract "$RES/extract.jsonl" \
	--pairs "$RES/pairs.csv" \
	--label "seed $SEED, $HOSTS+$ADDED+$ADDED2+$ADDED3 hosts, k ${CRAWL_K:-default}"
