/*
 * test_join.c - the self-join against brute force.
 *
 * For k = 0..8 and several designs per k: random fingerprints with
 * planted neighbours at distances 0..k+1 are permuted, sorted, written
 * as table sections (raw or compressed) and joined as the self-join
 * does, streamed in small batches (so runs cross batch edges), and the
 * pairs must be exactly the brute-force set: none missed, none beyond
 * k, none twice.  The streamed join must also scan every run as
 * join_scan() does in a whole table: runs of any length, one run far
 * longer than a batch.
 */
#include <stdlib.h>
#include <string.h>

#include "tables/design.h"
#include "tables/join.h"
#include "tables/keysort.h"
#include "util/log.h"
#include "tables/memjoin.h"
#include "tables/tablejoin.h"
#include "testtable.h"
#include "testutil.h"
#include "util/threads.h"

static uint64_t flip_bits(uint64_t fp, unsigned d, uint64_t *rng)
{
	uint64_t mask = 0;
	while ((unsigned)__builtin_popcountll(mask) < d)
		mask |= 1ull << (test_rand(rng) & 63);
	return fp ^ mask;
}

/* Bases, each with a few variants at distances 0..k+1, plus exact copies. */
static size_t make_fps(uint64_t *fps, size_t n, unsigned k, uint64_t *rng)
{
	size_t m = 0;
	while (m < n) {
		uint64_t base = test_rand(rng);
		fps[m++] = base;
		unsigned variants = (unsigned)(test_rand(rng) % 4);
		for (unsigned v = 0; v < variants && m < n; v++)
			fps[m++] = flip_bits(base, (unsigned)(test_rand(rng) % (k + 2)), rng);
	}
	/* Shuffle so planted pairs are not neighbours by index. */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = test_rand(rng) % (i + 1);
		uint64_t t = fps[i];
		fps[i] = fps[j];
		fps[j] = t;
	}
	return m;
}

static void brute_force(const uint64_t *fps, size_t n, unsigned k, struct pair_vec *out)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int d = __builtin_popcountll(fps[i] ^ fps[j]);
			if (d <= (int)k)
				pair_vec_push(out, (uint32_t)i, (uint32_t)j, (uint32_t)d);
		}
}

/* Write table @t as a section in @form (blocks of @per_block records),
 * then join it as the self-join does, streamed in batches of about
 * @batch records: runs cross blocks and batches anywhere. */
static void stream_table(const struct design *d, uint32_t t, const uint64_t *keys,
			 const uint32_t *idx, size_t n, enum test_table_form form,
			 size_t per_block, size_t batch, struct table_arrays *buf,
			 struct pair_vec *out, uint64_t *comparisons)
{
	FILE *fp = tmpfile();
	int err;
	CHECK(fp && test_write_table(fp, d, t, keys, idx, n, form, per_block) == 0);
	rewind(fp);
	struct ndf_reader *r = ndf_reader_open(fp, "test table", &err);
	CHECK(r != NULL);
	uint64_t records = 0;
	tableread_batch_records(batch);
	CHECK(r && tablejoin_section(r, buf, d, t, out, &records, comparisons) == 0);
	tableread_batch_records(0);
	CHECK_EQ_U64(records, n);
	ndf_reader_close(r);
	fclose(fp);
}

static void scan_table(const struct design *d, uint32_t t, const struct table_rec *recs,
		       size_t n, unsigned variant, struct table_arrays *buf, struct pair_vec *out)
{
	uint64_t *keys = malloc(n * sizeof *keys), cmp = 0;
	uint32_t *idx = malloc(n * sizeof *idx);
	for (size_t i = 0; i < n; i++) {
		keys[i] = recs[i].key;
		idx[i] = (uint32_t)recs[i].idx;
	}
	/* batches of a block now and then (each batch costs a round of
	 * tasks), else of a few blocks */
	const size_t batch = variant % 5 ? 100 + variant % 1000 : 1 + variant % 97;
	stream_table(d, t, keys, idx, n, (enum test_table_form)(variant % 3), 16 + variant % 61,
		     batch, buf, out, &cmp);
	free(keys);
	free(idx);
}

static int same_pairs(const struct pair_vec *a, const struct pair_vec *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].a != b->v[i].a || a->v[i].b != b->v[i].b || a->v[i].d != b->v[i].d)
			return 0;
	return 1;
}

static void run_case(const uint64_t *fps, size_t n, unsigned k, uint32_t code,
		     const struct pair_vec *truth)
{
	struct design d;
	CHECK(design_make(&d, k, code) == 0);
	struct table_rec *recs = malloc(n * sizeof *recs), *scratch = malloc(n * sizeof *recs);
	struct pair_vec got = {0};
	struct design_lut lut;
	struct table_arrays buf = {0};
	for (uint32_t t = 0; t < d.n_tables; t++) {
		design_lut_build(&d.tables[t], &lut);
		for (size_t i = 0; i < n; i++) {
			recs[i].key = design_permute(&d.tables[t], fps[i]);
			recs[i].idx = i;
			CHECK(design_unpermute(&d.tables[t], recs[i].key) == fps[i]);
			CHECK(design_lut_permute(&lut, fps[i]) == recs[i].key);
		}
		keysort(recs, scratch, n);
		for (size_t i = 1; i < n; i++)
			CHECK(recs[i - 1].key <= recs[i].key);
		scan_table(&d, t, recs, n, t + code, &buf, &got);
	}
	table_arrays_free(&buf);
	pair_vec_sort(&got);
	int ok = same_pairs(&got, truth);
	CHECK(ok);
	if (!ok)
		fprintf(stderr, "k=%u design=%u: %zu pairs, brute force %zu\n", k, code, got.n,
			truth->n);
	pair_vec_free(&got);
	/* in memory: the default buckets; tiny ones, so that tables group on
	 * many bits or lead with fewer bits than the buckets are cut on */
	const size_t buckets[] = {0, 64, 4};
	uint64_t *keys = malloc(n * sizeof *keys);
	for (size_t b = 0; b < sizeof buckets / sizeof *buckets; b++) {
		uint64_t cmp = 0;
		memcpy(keys, fps, n * sizeof *keys);
		memjoin_bucket_records(buckets[b]);
		CHECK(memjoin(&d, 0, d.n_tables, keys, n, 0, &got, &cmp) == 0);
		CHECK(!memcmp(keys, fps, n * sizeof *keys));
		pair_vec_sort(&got);
		ok = same_pairs(&got, truth);
		CHECK(ok);
		if (!ok)
			fprintf(stderr, "memjoin k=%u design=%u buckets %zu: %zu pairs, brute force %zu\n",
				k, code, buckets[b], got.n, truth->n);
		pair_vec_free(&got);
	}
	memjoin_bucket_records(0);
	free(keys);
	free(recs);
	free(scratch);
	design_free(&d);
}

static int cmp_rec(const void *x, const void *y)
{
	const struct table_rec *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* What keysort_from_keys() reports: buckets in range, records in place. */
struct visited {
	const struct table_rec *out;
	size_t nb, records;
	int bad;
};

static void visit_bucket(void *ctx, int t, size_t b, const struct table_rec *r, size_t n)
{
	struct visited *v = ctx;
	(void)t;
#pragma omp atomic
	v->records += n;
	int bad = b >= v->nb || r < v->out;
	for (size_t i = 1; i < n; i++)
		bad |= r[i].key < r[i - 1].key;
	if (bad) {
#pragma omp atomic write
		v->bad = 1;
	}
}

/* keysort against qsort: sizes around every threshold, keys with many
 * exact copies and long shared prefixes (copies of one page). */
static void test_keysort(uint64_t *rng)
{
	static const size_t sizes[] = {0, 1, 2, 31, 33, 64, 65, 1000, 1025, 5000, 16385, 70000, 300000};
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		for (int kind = 0; kind < 3; kind++) {
			size_t n = sizes[s];
			struct table_rec *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *a);
			struct table_rec *scratch = malloc((n + 1) * sizeof *a);
			for (size_t i = 0; i < n; i++) {
				uint64_t r = test_rand(rng);
				a[i].key = kind == 0 ? r : kind == 1 ? (r % 7) << 40 : (r & 0xff) | (1ull << 63);
				a[i].idx = i;
			}
			memcpy(b, a, n * sizeof *a);
			/* keysort_from_keys: the same keys, indices from 1000 */
			struct table_rec *c = malloc((n + 1) * sizeof *c);
			uint64_t *keys = malloc((n + 1) * sizeof *keys);
			for (size_t i = 0; i < n; i++)
				keys[i] = a[i].key;
			struct visited vis = {c, keysort_bucket_count(n), 0, 0};
			const struct keysort_visit visit = {visit_bucket, &vis};
			keysort_from_keys(keys, n, 1000, c, &visit);
			CHECK(vis.records == n && !vis.bad);
			keysort(a, scratch, n);
			qsort(b, n, sizeof *b, cmp_rec);
			CHECK(n == 0 || memcmp(a, b, n * sizeof *a) == 0);
			for (size_t i = 0; i < n; i++)
				CHECK(c[i].key == b[i].key && c[i].idx == b[i].idx + 1000);
			/* keysort_permuted: fingerprints whose table-1 keys those
			 * are give the same records, and their keys stay behind */
			struct design d;
			struct design_lut lut;
			CHECK(design_make(&d, 3, 4) == 0);
			design_lut_build(&d.tables[1], &lut);
			uint64_t *fps = malloc((n + 1) * sizeof *fps);
			for (size_t i = 0; i < n; i++)
				fps[i] = design_unpermute(&d.tables[1], keys[i]);
			struct table_rec *e = malloc((n + 1) * sizeof *e);
			struct visited vis2 = {e, keysort_bucket_count(n), 0, 0};
			const struct keysort_visit visit2 = {visit_bucket, &vis2};
			keysort_permuted(fps, &lut, n, 1000, e, &visit2);
			CHECK(vis2.records == n && !vis2.bad);
			CHECK(n == 0 || memcmp(e, c, n * sizeof *e) == 0);
			CHECK(n == 0 || memcmp(fps, keys, n * sizeof *fps) == 0);
			/* keysort takes records in any order: keys in twos (or
			 * in many, for kind 1) with their indices descending still
			 * end in (key, idx) order */
			for (size_t i = 0; i < n; i++) {
				uint64_t key = i % 2 ? a[i - 1].key : test_rand(rng);
				if (kind == 1)
					key = (key % 5) << 50;
				b[i] = a[i] = (struct table_rec){key, (uint32_t)(n - 1 - i)};
			}
			keysort(a, scratch, n);
			qsort(b, n, sizeof *b, cmp_rec);
			CHECK(n == 0 || memcmp(a, b, n * sizeof *a) == 0);
			free(fps);
			free(e);
			design_free(&d);
			free(c);
			free(keys);
			free(a);
			free(b);
			free(scratch);
		}
	}
}

static void test_designs(void)
{
	struct design d;
	CHECK(design_make(&d, 3, 4) == 0 && d.n_tables == 4 && d.tables[0].lead_bits == 16);
	design_free(&d);
	CHECK(design_make(&d, 3, 5) == 0 && d.n_tables == 10);
	design_free(&d);
	CHECK(design_make(&d, 3, 6) == 0 && d.n_tables == 20);
	design_free(&d);
	CHECK(design_make(&d, 0, 1) == 0 && d.n_tables == 1 && d.tables[0].lead_bits == 64);
	design_free(&d);
	CHECK(design_make(&d, 3, 3) == -1);
	CHECK(design_make(&d, 3, 4 | 4 << 8) == 0 && d.n_tables == 16 && d.tables[0].lead_bits == 28);
	design_free(&d);
	uint32_t code;
	CHECK(design_parse("4x4", &code) == 0 && code == (4 | 4 << 8));
	CHECK(design_parse("5", &code) == 0 && code == 5);
	CHECK(design_parse("x", &code) == -1 && design_parse("5x", &code) == -1);
	CHECK(design_choose(3, 1000) == 4);
	/* few tables at any N: long runs are split (join.c), not all-pairs */
	CHECK(design_choose(3, 100000000) == 4);
	CHECK(design_choose(3, 1000000000) == 4);
	/* k = 6 splits 48 bits or more into 7 sub-blocks of 7 bits at most:
	 * buckets stay long, so past ~1M more tables beat 7 long-run ones */
	CHECK(design_choose(6, 10000000) == 8);
	CHECK(design_choose(6, 100000000) == 9);
	struct design_split ss;
	CHECK(design_split_init(&ss, 16, 3) == 1 && ss.parts == 4);
	CHECK(ss.mask[0] == 0xfff000000000ull && ss.mask[3] == 0xfff);
	CHECK(design_split_init(&ss, 40, 8) == 0); /* 24 bits cannot make 9 of 4 */
	/* k = 3, 16 leading bits: sub-blocks of 12 bits pay off from ~100
	 * keys on; k = 6: 7 sub-blocks of 6 or 7 bits only in long runs */
	CHECK(design_split_run(16, 3) >= DESIGN_SPLIT_RUN && design_split_run(16, 3) < 200);
	CHECK(design_split_run(16, 6) > 152 && design_split_run(16, 6) < 2000);
	CHECK(design_split_run(40, 8) == SIZE_MAX);
}

/* The streamed join of the sorted table @keys/@idx[0..n) (table 0 of @d)
 * finds @want (sorted) with @want_cmp comparisons, as join_scan() of the
 * whole table does, whatever the form, blocks, batches and threads. */
static void check_stream(const struct design *d, const uint64_t *keys, const uint32_t *idx,
			 size_t n, const struct pair_vec *want, uint64_t want_cmp, uint64_t *rng)
{
	const int threads = threads_max();
	for (int round = 0; round < 3; round++) {
		struct pair_vec got = {0};
		struct table_arrays buf = {0};
		uint64_t cmp = 0;
		test_set_threads(1 + (int)(test_rand(rng) % 5));
		stream_table(d, 0, keys, idx, n, (enum test_table_form)(test_rand(rng) % 3),
			     16 + test_rand(rng) % 200, 1 + test_rand(rng) % 500, &buf, &got, &cmp);
		pair_vec_sort(&got);
		CHECK(same_pairs(&got, want));
		CHECK_EQ_U64(cmp, want_cmp);
		pair_vec_free(&got);
		table_arrays_free(&buf);
	}
	test_set_threads(threads);
}

/*
 * join_scan() against the plain definition on sorted keys whose leading
 * bits take few values, so runs of every length (1 to hundreds) fall at
 * every offset of its 64-neighbour windows: table 0 of a 4-block design
 * (16 leading bits), pairs within k inside each run.
 */
static void test_scan_runs(uint64_t *rng)
{
	struct design d;
	CHECK(design_make(&d, 3, 4) == 0);
	for (int round = 0; round < 30; round++) {
		size_t n = 1 + (size_t)(test_rand(rng) % 3000);
		uint64_t *keys = malloc(n * sizeof *keys);
		uint32_t *idx = malloc(n * sizeof *idx);
		unsigned leads = 1 + (unsigned)(test_rand(rng) % (round % 3 ? 40 : 2000));
		uint64_t pool[16];
		for (int p = 0; p < 16; p++)
			pool[p] = test_rand(rng) & 0xffffffffffffull;
		for (size_t i = 0; i < n; i++) {
			uint64_t lead = test_rand(rng) % leads;
			/* low bits: odd rounds few values (pairs agree on most
			 * sub-blocks); even rounds a few bases with 0..4 bits
			 * flipped anywhere (pairs agree on any one sub-block) */
			uint64_t low = round % 2 ? test_rand(rng) & 0x0f0f
						 : flip_bits(pool[test_rand(rng) % 16],
							     (unsigned)(test_rand(rng) % 5), rng) &
							   0xffffffffffffull;
			keys[i] = lead << 48 | low;
		}
		for (size_t i = 1; i < n; i++) /* insertion sort: n is small */
			for (size_t j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
				uint64_t x = keys[j];
				keys[j] = keys[j - 1];
				keys[j - 1] = x;
			}
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		struct pair_vec got = {0}, want = {0};
		uint64_t cmp = 0;
		CHECK(join_scan(&d, 0, keys, idx, n, &got, &cmp) == 0);
		pair_vec_sort(&got);
		check_stream(&d, keys, idx, n, &got, cmp, rng);
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n && keys[j] >> 48 == keys[i] >> 48; j++) {
				unsigned dist = (unsigned)__builtin_popcountll(keys[i] ^ keys[j]);
				if (dist <= 3)
					CHECK(pair_vec_push(&want, (uint32_t)i, (uint32_t)j, dist) == 0);
			}
		pair_vec_sort(&want);
		CHECK(same_pairs(&got, &want));
		pair_vec_free(&got);
		pair_vec_free(&want);
		free(keys);
		free(idx);
	}
	design_free(&d);
}

/*
 * Copies and near copies of a few pages in one run far longer than a
 * batch (its keys share the 16 leading bits), between short runs: the
 * streamed join carries it whole from batch to batch and scans it as one
 * run, split into sub-blocks as in a whole table (the same comparisons).
 */
static void test_long_run(uint64_t *rng)
{
	struct design d;
	CHECK(design_make(&d, 3, 4) == 0);
	const size_t n = 6000;
	uint64_t *keys = malloc(n * sizeof *keys);
	uint32_t *idx = malloc(n * sizeof *idx);
	const uint64_t page = test_rand(rng) & 0xffffffffffffull;
	for (size_t i = 0; i < n; i++) {
		const size_t zone = i * 10 / n; /* zones 1..8: the long run */
		const uint64_t lead = zone == 0 ? i : zone < 9 ? 0x8000 : 0x9000 + i;
		keys[i] = lead << 48 | (zone && zone < 9 ? flip_bits(page, 2 + (unsigned)(test_rand(rng) % 6), rng) &
								   0xffffffffffffull
							 : test_rand(rng) & 0xffffffffffffull);
		idx[i] = (uint32_t)((i * 7919) % n);
	}
	for (size_t i = 1; i < n; i++) /* sorted within the long run (the rest is) */
		for (size_t j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
			uint64_t x = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = x;
		}
	struct pair_vec want = {0};
	uint64_t cmp = 0;
	CHECK(join_scan(&d, 0, keys, idx, n, &want, &cmp) == 0);
	pair_vec_sort(&want);
	CHECK(want.n > 1000);
	check_stream(&d, keys, idx, n, &want, cmp, rng);
	pair_vec_free(&want);
	free(keys);
	free(idx);
	design_free(&d);
}

int main(void)
{
	uint64_t rng = test_seed(20261121);
	log_set_level(LOG_SILENT);
	test_designs();
	test_keysort(&rng);
	test_scan_runs(&rng);
	test_long_run(&rng);
	join_use_vector(0); /* the portable loop too, on any CPU */
	test_scan_runs(&rng);
	join_use_vector(1); /* AVX2 on a CPU with AVX-512 too */
	test_scan_runs(&rng);
	join_use_vector(JOIN_VECTOR_BEST);
	join_split_runs(SIZE_MAX); /* all pairs in every run */
	test_scan_runs(&rng);
	join_split_runs(2); /* the sub-block search in every run */
	test_scan_runs(&rng);
	join_split_runs(JOIN_SPLIT_MODEL);
	/* mode 0: the default; 1: every run of two keys or more split */
	for (int mode = 0; mode < 2; mode++)
	for (unsigned k = 0; k <= 8; k++) {
		join_split_runs(mode ? 2 : JOIN_SPLIT_MODEL);
		size_t n = 1500;
		uint64_t *fps = malloc(n * sizeof *fps);
		make_fps(fps, n, k, &rng);
		struct pair_vec truth = {0};
		brute_force(fps, n, k, &truth);
		size_t planted_max = 0;
		for (size_t i = 0; i < truth.n; i++)
			planted_max += truth.v[i].d == k;
		CHECK(truth.n > 100 && planted_max > 10); /* the test has teeth */
		uint32_t codes[] = {k + 1, k + 2, k + 3, (k + 1) | (k + 1) << 8,
				    (k + 2) | (k + 1) << 8, (k + 1) | (k + 2) << 8};
		for (size_t c = 0; c < sizeof codes / sizeof *codes; c++) {
			struct design d;
			if (design_make(&d, k, codes[c]))
				continue;
			design_free(&d);
			run_case(fps, n, k, codes[c], &truth);
		}
		pair_vec_free(&truth);
		free(fps);
	}
	return test_finish("test_join");
}
