#!/bin/sh
# documents.csv two ways: ndd-self-join --documents (what run_pipeline.sh
# runs when no earlier night is looked up) and ndd-documents reading the
# clusters.csv and catalog back write the same bytes, and the same
# documents.json but for seconds and bytes_read, for every --keep rule,
# both ways of finding the pairs (in memory, through tables), -t 1 and 2,
# on corpus-samples and a generated crawl (clusters of several sizes and
# pages in none).  A run of run_pipeline.sh publishes that file too.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

python3 "$TOP/bench/gen_crawl.py" -s 3 -o "$tmp/gen" --hosts 8 --pages 10 30 --parts 2 > /dev/null 2>&1 ||
	bad "gen_crawl.py"

# json_same A B: documents.json A and B are the same but for what a
# process's clock and reads make of them
json_same() {
	python3 - "$1" "$2" << 'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("seconds"); d.pop("bytes_read")
sys.exit(a != b)
PY
}

# rows FILE COLUMN VALUE: rows of documents.csv FILE whose COLUMN is VALUE
rows() {
	python3 -c 'import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1], newline="")) if r[sys.argv[2]] == sys.argv[3]))' "$@"
}

for corpus in corpus-samples "$tmp/gen/crawl"; do
	name=${corpus##*/}
	o=$tmp/out-$name
	./run_pipeline.sh -q -t 2 -o "$o" "$corpus" > /dev/null 2>&1
	[ $? -le 1 ] || { bad "$name: run_pipeline.sh failed"; continue; }
	fps=$o/fingerprints.ndf
	[ "$(rows "$o/documents.csv" decision drop)" -gt 0 ] || bad "$name: no page dropped"
	[ "$(rows "$o/documents.csv" cluster_id '')" -gt 0 ] || bad "$name: no page in no cluster"
	"$BIN/ndd-permute-sort" -q -k 6 "$fps" | "$BIN/ndd-compress" -q -o "$tmp/tables.ndf" - ||
		bad "$name: the tables"
	for rule in earliest most-linked shortest-url; do
		for way in memory-t1 memory-t2 tables-t2; do
			t=${way#*-t}
			case $way in memory*) src=--from-fingerprints dt="" ;; *) src=$tmp/tables.ndf dt="--tables $tmp/tables.ndf" ;; esac
			"$BIN/ndd-self-join" -q -t "$t" -k 6 -c "$fps" -o "$tmp/c.csv" "$src" \
				--keep "$rule" --documents "$tmp/s.csv" --documents-stats "$tmp/s.json" ||
				bad "$name $rule $way: ndd-self-join --documents failed"
			# shellcheck disable=SC2086 # $dt is two words or none
			"$BIN/ndd-documents" -q -t "$t" -k 6 -c "$fps" $dt --clusters "$tmp/c.csv" \
				--keep "$rule" -o "$tmp/d.csv" --stats "$tmp/d.json" ||
				bad "$name $rule $way: ndd-documents failed"
			cmp -s "$tmp/s.csv" "$tmp/d.csv" ||
				bad "$name $rule $way: documents.csv of self-join and of ndd-documents differ"
			json_same "$tmp/s.json" "$tmp/d.json" ||
				bad "$name $rule $way: documents.json differ: $(cat "$tmp/s.json" "$tmp/d.json")"
		done
		cp "$tmp/s.csv" "$tmp/$name-$rule.csv"
	done
	cmp -s "$o/documents.csv" "$tmp/$name-earliest.csv" ||
		bad "$name: run_pipeline.sh's documents.csv is not ndd-documents'"
done
# corpus-samples tells the rules apart
for rule in most-linked shortest-url; do
	cmp -s "$tmp/corpus-samples-earliest.csv" "$tmp/corpus-samples-$rule.csv" &&
		bad "corpus-samples: --keep $rule keeps the same copies as earliest"
done

# --keep and --documents-stats mean nothing without --documents
"$BIN/ndd-self-join" -q -k 6 -c "$tmp/out-corpus-samples/fingerprints.ndf" --from-fingerprints \
	-o "$tmp/c.csv" --keep earliest 2> /dev/null
[ $? = 2 ] || bad "ndd-self-join --keep without --documents: not refused"
"$BIN/ndd-self-join" -q -k 6 -c "$tmp/out-corpus-samples/fingerprints.ndf" --from-fingerprints \
	-o "$tmp/c.csv" --documents "$tmp/s.csv" --keep newest 2> /dev/null
[ $? = 2 ] || bad "ndd-self-join --keep newest: not refused"
"$BIN/ndd-self-join" -q -k 6 -c - --from-fingerprints -o "$tmp/c.csv" --documents "$tmp/s.csv" \
	< "$tmp/out-corpus-samples/fingerprints.ndf" 2> /dev/null
[ $? = 2 ] || bad "ndd-self-join --documents with the catalog on standard input: not refused"
exit $fail
