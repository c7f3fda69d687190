#!/bin/sh
# run_pipeline.sh's inputs and stats.json: a symbolic link to a directory
# is followed, any case of .warc/.warc.gz is taken, names with a newline,
# a tab, a quote, a backslash or non-UTF-8 bytes reach the stages and give
# a stats.json that parses (with version, times, command line, fingerprint
# method), --files-from reads a list (or stdin), 40,000 inputs pass the
# kernel's argument limit, and -q still names each kind of skipped record.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rp="./run_pipeline.sh --bin $BIN -q"

real="$tmp/real dir"
mkdir -p "$real" "$tmp/in"
cp corpus-samples/news-a.warc.gz "$real/$(printf 'new\nline.WARC.GZ')"
cp corpus-samples/news-b.warc "$real/$(printf 'tab\there \\ "q".Warc')"
cp corpus-samples/cn.warc.gz "$real/$(printf 'bad\377\376utf8.warc.gz')"
cp corpus-samples/mixed.warc.gz "$real/mixed.wArC.gZ"
cp corpus-samples/README.md "$real/README.md"
ln -s "$real" "$tmp/in/linked"
$rp -o "$tmp/out" "$tmp/in" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || bad "nasty names: exit not 1 (the truncated record): $(cat "$tmp/err")"
grep -q "skipped 1: truncated record" "$tmp/err" || bad "-q does not name the skipped kind"
python3 - "$tmp/out/stats.json" <<'PY' || bad "stats.json of nasty names"
import json, sys
s = json.load(open(sys.argv[1], 'rb'))
names = sorted(x.rsplit('/', 1)[1] for x in s['inputs'])
want = sorted(['new\nline.WARC.GZ', 'tab\there \\ "q".Warc', 'bad\ufffd\ufffdutf8.warc.gz', 'mixed.wArC.gZ'])
assert names == want, names
assert s['extract']['inputs'] == 4 and s['extract']['documents_written'] == 28, s['extract']
assert s['version'] and s['started'].endswith('Z') and s['ended'] >= s['started']
assert s['command_line'][-1].endswith('/in'), s['command_line']
assert s['fingerprint']['method'] == 'minhash' and s['k'] == 6
assert set(s['seconds']) >= {'extract', 'fingerprint', 'self-join'}, s['seconds']
PY
$rp -o "$tmp/plain" corpus-samples/ > /dev/null 2>&1
cmp -s "$tmp/out/clusters.csv" "$tmp/plain/clusters.csv" &&
	bad "clusters name the same files?" # the warc_file column holds the new names
cut -d, -f1,2 "$tmp/out/clusters.csv" | sort > "$tmp/a"
cut -d, -f1,2 "$tmp/plain/clusters.csv" | sort > "$tmp/b"
[ -s "$tmp/a" ] || bad "nasty names: no clusters"

# --files-from: a list file, and standard input.
printf '%s\n' corpus-samples/news-a.warc.gz corpus-samples/news-b.warc > "$tmp/list"
$rp -o "$tmp/l1" --files-from "$tmp/list" > /dev/null 2>&1 || bad "--files-from FILE failed"
$rp -o "$tmp/l2" --files-from - < "$tmp/list" > /dev/null 2>&1 || bad "--files-from - failed"
$rp -o "$tmp/l3" corpus-samples/news-a.warc.gz corpus-samples/news-b.warc > /dev/null 2>&1
cmp -s "$tmp/l1/clusters.csv" "$tmp/l3/clusters.csv" || bad "--files-from FILE: other clusters"
cmp -s "$tmp/l2/clusters.csv" "$tmp/l3/clusters.csv" || bad "--files-from -: other clusters"

# 40,000 inputs with long names (about 4 MB of names, past the 2 MB
# argument limit): 39,999 hold only a warcinfo record.
head -c 408 corpus-samples/news-b.warc > "$tmp/info.warc"
python3 - "$tmp/many" "$tmp/info.warc" <<'PY'
import os, shutil, sys
top = os.path.join(sys.argv[1], '0' * 100)
for i in range(40):
    os.makedirs(os.path.join(top, str(i)))
    for j in range(1000):
        os.link(sys.argv[2], os.path.join(top, str(i), '%080d.warc' % j))
os.unlink(os.path.join(top, '0', '%080d.warc' % 0))
shutil.copy('corpus-samples/news-b.warc', os.path.join(top, '0', '%080d.warc' % 0))
PY
[ "$(find "$tmp/many" -name '*.warc' | wc -l)" -eq 40000 ] || bad "40,000 inputs not made"
$rp -o "$tmp/o40k" "$tmp/many" > /dev/null 2> "$tmp/err40k"
rc=$?
[ $rc -le 1 ] || bad "40,000 inputs: exit $rc: $(tail -3 "$tmp/err40k")"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); assert len(s["inputs"]) == 40000 and s["extract"]["inputs"] == 40000, s["extract"]' \
	"$tmp/o40k/stats.json" || bad "40,000 inputs: stats.json"
exit $fail
