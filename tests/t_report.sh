#!/bin/sh
# report.html (ndd-report, run by run_pipeline.sh): published with the
# other outputs; a cluster of 41 different pages that share only a
# boilerplate text is marked as such; hostile titles and URLs (markup,
# quotes, bytes that are not UTF-8) stay text; the trend shows the nights
# of the index; usage errors exit 2.  Then the page is rendered in a real
# browser (Debian's chromium, headless): the DOM it builds holds the
# largest cluster's title, the charts and no script, and the screenshot
# shows the mark.  Without chromium that part is skipped, saying so.
set -u
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Night 1: 41 pages on 41 hosts sharing a long notice, each with its own
# title and opening; two copies of a page with a hostile title and URL;
# two copies of a plain story.  Night 2: the plain story again.
python3 - "$tmp" <<'PY'
import os, sys
out = sys.argv[1]
notice = " ".join("Clause %d of the shared terms of use says that every visitor agrees to "
                  "the conditions of service and the privacy rules of the network." % i
                  for i in range(150))
story = " ".join("The river council met on day %d and talked about the old bridge, the "
                 "harbour wall and the ferry timetable for the winter months." % i for i in range(30))
def page(title, opening, text):
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title></head>"
            "<body><article><h1>%s</h1><p>%s</p><p>%s</p></article></body></html>"
            % (title, title, opening, text)).encode("utf-8", "surrogateescape")
def record(url, body):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    head = ("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
            "WARC-Date: 2026-11-26T10:00:00Z\r\nWARC-Record-ID: <urn:uuid:%08d-0000-0000-0000-000000000000>\r\n"
            "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
            % (url, abs(hash(url)) % 10**8, len(http))).encode("utf-8", "surrogateescape")
    return head + http + b"\r\n\r\n"
words = "amber basil cedar dune ember fjord gale heron iris juniper kelp lotus".split()
n1 = []
for i in range(41):
    opening = "Welcome to shop number %d, where %s." % (i, " and ".join(
        "%s %s" % (words[(i + j) % 12], words[(i * 7 + j) % 12]) for j in range(3)))
    n1.append(record("http://shop%02d.example/" % i, page("Shop %d: %s %s" % (i, words[i % 12], words[i * 5 % 12]), opening, notice)))
evil_title = "\"><script>alert('t')</script> & <b>bold</b> \udcff end"
for h in ("evil.example", "evil2.example"):
    n1.append(record("http://%s/a\"b'<script>x</script>?q=1&r=2" % h,
                     page(evil_title, "An evil page opens with these words of its own.", story)))
for h in ("river.example", "mirror.example"):
    n1.append(record("http://%s/bridge" % h, page("Council talks bridge", "The council met.", story)))
open(os.path.join(out, "n1.warc"), "wb").write(b"".join(n1))
open(os.path.join(out, "n2.warc"), "wb").write(
    record("http://third.example/bridge", page("Council talks bridge", "The council met.", story)))
PY
mkdir -p "$tmp/c1" "$tmp/c2"
mv "$tmp/n1.warc" "$tmp/c1/"
mv "$tmp/n2.warc" "$tmp/c2/"
rp="./run_pipeline.sh --bin $BIN -q --index $tmp/idx"
$rp --night night-1 -o "$tmp/o1" "$tmp/c1" > /dev/null 2> "$tmp/err1" || bad "night 1: exit $?: $(cat "$tmp/err1")"
$rp --night night-2 -o "$tmp/o2" "$tmp/c2" > /dev/null 2> "$tmp/err2" || bad "night 2: exit $?: $(cat "$tmp/err2")"
[ "$(readlink "$tmp/o1/report.html")" = current/report.html ] || bad "report.html not published as a link through current"
[ -s "$tmp/o1/current/report.html" ] || bad "no report.html in the run directory"
grep -q '^clusters=' "$tmp/idx/nights/night-1/night.conf" && grep -q '^dropped=' "$tmp/idx/nights/night-1/night.conf" ||
	bad "night.conf without clusters= and dropped="

python3 - "$tmp/o1/report.html" "$tmp/o2/report.html" <<'PY' || bad "report.html content"
import html.parser, re, sys
r1 = open(sys.argv[1], encoding="utf-8").read()   # also: valid UTF-8
r2 = open(sys.argv[2], encoding="utf-8").read()
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.tags = []; s.text = []; s.stack = []
    def handle_starttag(s, t, a):
        s.tags.append(t)
        if t not in ("meta", "line", "br") and not s.get_starttag_text().endswith("/>"): s.stack.append(t)
    def handle_startendtag(s, t, a): s.tags.append(t)
    def handle_endtag(s, t):
        assert s.stack and s.stack[-1] == t, (t, s.stack[-5:])
        s.stack.pop()
    def handle_data(s, d): s.text.append(d)
p = P(); p.feed(r1); p.close()
assert not p.stack, p.stack
assert "script" not in p.tags and "img" not in p.tags, set(p.tags)
assert p.tags.count("svg") == 3, p.tags.count("svg")
text = "".join(p.text)
# the hostile title and URL are text, with U+FFFD for the byte that is not UTF-8
assert "\"><script>alert('t')</script> & <b>bold</b> \ufffd end" in text, "hostile title"
assert "http://evil.example/a\"b'<script>x</script>?q=1&r=2" in text, "hostile URL"
# the largest cluster: 41 pages, 41 different titles and openings, marked
row = re.search(r'<tr class="suspect">(.*?)</tr>', r1, re.S)
assert row, "no marked cluster"
nums = re.findall(r'<td class="n">(\d+)</td>', row.group(1))
assert nums[1:4] == ["41", "41", "41"], nums
assert "different pages?" in row.group(1)
assert r1.count('class="suspect"') == 1, "only the 41 different pages are marked"
# night 2's trend: night-1 and tonight (its name escaped), night-1's counts from night.conf
assert "night-2 (tonight)" in r2, "tonight in the trend"
m = re.search(r"<tr><td>night-1</td><td class=\"n\">(\d+)</td><td class=\"n\">(\d+)</td><td class=\"n\">(\d+)</td>", r2)
assert m and m.groups() == ("45", "2", "43"), m and m.groups()
assert "copies of earlier nights" in r2
PY

cp "$tmp/o1/current/report.html" "$tmp/r.html" # for the browser, below

# a report that fails: the night is published without one, the last
# run's report.html goes, a warning says so
mkdir "$tmp/bin"
for f in "$BIN"/ndd-*; do ln -s "$f" "$tmp/bin/"; done
rm "$tmp/bin/ndd-report"
printf '#!/bin/sh\nexit 2\n' > "$tmp/bin/ndd-report"
chmod +x "$tmp/bin/ndd-report"
./run_pipeline.sh --bin "$tmp/bin" -q -o "$tmp/o1" "$tmp/c1" > /dev/null 2> "$tmp/err3"
[ $? -eq 0 ] || bad "a failed report failed the night: $(cat "$tmp/err3")"
grep -q "warning: ndd-report failed" "$tmp/err3" || bad "no warning of the failed report"
[ -e "$tmp/o1/report.html" ] && bad "the last run's report.html stays beside the new outputs"
[ -s "$tmp/o1/clusters.csv" ] || bad "a failed report: no clusters.csv"

# the stage alone: usage errors, a file that is not clusters.csv, stdin
$BIN/ndd-report > /dev/null 2>&1; [ $? -eq 2 ] || bad "no --clusters: exit not 2"
$BIN/ndd-report --clusters x --top 0 > /dev/null 2>&1; [ $? -eq 2 ] || bad "--top 0: exit not 2"
$BIN/ndd-report --help | grep -q "Usage: ndd-report" || bad "--help"
$BIN/ndd-report --clusters "$tmp/o1/stats.json" -o "$tmp/x.html" 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "not a clusters.csv" "$tmp/err" || bad "stats.json as clusters: $(cat "$tmp/err")"
[ -e "$tmp/x.html" ] && bad "a failed report left its output"
$BIN/ndd-report --clusters - --stats "$tmp/o1/clusters.csv" -o "$tmp/x.html" < "$tmp/o1/clusters.csv" 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "not valid JSON" "$tmp/err" || bad "clusters.csv as stats: $(cat "$tmp/err")"
$BIN/ndd-report -q --clusters - -o "$tmp/stdin.html" < "$tmp/o1/clusters.csv" || bad "--clusters - failed"
grep -q '<td class="n">41</td>' "$tmp/stdin.html" || bad "--clusters -: no cluster of 41"

# In a real browser.
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	if [ -n "${NDD_REQUIRE_BROWSER:-}" ]; then
		bad "no chromium, and NDD_REQUIRE_BROWSER is set (CI installs it: .ci/install-deps.sh --browser)"
	else
		echo "SKIP: no chromium installed (apt-get install chromium): report.html not rendered"
	fi
	exit $fail
fi
chrome() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--no-first-run --user-data-dir="$tmp/profile" "$@" "file://$tmp/r.html" 2>> "$tmp/chromium.log"; }
chrome --dump-dom > "$tmp/dom.html" || bad "chromium --dump-dom failed: $(tail -3 "$tmp/chromium.log")"
python3 - "$tmp/dom.html" <<'PY' || bad "the DOM chromium built"
import sys, re
d = open(sys.argv[1], encoding="utf-8").read()
assert "Shop 0: amber amber" in d, "the largest cluster's title"       # its representative
assert len(re.findall(r"<svg[ >]", d)) == 3 and "<rect" in d, "the charts"
assert "<script" not in d and "<img" not in d, "markup from the data became elements"
assert "&lt;script&gt;alert('t')&lt;/script&gt;" in d, "the hostile title as text"
PY
chrome --screenshot="$tmp/shot.png" --window-size=1200,1600 > /dev/null ||
	bad "chromium --screenshot failed: $(tail -3 "$tmp/chromium.log")"
python3 - "$tmp/shot.png" <<'PY' || bad "the screenshot"
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(b):
    n, t = struct.unpack(">I4s", b[pos:pos + 8])
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", b[pos + 8:pos + 18])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif t == b"IDAT":
        idat += b[pos + 8:pos + 8 + n]
    pos += 12 + n
raw, stride, prev, colours, red = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        c = prev[i - bpp] if i >= bpp else 0
        u = prev[i]
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + u) & 255
        elif f == 3: line[i] = (line[i] + (a + u) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(u - c), abs(a - c), abs(a + u - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else u if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):
        px = tuple(line[x:x + 3]); colours.add(px)
        red += px == (0xc6, 0x28, 0x28)       # the "different pages?" badge
    prev = line
print("screenshot %dx%d: %d colours, %d badge pixels" % (w, h, len(colours), red))
assert len(colours) > 50, "a blank page"
assert red > 100, "the mark of the 41 different pages is not on the first screen"
PY
exit $fail
