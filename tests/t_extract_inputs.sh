#!/bin/sh
# ndd-extract end to end on WARCs built here: every record type; chunked
# and gzip HTTP bodies; the charset paths (UTF-8, GBK, Big5, Shift_JIS,
# windows-1251, windows-1252) checked in the --json text; WARC/1.1 with
# fractional dates and bare LF; a corrupt gzip member in the middle; a
# truncated file; a whole-file gzip; tar, tar.gz and zip archives of
# WARCs and loose HTML (written by test_crawl --write, so no tar or zip
# tool is needed).  Needs iconv and gzip (Debian: libc-bin, gzip).
BIN=${BIN:-build/bin}
KEEP=${KEEP:-}
BUILD=${BUILD:-build}
TOP=${TOP:-$(pwd)}
case $BUILD in /*) TB=$BUILD ;; *) TB=$TOP/$BUILD ;; esac
X="$BIN/ndd-extract"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_extract_inputs.XXXXXX") || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' 0
trap 'exit 1' INT TERM HUP
failed=0
fail() {
	echo "t_extract_inputs: FAIL: $*" >&2
	failed=1
}
expect() { # STATUS CMD...
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want: $(head -3 "$tmp/err")"
}
has() { # FILE STRING WHAT
	grep -qF -- "$2" "$1" || fail "$3: '$2' not in the output"
}

n=0
# rec TYPE URI BLOCKFILE [EXTRA-HEADER-LINES]: one WARC/1.1 record on stdout
rec() {
	n=$((n + 1))
	printf 'WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2024-05-01T10:00:00.123456Z\r\nWARC-Record-ID: <urn:uuid:rec-%d>\r\n%bContent-Length: %d\r\n\r\n' \
		"$1" "$2" "$n" "${4:-}" "$(wc -c <"$3")"
	cat "$3"
	printf '\r\n\r\n'
}
AH='Content-Type: application/http; msgtype=response\r\n'
para() { printf '<p>%s %s %s</p>' "$1" "$1" "$1"; }
page() { printf '<html><head>%s<title>T</title></head><body>%s</body></html>' "$1" "$(para "$2")"; }
http() { # CHARSET-HEADER-SUFFIX: an HTTP head
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html%s\r\n\r\n' "$1"
}

# ---- charsets: the encoded page, and the UTF-8 text expected back
T_UTF8='Grüße aus Köln: ein Absatz über Straßen und Brücken der Stadt.'
T_GBK='中文网页的主要内容在这里，这是一个用于测试的段落。'
T_BIG5='繁體中文網頁的主要內容在這裡，這是一個測試段落。'
T_SJIS='日本語のウェブページの本文です。これはテストの段落です。'
T_1251='Русский текст основного содержания страницы для проверки.'
T_1252='Café crème brûlée, naïve façade and “curly quotes” in text.'
w=$tmp/charsets.warc
: >"$w"
{ http '; charset=utf-8'; page '' "$T_UTF8"; } >"$tmp/b"
rec response http://cs/utf8 "$tmp/b" "$AH" >>"$w"
{ http '; charset=gbk'; page '' "$T_GBK" | iconv -f UTF-8 -t GBK; } >"$tmp/b"
rec response http://cs/gbk "$tmp/b" "$AH" >>"$w"
{ http ''; page '<meta charset="big5">' "$T_BIG5" | iconv -f UTF-8 -t BIG5; } >"$tmp/b"
rec response http://cs/big5 "$tmp/b" "$AH" >>"$w"
{ http ''; page '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">' "$T_SJIS" |
	iconv -f UTF-8 -t SHIFT_JIS; } >"$tmp/b"
rec response http://cs/sjis "$tmp/b" "$AH" >>"$w"
{ http '; charset=windows-1251'; page '' "$T_1251" | iconv -f UTF-8 -t CP1251; } >"$tmp/b"
rec response http://cs/1251 "$tmp/b" "$AH" >>"$w"
# labelled ISO-8859-1, as servers do; the curly quotes only exist in 1252
{ http '; charset=iso-8859-1'; page '' "$T_1252" | iconv -f UTF-8 -t CP1252; } >"$tmp/b"
rec response http://cs/1252 "$tmp/b" "$AH" >>"$w"
expect 0 "$X" --json -o "$tmp/cs.json" "$w"
has "$tmp/cs.json" "$T_UTF8" "UTF-8"
has "$tmp/cs.json" "$T_GBK" "GBK"
has "$tmp/cs.json" "$T_BIG5" "Big5"
has "$tmp/cs.json" "$T_SJIS" "Shift_JIS"
has "$tmp/cs.json" "$T_1251" "windows-1251"
has "$tmp/cs.json" "$T_1252" "windows-1252"
has "$tmp/cs.json" '"date":"2024-05-01T10:00:00.123456Z"' "fractional WARC-Date"

# ---- body encodings and every record type
T_CH='A chunked page whose body came in two chunks of text.'
T_GZ='A gzip page whose body was compressed by the server.'
w=$tmp/types.warc
: >"$w"
page '' "$T_CH" >"$tmp/html"
half=$(($(wc -c <"$tmp/html") / 2))
{
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n'
	printf '%x\r\n' "$half"
	head -c "$half" "$tmp/html"
	printf '\r\n%x;ext=1\r\n' "$(($(wc -c <"$tmp/html") - half))"
	tail -c +$((half + 1)) "$tmp/html"
	printf '\r\n0\r\n\r\n'
} >"$tmp/b"
rec response http://enc/chunked "$tmp/b" "$AH" >>"$w"
{ printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n'; page '' "$T_GZ" | gzip -c; } >"$tmp/b"
rec response http://enc/gzip "$tmp/b" "$AH" >>"$w"
page '' 'A resource record holding an HTML page of its own text.' >"$tmp/b"
rec resource http://t/resource "$tmp/b" 'Content-Type: text/html\r\n' >>"$w"
printf 'software: t\r\n' >"$tmp/b"
rec warcinfo '' "$tmp/b" >>"$w"
printf 'GET / HTTP/1.1\r\n\r\n' >"$tmp/b"
rec request http://t/ "$tmp/b" >>"$w"
rec metadata http://t/ "$tmp/b" >>"$w"
rec conversion http://t/ "$tmp/b" >>"$w"
rec continuation http://t/ "$tmp/b" >>"$w"
rec x-future-type http://t/ "$tmp/b" >>"$w"
: >"$tmp/b"
rec revisit http://t/ "$tmp/b" 'WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n' >>"$w"
# WARC/1.0 with bare LF line ends
page '' 'A page in a WARC/1.0 record whose lines end in bare LF.' >"$tmp/html"
printf 'WARC/1.0\nWARC-Type: resource\nWARC-Target-URI: <http://t/lf>\nContent-Type: text/html\nContent-Length: %d\n\n' \
	"$(wc -c <"$tmp/html")" >>"$w"
cat "$tmp/html" >>"$w"
printf '\n\n' >>"$w"
expect 0 "$X" --json --stats "$tmp/st.json" -o "$tmp/types.json" "$w"
has "$tmp/types.json" "$T_CH" "chunked body"
has "$tmp/types.json" "$T_GZ" "gzip body"
grep -q '0\r\n\|;ext=1' "$tmp/types.json" && fail "chunk sizes left in the text"
has "$tmp/types.json" '"url":"http://t/resource"' "resource record"
has "$tmp/types.json" '"url":"http://t/lf"' "bare-LF WARC/1.0 record"
[ "$(wc -l <"$tmp/types.json")" -eq 4 ] || fail "types: expected 4 documents"
has "$tmp/st.json" '"records_read": 11' "records"
has "$tmp/st.json" '"revisit": 1' "revisit count"
has "$tmp/st.json" '"other_record_types": 5' "warcinfo/request/metadata/conversion/continuation"
has "$tmp/st.json" '"unknown_record_types": 1' "unknown type"

# ---- gzip: per record with a corrupt member in the middle; truncated; whole file
gz=$tmp/ten.warc.gz
: >"$gz"
i=0
while [ $i -lt 10 ]; do
	[ $i -eq 5 ] && mid=$(wc -c <"$gz")
	{ http ''; page '' "Page number $i of the gzip file, with a paragraph long enough to keep. $(seq -s ' ' 1 200)"; } >"$tmp/b"
	rec response "http://gz/$i" "$tmp/b" "$AH" | gzip -c >>"$gz"
	i=$((i + 1))
done
cp "$gz" "$tmp/corrupt.warc.gz"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$tmp/corrupt.warc.gz" bs=1 seek=$((mid + 60)) conv=notrunc 2>/dev/null
expect 1 "$X" --json --stats "$tmp/st.json" -o "$tmp/c.json" "$tmp/corrupt.warc.gz"
[ "$(wc -l <"$tmp/c.json")" -eq 9 ] || fail "corrupt member: expected the 9 other documents"
has "$tmp/c.json" '"url":"http://gz/9"' "records after the corrupt member"
grep -q '"url":"http://gz/5"' "$tmp/c.json" && fail "the corrupt member's record came out"
has "$tmp/st.json" '"corrupt_gzip": 1' "corrupt member count"
head -c $(($(wc -c <"$gz") - 30)) "$gz" >"$tmp/cut.warc.gz"
expect 1 "$X" --json --stats "$tmp/st.json" -o "$tmp/t.json" "$tmp/cut.warc.gz"
[ "$(wc -l <"$tmp/t.json")" -eq 9 ] || fail "truncated file: expected 9 documents"
has "$tmp/st.json" '"truncated": 1' "truncated count"
gzip -c "$tmp/types.warc" >"$tmp/whole.warc.gz"
expect 0 "$X" --json -o "$tmp/w.json" "$tmp/whole.warc.gz"
[ "$(wc -l <"$tmp/w.json")" -eq 4 ] || fail "whole-file gzip: expected 4 documents"
has "$tmp/w.json" '"flags":16' "whole-file gzip offset flag"
grep -q "inflated stream" "$tmp/err" || fail "whole-file gzip: no warning about offsets"
# several threads take the reader's buffers instead of copying: not where
# a member is broken or holds several records
for f in corrupt cut whole; do
	"$X" -t1 --json -o "$tmp/s1.json" "$tmp/$f.warc.gz" 2>/dev/null
	"$X" -t2 --json -o "$tmp/s2.json" "$tmp/$f.warc.gz" 2>/dev/null
	cmp -s "$tmp/s1.json" "$tmp/s2.json" || fail "$f.warc.gz: -t1 and -t2 differ"
done

# ---- archives of WARCs and loose HTML
"$TB/tests/test_crawl" --write "$tmp" >/dev/null || fail "test_crawl --write"
for a in crawl.tar crawl.tgz crawl.zip misnamed.warc; do
	expect 0 "$X" -t1 --json -o "$tmp/a1.json" "$tmp/$a"
	expect 0 "$X" -t2 --json -o "$tmp/a2.json" "$tmp/$a"
	cmp -s "$tmp/a1.json" "$tmp/a2.json" || fail "$a: -t1 and -t2 differ"
	[ "$(wc -l <"$tmp/a1.json")" -eq 6 ] || fail "$a: expected 6 documents"
	has "$tmp/a1.json" "\"warc_file\":\"$tmp/$a!crawl/a.warc.gz\"" "$a: member name"
	has "$tmp/a1.json" '"url":"pages/index.html"' "$a: loose page"
	has "$tmp/a1.json" '"url":"http://c.example/"' "$a: WARC entry found by its bytes"
	has "$tmp/a1.json" '"flags":8' "$a: DOC_FROM_ARCHIVE"
done
# an archive and a WARC in one run; a stream on stdin
expect 0 "$X" -o "$tmp/mix.ndf" "$tmp/crawl.zip" "$tmp/charsets.warc"
expect 0 "$X" --json -o "$tmp/s.json" - <"$tmp/crawl.tgz"
[ "$(wc -l <"$tmp/s.json")" -eq 6 ] || fail "tar.gz on stdin: expected 6 documents"

exit $failed
