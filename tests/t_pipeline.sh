#!/bin/sh
# run_pipeline.sh as a whole: the shell pipe of the stages gives the same
# clusters; -t1 and -t2 give the same bytes; the pairs joined in memory
# (the default) and through tables.ndf (--tables) give the same outputs;
# a failing stage leaves no clusters.csv; a missing stage program is
# named; usage errors exit 2.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
files="corpus-samples/cn.warc.gz corpus-samples/mixed.warc.gz corpus-samples/news-a.warc.gz corpus-samples/news-b.warc"

./run_pipeline.sh --bin "$BIN" -q -t 1 -o "$tmp/a" corpus-samples/ > "$tmp/a.out"
rc=$?
[ $rc -le 1 ] || bad "run_pipeline.sh exit $rc"
grep -q "^clusters: .*/clusters.csv$" "$tmp/a.out" || bad "no 'clusters: PATH' line"
for f in clusters.csv stats.json fingerprints.ndf documents.csv templates.ndf; do
	[ -s "$tmp/a/$f" ] || bad "$f missing"
done
[ -e "$tmp/a/tables.ndf" ] && bad "tables.ndf written without --tables"
grep -q '"permute-sort+compress"' "$tmp/a/stats.json" && bad "table stages timed without --tables"
ls -a "$tmp/a" | grep -q '^\.work' && bad "work directory left behind"
./run_pipeline.sh --bin "$BIN" -q -t 2 -o "$tmp/b" corpus-samples/ > /dev/null
cmp -s "$tmp/a/clusters.csv" "$tmp/b/clusters.csv" || bad "-t1 and -t2 clusters differ"
# The table path: the same outputs, and tables.ndf
for t in 1 2; do
	./run_pipeline.sh --bin "$BIN" -q -t $t --tables -o "$tmp/tab$t" corpus-samples/ > /dev/null
	[ -s "$tmp/tab$t/tables.ndf" ] || bad "--tables -t $t: no tables.ndf"
	for f in clusters.csv documents.csv fingerprints.ndf templates.ndf; do
		cmp -s "$tmp/a/$f" "$tmp/tab$t/$f" || bad "--tables -t $t: $f differs from the join in memory"
	done
done
cmp -s "$tmp/tab1/tables.ndf" "$tmp/tab2/tables.ndf" || bad "--tables: -t1 and -t2 tables differ"
grep -q '"documents"' "$tmp/a/stats.json" && grep -q '"seconds"' "$tmp/a/stats.json" ||
	bad "stats.json lacks documents or seconds"

# The same chain by hand: the documents go to the template stage, then
# to fingerprint with the templates.
# shellcheck disable=SC2086
"$BIN/ndd-extract" -q -o "$tmp/docs.ndf" $files
"$BIN/ndd-template" -q -o "$tmp/templates.ndf" "$tmp/docs.ndf"
"$BIN/ndd-fingerprint" -q --templates "$tmp/templates.ndf" -o "$tmp/fps.ndf" < "$tmp/docs.ndf"
"$BIN/ndd-permute-sort" -q -k 6 "$tmp/fps.ndf" | "$BIN/ndd-compress" -q |
	"$BIN/ndd-self-join" -q -c "$tmp/fps.ndf" -o "$tmp/pipe.csv"
cmp -s "$tmp/a/clusters.csv" "$tmp/pipe.csv" || bad "stages by hand and run_pipeline.sh differ"
cmp -s "$tmp/a/fingerprints.ndf" "$tmp/fps.ndf" || bad "fingerprints differ between hand and pipeline"
cmp -s "$tmp/a/templates.ndf" "$tmp/templates.ndf" || bad "templates differ between hand and pipeline"

# The plain shell pipe decides each page alone, as --no-templates does.
# shellcheck disable=SC2086
"$BIN/ndd-extract" -q $files | "$BIN/ndd-fingerprint" -q -o "$tmp/fps1.ndf"
"$BIN/ndd-permute-sort" -q -k 6 "$tmp/fps1.ndf" | "$BIN/ndd-compress" -q |
	"$BIN/ndd-self-join" -q -c "$tmp/fps1.ndf" -o "$tmp/pipe1.csv"
./run_pipeline.sh --bin "$BIN" -q --no-templates -o "$tmp/c" corpus-samples/ > /dev/null
cmp -s "$tmp/c/clusters.csv" "$tmp/pipe1.csv" || bad "shell pipe and run_pipeline.sh --no-templates differ"
cmp -s "$tmp/c/fingerprints.ndf" "$tmp/fps1.ndf" || bad "--no-templates: fingerprints differ from the shell pipe's"
./run_pipeline.sh --bin "$BIN" -q --no-templates --keep-work -t 1 -o "$tmp/c1" corpus-samples/ > /dev/null
cmp -s "$tmp/c1/fingerprints.ndf" "$tmp/fps1.ndf" || bad "--no-templates --keep-work -t 1: fingerprints differ"
[ -f "$tmp/c/templates.ndf" ] && bad "--no-templates wrote templates"

# A fingerprint file with one byte flipped: the table stage refuses it.
cp "$tmp/a/fingerprints.ndf" "$tmp/flip.ndf"
printf 'Z' | dd of="$tmp/flip.ndf" bs=1 seek=300 conv=notrunc 2>/dev/null
"$BIN/ndd-permute-sort" -o "$tmp/t.ndf" "$tmp/flip.ndf" 2> "$tmp/err"
[ $? -eq 2 ] || bad "flipped fingerprint file: exit not 2"
grep -q "flip.ndf.*checksum" "$tmp/err" || bad "flipped fingerprint file: message lacks file or fault"
[ ! -e "$tmp/t.ndf" ] || bad "flipped fingerprint file: output left behind"

# Only garbage, or only an empty file: exit 2 and no clusters.csv.
mkdir -p "$tmp/junk" "$tmp/empty"
head -c 20000 /dev/urandom > "$tmp/junk/x.warc.gz"
: > "$tmp/empty/y.warc"
for d in junk empty; do
	./run_pipeline.sh --bin "$BIN" -q -o "$tmp/out-$d" "$tmp/$d" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || bad "$d corpus: exit $rc, expected 2"
	[ ! -e "$tmp/out-$d/clusters.csv" ] || bad "$d corpus: clusters.csv left behind"
done

# One bad file among good ones costs only itself: exit 1, clusters intact.
mkdir -p "$tmp/mix"
cp corpus-samples/*.warc* "$tmp/mix/"
head -c 20000 /dev/urandom > "$tmp/mix/zz-garbage.warc.gz"
./run_pipeline.sh --bin "$BIN" -q -o "$tmp/out-mix" "$tmp/mix" > /dev/null 2>&1
[ $? -eq 1 ] || bad "one garbage file among good ones: exit not 1"
cut -d, -f1,2 "$tmp/out-mix/clusters.csv" > "$tmp/mix.cl"
cut -d, -f1,2 "$tmp/a/clusters.csv" > "$tmp/a.cl"
cmp -s "$tmp/mix.cl" "$tmp/a.cl" || bad "a garbage file changed the clusters of the good ones"

# Across nights: tonight's pages looked up in last night's index.
./run_pipeline.sh --bin "$BIN" -q -o "$tmp/night1" corpus-samples/news-a.warc.gz > /dev/null
./run_pipeline.sh --bin "$BIN" -q --previous "$tmp/night1" -o "$tmp/night2" \
	corpus-samples/news-b.warc > /dev/null || bad "--previous run failed"
grep -q '^http://mirror.daily-planet.example/2026/11/article-1.html,.*,http://daily-planet.example/2026/11/article-1.html,.*,0,exact' \
	"$tmp/night2/previous.csv" || bad "--previous: the mirrored page of last night not found"
# last night joined in memory (no tables.ndf) or through tables: the same
[ -e "$tmp/night1/tables.ndf" ] && bad "night 1 wrote tables.ndf without --tables"
[ -s "$tmp/night2/tables.ndf" ] || bad "--previous: tonight's tables.ndf (for the lookup) missing"
./run_pipeline.sh --bin "$BIN" -q --tables -o "$tmp/night1t" corpus-samples/news-a.warc.gz > /dev/null
./run_pipeline.sh --bin "$BIN" -q --previous "$tmp/night1t" -o "$tmp/night2t" \
	corpus-samples/news-b.warc > /dev/null || bad "--previous of a --tables run failed"
for f in previous.csv documents.csv clusters.csv; do
	cmp -s "$tmp/night2/$f" "$tmp/night2t/$f" || bad "--previous: $f differs with and without last night's tables.ndf"
done
./run_pipeline.sh --bin "$BIN" -q --previous "$tmp/nothing" -o "$tmp/night3" corpus-samples/ 2>/dev/null
[ $? -eq 2 ] || bad "--previous with no index accepted"

# A stage failing (fingerprint after extract in a pipe with
# --no-templates; template beside extract, extract before it;
# fingerprint after them, or killed by SIGKILL): exit 2, that stage
# named, nothing published, the previous outputs kept.
./run_pipeline.sh --bin "$BIN" -q -o "$tmp/keep" corpus-samples/ > /dev/null
cp "$tmp/keep/clusters.csv" "$tmp/keep.csv"
for case in fingerprint:--no-templates template: extract: fingerprint: fingerprint:killed; do
	s=${case%%:*} opt=${case#*:}
	rm -rf "$tmp/fbin"
	mkdir -p "$tmp/fbin"
	for p in "$BIN"/ndd-*; do ln -s "$p" "$tmp/fbin/${p##*/}"; done
	rm "$tmp/fbin/ndd-$s"
	if [ "$opt" = killed ]; then
		printf '#!/bin/sh\nhead -c 5000 > /dev/null\nkill -9 $$\n' > "$tmp/fbin/ndd-$s"
		opt=
	else
		printf '#!/bin/sh\necho "ndd-%s: error: made to fail" >&2\nexit 2\n' "$s" > "$tmp/fbin/ndd-$s"
	fi
	chmod +x "$tmp/fbin/ndd-$s"
	for o in "$tmp/fail-$s" "$tmp/keep"; do
		./run_pipeline.sh --bin "$tmp/fbin" -q $opt -o "$o" corpus-samples/ > /dev/null 2> "$tmp/err"
		rc=$?
		[ $rc -eq 2 ] || bad "$case failing in a pipe: exit $rc, expected 2"
		grep -q "stage $s failed" "$tmp/err" || bad "$case failing in a pipe: not named: $(cat "$tmp/err")"
	done
	[ ! -e "$tmp/fail-$s/clusters.csv" ] || bad "$case failing in a pipe: clusters.csv published"
	cmp -s "$tmp/keep/clusters.csv" "$tmp/keep.csv" || bad "$case failing: the previous outputs changed"
	rm -rf "$tmp/fail-$s"
done

# Missing stage program, usage errors.
mkdir -p "$tmp/bin"
for s in extract template fingerprint permute-sort compress; do ln -s "$BIN/ndd-$s" "$tmp/bin/ndd-$s"; done
./run_pipeline.sh --bin "$tmp/bin" -o "$tmp/o" corpus-samples/ 2> "$tmp/err"
[ $? -eq 2 ] || bad "missing stage: exit not 2"
grep -q "ndd-self-join" "$tmp/err" || bad "missing stage not named"
./run_pipeline.sh -k 9 corpus-samples/ 2>/dev/null; [ $? -eq 2 ] || bad "-k 9 accepted"
./run_pipeline.sh 2>/dev/null; [ $? -eq 2 ] || bad "no input accepted"
./run_pipeline.sh -o "$tmp/o" "$tmp/no-such-dir" 2>/dev/null; [ $? -eq 2 ] || bad "missing input accepted"
./run_pipeline.sh --help | grep -q "Usage" || bad "--help"
# an option without its value, last or empty: a usage error naming it
for opt in -o --docs-memory --files-from; do
	./run_pipeline.sh "$opt" 2> "$tmp/err"; rc=$?
	if [ $rc -ne 2 ] || ! grep -q "option '$opt' needs a value" "$tmp/err"; then
		bad "$opt without a value: exit $rc"
	fi
done
./run_pipeline.sh -k '' corpus-samples/ 2>/dev/null; [ $? -eq 2 ] || bad "-k '' accepted"
exit $fail
