#!/usr/bin/env python3
"""Write the corpus of tests/t_match.sh: one WARC of seed 004's four
duplicate types on two templates of one host and a third of another.

usage: match_corpus.py OUT.warc

Host a.example serves its news on template N and its blog on template B,
host b.example on template C; each template carries five filler articles
(so that ndd-template learns it) besides the pages under test, all
variants of one article X (first page, a.example/news/x):

  url                          what                                   type against news/x
  a.example/news/x?ref=feed    the same bytes                         exact
  a.example/news/x?print=0     the same text and template, other bytes exact
  a.example/news/x?rev=2       X with a sentence rewritten, template N same-layout
  a.example/blog/x             X on template B (the same host)        same-content
  b.example/story/x            X on template C (another host)         same-content
  b.example/story/x-digest     most of X and a new sentence, template C partial

Everything is derived from fixed seeds: the same bytes on every run.
"""
import random
import sys

WORDS = None


def vocabulary():
    rnd = random.Random(4)
    cons, vow = 'bcdfghklmnprstvz', 'aeiou'
    words = set()
    while len(words) < 3000:
        n = rnd.randint(2, 4)
        words.add(''.join(rnd.choice(cons) + rnd.choice(vow) for _ in range(n)))
    return sorted(words)


def sentences(seed, n):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rnd.choice(WORDS) for _ in range(rnd.randint(12, 20))]
        out.append(' '.join(words).capitalize() + '.')
    return out


def paragraphs(sents, per=4):
    return [' '.join(sents[i:i + per]) for i in range(0, len(sents), per)]


TEMPLATES = {
    'N': dict(
        menu=['Home', 'World', 'Business', 'Science', 'Sport', 'Culture', 'Opinion'],
        promo='Subscribe to the Alpha Daily newsletter and get the morning briefing in your inbox.',
        side=['Most read this week on Alpha Daily', 'Weather for the region tomorrow',
              'Letters to the editor of Alpha Daily'],
        foot='Copyright 2026 Alpha Daily Media. All rights reserved. Terms of use and privacy.',
        cls='news'),
    'B': dict(
        menu=['Blog home', 'Archive', 'Authors', 'Tags', 'About the blog'],
        promo='Comments are moderated by the Alpha blog team before they are published here.',
        side=['Popular tags on the Alpha blog', 'Blogroll of friendly writers',
              'Follow the Alpha blog on social networks'],
        foot='The Alpha blog is written by the staff of Alpha Daily. Content licensed CC BY.',
        cls='blog'),
    'C': dict(
        menu=['Front page', 'Local', 'National', 'Tech', 'Health', 'Travel'],
        promo='Become a Beta Courier member to read every story without limits this year.',
        side=['Beta Courier podcasts for your commute', 'Corrections and clarifications',
              'Contact the Beta Courier newsroom'],
        foot='Beta Courier Publishing Ltd. Registered in the county. All rights reserved.',
        cls='courier'),
}


def page(tpl, title, paras, token=''):
    t = TEMPLATES[tpl]
    menu = ''.join('<li><a href="/%s">%s</a></li>' % (m.lower().replace(' ', '-'), m)
                   for m in t['menu'])
    side = ''.join('<div class="widget"><a href="/w%d">%s</a></div>' % (i, s)
                   for i, s in enumerate(t['side']))
    body = ''.join('<p>%s</p>' % p for p in paras)
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title></head>'
            '<body class="%s"><div class="menu"><ul>%s</ul></div>'
            '<div class="promo">%s</div>'
            '<div class="content"><h1>%s</h1>%s</div>'
            '<div class="sidebar">%s</div>'
            '<div class="legal">%s</div>%s</body></html>'
            % (title, t['cls'], menu, t['promo'], title, body, side, t['foot'], token)).encode()


def record(url, body, n):
    http = (b'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n'
            b'Content-Length: %d\r\n\r\n' % len(body)) + body
    head = ('WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n'
            'WARC-Date: 2026-11-25T00:00:%02dZ\r\n'
            'WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n'
            'Content-Type: application/http; msgtype=response\r\n'
            'Content-Length: %d\r\n\r\n' % (url, n % 60, n, len(http))).encode()
    return head + http + b'\r\n\r\n'


def main():
    global WORDS
    if len(sys.argv) != 2:
        sys.exit(__doc__.split('\n\n')[1])
    WORDS = vocabulary()
    x = sentences(1, 24)
    title = 'The long story of the river towns'
    pages = []
    for tpl, host, path in (('N', 'a.example', 'news'), ('B', 'a.example', 'blog'),
                            ('C', 'b.example', 'story')):
        for i in range(5):
            pages.append(('http://%s/%s/filler-%d' % (host, path, i),
                          page(tpl, 'Filler %s %d' % (tpl, i), paragraphs(sentences(100 + 10 * i + ord(tpl), 10)))))
    first = page('N', title, paragraphs(x))
    edited = list(x)
    edited[7] = sentences(2, 1)[0]
    digest = x[2:22] + sentences(3, 1)
    pages += [
        ('http://a.example/news/x', first),
        ('http://a.example/news/x?ref=feed', first),
        ('http://a.example/news/x?print=0', page('N', title, paragraphs(x), '<!-- served by node 7 -->')),
        ('http://a.example/news/x?rev=2', page('N', title, paragraphs(edited))),
        ('http://a.example/blog/x', page('B', title, paragraphs(x))),
        ('http://b.example/story/x', page('C', title, paragraphs(x))),
        ('http://b.example/story/x-digest', page('C', title, paragraphs(digest))),
    ]
    with open(sys.argv[1], 'wb') as f:
        for n, (url, body) in enumerate(pages):
            f.write(record(url, body, n))


if __name__ == '__main__':
    main()
