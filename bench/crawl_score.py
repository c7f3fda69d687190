#!/usr/bin/env python3
"""Score a clusters CSV against the synthetic crawl of bench/gen_crawl.py.

usage: crawl_score.py CRAWL_DIR CLUSTERS_CSV [--extract JSONL] [--json]
                      [--pairs PAIRS_CSV] [--diag FAMILY [--worst N]]
                      [--holdout-families]

Pairs: two pages are predicted duplicates when they share a cluster (the
realpages kit's rule; a URL not in the CSV is a singleton). A pair is a
true duplicate when truth.csv labels it dup (Jaccard of word 3-shingles of
the main texts >= 0.8; truth.csv lists every pair of pages made from one
content). Pages of different contents are non-duplicates by construction;
up to 2000 predicted pairs of them are checked against maintext.jsonl and
any with Jaccard >= 0.8 are reported. Precision, recall and F1 are over
all pairs of the crawl, not a sample.

Per split (tune/holdout families; tune-first: the tune families the crawl
had before crawl_templates.ADDED, on the same pages as then; tune-14: those
and ADDED, without ADDED2, the second round's; tune-22: without ADDED3, the
third round's) and per family (the tune families; the holdout ones only
with --holdout-families):
  short wrong   short pages clustered with a page of their own host that is
                not their duplicate / short pages
  other-tmpl    duplicate pairs on two hosts (same content, another
                template) found / all such pairs
  edit, exact   duplicate pairs on one host, edited or byte-identical, found
  tmpl-merge    clusters of pages of one host that join pages made from
                different contents (pages that share only a template):
                count, largest
  xhost-merge   the same for clusters of pages of several hosts (e.g. pages
                that all came out as the same cookie banner): count, largest
  extract F1    with --extract (ndd-extract --json): the realpages kit's
                4-shingle extraction F1 of the pages against their main texts
                (a CJK character one token: see WORD);
                that is the page model alone, not the texts the crawl's
                template pass gives the fingerprints
Per page kind: the share of pages clustered with a page that is not their
duplicate ('wrong'), and the recall of their duplicate pairs.
--pairs PAIRS (ndd-self-join --pairs of the run's fingerprints) adds the
duplicate types: each labelled kind of pair against the match column, and
the share of the duplicates found whose type is the one their kind must
get (exact copy: exact; edit on the same template: same-layout, or exact
when its Jaccard is 1; the same content on another host's template:
same-content).
--diag FAMILY prints, for one family, the N worst extracted pages, the
largest clusters that join non-duplicates and the missed duplicate pairs
(look only at tune families while tuning).
"""
import argparse
import collections
import csv
import json
import os
import random
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_crawl import CJK, jaccard, shingles  # noqa: E402
from crawl_templates import ADDED, ADDED2, ADDED3  # noqa: E402

csv.field_size_limit(1 << 30)


def load(crawl):
    with open(os.path.join(crawl, 'pages.csv'), newline='', encoding='utf-8') as f:
        pages = {r['url']: r for r in csv.DictReader(f)}
    dup, kind_of = set(), {}
    with open(os.path.join(crawl, 'truth.csv'), newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            key = tuple(sorted((r['url_a'], r['url_b'])))
            if r['label'] == 'dup':
                dup.add(key)
                kind_of[key] = r['kind']
    return pages, dup, kind_of


def load_clusters(path):
    members = collections.defaultdict(set)
    with open(path, newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            members[r['cluster_id']].add(r['url'].strip().strip('<>'))
    return [sorted(m) for m in members.values() if len(m) > 1]


# ---- extraction: the realpages kit's 4-shingle metric (extract_score.py) ----
# The kit's tokens are runs of \w, made for English pages: a Chinese or
# Japanese sentence, written without spaces, is one token there, so a short
# post of fewer than 4 such tokens has a single shingle (its whole token
# list) that no longer text can hold, and a page that holds the post scored
# F1 0.00. Here a CJK character is one token, as the crawl's own label
# counts it (gen_crawl.TOKEN_RE); other tokens are the kit's.
WORD = re.compile('[%s]|[^\\W%s]+' % (CJK, CJK))


def extract_prf(truth, pred):
    def grams(t):
        w = WORD.findall(t or '')
        return collections.Counter(tuple(w[i:i + 4]) for i in range(max(1, len(w) - 3)) if w[i:i + 4])
    ts, ps = grams(truth), grams(pred)
    tp = sum((ts & ps).values())
    fp, fn = sum((ps - ts).values()), sum((ts - ps).values())
    return tp, fp, fn


def extract_f1(rows):
    p = [1.0 if fp == fn == 0 else tp / (tp + fp) for tp, fp, fn in rows if tp + fp > 0]
    r = [1.0 if fp == fn == 0 else tp / (tp + fn) for tp, fp, fn in rows if tp + fn > 0]
    p = sum(p) / len(p) if p else 0.0
    r = sum(r) / len(r) if r else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


class Tally:
    def __init__(self):
        self.tp = self.fp = self.fn = 0
        self.short = [0, 0]
        self.kinds = collections.defaultdict(lambda: [0, 0])   # dup kind -> found, all
        self.tmpl_only = []
        self.no_dup = []
        self.extract = []
        self.pages = 0

    def prf(self):
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def components(m, dup, pages):
    """How many contents cluster m holds: pages joined by dup pairs or made
    from one content (an edit below the Jaccard threshold shares content
    with its original, not only a template)."""
    parent = {u: u for u in m}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    first = {}
    for u in m:
        g = pages.get(u, {}).get('group', u)
        parent[find(u)] = find(first.setdefault(g, u))
    for i, a in enumerate(m):
        for b in m[i + 1:]:
            if (a, b) in dup:
                parent[find(a)] = find(b)
    return len({find(u) for u in m})


def score(crawl, clusters_csv, extract=None, check=2000):
    pages, dup, kind_of = load(crawl)
    clusters = load_clusters(clusters_csv)
    cid = {u: i for i, m in enumerate(clusters) for u in m}
    groups = collections.defaultdict(lambda: collections.defaultdict(Tally))
    # groups['split'][name] and groups['family'][name]; 'all' under split

    def tallies(*urls):
        out = [groups['split']['all']]
        sp = {pages[u]['split'] for u in urls if u in pages}
        if len(sp) == 1:
            name = sp.pop()
            out.append(groups['split'][name])
            if name == 'tune' and all(pages[u]['family'] not in ADDED3 for u in urls if u in pages):
                out.append(groups['split']['tune-22'])
                if all(pages[u]['family'] not in ADDED2 for u in urls if u in pages):
                    out.append(groups['split']['tune-14'])
                    if all(pages[u]['family'] not in ADDED for u in urls if u in pages):
                        out.append(groups['split']['tune-first'])
        for fam in sorted({pages[u]['family'] for u in urls if u in pages}):
            out.append(groups['family'][fam])
        return out

    predicted, cross = set(), []
    for m in clusters:
        for i, a in enumerate(m):
            for b in m[i + 1:]:
                predicted.add((a, b))
                if (a, b) not in dup and pages.get(a, {}).get('group') != pages.get(b, {}).get('group'):
                    cross.append((a, b))
    for a, b in predicted:
        for t in tallies(a, b):
            if (a, b) in dup:
                t.tp += 1
            else:
                t.fp += 1
    for a, b in dup:
        k = kind_of[(a, b)]
        k = 'edit' if k == 'same-template-edit' else k
        for t in tallies(a, b):
            t.fn += (a, b) not in predicted
            t.kinds[k][0] += (a, b) in predicted
            t.kinds[k][1] += 1

    wrong = set()
    for a, b in predicted:
        if (a, b) not in dup:
            wrong.update((a, b))
    page_kinds = collections.defaultdict(lambda: [0, 0, 0, 0])   # (split, kind) -> wrong, n, found, dups
    for u, p in pages.items():
        for t in tallies(u):
            t.pages += 1
        for sp in ('all', p['split']):
            page_kinds[(sp, p['page_kind'])][0] += u in wrong
            page_kinds[(sp, p['page_kind'])][1] += 1
        if p['page_kind'] == 'short':
            bad = u in cid and any(pages.get(v, {}).get('host') == p['host'] and
                                   tuple(sorted((u, v))) not in dup
                                   for v in clusters[cid[u]] if v != u)
            for t in tallies(u):
                t.short[0] += bad
                t.short[1] += 1
    for a, b in dup:
        for sp in ('all', pages[a]['split']):
            page_kinds[(sp, pages[a]['page_kind'])][2] += (a, b) in predicted
            page_kinds[(sp, pages[a]['page_kind'])][3] += 1
    for m in clusters:
        hosts = {pages.get(u, {}).get('host') for u in m}
        if components(m, dup, pages) > 1:
            for t in tallies(*m):
                (t.tmpl_only if len(hosts) == 1 else t.no_dup).append(len(m))

    texts = {}
    with open(os.path.join(crawl, 'maintext.jsonl'), encoding='utf-8') as f:
        for line in f:
            d = json.loads(line)
            texts[d['url']] = d['text']
    sample = random.Random(1).sample(cross, min(check, len(cross)))
    surprising = sum(1 for a, b in sample if jaccard(shingles(texts[a]), shingles(texts[b])) >= 0.8)

    if extract:
        with open(extract, encoding='utf-8') as f:
            got = {}
            for line in f:
                d = json.loads(line)
                got[(d.get('url') or '').strip('<>')] = d.get('text') or ''
        for u, p in pages.items():
            row = extract_prf(texts[u], got.get(u, ''))
            for t in tallies(u):
                t.extract.append(row)
    return groups, page_kinds, {'predicted_pairs': len(predicted), 'dup_pairs': len(dup),
                                'clusters': len(clusters), 'cross_checked': len(sample),
                                'cross_dup': surprising}


def frac(a, b):
    return '%d/%d' % (a, b) if b else '-'


def count_max(sizes):
    return '%d (max %d)' % (len(sizes), max(sizes)) if sizes else '0'


def split_summary(name, t):
    p, r, f1 = t.prf()
    return '%s F1 %.3f (P %.3f R %.3f), short wrong %s, other template %s, template merges %s%s' % (
        name, f1, p, r, frac(*t.short), frac(*t.kinds['other-template']), count_max(t.tmpl_only),
        ', page-model extraction F1 %.3f' % extract_f1(t.extract) if t.extract else '')


def print_table(groups, page_kinds, info, families, label=''):
    print('crawl quality: %d clusters, %d predicted pairs, %d true dup pairs (Jaccard >= 0.8);'
          ' extrF1: ndd-extract --json, without the template pass'
          % (info['clusters'], info['predicted_pairs'], info['dup_pairs']))
    head = '  %-18s %5s %6s %6s %6s %6s %9s %10s %9s %9s %12s %12s' % (
        '', 'pages', 'extrF1', 'P', 'R', 'F1', 'short-wr', 'other-tmpl', 'edit', 'exact', 'tmpl-merge',
        'xhost-merge')
    print(head)
    rows = [('all', groups['split']['all']), ('tune', groups['split']['tune']),
            ('tune-22', groups['split']['tune-22']), ('tune-14', groups['split']['tune-14']),
            ('tune-first', groups['split']['tune-first']),
            ('holdout', groups['split']['holdout'])]
    rows += [('  ' + f, groups['family'][f]) for f in families if f in groups['family']]
    for name, t in rows:
        p, r, f1 = t.prf()
        ex = '%.3f' % extract_f1(t.extract) if t.extract else '-'
        k = t.kinds
        print('  %-18s %5d %6s %6.3f %6.3f %6.3f %9s %10s %9s %9s %12s %12s' % (
            name, t.pages, ex, p, r, f1, frac(*t.short), frac(*k['other-template']),
            frac(*k['edit']), frac(*k['exact']), count_max(t.tmpl_only), count_max(t.no_dup)))
    kinds = sorted({k for _, k in page_kinds})
    print('  %-18s' % 'page kind' + ''.join('%-24s' % ('%s: wrong, dup found' % s)
                                           for s in ('tune', 'holdout')))
    for k in kinds:
        cells = []
        for s in ('tune', 'holdout'):
            w, n, fd, nd = page_kinds.get((s, k), [0, 0, 0, 0])
            cells.append('%-24s' % ('%.3f %s' % (w / n, frac(fd, nd)) if n else '-'))
        print(('  %-18s' % k + ''.join(cells)).rstrip())
    print('summary: %s%s' % (label + ': ' if label else '', '; '.join(
        split_summary(name, groups['split'][name]) for name in ('tune', 'tune-22', 'tune-14', 'tune-first', 'holdout')
        if groups['split'][name].pages)))
    if info['cross_dup']:
        print('  note: %d of %d checked predicted pairs of different contents have Jaccard >= 0.8'
              % (info['cross_dup'], info['cross_checked']))


def head(text, n=110):
    return (text or '').replace('\n', ' | ')[:n]


def diagnose(crawl, clusters_csv, extract, family, worst):
    pages, dup, kind_of = load(crawl)
    texts = {}
    with open(os.path.join(crawl, 'maintext.jsonl'), encoding='utf-8') as f:
        for line in f:
            d = json.loads(line)
            texts[d['url']] = d['text']
    got = {}
    if extract:
        with open(extract, encoding='utf-8') as f:
            for line in f:
                d = json.loads(line)
                got[(d.get('url') or '').strip('<>')] = d.get('text') or ''
    mine = [u for u, p in pages.items() if p['family'] == family]
    print('\ndiagnosis of %s (%d pages)' % (family, len(mine)))
    if got:
        rows = []
        for u in mine:
            tp, fp, fn = extract_prf(texts[u], got.get(u, ''))
            rows.append((2 * tp / (2 * tp + fp + fn) if tp else 0.0, u))
        print('  worst extracted (page F1, kind, URL / extracted text):')
        for f1, u in sorted(rows)[:worst]:
            print('  %.2f %-8s %s\n           %s' % (f1, pages[u]['page_kind'], u, head(got.get(u))))
    clusters = load_clusters(clusters_csv)
    bad = [m for m in clusters if components(m, dup, pages) > 1 and any(pages.get(u, {}).get('family') == family
                                                                 for u in m)]
    print('  clusters joining non-duplicates: %d; largest:' % len(bad))
    for m in sorted(bad, key=len, reverse=True)[:3]:
        hosts = {pages[u]['host'] for u in m if u in pages}
        print('  %d pages, %d hosts: %s' % (len(m), len(hosts), head(got.get(m[0], ''))))
    cid = {u: i for i, m in enumerate(clusters) for u in m}
    missed = [(a, b) for a, b in sorted(dup) if pages[a]['family'] == family or pages[b]['family'] == family
              if not (a in cid and b in cid and cid[a] == cid[b])]
    print('  missed duplicate pairs: %d; first:' % len(missed))
    for a, b in missed[:worst]:
        print('  %s %s\n    %s\n    %s' % (kind_of[(a, b)], head(texts[a], 60), head(got.get(a), 100),
                                         head(got.get(b), 100)))


# The duplicate type a labelled kind of pair must get (README, "Duplicate
# types"): a byte-identical copy is exact, an edit on its page's template
# same-layout (exact when the edit left the main text's shingles as they
# were, Jaccard 1: the same text on the same template), the same content
# on another host's template same-content.
TYPES = ('exact', 'same-content', 'same-layout', 'partial', '-')


def want_type(kind, jaccard):
    if kind == 'same-template-edit':
        return ('exact', 'same-layout') if jaccard >= 1.0 else ('same-layout',)
    return {'exact': ('exact',), 'other-template': ('same-content',)}.get(kind, ())


def match_types(crawl, pairs_csv):
    """Per split, each duplicate kind of truth.csv against the match column
    of ndd-self-join --pairs ('-': not within k), and how many of the pairs
    found have the type their kind must get; the non-duplicates found."""
    pages = {}
    with open(os.path.join(crawl, 'pages.csv'), newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            pages[r['url']] = r['split']
    match = {}
    with open(pairs_csv, newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            match[(r['key_a'], r['key_b'])] = match[(r['key_b'], r['key_a'])] = r['match']
    rows = collections.defaultdict(collections.Counter)
    good = collections.Counter()
    with open(os.path.join(crawl, 'truth.csv'), newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            kind = r['kind'] if r['label'] == 'dup' else 'nondup'
            t = match.get((r['url_a'], r['url_b']), '-')
            rows[(pages[r['url_a']], kind)][t] += 1
            good[(pages[r['url_a']], kind)] += t in want_type(kind, float(r['jaccard']))
    print('\nduplicate types (match of each labelled pair, ndd-self-join --pairs; -: not within k;'
          ' right: found with the type its kind must get)')
    print('  %-8s %-20s' % ('split', 'kind') + ''.join('%13s' % t for t in TYPES) + '%14s' % 'right')
    right = collections.Counter()
    found = collections.Counter()
    for (split, kind), c in sorted(rows.items()):
        cell = ''
        if kind != 'nondup':
            n = sum(v for t, v in c.items() if t != '-')
            right[split] += good[(split, kind)]
            found[split] += n
            cell = '%d/%d' % (good[(split, kind)], n)
        print('  %-8s %-20s' % (split, kind) + ''.join('%13d' % c[t] for t in TYPES) + '%14s' % cell)
    print('summary: duplicate types right: ' + '; '.join(
        '%s %d/%d (%.3f)' % (s, right[s], found[s], right[s] / max(1, found[s]))
        for s in sorted(found)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('crawl')
    ap.add_argument('clusters')
    ap.add_argument('--extract')
    ap.add_argument('--json', action='store_true')
    ap.add_argument('--diag', metavar='FAMILY')
    ap.add_argument('--label', default='', help='what the summary line starts with')
    ap.add_argument('--worst', type=int, default=5)
    ap.add_argument('--pairs', help='ndd-self-join --pairs of the run: the duplicate types')
    ap.add_argument('--holdout-families', action='store_true',
                    help='also print the holdout families one by one (never while tuning)')
    args = ap.parse_args()
    import crawl_templates
    groups, page_kinds, info = score(args.crawl, args.clusters, args.extract)
    if args.json:
        out = {'info': info}
        for level, g in groups.items():
            for name, t in g.items():
                p, r, f1 = t.prf()
                out['%s/%s' % (level, name)] = {
                    'pages': t.pages, 'precision': p, 'recall': r, 'f1': f1, 'tp': t.tp, 'fp': t.fp,
                    'fn': t.fn, 'short_wrong': t.short, 'dup_kinds': dict(t.kinds),
                    'template_only_clusters': sorted(t.tmpl_only, reverse=True),
                    'other_no_dup_clusters': sorted(t.no_dup, reverse=True),
                    'extract_f1': extract_f1(t.extract) if t.extract else None}
        out['page_kinds'] = {'%s/%s' % k: v for k, v in sorted(page_kinds.items())}
        print(json.dumps(out, indent=1, sort_keys=True))
        return 0
    # The holdout is read as its aggregate rows only: a family's own row is
    # the first step to tuning on it.
    fams = crawl_templates.family_names('tune')
    if args.holdout_families:
        fams += crawl_templates.family_names('holdout')
    elif args.diag in crawl_templates.family_names('holdout'):
        print('crawl_score.py: --diag %s: a holdout family (add --holdout-families to look)'
              % args.diag, file=sys.stderr)
        return 2
    print_table(groups, page_kinds, info, fams, args.label)
    if args.pairs:
        match_types(args.crawl, args.pairs)
    if args.diag:
        diagnose(args.crawl, args.clusters, args.extract, args.diag, args.worst)
    return 0


if __name__ == '__main__':
    sys.exit(main())
