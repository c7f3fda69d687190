#!/bin/sh
# End-to-end ground-truth test on the sample corpus.
#
#   1. corpus-samples/make_corpus.py regenerates byte-identical files
#      (skipped with a message when python3 is missing).
#   2. run_pipeline.sh over corpus-samples/ exits 0 or 1 (1: the truncated
#      record at the end of mixed.warc.gz was skipped) and writes
#      clusters.csv and a non-empty stats.json.
#   3. clusters.csv honours the CSV contract (docs: DESIGN.md): header,
#      one representative per cluster with distance 0, 16 lower-case hex
#      digit fingerprints, distance = popcount(fingerprint ^ representative's),
#      each URL at most once, and every warc_offset points at a record
#      whose WARC-Target-URI is the row's URL.
#   4. The clusters, normalised (URLs of a cluster sorted and joined by one
#      space, lines sorted, C locale), equal corpus-samples/expected_clusters.txt.
#
# Run by tests/run_all.sh from the repository root with BIN and TOP set.
# Exit 0 on success, 1 on any failure (with the reason on stderr).

TOP=${TOP:-$(pwd)}
cd "$TOP" || exit 1
LC_ALL=C
export LC_ALL

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_corpus_truth.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' INT TERM HUP

failed=0
fail() {
	echo "t_corpus_truth: FAIL: $*" >&2
	failed=1
}

# --- 1. the generator is deterministic and its output is committed --------
if command -v python3 >/dev/null 2>&1; then
	if python3 corpus-samples/make_corpus.py "$tmp/gen"; then
		n=0
		for f in "$tmp"/gen/*; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			b=$(basename "$f")
			if ! cmp -s "$f" "corpus-samples/$b"; then
				fail "corpus-samples/$b differs from a fresh run of make_corpus.py" \
					"(regenerate with python3 corpus-samples/make_corpus.py and commit)"
			fi
		done
		[ "$n" -ge 5 ] || fail "make_corpus.py wrote only $n files"
	else
		fail "python3 corpus-samples/make_corpus.py failed"
	fi
else
	echo "t_corpus_truth: python3 not found, skipping the generator determinism check"
fi

# --- 2. run the pipeline ----------------------------------------------------
if [ ! -f run_pipeline.sh ]; then
	fail "run_pipeline.sh not found in $TOP"
	exit 1
fi
out="$tmp/out"
mkdir -p "$out"
./run_pipeline.sh --bin "$BIN" -o "$out" corpus-samples/ >"$tmp/run.log" 2>&1
rc=$?
echo "run_pipeline.sh exit status $rc; its output:"
sed 's/^/    /' "$tmp/run.log"
case $rc in
0 | 1) ;;
*)
	fail "run_pipeline.sh exited with $rc (expected 0 or 1)"
	exit 1
	;;
esac
[ -s "$out/stats.json" ] || fail "$out/stats.json is missing or empty"
csv="$out/clusters.csv"
if [ ! -s "$csv" ]; then
	fail "$csv is missing or empty"
	exit 1
fi

# --- 3. the CSV contract ----------------------------------------------------
# RFC 4180 allows CRLF and quoted fields; URLs and paths here have neither
# commas nor quotes, so strip CRs and surrounding quotes and split on commas.
tr -d '\r' <"$csv" | awk -F, -v OFS=, '{
	for (i = 1; i <= NF; i++) { gsub(/^"/, "", $i); gsub(/"$/, "", $i) }
	print
}' >"$tmp/clusters.csv"

want="cluster_id,url,warc_file,warc_offset,record_id,warc_date,fingerprint,distance,is_representative"
header=$(head -n 1 "$tmp/clusters.csv")
case "$header" in
"$want" | "$want",*) ;;
*) fail "bad header: '$header' (want '$want[,more columns]')" ;;
esac
tail -n +2 "$tmp/clusters.csv" | grep -v '^$' >"$tmp/rows.csv"

awk -F, '
BEGIN {
	hex = "0123456789abcdef"
	# popcount of (a XOR b) for two hex digits, without bit operators (mawk)
	for (a = 0; a < 16; a++) for (b = 0; b < 16; b++) {
		x = a; y = b; c = 0
		for (k = 0; k < 4; k++) { if (x % 2 != y % 2) c++; x = int(x / 2); y = int(y / 2) }
		pc[substr(hex, a + 1, 1) substr(hex, b + 1, 1)] = c
	}
	bad = 0
}
function err(m) { print "clusters.csv line " (NR + 1) ": " m > "/dev/stderr"; bad = 1 }
{
	if (NF < 9) { err("fewer than 9 fields"); next }
	cid = $1; url = $2; off = $4; rid = $5; date = $6; sh = $7; d = $8; rep = $9
	if (rid !~ /^<urn:[^>]*>$/) err("record_id not a WARC-Record-ID: " rid)
	if (date !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T/) err("warc_date not a WARC-Date: " date)
	if (cid !~ /^[0-9]+$/) err("cluster_id not an integer: " cid)
	if (url == "") err("empty url")
	if ($3 == "") err("empty warc_file")
	if (off !~ /^[0-9]+$/) err("warc_offset not a non-negative integer: " off)
	if (length(sh) != 16 || sh ~ /[^0-9a-f]/) err("fingerprint not 16 lower-case hex digits: " sh)
	if (d !~ /^[0-9]+$/ || d + 0 > 64) err("bad distance: " d)
	if (rep != "0" && rep != "1") err("is_representative not 0 or 1: " rep)
	if (url in seen) err("url listed twice: " url)
	seen[url] = 1
	size[cid]++
	if (rep == "1") {
		nrep[cid]++
		repsh[cid] = sh
		if (d != "0") err("representative with distance " d)
	}
	rsh[NR] = sh; rcid[NR] = cid; rd[NR] = d; n = NR
}
END {
	for (c in size) {
		if (size[c] < 2) { print "cluster " c " has " size[c] " member(s)" > "/dev/stderr"; bad = 1 }
		if (nrep[c] != 1) { print "cluster " c " has " (nrep[c] + 0) " representatives" > "/dev/stderr"; bad = 1 }
	}
	for (i = 1; i <= n; i++) {
		c = rcid[i]
		if (!(c in repsh) || length(rsh[i]) != 16) continue
		dist = 0
		for (k = 1; k <= 16; k++) dist += pc[substr(rsh[i], k, 1) substr(repsh[c], k, 1)]
		if (dist != rd[i] + 0) {
			print "clusters.csv line " (i + 1) ": distance " rd[i] " but popcount(fingerprint ^ representative) = " dist > "/dev/stderr"
			bad = 1
		}
	}
	exit bad
}' "$tmp/rows.csv" || fail "clusters.csv breaks the CSV contract (see above)"

# Every warc_offset must point at the start of the row's record.
while IFS=, read -r cid url file off rest; do
	case $off in '' | *[!0-9]*) continue ;; esac # reported above
	f=$file
	[ -f "$f" ] || f="$TOP/$file"
	if [ ! -f "$f" ]; then
		fail "warc_file $file (row of $url) does not exist"
		continue
	fi
	case $f in
	*.gz) tail -c +$((off + 1)) "$f" | gzip -dc 2>/dev/null | head -c 200 >"$tmp/rec" ;;
	*) tail -c +$((off + 1)) "$f" | head -c 200 >"$tmp/rec" ;;
	esac
	if [ "$(head -c 7 "$tmp/rec")" != "WARC/1." ]; then
		fail "$file offset $off ($url): no WARC record starts there"
	elif ! tr -d '\r' <"$tmp/rec" | grep -F -x -q "WARC-Target-URI: $url"; then
		fail "$file offset $off: the record there is not $url" \
			"(first header lines: $(tr -d '\r' <"$tmp/rec" | head -n 3 | tr '\n' ' '))"
	fi
done <"$tmp/rows.csv"

# --- 4. the clusters equal the ground truth ---------------------------------
awk -F, '{ print $1 " " $2 }' "$tmp/rows.csv" | sort -k1,1 -k2,2 |
	awk '$1 != cur { if (line != "") print line; cur = $1; line = $2; next }
	     { line = line " " $2 }
	     END { if (line != "") print line }' | sort >"$tmp/got.txt"
grep -v '^#' corpus-samples/expected_clusters.txt | grep -v '^$' | sort >"$tmp/want.txt"
if ! diff -u "$tmp/want.txt" "$tmp/got.txt" >"$tmp/diff"; then
	fail "clusters differ from corpus-samples/expected_clusters.txt (- expected, + got):"
	cat "$tmp/diff" >&2
fi

if [ "$failed" -ne 0 ]; then
	exit 1
fi
echo "t_corpus_truth: OK ($(wc -l <"$tmp/want.txt") clusters match)"
exit 0
