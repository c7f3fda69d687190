#!/bin/sh
# CLI tests of ndd-fingerprint.  Run from the repository root with BIN set
# to the stage binaries (tests/run_all.sh does); exit 0 = pass.
# Input comes from `test_docfp --write-docs` (synthetic DOCS, two
# sections), so this test does not depend on the extract stage.
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
FP=$BIN/ndd-fingerprint
GEN=$BUILD/tests/test_docfp
T=$(mktemp -d "${TMPDIR:-/tmp}/t_fingerprint.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0

ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
# expect STATUS NAME CMD...: run CMD, compare its exit status.
expect() {
	want=$1 name=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$name"; else
		bad "$name (exit $got, want $want)"
		sed 's/^/    /' "$T/err" | head -5
	fi
}

expect 0 "--help exits 0" "$FP" --help
grep -q '^Usage: ndd-fingerprint' "$T/out" || bad "--help prints usage on stdout"
expect 2 "bad option exits 2" "$FP" --no-such-option
grep -q 'Usage' "$T/err" || bad "bad option prints usage on stderr"
expect 2 "bad --shingle value exits 2" "$FP" --shingle 0
expect 0 "--version" "$FP" --version

# Garbage input: exit 2, the message names the file, nothing is written.
printf 'this is not an NDF file at all, just some text\n' >"$T/garbage.bin"
expect 2 "garbage input exits 2" "$FP" -o "$T/g.fps" "$T/garbage.bin"
grep -q 'garbage.bin' "$T/err" || bad "garbage message names the file"
if ls "$T"/g.fps* >"$T/ls" 2>&1; then bad "garbage input left an output"; fi
expect 2 "missing input exits 2" "$FP" "$T/does-not-exist"
grep -q 'does-not-exist' "$T/err" || bad "missing input message names the file"

# A 0-byte input is refused like any other cut file: ndd-extract always
# writes a section, even with no documents.  Its empty section is valid.
: >"$T/empty.in"
expect 2 "0-byte input exits 2" "$FP" -o "$T/empty.fps" "$T/empty.in"
grep -q 'empty.in' "$T/err" || bad "0-byte input message names the file"
if ls "$T"/empty.fps* >"$T/ls" 2>&1; then bad "0-byte input left an output"; fi

# Synthetic documents: -t1, -t2 and stdin must give the same bytes.
if ! "$GEN" --write-docs "$T/docs.ndf"; then
	bad "cannot generate test documents with $GEN"
	exit 1
fi
expect 0 "docs -t1" "$FP" -t1 -o "$T/t1.fps" "$T/docs.ndf"
grep -q '2200 documents' "$T/err" || bad "summary counts 2200 documents"
expect 0 "docs -t2" "$FP" -t2 -o "$T/t2.fps" "$T/docs.ndf"
cmp -s "$T/t1.fps" "$T/t2.fps" && ok "-t1 and -t2 identical" || bad "-t1 and -t2 differ"
"$FP" -t2 <"$T/docs.ndf" >"$T/stdin.fps" 2>"$T/err"
cmp -s "$T/t1.fps" "$T/stdin.fps" && ok "stdin identical" || bad "stdin output differs"
expect 0 "-v prints the feature config" "$FP" -v -o "$T/v.fps" "$T/docs.ndf"
grep -q 'feature config [0-9a-f]\{16\}' "$T/err" || bad "-v shows the config hash"
"$FP" --shingle 2 -o "$T/s2.fps" "$T/docs.ndf" 2>"$T/err"
cmp -s "$T/t1.fps" "$T/s2.fps" && bad "--shingle 2 changes the output" || ok "--shingle 2"
"$FP" --method minhash -o "$T/mh.fps" "$T/docs.ndf" 2>"$T/err"
cmp -s "$T/t1.fps" "$T/mh.fps" && ok "--method minhash is the default" || bad "--method minhash differs from the default"
"$FP" --method minhash --shingle 3 --cjk-ngram 3 -o "$T/mh3.fps" "$T/docs.ndf" 2>"$T/err"
cmp -s "$T/t1.fps" "$T/mh3.fps" && ok "the default is 3-shingles and CJK trigrams" || bad "the default is not --shingle 3 --cjk-ngram 3"
"$FP" --method simhash -o "$T/sim.fps" "$T/docs.ndf" 2>"$T/err"
cmp -s "$T/t1.fps" "$T/sim.fps" && bad "--method simhash changes the output" || ok "--method simhash"
"$FP" --method simhash --shingle 1 --cjk-ngram 2 -o "$T/sim1.fps" "$T/docs.ndf" 2>"$T/err"
cmp -s "$T/sim.fps" "$T/sim1.fps" && ok "--method simhash uses single words and CJK bigrams" ||
	bad "--method simhash is not --shingle 1 --cjk-ngram 2"
expect 2 "bad --method value exits 2" "$FP" --method md5 -o "$T/x.fps" "$T/docs.ndf"

# --dry-run reads and decodes everything and writes nothing.
expect 0 "--dry-run" "$FP" --dry-run -o "$T/dry.fps" "$T/docs.ndf"
grep -q '2200 documents' "$T/err" || bad "--dry-run counts 2200 documents"
if ls "$T"/dry.fps* >"$T/ls" 2>&1; then bad "--dry-run wrote an output"; fi

# Header parameters are enforced: fingerprints made with another feature
# configuration are refused by the table stages, with a message.
if [ -x "$BIN/ndd-permute-sort" ] && [ -x "$BIN/ndd-self-join" ]; then
	expect 2 "permute-sort refuses mixed --shingle" "$BIN/ndd-permute-sort" -k 3 \
		-o "$T/mixed.tab" "$T/t1.fps" "$T/s2.fps"
	grep -q 'configuration' "$T/err" || bad "mixed configurations: the message says why"
	if ls "$T"/mixed.tab* >"$T/ls" 2>&1; then bad "mixed configurations left an output"; fi
	"$BIN/ndd-permute-sort" -q -k 3 -o "$T/s2.tab" "$T/s2.fps" 2>"$T/err"
	expect 2 "self-join refuses a catalog of another --shingle" "$BIN/ndd-self-join" \
		-c "$T/t1.fps" -o "$T/mixed.csv" "$T/s2.tab"
	grep -q 'catalog' "$T/err" || bad "catalog mismatch: the message says why"
fi

# A fingerprint file is not a documents file; a truncated stream is corrupt.
expect 2 "FPS as input exits 2" "$FP" -o "$T/x.fps" "$T/t1.fps"
head -c 100000 "$T/docs.ndf" >"$T/trunc.ndf"
expect 2 "truncated input exits 2" "$FP" -o "$T/x.fps" "$T/trunc.ndf"
if ls "$T"/x.fps* >"$T/ls" 2>&1; then bad "corrupt input left an output"; fi

# Codec 1 is reserved (docs/FORMATS.md): a block that claims it is refused
# as unknown, like any codec this reader does not know.
for codec in 1 4; do
	"$GEN" --write-docs "$T/codec$codec.ndf" $codec || bad "cannot write codec $codec"
	expect 2 "codec $codec is refused" "$FP" -o "$T/c.fps" "$T/codec$codec.ndf"
	grep -q "unknown codec $codec" "$T/err" || bad "codec $codec: the message says unknown codec"
done
if ls "$T"/c.fps* >"$T/ls" 2>&1; then bad "a refused codec left an output"; fi

# --import-text: good lines counted, bad lines warned with line numbers.
{
	echo "0123456789abcdef,http://a.example/1"
	echo "FEDCBA9876543210"
	echo "not a fingerprint"
	echo ""
	echo "00000000000000ff,key with, comma"
	echo "0123456789abcdeg,bad hex"
	printf '1111111111111111,crlf\r\n'
} >"$T/import.txt"
expect 1 "--import-text with bad lines exits 1" "$FP" --import-text "$T/import.txt" -o "$T/imp.fps"
grep -q 'import.txt:3:' "$T/err" || bad "bad line 3 reported"
grep -q 'import.txt:6:' "$T/err" || bad "bad line 6 reported"
grep -q '4 documents' "$T/err" || bad "4 fingerprints imported"
[ -s "$T/imp.fps" ] || bad "--import-text wrote its output"
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%016x,doc%d\n", i * 2654435761, i }' >"$T/many.txt"
expect 0 "--import-text 5000 lines" "$FP" --import-text "$T/many.txt" -o "$T/many.fps"
grep -q '5000 documents' "$T/err" || bad "5000 fingerprints imported"
"$FP" -t1 --import-text "$T/many.txt" -o "$T/many1.fps" 2>"$T/err"
cmp -s "$T/many.fps" "$T/many1.fps" && ok "--import-text deterministic" || bad "--import-text differs"

# Imported fingerprints join like computed ones (their text length is
# unknown, not empty): two equal and one 2 bits away form one cluster.
printf '0123456789abcdef,a\n0123456789abcdef,b\n0123456789abcdec,c\nfedcba9876543210,d\n' >"$T/near.txt"
if [ ! -x "$BIN/ndd-self-join" ]; then
	echo "skip table stages not built"
elif "$FP" -q --import-text "$T/near.txt" -o "$T/near.fps" &&
	"$BIN/ndd-permute-sort" -q -k 3 -o "$T/near.tab" "$T/near.fps" &&
	"$BIN/ndd-self-join" -q -c "$T/near.fps" --pairs "$T/near.pairs" -o "$T/near.csv" "$T/near.tab"; then
	# no frame is known of an import: its pairs are never on one template
	n=$(grep -c ',[0-9][0-9]*,same-content.$' "$T/near.pairs")
	[ "$n" -eq 3 ] && ok "--import-text fingerprints join" || bad "--import-text: want 3 same-content pairs, got $n"
else
	bad "--import-text fingerprints through the table stages"
fi

# End to end from a WARC, when the extract stage is built.
if [ -x "$BIN/ndd-extract" ]; then
	body='<html><head><title>t</title></head><body><p>Hello near-duplicate world, this is a test page.</p></body></html>'
	http="HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${#body}\r\n\r\n$body"
	len=$(printf "$http" | wc -c)
	for i in 1 2 3; do
		printf "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/$i\r\nWARC-Record-ID: <urn:uuid:0000000$i>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: $len\r\n\r\n$http\r\n\r\n"
	done >"$T/s.warc"
	if "$BIN/ndd-extract" -o "$T/s.docs" "$T/s.warc" 2>"$T/err"; then
		expect 0 "extract | fingerprint -t1" "$FP" -t1 -o "$T/w1.fps" "$T/s.docs"
		expect 0 "extract | fingerprint -t2" "$FP" -t2 -o "$T/w2.fps" "$T/s.docs"
		cmp -s "$T/w1.fps" "$T/w2.fps" && ok "WARC: -t1 and -t2 identical" || bad "WARC: outputs differ"
	else
		echo "skip ndd-extract failed on the sample WARC:"
		sed 's/^/    /' "$T/err" | head -5
	fi
else
	echo "skip ndd-extract not built"
fi

[ "$fail" -eq 0 ] && echo "t_fingerprint: all passed"
exit "$fail"
