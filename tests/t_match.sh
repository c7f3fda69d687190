#!/bin/sh
# Seed 004's four duplicate types in the match column (README, "The
# output CSV"): tests/match_corpus.py writes one article on two templates
# of one host and a third of another host, as exact copies, edits and
# partial copies, with five filler articles per template.  The golden
# types of every pair of the article's variants (self-join --pairs), the
# clusters.csv match of each member being its pair's type with the
# representative, with and without the template pass; previous.csv
# against the same night; no pair of pages that share only a template.
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
TOP=${TOP:-$(pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/t_match.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

python3 "$TOP/tests/match_corpus.py" "$T/m.warc" || { echo "FAIL corpus"; exit 1; }

# The pairs among the article's variants within k = 6 and their types, a
# page named by its path on a.example (a/) or b.example (b/).
cat >"$T/want" <<'END'
a/blog/x a/news/x same-content
a/blog/x a/news/x?print=0 same-content
a/blog/x a/news/x?ref=feed same-content
a/blog/x a/news/x?rev=2 same-content
a/blog/x b/story/x same-content
a/blog/x b/story/x-digest partial
a/news/x a/news/x?print=0 exact
a/news/x a/news/x?ref=feed exact
a/news/x a/news/x?rev=2 same-layout
a/news/x b/story/x same-content
a/news/x b/story/x-digest partial
a/news/x?print=0 a/news/x?ref=feed exact
a/news/x?print=0 a/news/x?rev=2 same-layout
a/news/x?print=0 b/story/x same-content
a/news/x?print=0 b/story/x-digest partial
a/news/x?ref=feed a/news/x?rev=2 same-layout
a/news/x?ref=feed b/story/x same-content
a/news/x?ref=feed b/story/x-digest partial
a/news/x?rev=2 b/story/x same-content
b/story/x b/story/x-digest same-layout
END

# "key_a,key_b,distance,match" -> "A B match", the two keys in order.
pairs_of() {
	tr -d '\r' <"$1" | awk -F, 'NR > 1 {
		a = $1; b = $2; sub("http://", "", a); sub("http://", "", b)
		sub("[.]example", "", a); sub("[.]example", "", b)
		if (a > b) { t = a; a = b; b = t }
		print a, b, $4 }' | LC_ALL=C sort
}

# Every member of clusters.csv but the representative says its pair's
# type with the representative (the pairs file's), the representative rep.
members_agree() { # CLUSTERS PAIRS
	tr -d '\r' <"$1" | awk -F, -v pairs="$2" '
		BEGIN { while ((getline l < pairs) > 0) { gsub("\r", "", l); split(l, f, ",")
			t[f[1] " " f[2]] = f[4]; t[f[2] " " f[1]] = f[4] } }
		NR == 1 { next }
		$9 == 1 { rep[$1] = $2; if ($10 != "rep") bad = 1; next }
		{ n++; if (t[rep[$1] " " $2] != $10) bad = 1 }
		END { exit bad || n < 5 }'
}

for mode in templates no-templates; do
	opt=
	[ $mode = no-templates ] && opt=--no-templates
	out="$T/out-$mode"
	"$TOP/run_pipeline.sh" -q --bin "$BIN" $opt -o "$out" "$T/m.warc" >/dev/null 2>"$T/err" ||
		{ bad "$mode: run_pipeline.sh"; cat "$T/err"; continue; }
	"$BIN/ndd-self-join" -q -k 6 --from-fingerprints -c "$out/fingerprints.ndf" \
		--pairs "$T/pairs-$mode.csv" -o "$T/c-$mode.csv" || bad "$mode: self-join --pairs"
	pairs_of "$T/pairs-$mode.csv" >"$T/got-$mode"
	if [ $mode = templates ]; then
		if cmp -s "$T/want" "$T/got-$mode"; then
			ok "$mode: the 20 pairs of the article's variants and their types"
		else
			bad "$mode: pairs and types differ from the golden ones:"
			diff "$T/want" "$T/got-$mode" | sed 's/^/    /'
		fi
	else
		# Without the template pass some chrome stays in the text, so
		# copies on two templates lie further apart (and some pairs go);
		# the frames still tell one template (exact, same-layout) from
		# two: every pair is one of the golden's, on as many templates,
		# and every golden pair on one template is there.
		if awk 'function tpl(t) { return t == "exact" || t == "same-layout" }
			NR == FNR { want[$1 " " $2] = tpl($3); if (tpl($3)) need++; next }
			{ k = $1 " " $2; if (!(k in want) || want[k] != tpl($3)) bad = 1; if (tpl($3)) got++ }
			END { exit bad || got != need || need == 0 }' "$T/want" "$T/got-$mode"; then
			ok "$mode: each pair on one template or two as with templates"
		else
			bad "$mode: the templates of some pair differ from the golden ones:"
			diff "$T/want" "$T/got-$mode" | sed 's/^/    /'
		fi
	fi
	grep -q filler "$T/pairs-$mode.csv" && bad "$mode: pages sharing only a template paired" ||
		ok "$mode: no pair of pages that share only a template"
	cmp -s "$out/clusters.csv" "$T/c-$mode.csv" &&
		ok "$mode: self-join --pairs and run_pipeline.sh write the same clusters" ||
		bad "$mode: clusters differ between self-join and run_pipeline.sh"
	members_agree "$out/clusters.csv" "$T/pairs-$mode.csv" &&
		ok "$mode: clusters.csv's match is each member's type with its representative" ||
		bad "$mode: clusters.csv's match column disagrees with the pairs"
	# stats.json counts what the CSVs say: the members by their match, the
	# pairs by their type, the dropped pages by theirs (documents.csv).
	if python3 - "$out" "$T/pairs-$mode.csv" <<'PY'
import collections, csv, json, sys
out, pairs = sys.argv[1], sys.argv[2]
st = json.load(open(out + "/stats.json"))
def count(path, col):
    with open(path, newline="", encoding="utf-8") as f:
        c = collections.Counter(r[col] for r in csv.DictReader(f))
    return {k: c.get(k, 0) for k in ("exact", "same-content", "same-layout", "partial")}
got = (st["join"]["members_by_match"], st["join"]["pairs_by_match"],
       st["documents"]["dropped_by_match"])
want = (count(out + "/clusters.csv", "match"), count(pairs, "match"),
        count(out + "/documents.csv", "match"))
sys.exit(0 if got == want and sum(want[0].values()) >= 5 else 1)
PY
	then
		ok "$mode: stats.json counts the clusters', pairs' and drops' types as the CSVs show them"
	else
		bad "$mode: stats.json's counts by type differ from the CSVs'"
	fi
	rows=$(($(wc -l <"$out/documents.csv") - 1))
	[ "$rows" -eq 22 ] && ok "$mode: documents.csv has the 22 pages" ||
		bad "$mode: documents.csv has $rows rows"
done

# Across nights: tonight's pages against the same pages of an earlier night.
"$TOP/run_pipeline.sh" -q --bin "$BIN" --previous "$T/out-templates" -o "$T/again" "$T/m.warc" >/dev/null 2>&1 ||
	bad "run_pipeline.sh --previous"
prev="$T/again/previous.csv"
self=$(tr -d '\r' <"$prev" | awk -F, 'NR > 1 && $1 == $7 { n++; if ($14 != "exact") bad = 1 }
	END { print bad ? -1 : n + 0 }')
[ "$self" -eq 22 ] && ok "previous.csv: each page exact against itself" ||
	bad "previous.csv: $self pages exact against themselves"
moved=$(tr -d '\r' <"$prev" | awk -F, 'NR > 1 && $1 == "http://a.example/blog/x" &&
	$7 == "http://b.example/story/x" { print $14 }')
[ "$moved" = same-content ] && ok "previous.csv: another template's copy is same-content" ||
	bad "previous.csv: blog/x against story/x is '$moved'"
exit $fail
