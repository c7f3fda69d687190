#!/bin/sh
# ndd-extract with several readers (one per input at a time, several
# inputs at once): inputs of very different sizes, plain, per-record gzip
# and whole-file gzip WARCs, archives, a corrupt member, a truncated
# file, garbage, a page past --max-record and an input on stdin, given in
# one run.  Every -t must
# write the same bytes, the same statistics, exit with the same status
# and warn the same lines; one huge input ahead of many small ones must
# neither hang nor hold more memory the more small inputs follow it.
# Needs python3 (Debian: python3).
BIN=${BIN:-build/bin}
BUILD=${BUILD:-build}
TOP=${TOP:-$(pwd)}
case $BUILD in /*) TB=$BUILD ;; *) TB=$TOP/$BUILD ;; esac
X="$(cd "$BIN" && pwd)/ndd-extract"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_extract_readers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' INT TERM HUP
failed=0
fail() {
	echo "t_extract_readers: FAIL: $*" >&2
	failed=1
}

# gen DIR: the inputs, made with a fixed seed
python3 - "$tmp" <<'EOF' || fail "generating the inputs"
import gzip, os, random, sys, zlib
d = sys.argv[1]
rnd = random.Random(18)
WORDS = ("river bridge market station harbour garden tower square museum "
         "library theatre school street valley mountain forest meadow lake").split()
n = [0]

def page(words, title):
    paras = []
    while words > 0:
        k = min(words, rnd.randint(30, 90))
        paras.append("<p>" + " ".join(rnd.choice(WORDS) for _ in range(k)) + ".</p>")
        words -= k
    return ("<html><head><title>%s</title></head><body><nav><a href=/>Home</a></nav>%s"
            "</body></html>" % (title, "".join(paras))).encode()

def record(host, words, status=200, ctype="text/html"):
    n[0] += 1
    body = page(words, "%s page %d" % (host, n[0]))
    http = ("HTTP/1.1 %d X\r\nContent-Type: %s\r\n\r\n" % (status, ctype)).encode() + body
    head = ("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://%s/p%d\r\n"
            "WARC-Date: 2024-05-01T10:00:00Z\r\nWARC-Record-ID: <urn:uuid:r-%d>\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            "Content-Length: %d\r\n\r\n" % (host, n[0], n[0], len(http))).encode()
    return head + http + b"\r\n\r\n"

def warc_gz(name, recs, corrupt=None, cut=0):
    with open(os.path.join(d, name), "wb") as f:
        out = b""
        for i, r in enumerate(recs):
            m = gzip.compress(r, 1, mtime=0)
            if i == corrupt:  # the member's deflate data overwritten
                m = m[:40] + b"X" * 32 + m[72:]
            out += m
        f.write(out[:len(out) - cut])

def recs(host, count, lo, hi):
    r = []
    for i in range(count):
        kind = rnd.random()
        if kind < 0.05:
            r.append(record(host, 40, status=404))
        elif kind < 0.08:
            r.append(record(host, 40, ctype="image/png"))
        else:
            r.append(record(host, rnd.randint(lo, hi)))
    return r

warc_gz("big.warc.gz", recs("big", 3000, 100, 900))
warc_gz("tiny.warc.gz", recs("tiny", 1, 100, 200))
warc_gz("mid.warc.gz", recs("mid", 400, 100, 1500), corrupt=200)
warc_gz("cut.warc.gz", recs("cut", 30, 100, 300), cut=25)
with open(os.path.join(d, "plain.warc"), "wb") as f:
    f.write(b"".join(recs("plain", 60, 100, 600)))
    f.write(b"some bytes that are no record\r\n\r\n")
    f.write(b"".join(recs("plain2", 5, 100, 600)))
with open(os.path.join(d, "whole.warc.gz"), "wb") as f:  # one member of many records
    f.write(gzip.compress(b"".join(recs("whole", 40, 100, 600)), 6, mtime=0))
warc_gz("huge-page.warc.gz", [record("hp", 50)] + [record("hp", 200000)] + [record("hp", 60)])
with open(os.path.join(d, "stdin.warc.gz"), "wb") as f:
    f.write(b"".join(gzip.compress(r, 1, mtime=0) for r in recs("stdin", 50, 100, 400)))
# memory: one huge input, then small ones of big pages
warc_gz("huge.warc.gz", recs("huge", 6000, 200, 900))
for i in range(40):
    warc_gz("small%02d.warc.gz" % i, recs("small%d" % i, 6, 20000, 30000))
EOF
"$TB/tests/test_crawl" --write "$tmp" >/dev/null || fail "test_crawl --write"

# run T NAME ARGS...: extract with -tT, keeping the documents, the JSON
# lines, the statistics, the status and the warnings (sorted: the
# readers of different inputs warn as they read)
run() {
	t=$1
	name=$2
	shift 2
	"$X" -t"$t" --max-record 1M --stats "$tmp/$name.t$t.stats" -o "$tmp/$name.t$t.ndf" "$@" \
		<"$tmp/stdin.warc.gz" 2>"$tmp/$name.t$t.err"
	echo $? >"$tmp/$name.t$t.rc"
	"$X" -t"$t" --max-record 1M --json -o "$tmp/$name.t$t.json" "$@" <"$tmp/stdin.warc.gz" 2>/dev/null
	grep -v 'peak RSS' "$tmp/$name.t$t.err" | sort >"$tmp/$name.t$t.warn"
}

# same NAME: every -t as -t1
same() {
	for t in 2 3 8; do
		for f in ndf json stats rc warn; do
			cmp -s "$tmp/$1.t1.$f" "$tmp/$1.t$t.$f" || fail "$1: -t1 and -t$t: the $f differ"
		done
	done
}

cd "$tmp" || exit 1
# big and small, gzip and plain, archives, damage, stdin; the same big
# input twice (two readers of one file) and a pipe's turn in the middle
set -- tiny.warc.gz big.warc.gz crawl.zip mid.warc.gz cut.warc.gz plain.warc crawl.tgz \
	huge-page.warc.gz - tiny.warc.gz big.warc.gz crawl.tar whole.warc.gz misnamed.warc big.warc.gz
for t in 1 2 3 8; do
	run $t mix "$@"
done
same mix
[ "$(cat mix.t1.rc)" = 1 ] || fail "mix: exit $(cat mix.t1.rc), expected 1 (skipped records)"
grep -q '"corrupt_gzip": 1' mix.t1.stats || fail "mix: the corrupt member is not counted"
grep -q '"truncated": 1' mix.t1.stats || fail "mix: the truncated record is not counted"
grep -q '"huge": 1' mix.t1.stats || fail "mix: the page past --max-record is not counted"
grep -q '"garbage": 1' mix.t1.stats || fail "mix: the garbage is not counted"
grep -q 'mid.warc.gz.*corrupt\|corrupt.*mid.warc.gz' mix.t1.warn || fail "mix: no warning names mid.warc.gz"
grep -q '"warc_file":"crawl.tgz!crawl/a.warc.gz"' mix.t1.json || fail "mix: the archive's member is missing"
grep -q '"warc_file":"-"' mix.t1.json || fail "mix: standard input's pages are missing"
# the documents of each input in input order: the file names, run together
python3 - mix.t1.json "$@" <<'EOF' || fail "mix: documents out of input order"
import json, sys
files = [json.loads(l)["warc_file"].split("!")[0] for l in open(sys.argv[1])]
order = [a for i, a in enumerate(files) if i == 0 or files[i - 1] != a]
want = [a for a in sys.argv[2:] if a in set(files)]
sys.exit(order != want)
EOF

# one input cannot be opened: status 2 at any -t, the name said
for t in 1 3; do
	"$X" -t$t -o "$tmp/no.ndf" tiny.warc.gz big.warc.gz no-such.warc.gz tiny.warc.gz 2>"$tmp/no.err"
	rc=$?
	[ $rc -eq 2 ] || fail "a missing input at -t$t: exit $rc, expected 2"
	grep -q "no-such.warc.gz" "$tmp/no.err" || fail "a missing input at -t$t: not named"
	[ ! -e "$tmp/no.ndf" ] || fail "a missing input at -t$t: output written"
done

# memory: a huge input first holds the small ones behind it to the lanes'
# caps: 40 small inputs of big pages cost no more than 10 do
smalls() { i=0; while [ $i -lt "$1" ]; do printf 'small%02d.warc.gz\n' $i; i=$((i + 1)); done; }
rss() { sed -n 's/.* \([0-9.]*\) MB peak RSS$/\1/p' "$1" | tail -1; }
for k in 10 40; do
	# shellcheck disable=SC2046
	timeout 300 "$X" -t3 -o "$tmp/mem$k.ndf" huge.warc.gz $(smalls $k) 2>"$tmp/mem$k.err" ||
		fail "huge and $k small inputs at -t3: exit $? $(tail -2 "$tmp/mem$k.err")"
done
# shellcheck disable=SC2046
"$X" -t1 -o "$tmp/mem1.ndf" huge.warc.gz $(smalls 40) 2>/dev/null
cmp -s "$tmp/mem1.ndf" "$tmp/mem40.ndf" || fail "huge and 40 small inputs: -t1 and -t3 differ"
r10=$(rss "$tmp/mem10.err")
r40=$(rss "$tmp/mem40.err")
echo "t_extract_readers: peak RSS at -t3, huge input and 10 small: $r10 MB; and 40 small: $r40 MB"
awk -v a="$r10" -v b="$r40" 'BEGIN { exit !(a > 0 && b < a * 1.25 + 8) }' ||
	fail "memory grows with the inputs behind a huge one: $r10 MB with 10, $r40 MB with 40"

exit $failed
