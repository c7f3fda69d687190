#!/usr/bin/env python3
"""The table of bench/realpages.sh: the realpages kit's scores, split.

usage: realpages_table.py --kit KIT --kitsrc KITSRC --res RES --split SPLIT
                          [--k default --k 3 ...]

KIT: what the kit's build.sh wrote (extract-truth.jsonl, truth.csv,
pages.csv). KITSRC: the kit's folder (its scorers are imported, so the
figures are the kit's own). RES: the results folder of evaluate.sh
(extract.jsonl, k-K/clusters.csv). SPLIT: bench/realpages_split.txt.

Extraction: the kit's 4-shingle P/R/F1 (extract_score.py's metric) over all
pages, the real ones (>= 8000 bytes, as --min-bytes 8000) and the tune and
holdout pages. Near-duplicates: score.py's pairwise P/R/F1 and per-kind
clustered share; a pair counts as tune (holdout) when every page it is made
of (the content and the template of both URLs, pages.csv) is tune
(holdout); pairs that mix the two count in 'all' only.

Duplicate types: with RES/k-K/pairs.csv (ndd-self-join --pairs of the
run's fingerprints, bench/realpages.sh), every labelled pair's match
value (seed 004's four types, README) or '-' when it is no pair within k,
counted per pair kind: the confusion table of kind against type.
"""
import argparse
import collections
import csv
import json
import os
import sys

sys.dont_write_bytecode = True
REAL_BYTES = 8000


def load_split(path):
    split = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].split()
            if len(line) == 2:
                split[line[0]] = line[1]
    return split


def extraction(kit, res, split, textnorm, load_predictions):
    truth = []
    with open(os.path.join(kit, 'extract-truth.jsonl'), encoding='utf-8') as f:
        truth = [json.loads(x) for x in f if x.strip()]
    key, table = next(iter(load_predictions(os.path.join(res, 'extract.jsonl')).items()))
    subsets = collections.OrderedDict((s, []) for s in ('all', 'real', 'tune', 'holdout',
                                                        'tune real', 'holdout real'))
    for t in truth:
        pred = table.get(t[key], '')
        row = textnorm.extraction_tp_fp_fn(t['truth'], pred)
        p, r = textnorm.precision_score(*row), textnorm.recall_score(*row)
        page = (row, p, r, len(textnorm.shingle_metric_tokens(pred)))
        real = t.get('bytes', 0) >= REAL_BYTES
        side = split.get(t['id'])
        if side is None:
            sys.exit('realpages_table.py: page %s is not in the split' % t['id'])
        for name in ('all', 'real' if real else None, side, side + ' real' if real else None):
            if name:
                subsets[name].append(page)
    out = []
    for name, pages in subsets.items():
        m = textnorm.metrics_from_tp_fp_fns([x[0] for x in pages])
        low = sum(1 for _, p, r, _ in pages if (2 * p * r / (p + r) if p + r else 0) < 0.5)
        empty = sum(1 for x in pages if x[3] == 0)
        out.append((name, len(pages), m['precision'], m['recall'], m['f1'], low, empty))
    return out


def pair_sides(kit, split):
    """{(url_a, url_b): 'tune' | 'holdout' | 'mixed'} for truth.csv's pairs."""
    with open(os.path.join(kit, 'pages.csv'), newline='', encoding='utf-8') as f:
        pages = {r['url']: r for r in csv.DictReader(f)}
    sides = {}
    with open(os.path.join(kit, 'truth.csv'), newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            s = set()
            for u in (r['url_a'], r['url_b']):
                p = pages[u]
                s |= {split[p['template']], split[p['content']]}
            sides[(r['url_a'], r['url_b'])] = s.pop() if len(s) == 1 else 'mixed'
    return sides


def near_dups(kit, clusters, sides, score):
    """{side: (tp, fp, fn, tn, {(kind, label): [clustered, pairs]})}."""
    cl = score.read_clusters(clusters)
    out = {}
    for a, b, label, kind, _ in score.read_truth(os.path.join(kit, 'truth.csv'), None):
        same = a in cl and b in cl and cl[a] == cl[b]
        for side in ('all', sides.get((a, b), 'mixed')):
            if side == 'mixed':
                continue
            c = out.setdefault(side, [0, 0, 0, 0, collections.defaultdict(lambda: [0, 0])])
            c[0 if label == 'dup' else 1] += same
            c[2 if label == 'dup' else 3] += not same
            c[4][(kind, label)][0] += same
            c[4][(kind, label)][1] += 1
    return out


def prf(c):
    tp, fp, fn, tn = c[:4]
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f, (fp / (fp + tn) if fp + tn else 0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--kit', required=True)
    ap.add_argument('--kitsrc', required=True)
    ap.add_argument('--res', required=True)
    ap.add_argument('--split', required=True)
    ap.add_argument('--k', action='append', default=[])
    args = ap.parse_args()
    sys.path[:0] = [args.kitsrc, os.path.join(args.kitsrc, 'lib')]
    import textnorm  # noqa: E402
    import score  # noqa: E402
    from extract_score import load_predictions  # noqa: E402
    split = load_split(args.split)

    print('realpages extraction (ndd-extract --json; 4-shingle P/R/F1 as extract_score.py;'
          ' real = >= %d bytes)' % REAL_BYTES)
    print('  %-13s %5s %6s %6s %6s %9s %6s' % ('pages', 'n', 'P', 'R', 'F1', 'F1<0.5', 'empty'))
    ext = {}
    for name, n, p, r, f, low, empty in extraction(args.kit, args.res, split, textnorm,
                                                   load_predictions):
        print('  %-13s %5d %6.3f %6.3f %6.3f %9d %6d' % (name, n, p, r, f, low, empty))
        ext[name] = f

    sides = pair_sides(args.kit, split)
    ks = args.k or ['default']
    res = {}
    for k in ks:
        path = os.path.join(args.res, 'k-%s' % k, 'clusters.csv')
        if not os.path.exists(path):
            sys.exit('realpages_table.py: no %s' % path)
        res[k] = near_dups(args.kit, path, sides, score)
    cols = [(k, s) for k in ks for s in ('all', 'tune', 'holdout')]
    print('\nrealpages near-duplicates (run_pipeline.sh; dup rows: recall, nondup rows:'
          ' share clustered; tune/holdout: pairs made of such pages only)')
    w = '%-14s'
    head = ''.join(w % ('k=%s %s' % ('6' if k == 'default' else k, s)) for k, s in cols)
    print(('  %-26s' % '' + head).rstrip())
    for i, name in enumerate(('precision', 'recall', 'F1', 'FPR')):
        row = ''.join(w % ('%.3f' % prf(res[k][s])[i]) for k, s in cols)
        print(('  %-26s' % name + row).rstrip())
    kinds = sorted(res[ks[0]]['all'][4], key=lambda x: (x[1], x[0]))
    for kind in kinds:
        cells = []
        for k, s in cols:
            c, n = res[k][s][4].get(kind, [0, 0])
            cells.append('%3d/%-3d %.3f' % (c, n, c / n) if n else '-')
        print(('  %-26s' % ('%s %s' % kind) + ''.join(w % x for x in cells)).rstrip())
    for k in ks:
        path = os.path.join(args.res, 'k-%s' % k, 'pairs.csv')
        if os.path.exists(path):
            print(match_table(args.kit, path, '6' if k == 'default' else k, score))
    print(summary(ext, res, ks))
    return 0


TYPES = ('exact', 'same-content', 'same-layout', 'partial', '-')


def match_table(kit, path, k, score):
    """The confusion table of realpages pair kind against the match
    value of the pair in @path (ndd-self-join --pairs)."""
    with open(path, newline='', encoding='utf-8') as f:
        match = {}
        for r in csv.DictReader(f):
            match[(r['key_a'], r['key_b'])] = match[(r['key_b'], r['key_a'])] = r['match']
    table = collections.OrderedDict()
    for a, b, label, kind, _ in score.read_truth(os.path.join(kit, 'truth.csv'), None):
        row = table.setdefault('%s %s' % (kind, label), collections.Counter())
        row[match.get((a, b), '-')] += 1
    out = ['\nrealpages duplicate types at k=%s (match of each labelled pair, --pairs;'
           ' -: no pair within k)' % k,
           '  %-26s' % 'kind' + ''.join('%13s' % t for t in TYPES)]
    for name in sorted(table, key=lambda x: (x.split()[1], x)):
        out.append('  %-26s' % name + ''.join('%13d' % table[name][t] for t in TYPES))
    return '\n'.join(out)


def summary(ext, res, ks):
    """The line bench/run.sh logs: extraction F1 and, per k, F1 and the
    hard kinds."""
    out = ['extraction F1 %.3f (real %.3f, tune %.3f, holdout %.3f)'
           % (ext['all'], ext['real'], ext['tune'], ext['holdout'])]
    for k in ks:
        a = res[k]['all']
        kinds = a[4]
        cell = lambda kind: '%d/%d' % tuple(kinds.get(kind, [0, 0]))  # noqa: E731
        out.append('k=%s F1 %.3f, retemplate %s, edit %s, same-template %s'
                   % ('6' if k == 'default' else k, prf(a)[2], cell(('real-retemplate', 'dup')),
                      cell(('real-edit', 'dup')), cell(('real-same-template', 'nondup'))))
    return 'summary: ' + '; '.join(out)


if __name__ == '__main__':
    sys.exit(main())
