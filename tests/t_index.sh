#!/bin/sh
# The index of nights and documents.csv (run_pipeline.sh --index, ndd-documents):
# three nights of the corpus samples with --keep-nights 2: night 3 finds
# its copies in nights 1 and 2 and documents.csv names them and their
# nights; night 1 expires; a k, method or night name the index does not
# take is refused with exit 2; a night crawled again is dropped whole as
# copies of the first; within a night each cluster keeps one page, chosen
# by --keep.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
rp="./run_pipeline.sh --bin $BIN -q"
idx=$tmp/idx
# The corpus' URLs hold no commas or quotes: a row splits on commas.
rows() { tr -d '\r' < "$1" | tail -n +2; }
want_header="url,warc_file,warc_offset,record_id,warc_date,fingerprint,cluster_id,decision,duplicate_of,duplicate_of_night,match"

n=0
for f in news-a.warc.gz news-b.warc mixed.warc.gz; do
	n=$((n + 1))
	$rp --index "$idx" --night "2026-11-0$n" --keep-nights 2 -o "$tmp/out$n" \
		"corpus-samples/$f" > /dev/null 2> "$tmp/err$n"
	[ $? -le 1 ] || bad "night $n failed: $(cat "$tmp/err$n")"
done
doc=$tmp/out3/documents.csv
[ "$(head -n 1 "$doc" | tr -d '\r')" = "$want_header" ] || bad "documents.csv header: $(head -n 1 "$doc")"
[ "$(rows "$doc" | wc -l)" = 3 ] || bad "night 3: $(rows "$doc" | wc -l) rows, want its 3 documents"
row() { rows "$doc" | awk -F, -v u="$1" '$1 == u { print $8 "," $9 "," $10 "," $11 }'; }
got=$(row http://metro-wire.example/story/heritage-grain-bakers.html)
[ "$got" = "drop,http://daily-planet.example/2026/11/article-2.html,2026-11-01,same-content" ] &&
	ok "night 3 drops a copy of a page of night 1 (the earliest of its copies in nights 1 and 2), the same content on another site's template" ||
	bad "heritage-grain-bakers: '$got'"
got=$(row http://metro-wire.example/story/tuesday-memory-leak.html)
[ "$got" = "drop,http://techblog.example/posts/tuesday-memory-leak.html,2026-11-02,same-content" ] &&
	ok "night 3 drops a copy of a page of night 2" || bad "tuesday-memory-leak: '$got'"
got=$(row http://metro-wire.example/story/night-buses-return.html)
[ "$got" = "keep,,," ] && ok "a page of no earlier night is kept" || bad "night-buses-return: '$got'"
rows "$doc" | awk -F, '$5 !~ /^2026-11-20T/ || $4 !~ /^<urn:uuid:/ || length($6) != 16 || $6 ~ /[^0-9a-f]/ { exit 1 }' ||
	bad "documents.csv: a row without its record id, date or fingerprint"

# --keep-nights 2: night 1 is gone, from the listing and the disk.
$rp --list-index "$idx" > "$tmp/list" || bad "--list-index failed"
grep -q '^2026-11-01 ' "$tmp/list" && bad "night 1 not expired: $(cat "$tmp/list")"
[ -d "$idx/nights/2026-11-01" ] && bad "night 1's files stay"
grep -q '^2026-11-02  *7 ' "$tmp/list" && grep -q '^2026-11-03  *3 ' "$tmp/list" &&
	grep -q 'k = 6, method minhash' "$tmp/list" && ok "--keep-nights 2 expired night 1; the listing shows nights 2 and 3" ||
	bad "listing: $(cat "$tmp/list")"

# Refused: another k, another method, a night already there.
refused() {
	what=$1
	shift
	$rp "$@" -o "$tmp/outx" corpus-samples/cn.warc.gz > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -q "$what" "$tmp/err" && ok "refused: $what" ||
		bad "not refused ($rc) '$what': $(cat "$tmp/err")"
}
refused "compared at k = 6, not 3" --index "$idx" --night x -k 3
refused "fingerprints of --method minhash, not simhash" --index "$idx" --night x --method simhash -k 6
refused "night '2026-11-03' is already in the index" --index "$idx" --night 2026-11-03
[ -e "$tmp/outx/clusters.csv" ] && bad "a refused run published outputs"
[ "$(cat "$idx/nights.txt")" = "$(printf '2026-11-02\n2026-11-03')" ] || bad "a refused run changed the index"
$rp --index "$idx" --night 2026-11-03 --replace-night --keep-nights 2 -o "$tmp/out3b" \
	corpus-samples/mixed.warc.gz > /dev/null 2>&1
[ $? -le 1 ] && [ "$(cat "$idx/nights.txt")" = "$(printf '2026-11-02\n2026-11-03')" ] &&
	ok "--replace-night replaces the night in place" || bad "--replace-night: $(cat "$idx/nights.txt")"

# The same crawl on a second night: every page a copy of the first night's.
$rp --index "$tmp/idx2" --night a -o "$tmp/a" corpus-samples/ > /dev/null 2>&1
$rp --index "$tmp/idx2" --night b -o "$tmp/b" corpus-samples/ > /dev/null 2>&1
[ $? -le 1 ] || bad "second night of the same crawl failed"
total=$(rows "$tmp/b/documents.csv" | wc -l)
dropped=$(rows "$tmp/b/documents.csv" | awk -F, '$8 == "drop" && $10 == "a"' | wc -l)
[ "$total" -gt 20 ] && [ "$dropped" = "$total" ] &&
	ok "a crawl seen again: all $total pages dropped as copies of night a" ||
	bad "crawl seen again: $dropped of $total dropped as night a's"
# A page dropped as its own copy of night a is the same payload: exact;
# stats.json counts the drops by type.
own=$(rows "$tmp/b/documents.csv" | awk -F, '$8 == "drop" && $1 == $9' | wc -l)
own_exact=$(rows "$tmp/b/documents.csv" | awk -F, '$8 == "drop" && $1 == $9 && $11 == "exact"' | wc -l)
by_match=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["documents"]
print(sum(d["dropped_by_match"].values()), d["dropped"])' "$tmp/b/stats.json")
[ "$own" -gt 0 ] && [ "$own_exact" = "$own" ] && [ "$by_match" = "$total $total" ] &&
	ok "the $own pages dropped as their own copy of night a are exact; stats.json counts every drop by type" ||
	bad "crawl seen again: $own_exact of $own own copies exact; stats.json dropped_by_match/dropped: $by_match"

# Within one night: each cluster keeps one page; the others name it.
check_clusters() {
	rows "$1" | awk -F, -v rule="$2" '
	$7 != "" {
		n[$7]++
		if ($8 == "keep") { keep[$7]++; kept[$7] = $1; klen[$7] = length($1); kdate[$7] = $5 }
		else { dup[NR] = $9; cl[NR] = $7 }
		if (!($7 in min) || length($1) < min[$7]) min[$7] = length($1)
		if (!($7 in early) || $5 < early[$7]) early[$7] = $5
	}
	$7 == "" && $8 != "keep" { print "unclustered page dropped: " $1; bad = 1 }
	END {
		for (c in n) {
			if (keep[c] != 1) { print "cluster " c ": " keep[c] + 0 " kept"; bad = 1 }
			if (rule == "shortest-url" && klen[c] != min[c]) { print "cluster " c ": kept not the shortest"; bad = 1 }
			if (rule == "earliest" && kdate[c] != early[c]) { print "cluster " c ": kept not the earliest"; bad = 1 }
		}
		for (i in dup) if (dup[i] != kept[cl[i]]) { print "a drop names " dup[i] ", not its kept page"; bad = 1 }
		if (length(n) < 5) { print "only " length(n) " clusters"; bad = 1 }
		exit bad
	}'
}
for rule in earliest shortest-url most-linked; do
	$rp --keep "$rule" -o "$tmp/k-$rule" corpus-samples/ > /dev/null 2>&1
	msg=$(check_clusters "$tmp/k-$rule/documents.csv" "$rule") &&
		ok "--keep $rule: one page kept per cluster, the drops name it" || bad "--keep $rule: $msg"
done
[ "$(rows "$tmp/k-earliest/documents.csv" | wc -l)" = "$(grep -o '"documents": [0-9]*' "$tmp/k-earliest/stats.json" | head -n 1 | tr -dc 0-9)" ] ||
	bad "documents.csv has not one row per document"
cmp -s "$tmp/k-earliest/documents.csv" "$tmp/k-shortest-url/documents.csv" &&
	bad "--keep shortest-url decides as earliest on the corpus"
# ndd-documents refuses a clusters.csv it cannot read, naming file and row
k=$tmp/k-earliest
for c in unterminated columns member; do
	case $c in
	unterminated) { head -n 3 "$k/clusters.csv"; printf '"1,2\r\n'; } ;;
	columns) printf 'x,y\r\n1,2\r\n' ;;
	member) { head -n 2 "$k/clusters.csv"; head -n 2 "$k/clusters.csv" | tail -n 1; } ;;
	esac > "$tmp/bad.csv"
	"$BIN/ndd-documents" -q -c "$k/fingerprints.ndf" --clusters "$tmp/bad.csv" -k 6 \
		-o "$tmp/d.csv" 2> "$tmp/err"
	rc=$?
	case $c in
	unterminated) want="row 4: not well-formed CSV" ;;
	columns) want="no cluster_id, doc_id and is_representative columns" ;;
	member) want="row 3: not a member of tonight's clusters" ;;
	esac
	[ $rc = 2 ] && grep -q "bad.csv'" "$tmp/err" && grep -q "$want" "$tmp/err" &&
		ok "ndd-documents: a clusters.csv with $c refused" ||
		bad "ndd-documents on a clusters.csv with $c: exit $rc, $(cat "$tmp/err")"
done
exit $fail
