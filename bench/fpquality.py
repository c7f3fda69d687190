#!/usr/bin/env python3
"""Fingerprint quality: the real pipeline against exact-Jaccard truth.

    python3 bench/fpquality.py [--bin build/bin] [--bench-bin build/bench]
                               [--dir /tmp/ndd-fpq] [--k "1 2 3 4 5 6 7 8"]
                               [--fp-opts "--shingle 3"] [--default-k 6]

Builds the labelled corpus of bench/fpq_corpus.py as one WARC, runs
ndd-extract and ndd-fingerprint once, then ndd-permute-sort | ndd-compress
| ndd-self-join for every k, and scores the clusters pairwise: a pair is
predicted positive when both pages are in one cluster; it is truly
positive when the Jaccard similarity of the planted texts' 3-shingles is
at least the threshold (0.9, 0.8, 0.7).  The same is done for a plain
baseline (bench/fp_baseline: SimHash of all visible text, distinct words
weight 1, the same hash), imported with ndd-fingerprint --import-text and
clustered by the same stages.  At the default k, run_pipeline.sh is also
run on the WARC and must give the same clusters as the stages.

Truth is computed for every pair inside a family (a text and its planted
variants) and for every pair of two families whose base texts have a
Jaccard of at least CROSS_MIN; any other pair that the pipeline predicts
is computed on demand, and the rest (unrelated texts) count as negatives.
"""

import argparse
import csv
import itertools
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpq_corpus as corpus  # noqa: E402

THRESHOLDS = (0.9, 0.8, 0.7)
CROSS_MIN = 0.4
KINDS = ("exact", "tpl-b", "tpl-c", "charset", "reorder", "edit1", "edit3", "edit8",
         "edit15", "short-exact")


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode not in (0, 1):
        sys.exit("fpquality: %s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                    r.stderr.decode(errors="replace")[-2000:]))
    return r


class Truth:
    """Exact Jaccard of planted texts, keyed by (page index, page index), i < j."""

    def __init__(self, pages):
        self.pages = pages
        self.j = {}
        fams = {}
        for i, p in enumerate(pages):
            fams.setdefault(p.family, []).append(i)
        for members in fams.values():
            for a, b in itertools.combinations(members, 2):
                self.get(a, b)
        bases = [(f, m[0]) for f, m in fams.items()]
        for (fa, a), (fb, b) in itertools.combinations(bases, 2):
            if pages[a].lang == pages[b].lang and self.get(a, b) >= CROSS_MIN:
                for x in fams[fa]:
                    for y in fams[fb]:
                        self.get(x, y)
        self.fams = fams

    def get(self, a, b):
        key = (a, b) if a < b else (b, a)
        v = self.j.get(key)
        if v is None:
            v = self.j[key] = corpus.jaccard(self.pages[a].sh, self.pages[b].sh)
        return v

    def positives(self, t):
        return {k for k, v in self.j.items() if v >= t}


def clusters_from_csv(path, index):
    groups = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            groups.setdefault(row["cluster_id"], []).append(index[row["url"]])
    return list(groups.values())


def predicted_pairs(groups):
    out = set()
    for g in groups:
        for a, b in itertools.combinations(sorted(g), 2):
            out.add((a, b))
    return out


def join_all_k(bin_dir, fps, ks, work, tag, index):
    """Clusters for each k: permute-sort | compress | self-join, the real stages."""
    res = {}
    for k in ks:
        out = os.path.join(work, "%s-k%d.csv" % (tag, k))
        ps = subprocess.Popen([bin_dir + "/ndd-permute-sort", "-q", "-k", str(k), fps],
                              stdout=subprocess.PIPE)
        cp = subprocess.Popen([bin_dir + "/ndd-compress", "-q"], stdin=ps.stdout,
                              stdout=subprocess.PIPE)
        ps.stdout.close()
        run([bin_dir + "/ndd-self-join", "-q", "-c", fps, "-o", out], stdin=cp.stdout)
        cp.stdout.close()
        if ps.wait() or cp.wait():
            sys.exit("fpquality: permute-sort or compress failed at k=%d" % k)
        res[k] = predicted_pairs(clusters_from_csv(out, index))
    return res


def prf(pred, truth, t):
    pos = truth.positives(t)
    tp = sum(1 for p in pred if truth.get(*p) >= t)
    fp = len(pred) - tp
    fn = len(pos - pred)
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return prec, rec, f1


def hard_negatives(truth, neighbours):
    """Pairs that must not be clustered, by category (truth < CROSS_MIN)."""
    pages, fams = truth.pages, truth.fams
    bases = [m[0] for f, m in fams.items() if pages[m[0]].kind == "base"]
    shorts = [m[0] for f, m in fams.items() if pages[m[0]].kind == "short"]
    out = {"template": [], "same-topic": [], "short": []}
    for a, b in itertools.combinations(bases, 2):
        if pages[a].lang == pages[b].lang and truth.get(a, b) < CROSS_MIN:
            out["template"].append((min(a, b), max(a, b)))
    for fa, fb in neighbours:
        a, b = fams[fa][0], fams[fb][0]
        if truth.get(a, b) < CROSS_MIN:
            out["same-topic"].append((min(a, b), max(a, b)))
    for a, b in itertools.combinations(shorts, 2):
        if truth.get(a, b) < CROSS_MIN:
            out["short"].append((min(a, b), max(a, b)))
    return out


def kind_pairs(truth):
    """(base, variant) pairs per kind of variant."""
    out = {k: [] for k in KINDS}
    for members in truth.fams.values():
        first = members[0]
        for m in members[1:]:
            out[truth.pages[m].kind].append((min(first, m), max(first, m)))
    return out


def report(name, res, truth, negs, kinds, ks, k_any):
    print("\n== %s: pairwise precision / recall / F1 over clusters ==" % name)
    print("%-3s " % "k" + "".join("  J>=%.1f P     R     F1  " % t for t in THRESHOLDS))
    for k in ks:
        cells = []
        for t in THRESHOLDS:
            cells.append("  %.3f %.3f %.3f" % prf(res[k], truth, t))
        print("%-3d " % k + "     ".join(cells))
    print("\n-- %s: recall per variant at J>=0.8 (pairs base-variant; n = pairs with J>=0.8;"
          " 'any' = clustered whatever J) --" % name)
    print("%-12s %5s %6s " % ("variant", "n", "meanJ") + " ".join("k=%-5d" % k for k in ks)
          + "  any@k=" + str(k_any))
    for kind, pairs in kinds.items():
        if not pairs:
            continue
        good = [p for p in pairs if truth.get(*p) >= 0.8]
        meanj = sum(truth.get(*p) for p in pairs) / len(pairs)
        row = " ".join("%-7s" % ("%.3f" % (sum(p in res[k] for p in good) / len(good))
                                 if good else "-") for k in ks)
        anyk = sum(p in res[k_any] for p in pairs) / len(pairs)
        print("%-12s %5d %6.3f %s  %.3f" % (kind, len(good), meanj, row, anyk))
    bands(name, res, truth, ks)
    print("\n-- %s: hard negatives clustered (fraction of pairs) --" % name)
    print("%-12s %6s " % ("category", "pairs") + " ".join("k=%-6d" % k for k in ks))
    allp = [p for v in negs.values() for p in v]
    for cat, pairs in list(negs.items()) + [("all", allp)]:
        row = " ".join("%-8.4f" % (sum(p in res[k] for p in pairs) / max(1, len(pairs)))
                       for k in ks)
        print("%-12s %6d %s" % (cat, len(pairs), row))


BANDS = (0.0, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)


def bands(name, res, truth, ks):
    """The curve: the share of pairs clustered per band of true Jaccard
    (pairs whose truth was computed: inside a family, or across similar
    families); the band [1, 1] holds the identical texts."""
    print("\n-- %s: share of pairs clustered per band of true Jaccard --" % name)
    print("%-11s %6s " % ("J band", "pairs") + " ".join("k=%-6d" % k for k in ks))
    cells = [[] for _ in BANDS]
    for p, v in truth.j.items():
        i = len(BANDS) - 1 if v >= 1.0 else max(b for b, lo in enumerate(BANDS) if v >= lo)
        cells[i].append(p)
    for i, pairs in enumerate(cells):
        if not pairs:
            continue
        lab = "1" if i == len(BANDS) - 1 else "%.2f-%.2f" % (BANDS[i], BANDS[i + 1])
        row = " ".join("%-8.4f" % (sum(p in res[k] for p in pairs) / len(pairs)) for k in ks)
        print("%-11s %6d %s" % (lab, len(pairs), row))


def write_inputs(pages, work):
    warc = os.path.join(work, "fpq.warc")
    corpus.write_warc(pages, warc)
    raw = os.path.join(work, "pages.bin")
    with open(raw, "wb") as f:
        for p in pages:
            b = p.html.encode("utf-8")
            f.write(("%s\t%d\n" % (p.url, len(b))).encode() + b)
    return warc, raw


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--bench-bin", default="build/bench")
    ap.add_argument("--dir", default="/tmp/ndd-fpq")
    ap.add_argument("--k", default="1 2 3 4 5 6 7 8")
    ap.add_argument("--default-k", type=int, default=6)
    ap.add_argument("--fp-opts", default="")
    ap.add_argument("--n-en", type=int, default=150)
    ap.add_argument("--n-zh", type=int, default=150)
    ap.add_argument("--n-short", type=int, default=80)
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--diag", type=int, default=0, help="error breakdown at this k")
    a = ap.parse_args()
    ks = [int(x) for x in a.k.split()]
    os.makedirs(a.dir, exist_ok=True)
    t0 = time.time()
    pages, neighbours = corpus.build(a.n_en, a.n_zh, a.n_short)
    index = {p.url: i for i, p in enumerate(pages)}
    assert len(index) == len(pages), "URLs must be unique"
    warc, raw = write_inputs(pages, a.dir)
    truth = Truth(pages)
    negs, kinds = hard_negatives(truth, neighbours), kind_pairs(truth)
    print("corpus: %d pages (%d families), %.1f MB WARC, %d pairs with truth, built in %.0f s"
          % (len(pages), len(truth.fams), os.path.getsize(warc) / 1e6, len(truth.j),
             time.time() - t0))
    print("positives: " + ", ".join("J>=%.1f: %d" % (t, len(truth.positives(t)))
                                    for t in THRESHOLDS))
    docs, fps = os.path.join(a.dir, "docs.ndf"), os.path.join(a.dir, "fps.ndf")
    run([a.bin + "/ndd-extract", "-q", "-o", docs, warc])
    run([a.bin + "/ndd-fingerprint", "-q"] + a.fp_opts.split() + ["-o", fps, docs])
    res = join_all_k(a.bin, fps, ks, a.dir, "ndd", index)
    k_any = a.default_k if a.default_k in ks else ks[len(ks) // 2]
    report("ndd (extract + fingerprint %s)" % (a.fp_opts or "defaults"), res, truth, negs,
           kinds, ks, k_any)
    if a.diag:
        diagnose(res[a.diag], truth, 0.8, a.diag)
        oracle(truth, pages, 0.8)
    if a.default_k in ks and not a.fp_opts:
        check_run_pipeline(a, warc, res[a.default_k], index)
    if not a.no_baseline:
        txt, bfps = os.path.join(a.dir, "baseline.txt"), os.path.join(a.dir, "baseline.ndf")
        with open(raw, "rb") as f, open(txt, "wb") as o:
            r = subprocess.run([a.bench_bin + "/fp_baseline"], stdin=f, stdout=o)
        if r.returncode:
            sys.exit("fpquality: fp_baseline failed")
        run([a.bin + "/ndd-fingerprint", "-q", "--import-text", txt, "-o", bfps])
        bres = join_all_k(a.bin, bfps, ks, a.dir, "base", index)
        report("baseline (all visible text, distinct words weight 1)", bres, truth, negs,
               kinds, ks, k_any)


def diagnose(pred, truth, t, k):
    """Errors at threshold t by the kinds of the two pages."""
    from collections import Counter
    fp, fn = Counter(), Counter()
    for p in pred:
        if truth.get(*p) < t:
            fp[tuple(sorted((truth.pages[p[0]].kind, truth.pages[p[1]].kind)))] += 1
    for p in truth.positives(t) - pred:
        fn[tuple(sorted((truth.pages[p[0]].kind, truth.pages[p[1]].kind)))] += 1
    print("\n-- k=%d: errors at J>=%.1f, false positives / false negatives by kinds;"
          " then by language --" % (k, t))
    print("FP", fp.most_common(12))
    print("FN", fn.most_common(12))
    pos = truth.positives(t)
    for lang in sorted({p.lang for p in truth.pages}):
        mine = {p for p in pred if truth.pages[p[0]].lang == lang}
        tp = sum(1 for p in mine if truth.get(*p) >= t)
        npos = sum(1 for p in pos if truth.pages[p[0]].lang == lang)
        prec, rec = tp / max(1, len(mine)), tp / max(1, npos)
        print("%s: P %.3f R %.3f F1 %.3f (%d true pairs)"
              % (lang, prec, rec, 2 * prec * rec / max(1e-9, prec + rec), npos))


def oracle(truth, pages, t):
    """The same greedy star cover over the truth itself: the best any
    fingerprint can do with clusters whose members are near their centre."""
    adj = {}
    for (a, b), v in truth.j.items():
        if v >= t:
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
    done, groups = set(), []
    while True:
        best = max(((len(adj[x] - done), -x) for x in adj if x not in done
                    and adj[x] - done), default=None)
        if not best:
            break
        c = -best[1]
        g = [c] + sorted(adj[c] - done)
        done.update(g)
        groups.append(g)
    pred = predicted_pairs(groups)
    print("oracle star cover over truth J>=%.1f: P %.3f R %.3f F1 %.3f" % ((t,) + prf(pred, truth, t)))


def check_run_pipeline(a, warc, pairs, index):
    out = os.path.join(a.dir, "pipeline")
    # the stages above decide each page alone: the script must too
    run(["./run_pipeline.sh", "-q", "--no-templates", "--bin", a.bin, "-k", str(a.default_k), "-o", out, warc])
    got = predicted_pairs(clusters_from_csv(os.path.join(out, "clusters.csv"), index))
    print("\nrun_pipeline.sh --no-templates -k %d: %s the stages' clusters" %
          (a.default_k, "same as" if got == pairs else "DIFFERENT from"))


if __name__ == "__main__":
    main()
