#!/usr/bin/env python3
"""maintext_ref.py - reference texts of the main-content quality set.

The set (tests/data/maintext/) holds real pages from Debian documentation
packages.  For each page the manifest names, by simple CSS selectors, the
element that holds the main content in that site template, the chrome
inside it (a texinfo page's navigation header sits inside its chapter div),
and the navigation/footer elements of the page.  This tool reads the
committed pages and writes, beside each NAME.html:

  NAME.ref.txt     the visible text of the main element (minus the chrome
                   inside it), one block per line, blanks collapsed;
  NAME.chrome.txt  one line per text block of the page's navigation and
                   footer elements that is long enough to be telling
                   (>= 2 words or >= 4 CJK characters) and does NOT occur in
                   the reference: ndd-extract's text must contain none.

It uses only the standard library (html.parser), independent of the C
extractor it judges.  Usage:

  maintext_ref.py DIR            regenerate DIR/*.ref.txt, DIR/*.chrome.txt
  maintext_ref.py --check DIR    exit 1 if a committed file would change
  maintext_ref.py --import DIR   copy the pages named in DIR/manifest.tsv
                                 from the installed packages, then regenerate

manifest.tsv columns (tab-separated, '#' starts a comment line):
  name package version template copyright source main drop chrome
where main, drop and chrome are selector lists: "sel, sel" of simple
selectors tag, .class, #id, [attr=value], [attr^=prefix] and their
combinations (div.body, div[role=main]); "-" for none.  The first element
matching main is the main content; every element matching drop inside it
is left out; every element matching chrome anywhere gives the chrome lines.
"""
import html.parser
import os
import re
import shutil
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr", "keygen"}
# Text a reader never sees.
INVISIBLE = {"script", "style", "template", "head", "title", "noscript", "svg", "math",
             "iframe", "object", "canvas", "audio", "video", "select", "textarea", "button"}
BLOCK = {"address", "article", "aside", "blockquote", "body", "br", "caption", "center",
         "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
         "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
         "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p", "pre", "section",
         "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"}
# Start tags that end an open <p> (as an HTML parser would).
CLOSES_P = BLOCK - {"br", "body", "html", "td", "th", "tr", "tbody", "thead", "tfoot",
                    "caption"}
SIBLINGS = {"li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "tr": {"tr"},
            "td": {"td", "th"}, "th": {"td", "th"}, "option": {"option"}}
# Blanks collapsed the way the extractor does: ASCII white space and NBSP;
# U+3000 and other Unicode spaces are left as characters.
BLANKS = re.compile("[ \t\n\r\f\v\xa0]+")


class Node:
    __slots__ = ("tag", "attrs", "children", "parent")

    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.children, self.parent = tag, attrs, [], parent


class TreeBuilder(html.parser.HTMLParser):
    """A forgiving tree: void elements, implicit </p>, </li>, </td>..."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root

    def _close_to(self, node):
        self.cur = node.parent

    def _open(self, tag):
        n = self.cur
        while n is not self.root:
            if n.tag == tag:
                return n
            n = n.parent
        return None

    def handle_starttag(self, tag, attrs):
        if tag in CLOSES_P and self.cur.tag == "p":
            self._close_to(self.cur)
        if tag in SIBLINGS:
            n = self.cur
            stop = {"ul", "ol", "dl", "table", "select"}
            while n is not self.root and n.tag not in stop:
                if n.tag in SIBLINGS[tag]:
                    self._close_to(n)
                    break
                n = n.parent
        node = Node(tag, {k: (v or "") for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.cur.tag == tag:
            self._close_to(self.cur)

    def handle_endtag(self, tag):
        n = self._open(tag)
        if n is not None:
            self._close_to(n)

    def handle_data(self, data):
        self.cur.children.append(data)


SIMPLE = re.compile(r"([a-z0-9]*)((?:[.#][-\w]+|\[[-\w]+\^?=[^\]]*\])*)$")
PART = re.compile(r"\.([-\w]+)|#([-\w]+)|\[([-\w]+)(\^?)=([^\]]*)\]")


def parse_selectors(text):
    """'div.body, div[role=main]' -> list of (tag, [(kind, name, value)])."""
    if text == "-":
        return []
    out = []
    for sel in text.split(","):
        m = SIMPLE.match(sel.strip())
        if not m:
            raise ValueError("bad selector %r" % sel)
        conds = []
        for cls, ident, attr, prefix, value in PART.findall(m.group(2)):
            if cls:
                conds.append(("class", cls, None))
            elif ident:
                conds.append(("=", "id", ident))
            else:
                conds.append(("^=" if prefix else "=", attr, value))
        out.append((m.group(1), conds))
    return out


def matches(node, selectors):
    for tag, conds in selectors:
        if tag and node.tag != tag:
            continue
        ok = True
        for kind, name, value in conds:
            if kind == "class":
                ok = name in node.attrs.get("class", "").split()
            elif kind == "=":
                ok = node.attrs.get(name) == value
            else:
                ok = node.attrs.get(name, "").startswith(value)
            if not ok:
                break
        if ok:
            return True
    return False


def hidden(node):
    style = node.attrs.get("style", "").replace(" ", "").lower()
    return ("hidden" in node.attrs or "display:none" in style or
            "visibility:hidden" in style)


def walk(node, selectors, found):
    """Every element matching @selectors, outermost only, in document order."""
    for c in node.children:
        if isinstance(c, Node):
            if matches(c, selectors):
                found.append(c)
            else:
                walk(c, selectors, found)
    return found


def blocks(node, drop, out, cur):
    """Visible text of @node as a list of block strings (appended to @out)."""
    for c in node.children:
        if isinstance(c, str):
            cur.append(c)
            continue
        if c.tag in INVISIBLE or hidden(c) or (drop and matches(c, drop)):
            if c.tag in BLOCK:
                flush(out, cur)
            continue
        is_block = c.tag in BLOCK
        if is_block:
            flush(out, cur)
        blocks(c, drop, out, cur)
        if is_block:
            flush(out, cur)
    return out


def flush(out, cur):
    text = BLANKS.sub(" ", "".join(cur)).strip()
    cur.clear()
    if text:
        out.append(text)


def is_cjk(ch):
    o = ord(ch)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or
            0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FFFF)


def telling(line):
    """Long enough that finding it in the output cannot be chance."""
    cjk = sum(1 for ch in line if is_cjk(ch))
    words = len(re.findall(r"[^\W_]+", line))
    return cjk >= 4 or words - cjk >= 2 and len(line) >= 8


def page_texts(path, main_sel, drop_sel, chrome_sel):
    tb = TreeBuilder()
    with open(path, encoding="utf-8", errors="replace") as f:
        tb.feed(f.read())
    tb.close()
    mains = walk(tb.root, main_sel, [])
    if not mains:
        raise ValueError("%s: no element matches the main selector" % path)
    ref = blocks(mains[0], drop_sel, [], [])
    flat = " ".join(ref)
    chrome = []
    for node in walk(tb.root, chrome_sel, []):
        for line in blocks(node, [], [], []):
            if telling(line) and line not in flat and line not in chrome:
                chrome.append(line)
    return ref, chrome


def read_manifest(d):
    rows = []
    with open(os.path.join(d, "manifest.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 9:
                raise ValueError("manifest: %d columns in %r" % (len(cols), line))
            rows.append(dict(zip(("name", "package", "version", "template", "copyright",
                                  "source", "main", "drop", "chrome"), cols)))
    return rows


def generate(d, row):
    page = os.path.join(d, row["name"] + ".html")
    ref, chrome = page_texts(page, parse_selectors(row["main"]), parse_selectors(row["drop"]),
                             parse_selectors(row["chrome"]))
    return {row["name"] + ".ref.txt": "\n".join(ref) + "\n",
            row["name"] + ".chrome.txt": "".join(l + "\n" for l in chrome)}


def main(argv):
    mode = argv[1] if len(argv) == 3 else None
    if len(argv) not in (2, 3) or mode not in (None, "--check", "--import"):
        sys.stderr.write("usage: maintext_ref.py [--check | --import] DIR\n")
        return 2
    d = argv[-1]
    stale = 0
    for row in read_manifest(d):
        if mode == "--import":
            shutil.copyfile(row["source"], os.path.join(d, row["name"] + ".html"))
        for name, text in generate(d, row).items():
            path = os.path.join(d, name)
            if mode == "--check":
                try:
                    with open(path, encoding="utf-8") as f:
                        same = f.read() == text
                except OSError:
                    same = False
                if not same:
                    sys.stderr.write("maintext_ref: %s is stale\n" % path)
                    stale = 1
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    return stale


if __name__ == "__main__":
    sys.exit(main(sys.argv))
