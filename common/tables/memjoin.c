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
 * and as much again split into sub-buckets: within a 2 MB L2).  Larger
 * buckets are cut on fewer bits, so that more tables share a scatter. */
#define GROUP_BUCKET 65536
/* Tables in one group at most (a byte table of 16 KB each). */
#define GROUP_MAX 64
/* A bucket is split into at most 2^SUB_MAX_BITS sub-buckets. */
#define SUB_MAX_BITS 12

/* One thread's share: a bucket's records permuted into a table's keys,
 * sorted, split into the key and index arrays join_scan() reads, and the
 * pairs it found. */
struct mj_thread {
	struct table_rec *buf, *sorted;
	uint64_t *keys, *bkeys;
	uint32_t *idx, *bidx;
	uint16_t *run;
	uint32_t *cnt, *sub;
	size_t cap;
	struct pair_vec pairs;
	uint64_t comparisons;
	int bad;
};

/* A table's run (its leading bits below the bucket's shared ones) read
 * off the group's first table's key: only the bytes of the key that hold
 * any of those bits are looked up, two or three of the eight. */
struct run_lut {
	uint32_t n_bytes;
	uint8_t shift[8];
	uint16_t v[8][256];
};

struct mj {
	const struct design *d;
	struct mj_thread *th;
	/* the group being joined */
	uint32_t group[GROUP_MAX];
	struct design_lut *lut; /* from the group's first table to each */
	struct run_lut *rl;     /* the same for the runs alone */
	uint32_t n_group;
	unsigned bits; /* the scatter's: a bucket's keys agree on their top bits */
	unsigned sub;  /* a sub-bucket's agree on as many more (split_bucket()) */
	int by_runs;   /* 0: each bucket sorted whole for each table */
	const struct table_rec *recs;
	const size_t *start;
};

static int reserve(struct mj_thread *th, size_t n)
{
	if (!th->cnt && !(th->cnt = malloc(KEYSORT_COUNTERS * sizeof *th->cnt)))
		return -1;
	if (!th->sub && !(th->sub = malloc((((size_t)1 << SUB_MAX_BITS) + 1) * sizeof *th->sub)))
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
	GROW(bkeys)
	GROW(bidx)
	GROW(run)
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
	free(th->bkeys);
	free(th->bidx);
	free(th->run);
	free(th->cnt);
	free(th->sub);
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

/* Fill @rl from @lut (the group's first table to table @u's keys) for
 * the runs of @u: its key's bits @sh .. @sh + @gb - 1 (gb <= 16). */
static void run_lut_build(struct run_lut *rl, const struct design_lut *lut, unsigned sh,
			  unsigned gb)
{
	const uint64_t mask = ((uint64_t)1 << gb) - 1;
	rl->n_bytes = 0;
	for (unsigned b = 0; b < 8; b++) {
		uint16_t *v = rl->v[rl->n_bytes], any = 0;
		for (unsigned x = 0; x < 256; x++)
			any |= v[x] = (uint16_t)((lut->byte[b][x] >> sh) & mask);
		if (any)
			rl->shift[rl->n_bytes++] = (uint8_t)(8 * b);
	}
}

static inline uint32_t run_of(const struct run_lut *rl, uint64_t key)
{
	uint32_t v = 0;
	for (uint32_t b = 0; b < rl->n_bytes; b++)
		v |= rl->v[b][(key >> rl->shift[b]) & 0xff];
	return v;
}

/* Bucket @b's records split into the thread's arrays bkeys/bidx, stably
 * by the m->sub bits below the bucket's (those the whole group shares
 * too): sub-buckets of a few thousand keys that agree on all the group's
 * shared top bits, which stay in L1 while every table of the group is
 * joined in them.  th->sub[s] is where sub-bucket s ends. */
static void split_bucket(const struct mj *m, struct mj_thread *th, const struct table_rec *src,
			 size_t n)
{
	uint32_t *sub = th->sub;
	const size_t nsub = (size_t)1 << m->sub;
	if (m->sub == 0) {
		for (size_t i = 0; i < n; i++) {
			th->bkeys[i] = src[i].key;
			th->bidx[i] = src[i].idx;
		}
		sub[0] = (uint32_t)n;
		return;
	}
	const unsigned sh = 64 - m->bits - m->sub;
	const uint64_t mask = nsub - 1;
	memset(sub, 0, (nsub + 1) * sizeof *sub);
	for (size_t i = 0; i < n; i++)
		sub[((src[i].key >> sh) & mask) + 1]++;
	for (size_t v = 0; v < nsub; v++)
		sub[v + 1] += sub[v];
	for (size_t i = 0; i < n; i++) {
		const uint32_t pos = sub[(src[i].key >> sh) & mask]++;
		th->bkeys[pos] = src[i].key;
		th->bidx[pos] = src[i].idx;
	}
}

/* The run @keys/@idx[0..len) (keys as the group's first table's) of the
 * group's table @g; @shared: the run is a sub-bucket the group's other
 * tables read too, not this table's copy in th->keys/th->idx. */
static void join_one_run(struct mj *m, struct mj_thread *th, uint32_t g, uint64_t *keys,
			 uint32_t *idx, size_t len, size_t min_run, int shared)
{
	const uint32_t t = m->group[g];
	if (len < min_run) {
		th->bad = join_run(m->d, t, &m->d->tables[m->group[0]], keys, idx, len, &th->pairs,
				   &th->comparisons) != 0;
		return;
	}
	/* long enough to be searched by sub-blocks: made this table's keys
	 * and sorted (in a copy when it lies in the sub-bucket the group
	 * shares) */
	if (shared) {
		memcpy(th->keys, keys, len * sizeof *keys);
		memcpy(th->idx, idx, len * sizeof *idx);
		keys = th->keys;
		idx = th->idx;
	}
	for (size_t i = 0; i < len; i++)
		keys[i] = design_lut_permute(&m->lut[g], keys[i]);
	sort_run(keys, idx, len, th->sorted);
	th->bad = join_scan(m->d, t, keys, idx, len, &th->pairs, &th->comparisons) != 0;
}

/*
 * The sub-bucket @keys/@idx[0..n) for the group's table @g.  The join needs
 * each run's keys together, not sorted (but for runs long enough to be
 * searched by sub-blocks), and in any table's permutation: a pair's
 * distance is the same in all.  So one counting pass on the table's run
 * (its leading bits below those the group shares, read off the group's
 * first table's keys as they are) puts every run together, in index
 * order, into the join's key and index arrays, keys unchanged; each run is
 * then joined where it lies.
 */
static void join_sub(struct mj *m, struct mj_thread *th, uint32_t g, uint64_t *keys,
		     uint32_t *idx, size_t n)
{
	const uint32_t lead = m->d->tables[m->group[g]].lead_bits;
	const size_t min_run = join_split_threshold(lead, m->d->k);
	const struct run_lut *rl = &m->rl[g];
	if (rl->n_bytes == 0) { /* the sub-bucket is one run */
		join_one_run(m, th, g, keys, idx, n, min_run, 1);
		return;
	}
	uint16_t *run = th->run;
	uint32_t *cnt = th->cnt;
	const size_t groups = (size_t)1 << (lead - m->bits - m->sub);
	memset(cnt, 0, (groups + 1) * sizeof *cnt);
	for (size_t i = 0; i < n; i++) {
		const uint32_t v = run_of(rl, keys[i]);
		run[i] = (uint16_t)v;
		cnt[v + 1]++;
	}
	for (size_t v = 0; v < groups; v++)
		cnt[v + 1] += cnt[v];
	for (size_t i = 0; i < n; i++) {
		const uint32_t pos = cnt[run[i]]++;
		th->keys[pos] = keys[i];
		th->idx[pos] = idx[i];
	}
	size_t a = 0;
	for (size_t v = 0; v < groups && !th->bad; v++) { /* cnt[v] is now the end of run v */
		if (cnt[v] - a >= 2)
			join_one_run(m, th, g, th->keys + a, th->idx + a, cnt[v] - a, min_run, 0);
		a = cnt[v];
	}
}

/* Bucket @b of the group's scatter, for the group's tables @g0 .. @g1 - 1. */
static void join_bucket(struct mj *m, struct mj_thread *th, size_t b, uint32_t g0, uint32_t g1)
{
	const size_t lo = m->start[b], n = m->start[b + 1] - lo;
	if (th->bad || n < 2)
		return;
	if (reserve(th, n)) {
		th->bad = 1;
		return;
	}
	const struct table_rec *src = m->recs + lo;
	if (!m->by_runs) { /* many leading bits below the shared ones: sorted whole */
		for (uint32_t g = g0; g < g1; g++) {
			const struct design_lut *lut = &m->lut[g];
			for (size_t i = 0; i < n; i++)
				th->buf[i] = (struct table_rec){design_lut_permute(lut, src[i].key),
								src[i].idx};
			keysort_bucket(th->buf, n, m->bits, th->sorted, th->cnt);
			join_recs(m->d, m->group[g], th, th->sorted, n);
		}
		return;
	}
	split_bucket(m, th, src, n);
	for (size_t s = 0, a = 0; s < ((size_t)1 << m->sub) && !th->bad; s++) {
		const size_t len = th->sub[s] - a;
		if (len >= 2)
			for (uint32_t g = g0; g < g1 && !th->bad; g++)
				join_sub(m, th, g, th->bkeys + a, th->bidx + a, len);
		a = th->sub[s];
	}
}

static void join_group(struct mj *m, size_t nb)
{
	const size_t nt = (size_t)threads_max();
	if (nb >= 8 * nt) { /* bucket by bucket: each read from memory once */
#pragma omp parallel for schedule(dynamic, 1)
		for (size_t b = 0; b < nb; b++)
			join_bucket(m, &m->th[threads_id()], b, 0, m->n_group);
	} else { /* few buckets (few fingerprints): tables in parallel too */
		const size_t jobs = nb * m->n_group;
#pragma omp parallel for schedule(dynamic, 1)
		for (size_t j = 0; j < jobs; j++) {
			const uint32_t g = (uint32_t)(j % m->n_group);
			join_bucket(m, &m->th[threads_id()], j / m->n_group, g, g + 1);
		}
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

int memjoin(const struct design *d, uint32_t t0, uint32_t t1, const uint64_t *fps, size_t n,
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
	m.rl = malloc(GROUP_MAX * sizeof *m.rl);
	struct table_rec *recs = malloc((n ? n : 1) * sizeof *recs);
	size_t *start = malloc((((size_t)1 << bits) + 1) * sizeof *start);
	uint8_t *done = calloc(d->n_tables, 1);
	struct design_lut *to = malloc(sizeof *to);
	int rc = !m.th || !m.lut || !m.rl || !recs || !start || !done || !to ? -1 : 0;
	/* the top radix level writes to thousands of places at once */
	if (!rc)
		mem_hint_huge_pages(recs, n * sizeof *recs);
	m.recs = recs;
	m.start = start;
	for (uint32_t t = t0; t < t1 && !rc; t++) {
		if (done[t])
			continue;
		design_lut_between(d, -1, (int)t, to);
		/* the group: every table left that tops its keys as t does (each
		 * leads with at least m.bits bits, so its runs lie within the
		 * buckets); a table leading with fewer bits is scattered on those
		 * alone (one run per bucket) */
		m.bits = d->tables[t].lead_bits < bits ? d->tables[t].lead_bits : bits;
		m.n_group = 0;
		/* and shares enough of t's top that the runs of each are put
		 * together in its sub-buckets by one counting pass, not by a
		 * sort of the whole bucket for each table */
		const unsigned lead_t = d->tables[t].lead_bits;
		const unsigned need = lead_t > m.bits + GROUP_SORT_BITS ? lead_t - GROUP_SORT_BITS : m.bits;
		unsigned shared = lead_t; /* the top all of the group share */
		for (uint32_t u = t; u < t1 && m.n_group < GROUP_MAX; u++)
			if (!done[u] && d->tables[u].lead_bits >= need &&
			    d->tables[u].lead_bits <= need + GROUP_SORT_BITS && same_top(d, t, u, need)) {
				design_lut_between(d, (int)t, (int)u, &m.lut[m.n_group]);
				m.group[m.n_group++] = u;
				done[u] = 1;
				shared = d->tables[u].lead_bits < shared ? d->tables[u].lead_bits : shared;
				while (!same_top(d, t, u, shared))
					shared--;
			}
		m.sub = shared - m.bits < SUB_MAX_BITS ? shared - m.bits : SUB_MAX_BITS;
		m.by_runs = 1;
		for (uint32_t g = 0; g < m.n_group; g++)
			m.by_runs &= d->tables[m.group[g]].lead_bits - m.bits - m.sub <= GROUP_SORT_BITS;
		for (uint32_t g = 0; g < m.n_group && m.by_runs; g++) {
			const unsigned lead = d->tables[m.group[g]].lead_bits;
			run_lut_build(&m.rl[g], &m.lut[g], 64 - lead, lead - m.bits - m.sub);
		}
		rc = keysort_scatter(fps, to, n, idx0, m.bits, recs, start);
		if (!rc)
			join_group(&m, (size_t)1 << m.bits);
		log_debug("tables %u.. (%u of them) joined in memory at %.3f s", t, m.n_group,
			  log_wall());
		done[t] = 1;
		for (int i = 0; i < nt; i++)
			rc |= m.th[i].bad;
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
	free(m.rl);
	free(recs);
	free(start);
	free(done);
	free(to);
	return rc ? -1 : 0;
}
