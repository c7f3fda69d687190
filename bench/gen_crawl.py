#!/usr/bin/env python3
"""Generate the synthetic crawl of bench/crawlquality.sh: many hosts, many
pages per host, on the template families of crawl_templates.py, with
duplicates, and its truth.

usage: gen_crawl.py -s SEED -o OUTDIR [--hosts N] [--pages LO HI] [--parts N]
                   [--added-hosts N] [--added2-hosts N]
                   [--added3-hosts N]

Writes into OUTDIR (standard library only; same seed, same bytes):
  crawl/part-NN.warc.gz  WARC/1.0 response records, one gzip member each
  pages.csv      url, host, family, split, site_kind, page_kind, group, role,
                 lang, bytes, warc: one row per page
  maintext.jsonl url, text: the main text each page was made from
  truth.csv      url_a,url_b,label,kind,jaccard (the realpages kit's format):
                 every pair of pages made from one content (dup iff the
                 Jaccard of word 3-shingles of their main texts >= 0.8),
                 plus sampled pairs of different contents on one template
  gen-stats.json counts per family, kind and role

Duplicates: 'exact' (the same bytes at another URL of the host), 'edit'
(2-10 % of the words replaced, same template), 'syndication' (the same
content on another host's template of the same site kind and split; a
third of them also edited). Hosts of a tune family syndicate only to tune
families, holdout to holdout, so every labelled pair is of one split.
"""
import argparse
import csv
import gzip
import hashlib
import io
import json
import os
import random
import re
import sys
import unicodedata

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crawl_chrome as CH  # noqa: E402
import crawl_templates as TP  # noqa: E402
import crawl_text as T  # noqa: E402

MIX = {  # page kinds of each site kind, with weights
    'news': (('article', 72), ('index', 13), ('short', 15)),
    'forum': (('thread', 85), ('index', 15)),
    'kb': (('kb', 75), ('index', 15), ('short', 10)),
    'docs': (('doc', 70), ('genindex', 12), ('toctree', 13), ('short', 5)),
    'small': (('short', 60), ('article', 15), ('index', 25)),
}
DUP_RATE = {'exact': 0.04, 'edit': 0.06, 'syndication': 0.10}

# ---- the realpages kit's label: NFKC, lower case, CJK characters one token each
CJK = '\u1100-\u11ff\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff'
TOKEN_RE = re.compile('[%s]|[^\\W%s_]+' % (CJK, CJK))


def shingles(text, n=3):
    t = TOKEN_RE.findall(unicodedata.normalize('NFKC', text or '').lower())
    if len(t) < n:
        return {'\x1f'.join(t)} if t else set()
    return {'\x1f'.join(t[i:i + n]) for i in range(len(t) - n + 1)}


def jaccard(a, b):
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    i = len(a & b)
    return i / (len(a) + len(b) - i)


# ---- content ---------------------------------------------------------------

def weighted(rng, pairs):
    x = rng.randrange(sum(w for _, w in pairs))
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


def make_article(rng, lang):
    blocks = []
    for i in range(rng.randint(4, 14)):
        if i and i % 4 == 0 and rng.random() < 0.4:
            blocks.append(('h2', T.headline(rng, lang)))
        blocks.append(('p', T.paragraph(rng, lang, 2, 6)))
        if i == 1 and rng.random() < 0.5:
            blocks.append(('figure', T.sentence(rng, lang)))
    return {'kind': 'article', 'title': T.headline(rng, lang), 'blocks': blocks,
            'dek': T.sentence(rng, lang) if rng.random() < 0.6 else '',
            'author': T.person(rng, lang), 'date': T.date(rng, lang)}


def make_thread(rng, lang):
    posts = [('post', T.username(rng), T.date(rng, lang), T.paragraph(rng, lang, 1, 4, 'present'),
              rng.randrange(1, 5000)) for _ in range(weighted(rng, ((1, 5), (2, 3), (3, 2), (4, 1))))]
    return {'kind': 'thread', 'title': T.headline(rng, lang), 'blocks': posts}


def make_kb(rng, lang):
    steps = [T.sentence(rng, lang, 'present') for _ in range(rng.randint(3, 8))]
    blocks = [('p', T.paragraph(rng, lang, 1, 3, 'present')), ('ol', steps)]
    if rng.random() < 0.6:
        blocks.append(('p', T.paragraph(rng, lang, 1, 2, 'present')))
    return {'kind': 'kb', 'title': T.headline(rng, lang), 'blocks': blocks}


def identifier(rng):
    verb = rng.choice(T.EN['verb']).split('|')[0]
    return '%s_%s' % (verb, rng.choice(T.EN['noun']))


def make_doc(rng, lang):
    blocks = [('p', T.paragraph(rng, lang, 1, 3, 'present'))]
    for _ in range(rng.randint(2, 5)):
        blocks.append(('h2', T.headline(rng, lang)))
        for _ in range(rng.randint(1, 3)):
            blocks.append(('p', T.paragraph(rng, lang, 2, 5, 'present')))
        if rng.random() < 0.5:
            f = identifier(rng)
            blocks.append(('pre', '>>> from %s import %s\n>>> %s(%d)' % (
                rng.choice(T.EN['noun']), f, f, rng.randrange(100))))
    return {'kind': 'doc', 'title': T.headline(rng, lang), 'blocks': blocks}


def make_short(rng, lang):
    return {'kind': 'short', 'title': T.headline(rng, lang),
            'blocks': [('p', T.paragraph(rng, lang, 1, 3))]}


def truth_text(con):
    parts = [con['title'], con.get('dek', '')]
    for b in con['blocks']:
        if b[0] in ('p', 'h2', 'pre', 'figure'):
            parts.append(b[1])
        elif b[0] in ('ol', 'ul'):
            parts.extend(b[1])
        elif b[0] == 'item':
            parts.extend(b[1:3])
        elif b[0] == 'entry':
            parts.append(b[1])
        elif b[0] == 'post':
            parts.append(b[3])
    return '\n'.join(p for p in parts if p)


def edit_content(rng, con, lang, rate):
    """A copy of con with about rate of its words replaced by random ones."""
    def edit(text):
        if lang == 'zh':
            chars = list(text)
            for i, ch in enumerate(chars):
                if '\u4e00' <= ch <= '\u9fff' and rng.random() < rate:
                    chars[i] = rng.choice(rng.choice(T.ZH['noun']))
            return ''.join(chars)
        words = text.split(' ')
        for i in range(len(words)):
            if rng.random() < rate and words[i].isalpha():
                words[i] = rng.choice(T.EN['noun'] if lang == 'en' else T.DE['adj'])
        return ' '.join(words)
    out = dict(con)
    blocks = []
    for b in con['blocks']:
        if b[0] in ('p', 'h2', 'figure'):
            blocks.append((b[0], edit(b[1])))
        elif b[0] in ('ol', 'ul'):
            blocks.append((b[0], [edit(x) for x in b[1]]))
        elif b[0] == 'post':
            blocks.append(b[:3] + (edit(b[3]),) + b[4:])
        else:
            blocks.append(b)
    out['blocks'] = blocks
    return out


# ---- hosts -----------------------------------------------------------------

def slug(text, n):
    words = re.findall(r'[a-z0-9]+', text.lower())[:6]
    return '-'.join(words) + '-%d' % n if words else str(n)


def page_url(host, n, con):
    fam, d = host['family'], host['domain']
    s = slug(con['title'], n)
    if fam == 'forum-phpbb':
        return 'https://%s/viewtopic.php?f=%d&t=%d' % (d, n % 13 + 1, 1000 + n)
    if fam == 'forum-discuz':
        return 'https://%s/thread-%d-1-1.html' % (d, 20000 + n)
    if fam == 'forum-table':
        return 'http://%s/bbs/dispbbs.asp?boardid=%d&id=%d' % (d, n % 9 + 1, 500 + n)
    if fam == 'forum-discourse':
        return 'https://%s/t/%s/%d' % (d, s, n)
    if fam == 'forum-xenforo':
        return 'https://%s/threads/%s.%d/' % (d, slug(con['title'], n).rsplit('-', 1)[0] or 'thread', 3000 + n)
    if fam == 'forum-phpbb2':
        return 'http://%s/forum/viewtopic.php?t=%d' % (d, 4000 + n)
    if fam == 'forum-vb3':
        return 'http://%s/showthread.php?t=%d' % (d, 90000 + n)
    if fam == 'forum-nodebb':
        return 'https://%s/topic/%d/%s' % (d, 200 + n, slug(con['title'], n).rsplit('-', 1)[0] or 'topic')
    if fam == 'forum-vbulletin':
        return 'http://%s/forum/showthread.php?t=%d' % (d, 70000 + n)
    if fam == 'kb-confluence':
        return 'https://%s/wiki/spaces/KB/pages/%d/%s' % (d, 88000 + n, s)
    if fam == 'kb-zendesk':
        return 'https://%s/hc/%s/articles/3600%05d-%s' % (d, host['lang'], n, s)
    if fam == 'kb-drupal':
        return 'https://%s/node/%d' % (d, 100 + n)
    if fam == 'docs-sphinx':
        return 'https://%s/en/latest/%s.html' % (d, s)
    if fam == 'docs-mkdocs':
        return 'https://%s/%s/' % (d, s)
    if fam == 'small-wix':
        return 'https://%s/post/%s' % (d, s)
    return 'https://%s/%s/%s.html' % (d, con['kind'], s)


def make_host(rng, i, family):
    a, b = rng.choice(T.EN['adj']), rng.choice(T.EN['noun'])
    lang = rng.choice(TP.languages(family))
    site = '%s %s' % (a.capitalize(), b.capitalize())
    if lang == 'zh':
        site = rng.choice(T.ZH['place']) + rng.choice(['论坛', '新闻网', '社区', '资讯', '文档中心'])
    host = {'name': 'h%02d' % i, 'domain': '%s%s%d.example' % (a, b, i), 'family': family,
            'split': TP.split_of(family), 'kind': TP.site_kind(family), 'lang': lang,
            'added': TP.group_of(family) != 0, 'group': TP.group_of(family)}
    host['chrome'] = CH.host_chrome(rng, lang, site, host['kind'])
    return host


def host_contents(rng, host, n):
    """n contents of the host's page kinds; list pages are filled last from
    the host's own pages (so two list pages never list the same ones)."""
    lang, kind = host['lang'], host['kind']
    makers = {'article': make_article, 'thread': make_thread, 'kb': make_kb,
              'doc': make_doc, 'short': make_short}
    kinds = [weighted(rng, MIX[kind]) for _ in range(n)]
    cons = [makers[k](rng, lang) if k in makers else {'kind': k, 'title': k, 'blocks': []} for k in kinds]
    return cons


def fill_lists(rng, host, pages):
    lang = host['lang']
    own = [p for p in pages if p['content']['kind'] not in ('index', 'genindex', 'toctree')]
    rng.shuffle(own)
    lists = [p for p in pages if p['content']['kind'] in ('index', 'toctree')]
    summaries = rng.random() < 0.6
    for i, p in enumerate(lists):
        chunk = own[i::len(lists)][:25]
        items = []
        for q in chunk:
            qc = q['content']
            summ = (qc.get('dek') or first_sentence(qc)) if summaries else ''
            items.append(('item', qc['title'], summ, q['url']) if p['content']['kind'] == 'index'
                         else ('entry', qc['title'], q['url']))
        while len(items) < 8:
            t = T.headline(rng, lang)
            items.append(('item', t, T.sentence(rng, lang) if summaries else '', '/x/%d' % rng.randrange(1 << 30))
                         if p['content']['kind'] == 'index' else ('entry', t, '/x/%d' % rng.randrange(1 << 30)))
        con = p['content']
        con['title'] = '%s %d' % (rng.choice(host['chrome']['nav'][1:]), i + 1)
        con['blocks'] = ([('p', T.sentence(rng, lang, 'present'))] if con['kind'] == 'toctree' else []) + items
    gen = [p for p in pages if p['content']['kind'] == 'genindex']
    if gen:
        names = sorted({identifier(rng) for _ in range(40 * len(gen))})
        for i, p in enumerate(gen):
            chunk = names[i * len(names) // len(gen):(i + 1) * len(names) // len(gen)]
            entries = [('entry', '%s() (in module %s.%s)' % (x, host['domain'].split('.')[0], x.split('_')[1]),
                        '/api.html#%s' % x) for x in chunk]
            p['content']['title'] = 'Index – %s' % chunk[0][0].upper()
            p['content']['blocks'] = [('letter', chunk[0][0].upper())] + entries


def first_sentence(con):
    for b in con['blocks']:
        if b[0] == 'p':
            return re.split(r'(?<=[.!?。！？])', b[1])[0]
        if b[0] == 'post':
            return b[3][:120]
    return ''


def page_chrome(rng, host, page, pools):
    """Per-page chrome: draws from the host's pools."""
    c, kind, pk = host['chrome'], host['kind'], page['content']['kind']
    page['section_name'] = rng.choice(c['nav'][1:])
    page['cookie_top'] = rng.random() < 0.5
    if kind in ('news', 'small'):
        if pk == 'article' and rng.random() < 0.8:
            page['related'] = CH.teasers(rng, pools['stories'], rng.randint(3, 6))
        if rng.random() < 0.6:
            page['popular'] = CH.teasers(rng, pools['stories'], 5)
        if rng.random() < 0.5:
            page['photos'] = [(i, c['photos'][i]) for i in sorted(rng.sample(range(20), rng.randint(1, 3)))]
        if pk == 'article' and rng.random() < 0.5:
            page['comments'] = CH.comments(rng, host['lang'], rng.randint(1, 8))
        page['share'] = rng.random() < 0.7
    elif kind == 'forum':
        if pk == 'thread':
            page['topics'] = CH.topic_rows(rng, pools['stories'], host['lang'], rng.randint(10, 20))
    elif kind == 'kb':
        page['section'] = CH.teasers(rng, pools['stories'], rng.randint(8, 15))
        if pk == 'kb' and rng.random() < 0.7:
            page['related'] = CH.teasers(rng, pools['stories'], rng.randint(3, 5))
    elif kind == 'docs':
        page['toc'] = pools['toc']


def build_pools(host, pages):
    stories = [(p['content']['title'], p['content'].get('dek') or first_sentence(p['content']), p['url'])
               for p in pages if p['content']['kind'] in ('article', 'thread', 'kb', 'short')]
    if not stories:
        stories = [('-', '-', '/')]
    toc = [(p['content']['title'], p['url']) for p in pages if p['content']['kind'] == 'doc'][:40]
    return {'stories': stories, 'toc': toc}


# ---- WARC --------------------------------------------------------------------

def warc_record(url, body):
    http = ('HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n'
            % len(body)).encode() + body
    rid = hashlib.sha1(url.encode()).hexdigest()
    head = ('WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-06-01T00:00:00Z\r\n'
            'WARC-Record-ID: <urn:uuid:%s-%s-%s-%s-%s>\r\nWARC-Target-URI: %s\r\n'
            'Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n'
            % (rid[:8], rid[8:12], rid[12:16], rid[16:20], rid[20:32], url, len(http))).encode()
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode='wb', compresslevel=3, mtime=0) as g:
        g.write(head + http + b'\r\n\r\n')
    return buf.getvalue()


# ---- the crawl ---------------------------------------------------------------

def generate(seed, n_hosts, lo, hi, n_added=0, n_added2=0, n_added3=0):
    """The first n_hosts hosts on the crawl's first families (as before the
    added families existed: the same pages for a seed), then n_added hosts
    on crawl_templates.ADDED's families, from a random stream of their own
    and syndicating only among themselves, then n_added2 hosts on ADDED2's
    the same way, then n_added3 on ADDED3's (the hosts before them keep
    their pages)."""
    hosts, pages = _hosts(random.Random(seed), TP.family_names(added=False), 0, n_hosts, lo, hi)
    if n_added:
        more, extra = _hosts(random.Random(seed * 1000003 + 7), TP.family_names(added=True),
                             n_hosts, n_added, lo, hi)
        hosts += more
        pages += extra
    if n_added2:
        more, extra = _hosts(random.Random(seed * 1000003 + 17), TP.family_names(group=2),
                             n_hosts + n_added, n_added2, lo, hi)
        hosts += more
        pages += extra
    if n_added3:
        more, extra = _hosts(random.Random(seed * 1000003 + 27), TP.family_names(group=3),
                             n_hosts + n_added + n_added2, n_added3, lo, hi)
        hosts += more
        pages += extra
    return hosts, pages


def _hosts(rng, fams, first, n_hosts, lo, hi):
    order = [fams[i % len(fams)] for i in range(n_hosts)]
    hosts = [make_host(rng, first + i, f) for i, f in enumerate(order)]
    pages = []
    for h in hosts:
        n = rng.randint(lo, hi)
        hp = []
        for j, con in enumerate(host_contents(rng, h, n)):
            hp.append({'host': h, 'content': con, 'role': 'original', 'group': '%s-%d' % (h['name'], j),
                       'url': page_url(h, j, con)})
        fill_lists(rng, h, hp)
        h['pools'] = build_pools(h, hp)
        h['next'] = n
        for p in hp:
            page_chrome(rng, h, p, h['pools'])
        pages.extend(hp)
    pages.extend(duplicates(rng, hosts, pages))
    return hosts, pages


def duplicates(rng, hosts, pages):
    out = []
    originals = [p for p in pages if p['content']['kind'] not in ('genindex',)]
    for p in originals:
        h = p['host']
        r = rng.random()
        if r < DUP_RATE['exact']:
            q = dict(p, role='exact', url=p['url'] + ('&' if '?' in p['url'] else '?') + 'utm_source=rss')
            q['same_bytes_as'] = p
            out.append(q)
        elif r < DUP_RATE['exact'] + DUP_RATE['edit']:
            con = edit_content(rng, p['content'], h['lang'], 0.02 + 0.08 * rng.random() ** 2)
            q = {'host': h, 'content': con, 'role': 'edit', 'group': p['group'],
                 'url': page_url(h, h['next'], con)}
            h['next'] += 1
            page_chrome(rng, h, q, h['pools'])
            out.append(q)
        elif r < sum(DUP_RATE.values()) and p['content']['kind'] not in ('index', 'toctree'):
            others = [g for g in hosts if g is not h and g['kind'] == h['kind'] and g['split'] == h['split']
                      and g['lang'] == h['lang']]
            if not others:
                continue
            g = rng.choice(others)
            con = p['content']
            role = 'syndication'
            if rng.random() < 0.33:
                con = edit_content(rng, con, h['lang'], rng.uniform(0.02, 0.05))
                role = 'syndication-edit'
            q = {'host': g, 'content': con, 'role': role, 'group': p['group'],
                 'url': page_url(g, g['next'], con)}
            g['next'] += 1
            page_chrome(rng, g, q, g['pools'])
            out.append(q)
    return out


def render_all(pages):
    for p in pages:
        if 'same_bytes_as' in p:
            continue
        h = p['host']
        p['body'] = TP.render(h['family'], h['name'], h['chrome'], p).encode('utf-8')
    for p in pages:
        if 'same_bytes_as' in p:
            p['body'] = p['same_bytes_as']['body']
        p['text'] = truth_text(p['content'])


def pair_kind(a, b):
    if a['body'] == b['body']:
        return 'exact'
    if a['host'] is b['host']:
        return 'same-template-edit'
    return 'other-template'


def truth_pairs(rng, pages):
    groups = {}
    for p in pages:
        groups.setdefault(p['group'], []).append(p)
    sh = {id(p): shingles(p['text']) for p in pages}
    rows = []
    for g in groups.values():
        for i, a in enumerate(g):
            for b in g[i + 1:]:
                j = jaccard(sh[id(a)], sh[id(b)])
                rows.append((a['url'], b['url'], 'dup' if j >= 0.8 else 'nondup', pair_kind(a, b), j))
    by_host = {}
    for p in pages:
        by_host.setdefault((p['host']['name'], p['content']['kind']), []).append(p)
    for (_, kind), ps in sorted(by_host.items()):
        for _ in range(min(30, len(ps) * (len(ps) - 1) // 2)):
            a, b = rng.sample(ps, 2)
            if a['group'] != b['group']:
                j = jaccard(sh[id(a)], sh[id(b)])
                rows.append((a['url'], b['url'], 'dup' if j >= 0.8 else 'nondup', 'same-template-' + kind, j))
    return rows


def write(out, hosts, pages, rows, parts, rng, rng_added, rng_added2, rng_added3):
    os.makedirs(os.path.join(out, 'crawl'), exist_ok=True)
    # the first hosts' pages in the order they had before hosts were added
    first = sum(1 for p in pages if not p['host']['added'])
    order = list(range(first))
    rng.shuffle(order)
    second = first + sum(1 for p in pages if p['host']['group'] == 1)
    rest = list(range(first, second))
    rng_added.shuffle(rest)
    order += rest
    third = second + sum(1 for p in pages if p['host']['group'] == 2)
    rest = list(range(second, third))
    rng_added2.shuffle(rest)
    order += rest
    rest = list(range(third, len(pages)))
    rng_added3.shuffle(rest)
    order += rest
    files = [open(os.path.join(out, 'crawl', 'part-%02d.warc.gz' % i), 'wb') for i in range(parts)]
    for n, i in enumerate(order):
        p = pages[i]
        p['warc'] = 'part-%02d.warc.gz' % (n % parts)
        files[n % parts].write(warc_record(p['url'], p['body']))
    for f in files:
        f.close()
    with open(os.path.join(out, 'pages.csv'), 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['url', 'host', 'family', 'split', 'site_kind', 'page_kind', 'group', 'role', 'lang',
                    'bytes', 'warc'])
        for p in pages:
            h = p['host']
            w.writerow([p['url'], h['domain'], h['family'], h['split'], h['kind'], p['content']['kind'],
                        p['group'], p['role'], h['lang'], len(p['body']), p['warc']])
    with open(os.path.join(out, 'maintext.jsonl'), 'w', encoding='utf-8') as f:
        for p in pages:
            f.write(json.dumps({'url': p['url'], 'text': p['text']}, ensure_ascii=False) + '\n')
    with open(os.path.join(out, 'truth.csv'), 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['url_a', 'url_b', 'label', 'kind', 'jaccard'])
        for a, b, label, kind, j in rows:
            w.writerow([a, b, label, kind, '%.4f' % j])
    stats = {'hosts': len(hosts), 'pages': len(pages), 'families': {}, 'roles': {}, 'page_kinds': {},
             'pairs': {}}
    for h in hosts:
        stats['families'][h['family']] = stats['families'].get(h['family'], 0) + 1
    for p in pages:
        stats['roles'][p['role']] = stats['roles'].get(p['role'], 0) + 1
        k = p['content']['kind']
        stats['page_kinds'][k] = stats['page_kinds'].get(k, 0) + 1
    for _, _, label, kind, _ in rows:
        k = '%s/%s' % (kind, label)
        stats['pairs'][k] = stats['pairs'].get(k, 0) + 1
    with open(os.path.join(out, 'gen-stats.json'), 'w') as f:
        json.dump(stats, f, indent=1, sort_keys=True)
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('-s', '--seed', type=int, default=1)
    ap.add_argument('-o', '--out', required=True)
    ap.add_argument('--hosts', type=int, default=42)
    ap.add_argument('--pages', type=int, nargs=2, default=(50, 200), metavar=('LO', 'HI'))
    ap.add_argument('--parts', type=int, default=4)
    ap.add_argument('--added-hosts', type=int, default=3 * len(TP.ADDED),
                    help='hosts on the added tune families, after the first --hosts (0: none)')
    ap.add_argument('--added2-hosts', type=int, default=3 * len(TP.ADDED2),
                    help='hosts on the second round of added tune families, after those (0: none)')
    ap.add_argument('--added3-hosts', type=int, default=3 * len(TP.ADDED3),
                    help='hosts on the third round of added tune families, after those (0: none)')
    args = ap.parse_args()
    hosts, pages = generate(args.seed, args.hosts, *args.pages, n_added=args.added_hosts,
                            n_added2=args.added2_hosts, n_added3=args.added3_hosts)
    render_all(pages)
    # The first hosts' truth and WARC order draw on the stream they always
    # did; the added hosts' on one of their own.
    rng = random.Random(args.seed + 1)
    first = [p for p in pages if not p['host']['added']]
    rows = truth_pairs(rng, first)
    rng_added = random.Random(args.seed * 1000003 + 8)
    second = [p for p in pages if p['host']['group'] == 1]
    rows += truth_pairs(rng_added, second)
    rng_added2 = random.Random(args.seed * 1000003 + 18)
    third = [p for p in pages if p['host']['group'] == 2]
    rows += truth_pairs(rng_added2, third)
    rng_added3 = random.Random(args.seed * 1000003 + 28)
    rows += truth_pairs(rng_added3, pages[len(first) + len(second) + len(third):])
    stats = write(args.out, hosts, pages, rows, args.parts, rng, rng_added, rng_added2, rng_added3)
    print('gen_crawl.py: %d hosts, %d pages, %d labelled pairs in %s' % (
        stats['hosts'], stats['pages'], len(rows), args.out), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
