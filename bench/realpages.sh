#!/bin/sh
# Real-page quality (run by bench/run.sh): the realpages kit
# (../shared/realpages, its README says what it holds) built into a scratch
# folder, evaluate.sh run with this checkout, and one table printed:
# extraction P/R/F1 for all 130 pages, the 94 real ones (>= 8000 bytes) and
# the tune and holdout pages of bench/realpages_split.txt; near-duplicate
# P/R/F1 and every pair kind at the default k and at k = 3.
#
#   REALPAGES=DIR   the kit's folder (default: ../shared/realpages beside
#                   this checkout, then /work/shared/realpages)
#   RP=DIR          an already built kit (build.sh's OUTDIR): not rebuilt
#   BENCH_DIR=DIR   scratch space (default /tmp/ndd-bench): the kit in
#                   BENCH_DIR/realpages/kit-*, evaluate.sh's results in
#                   BENCH_DIR/realpages/res-* (one per checkout)
# evaluate.sh runs build/bin/ndd-extract and run_pipeline.sh of this
# checkout, so build/ must be built (make).  Needs python3 with lxml to
# build the kit (build.sh installs python3-lxml with apt-get if it may).
set -u
HERE=$(pwd)
KITSRC=${REALPAGES:-}
if [ -z "$KITSRC" ]; then
	for d in "$HERE/../shared/realpages" "$HERE/../../shared/realpages" /work/shared/realpages; do
		[ -x "$d/evaluate.sh" ] && { KITSRC=$d; break; }
	done
fi
if [ -z "$KITSRC" ] || [ ! -x "$KITSRC/evaluate.sh" ]; then
	echo "realpages: skipped: no realpages kit (set REALPAGES=DIR)"
	exit 0
fi
[ -x build/bin/ndd-extract ] || { echo "realpages: build/bin/ndd-extract missing (make)" >&2; exit 1; }
DIR=${BENCH_DIR:-/tmp/ndd-bench}/realpages
mkdir -p "$DIR" || exit 1
# Several checkouts may run this at once: the kit is built under a
# private name and renamed into place; each checkout has its own results.
KIT=${RP:-}
if [ -z "$KIT" ]; then
	stamp=$(cat "$KITSRC"/build.sh "$KITSRC"/lib/*.py | cksum | cut -d' ' -f1)
	KIT=$DIR/kit-$stamp
	if [ ! -f "$KIT/truth.csv" ]; then
		log=$DIR/build.log.$$
		"$KITSRC/build.sh" "$KIT.tmp.$$" >"$log" 2>&1 ||
			{ cat "$log" >&2; rm -rf "$KIT.tmp.$$" "$log"; echo "realpages: build.sh failed" >&2; exit 1; }
		mv -T "$KIT.tmp.$$" "$KIT" 2>/dev/null || rm -rf "$KIT.tmp.$$"
		rm -f "$log"
	fi
fi
RES=$DIR/res-$(pwd | cksum | cut -d' ' -f1)
rm -rf "$RES"
mkdir -p "$RES" || exit 1
"$KITSRC/evaluate.sh" "$KIT" "$HERE" "$RES" -k 3 >"$RES/evaluate.log" 2>&1 ||
	{ tail -20 "$RES/evaluate.log" >&2; echo "realpages: evaluate.sh failed" >&2; exit 1; }
# Every pair within k of each run's fingerprints with its duplicate type,
# for the table of pair kind against type.
for k in default 3; do
	kk=$k; [ "$k" = default ] && kk=6
	build/bin/ndd-self-join -q -k "$kk" --from-fingerprints -c "$RES/k-$k/fingerprints.ndf" \
		--pairs "$RES/k-$k/pairs.csv" -o "$RES/k-$k/pairs-clusters.csv" ||
		{ echo "realpages: self-join --pairs failed" >&2; exit 1; }
done
PYTHONDONTWRITEBYTECODE=1 python3 bench/realpages_table.py --kit "$KIT" --kitsrc "$KITSRC" \
	--res "$RES" --split bench/realpages_split.txt --k default --k 3 || exit 1
echo "(evaluate.sh's full summary: $RES/summary.txt)"
