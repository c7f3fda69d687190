#!/bin/sh
# ndd-template --copy FILE (run_pipeline.sh's extract | template, without
# tee): FILE is standard input byte for byte, also when the documents are
# cut short or are not documents at all; a FILE that cannot be written
# fails the stage, naming FILE; --copy with a named input is refused.
# --copy-memory MFILE: the copy is MFILE while it fits --copy-memory-max
# and MFILE's file system; past either it moves to FILE on the way, the
# same bytes, and nothing is left in MFILE's directory.
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/t_template_copy.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

"$BIN/ndd-extract" -q -o "$T/docs.ndf" corpus-samples/*.warc* 2>/dev/null; [ $? -le 1 ] || bad "extract"
"$BIN/ndd-template" -q -o "$T/t.ndf" "$T/docs.ndf" || bad "template from the file"

# through a pipe, as run_pipeline.sh runs it, not a file
# shellcheck disable=SC2002
cat "$T/docs.ndf" | "$BIN/ndd-template" -q --copy "$T/copy.ndf" -o "$T/tc.ndf" - || bad "template --copy"
cmp -s "$T/docs.ndf" "$T/copy.ndf" && ok "the copy is the input" || bad "the copy differs from the input"
cmp -s "$T/t.ndf" "$T/tc.ndf" && ok "same templates with --copy" || bad "--copy changed the templates"
[ -z "$(ls "$T" | grep '\.tmp\.')" ] && ok "no temporary file left" || bad "temporary file left"

# cut short and not documents at all: the stage fails, the copy is whole
size=$(wc -c <"$T/docs.ndf")
head -c $((size * 2 / 3)) "$T/docs.ndf" >"$T/cut.ndf"
head -c 300000 /dev/urandom >"$T/junk.bin"
for f in cut.ndf junk.bin; do
	"$BIN/ndd-template" -q --copy "$T/copy-$f" -o "$T/t-$f" <"$T/$f" 2>"$T/err"
	rc=$?
	[ $rc -gt 1 ] && ok "$f: template fails (exit $rc)" || bad "$f: template exit $rc"
	cmp -s "$T/$f" "$T/copy-$f" && ok "$f: the copy is the input" || bad "$f: the copy differs"
	[ ! -e "$T/t-$f" ] && ok "$f: no templates published" || bad "$f: templates published"
done

# a copy that cannot be written
"$BIN/ndd-template" -q --copy "$T/no/such/dir/copy.ndf" -o "$T/tn.ndf" <"$T/docs.ndf" 2>"$T/err"
rc=$?
[ $rc -gt 1 ] && ok "unwritable copy fails (exit $rc)" || bad "unwritable copy: exit $rc"
grep -q "no/such/dir/copy.ndf" "$T/err" && ok "the error names the copy" || bad "error: $(cat "$T/err")"
[ ! -e "$T/tn.ndf" ] && ok "no templates published" || bad "templates published without the copy"
mkdir "$T/isdir.ndf"
"$BIN/ndd-template" -q --copy "$T/isdir.ndf" -o "$T/td.ndf" <"$T/docs.ndf" 2>"$T/err"
rc=$?
[ $rc -gt 1 ] && grep -q "isdir.ndf" "$T/err" && ok "a copy that cannot be renamed fails, naming it" ||
	bad "copy onto a directory: exit $rc, $(cat "$T/err")"

"$BIN/ndd-template" -q --copy "$T/c2.ndf" -o "$T/t2.ndf" "$T/docs.ndf" 2>/dev/null
rc=$?
[ $rc -gt 1 ] && ok "--copy with a named input refused" || bad "--copy with a named input: exit $rc"
# --copy-memory: in memory while it fits, else moved to FILE on the way
size=$(wc -c <"$T/docs.ndf")
mkdir "$T/mem"
for max in 1G $size $((size - 1)) 20K 1; do
	rm -f "$T/cm.ndf" "$T/tm.ndf"
	cat "$T/docs.ndf" | "$BIN/ndd-template" -q --copy "$T/cm.ndf" --copy-memory "$T/mem/cm.ndf" \
		--copy-memory-max "$max" -o "$T/tm.ndf" - || bad "--copy-memory-max $max: template failed"
	cmp -s "$T/t.ndf" "$T/tm.ndf" || bad "--copy-memory-max $max: other templates"
	if [ "$max" = 1G ] || [ "$max" = "$size" ]; then
		cmp -s "$T/docs.ndf" "$T/mem/cm.ndf" && [ ! -e "$T/cm.ndf" ] &&
			ok "--copy-memory-max $max: the copy in memory" || bad "--copy-memory-max $max: not the copy in memory"
		rm -f "$T/mem/cm.ndf"
	else
		cmp -s "$T/docs.ndf" "$T/cm.ndf" && ok "--copy-memory-max $max: the copy moved to FILE" ||
			bad "--copy-memory-max $max: FILE is not the input"
	fi
	[ -z "$(ls -A "$T/mem")" ] || bad "--copy-memory-max $max: left $(ls -A "$T/mem")"
done
"$BIN/ndd-template" -q --copy-memory "$T/mem/x.ndf" -o "$T/tx.ndf" <"$T/docs.ndf" 2>/dev/null
[ $? -gt 1 ] && ok "--copy-memory without --copy refused" || bad "--copy-memory without --copy accepted"
"$BIN/ndd-template" -q --copy "$T/cc.ndf" --copy-memory "$T/mem/cc.ndf" --copy-memory-max 1G \
	-o "$T/tcc.ndf" <"$T/cut.ndf" 2>/dev/null
[ $? -gt 1 ] && cmp -s "$T/cut.ndf" "$T/mem/cc.ndf" && ok "cut short: fails, the copy in memory whole" ||
	bad "cut short with --copy-memory"

# a file system that fills up (a 16 KB tmpfs; root and unshare -m only)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$T/mem'" 2>/dev/null; then
	unshare -m sh -c "mount -t tmpfs -o size=16k tmpfs '$T/mem' &&
		'$BIN/ndd-template' -q --copy '$T/cf.ndf' --copy-memory '$T/mem/cf.ndf' --copy-memory-max 1G \
			-o '$T/tf.ndf' - <'$T/docs.ndf' && ls -A '$T/mem' >'$T/left'"
	rc=$?
	[ $rc = 0 ] && cmp -s "$T/docs.ndf" "$T/cf.ndf" && [ ! -s "$T/left" ] &&
		ok "a full tmpfs: the copy moved to FILE" || bad "a full tmpfs: exit $rc"
else
	echo "skip: a full tmpfs (needs root and unshare -m)"
fi
exit $fail
