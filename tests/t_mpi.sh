#!/bin/sh
# The MPI build (make MPI=1, docs/MPI.md): run_pipeline.sh --mpi N for
# N = 1, 2, 4 (oversubscribed) must publish the same bytes as the
# one-machine run, on the corpus samples and on a generated crawl; the
# table step alone must find the brute-force pairs; a rank that fails or
# is killed must make the run exit 2, name the rank, and leave the
# previous outputs as they were.  Skipped (passes, with a message) when
# ndd-mpi is not built or mpirun is missing, and when make test ran
# without MPI=1: an ndd-mpi left by an earlier MPI=1 build was not
# rebuilt with the other stages and may not read their files.
set -u
if [ "${NDD_MPI_BUILT:-1}" = 0 ]; then
	echo "SKIP: make test without MPI=1 (ndd-mpi is built and tested by make test MPI=1)"
	exit 0
fi
# MPIRUN: the launcher of the MPI that built ndd-mpi (make passes its
# MPIRUN: mpirun.mpich with MPICC=mpicc.mpich); run_pipeline.sh gets it
# as NDD_MPIRUN.
launcher=${MPIRUN:-mpirun}
if [ ! -x "$BIN/ndd-mpi" ] || ! command -v "$launcher" >/dev/null; then
	echo "SKIP: no ndd-mpi in $BIN (make MPI=1) or no $launcher (apt-get install openmpi-bin libopenmpi-dev)"
	exit 0
fi
export NDD_MPIRUN="$launcher"
# Under the sanitizers, LeakSanitizer reports Open MPI's own allocations
# at exit (its plugins are unloaded by then, so no suppression can name
# them) and turns a rank's exit status into 1: leaks are not checked in
# the MPI runs here (the stages' own tests check them).
asan_leaks=${ASAN_OPTIONS:-}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
RUN="$TOP/run_pipeline.sh"
# Open MPI's mpirun wants these for 4 ranks on a small machine, and as root
MPIRUN=$launcher
"$launcher" --version 2>&1 | grep -q "Open MPI" && MPIRUN="$launcher --oversubscribe --allow-run-as-root"
echo "launcher: $("$launcher" --version 2>&1 | grep -m1 -E 'Open MPI|OpenRTE|Version|HYDRA')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
OUTS="clusters.csv fingerprints.ndf tables.ndf templates.ndf"
sums() { (cd "$1" && md5sum $OUTS); }

python3 "$TOP/bench/gen_crawl.py" -s 3 -o "$tmp/gen" --hosts 8 --pages 10 160 --parts 5 >/dev/null ||
	bad "gen_crawl.py"
for corpus in "$TOP/corpus-samples" "$tmp/gen/crawl"; do
	# the ranks build tables.ndf: the one machine does too (--tables)
	"$RUN" -q -t 1 --bin "$BIN" --tables -o "$tmp/one" "$corpus" >/dev/null
	[ $? -le 1 ] || bad "one machine on $corpus"
	sums "$tmp/one" > "$tmp/want"
	for n in 1 2 4; do
		"$RUN" -q -t 1 --bin "$BIN" --mpi $n -o "$tmp/mpi$n" "$corpus" >/dev/null 2>"$tmp/err"
		rc=$?
		[ $rc -le 1 ] || { bad "--mpi $n on $corpus: exit $rc"; cat "$tmp/err"; }
		sums "$tmp/mpi$n" | cmp -s - "$tmp/want" || bad "--mpi $n on $corpus: outputs differ"
		grep -q '"ranks": '$n "$tmp/mpi$n/stats.json" || bad "--mpi $n: no mpi statistics"
	done
	echo "$(basename "$corpus"): --mpi 1, 2, 4 byte-identical ($(($(wc -l < "$tmp/one/clusters.csv") - 1)) rows)"
	rm -rf "$tmp/one" "$tmp"/mpi?
done

# The template step alone, against ndd-template over the same parts in
# order: a host's sample lies on several ranks, and each rank keeps more
# of its pages than ndd-template does (--sample 5 of hosts of 10 to 160
# pages: a rank counts only its own), and --previous with some hosts learnt and some
# carried from it (--min-pages 12).  The same bytes and ndd-template's
# statistics.
printf '%s\0' "$tmp"/gen/crawl/* > "$tmp/list"
for n in 2 3; do
	mkdir -p "$tmp/w$n"
	$MPIRUN -np $n "$BIN/ndd-mpi" extract "$tmp/w$n" -q -t 1 --files0-from "$tmp/list" 2>"$tmp/err" ||
		{ bad "ndd-mpi extract on $n ranks"; cat "$tmp/err"; }
done
"$BIN/ndd-template" -q -o "$tmp/prev.ndf" "$tmp"/w3/docs.0.ndf "$tmp"/w3/docs.1.ndf "$tmp"/w3/docs.2.ndf
for args in "--sample 5" "--sample 30 --min-pages 12 --previous $tmp/prev.ndf"; do
	# shellcheck disable=SC2086 # the options are words
	"$BIN/ndd-template" -q $args --stats "$tmp/s1.json" -o "$tmp/t1.ndf" \
		"$tmp"/w3/docs.0.ndf "$tmp"/w3/docs.1.ndf "$tmp"/w3/docs.2.ndf || bad "ndd-template $args"
	for n in 2 3; do
		# shellcheck disable=SC2086
		$MPIRUN -np $n "$BIN/ndd-mpi" template -q -t 1 $args --stats "$tmp/s$n.json" \
			"$tmp/w$n" "$tmp/t$n.ndf" 2>"$tmp/err" || { bad "ndd-mpi template $args"; cat "$tmp/err"; }
		cmp -s "$tmp/t1.ndf" "$tmp/t$n.ndf" || bad "template on $n ranks, $args: templates differ"
		python3 - "$tmp/s1.json" "$tmp/s$n.json" <<'PY' || bad "template on $n ranks, $args: statistics differ"
import json, sys
one, mpi = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(any(mpi.get(k) != v for k, v in one.items()))
PY
	done
	echo "template $args: 2 and 3 ranks as ndd-template ($(sed 's/.*"hosts_with_template": \([0-9]*\).*"hosts_from_previous": \([0-9]*\).*/\1 learnt, \2 from --previous/' "$tmp/s1.json"))"
	# Spilled: each rank's pages past half of -m go to partition files,
	# and the ranks exchange and learn them a few partitions at a time.
	for n in 2 3; do
		# shellcheck disable=SC2086
		$MPIRUN -np $n "$BIN/ndd-mpi" template -q -t 1 $args -m 24K -T "$tmp" \
			--stats "$tmp/m$n.json" "$tmp/w$n" "$tmp/m$n.ndf" 2>"$tmp/err" ||
			{ bad "ndd-mpi template -m 24K $args"; cat "$tmp/err"; }
		cmp -s "$tmp/t1.ndf" "$tmp/m$n.ndf" || bad "template on $n ranks, -m 24K $args: templates differ"
		grep -q '"spilled_bytes": [1-9]' "$tmp/m$n.json" || bad "-m 24K on $n ranks did not spill"
		grep -q '"exchange_rounds": [2-9]' "$tmp/m$n.json" ||
			bad "-m 24K on $n ranks: $(grep -o '"exchange_rounds": [0-9]*' "$tmp/m$n.json") (want several)"
	done
	echo "template $args, -m 24K: spilled, $(grep -o '"exchange_rounds": [0-9]*' "$tmp/m3.json" | sed 's/.*: //') rounds on 3 ranks, the same templates"
done
grep -q '"hosts_from_previous": [1-9]' "$tmp/s1.json" || bad "--previous: no host kept its earlier template"
rm -rf "$tmp/w2" "$tmp/w3"

# More input names than one exec's argument list holds (ARG_MAX): the
# ranks read the names from the run's list (--files0-from), so the MPI
# run works and matches the one machine's.  Names of 240 bytes, empty
# WARCs beside the samples (each an input without records: exit 1).
mkdir -p "$tmp/many"
cp "$TOP"/corpus-samples/*.warc* "$tmp/many/"
: > "$tmp/empty.warc"
long=$(printf '%0240d' 0)
n_many=$(($(getconf ARG_MAX) / 240 + 500))
i=0
while [ $i -lt $n_many ]; do ln -s ../empty.warc "$tmp/many/$long.$i.warc"; i=$((i + 1)); done
"$RUN" -q -t 1 --bin "$BIN" --tables -o "$tmp/one" "$tmp/many" >/dev/null 2>&1
[ $? -le 1 ] || bad "one machine on $n_many names"
"$RUN" -q -t 1 --bin "$BIN" --mpi 2 -o "$tmp/mpi2" "$tmp/many" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -le 1 ] || { bad "--mpi 2 on $n_many names of 240 bytes: exit $rc"; grep -v 'no WARC record' "$tmp/err" | head -5; }
sums "$tmp/one" > "$tmp/want"
sums "$tmp/mpi2" | cmp -s - "$tmp/want" || bad "--mpi 2 on $n_many names: outputs differ"
grep -q "\"inputs\": $((n_many + $(ls "$TOP"/corpus-samples/*.warc* | wc -l)))," "$tmp/mpi2/stats.json" ||
	bad "--mpi 2 on $n_many names: not every input was read"
echo "--mpi 2 on $n_many input names ($(ls "$tmp/many" | wc -c) bytes of names, ARG_MAX $(getconf ARG_MAX)): as one machine"
rm -rf "$tmp/many" "$tmp/one" "$tmp/mpi2"

# The table step alone on 3 ranks: the brute-force pairs, through
# ndd-self-join --found-pairs.
GEN="$TOP/$BUILD/bench/gen_fps"
"$GEN" -n 3000 -s 5 -k 4 --brute "$tmp/brute.txt" -o "$tmp/fps.ndf" || bad "gen_fps"
$MPIRUN -np 3 "$BIN/ndd-mpi" tables -q -t 1 -k 4 \
	--pairs "$tmp/pairs.bin" --stats "$tmp/tables.json" "$tmp/fps.ndf" 2>"$tmp/err" ||
	{ bad "ndd-mpi tables"; cat "$tmp/err"; }
ASAN_OPTIONS=$asan_leaks "$BIN/ndd-self-join" -q --found-pairs "$tmp/pairs.bin" -c "$tmp/fps.ndf" \
	--pairs "$tmp/pairs.txt" -o "$tmp/c.csv" || bad "self-join --found-pairs"
sort "$tmp/brute.txt" > "$tmp/want"
sed "s/,[a-z-]*\r\$/\r/" "$tmp/pairs.txt" | sort > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || bad "3 ranks: $(wc -l < "$tmp/got") pairs, brute force $(wc -l < "$tmp/want")"
echo "tables on 3 ranks: $(($(wc -l < "$tmp/want") - 1)) pairs as brute force"
# Each rank reads only the blocks of its share of the catalog (the
# sections' block indexes): 100,000 fingerprints in two files, three
# sections, on 3 ranks.  The sorted tables are ndd-permute-sort's bytes
# (the dataset id from the headers is the one a full read gives), and no
# rank reads more than 60 % of the catalog's bytes.
"$GEN" -n 100000 -s 6 -k 4 -o "$tmp/big.ndf" >/dev/null || bad "gen_fps 100000"
cat "$tmp/big.ndf" "$tmp/big.ndf" > "$tmp/big2.ndf"
"$BIN/ndd-permute-sort" -q -t 1 -k 4 -o "$tmp/raw1.ndf" "$tmp/big2.ndf" "$tmp/big.ndf" || bad "permute-sort"
$MPIRUN -np 3 "$BIN/ndd-mpi" tables -q -t 1 -k 4 --raw "$tmp/raw3.ndf" --stats "$tmp/big.json" \
	"$tmp/big2.ndf" "$tmp/big.ndf" 2>"$tmp/err" || { bad "ndd-mpi tables on 3 sections"; cat "$tmp/err"; }
cmp -s "$tmp/raw1.ndf" "$tmp/raw3.ndf" || bad "3 ranks, 3 sections: sorted tables differ from ndd-permute-sort's"
total=$(($(wc -c < "$tmp/big2.ndf") + $(wc -c < "$tmp/big.ndf")))
read_bytes=$(sed -n 's/.*"per_rank_catalog_bytes_read": \[\(.*\)\].*/\1/p' "$tmp/big.json")
for b in $(echo "$read_bytes" | tr -d ,); do
	[ "$b" -gt 0 ] && [ $((b * 100)) -lt $((total * 60)) ] || bad "a rank read $b of the catalog's $total bytes"
done
echo "tables on 3 ranks, 3 sections: bytes read per rank [$read_bytes] of $total; sorted tables as ndd-permute-sort"
rm -f "$tmp"/big*.ndf "$tmp"/raw?.ndf

# A pair file that was tampered with is refused.
printf 'x' | dd of="$tmp/pairs.bin" bs=1 seek=70 conv=notrunc 2>/dev/null
"$BIN/ndd-self-join" -q --found-pairs "$tmp/pairs.bin" -c "$tmp/fps.ndf" -o "$tmp/c2.csv" 2>/dev/null &&
	bad "a damaged pair file was taken"

# Faults: a rank killed in the middle of the tables, a rank whose extract
# fails.  Exit 2, the rank named, the previous outputs untouched.
"$RUN" -q -t 1 --bin "$BIN" --tables -o "$tmp/out" "$TOP/corpus-samples" >/dev/null
sums "$tmp/out" > "$tmp/before"
for fault in tables:2:kill extract:1:fail template:1:kill template:3:fail; do
	NDD_MPI_FAULT=$fault "$RUN" -q -t 1 --bin "$BIN" --mpi 4 -o "$tmp/out" "$TOP/corpus-samples" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	rank=$(echo $fault | cut -d: -f2)
	[ $rc -eq 2 ] || bad "$fault: exit $rc, not 2"
	grep -q "rank $rank" "$tmp/err" || { bad "$fault: rank $rank not named"; cat "$tmp/err"; }
	sums "$tmp/out" | cmp -s - "$tmp/before" || bad "$fault: the previous outputs changed"
	ls -a "$tmp/out" | grep -q '^\.work' && bad "$fault: a work directory was left"
	echo "$fault: exit $rc, $(grep -c "rank $rank" "$tmp/err") lines name rank $rank"
done

# --resume after a rank was killed in the tables: extract, template and
# fingerprint are reused (the documents parts are gone by then: their
# names come from extract's marker), the tables run again, and the
# outputs are the one-machine run's.
"$RUN" -q -t 1 --bin "$BIN" --tables -o "$tmp/one" "$TOP/corpus-samples" >/dev/null
sums "$tmp/one" > "$tmp/want"
NDD_MPI_FAULT=tables:2:kill "$RUN" -q -t 1 --bin "$BIN" --mpi 4 --resume -o "$tmp/res" \
	"$TOP/corpus-samples" >/dev/null 2>&1
[ $? -eq 2 ] || bad "--resume: the run with a killed rank did not exit 2"
"$RUN" -q -t 1 --bin "$BIN" --mpi 4 --resume -o "$tmp/res" "$TOP/corpus-samples" >/dev/null 2>"$tmp/err"
[ $? -le 1 ] || { bad "--resume --mpi 4 failed"; cat "$tmp/err"; }
grep -q '"resumed_steps": "extract template fingerprint"' "$tmp/res/stats.json" ||
	bad "--resume --mpi 4: $(grep resumed_steps "$tmp/res/stats.json") (want extract template fingerprint)"
sums "$tmp/res" | cmp -s - "$tmp/want" || bad "--resume --mpi 4: outputs differ from one machine's"
echo "--resume --mpi 4 after a rank killed in the tables: $(grep resumed_steps "$tmp/res/stats.json")"
exit $fail
