#!/bin/sh
# Bad input of issue 15, generated here (not committed): a page of 50 MB
# of HTML and a page of 100,000 blocks go through extract, template and
# fingerprint --templates in bounded time and memory, each kept with a
# warning where it was cut: extract cuts the 50 MB page's text at
# --max-text (4 MiB by default), ndd-template learns from the first 4,096
# blocks of a page; a host of 200,000 pages costs ndd-template a few
# thousand of them and a warning.  Needs python3 (to write the WARCs).
BIN=${BIN:-build/bin}
BUILD=${BUILD:-build}
KEEP=${KEEP:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/t_bad_input.XXXXXX") || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$T"' 0
trap 'exit 1' INT TERM HUP
failed=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	failed=1
}
command -v python3 >/dev/null || { echo "t_bad_input: needs python3"; exit 1; }
# Sanitizer builds take several times the memory and time: bounds for the
# plain build only (the runs and the warnings are checked in every build).
case $BUILD in *san* | *address* | *undefined* | *thread* | *memory*) RSS_MAX=100000 CPU_MAX=1000 ;; *) RSS_MAX=400 CPU_MAX=20 ;; esac

python3 - "$T" <<'PY' || exit 1
import gzip, sys
def record(url, body):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    hdr = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
           "WARC-Date: 2026-11-26T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n"
           "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
           % (url, len(url), len(http))).encode()
    return gzip.compress(hdr + http + b"\r\n\r\n", 1)
para = b"<p>" + b"The quick brown fox jumps over the lazy dog near the river bank today. " * 20 + b"</p>\n"
big = b"<html><head><title>Big</title></head><body><article>" + para * (50_000_000 // len(para)) + b"</article></body></html>"
many = b"<html><head><title>Blocks</title></head><body>" + b"".join(
    b"<div>item %d of a long list</div>" % i for i in range(100_000)) + b"</body></html>"
open(sys.argv[1] + "/big.warc.gz", "wb").write(record("http://bad.example/big", big))
open(sys.argv[1] + "/blocks.warc.gz", "wb").write(record("http://bad.example/blocks", many))
PY

# The summary line's "X s CPU, Y MB peak RSS" within the bounds.
bounded() { # LOG WHAT
	awk -v r="$RSS_MAX" -v c="$CPU_MAX" '/ s CPU, .* MB peak RSS/ {
		for (i = 1; i <= NF; i++) { if ($i == "CPU,") cpu = $(i - 2); if ($i == "MB") rss = $(i - 1) }
		found = 1 } END { exit !(found && cpu + 0 <= c && rss + 0 <= r) }' "$1" &&
		ok "$2: CPU and peak RSS bounded" || bad "$2: $(tail -1 "$1") (bounds $CPU_MAX s, $RSS_MAX MB)"
}

# 50 MB of HTML: one document, its text cut at 4 MiB with a warning.
if "$BIN/ndd-extract" -t1 -o "$T/big.ndf" "$T/big.warc.gz" 2>"$T/big.err"; then
	ok "extract of a 50 MB page"
else
	bad "extract of a 50 MB page: $(tail -2 "$T/big.err")"
fi
grep -q '1 documents' "$T/big.err" || bad "the 50 MB page is a document"
grep -q 'warning: .*http://bad.example/big.*text cut to 4194304 bytes' "$T/big.err" &&
	ok "the cut text is warned of" || bad "no warning of the cut text: $(head -2 "$T/big.err")"
bounded "$T/big.err" "extract of a 50 MB page"
"$BIN/ndd-extract" -t1 --json -o "$T/big.jsonl" "$T/big.warc.gz" 2>/dev/null
python3 -c 'import json, sys; d = json.loads(open(sys.argv[1]).readline()); t = d["text"]
sys.exit(not (4000000 < len(t.encode()) <= 4194304 and t.startswith("The quick brown fox")))' "$T/big.jsonl" &&
	ok "its main text is the article's first 4 MiB" || bad "the 50 MB page's main text"

# 100,000 blocks: extract keeps them all; template learns from 4,096 with a warning.
"$BIN/ndd-extract" -t1 -o "$T/blocks.ndf" "$T/blocks.warc.gz" 2>"$T/blocks.err" ||
	bad "extract of a page of 100,000 blocks"
bounded "$T/blocks.err" "extract of a page of 100,000 blocks"
if grep -q 'text cut' "$T/blocks.err"; then bad "100,000 blocks were cut"; fi
for f in big blocks; do
	"$BIN/ndd-template" -t1 -o "$T/$f.tpl" "$T/$f.ndf" 2>"$T/$f.tpl.err" || bad "template of $f"
	bounded "$T/$f.tpl.err" "template of $f"
	"$BIN/ndd-fingerprint" -t1 --templates "$T/$f.tpl" -o "$T/$f.fps" "$T/$f.ndf" 2>"$T/$f.fp.err" ||
		bad "fingerprint --templates of $f"
	bounded "$T/$f.fp.err" "fingerprint of $f"
	grep -q '1 documents' "$T/$f.fp.err" || bad "fingerprint of $f: $(tail -1 "$T/$f.fp.err")"
done
grep -q 'warning: 1 pages learnt from had 4096 blocks or more' "$T/blocks.tpl.err" &&
	ok "template warns of the page of 100,000 blocks" || bad "no warning from template: $(head -2 "$T/blocks.tpl.err")"

# One host of 200,000 pages (bench/gen_host_docs; docs/TEMPLATES.md has
# 10M): learnt from 200 of the few thousand it keeps, warned of once at
# --host-warn pages.
if [ -x "$BUILD/bench/gen_host_docs" ]; then
	"$BUILD/bench/gen_host_docs" 200000 >"$T/host.ndf" || bad "gen_host_docs"
	"$BIN/ndd-template" -t1 --host-warn 100000 -o "$T/host.tpl" "$T/host.ndf" 2>"$T/host.err" ||
		bad "template of a host of 200,000 pages"
	bounded "$T/host.err" "template of a host of 200,000 pages"
	[ "$(grep -c 'warning: .*host big.example has 100000 pages: a crawler trap' "$T/host.err")" = 1 ] &&
		ok "the host of 200,000 pages is warned of once" || bad "host warning: $(head -2 "$T/host.err")"
	kept=$(sed -n 's/.* documents, \([0-9]*\) kept, 200 learnt from, 1 hosts.*/\1/p' "$T/host.err")
	[ "${kept:-999999}" -lt 10000 ] && ok "it keeps $kept of its pages" || bad "kept: $(tail -1 "$T/host.err")"
else
	bad "no $BUILD/bench/gen_host_docs (make builds it with the tests)"
fi
exit $failed
