#!/bin/sh
# The table stages end to end, against brute force: for k = 0..8 and two
# designs each, seeded random fingerprints with planted neighbours go
# through permute-sort | compress | self-join, and the pairs must be
# exactly the brute-force set.  Then the faults: a flipped byte, a
# missing table, the wrong catalog, -t1 vs -t2, usage errors.  The same
# for self-join --from-fingerprints (the tables built in memory).
set -u
GEN="$TOP/$BUILD/bench/gen_fps"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for k in 0 1 2 3 4 5 6 7 8; do
	"$GEN" -n 2500 -s $((k + 7)) -k $k --brute "$tmp/brute.txt" -o "$tmp/fps.ndf" || bad "gen k=$k"
	sort "$tmp/brute.txt" > "$tmp/want"
	for extra in 1 2; do
		r=$((k + extra))
		"$BIN/ndd-permute-sort" -q -k $k --design $r "$tmp/fps.ndf" |
			"$BIN/ndd-compress" -q --block-records 64 |
			"$BIN/ndd-self-join" -q -c "$tmp/fps.ndf" --pairs "$tmp/pairs.txt" -o "$tmp/c.csv" ||
			bad "pipeline k=$k design=$r"
		sed "s/,[a-z-]*\r\$/\r/" "$tmp/pairs.txt" | sort > "$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" || bad "k=$k design=$r: $(wc -l < "$tmp/got") pairs, brute force $(wc -l < "$tmp/want")"
		# the same tables built and joined in memory
		"$BIN/ndd-self-join" -q -k $k --design $r --from-fingerprints -c "$tmp/fps.ndf" \
			--pairs "$tmp/pairs.txt" -o "$tmp/c.csv" || bad "in memory k=$k design=$r"
		sed "s/,[a-z-]*\r\$/\r/" "$tmp/pairs.txt" | sort | cmp -s "$tmp/want" - || bad "in memory k=$k design=$r: pairs differ from brute force"
	done
	echo "k=$k: $(($(wc -l < "$tmp/want") - 1)) pairs checked"
done

# Uncompressed tables join the same; -t1 and -t2 give the same bytes.
"$GEN" -n 20000 -s 3 -k 3 -o "$tmp/fps.ndf"
"$BIN/ndd-permute-sort" -q -k 3 -o "$tmp/t.ndf" "$tmp/fps.ndf" || bad "permute-sort"
"$BIN/ndd-compress" -q -t 1 -o "$tmp/c1.ndf" "$tmp/t.ndf" || bad "compress -t1"
"$BIN/ndd-compress" -q -t 2 -o "$tmp/c2.ndf" "$tmp/t.ndf" || bad "compress -t2"
cmp -s "$tmp/c1.ndf" "$tmp/c2.ndf" || bad "compress -t1 and -t2 differ"
"$BIN/ndd-self-join" -q -t 1 -c "$tmp/fps.ndf" -o "$tmp/j1.csv" "$tmp/c1.ndf" || bad "join -t1"
"$BIN/ndd-self-join" -q -t 2 -c "$tmp/fps.ndf" -o "$tmp/j2.csv" "$tmp/c1.ndf" || bad "join -t2"
"$BIN/ndd-self-join" -q -t 2 -c "$tmp/fps.ndf" -o "$tmp/j3.csv" "$tmp/t.ndf" || bad "join raw"
cmp -s "$tmp/j1.csv" "$tmp/j2.csv" || bad "self-join -t1 and -t2 differ"
# Tables built and joined in memory: the same clusters, whatever -t.
for t in 1 2 3; do
	"$BIN/ndd-self-join" -q -t $t -k 3 --from-fingerprints -c "$tmp/fps.ndf" -o "$tmp/jm.csv" ||
		bad "join in memory -t$t"
	cmp -s "$tmp/j1.csv" "$tmp/jm.csv" || bad "join in memory -t$t differs from the tables'"
done
# Small blocks: the join streams several batches; any -t, the same bytes.
"$BIN/ndd-compress" -q --block-records 16 -o "$tmp/c16.ndf" "$tmp/t.ndf" || bad "compress 16"
for t in 1 5; do
	"$BIN/ndd-self-join" -q -t $t -c "$tmp/fps.ndf" -o "$tmp/j16.csv" "$tmp/c16.ndf" ||
		bad "join of 16-record blocks -t$t"
	cmp -s "$tmp/j1.csv" "$tmp/j16.csv" || bad "16-record blocks join differently with -t$t"
done
rm -f "$tmp/c16.ndf"
cmp -s "$tmp/j1.csv" "$tmp/j3.csv" || bad "raw and compressed tables join differently"
[ "$(wc -l < "$tmp/j1.csv")" -gt 100 ] || bad "too few clustered rows"

# Tables start with their Huffman code and announce their record count,
# so compress encodes them as they arrive; tables without it (older
# permute-sort) are loaded whole.  Both give the same bytes, also across
# several batches with a remainder of a block between them (400k records,
# blocks of 1000).  A code that is not the table's own, or no code at all,
# is refused, naming the file and the offset, and leaves no output.
TV="$TOP/$BUILD/bench/table_variant"
"$TV" --strip-code "$tmp/t.ndf" "$tmp/t-old.ndf" || bad "table_variant --strip-code"
"$BIN/ndd-compress" -q -o "$tmp/c-old.ndf" "$tmp/t-old.ndf" || bad "compress a table without code"
cmp -s "$tmp/c1.ndf" "$tmp/c-old.ndf" || bad "streamed and loaded tables compress differently"
"$BIN/ndd-self-join" -q -c "$tmp/fps.ndf" -o "$tmp/j4.csv" "$tmp/t-old.ndf" || bad "join raw without code"
cmp -s "$tmp/j1.csv" "$tmp/j4.csv" || bad "raw tables without code join differently"
"$GEN" -n 400000 -s 9 -k 1 -o "$tmp/fps400k.ndf"
"$BIN/ndd-permute-sort" -q -k 1 --design 2 -o "$tmp/t4.ndf" "$tmp/fps400k.ndf" || bad "permute-sort 400k"
"$TV" --strip-code "$tmp/t4.ndf" "$tmp/t4-old.ndf" || bad "table_variant 400k"
for t in 1 2; do
	"$BIN/ndd-compress" -q -t $t --block-records 1000 -o "$tmp/c4-$t.ndf" < "$tmp/t4.ndf" ||
		bad "compress 400k -t$t"
done
"$BIN/ndd-compress" -q --block-records 1000 -o "$tmp/c4-old.ndf" "$tmp/t4-old.ndf" || bad "compress 400k, no code"
cmp -s "$tmp/c4-1.ndf" "$tmp/c4-old.ndf" || bad "400k: streamed and loaded tables compress differently"
cmp -s "$tmp/c4-1.ndf" "$tmp/c4-2.ndf" || bad "400k: compress -t1 and -t2 differ"
# Raw records out of order, inside a block or at the edge of two, and
# indices past the announced record count: compress refuses them, naming
# the first record out of order (the checks run inside the decode).
for v in disorder disorder-edge; do
	"$TV" --$v "$tmp/t4.ndf" "$tmp/t4-$v.ndf" || bad "table_variant --$v"
	"$BIN/ndd-compress" -t 2 -o "$tmp/x-$v.ndf" "$tmp/t4-$v.ndf" 2> "$tmp/err"
	[ $? -eq 2 ] || bad "compress --$v: exit status not 2"
	[ ! -e "$tmp/x-$v.ndf" ] || bad "compress --$v: output left behind"
	cp "$tmp/err" "$tmp/err-$v"
done
grep -q "record 3 of table 0 is out of order" "$tmp/err-disorder" ||
	bad "compress --disorder: $(cat "$tmp/err-disorder")"
grep -q "record 65536 of table 0 is out of order" "$tmp/err-disorder-edge" ||
	bad "compress --disorder-edge: $(cat "$tmp/err-disorder-edge")"
"$TV" --idx-past-end "$tmp/t4.ndf" "$tmp/t4-past.ndf" || bad "table_variant --idx-past-end 400k"
"$BIN/ndd-compress" -t 2 -o "$tmp/x-past.ndf" "$tmp/t4-past.ndf" 2> "$tmp/err"
[ $? -eq 2 ] || bad "compress, indices past the end: exit status not 2"
grep -q "table 0: document index [0-9]*, but the header announces 400000 records" "$tmp/err" ||
	bad "compress, indices past the end: $(cat "$tmp/err")"
rm -f "$tmp"/t4*.ndf "$tmp"/c4-*.ndf "$tmp/fps400k.ndf"
# Tables whose checksums hold but whose document indices name no document
# of the catalog: refused before anything is looked up by them.
"$TV" --idx-past-end "$tmp/t.ndf" "$tmp/t-past.ndf" || bad "table_variant --idx-past-end"
"$BIN/ndd-self-join" -c "$tmp/fps.ndf" -o "$tmp/x-past.csv" "$tmp/t-past.ndf" 2> "$tmp/err"
[ $? -eq 2 ] || bad "indices past the end: exit status not 2"
grep -q "name document [0-9]*, past their" "$tmp/err" || bad "indices past the end: $(cat "$tmp/err")"
[ ! -e "$tmp/x-past.csv" ] || bad "indices past the end: output left behind"
for v in swap-codes bad-code; do
	"$TV" --$v "$tmp/t.ndf" "$tmp/t-$v.ndf" || bad "table_variant --$v"
	"$BIN/ndd-compress" -o "$tmp/x-$v.ndf" "$tmp/t-$v.ndf" 2> "$tmp/err"
	[ $? -eq 2 ] || bad "--$v: exit status not 2"
	grep -q "t-$v.ndf': table [0-9]*, offset [0-9]*: .*code block" "$tmp/err" ||
		bad "--$v: message does not name the file, offset and code block: $(cat "$tmp/err")"
	[ ! -e "$tmp/x-$v.ndf" ] || bad "--$v: output left behind"
done

# A memory budget far below the data: sorted runs are spilled and merged,
# the fingerprints go to a temporary file, and the tables are the same bytes.
"$GEN" -n 100000 -s 5 -k 3 -o "$tmp/fps100k.ndf"
"$BIN/ndd-permute-sort" -q -k 3 -o "$tmp/t-mem.ndf" "$tmp/fps100k.ndf" || bad "permute-sort 100k"
"$BIN/ndd-permute-sort" -k 3 -m 1M -T "$tmp" -o "$tmp/t-spill.ndf" "$tmp/fps100k.ndf" 2> "$tmp/err" ||
	bad "permute-sort --memory 1M"
cmp -s "$tmp/t-mem.ndf" "$tmp/t-spill.ndf" || bad "--memory 1M: tables differ from the in-memory sort"
runs=$(sed -n 's/.*, \([0-9]*\) spilled runs.*/\1/p' "$tmp/err")
[ "${runs:-0}" -ge 8 ] || bad "--memory 1M spilled only '${runs:-0}' runs"
# At 3M the fingerprints stay in memory (permuted in place from one table's
# keys to the next's) while each table is still sorted in spilled runs.
"$BIN/ndd-permute-sort" -k 3 -m 3M -T "$tmp" -o "$tmp/t-spill3.ndf" "$tmp/fps100k.ndf" 2> "$tmp/err" ||
	bad "permute-sort --memory 3M"
cmp -s "$tmp/t-mem.ndf" "$tmp/t-spill3.ndf" || bad "--memory 3M: tables differ from the in-memory sort"
runs=$(sed -n 's/.*, \([0-9]*\) spilled runs.*/\1/p' "$tmp/err")
[ "${runs:-0}" -ge 8 ] || bad "--memory 3M spilled only '${runs:-0}' runs"
# A spill that cannot be written (here: a file size limit) names its
# directory, so the operator knows which disk filled up.
( trap '' XFSZ; ulimit -f 64; "$BIN/ndd-permute-sort" -k 3 -m 1M -T "$tmp" \
	-o "$tmp/t-full.ndf" "$tmp/fps100k.ndf" ) 2> "$tmp/err" && bad "a failed spill exited 0"
grep -q "temporary file in '$tmp'" "$tmp/err" ||
	bad "a failed spill does not name its directory: $(cat "$tmp/err")"
rm -f "$tmp/t-full.ndf"
ls "$tmp" | grep -q ndd-spill && bad "spill files left behind"
rm -f "$tmp/t-mem.ndf" "$tmp/t-spill.ndf" "$tmp/t-spill3.ndf"
"$BIN/ndd-permute-sort" --plan -m 1M -k 3 "$tmp/fps100k.ndf" | grep -q "spilled" || bad "--plan does not say it will spill"

# Every member within k of its representative; one representative each.
awk -F, 'NR > 1 { if ($8 > 3) bad = 1; reps[$1] += $9 } END {
	for (c in reps) if (reps[c] != 1) bad = 1; exit bad }' "$tmp/j1.csv" ||
	bad "cluster radius or representatives wrong"

# A byte flipped in the middle of the compressed tables: exit 2, no CSV.
size=$(wc -c < "$tmp/c1.ndf")
cp "$tmp/c1.ndf" "$tmp/flip.ndf"
printf '\377' | dd of="$tmp/flip.ndf" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$BIN/ndd-self-join" -c "$tmp/fps.ndf" -o "$tmp/flip.csv" "$tmp/flip.ndf" 2> "$tmp/err"
[ $? -eq 2 ] || bad "flipped byte: exit status not 2"
grep -q "flip.ndf': offset [0-9]" "$tmp/err" || bad "flipped byte: message does not name the file and offset"
[ ! -e "$tmp/flip.csv" ] || bad "flipped byte: a CSV was left behind"
ls "$tmp" | grep -q 'tmp\.' && bad "temporary file left behind"

# Tables cut short (last table missing), and a catalog that is not theirs.
head -c $((size * 3 / 4)) "$tmp/c1.ndf" > "$tmp/short.ndf"
"$BIN/ndd-self-join" -q -c "$tmp/fps.ndf" -o "$tmp/x.csv" "$tmp/short.ndf" 2>/dev/null
[ $? -eq 2 ] || bad "truncated tables: exit status not 2"
"$GEN" -n 20000 -s 4 -k 3 -o "$tmp/other.ndf"
"$BIN/ndd-self-join" -c "$tmp/other.ndf" -o "$tmp/x.csv" "$tmp/c1.ndf" 2> "$tmp/err"
[ $? -eq 2 ] || bad "wrong catalog: exit status not 2"
grep -q catalog "$tmp/err" || bad "wrong catalog: no clear message"
"$BIN/ndd-self-join" -q -k 4 -c "$tmp/fps.ndf" -o "$tmp/x.csv" "$tmp/c1.ndf" 2>/dev/null
[ $? -eq 2 ] || bad "k above the tables' k accepted"

# Garbage and empty inputs; usage.
head -c 5000 /dev/urandom > "$tmp/garbage"
for st in ndd-permute-sort ndd-compress; do
	"$BIN/$st" -o "$tmp/x" "$tmp/garbage" 2> "$tmp/err"; [ $? -eq 2 ] || bad "$st garbage"
	grep -q garbage "$tmp/err" || bad "$st: message does not name the file"
	: > "$tmp/empty"
	"$BIN/$st" -q -o "$tmp/x" "$tmp/empty" 2>/dev/null; [ $? -eq 2 ] || bad "$st empty"
	"$BIN/$st" --help > /dev/null || bad "$st --help"
	"$BIN/$st" --no-such-option 2>/dev/null; [ $? -eq 2 ] || bad "$st bad option"
done
"$BIN/ndd-self-join" -o "$tmp/x" "$tmp/c1.ndf" 2>/dev/null; [ $? -eq 2 ] || bad "self-join without catalog"
"$BIN/ndd-self-join" --from-fingerprints -c "$tmp/fps.ndf" -o "$tmp/x" "$tmp/c1.ndf" 2>/dev/null
[ $? -eq 2 ] || bad "self-join --from-fingerprints with tables accepted"
"$BIN/ndd-self-join" --design 5 -c "$tmp/fps.ndf" -o "$tmp/x" "$tmp/c1.ndf" 2>/dev/null
[ $? -eq 2 ] || bad "self-join --design without --from-fingerprints accepted"
[ ! -e "$tmp/x" ] || bad "self-join usage errors left output"
"$BIN/ndd-permute-sort" --plan --count 100000000 -k 3 | grep -q "design:" || bad "--plan"
exit $fail
