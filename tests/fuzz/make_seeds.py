#!/usr/bin/env python3
"""Write the seed corpora of the libFuzzer targets (tests/fuzz/fuzz_*.c)
into OUT/<target>/, from the repository's test data and small inputs made
here, so a fuzzing run starts from inputs that reach deep.

  make_seeds.py OUT [BIN]

BIN (a directory of built stages, e.g. build/bin) adds NDF files made by
running them on corpus-samples/: documents, fingerprints and tables.
"""
import gzip
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = sys.argv[1]
BIN = sys.argv[2] if len(sys.argv) > 2 else None


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def record(uri, body, rtype=b"response", ctype=b"application/http; msgtype=response"):
    head = (b"WARC/1.1\r\nWARC-Type: " + rtype + b"\r\nWARC-Target-URI: " + uri +
            b"\r\nContent-Type: " + ctype +
            b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    return head + body + b"\r\n\r\n"


def http(body, headers=b"Content-Type: text/html; charset=utf-8\r\n"):
    return b"HTTP/1.1 200 OK\r\n" + headers + b"\r\n" + body


PAGE = (b"<!doctype html><html><head><title>T</title></head><body><nav>menu</nav>"
        b"<main><h1>Head</h1><p>Some text of the page &amp; more.</p></main></body></html>")


def chunked(body, n=40):
    out = b""
    for i in range(0, len(body), n):
        part = body[i:i + n]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


def http_seeds():
    gz = gzip.compress(PAGE)
    seeds = {
        "plain": http(PAGE),
        "chunked": http(chunked(PAGE), b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n"),
        "gzip": http(gz, b"Content-Type: text/html\r\nContent-Encoding: gzip\r\n"),
        "deflate": http(zlib.compress(PAGE), b"Content-Encoding: deflate\r\n"),
        "rawdeflate": http(zlib.compress(PAGE)[2:-4], b"Content-Encoding: deflate\r\n"),
        "chunked-gzip": http(chunked(gz), b"Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n"),
        "badchunk": http(b"zz\r\n" + PAGE + b"\r\n0\r\n\r\n", b"Transfer-Encoding: chunked\r\n"),
        "undecoded": http(PAGE, b"Content-Encoding: gzip\r\n"),
    }
    try:
        import brotli  # python3-brotli, if installed
        seeds["br"] = http(brotli.compress(PAGE), b"Content-Encoding: br\r\n")
    except ImportError:
        pass
    for name, data in seeds.items():
        put("fuzz_http", name, b"\x00" + data)
        put("fuzz_http", name + "-capped", b"\x03" + data)
    return seeds


def warc_seeds(hs):
    recs = [record(b"http://a.example/" + n.encode(), d) for n, d in hs.items()]
    plain = b"".join(recs)
    put("fuzz_warc", "plain", plain + b"\x00")
    put("fuzz_warc", "members", b"".join(gzip.compress(r) for r in recs) + b"\x00")
    put("fuzz_warc", "wholefile", gzip.compress(plain) + b"\x00")
    put("fuzz_warc", "mixed", plain + b"".join(gzip.compress(r) for r in recs) + b"\x00")
    put("fuzz_warc", "garbage", recs[0] + b"junk\r\nWARC/1.0\r\n" * 50 + recs[1] + b"\x00")
    put("fuzz_warc", "noterm", recs[0][:-4] + recs[1] + b"\x00")
    # multi-MB: 6 MB of bare version lines between two records (a hang
    # once).  Run once per session (run.sh), not fuzzed: mutating 6 MB
    # inputs would take the run's time.
    put("fuzz_warc-regress", "flood", recs[0] + b"WARC/1.0\r\n" * 600000 + recs[1] + b"\x00")
    for name in ("news-b.warc", "cn.warc.gz", "mixed.warc.gz"):
        with open(os.path.join(TOP, "corpus-samples", name), "rb") as f:
            put("fuzz_warc", name, f.read())
    return recs


def archive_seeds(recs):
    warc = b"".join(recs)
    for mode, name in (("w", "tar"), ("w:gz", "tgz"), ("w:bz2", "tbz"), ("w:xz", "txz")):
        bio = io.BytesIO()
        with tarfile.open(fileobj=bio, mode=mode) as t:
            for n, data in (("a.warc", warc), ("p/page.html", PAGE),
                            ("b.warc.gz", gzip.compress(warc)), ("x.png", b"\x89PNG")):
                info = tarfile.TarInfo(n)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
        put("fuzz_archive", name, bio.getvalue())
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.warc", warc)
        z.writestr("page.htm", PAGE)
    put("fuzz_archive", "zip", bio.getvalue())
    put("fuzz_archive", "warc", warc)


def html_seeds():
    d = os.path.join(TOP, "tests", "data", "maintext")
    for n in sorted(os.listdir(d)):
        if n.endswith(".html"):
            with open(os.path.join(d, n), "rb") as f:
                data = f.read()
            put("fuzz_html", n, data[:200000])
    put("fuzz_html", "small", PAGE)
    put("fuzz_html", "script", b"<script><!--document.write('<script>x</script>');//--></script>"
        b"<!-- c --!><p>a &bigstar; &amp b</p><![CDATA[x]]><textarea><b></textarea>")


def charset_seeds():
    text = "Привет, мир. Это страница без объявления кодировки."
    put("fuzz_charset", "utf8", b"text/html; charset=utf-8\x00<p>" + text.encode() + b"</p>")
    put("fuzz_charset", "cp1251", b"text/html\x00<p>" + text.encode("cp1251") + b"</p>")
    put("fuzz_charset", "koi8r", b"\x00<p>" + text.encode("koi8_r") + b"</p>")
    put("fuzz_charset", "sjis", b"\x00<p>" + "日本語のページです。".encode("shift_jis") + b"</p>")
    put("fuzz_charset", "gbk", b"\x00<p>" + "中文网页内容。".encode("gbk") + b"</p>")
    put("fuzz_charset", "meta", b"\x00<meta charset=euc-kr><p>" + "한국어".encode("euc_kr"))
    put("fuzz_charset", "utf16", b"\x00" + "\ufeff<p>utf16</p>".encode("utf-16-le"))
    put("fuzz_charset", "lie", b"text/html; charset=utf-8\x00" + text.encode("cp1251"))


def fptext_seeds():
    put("fuzz_fptext", "keys", b"0123456789abcdef,http://a.example/1\n"
        b"0123456789ABCDEF,http://a.example/2\r\n\nffffffffffffffff\n")
    put("fuzz_fptext", "bad", b"zz\n0123456789abcde\n0123456789abcdef key\n"
        b"\r\n0000000000000001,k\x00ey\xff\n0000000000000002,")
    put("fuzz_fptext", "many", b"".join(b"%016x,u%d\n" % (i * 0x9e3779b97f4a7c15 % (1 << 64), i)
                                       for i in range(200)))


def ndf_seeds():
    if not BIN:
        return
    with tempfile.TemporaryDirectory() as tmp:
        docs = os.path.join(tmp, "docs.ndf")
        fps = os.path.join(tmp, "fps.ndf")
        env = dict(os.environ, NDD_LOG="error")
        samples = os.path.join(TOP, "corpus-samples")
        inputs = [os.path.join(samples, n) for n in ("news-b.warc", "mixed.warc.gz")]
        tables = os.path.join(tmp, "tables.ndf")
        ctables = os.path.join(tmp, "ctables.ndf")
        steps = [
            (["ndd-extract", "-q", "-o", docs] + inputs, docs),
            (["ndd-fingerprint", "-q", "-o", fps, docs], fps),
            (["ndd-permute-sort", "-q", "-k", "2", "-o", tables, fps], tables),
            (["ndd-compress", "-q", "-o", ctables, tables], ctables),
        ]
        for cmd, path in steps:
            try:
                rc = subprocess.run([os.path.join(BIN, cmd[0])] + cmd[1:], env=env,
                                    stderr=subprocess.DEVNULL).returncode
            except OSError:
                return
            if rc > 1 or not os.path.exists(path):
                return
            with open(path, "rb") as f:
                data = f.read()
            put("fuzz_ndf", os.path.basename(path), b"\x00" + data[:1 << 20])


def report_seeds():
    put("fuzz_report", "stats", b"\x00" + b'{"k": 6, "night": "a\\u00e9\\ud83d\\ude00", "extract": '
        b'{"skipped": {"total": 1, "truncated": 1}}, "l": [1.5e3, -0, true, false, null, "x"]}')
    put("fuzz_report", "clusters", b"\x01cluster_id,url,distance,is_representative\r\n"
        b'1,"http://a/""q"",b",0,1\r\n1,"two\nlines",3,0\r\n')
    put("fuzz_report", "title", b"\x02<script>alert('x')</script> & \xff\xfe \xc3\xa9 \xed\xa0\x80")


def regress_seeds():
    """tests/fuzz/regress/<target>/: inputs that once failed, run once per session."""
    d = os.path.join(TOP, "tests", "fuzz", "regress")
    for t in sorted(os.listdir(d)):
        for n in sorted(os.listdir(os.path.join(d, t))):
            with open(os.path.join(d, t, n), "rb") as f:
                put(t + "-regress", n, f.read())


def main():
    hs = http_seeds()
    recs = warc_seeds(hs)
    archive_seeds(recs)
    html_seeds()
    charset_seeds()
    fptext_seeds()
    ndf_seeds()
    report_seeds()
    regress_seeds()
    put("fuzz_ndf", "wrapped-fps", b"\x01\x01\x01\x00" + b"\x00" * 64)


main()
