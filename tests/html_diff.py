#!/usr/bin/python3
"""Differential test of ndd's HTML tokenizer against html5lib, a parser
that follows the WHATWG spec: the visible text of each page, as
test_html_visible --visible prints it and as html5lib's tree has it, must
be the same.

    html_diff.py VISIBLE_BIN [--generated N] [--seed S] [--real PAGES.warc.gz]

Visible text (both sides): the text nodes in document order, but those
inside script, style, xmp, iframe, noembed, noframes and noscript
(html5lib with scripting on, as browsers); comments are not text;
runs of bytes <= ' ' and U+00A0 become one space, trimmed.  Pages are
given to both as the same Unicode text (the real pages decoded by their
declared charset), so only the tokenizer and character references are
compared.  Generated pages are random tag soup made of the pieces that
change visible text: script data and its escapes, comments and their
odd ends, bogus comments, CDATA in HTML and in svg/math, RCDATA and
RAWTEXT elements, plaintext, character references of every kind, stray
'<' and '&', and pages cut anywhere.  Tables, select and frameset are
left out: there html5lib's tree builder moves or drops text (foster
parenting), which is tree building, not tokenizing.

Exit status 0 when >= 99.9% of generated pages and every real page agree.
"""
import gzip
import html.entities
import os
import random
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import html5lib

HIDDEN = {"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript"}
BLANKS = re.compile("[\x00-\x20\xa0]+")


def collapse(s):
    return BLANKS.sub(" ", s).strip(" ")


def html5lib_visible(text):
    doc = html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False, scripting=True)
    out = []

    def walk(el, hidden):
        tag = el.tag
        is_comment = not isinstance(tag, str)
        h = hidden or (isinstance(tag, str) and tag in HIDDEN)
        if el.text and not h and not is_comment:
            out.append(el.text)
        for child in el:
            walk(child, h)
            if child.tail and not hidden:
                out.append(child.tail)

    walk(doc, False)
    return collapse("".join(out))


# ---- generated pages ----

WORDS = ["alpha", "Beta", "gamma", "x", "1<2", "a & b", "caf\u00e9", "\u4e2d\u6587", "  ", "\n", "\t",
         "na\u00efve", "-->", "--!>", "]]>", "</", "<", "<3", "a<b", "&", "&;", "&&", "=", "'", '"', "\u00a0"]
NAMED = sorted(k for k in html.entities.html5)
REFS = ["&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;", "&copy", "&copy;", "&not", "&notin;", "&notit;",
        "&noti", "&amp", "&ampx", "&ltx", "&bigstar;", "&NonBreakingSpace;", "&Amacr;", "&nGt;",
        "&#65;", "&#x41;", "&#65", "&#x41g", "&#128;", "&#x81;", "&#x9F;", "&#0;", "&#xD800;",
        "&#x110000;", "&#99999999999;", "&#;", "&#x;", "&#xZ;", "&unknown;", "&Amp;", "&AMP",
        "&#13;", "&#x0000000041;", "&#12345678;"]
TAGS = ["p", "div", "span", "b", "i", "em", "a", "li", "ul", "h1", "code", "section", "article",
        "font", "custom-el", "P", "DiV", "br", "img", "hr"]
RAWS = ["style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea"]


def attrs(r):
    out = ""
    for _ in range(r.randrange(3)):
        name = r.choice(["class", "id", "href", "title", "data-x", "x", "CLASS"])
        val = r.choice(['"a > b"', "'c'", "d", '"&amp;"', '"&not=1"', "'<p>'", '""', "e/f"])
        out += " %s=%s" % (name, val) if r.random() < 0.8 else " " + name
    if r.random() < 0.1:
        out += " /"
    return out


def text_piece(r):
    k = r.random()
    if k < 0.5:
        return r.choice(WORDS)
    if k < 0.8:
        return r.choice(REFS)
    name = r.choice(NAMED)
    return "&" + name if r.random() < 0.8 else "&" + name.rstrip(";")


def script_piece(r):
    bodies = ["var a = 1 < 2;", "<!--", "-->", "<script>", "</script>", "<SCRIPT ", "</SCRIPT>",
              "<script", "</scripts>", "<!-- a", "--!>", "-", "--", ">", "<", "</", "document.write(\"",
              "\");", "x", "</scrip", "<!---->", "<scriptx>", "\n", "</script ", "</script/"]
    return "".join(r.choice(bodies) for _ in range(r.randrange(1, 10)))


def comment_piece(r):
    return r.choice(["<!-- c -->", "<!-- c --!>", "<!---->", "<!-->", "<!--->", "<!-- a -- b -->",
                     "<!-- a --!x -->", "<!-- -- ->", "<!--<!-- -->", "<!-- c ---!>", "<!-- x --->",
                     "<!--->-->", "<!DOCTYPE html>", "<!doctype x \"a>b\">", "<?php x ?>", "<!x>",
                     "</ x>", "</>", "</3>", "<![CDATA[ a > b ]]>", "<![CDATA[x]]>", "<!--"])


def foreign_piece(r, depth):
    root = r.choice(["svg", "math", "SVG"])
    inner = ["<![CDATA[ c<d>&amp; ]]>", "<title>t&amp;</title>", "<desc><script>s</script>d</desc>",
             "<foreignObject><p>fo</p><![CDATA[fc]]></foreignObject>", "<style>st</style>",
             "<script>sc<b>b</b></script>", "<g/>", "<path d='x'/>", "<text>tx</text>",
             "<mi><style>ms</style></mi>", "<mtext><![CDATA[mt]]></mtext>", "<p>out</p>", "<b>br</b>",
             "<font>f</font>", "<textarea>ta</textarea>", "<plaintext>"[:0]]
    body = "".join(r.choice(inner) if r.random() < 0.7 else text_piece(r) for _ in range(r.randrange(1, 6)))
    return "<%s>%s</%s>" % (root, body, root) if r.random() < 0.9 else "<%s>%s" % (root, body)


def page(r, depth=0):
    out = []
    for _ in range(r.randrange(1, 25)):
        k = r.random()
        if k < 0.3:
            out.append(text_piece(r))
        elif k < 0.5:
            t = r.choice(TAGS)
            out.append("<%s%s>" % (t, attrs(r)) if r.random() < 0.6 else "</%s>" % t)
        elif k < 0.6:
            out.append("<script%s>%s%s" % (attrs(r), script_piece(r),
                                           "</script>" if r.random() < 0.9 else ""))
        elif k < 0.7:
            out.append(comment_piece(r))
        elif k < 0.8:
            t = r.choice(RAWS)
            body = "".join(text_piece(r) if r.random() < 0.5 else r.choice(["<b>", "</b>", "</%s" % t, "<!--", "-->"])
                           for _ in range(r.randrange(4)))
            out.append("<%s>%s%s" % (t, r.choice(["", "\n", "\r\n"]) + body,
                                     "</%s>" % t.upper() if r.random() < 0.3 else "</%s>" % t))
        elif k < 0.88:
            out.append(foreign_piece(r, depth))
        elif k < 0.93:
            out.append("<pre>%s%s</pre>" % (r.choice(["\n", "", "\r\n", "\n\n"]), text_piece(r)))
        else:
            out.append(r.choice(["<", "&", "<a", "</a", "<a href='x", "< p>", "<p<b>", "<p/>", "<1>"]))
    s = "".join(out)
    if r.random() < 0.03:
        s += "<plaintext>" + text_piece(r) + "<b>&amp;</b>"
    if r.random() < 0.1:
        s = s[: r.randrange(len(s) + 1)]
    return s


# ---- real pages ----

def warc_pages(path):
    data = gzip.open(path, "rb").read()
    i = 0
    while True:
        j = data.find(b"WARC/1.", i)
        if j < 0:
            return
        h = data.find(b"\r\n\r\n", j)
        hdr = data[j:h].decode("latin-1")
        n = int(re.search(r"Content-Length:\s*(\d+)", hdr, re.I).group(1))
        block = data[h + 4:h + 4 + n]
        i = h + 4 + n
        if "WARC-Type: response" not in hdr:
            continue
        k = block.find(b"\r\n\r\n")
        head, body = block[:k].decode("latin-1"), block[k + 4:]
        uri = re.search(r"WARC-Target-URI:\s*(\S+)", hdr).group(1)
        m = re.search(r"charset=([\w-]+)", head, re.I)
        cs = m.group(1).lower() if m else "utf-8"
        if cs in ("gb2312", "gbk"):
            cs = "gb18030"
        yield uri, body.decode(cs, errors="replace")


def c_visible(binary, pages):
    with tempfile.NamedTemporaryFile("wb", delete=False) as f:
        for p in pages:
            b = p.encode("utf-8", errors="surrogatepass")
            f.write(b"%d\n" % len(b))
            f.write(b)
        name = f.name
    try:
        out = subprocess.run([binary, "--visible", name], check=True, stdout=subprocess.PIPE).stdout
    finally:
        os.unlink(name)
    lines = out.split(b"\n")[:-1]
    assert len(lines) == len(pages)
    return [l.decode("utf-8", errors="replace") for l in lines]


def first_diff(a, b):
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return i


def main():
    args = sys.argv[1:]
    binary = args.pop(0)
    n_gen, seed, real = 2000, 1, None
    while args:
        a = args.pop(0)
        if a == "--generated":
            n_gen = int(args.pop(0))
        elif a == "--seed":
            seed = int(args.pop(0))
        elif a == "--real":
            real = args.pop(0)
    ok = True
    r = random.Random(seed)
    pages = [page(r) for _ in range(n_gen)]
    # html5lib reads "\r" as "\n" and drops U+0000 in text; keep both out
    pages = [p.replace("\x00", "") for p in pages]
    mine = c_visible(binary, pages)
    bad = []
    for i, p in enumerate(pages):
        theirs = html5lib_visible(p)
        if theirs != mine[i]:
            bad.append((p, mine[i], theirs))
    agree = len(pages) - len(bad)
    rate = 100.0 * agree / max(1, len(pages))
    print("generated pages (seed %d): %d of %d agree (%.2f%%)" % (seed, agree, len(pages), rate))
    for p, m, t in bad[:5]:
        k = first_diff(m, t)
        print("  page %r\n    ndd     %r\n    html5lib %r" % (p[:300], m[max(0, k - 40):k + 60], t[max(0, k - 40):k + 60]))
    if n_gen and rate < 99.9:
        ok = False
    if real:
        rp = list(warc_pages(real))
        mine = c_visible(binary, [t for _, t in rp])
        bad = 0
        for (uri, text), m in zip(rp, mine):
            t = html5lib_visible(text)
            if t != m:
                bad += 1
                k = first_diff(m, t)
                print("  real page %s differs at %d:\n    ndd      %r\n    html5lib %r" %
                      (uri, k, m[max(0, k - 60):k + 80], t[max(0, k - 60):k + 80]))
        print("real pages: %d of %d agree" % (len(rp) - bad, len(rp)))
        ok = ok and bad == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
