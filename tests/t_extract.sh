#!/bin/sh
# CLI test of ndd-extract: help and usage errors, missing and bad inputs,
# an empty file, skipped-record exit status, and byte-identical output
# for -t1 and -t2.  Run by tests/run_all.sh with BIN set; exit 0 = pass.

BIN=${BIN:-build/bin}
X="$BIN/ndd-extract"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_extract.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' INT TERM HUP
failed=0
fail() {
	echo "t_extract: FAIL: $*" >&2
	failed=1
}

# expect STATUS CMD...: run, keep stderr in $tmp/err, check the exit status
expect() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want: $(head -3 "$tmp/err")"
}

expect 0 "$X" --help
grep -q "Usage: ndd-extract" "$tmp/out" || fail "--help prints no usage on stdout"
expect 2 "$X" --no-such-option
grep -q "Usage" "$tmp/err" || fail "a bad option prints no usage on stderr"
expect 2 "$X" --max-record nonsense
expect 2 "$X" "$tmp/missing.warc"
grep -q "missing.warc" "$tmp/err" || fail "the message does not name the missing file"
expect 2 "$X" -o "$tmp/no/such/dir/out.ndf" /dev/null

# garbage: no crash, exit 1 (skipped) with a message
head -c 20000 /dev/urandom >"$tmp/garbage.warc"
"$X" -o "$tmp/g.ndf" "$tmp/garbage.warc" 2>"$tmp/err"
rc=$?
case $rc in
1 | 2) [ -s "$tmp/err" ] || fail "garbage input: no message" ;;
*) fail "garbage input: exit $rc" ;;
esac

# an empty file and empty stdin hold no WARC record: exit 2, the file
# named, nothing written
: >"$tmp/empty.warc"
expect 2 "$X" -o "$tmp/empty.ndf" "$tmp/empty.warc"
[ ! -e "$tmp/empty.ndf" ] || fail "output written for an empty input"
grep -q "empty.warc" "$tmp/err" 2>/dev/null || "$X" -o "$tmp/empty.ndf" "$tmp/empty.warc" 2>&1 | grep -q "empty.warc" ||
	fail "empty input: message does not name the file"
expect 2 "$X" --json -o "$tmp/empty.json" - </dev/null
[ ! -e "$tmp/empty.json" ] || fail "output written for empty stdin"

# a small WARC: 30 HTML responses, a request, a 404 and a PNG
record() { # type uri http-block
	len=$(printf '%s' "$3" | wc -c)
	printf 'WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2024-05-01T10:00:00.5Z\r\nWARC-Record-ID: <urn:uuid:%s>\r\nContent-Type: application/http; msgtype=%s\r\nContent-Length: %s\r\n\r\n%s\r\n\r\n' \
		"$1" "$2" "$4" "$1" "$len" "$3"
}
w="$tmp/small.warc"
: >"$w"
i=0
while [ $i -lt 30 ]; do
	body="<html><head><title>Page $i</title></head><body><p>This is the main text of page number $i, long enough to be kept as content by the extractor. It talks about rivers and bridges.</p></body></html>"
	record response "http://example.com/p$i" "$(printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n%s' "$body")" "id-$i" >>"$w"
	i=$((i + 1))
done
record request "http://example.com/p1" "$(printf 'GET /p1 HTTP/1.1\r\n\r\n')" req >>"$w"
record response "http://example.com/gone" "$(printf 'HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<html>gone</html>')" 404 >>"$w"
record response "http://example.com/i.png" "$(printf 'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nPNGDATA')" png >>"$w"

expect 0 "$X" -t1 -o "$tmp/t1.ndf" --stats "$tmp/stats.json" "$w"
expect 0 "$X" -t2 -o "$tmp/t2.ndf" "$w"
cmp -s "$tmp/t1.ndf" "$tmp/t2.ndf" || fail "-t1 and -t2 outputs differ"
expect 0 "$X" -t1 --json "$w" -o "$tmp/t1.json"
expect 0 "$X" -t2 --json "$w" -o "$tmp/t2.json"
cmp -s "$tmp/t1.json" "$tmp/t2.json" || fail "-t1 and -t2 JSON outputs differ"
# more threads than the reader keeps items ahead for, and the same file
# five times over (more items than ring slots): still in order
for t in 3 5; do
	expect 0 "$X" -t$t -o "$tmp/t$t.ndf" "$w"
	cmp -s "$tmp/t1.ndf" "$tmp/t$t.ndf" || fail "-t1 and -t$t outputs differ"
done
expect 0 "$X" -t1 --json -o "$tmp/r1.json" "$w" "$w" "$w" "$w" "$w"
for t in 2 3; do
	expect 0 "$X" -t$t --json -o "$tmp/r$t.json" "$w" "$w" "$w" "$w" "$w"
	cmp -s "$tmp/r1.json" "$tmp/r$t.json" || fail "five inputs: -t1 and -t$t differ"
done
n=$(wc -l <"$tmp/t1.json")
[ "$n" -eq 30 ] || fail "expected 30 documents, got $n"
grep -q '"documents_written": 30' "$tmp/stats.json" || fail "stats: documents_written"
grep -q '"non_2xx": 1' "$tmp/stats.json" || fail "stats: non_2xx"
grep -q '"non_html": 1' "$tmp/stats.json" || fail "stats: non_html"
grep -q '"title":"Page 7"' "$tmp/t1.json" || fail "title of page 7 missing"
grep -q '"flags":0,' "$tmp/t1.json" || fail "a page with prose flagged"

# a page of a few words: kept whole, flagged as the page model's fallback (bit 5)
record response "http://example.com/few" "$(printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><nav><a href=/>Home</a></nav><p>Page not found.</p></body></html>')" few >"$tmp/few.warc"
expect 0 "$X" --json -o "$tmp/few.json" "$tmp/few.warc"
grep -q '"flags":32,.*"text":"Page not found."' "$tmp/few.json" || fail "few-word page not kept whole and flagged"

# stdin gives the same documents (warc_file is then "-")
expect 0 "$X" -t2 -o "$tmp/stdin.ndf" - <"$w"

# a gzip-per-record copy with a corrupt member: exit 1, the rest kept
if command -v gzip >/dev/null 2>&1; then
	: >"$tmp/small.warc.gz"
	i=0
	while [ $i -lt 5 ]; do
		record response "http://example.com/z$i" "$(printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>Zipped page %s with a sentence of text in it.</p></body></html>' $i)" "z$i" | gzip -c >>"$tmp/small.warc.gz"
		[ $i -eq 2 ] && printf 'JUNK' >>"$tmp/small.warc.gz"
		i=$((i + 1))
	done
	expect 1 "$X" --json -o "$tmp/z.json" "$tmp/small.warc.gz"
	n=$(wc -l <"$tmp/z.json")
	[ "$n" -eq 5 ] || fail "gzip with junk between members: expected 5 documents, got $n"
	grep -q "garbage" "$tmp/err" || fail "no warning about the junk"

	# gzip per record, more pages than the ring has slots at -t2 (64),
	# two of them inflating past the first 4 MiB of window and with text
	# past --max-text: with threads, inflate and output buffers go round
	# through spare lists (the big ones are freed), and a buffer handed
	# on while still in use would show as a changed or lost page
	big=$(yes '<p>Many words of one very long page, kept as its main content.</p>' | head -c 5000000)
	: >"$tmp/many.warc.gz"
	i=0
	while [ $i -lt 150 ]; do
		case $i in
		40 | 100) body="<html><body>$big</body></html>" ;;
		*) body="<html><head><title>P$i</title></head><body><p>Page $i: $(printf '%*s' $((i * 37 % 900)) '' | tr ' ' 'w') some text about rivers and bridges.</p></body></html>" ;;
		esac
		record response "http://example.com/m$i" "$(printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n%s' "$body")" "m$i" | gzip -1 -c >>"$tmp/many.warc.gz"
		i=$((i + 1))
	done
	expect 0 "$X" -t1 --json -o "$tmp/m1.json" "$tmp/many.warc.gz"
	n=$(wc -l <"$tmp/m1.json")
	[ "$n" -eq 150 ] || fail "many pages: expected 150 documents, got $n"
	for t in 2 3 4; do
		expect 0 "$X" -t$t --json -o "$tmp/m$t.json" "$tmp/many.warc.gz"
		cmp -s "$tmp/m1.json" "$tmp/m$t.json" || fail "many pages: -t1 and -t$t differ"
	done
fi

exit $failed
