#!/usr/bin/env python3
"""What the clusters of the real-HTML crawl show, without reference texts
(bench/realcrawl.sh).

No page of the crawl has a labelled main text, so this measures what can
be told from the pages themselves: a member of a cluster whose whole
visible text (the HTML with its tags, scripts and styles taken out) shares
less than half of its word 3-shingles with the cluster's representative
(Jaccard < 0.5) is not its duplicate: such a cluster holds pages that
share their template or a notice, not their content.  Also counted: large
clusters (more than 10 pages) and clusters that span sites.

Each figure is given for the tune sites and for the holdout sites of the
sites file; a cluster whose pages are all on tune sites is itemised with
--list, one on a holdout site never is (issue 15's holdout rule).

    realcrawl_quality.py SITES CLUSTERS_CSV [--list N]
"""
import collections
import csv
import html
import re
import sys
import zlib

import serve_docs

DROP = re.compile(r"<(script|style|noscript)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"\w+")


def visible_words(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    text = html.unescape(TAG.sub(" ", DROP.sub(" ", text)))
    return WORD.findall(text.lower())


def shingles(words):
    if len(words) < 3:
        return {zlib.crc32(" ".join(words).encode())}
    return {zlib.crc32(" ".join(words[i:i + 3]).encode()) for i in range(len(words) - 2)}


def jaccard(a, b):
    return len(a & b) / len(a | b) if a or b else 1.0


def read_clusters(path):
    clusters = collections.OrderedDict()
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            members = clusters.setdefault(row["cluster_id"], [])
            if row["is_representative"] == "1":
                members.insert(0, row)
            else:
                members.append(row)
    return clusters


def host_of(url):
    return url.split("/")[2]


class Tally:
    def __init__(self):
        self.c = collections.Counter()
        self.sizes = collections.Counter()

    def add(self, members, sims, spans):
        low = sum(1 for s in sims if s < 0.5)
        self.c["clusters"] += 1
        self.c["pages"] += len(members)
        self.c["low_members"] += low
        self.c["below_members"] += sum(1 for s in sims if s < 0.8)
        self.c["merge_clusters"] += low > 0
        self.c["big_clusters"] += len(members) > 10
        self.c["big_pages"] += len(members) if len(members) > 10 else 0
        self.c["cross_site"] += spans > 1
        self.c["cross_site_pages"] += len(members) if spans > 1 else 0
        self.sizes[min(len(members), 11)] += 1


def main():
    sites = serve_docs.read_sites(sys.argv[1])
    clusters = read_clusters(sys.argv[2])
    listing = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--list" else 0
    split = {host: s for host, s, _, _ in sites}
    roots = {host: root for host, _, _, root in sites}
    pages = collections.Counter(split[h] for h, _, _, r in sites for _ in serve_docs.site_pages(r))
    tallies = collections.defaultdict(Tally)
    shown = []
    for cid, members in clusters.items():
        hosts = {host_of(m["url"]) for m in members}
        halves = {split.get(h, "?") for h in hosts}
        half = halves.pop() if len(halves) == 1 else "both"
        texts = [shingles(visible_words(serve_docs.url_file(roots, m["url"]))) for m in members]
        sims = [jaccard(texts[0], t) for t in texts[1:]]
        tallies[half].add(members, sims, len(hosts))
        if half == "tune":
            shown.append((min(sims), cid, members, sims))
    head = "%-8s %7s %8s %9s %8s %9s %9s %9s %9s %8s %9s"
    print(head % ("sites", "pages", "clusters", "clustered", "merges", "members", "members",
                  "big", "big", "cross", "cross"))
    print(head % ("", "", "", "pages", "J<0.5", "J<0.5", "J<0.8", "clusters", "pages", "site", "pages"))
    for half in ("tune", "holdout", "both"):
        c = tallies[half].c
        print("%-8s %7d %8d %9d %8d %9d %9d %9d %9d %8d %9d" % (
            half, pages.get(half, 0), c["clusters"], c["pages"], c["merge_clusters"], c["low_members"],
            c["below_members"], c["big_clusters"], c["big_pages"], c["cross_site"], c["cross_site_pages"]))
        if half == "both":
            continue
        print("summary: realcrawl %s sites: %d pages, %d clustered in %d clusters; %d clusters hold "
              "pages sharing < 0.5 of their visible text (%d such pages), %d clusters of > 10 pages" % (
                  half, pages.get(half, 0), c["pages"], c["clusters"], c["merge_clusters"],
                  c["low_members"], c["big_clusters"]))
    print("(both: clusters with pages on tune and holdout sites)")
    for half in ("tune", "holdout"):
        sz = tallies[half].sizes
        print("%s cluster sizes: %s" % (half, ", ".join(
            "%s: %d" % (k if k < 11 else ">10", sz[k]) for k in sorted(sz))))
    if listing:
        print("\ntune clusters, lowest Jaccard to the representative first (min J, size, sites, URLs):")
        for low, cid, members, sims in sorted(shown, key=lambda x: (x[0], -len(x[2])))[:listing]:
            hosts = sorted({host_of(m["url"]) for m in members})
            print("%.2f %5d %s" % (low, len(members), ",".join(hosts)))
            for m, s in list(zip(members, [1.0] + sims))[:4]:
                print("      %.2f %s" % (s, m["url"]))


if __name__ == "__main__":
    main()
