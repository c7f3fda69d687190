#!/bin/sh
# CLI tests of ndd-template and ndd-fingerprint --templates on the sample
# corpus: the templates file is the same for any -t and when the pages
# spill to disk (-m 8K), and on a generated crawl for either order of the
# documents; --previous carries an earlier night's hosts a
# night older, also from a file of record layout 1 (written before hosts
# were learnt by role: tests/data/templates-layout1.ndf, ndd-template of
# 8d734be on corpus-samples), whose hashes all mean chrome; fingerprint reads it and says what the templates did; a
# file of another kind is refused.
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
T=$(mktemp -d "${TMPDIR:-/tmp}/t_template.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

"$BIN/ndd-extract" -q -o "$T/docs.ndf" corpus-samples/*.warc* 2>/dev/null; [ $? -le 1 ] || bad "extract"
"$BIN/ndd-template" -q -t1 --stats "$T/st1.json" -o "$T/t1.ndf" "$T/docs.ndf" || bad "template -t1"
"$BIN/ndd-template" -q -t2 -o "$T/t2.ndf" "$T/docs.ndf" || bad "template -t2"
"$BIN/ndd-template" -q -t2 -m 8K -T "$T" --stats "$T/sts.json" -o "$T/ts.ndf" - <"$T/docs.ndf" ||
	bad "template spilling"
cmp -s "$T/t1.ndf" "$T/t2.ndf" && ok "same templates for -t1 and -t2" || bad "templates differ by -t"
cmp -s "$T/t1.ndf" "$T/ts.ndf" && ok "same templates when spilled" || bad "templates differ when spilled"
grep -q '"spilled_bytes": [1-9]' "$T/sts.json" && ok "-m 8K spilled" || bad "-m 8K did not spill"
learnt=$(sed -n 's/.*"hosts_with_template": \([0-9]*\).*/\1/p' "$T/st1.json")
[ "${learnt:-0}" -gt 0 ] && ok "$learnt hosts with a template" || bad "no template learnt"
[ -z "$(ls "$T" | grep ndd-template)" ] && ok "spill files gone" || bad "spill files left"

# The sample is a host's pages of smallest URL hash, whatever the order:
# a generated crawl of hosts of 10 to 160 pages in 6 files, extracted in
# file order and in the reverse, learns the same templates with --sample
# 5 and 30 (below some hosts' pages), in memory and spilled; with 5 the
# reader keeps only some pages of the larger hosts (tpl_sample_take()).
python3 bench/gen_crawl.py -s 3 -o "$T/crawl" --hosts 8 --pages 10 160 --parts 6 >/dev/null 2>&1 ||
	bad "gen_crawl.py"
"$BIN/ndd-extract" -q -o "$T/fwd.ndf" "$T"/crawl/crawl/*.warc.gz || bad "extract the crawl"
"$BIN/ndd-extract" -q -o "$T/rev.ndf" $(ls "$T"/crawl/crawl/*.warc.gz | sort -r) ||
	bad "extract the crawl in reverse"
cmp -s "$T/fwd.ndf" "$T/rev.ndf" && bad "the reversed crawl's documents are the same"
for s in 5 30; do
	"$BIN/ndd-template" -q --sample $s --stats "$T/sf.json" -o "$T/sf.ndf" "$T/fwd.ndf" &&
		"$BIN/ndd-template" -q -t1 --sample $s -m 8K -T "$T" -o "$T/sr.ndf" "$T/rev.ndf" ||
		bad "template --sample $s"
	cmp -s "$T/sf.ndf" "$T/sr.ndf" && ok "--sample $s: the same templates in either order" ||
		bad "--sample $s: the templates depend on the documents' order"
	kept=$(sed -n 's/.*"sampled": \([0-9]*\).*/\1/p' "$T/sf.json")
	docs=$(sed -n 's/.*"documents": \([0-9]*\).*/\1/p' "$T/sf.json")
	[ "${kept:-0}" -gt 0 ] && [ "$kept" -le "$docs" ] || bad "--sample $s learnt from $kept of $docs pages"
done
"$BIN/ndd-template" --sample 5 -o "$T/sf.ndf" "$T/rev.ndf" 2>&1 | grep -q "kept, 310 learnt from" ||
	bad "--sample 5: not 310 pages learnt from"
kept=$("$BIN/ndd-template" --sample 5 -o "$T/sf.ndf" "$T/rev.ndf" 2>&1 | sed -n 's/.* documents, \([0-9]*\) kept.*/\1/p')
[ "${kept:-0}" -gt 310 ] && [ "$kept" -lt "$docs" ] && ok "--sample 5 kept $kept of $docs pages" ||
	bad "--sample 5 kept '$kept' of $docs pages"

"$BIN/ndd-template" -q --sample 200 -o "$T/s200.ndf" "$T/fwd.ndf" || bad "template --sample 200"
cmp -s "$T/sf.ndf" "$T/s200.ndf" && bad "--sample 30 learns what all pages teach: the check above proves nothing" ||
	ok "--sample 30 learns otherwise than every page"

# --previous with no pages tonight: every host carried, a night older
"$BIN/ndd-template" -q --previous "$T/t1.ndf" --stats "$T/stp.json" -o "$T/p.ndf" </dev/null ||
	bad "template --previous"
carried=$(sed -n 's/.*"hosts_from_previous": \([0-9]*\).*/\1/p' "$T/stp.json")
[ "$carried" = "$learnt" ] && ok "--previous carries $carried hosts" || bad "--previous carried '$carried' of $learnt"
"$BIN/ndd-template" -q --previous "$T/t1.ndf" -o "$T/p2.ndf" "$T/docs.ndf" || bad "template --previous with pages"
cmp -s "$T/t1.ndf" "$T/p2.ndf" && ok "tonight's templates win over --previous" || bad "--previous changed learnt hosts"

# layout 1: read as it is, and carried into this layout by --previous
old=tests/data/templates-layout1.ndf
"$BIN/ndd-template" -q --previous "$old" --stats "$T/st-old.json" -o "$T/p-old.ndf" </dev/null ||
	bad "template --previous of layout 1"
carried=$(sed -n 's/.*"hosts_from_previous": \([0-9]*\).*/\1/p' "$T/st-old.json")
[ "${carried:-0}" -gt 0 ] && ok "--previous carries $carried hosts of layout 1" ||
	bad "--previous carried '$carried' of layout 1"
"$BIN/ndd-fingerprint" -q --templates "$old" -o "$T/fp-old.ndf" "$T/docs.ndf" ||
	bad "fingerprint --templates of layout 1"
"$BIN/ndd-fingerprint" -q --templates "$T/p-old.ndf" -o "$T/fp-old2.ndf" "$T/docs.ndf" ||
	bad "fingerprint --templates of layout 1 carried"
cmp -s "$T/fp-old.ndf" "$T/fp-old2.ndf" && ok "layout 1 and its carried copy give the same fingerprints" ||
	bad "layout 1 read otherwise than its carried copy"
layout() { od -An -tu4 -j88 -N4 "$1" | tr -d ' '; } # the header's aux
[ "$(layout "$old")" = 1 ] && [ "$(layout "$T/p-old.ndf")" = 3 ] && ok "carried into layout 3" ||
	bad "layout 1 carried as layout $(layout "$T/p-old.ndf")"

"$BIN/ndd-fingerprint" -q --templates "$T/t1.ndf" --stats "$T/fst.json" -o "$T/fp.ndf" "$T/docs.ndf" ||
	bad "fingerprint --templates"
grep -q '"templates": true' "$T/fst.json" && ok "fingerprint --stats" || bad "fingerprint --stats"
"$BIN/ndd-fingerprint" -q --templates "$T/fp.ndf" -o "$T/x.ndf" "$T/docs.ndf" 2>"$T/err" &&
	bad "fingerprints taken for templates" || ok "a fingerprints file is not templates"
grep -q 'expected templates' "$T/err" || bad "no reason given for the refusal"
"$BIN/ndd-template" -q -o "$T/y.ndf" "$T/fp.ndf" 2>"$T/err" && bad "template read fingerprints" ||
	ok "template refuses fingerprints"
grep -q 'expected documents (ndd-extract output), found' "$T/err" || bad "template: no reason given: $(cat "$T/err")"
# the report too names the kind, not a record layout
"$BIN/ndd-self-join" -q -c "$T/fp.ndf" -o "$T/c.csv" --from-fingerprints 2>/dev/null
"$BIN/ndd-report" -q --clusters "$T/c.csv" --docs "$T/fp.ndf" -o "$T/r.html" 2>"$T/err"
grep -q 'expected documents (ndd-extract output), found' "$T/err" && ok "report refuses fingerprints as documents" ||
	bad "report: fingerprints as documents: $(cat "$T/err")"
exit $fail
