#!/bin/sh
# Batch queries (ndd-query) against brute force: a seeded set is split in
# a stored part (tables + catalog) and a query part; the pairs found must
# be exactly the brute-force pairs that cross the split, for several k and
# designs.  Then the faults: tables from a pipe, a wrong catalog, usage.
set -u
GEN="$TOP/$BUILD/bench/gen_fps"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for k in 0 2 3 5 8; do
	"$GEN" -n 6000 -s $((k + 11)) -k $k --split 4000 --rest "$tmp/new.ndf" \
		--brute "$tmp/brute.txt" -o "$tmp/old.ndf" || bad "gen k=$k"
	# Pairs across the split, as "query,match,distance".
	awk -F, 'NR > 1 { a = substr($1, 5) + 0; b = substr($2, 5) + 0; d = $3 + 0
		if (a < 4000 && b >= 4000) print $2 "," $1 "," d
		else if (b < 4000 && a >= 4000) print $1 "," $2 "," d }' "$tmp/brute.txt" |
		sort > "$tmp/want"
	for design in $((k + 1)) $((k + 2)); do
		"$BIN/ndd-permute-sort" -q -k $k --design $design "$tmp/old.ndf" |
			"$BIN/ndd-compress" -q --block-records 32 -o "$tmp/tables.ndf" ||
			bad "tables k=$k design=$design"
		"$BIN/ndd-query" -q --tables "$tmp/tables.ndf" -c "$tmp/old.ndf" \
			--stats "$tmp/q.json" -o "$tmp/q.csv" "$tmp/new.ndf" || bad "query k=$k design=$design"
		awk -F, 'NR > 1 { print $1 "," $7 "," $13 }' "$tmp/q.csv" | sort > "$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" ||
			bad "k=$k design=$design: $(wc -l < "$tmp/got") pairs, brute force $(wc -l < "$tmp/want")"
	done
	echo "k=$k: $(wc -l < "$tmp/want") cross pairs checked"
done
# Only some blocks are read: far fewer than all of them for a small batch.
"$GEN" -n 200000 -s 3 -k 3 --split 199900 --rest "$tmp/few.ndf" -o "$tmp/big.ndf"
"$BIN/ndd-permute-sort" -q -k 3 "$tmp/big.ndf" | "$BIN/ndd-compress" -q -o "$tmp/big-t.ndf"
"$BIN/ndd-query" -q --tables "$tmp/big-t.ndf" -c "$tmp/big.ndf" --stats "$tmp/s.json" \
	-o "$tmp/few.csv" "$tmp/few.ndf" || bad "small batch"
blocks=$(sed -n 's/.*"blocks_read": \([0-9]*\).*/\1/p' "$tmp/s.json")
[ "${blocks:-999999}" -le 1000 ] || bad "small batch read $blocks blocks (of ~800 per table x 4)"

# Faults: tables through a pipe have no known size; a wrong catalog; usage.
"$BIN/ndd-permute-sort" -q -k 3 "$tmp/old.ndf" | "$BIN/ndd-compress" -q | cat > "$tmp/piped.ndf"
"$BIN/ndd-query" --tables "$tmp/piped.ndf" -c "$tmp/old.ndf" -o "$tmp/x.csv" "$tmp/new.ndf" 2> "$tmp/err"
[ $? -eq 2 ] || bad "tables written to a pipe accepted"
grep -q "pipe" "$tmp/err" || bad "no clear message for piped tables"
"$BIN/ndd-query" --tables "$tmp/tables.ndf" -c "$tmp/new.ndf" -o "$tmp/x.csv" "$tmp/new.ndf" 2>/dev/null
[ $? -eq 2 ] || bad "wrong catalog accepted"
[ ! -e "$tmp/x.csv" ] || bad "output left behind after a failure"
"$BIN/ndd-query" -o "$tmp/x.csv" "$tmp/new.ndf" 2>/dev/null; [ $? -eq 2 ] || bad "missing --tables accepted"
"$BIN/ndd-query" --help | grep -q Usage || bad "--help"
exit $fail
