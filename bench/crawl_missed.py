#!/usr/bin/env python3
"""The duplicate pairs of the synthetic crawl that a run missed, with the
two texts the fingerprints saw side by side, for the TUNE families only.

usage: crawl_missed.py CRAWL_DIR CLUSTERS_CSV DECIDED_JSONL
                       [--family F] [--kind K] [--show N] [--blocks]

DECIDED_JSONL is bench/decided_text's output for the run's documents and
templates (the texts after the template decision). Each missed pair is
put under one cause:
  short      one side's text is under --min-text (200 bytes; the
             fingerprint is then its exact text), and the two differ
  extraction the two texts' Jaccard (word 3-shingles, as truth.csv) < 0.8
  fingerprint the texts are within Jaccard 0.8 but the 64 bits are not
             within k
Prints the counts per tune family and cause, then for --show pairs the
lines only one side holds (--blocks: every block with its letters, C
content, T template, P pointer, S soft, M main, H heading, F form).
Pairs with a page of a holdout family are never read or printed.
"""
import argparse
import collections
import csv
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_crawl import jaccard, shingles  # noqa: E402

MIN_TEXT = 200


def norm_len(text):
    return len(' '.join(text.lower().split()).encode('utf-8'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('crawl')
    ap.add_argument('clusters')
    ap.add_argument('decided')
    ap.add_argument('--family')
    ap.add_argument('--kind', default='other-template')
    ap.add_argument('--show', type=int, default=0)
    ap.add_argument('--blocks', action='store_true')
    a = ap.parse_args()
    with open(os.path.join(a.crawl, 'pages.csv'), newline='', encoding='utf-8') as f:
        pages = {r['url']: r for r in csv.DictReader(f) if r['split'] == 'tune'}
    missed = []
    cid = {}
    with open(a.clusters, newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            cid[r['url'].strip().strip('<>')] = r['cluster_id']
    with open(os.path.join(a.crawl, 'truth.csv'), newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            u, v = r['url_a'], r['url_b']
            if r['label'] != 'dup' or u not in pages or v not in pages:
                continue
            if a.kind != 'all' and r['kind'] != a.kind:
                continue
            if a.family and a.family not in (pages[u]['family'], pages[v]['family']):
                continue
            if u in cid and cid[u] == cid.get(v):
                continue
            missed.append((u, v, r['kind'], float(r['jaccard'])))
    want = {x for u, v, _, _ in missed for x in (u, v)}
    dec = {}
    with open(a.decided, encoding='utf-8') as f:
        for line in f:
            d = json.loads(line)
            url = d['url'].strip('<>')
            if url in want:
                dec[url] = d
    count = collections.Counter()
    rows = []
    for u, v, kind, jt in missed:
        tu, tv = dec[u]['text'], dec[v]['text']
        j = jaccard(shingles(tu), shingles(tv))
        short = min(norm_len(tu), norm_len(tv)) < MIN_TEXT
        cause = 'short' if short else 'extraction' if j < 0.8 else 'fingerprint'
        fams = '/'.join(sorted({pages[u]['family'], pages[v]['family']}))
        count[(fams, cause)] += 1
        rows.append((fams, cause, j, jt, u, v))
    print('missed %s pairs on tune families: %d' % (a.kind, len(missed)))
    for (fams, cause), n in sorted(count.items()):
        print('  %-40s %-12s %3d' % (fams, cause, n))
    for fams, cause, j, jt, u, v in sorted(rows)[:a.show]:
        print('\n== %s %s: decided J %.2f (truth %.2f), choices %d/%d, bytes %d/%d' % (
            fams, cause, j, jt, dec[u]['choice'], dec[v]['choice'], norm_len(dec[u]['text']),
            norm_len(dec[v]['text'])))
        for url in (u, v):
            print('  %s (%s, %s)' % (url, pages[url]['family'], pages[url]['role']))
        la, lb = dec[u]['text'].split('\n'), dec[v]['text'].split('\n')
        if a.blocks:
            for url in (u, v):
                print('  -- blocks of %s' % pages[url]['family'])
                for fl, t in dec[url]['blocks']:
                    print('    %-4s %s' % (fl, t[:140]))
        else:
            print('  both:   ' + ' | '.join(x[:60] for x in la if x in lb))
            print('  only A: ' + ' | '.join(x[:100] for x in la if x not in lb))
            print('  only B: ' + ' | '.join(x[:100] for x in lb if x not in la))
    return 0


if __name__ == '__main__':
    sys.exit(main())
