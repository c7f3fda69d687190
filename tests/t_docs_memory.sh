#!/bin/sh
# run_pipeline.sh's documents file in memory (--docs-memory,
# --docs-memory-dir): while the run needs it, documents.ndf is a link into
# the memory directory; past the budget, or when that file system is
# full, it moves to the work directory on the way; the outputs are the
# same bytes whichever way the documents went; no memory is left taken
# when a run ends, is stopped, or hands its work to --resume (the
# documents then go back to disk).  The memory directory here is a plain
# directory (the script does not care which file system it is), and a
# small tmpfs of its own when the test may mount one.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mkdir -p "$tmp/bin" "$tmp/pids" "$tmp/mem"
for s in extract template fingerprint permute-sort compress self-join documents query stats report; do
	ln -s "$TOP/tests/data/hang-stage.sh" "$tmp/bin/ndd-$s"
done
export NDD_TEST_BIN="$BIN" NDD_TEST_PIDS="$tmp/pids"
rp="./run_pipeline.sh --bin $tmp/bin -q"
in=corpus-samples/

wait_for() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}
# mem_left DIR: what the runs left in memory directory DIR
mem_left() { ls -A "$1"; }
# same OUT WHAT: OUT's outputs are the reference run's
same() {
	for f in clusters.csv documents.csv fingerprints.ndf templates.ndf; do
		cmp -s "$1/$f" "$tmp/ref/$f" || bad "$2: $f differs from the run on disk"
	done
}

$rp --docs-memory 0 --keep-work -o "$tmp/ref" "$in" > /dev/null 2>&1
[ $? -le 1 ] || bad "the run with the documents on disk failed"
cp "$tmp/ref"/.work.*/documents.ndf "$tmp/docs.ref" || bad "no documents file kept on disk"

# In memory: the outputs are the same, and nothing stays in memory.
$rp --docs-memory-dir "$tmp/mem" -o "$tmp/m" "$in" > /dev/null 2>&1
[ $? -le 1 ] || bad "the run with the documents in memory failed"
same "$tmp/m" "in memory"
[ -z "$(mem_left "$tmp/mem")" ] || bad "in memory: left $(mem_left "$tmp/mem")"

# While fingerprint runs the documents are in memory; SIGTERM removes them.
rm -f "$tmp/pids/"*
NDD_TEST_HANG=fingerprint $rp --docs-memory-dir "$tmp/mem" -o "$tmp/h" "$in" > /dev/null 2>&1 &
p=$!
if wait_for "$tmp/pids/fingerprint"; then
	w=$(ls -d "$tmp/h"/.work.*)
	[ -L "$w/documents.ndf" ] || bad "during fingerprint: documents.ndf is not a link"
	case $(cd "$w" && readlink -f documents.ndf) in
	"$(cd "$tmp/mem" && pwd)"/ndd-docs.*/documents.ndf) ;;
	*) bad "during fingerprint: documents.ndf -> $(readlink -f "$w/documents.ndf"), not into the memory directory" ;;
	esac
	cmp -s "$w/documents.ndf" "$tmp/docs.ref" || bad "during fingerprint: the documents in memory are not extract's"
	kill -TERM "$p"
	wait "$p"
	[ -z "$(mem_left "$tmp/mem")" ] || bad "SIGTERM: left in memory: $(mem_left "$tmp/mem")"
else
	bad "fingerprint not reached"
	kill -9 "$p"
fi

# With --resume a stopped run keeps its work, with the documents on disk;
# the next --resume reuses them and publishes the same outputs.
rm -f "$tmp/pids/"*
NDD_TEST_HANG=fingerprint $rp --resume --docs-memory-dir "$tmp/mem" -o "$tmp/r" "$in" > /dev/null 2>&1 &
p=$!
if wait_for "$tmp/pids/fingerprint"; then
	kill -TERM "$p"
	wait "$p"
	w=$(ls -d "$tmp/r"/.work.*)
	[ -f "$w/documents.ndf" ] && [ ! -L "$w/documents.ndf" ] || bad "SIGTERM with --resume: documents.ndf not a file in the work directory"
	[ -z "$(mem_left "$tmp/mem")" ] || bad "SIGTERM with --resume: left in memory: $(mem_left "$tmp/mem")"
	rm -f "$tmp/pids/"*
	$rp --resume --docs-memory-dir "$tmp/mem" -o "$tmp/r" "$in" > /dev/null 2>&1
	[ -e "$tmp/pids/template" ] && bad "--resume: template ran again"
	same "$tmp/r" "resumed"
else
	bad "fingerprint not reached (--resume)"
	kill -9 "$p"
fi

# kill -9 while the documents are in memory: --resume reuses them there,
# and a run without --resume removes them.
for how in --resume ""; do
	rm -f "$tmp/pids/"*
	NDD_TEST_HANG=fingerprint $rp --resume --docs-memory-dir "$tmp/mem" -o "$tmp/k$how" "$in" > /dev/null 2>&1 &
	p=$!
	wait_for "$tmp/pids/fingerprint" || bad "kill -9: fingerprint not reached"
	kill -9 "$p"
	wait "$p" 2> /dev/null
	sleep 0.5
	[ -n "$(mem_left "$tmp/mem")" ] || bad "kill -9: no documents left in memory"
	rm -f "$tmp/pids/"*
	$rp $how --docs-memory-dir "$tmp/mem" -o "$tmp/k$how" "$in" > /dev/null 2>&1
	[ $? -le 1 ] || bad "the run after kill -9 ($how) failed"
	[ -n "$how" ] && [ -e "$tmp/pids/template" ] && bad "--resume after kill -9: template ran again"
	same "$tmp/k$how" "after kill -9 ($how)"
	[ -z "$(mem_left "$tmp/mem")" ] || bad "after kill -9 and a run ($how): left in memory: $(mem_left "$tmp/mem")"
done

# Past the budget the documents move to disk on the way: the same bytes.
$rp --docs-memory 20K --docs-memory-dir "$tmp/mem" --keep-work -o "$tmp/s" "$in" > /dev/null 2>&1
[ $? -le 1 ] || bad "a budget of 20K: the run failed"
same "$tmp/s" "a budget of 20K"
w=$(ls -d "$tmp/s"/.work.*)
[ -f "$w/documents.ndf" ] && [ ! -L "$w/documents.ndf" ] || bad "a budget of 20K: documents.ndf not on disk"
cmp -s "$w/documents.ndf" "$tmp/docs.ref" || bad "a budget of 20K: documents.ndf is not extract's output"
[ -z "$(mem_left "$tmp/mem")" ] || bad "a budget of 20K: left in memory: $(mem_left "$tmp/mem")"

# --keep-work with the documents in memory: kept on disk, none in memory.
$rp --docs-memory-dir "$tmp/mem" --keep-work -o "$tmp/kw" "$in" > /dev/null 2>&1
w=$(ls -d "$tmp/kw"/.work.*)
[ -f "$w/documents.ndf" ] && [ ! -L "$w/documents.ndf" ] || bad "--keep-work: documents.ndf not on disk"
[ -z "$(mem_left "$tmp/mem")" ] || bad "--keep-work: left in memory: $(mem_left "$tmp/mem")"

# No such directory: on disk, no complaint.
$rp --docs-memory-dir "$tmp/none" -o "$tmp/n" "$in" > /dev/null 2> "$tmp/err"
[ $? -le 1 ] || bad "a missing memory directory failed the run: $(cat "$tmp/err")"
same "$tmp/n" "a missing memory directory"

for v in 12X -1 1.5G auto2; do
	$rp --docs-memory "$v" -o "$tmp/bad" "$in" > /dev/null 2>&1
	[ $? = 2 ] || bad "--docs-memory '$v' not refused"
done

# A small tmpfs (16 KB; the documents are 77 KB): on disk on the way.
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null &&
	unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$tmp/mem'" 2> /dev/null; then
	unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$tmp/mem' &&
		$rp --docs-memory 1G --docs-memory-dir '$tmp/mem' -o '$tmp/f' '$in' > /dev/null 2> '$tmp/err'
		rc=\$?; ls -A '$tmp/mem' > '$tmp/full.left'; exit \$rc"
	[ $? -le 1 ] || bad "a small tmpfs failed the run: $(cat "$tmp/err")"
	same "$tmp/f" "a small tmpfs"
	[ ! -s "$tmp/full.left" ] || bad "a small tmpfs: left $(cat "$tmp/full.left")"
else
	echo "skip: a small tmpfs (needs root and unshare -m)"
fi
[ $fail = 0 ] && echo "ok: documents in memory"
exit $fail
