#!/bin/sh
# ndd-fingerprint --learn-templates (learning while fingerprinting) writes
# the bytes of ndd-template followed by ndd-fingerprint --templates: the
# templates, the fingerprints and both statistics files, on a generated
# crawl whose hosts have fewer and more pages than --sample, for -t 1 and
# -t 2, from a file or from a pipe with the copy tee writes, with an
# earlier night's templates, and with the documents in another order
# (--sample 3: which pages are the sample matters; the templates are the
# same, a host's sample being its pages of smallest URL hash); bad uses
# are refused.
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/t_follow.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# 8 hosts of 10 to 60 pages in 6 files: with --sample 30 some hosts are
# learnt from all their pages, the others from a sample.  Each file is a
# section of its own, so the stage sees the crawl in several parts.
python3 bench/gen_crawl.py -s 3 -o "$T/crawl" --hosts 8 --pages 10 60 --parts 6 > /dev/null 2>&1 ||
	bad "gen_crawl.py"
i=0
for f in "$T"/crawl/crawl/*.warc.gz corpus-samples/*.warc*; do
	"$BIN/ndd-extract" -q --file-base $i -o "$T/d$i.ndf" "$f" 2> /dev/null
	[ $? -le 1 ] || bad "extract $f"
	i=$((i + 1))
done
cat "$T"/d[0-9]*.ndf > "$T/docs.ndf"

"$BIN/ndd-template" -q --sample 30 --stats "$T/ref-t.json" -o "$T/ref.ndf" "$T/docs.ndf" ||
	bad "ndd-template"
"$BIN/ndd-fingerprint" -q --templates "$T/ref.ndf" --stats "$T/ref-f.json" -o "$T/ref-fps.ndf" \
	"$T/docs.ndf" || bad "ndd-fingerprint --templates"

same() { # NAME: its four outputs against the two stages'
	cmp -s "$T/$1.ndf" "$T/ref.ndf" && cmp -s "$T/$1-fps.ndf" "$T/ref-fps.ndf" &&
		cmp -s "$T/$1-t.json" "$T/ref-t.json" && cmp -s "$T/$1-f.json" "$T/ref-f.json"
}
learn() { # NAME ARGS...: learn while fingerprinting into NAME's files
	n=$1
	shift
	"$BIN/ndd-fingerprint" --sample ${S:-30} --learn-templates "$T/$n.ndf" \
		--template-stats "$T/$n-t.json" --stats "$T/$n-f.json" -o "$T/$n-fps.ndf" "$@"
}
for t in 1 2; do
	learn t$t -t $t "$T/docs.ndf" 2> "$T/t$t.err" || bad "-t $t: failed: $(cat "$T/t$t.err")"
	same t$t && ok "-t $t: the same bytes as ndd-template and --templates" || bad "-t $t: differs"
done
grep -q '"sampled": [1-9]' "$T/t1-t.json" && ! cmp -s "$T/t1.ndf" /dev/null &&
	ok "templates learnt" || bad "no templates learnt: $(cat "$T/t1-t.json")"
# from a pipe, the pages read back from the copy tee writes
"$BIN/ndd-extract" -q $(ls "$T"/crawl/crawl/*.warc.gz) 2> /dev/null | tee "$T/copy.ndf" |
	learn p -t 2 --docs "$T/copy.ndf" - 2> "$T/p.err" || bad "through tee: $(cat "$T/p.err")"
"$BIN/ndd-template" -q --sample 30 --stats "$T/pref-t.json" -o "$T/pref.ndf" "$T/copy.ndf"
"$BIN/ndd-fingerprint" -q --templates "$T/pref.ndf" -o "$T/pref-fps.ndf" "$T/copy.ndf"
cmp -s "$T/p.ndf" "$T/pref.ndf" && cmp -s "$T/p-fps.ndf" "$T/pref-fps.ndf" &&
	cmp -s "$T/p-t.json" "$T/pref-t.json" && ok "through tee, read back from the copy" ||
	bad "through tee: differs"

# an earlier night's templates, as ndd-template --previous takes them
"$BIN/ndd-template" -q --sample 30 --previous "$T/pref.ndf" --stats "$T/ref-t.json" \
	-o "$T/ref.ndf" "$T/docs.ndf"
"$BIN/ndd-fingerprint" -q --templates "$T/ref.ndf" --stats "$T/ref-f.json" -o "$T/ref-fps.ndf" \
	"$T/docs.ndf"
learn pv -t 2 --previous-templates "$T/pref.ndf" "$T/docs.ndf" 2> /dev/null && same pv &&
	ok "--previous-templates as ndd-template --previous" || bad "--previous-templates differs"

# the documents in another order (the files reversed: each host's pages
# come in another order): the same templates, and each order the bytes of
# the two stages
cat $(ls -r "$T"/d[0-9]*.ndf) > "$T/rdocs.ndf"
for o in docs rdocs; do
	"$BIN/ndd-template" -q --sample 3 --stats "$T/s$o-reft.json" -o "$T/s$o-ref.ndf" \
		"$T/$o.ndf" || bad "ndd-template --sample 3 $o"
	"$BIN/ndd-fingerprint" -q --templates "$T/s$o-ref.ndf" -o "$T/s$o-reffps.ndf" "$T/$o.ndf" ||
		bad "ndd-fingerprint --templates $o"
	S=3 learn s$o -t 2 "$T/$o.ndf" 2> "$T/s$o.err" || bad "--sample 3 $o: $(cat "$T/s$o.err")"
	cmp -s "$T/s$o.ndf" "$T/s$o-ref.ndf" && cmp -s "$T/s$o-fps.ndf" "$T/s$o-reffps.ndf" &&
		cmp -s "$T/s$o-t.json" "$T/s$o-reft.json" &&
		ok "--sample 3, $o: the same bytes as the two stages" || bad "--sample 3, $o: differs"
done
cmp -s "$T/sdocs.ndf" "$T/srdocs.ndf" && ok "--sample 3: the same templates in either order" ||
	bad "--sample 3: the order of the documents changed the templates"
# and the sample matters here: --sample 3 learns other templates than 30
cmp -s "$T/sdocs.ndf" "$T/t1.ndf" && bad "--sample 3 learnt what --sample 30 did"

# bad uses: exit 2, nothing published
refuse() { # WHAT ARGS...
	w=$1
	shift
	cat "$T/docs.ndf" | "$BIN/ndd-fingerprint" -q -o "$T/no.ndf" "$@" 2> "$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -e "$T/no.ndf" ] && [ ! -e "$T/no-t.ndf" ] && ok "refused: $w" ||
		bad "$w: exit $rc: $(cat "$T/err")"
}
refuse "with --templates" --learn-templates "$T/no-t.ndf" --templates "$T/ref.ndf" "$T/docs.ndf"
refuse "--docs alone" --docs "$T/docs.ndf" "$T/docs.ndf"
refuse "templates to standard output" --learn-templates - "$T/docs.ndf"
refuse "a pipe without --docs" --learn-templates "$T/no-t.ndf" -
grep -q "give the documents as a file" "$T/err" || bad "a pipe without --docs: message"
# another file as big: the pages read back are not the ones that came
refuse "--docs not a copy of the input" --learn-templates "$T/no-t.ndf" --docs "$T/rdocs.ndf" -
grep -q "not a copy" "$T/err" || bad "--docs not a copy: message: $(cat "$T/err")"
exit $fail
