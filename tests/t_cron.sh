#!/bin/sh
# run_pipeline.sh under cron: a second run on a locked output directory
# exits 2 naming the holder; SIGTERM stops the stages, removes the work
# and keeps the previous outputs; kill -9 of the script in each stage
# leaves the previous outputs and no orphan stage, and the next run
# removes the leftovers; publishing swaps all outputs at once and drops
# a previous.csv the new run did not write.
#
# The stages are stand-ins (tests/data/hang-stage.sh) that run the real
# program, except the one named in NDD_TEST_HANG, which records its pid
# and sleeps: a stage caught in the middle of its work.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mkdir -p "$tmp/bin" "$tmp/pids" "$tmp/shm"
for s in extract template fingerprint permute-sort compress self-join documents query stats report; do
	ln -s "$TOP/tests/data/hang-stage.sh" "$tmp/bin/ndd-$s"
done
export NDD_TEST_BIN="$BIN" NDD_TEST_PIDS="$tmp/pids"
# the documents in memory go to a directory of the test's (what a run
# leaves there counts as its leftovers)
rp="./run_pipeline.sh --bin $tmp/bin -q --docs-memory-dir $tmp/shm"

# wait_for FILE: up to 10 s for FILE to appear.
wait_for() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}
# gone PID: up to 5 s for process PID to end (a zombie waiting for its
# new parent to reap it has ended).
alive() { ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
gone() {
	i=0
	while alive "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	! alive "$1"
}
leftovers() {
	n=0
	for f in "$1"/.work* "$1"/.link* "$1"/.run*; do
		if [ -e "$f" ] || [ -L "$f" ]; then n=$((n + 1)); fi
	done
	echo $n
}

out=$tmp/out
$rp -o "$out" corpus-samples/ > /dev/null 2>&1
[ $? -le 1 ] || bad "first run failed"
cp "$out/clusters.csv" "$tmp/clusters.ref"
cp "$out/stats.json" "$tmp/stats.ref"
cur=$(readlink "$out/current")
[ "$(readlink "$out/clusters.csv")" = current/clusters.csv ] || bad "clusters.csv is not a link through current"
[ "$(leftovers "$out")" = 1 ] || bad "after a run: not exactly one run directory: $(ls -a "$out")"

# A second run while one holds the lock: exit 2 at once, naming the pid.
rm -f "$tmp/pids/"*
NDD_TEST_HANG=extract $rp -o "$out" corpus-samples/ > /dev/null 2>&1 &
holder=$!
wait_for "$tmp/pids/extract" || bad "lock: the held run did not start extract"
$rp -o "$out" corpus-samples/ > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || bad "second concurrent run: exit not 2"
grep -q "locked by pid $holder" "$tmp/err" || bad "second run does not name pid $holder: $(cat "$tmp/err")"

# SIGTERM: the stage stops, the work goes, exit 2, the outputs stay.
kill -TERM "$holder"
wait "$holder"
[ $? -eq 2 ] || bad "SIGTERM: exit not 2"
gone "$(cat "$tmp/pids/extract")" || bad "SIGTERM: the extract stage still runs"
[ "$(leftovers "$out")" = 1 ] || bad "SIGTERM left work behind: $(ls -a "$out")"
[ -z "$(ls -A "$tmp/shm")" ] || bad "SIGTERM left documents in memory: $(ls -A "$tmp/shm")"
[ "$(readlink "$out/current")" = "$cur" ] || bad "SIGTERM changed current"
cmp -s "$out/clusters.csv" "$tmp/clusters.ref" || bad "SIGTERM changed clusters.csv"

# kill -9 of the script in each stage: no orphan, outputs intact, the
# next run removes the leftovers.
for s in extract template fingerprint permute-sort compress self-join report; do
	rm -f "$tmp/pids/"*
	# the table stages run only with --tables
	case $s in permute-sort | compress) tab=--tables ;; *) tab= ;; esac
	NDD_TEST_HANG=$s $rp $tab -o "$out" corpus-samples/ > /dev/null 2>&1 &
	p=$!
	wait_for "$tmp/pids/$s" || { bad "kill -9 in $s: stage not reached"; kill -9 $p; continue; }
	kill -9 "$p"
	wait "$p" 2>/dev/null
	for f in "$tmp/pids/"*; do
		gone "$(cat "$f")" || { bad "kill -9 in $s: ndd-${f##*/} is an orphan"; kill -9 "$(cat "$f")"; }
	done
	# the tee between extract and template dies with them
	for t in $(pgrep -f "^tee $out/\.work" 2>/dev/null); do
		gone "$t" || { bad "kill -9 in $s: the documents' tee is an orphan"; kill -9 "$t"; }
	done
	[ "$(readlink "$out/current")" = "$cur" ] || bad "kill -9 in $s: current changed"
	cmp -s "$out/clusters.csv" "$tmp/clusters.ref" || bad "kill -9 in $s: clusters.csv changed"
	cmp -s "$out/stats.json" "$tmp/stats.ref" || bad "kill -9 in $s: stats.json changed"
	[ "$(leftovers "$out")" -gt 1 ] || bad "kill -9 in $s: expected a work directory left behind"
done
rm -f "$tmp/pids/"*
$rp -o "$out" corpus-samples/ > /dev/null 2>&1
[ $? -le 1 ] || bad "run after the kills failed"
[ "$(leftovers "$out")" = 1 ] || bad "the leftovers of killed runs stay: $(ls -a "$out")"
[ -z "$(ls -A "$tmp/shm")" ] || bad "the documents in memory of killed runs stay: $(ls -A "$tmp/shm")"
cmp -s "$out/clusters.csv" "$tmp/clusters.ref" || bad "run after the kills: other clusters"
[ "$(readlink "$out/current")" != "$cur" ] || bad "run after the kills: current not swapped"
[ -e "$out/$cur" ] && bad "the replaced run directory stays"

# previous.csv: written with --previous, removed by a run without it; a
# directory of the old layout (plain files) is taken over.
$rp -o "$tmp/n1" corpus-samples/news-a.warc.gz > /dev/null 2>&1
$rp --previous "$tmp/n1" -o "$tmp/n2" corpus-samples/news-b.warc > /dev/null 2>&1
[ -s "$tmp/n2/previous.csv" ] || bad "--previous wrote no previous.csv"
$rp -o "$tmp/n2" corpus-samples/news-b.warc > /dev/null 2>&1
[ -e "$tmp/n2/previous.csv" ] || [ -L "$tmp/n2/previous.csv" ] && bad "stale previous.csv stays"
mkdir -p "$tmp/old"
echo old > "$tmp/old/clusters.csv"
echo old > "$tmp/old/previous.csv"
$rp -o "$tmp/old" corpus-samples/ > /dev/null 2>&1
cmp -s "$tmp/old/clusters.csv" "$tmp/clusters.ref" || bad "old layout: clusters.csv not replaced"
[ -e "$tmp/old/previous.csv" ] && bad "old layout: stale previous.csv stays"

# A file or directory named current, not the script's link: refused at
# start (exit 2, the name in the message), left as it was.
for kind in file dir; do
	rm -rf "$tmp/cur"
	mkdir -p "$tmp/cur"
	if [ $kind = file ]; then echo mine > "$tmp/cur/current"; else mkdir "$tmp/cur/current"; fi
	$rp -o "$tmp/cur" corpus-samples/news-b.warc > /dev/null 2> "$tmp/err"
	[ $? = 2 ] || bad "a $kind named current: exit not 2"
	grep -q "current' is not the link" "$tmp/err" || bad "a $kind named current: $(cat "$tmp/err")"
	[ ! -L "$tmp/cur/current" ] || bad "a $kind named current was replaced"
	[ $kind = dir ] || [ "$(cat "$tmp/cur/current")" = mine ] || bad "the file named current changed"
done
exit $fail
