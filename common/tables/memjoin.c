/*
 * memjoin.c - see memjoin.h.
 *
 * Sort sharing: the tables whose permutations put the same fingerprint
 * bits at the top of the key (those leading with the same first blocks:
 * a third of the tables or more at k = 6) are scattered by those bits
 * once, in one pass over main memory, as a group.  Each bucket of the
 * scatter, a few thousand records, is then sorted and joined once per
 * table of the group while it sits in the core's cache: the pass over
 * main memory, the sort's dearest part, is made once per group instead
 * of once per table.
 */
#include "tables/memjoin.h"

#include <stdlib.h>
#include <string.h>

#include "tables/keysort.h"
#include "util/log.h"
#include "util/memhint.h"
#include "util/threads.h"

/* A group's buckets hold about this many records at most (12 bytes each,
 * with a sorted copy and the join's arrays: within L2). */
#define GROUP_BUCKET 32768
/* Tables in one group at most (a byte table of 16 KB each). */
#define GROUP_MAX 64

/* One thread's share: a bucket's records permuted into a table's keys,
 * sorted, split into the key and index arrays join_scan() reads, and the
 * pairs it found. */
struct mj_thread {
	struct table_rec *buf, *sorted;
	uint64_t *keys;
	uint32_t *idx;
	uint32_t *cnt;
	size_t cap;
	struct pair_vec pairs;
	uint64_t comparisons;
	int bad;
};

struct mj {
	const struct design *d;
	struct mj_thread *th;
	/* the group being joined */
	uint32_t group[GROUP_MAX];
	struct design_lut *lut; /* from the group's first table to each */
	uint32_t n_group;
	unsigned bits;
	const struct table_rec *recs;
	const size_t *start;
};

static int reserve(struct mj_thread *th, size_t n)
{
	if (!th->cnt && !(th->cnt = malloc(KEYSORT_COUNTERS * sizeof *th->cnt)))
		return -1;
	if (n <= th->cap)
		return 0;
	size_t cap = th->cap ? th->cap : 4096;
	while (cap < n)
		cap *= 2;
	void *p;
#define GROW(field)                                                 \
	if (!(p = realloc(th->field, cap * sizeof *th->field))) \
		return -1;                                          \
	th->field = p;
	GROW(buf)
	GROW(sorted)
	GROW(keys)
	GROW(idx)
#undef GROW
	th->cap = cap;
	return 0;
}

static void thread_free(struct mj_thread *th)
{
	free(th->buf);
	free(th->sorted);
	free(th->keys);
	free(th->idx);
	free(th->cnt);
	pair_vec_free(&th->pairs);
}

/* Join table @t's sorted records @r[0..n), which hold whole runs. */
static void join_recs(const struct design *d, uint32_t t, struct mj_thread *th,
		      const struct table_rec *r, size_t n)
{
	if (th->bad || n < 2)
		return;
	if (reserve(th, n)) {
		th->bad = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		th->keys[i] = r[i].key;
		th->idx[i] = r[i].idx;
	}
	th->bad = join_scan(d, t, th->keys, th->idx, n, &th->pairs, &th->comparisons) != 0;
}

/* Bits below the shared top that a bucket is grouped by in one counting
 * pass: its 2^10 counters (4 KB) and the permutation's byte tables (16 KB)
 * stay in L1 together; 2^13 counters did not, and the pass took twice as
 * long. */
#define GROUP_SORT_BITS 10

/* Sort run @keys/@idx[0..n) by (key, idx) through @tmp. */
static void sort_run(uint64_t *keys, uint32_t *idx, size_t n, struct table_rec *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = (struct table_rec){keys[i], idx[i]};
	keysort_small(tmp, n);
	for (size_t i = 0; i < n; i++) {
		keys[i] = tmp[i].key;
		idx[i] = tmp[i].idx;
	}
}

/*
 * Bucket @b of the group's scatter, for the group's table @g: its records'
 * keys made that table's and joined.  The join needs each run's keys
 * together, not sorted, but for runs long enough to be searched by
 * sub-blocks: so one counting pass on the leading bits below the bucket's
 * shared ones puts every run together (in index order) straight into the
 * join's key and index arrays, and only those long runs are then sorted.
 */
static void join_bucket(struct mj *m, struct mj_thread *th, size_t b, uint32_t g)
{
	const size_t lo = m->start[b], n = m->start[b + 1] - lo;
	if (th->bad || n < 2)
		return;
	if (reserve(th, n)) {
		th->bad = 1;
		return;
	}
	const struct table_rec *src = m->recs + lo;
	const struct design_lut *lut = &m->lut[g];
	const uint32_t t = m->group[g], lead = m->d->tables[t].lead_bits;
	const unsigned gb = lead - m->bits;
	if (gb > GROUP_SORT_BITS) { /* many leading bits: sorted whole */
		for (size_t i = 0; i < n; i++)
			th->buf[i] = (struct table_rec){design_lut_permute(lut, src[i].key), src[i].idx};
		keysort_bucket(th->buf, n, m->bits, th->sorted, th->cnt);
		join_recs(m->d, t, th, th->sorted, n);
		return;
	}
	const unsigned sh = 64 - lead; /* lead > 0: at least the shared bits */
	const uint64_t mask = ((uint64_t)1 << gb) - 1;
	uint64_t *perm = (uint64_t *)th->buf; /* n keys fit in n records */
	uint32_t *cnt = th->cnt;
	const size_t groups = (size_t)1 << gb;
	memset(cnt, 0, (groups + 1) * sizeof *cnt);
	for (size_t i = 0; i < n; i++) {
		const uint64_t k = design_lut_permute(lut, src[i].key);
		perm[i] = k;
		cnt[((k >> sh) & mask) + 1]++;
	}
	for (size_t v = 0; v < groups; v++)
		cnt[v + 1] += cnt[v];
	for (size_t i = 0; i < n; i++) {
		const uint32_t pos = cnt[(perm[i] >> sh) & mask]++;
		th->keys[pos] = perm[i];
		th->idx[pos] = src[i].idx;
	}
	const size_t min_run = join_split_threshold(lead, m->d->k);
	if (min_run <= n) { /* cnt[v] is now the end of run v */
		size_t a = 0;
		for (size_t v = 0; v < groups; v++) {
			if (cnt[v] - a >= min_run)
				sort_run(th->keys + a, th->idx + a, cnt[v] - a, th->sorted);
			a = cnt[v];
		}
	}
	th->bad = join_scan(m->d, t, th->keys, th->idx, n, &th->pairs, &th->comparisons) != 0;
}

static void join_group(struct mj *m, size_t nb)
{
	const size_t nt = (size_t)threads_max();
	if (nb >= 8 * nt) { /* bucket by bucket: each read from memory once */
#pragma omp parallel for schedule(dynamic, 1)
		for (size_t b = 0; b < nb; b++)
			for (uint32_t g = 0; g < m->n_group; g++)
				join_bucket(m, &m->th[threads_id()], b, g);
	} else { /* few buckets (few fingerprints): tables in parallel too */
		const size_t jobs = nb * m->n_group;
#pragma omp parallel for schedule(dynamic, 1)
		for (size_t j = 0; j < jobs; j++)
			join_bucket(m, &m->th[threads_id()], j / m->n_group, (uint32_t)(j % m->n_group));
	}
}

/* Do tables @a and @b put the same fingerprint bits on their keys' top
 * @bits bits? */
static int same_top(const struct design *d, uint32_t a, uint32_t b, unsigned bits)
{
	return !memcmp(d->tables[a].perm, d->tables[b].perm, bits);
}

static size_t g_bucket = GROUP_BUCKET; /* memjoin_bucket_records() */

void memjoin_bucket_records(size_t n)
{
	g_bucket = n ? n : GROUP_BUCKET;
}

int memjoin(const struct design *d, uint32_t t0, uint32_t t1, uint64_t *fps, size_t n,
	    uint64_t idx0, struct pair_vec *out, uint64_t *comparisons)
{
	const int nt = threads_max();
	/* buckets small enough, and then cut on enough bits that the tables
	 * group a bucket's runs in one counting pass (while buckets are not
	 * tiny) */
	unsigned bits = 0, lead_max = 0;
	while (bits < 16 && (n >> bits) > g_bucket)
		bits++;
	for (uint32_t t = t0; t < t1; t++)
		lead_max = d->tables[t].lead_bits > lead_max ? d->tables[t].lead_bits : lead_max;
	while (bits < 16 && bits + GROUP_SORT_BITS < lead_max && (n >> bits) > g_bucket / 64)
		bits++;
	struct mj m = {.d = d};
	m.th = calloc((size_t)nt, sizeof *m.th);
	m.lut = malloc(GROUP_MAX * sizeof *m.lut);
	struct table_rec *recs = malloc((n ? n : 1) * sizeof *recs);
	size_t *start = malloc((((size_t)1 << bits) + 1) * sizeof *start);
	uint8_t *done = calloc(d->n_tables, 1);
	struct design_lut *to = malloc(sizeof *to);
	int rc = !m.th || !m.lut || !recs || !start || !done || !to ? -1 : 0;
	/* the top radix level writes to thousands of places at once */
	if (!rc)
		mem_hint_huge_pages(recs, n * sizeof *recs);
	m.recs = recs;
	m.start = start;
	int from = -1; /* whose keys @fps holds: a table, or the fingerprints */
	for (uint32_t t = t0; t < t1 && !rc; t++) {
		if (done[t])
			continue;
		design_lut_between(d, from, (int)t, to);
		from = (int)t;
		/* the group: every table left that tops its keys as t does (each
		 * leads with at least m.bits bits, so its runs lie within the
		 * buckets); a table leading with fewer bits is scattered on those
		 * alone (one run per bucket) */
		m.bits = d->tables[t].lead_bits < bits ? d->tables[t].lead_bits : bits;
		m.n_group = 0;
		for (uint32_t u = t; u < t1 && m.n_group < GROUP_MAX; u++)
			if (!done[u] && d->tables[u].lead_bits >= m.bits && same_top(d, t, u, m.bits)) {
				design_lut_between(d, (int)t, (int)u, &m.lut[m.n_group]);
				m.group[m.n_group++] = u;
				done[u] = 1;
			}
#pragma omp parallel for schedule(static)
		for (size_t i = 0; i < n; i++)
			fps[i] = design_lut_permute(to, fps[i]);
		rc = keysort_scatter(fps, n, idx0, m.bits, recs, start);
		if (!rc)
			join_group(&m, (size_t)1 << m.bits);
		log_debug("tables %u.. (%u of them) joined in memory at %.3f s", t, m.n_group,
			  log_wall());
		done[t] = 1;
		for (int i = 0; i < nt; i++)
			rc |= m.th[i].bad;
	}
	if (!rc && from >= 0) { /* the fingerprints back */
		design_lut_between(d, from, -1, to);
#pragma omp parallel for schedule(static)
		for (size_t i = 0; i < n; i++)
			fps[i] = design_lut_permute(to, fps[i]);
	}
	for (int i = 0; i < nt && !rc; i++) {
		rc = pair_vec_append(out, &m.th[i].pairs);
		*comparisons += m.th[i].comparisons;
	}
	if (rc)
		log_error("out of memory joining %zu fingerprints in memory", n);
	for (int i = 0; m.th && i < nt; i++)
		thread_free(&m.th[i]);
	free(m.th);
	free(m.lut);
	free(recs);
	free(start);
	free(done);
	free(to);
	return rc ? -1 : 0;
}
