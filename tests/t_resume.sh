#!/bin/sh
# run_pipeline.sh --resume: after kill -9 of the script in each stage, a
# --resume run reuses the steps the killed run finished (their stages do
# not start again) and publishes the same bytes as an uninterrupted run
# (stats.json: the same but for times and the command line).  A changed
# k, input file, program or fingerprint method, or a damaged output, runs
# that step and every later one again; a step or the report that needs a
# documents file already removed sends the run back to extract.  Without --resume the
# leftovers are removed, as before; with it a signal keeps the work.
#
# The stages are tests/data/hang-stage.sh stand-ins (as in t_cron.sh):
# each records its pid in $NDD_TEST_PIDS/NAME when it starts, so the test
# sees which stages a run started.
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
# the documents in memory go to a directory of the test's
rp="./run_pipeline.sh --bin $tmp/bin -q --docs-memory-dir $tmp/shm"
in=$tmp/crawl
cp -r corpus-samples "$in"

wait_for() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$1" ]
}
alive() { ps -o stat= -p "$1" 2> /dev/null | grep -qv '^Z'; }
gone() {
	i=0
	while alive "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	! alive "$1"
}
started() { [ -e "$tmp/pids/$1" ]; }
workdirs() {
	n=0
	for f in "$1"/.work*; do [ ! -e "$f" ] || n=$((n + 1)); done
	echo $n
}

# stats.json without what differs between two runs of the same inputs:
# times, the command line, and documents' bytes_read (the process's rchar
# from /proc, which the sanitizers' own reads change from run to run)
norm_stats() {
	python3 - "$1" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if k not in ("started", "ended", "seconds_total", "seconds", "command_line", "resumed_steps", "bytes_read")
                and "seconds" not in k}
    return x
print(json.dumps(strip(d), sort_keys=True))
PY
}

# same_outputs DIR REF WHAT: every published file of DIR is REF's, byte
# for byte (stats.json normalised, report.html but for its start time),
# and no other file is published.
same_outputs() {
	(cd "$1/current" && ls) > "$tmp/names.out"
	(cd "$2" && ls) > "$tmp/names.ref"
	cmp -s "$tmp/names.out" "$tmp/names.ref" || bad "$3: published $(tr '\n' ' ' < "$tmp/names.out"), expected $(tr '\n' ' ' < "$tmp/names.ref")"
	while IFS= read -r f; do
		[ "$f" = stats.json ] && continue
		if [ "$f" = report.html ]; then
			sed 's/started [0-9T:Z-]*//' "$1/current/$f" > "$tmp/report.out"
			sed 's/started [0-9T:Z-]*//' "$2/$f" > "$tmp/report.ref"
			cmp -s "$tmp/report.out" "$tmp/report.ref" || bad "$3: report.html differs from an uninterrupted run's (but for the start time)"
			continue
		fi
		cmp -s "$1/current/$f" "$2/$f" || bad "$3: $f differs from an uninterrupted run"
	done < "$tmp/names.ref"
	[ "$(norm_stats "$1/stats.json")" = "$(norm_stats "$2/stats.json")" ] ||
		bad "$3: stats.json differs from an uninterrupted run's (but for times)"
}

# kill_in STAGE DIR ARGS...: start a run on DIR, kill -9 it while STAGE
# runs, check that no stage is left running.
kill_in() {
	s=$1 d=$2
	shift 2
	rm -f "$tmp/pids/"*
	NDD_TEST_HANG=$s $rp -o "$d" "$@" > /dev/null 2>&1 &
	p=$!
	wait_for "$tmp/pids/$s" || { bad "kill -9 in $s: stage not reached"; kill -9 $p; return; }
	kill -9 "$p"
	wait "$p" 2> /dev/null
	for f in "$tmp/pids/"*; do
		gone "$(cat "$f")" || { bad "kill -9 in $s: ndd-${f##*/} is an orphan"; kill -9 "$(cat "$f")"; }
	done
	rm -f "$tmp/pids/"*
}

# ref NAME ARGS...: the outputs of an uninterrupted run in $tmp/ref.NAME,
# its exit status in refrc.
ref() {
	rm -rf "$tmp/r"
	n=$1
	shift
	$rp -o "$tmp/r" "$@" > /dev/null 2>&1
	refrc=$?
	[ $refrc -le 1 ] || bad "reference run $* failed"
	cp -rL "$tmp/r/current" "$tmp/ref.$n"
}
ref k6 "$in"

# kill -9 in each stage, then --resume: the stages of the steps before it
# do not start again, the outputs are an uninterrupted run's, the exit
# status too.  extract | template is one step, so is permute-sort |
# compress (with --tables); self-join writes documents.csv too (no
# earlier night), and a kill in stats comes after every step.
ref tab --tables "$in"
for case in extract: template: fingerprint: self-join: stats: permute-sort:--tables compress:--tables; do
	s=${case%%:*} tab=${case#*:}
	case $s in
	extract | template) notrun="" rerun="extract template" ;;
	fingerprint) notrun="extract template" rerun=fingerprint ;;
	permute-sort | compress) notrun="extract template fingerprint" rerun="permute-sort compress" ;;
	self-join) notrun="extract template fingerprint" rerun=self-join ;;
	stats) notrun="extract template fingerprint self-join documents" rerun=stats ;;
	esac
	out=$tmp/out-$s
	kill_in "$s" "$out" ${tab:+"$tab"} "$in"
	[ "$(workdirs "$out")" = 1 ] || bad "kill -9 in $s: no work directory left"
	$rp --resume ${tab:+"$tab"} -o "$out" "$in" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = $refrc ] || bad "resume after a kill in $s: exit $rc, an uninterrupted run exits $refrc: $(cat "$tmp/err")"
	refname=k6
	[ -n "$tab" ] && refname=tab
	same_outputs "$out" "$tmp/ref.$refname" "resume after a kill in $s"
	[ "$(workdirs "$out")" = 0 ] || bad "resume after a kill in $s: a work directory stays"
	for t in $notrun; do started "$t" && bad "resume after a kill in $s: $t ran again"; done
	for t in $rerun; do started "$t" || bad "resume after a kill in $s: $t did not run"; done
done
grep -q '"resumed_steps": "extract+template fingerprint self-join+documents"' "$tmp/out-stats/stats.json" ||
	bad "stats.json does not name the reused steps: $(grep resumed "$tmp/out-stats/stats.json")"

# With an earlier night (--previous) ndd-documents is a step of its own:
# a kill in it reuses every step before it (permute-sort and compress run
# again after it, for the query of the earlier night, which has no
# tables).
$rp -o "$tmp/night1" "$in" > /dev/null 2>&1 || [ $? = 1 ] || bad "the earlier night's run failed"
ref prev --previous "$tmp/night1" "$in"
kill_in documents "$tmp/out-prev" --previous "$tmp/night1" "$in"
$rp --resume --previous "$tmp/night1" -o "$tmp/out-prev" "$in" > /dev/null 2>&1
same_outputs "$tmp/out-prev" "$tmp/ref.prev" "resume after a kill in documents"
for t in extract template fingerprint self-join; do
	started "$t" && bad "resume after a kill in documents: $t ran again"
done
started documents || bad "resume after a kill in documents: documents did not run"
grep -q '"resumed_steps": "extract+template fingerprint permute-sort+compress self-join"' "$tmp/out-prev/stats.json" ||
	bad "--previous: stats.json does not name the reused steps: $(grep resumed "$tmp/out-prev/stats.json")"

# The outputs are the same at any thread count, so another -t resumes.
ref t2 -t 2 "$in"
kill_in self-join "$tmp/th" -t 1 "$in"
$rp --resume -t 2 -o "$tmp/th" "$in" > /dev/null 2>&1
started fingerprint && bad "another -t: fingerprint ran again"
started self-join || bad "another -t: the join did not run"
same_outputs "$tmp/th" "$tmp/ref.t2" "resume with another -t"

# --no-templates pipes extract into fingerprint: one step.
ref notpl --no-templates "$in"
kill_in self-join "$tmp/nt" --no-templates "$in"
$rp --resume --no-templates -o "$tmp/nt" "$in" > /dev/null 2>&1
started extract && bad "--no-templates: extract ran again"
started fingerprint && bad "--no-templates: fingerprint ran again"
same_outputs "$tmp/nt" "$tmp/ref.notpl" "resume with --no-templates"

# A changed k reuses extract, template and fingerprint, and joins again.
ref k5 -k 5 "$in"
kill_in stats "$tmp/k" "$in"
$rp --resume -k 5 -o "$tmp/k" "$in" > /dev/null 2>&1
same_outputs "$tmp/k" "$tmp/ref.k5" "resume with another k"
started fingerprint && bad "another k: fingerprint ran again"
started self-join || bad "another k: the join was reused"

# A changed input file (its modification time) runs everything again.
kill_in stats "$tmp/i" "$in"
touch -d '2001-01-01' "$in/news-b.warc"
$rp --resume -o "$tmp/i" "$in" > /dev/null 2>&1
started extract || bad "changed input: extract was reused"
same_outputs "$tmp/i" "$tmp/ref.k6" "resume after an input changed"

# A damaged output (one byte of the tables) runs its step again; damaged
# fingerprints are made again from the documents file, which stays until
# report.html is written.
kill_in stats "$tmp/c" --tables "$in"
w=$(ls -d "$tmp/c"/.work.*)
printf 'X' | dd of="$w/tables.ndf" bs=1 seek=100 conv=notrunc 2> /dev/null
$rp --resume --tables -o "$tmp/c" "$in" > /dev/null 2>&1
started fingerprint && bad "damaged tables: fingerprint ran again"
started permute-sort || bad "damaged tables: not made again"
same_outputs "$tmp/c" "$tmp/ref.tab" "resume after damaged tables"
rm -rf "$tmp/c"
kill_in self-join "$tmp/c" "$in"
w=$(ls -d "$tmp/c"/.work.*)
printf 'X' | dd of="$w/fingerprints.ndf" bs=1 seek=100 conv=notrunc 2> /dev/null
# the documents file stays until report.html is written: extract is reused
[ -f "$w/documents.ndf" ] || bad "damaged fingerprints: the documents file is gone before the report"
$rp --resume -o "$tmp/c" "$in" > /dev/null 2>&1
started extract && bad "damaged fingerprints: extract ran again though its documents file is there"
started fingerprint || bad "damaged fingerprints: fingerprint not run again"
same_outputs "$tmp/c" "$tmp/ref.k6" "resume after damaged fingerprints"

# An .ndf output's marker holds its size and last section's tail only, so
# --resume reads it through (ndd-stats --verify): a byte flipped in the
# middle (size and tail unchanged) runs its step again and says so, as
# does a truncated file; the intact documents file beside it is reused.
flip() { python3 -c 'import sys
f = open(sys.argv[1], "r+b"); n = f.seek(0, 2) // 2; f.seek(n); b = f.read(1); f.seek(n); f.write(bytes([b[0] ^ 0x55]))' "$1"; }
for how in flip truncate; do
	rm -rf "$tmp/v"
	kill_in self-join "$tmp/v" "$in"
	w=$(ls -d "$tmp/v"/.work.*)
	grep -q '^file ndf:[0-9]*:[0-9a-f]\{80\} fingerprints.ndf$' "$w/.done-fingerprint" ||
		bad "the marker's entry of fingerprints.ndf is not its size and tail: $(cat "$w/.done-fingerprint")"
	size=$(stat -c %s "$w/fingerprints.ndf")
	if [ $how = flip ]; then flip "$w/fingerprints.ndf"; else truncate -s $((size - 7)) "$w/fingerprints.ndf"; fi
	"$BIN/ndd-stats" --verify "$w/fingerprints.ndf" 2> /dev/null && bad "$how: ndd-stats --verify finds fingerprints.ndf intact"
	"$BIN/ndd-stats" --verify "$w/documents.ndf" || bad "$how: ndd-stats --verify finds documents.ndf damaged"
	./run_pipeline.sh --bin "$tmp/bin" --resume -o "$tmp/v" "$in" > /dev/null 2> "$tmp/err"
	started extract && bad "$how fingerprints: extract ran again though its documents file is intact"
	started fingerprint || bad "$how fingerprints: fingerprint not run again"
	grep -q 'step fingerprint: fingerprints.ndf does not match its checksum' "$tmp/err" ||
		bad "$how fingerprints: the run does not say why fingerprint runs again: $(cat "$tmp/err")"
	same_outputs "$tmp/v" "$tmp/ref.k6" "resume after $how fingerprints"
done
# every section of a file of several (the tables) is read: a flipped byte
# in the first is found; an empty file is not intact
"$BIN/ndd-stats" --verify "$tmp/ref.tab/tables.ndf" || bad "ndd-stats --verify: intact tables found damaged"
cp "$tmp/ref.tab/tables.ndf" "$tmp/tables.ndf"
python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(200); b = f.read(1); f.seek(200); f.write(bytes([b[0] ^ 0x55]))' "$tmp/tables.ndf"
"$BIN/ndd-stats" --verify "$tmp/tables.ndf" 2> /dev/null && bad "ndd-stats --verify: a flipped byte in the first table not found"
: > "$tmp/empty.ndf"
"$BIN/ndd-stats" --verify "$tmp/empty.ndf" 2> /dev/null && bad "ndd-stats --verify: an empty file found intact"

# A changed program runs its step and the later ones again.
kill_in stats "$tmp/p" "$in"
rm "$tmp/bin/ndd-self-join"
{ cat "$TOP/tests/data/hang-stage.sh"; echo '# another build'; } > "$tmp/bin/ndd-self-join"
chmod +x "$tmp/bin/ndd-self-join"
$rp --resume -o "$tmp/p" "$in" > /dev/null 2>&1
started fingerprint && bad "changed self-join program: fingerprint ran again"
started self-join || bad "changed self-join program: self-join reused"
same_outputs "$tmp/p" "$tmp/ref.k6" "resume with a new program"

# Another fingerprint method after the documents file was removed (by a
# run killed after the report): fingerprint must run, so extract runs
# again first.
ref sim --method simhash "$in"
kill_in self-join "$tmp/m" "$in"
rm "$(ls -d "$tmp/m"/.work.*)/documents.ndf" # as a run past the report leaves it
$rp --resume --method simhash -o "$tmp/m" "$in" > /dev/null 2>&1
started extract || bad "another method: extract not run again for the removed documents file"
same_outputs "$tmp/m" "$tmp/ref.sim" "resume with another method"

# Every step done but the documents file gone: the report reads titles
# in it, so the run goes back to extract rather than write another
# report.html.
kill_in stats "$tmp/d" "$in"
rm "$(ls -d "$tmp/d"/.work.*)/documents.ndf"
$rp --resume -o "$tmp/d" "$in" > /dev/null 2>&1
started extract || bad "documents file gone: extract not run again"
same_outputs "$tmp/d" "$tmp/ref.k6" "resume with the documents file gone"

# Without --resume a killed run's work is removed and nothing reused.
kill_in stats "$tmp/n" "$in"
$rp -o "$tmp/n" "$in" > /dev/null 2>&1
started extract || bad "without --resume: extract was reused"
[ "$(workdirs "$tmp/n")" = 0 ] || bad "without --resume: the leftover stays"

# --resume and SIGTERM: the work stays, the message says so; the next
# --resume reuses it.  A step's marker is summed in the background while
# the next step runs: a cksum that takes a second makes the signal come
# while fingerprint's marker is still being written, which must be
# finished, not lost.
mkdir -p "$tmp/slow"
printf '#!/bin/sh
sleep 1
exec %s "$@"
' "$(command -v cksum)" > "$tmp/slow/cksum"
chmod +x "$tmp/slow/cksum"
rm -f "$tmp/pids/"*
PATH="$tmp/slow:$PATH" NDD_TEST_HANG=self-join $rp --resume -o "$tmp/t" "$in" > /dev/null 2> "$tmp/err" &
p=$!
wait_for "$tmp/pids/self-join" || bad "SIGTERM: self-join not reached"
kill -TERM $p
wait $p
[ $? = 2 ] || bad "SIGTERM with --resume: exit not 2"
grep -q 'work kept in' "$tmp/err" || bad "SIGTERM with --resume: no word of the kept work: $(cat "$tmp/err")"
rm -f "$tmp/pids/"*
$rp --resume -o "$tmp/t" "$in" > /dev/null 2>&1
started fingerprint && bad "resume after SIGTERM: fingerprint ran again"
same_outputs "$tmp/t" "$tmp/ref.k6" "resume after SIGTERM"
# every run above ended in a run that finished: none left documents in memory
[ -z "$(ls -A "$tmp/shm")" ] || bad "documents left in memory: $(ls -A "$tmp/shm")"
exit $fail
