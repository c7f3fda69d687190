#!/usr/bin/env python3
"""Text streams for bench/fpspeed.sh: a WARC of real documentation pages.

    python3 bench/fpspeed.py en|zh MEGABYTES OUT.warc

English: every page of python3-doc; Chinese: debian-reference-zh-cn and
maint-guide-zh-cn, one page per section.  Each page is the text of one
section or document in the template A of fpq_corpus.py; the set is
repeated with 1% of tokens edited (seeded) until MEGABYTES of main text,
so the stream has realistic word and character statistics and is not one
page over and over (which would flatter caches and branch predictors).
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpq_corpus as corpus  # noqa: E402


def english():
    top = "/usr/share/doc/python3/html"
    out = []
    for d, _, files in sorted(os.walk(top)):
        for n in sorted(files):
            if n.endswith(".html"):
                b = corpus.page_blocks(os.path.join(d, n), True)
                if corpus.text_size(b) > 500:
                    out.append(b)
    return out


def chinese():
    return [b for _, _, b in corpus.chinese_bases(100000)]


def main():
    lang, mb, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    texts = english() if lang == "en" else chinese()
    vocab = corpus.build_vocab([(lang, "", b) for b in texts])
    rng = random.Random(11)
    total, n = 0, 0
    with open(path, "wb") as f:
        while total < mb * 1e6:
            for b in texts:
                if n >= len(texts):
                    b = corpus.edit_blocks(b, 1, rng, vocab)
                body = corpus.template_a(lang, b[0][1][:60], b).replace("%CHARSET%", "utf-8")
                url = "http://speed-%s.example/%d.html" % (lang, n)
                f.write(corpus.warc_record(url, body.encode(), "utf-8", n))
                total += corpus.text_size(b)
                n += 1
                if total >= mb * 1e6:
                    break
    print("%s: %d pages, %.1f MB of text" % (path, n, total / 1e6))


if __name__ == "__main__":
    main()
