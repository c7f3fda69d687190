#!/usr/bin/env python3
"""Labelled corpus for the fingerprint quality evaluation (bench/fpquality.py).

Real texts from Debian documentation packages, planted into web pages:

  English: python3-doc (/usr/share/doc/python3/html/library/*.html), one
           base text per page (its leading blocks, up to MAX_TEXT bytes).
  Chinese: debian-reference-zh-cn and maint-guide-zh-cn, split into one
           base text per section (h2/h3), neighbouring sections kept in order.

Every base text is published on site template A, plus variants:
  exact     the same page bytes under another URL
  tpl-b     the same text under template B (another site: div layout,
            widgets sidebar, comments)
  tpl-c     the same text under template C (an old table layout)
  edit1/3/8/15  1, 3, 8, 15 % of the tokens substituted, deleted or
            inserted (seeded), template A
  reorder   paragraphs shuffled, template A
  charset   template A, served as windows-1252 (English) or GBK (Chinese)
Hard negatives: the other texts on template A (different texts, one
template), neighbouring texts of the same manual (same topic), and short
pages (one sentence) on template A; short pages also get an exact copy.

The truth of a pair is never the variant kind: it is the Jaccard
similarity of the planted main texts' 3-shingles of tokens, a token being
a word of a spaced script or one CJK character (so word 3-shingles for
English, character 3-grams for Chinese).  Only the Python standard library
is used; output is deterministic (random.Random with a fixed seed).
"""

import hashlib
import html
import html.parser
import os
import random
import re

MAX_TEXT = 12000     # bytes of base text kept per page
MIN_TEXT = 1200      # bytes below which a section is not a base text
EDIT_RATES = (1, 3, 8, 15)
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
TOKEN_RE = re.compile("[%s]|[^\\W%s_]+" % (CJK, CJK))
SPLIT_RE = re.compile("([%s]|[^\\W%s_]+)" % (CJK, CJK))

# ---------------------------------------------------------------------------
# Source texts: HTML documentation -> list of (level, text) blocks.
# ---------------------------------------------------------------------------

BLOCK_TAGS = {"p", "li", "dt", "dd", "pre", "h1", "h2", "h3", "h4", "tr",
              "blockquote", "caption"}
SKIP_CLASSES = {"navheader", "navfooter", "toc", "headerlink", "sphinxsidebar",
                "related", "footer", "list-of-tables", "list-of-figures"}


class Blocks(html.parser.HTMLParser):
    """Text blocks of a documentation page, skipping navigation."""

    def __init__(self, main_only):
        super().__init__(convert_charrefs=True)
        self.main_only = main_only
        self.stack = []          # (tag, skip, main) per open element
        self.blocks = []
        self.buf = []
        self.level = 0
        self.in_link = 0
        self.link_chars = 0

    def _flush(self):
        text = " ".join("".join(self.buf).split())
        # Link lists (tables of contents) are navigation, not main text.
        if text and self.link_chars < 0.7 * len(text):
            self.blocks.append((self.level, text))
        self.buf = []
        self.level = 0
        self.link_chars = 0

    def _state(self):
        return self.stack[-1][1:] if self.stack else (False, not self.main_only)

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "hr", "img", "meta", "link", "input", "wbr"):
            return
        a = dict(attrs)
        skip, main = self._state()
        cls = set((a.get("class") or "").split())
        skip = skip or tag in ("script", "style", "nav") or bool(cls & SKIP_CLASSES)
        main = main or a.get("role") == "main"
        if tag == "a":
            self.in_link += 1
        if tag in BLOCK_TAGS:
            self._flush()
            if tag in ("h1", "h2", "h3"):
                self.level = int(tag[1])
        self.stack.append((tag, skip, main))

    def handle_endtag(self, tag):
        if tag == "a" and self.in_link:
            self.in_link -= 1
        if tag in BLOCK_TAGS:
            self._flush()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        skip, main = self._state()
        if main and not skip:
            self.buf.append(data)
            if self.in_link:
                self.link_chars += len(data.strip())


def page_blocks(path, main_only):
    p = Blocks(main_only)
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    p._flush()
    return [(lvl, t.replace("\u00b6", "").strip()) for lvl, t in p.blocks if t.strip()]


def clip(blocks):
    out, size = [], 0
    for lvl, t in blocks:
        if size + len(t.encode()) > MAX_TEXT and out:
            break
        out.append((lvl, t))
        size += len(t.encode()) + 1
    return out


def text_size(blocks):
    return sum(len(t.encode()) + 1 for _, t in blocks)


def english_bases(limit):
    d = "/usr/share/doc/python3/html/library"
    names = sorted(n for n in os.listdir(d) if n.endswith(".html"))
    out = []
    for n in names:
        b = clip(page_blocks(os.path.join(d, n), True))
        if text_size(b) >= MIN_TEXT:
            out.append(("en", "python/" + n, b))
    step = max(1, len(out) // limit)
    # Every step-th page, but keep runs of two neighbours (same-topic pairs).
    return [x for i, x in enumerate(out) if i % step < 2][:limit]


def split_sections(blocks):
    secs, cur = [], []
    for lvl, t in blocks:
        if lvl in (2, 3) and cur:
            secs.append(cur)
            cur = []
        cur.append((lvl, t))
    if cur:
        secs.append(cur)
    return secs


def chinese_bases(limit):
    files = sorted("/usr/share/debian-reference/" + n
                   for n in os.listdir("/usr/share/debian-reference")
                   if n.endswith(".zh-cn.html") and n != "index.zh-cn.html")
    mg = "/usr/share/doc/maint-guide-zh-cn/html"
    if os.path.isdir(mg):
        files += sorted(os.path.join(mg, n) for n in os.listdir(mg) if n.endswith(".html"))
    out = []
    for f in files:
        for k, sec in enumerate(split_sections(page_blocks(f, False))):
            sec = clip(sec)
            han = sum(len(re.findall("[%s]" % CJK, t)) for _, t in sec)
            if text_size(sec) >= MIN_TEXT and han >= 200:
                out.append(("zh", "%s#%d" % (os.path.basename(f), k), sec))
    step = max(1, len(out) // limit)
    return [x for i, x in enumerate(out) if i % step < 2][:limit]


# ---------------------------------------------------------------------------
# Truth: 3-shingles of tokens, exact Jaccard.
# ---------------------------------------------------------------------------

def shingles(text):
    toks = TOKEN_RE.findall(text.lower())
    if len(toks) < 3:
        return {hash(tuple(toks))} if toks else set()
    return {hash((toks[i], toks[i + 1], toks[i + 2])) for i in range(len(toks) - 2)}


def jaccard(a, b):
    if not a and not b:
        return 1.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


# ---------------------------------------------------------------------------
# Variants of a text (a list of (level, text) blocks).
# ---------------------------------------------------------------------------

def edit_blocks(blocks, rate, rng, vocab):
    """Substitute (60%), delete (20%) or insert after (20%) rate% of tokens."""
    out = []
    for lvl, t in blocks:
        parts = SPLIT_RE.split(t)
        for i in range(1, len(parts), 2):
            if rng.random() * 100 >= rate:
                continue
            tok = parts[i]
            is_cjk = len(tok) == 1 and re.match("[%s]" % CJK, tok)
            new = rng.choice(vocab["zh" if is_cjk else "en"])
            op = rng.random()
            if op < 0.6:
                parts[i] = new
            elif op < 0.8:
                parts[i] = ""
            else:
                parts[i] = tok + ("" if is_cjk else " ") + new
        out.append((lvl, " ".join("".join(parts).split())))
    return [(lvl, t) for lvl, t in out if t]


def reorder_blocks(blocks, rng):
    b = list(blocks)
    for _ in range(10):
        rng.shuffle(b)
        if b != list(blocks):
            break
    return b


def build_vocab(bases):
    en, zh = set(), set()
    for _, _, blocks in bases:
        for _, t in blocks:
            for tok in TOKEN_RE.findall(t):
                (zh if re.match("[%s]" % CJK, tok) else en).add(tok)
    return {"en": sorted(en), "zh": sorted(zh)}


# ---------------------------------------------------------------------------
# Pages: a text in a site template.
# ---------------------------------------------------------------------------

def body_html(blocks):
    out = []
    for lvl, t in blocks:
        tag = "h%d" % lvl if lvl else "p"
        out.append("<%s>%s</%s>" % (tag, html.escape(t, quote=False), tag))
    return "\n".join(out)


def links(items, fmt):
    return "\n".join(fmt % (i, html.escape(x)) for i, x in enumerate(items))


EN_NAV = ["Home", "Docs", "Tutorials", "Library", "Language", "Downloads", "Community",
          "Events", "Jobs", "Blog", "Forum", "Mailing lists", "Security", "About",
          "Contact", "Donate", "Sponsors", "Careers", "Press", "Status", "Shop",
          "Newsletter", "Podcasts", "Videos", "Books"]
ZH_NAV = ["首页", "文档", "教程", "软件库", "语言参考", "下载", "社区", "活动", "招聘",
          "博客", "论坛", "邮件列表", "安全公告", "关于我们", "联系方式", "捐赠", "赞助商",
          "加入我们", "媒体报道", "服务状态", "商店", "订阅", "播客", "视频", "图书"]
EN_FOOT = ("Copyright 2001-2026 the Example Documentation Portal and contributors. All "
           "rights reserved. The content of this site is licensed under the terms of the "
           "documentation licence; code samples are available under the zero clause licence. "
           "This site uses cookies to measure traffic and remember your preferences; by "
           "continuing to browse you accept our privacy policy and terms of use. Hosting is "
           "donated by our infrastructure sponsors. Found a bug in the documentation? Report "
           "it on the issue tracker or send a patch to the mailing list.")
ZH_FOOT = ("版权所有 2001-2026 示例文档门户及其贡献者。保留所有权利。本站内容依据文档许可证"
           "授权发布，示例代码以零条款许可证提供。本站使用 Cookie 统计访问量并记住您的偏好，"
           "继续浏览即表示您同意我们的隐私政策和使用条款。主机由基础设施赞助商捐赠。发现文档"
           "错误？请在问题跟踪系统中报告，或者向邮件列表发送补丁。京ICP备00000000号")
EN_SIDE = ["Getting started with virtual environments", "What is new in this release",
           "Frequently asked questions about packaging", "How to report a security issue",
           "Installing from source on Linux", "Style guide for contributors",
           "Release schedule and support periods", "Glossary of terms"]
ZH_SIDE = ["虚拟环境入门指南", "本版本的新特性", "打包常见问题解答", "如何报告安全问题",
           "在 Linux 上从源码安装", "贡献者风格指南", "发布计划与支持周期", "术语表"]


def template_a(lang, title, blocks):
    nav, side, foot = (ZH_NAV, ZH_SIDE, ZH_FOOT) if lang == "zh" else (EN_NAV, EN_SIDE, EN_FOOT)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"%%CHARSET%%\"><title>%s | Docs Portal"
            "</title><link rel=\"stylesheet\" href=\"/s.css\"></head>\n<body>\n"
            "<div class=\"cookie-banner\">%s <a href=\"/privacy\">OK</a></div>\n"
            "<header class=\"site-header\"><a class=\"logo\" href=\"/\">Docs Portal</a>"
            "<form class=\"search\"><input name=q></form></header>\n<nav class=\"main-nav\"><ul>\n%s\n"
            "</ul></nav>\n<div class=\"breadcrumb\"><a href=\"/\">%s</a> &gt; <a href=\"/docs\">%s</a></div>\n"
            "<main><article class=\"doc\">\n%s\n</article></main>\n"
            "<aside class=\"sidebar\"><h3>%s</h3><ul>\n%s\n</ul></aside>\n"
            "<footer class=\"site-footer\"><p>%s</p></footer>\n"
            "<script>var _track = {site: 'docs', page: location.pathname};</script>\n"
            "</body></html>\n") % (
        html.escape(title), foot[:80], links(nav, "<li><a href=\"/s%d\">%s</a></li>"),
        nav[0], nav[1], body_html(blocks), side[-1],
        links(side, "<li><a href=\"/p%d\">%s</a></li>"), foot)


def template_b(lang, title, blocks):
    nav, side, foot = (ZH_NAV, ZH_SIDE, ZH_FOOT) if lang == "zh" else (EN_NAV, EN_SIDE, EN_FOOT)
    comment = ("谢谢分享，这篇文章对我很有帮助！" if lang == "zh" else
               "Thanks for sharing, this was really helpful! Bookmarked for later.")
    return ("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=%%CHARSET%%\">"
            "<title>%s - Mirror Blog</title></head><body><div id=\"wrapper\">\n"
            "<div id=\"top\"><div class=\"menu\">%s</div></div>\n"
            "<div id=\"content\"><div class=\"post\"><h1 class=\"entry-title\">%s</h1>"
            "<div class=\"meta\">Posted by admin in Docs | 3 comments</div>\n"
            "<div class=\"entry-content\">\n%s\n</div></div>\n"
            "<div class=\"comments\"><h3>3 comments</h3><div class=\"comment\">%s</div>"
            "<div class=\"comment\">%s</div><form><textarea></textarea></form></div></div>\n"
            "<div id=\"sidebar\"><div class=\"widget\"><h4>Recent posts</h4>%s</div>"
            "<div class=\"widget\"><h4>Tags</h4>%s</div></div>\n"
            "<div id=\"bottom\">%s Powered by a blog engine.</div></div></body></html>\n") % (
        html.escape(title), links(nav[:15], " <a href=\"/c%d\">%s</a> |"), html.escape(title),
        body_html(blocks), comment, comment, links(side, "<a href=\"/r%d\">%s</a><br>"),
        links(nav[10:], "<a href=\"/t%d\">%s</a> "), foot[:200])


def template_c(lang, title, blocks):
    nav, side, foot = (ZH_NAV, ZH_SIDE, ZH_FOOT) if lang == "zh" else (EN_NAV, EN_SIDE, EN_FOOT)
    return ("<html><head><meta charset=\"%%CHARSET%%\"><title>%s</title></head><body>"
            "<table width=\"100%%\"><tr><td colspan=2 class=\"banner\">Classic Docs Archive"
            " - %s</td></tr>\n<tr><td class=\"left\" width=\"180\">%s</td>\n"
            "<td class=\"body\">\n%s\n</td></tr>\n<tr><td colspan=2 class=\"bottom\"><small>%s"
            "</small></td></tr></table></body></html>\n") % (
        html.escape(title), side[0], links(nav, "<a href=\"/n%d\">%s</a><br>"),
        body_html(blocks), foot)


TEMPLATES = {"a": template_a, "b": template_b, "c": template_c}


# ---------------------------------------------------------------------------
# The corpus: pages with their planted texts, and the labelled pairs.
# ---------------------------------------------------------------------------

class Page:
    def __init__(self, url, family, kind, lang, blocks, html_text, charset):
        self.url, self.family, self.kind, self.lang = url, family, kind, lang
        self.text = "\n".join(t for _, t in blocks)
        self.charset = charset
        self.html = html_text.replace("%CHARSET%", charset)
        self.sh = shingles(self.text)


def encode_page(p):
    codec = {"utf-8": "utf-8", "windows-1252": "cp1252", "gbk": "gbk"}[p.charset]
    return p.html.encode(codec, errors="xmlcharrefreplace")


def make_family(fam, lang, name, blocks, rng, vocab):
    title = blocks[0][1][:80]
    base_url = "http://docs-%s.example/%s" % (lang, name.replace("#", "/s"))
    pages = []

    def add(kind, blks, tpl="a", charset="utf-8", host=None):
        url = base_url if kind == "base" else base_url.replace("docs-", "%s.docs-" % kind)
        if host:
            url = "http://%s.example/%s" % (host, name.replace("#", "/s"))
        pages.append(Page(url, fam, kind, lang, blks, TEMPLATES[tpl](lang, title, blks), charset))

    add("base", blocks)
    add("exact", blocks)
    add("tpl-b", blocks, "b", host="mirror-blog-" + lang)
    add("tpl-c", blocks, "c", host="classic-archive-" + lang)
    for r in EDIT_RATES:
        add("edit%d" % r, edit_blocks(blocks, r, rng, vocab))
    add("reorder", reorder_blocks(blocks, rng))
    add("charset", blocks, charset="gbk" if lang == "zh" else "windows-1252")
    pages[1].html = pages[0].html   # exact copy: same bytes
    return pages


def short_pages(bases, rng, n):
    """One-sentence pages on template A: hard negatives, half with an exact copy."""
    out = []
    picks = rng.sample(range(len(bases)), min(n, len(bases)))
    for j, i in enumerate(picks):
        lang, name, blocks = bases[i]
        para = max((t for _, t in blocks), key=len)
        sent = re.split("(?<=[.。!?！？])\\s*", para)[0]
        sent = sent[:60] if lang == "zh" else " ".join(sent.split()[:25])
        blk = [(1, sent[:30]), (0, sent)]
        fam = "short-%d" % j
        url = "http://docs-%s.example/notes/%d.html" % (lang, j)
        out.append(Page(url, fam, "short", lang, blk, template_a(lang, sent[:30], blk), "utf-8"))
        if j % 2 == 0:
            p = Page(url.replace("docs-", "copy.docs-"), fam, "short-exact", lang, blk,
                     template_a(lang, sent[:30], blk), "utf-8")
            out.append(p)
    return out


def build(n_en, n_zh, n_short, seed=4):
    rng = random.Random(seed)
    bases = english_bases(n_en) + chinese_bases(n_zh)
    vocab = build_vocab(bases)
    pages = []
    for i, (lang, name, blocks) in enumerate(bases):
        pages += make_family("f%d" % i, lang, name, blocks, rng, vocab)
    pages += short_pages(bases, rng, n_short)
    # Neighbours: consecutive bases of the same source (same manual/topic).
    neighbours = [("f%d" % i, "f%d" % (i + 1)) for i in range(len(bases) - 1)
                  if bases[i][0] == bases[i + 1][0]]
    return pages, neighbours


def warc_record(url, body, charset, idx):
    http = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=%s\r\n"
            "Content-Length: %d\r\n\r\n" % (charset, len(body))).encode() + body
    rid = hashlib.sha1(url.encode()).hexdigest()
    head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
            "WARC-Date: 2026-01-01T00:%02d:%02dZ\r\nWARC-Record-ID: <urn:uuid:%s-%s-%s-%s-%s>\r\n"
            "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
            % (url, idx // 60 % 60, idx % 60, rid[:8], rid[8:12], rid[12:16], rid[16:20],
               rid[20:32], len(http))).encode()
    return head + http + b"\r\n\r\n"


def write_warc(pages, path):
    """One WARC; the pages interleaved (seeded) so copies are far apart."""
    order = list(range(len(pages)))
    random.Random(7).shuffle(order)
    with open(path, "wb") as f:
        for n, i in enumerate(order):
            f.write(warc_record(pages[i].url, encode_page(pages[i]), pages[i].charset, n))
