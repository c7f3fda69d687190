#!/bin/sh
# The index of nights and publishing, when a run stops between them
# (run_pipeline.sh stages the night in the index, publishes, then commits
# the night).  The states such a stop leaves are made by hand from
# finished runs: a night staged (.new-NAME) whose outputs were published
# is committed by the next run on the index, with a warning, in its
# place among the nights, and night 3 then finds its copies in it; so is
# a night renamed into nights/ but not listed; a staged night whose run
# was not published is removed; a run of a night so repaired is refused
# as already in the index.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rp="./run_pipeline.sh --bin $BIN -q"
idx=$tmp/idx
nights() { tr '\n' ' ' < "$idx/nights.txt"; }
drop_listing() { grep -vxF "$1" "$idx/nights.txt" > "$tmp/n"; cp "$tmp/n" "$idx/nights.txt"; }

$rp --index "$idx" --night n1 -o "$tmp/o1" corpus-samples/news-a.warc.gz > /dev/null 2>&1
$rp --index "$idx" --night n2 -o "$tmp/o2" corpus-samples/news-b.warc > /dev/null 2>&1
[ "$(nights)" = "n1 n2 " ] || bad "two nights: $(nights)"

# Stopped after publishing night 2, before committing it.
mv "$idx/nights/n2" "$idx/.new-n2"
drop_listing n2
$rp --index "$idx" --night n3 -o "$tmp/o3" corpus-samples/mixed.warc.gz > /dev/null 2> "$tmp/err"
[ $? -le 1 ] || bad "night 3 failed: $(cat "$tmp/err")"
grep -q "night 'n2' was published in .* added now" "$tmp/err" || bad "no word of the repair: $(cat "$tmp/err")"
[ "$(nights)" = "n1 n2 n3 " ] || bad "after the repair: nights $(nights), want n1 n2 n3"
[ -e "$idx/.new-n2" ] && bad "the staged night stays"
grep -q '^http://metro-wire.example/story/tuesday-memory-leak.html,.*,drop,.*,n2' "$tmp/o3/documents.csv" ||
	bad "night 3 does not find its copy in the repaired night 2"
$rp --index "$idx" --night n2 -o "$tmp/o2" corpus-samples/news-b.warc > /dev/null 2> "$tmp/err"
if [ $? != 2 ] || ! grep -q "already in the index" "$tmp/err"; then
	bad "a run of the repaired night is not refused: $(cat "$tmp/err")"
fi

# Stopped after renaming night 3 into nights/, before listing it.
drop_listing n3
$rp --index "$idx" --night n4 -o "$tmp/o4" corpus-samples/cn.warc.gz > /dev/null 2> "$tmp/err"
grep -q "night 'n3' was published" "$tmp/err" || bad "unlisted night: no word of the repair: $(cat "$tmp/err")"
[ "$(nights)" = "n1 n2 n3 n4 " ] || bad "unlisted night: nights $(nights), want n1 n2 n3 n4"

# Stopped before publishing: the staged night's run is not current.
cp -r "$idx/nights/n1" "$idx/.new-n5"
sed -i 's/^run=.*/run=.run-never-published/' "$idx/.new-n5/night.conf"
$rp --index "$idx" --night n6 -o "$tmp/o6" corpus-samples/news-a.warc.gz > /dev/null 2> "$tmp/err"
[ -e "$idx/.new-n5" ] && bad "a night staged but not published stays"
[ "$(nights)" = "n1 n2 n3 n4 n6 " ] || bad "unpublished staged night: nights $(nights)"
grep -q n5 "$tmp/err" && bad "an unpublished night was reported as repaired: $(cat "$tmp/err")"

# A night.conf names the output and run directories it was published as.
if ! grep -qx "run=$(readlink "$tmp/o6/current")" "$idx/nights/n6/night.conf" ||
	! grep -qx "output=$tmp/o6" "$idx/nights/n6/night.conf"; then
	bad "night.conf: $(cat "$idx/nights/n6/night.conf")"
fi
exit $fail
