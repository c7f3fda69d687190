/*
 * test_crawl_lanes.c - the ordered parallel reading engine
 * (input/crawl_lanes.h) driven through its callbacks by a fake stage, on
 * WARC inputs written here, at -t 1, 2, 3 and 8:
 *
 * - every item reaches write() in input order, and fill(), compute() and
 *   write() see each one exactly once, with its block intact at compute;
 * - the records passed over are counted by type, and an input without a
 *   record is reported while the others are written;
 * - an input that cannot be opened fails the run, naming it, after
 *   nothing but items of the inputs before it were written;
 * - a lane ahead of the writer's keeps no more than its caps (slots and
 *   bytes, mirrored here from the callbacks) while the writer is held
 *   back, and does reach them;
 * - a huge first input and many tiny ones end (an alarm fails a hang).
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "format/docrec.h"
#include "input/crawl_lanes.h"
#include "util/log.h"
#include "testutil.h"


#define MAX_INPUTS 24
#define FILE_BASE 5

/* ---- the inputs ---- */

struct input {
	char path[256];
	long n_items;   /* response records */
	long n_other;   /* metadata records */
	long n_revisit;
	uint64_t *hash; /* of each item's block */
	long base;      /* its first item's number among all inputs' */
};

struct corpus {
	char dir[64];
	int n;
	struct input in[MAX_INPUTS];
	long n_items;
};

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* One record as a gzip member of its own, as crawlers write them. */
static void put_gz(FILE *fp, const char *p, size_t n)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	CHECK(deflateInit2(&zs, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	const size_t cap = deflateBound(&zs, n) + 32;
	unsigned char *const out = malloc(cap);
	zs.next_in = (unsigned char *)(uintptr_t)p;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	CHECK(fwrite(out, 1, zs.total_out, fp) == zs.total_out);
	deflateEnd(&zs);
	free(out);
}

/* A record of @type for input @i, item @k (its URL says both), with a
 * block of about @size bytes; @return the block's hash. */
static uint64_t put_record(FILE *fp, const char *type, int i, long k, size_t size,
			   uint64_t *rng)
{
	const size_t cap = size + 512;
	char *const block = malloc(cap), *const rec = malloc(cap + 512);
	size_t n = (size_t)snprintf(block, cap,
				    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
				    "<html><body><p>input %d item %ld ", i, k);
	while (n + 32 < size)
		n += (size_t)snprintf(block + n, cap - n, "w%u ",
				      (unsigned)(test_rand(rng) % 5000));
	n += (size_t)snprintf(block + n, cap - n, "</p></body></html>");
	const int h = snprintf(rec, cap + 512,
			       "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: http://t.example/%d/%ld\r\n"
			       "WARC-Date: 2024-01-02T03:04:05Z\r\n"
			       "Content-Type: application/http; msgtype=response\r\n"
			       "Content-Length: %zu\r\n\r\n",
			       type, i, k, n);
	memcpy(rec + h, block, n);
	memcpy(rec + h + n, "\r\n\r\n", 4);
	put_gz(fp, rec, (size_t)h + n + 4);
	const uint64_t hash = fnv((const uint8_t *)block, n);
	free(block);
	free(rec);
	return hash;
}

/* Input @i: @n items of @min..@max bytes; every @every-th (0: none) is
 * followed by a metadata and a revisit record.  @n < 0: a file that
 * cannot be opened (none is written). */
static void add_input(struct corpus *c, long n, size_t min, size_t max, long every)
{
	const int i = c->n++;
	struct input *const in = &c->in[i];
	uint64_t rng = (uint64_t)i * 7919 + 1;
	char dir[sizeof c->dir]; /* a copy: gcc's -Wrestrict sees c->dir in *c */
	memcpy(dir, c->dir, sizeof dir);
	snprintf(in->path, sizeof in->path, "%s/in%02d.warc.gz", dir, i);
	in->base = c->n_items;
	if (n < 0) {
		snprintf(in->path, sizeof in->path, "%s/no-such-%02d.warc.gz", dir, i);
		return;
	}
	FILE *const fp = fopen(in->path, "wb");
	CHECK(fp != NULL);
	in->n_items = n;
	in->hash = calloc((size_t)n + 1, sizeof *in->hash);
	for (long k = 0; k < n; k++) {
		const size_t size = min + (size_t)(test_rand(&rng) % (max - min + 1));
		in->hash[k] = put_record(fp, "response", i, k, size, &rng);
		if (every && k % every == every - 1) {
			put_record(fp, "metadata", i, -1, 100, &rng);
			put_record(fp, "revisit", i, -1, 100, &rng);
			in->n_other++;
			in->n_revisit++;
		}
	}
	fclose(fp);
	c->n_items += n;
}

static void corpus_free(struct corpus *c)
{
	for (int i = 0; i < c->n; i++) {
		unlink(c->in[i].path);
		free(c->in[i].hash);
	}
	rmdir(c->dir);
	memset(c, 0, sizeof *c);
}

static void corpus_init(struct corpus *c)
{
	memset(c, 0, sizeof *c);
	const char *tmp = getenv("TMPDIR");
	snprintf(c->dir, sizeof c->dir, "%s/lanes.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir)) {
		perror("mkdtemp");
		exit(1);
	}
}

/* ---- the fake stage ---- */

struct item {
	struct crawl_item base;
	const uint8_t *block; /* where compute reads the block */
	size_t len;
	int input;
	long k;
	size_t raw_held, win_held, out_held; /* what the engine counts in its lane */
};

struct stage {
	const struct corpus *c;
	int threads;
	atomic_int *fills, *computes, *writes; /* per item */
	long next;                             /* the write step's: next item expected */
	uint64_t last_id;
	int out_of_order, bad_items, bad_blocks;
	atomic_long pending[MAX_INPUTS];  /* items filled, not written */
	atomic_size_t held[MAX_INPUTS];   /* their bytes, as the engine counts them */
	atomic_long written[MAX_INPUTS];
	atomic_long fills_total;
	atomic_long max_pending_ahead;
	atomic_size_t max_held_ahead, max_item;
	atomic_int over_cap;
	long hold_writer_at; /* the write step waits for the readers before this item */
};

/* The input the writer is on: the first one not written in full. */
static int writer_input(struct stage *s)
{
	int j = 0;
	while (j < s->c->n && atomic_load(&s->written[j]) >= s->c->in[j].n_items)
		j++;
	return j;
}

static void atomic_max_long(atomic_long *a, long v)
{
	long old = atomic_load(a);
	while (v > old && !atomic_compare_exchange_weak(a, &old, v))
		;
}

static void atomic_max_size(atomic_size_t *a, size_t v)
{
	size_t old = atomic_load(a);
	while (v > old && !atomic_compare_exchange_weak(a, &old, v))
		;
}

/*
 * A lane ahead of the writer's reads one more record only while it holds
 * fewer than CRAWL_LANES_SLOTS items and CRAWL_LANES_AHEAD_BYTES bytes.  This lane's
 * reader is the only one filling it, and between its check (under the
 * engine's lock) and this call the writer cannot reach it if it is still
 * behind now, and its bytes can only fall; the counts mirrored here lag
 * the engine's only downwards (compute is subtracted before the engine
 * does).  So what is seen here before the new item must be under the caps.
 */
static void check_caps(struct stage *s, int i)
{
	if (i <= writer_input(s))
		return;
	const long pending = atomic_load(&s->pending[i]);
	const size_t held = atomic_load(&s->held[i]);
	atomic_max_long(&s->max_pending_ahead, pending);
	atomic_max_size(&s->max_held_ahead, held);
	if (pending >= CRAWL_LANES_SLOTS || held >= CRAWL_LANES_AHEAD_BYTES) {
		fprintf(stderr, "input %d ahead of the writer: %ld items, %zu bytes before a read\n",
			i, pending, held);
		atomic_store(&s->over_cap, 1);
	}
}

/* "http://t.example/I/K" -> I, K; @return 0, or -1 if not one of ours. */
static int parse_url(const struct crawl_record *rec, int *i, long *k)
{
	char url[128];
	if (rec->url_len >= sizeof url)
		return -1;
	memcpy(url, rec->url, rec->url_len);
	url[rec->url_len] = 0;
	return sscanf(url, "http://t.example/%d/%ld", i, k) == 2 ? 0 : -1;
}

static void on_fill(void *ctx, struct crawl_item *base, const struct crawl_record *rec,
		    int borrow)
{
	struct stage *const s = ctx;
	struct item *const it = (struct item *)base;
	it->input = -1;
	if (parse_url(rec, &it->input, &it->k) || it->input < 0 || it->input >= s->c->n ||
	    it->k < 0 || it->k >= s->c->in[it->input].n_items ||
	    DOC_ID_FILE(rec->doc_id) != (uint32_t)(FILE_BASE + it->input)) {
		s->bad_items = 1; /* racy, but only ever set */
		it->input = -1;
		return;
	}
	check_caps(s, it->input);
	atomic_fetch_add(&s->fills[s->c->in[it->input].base + it->k], 1);
	it->len = rec->block_len;
	if (borrow) {
		it->block = rec->block;
		/* several threads: the block lives on in the buffer taken */
		if (s->threads > 1 && (rec->block < base->win.p ||
				       rec->block + rec->block_len > base->win.p + base->win.len))
			s->bad_blocks = 1;
	} else {
		if (base->raw.cap < rec->block_len) {
			free(base->raw.p);
			base->raw.p = malloc(rec->block_len);
			base->raw.cap = rec->block_len;
		}
		memcpy(base->raw.p, rec->block, rec->block_len);
		base->raw.len = rec->block_len;
		it->block = base->raw.p;
	}
	it->raw_held = base->raw.cap;
	it->win_held = base->win.len;
	atomic_fetch_add(&s->pending[it->input], 1);
	atomic_fetch_add(&s->held[it->input], it->raw_held + it->win_held);
	atomic_max_size(&s->max_item, it->raw_held + it->win_held);
	atomic_fetch_add(&s->fills_total, 1);
}

static void on_compute(void *ctx, int thread, struct crawl_item *base, int in_turn)
{
	struct stage *const s = ctx;
	struct item *const it = (struct item *)base;
	if (thread < 0 || thread >= s->threads || in_turn != (s->threads == 1))
		s->bad_items = 1;
	if (it->input < 0)
		return;
	const long n = s->c->in[it->input].base + it->k;
	atomic_fetch_add(&s->computes[n], 1);
	if (fnv(it->block, it->len) != s->c->in[it->input].hash[it->k])
		s->bad_blocks = 1;
	/* An output: the block's first bytes, no bigger than the buffer the
	 * engine lets go of after this (so its count of the lane only falls
	 * at compute, and the one mirrored here may fall first). */
	const size_t out = it->len < it->win_held ? it->len : it->win_held;
	if (base->out.cap != out) {
		free(base->out.p);
		base->out.p = out ? malloc(out) : NULL;
		base->out.cap = out;
	}
	if (out)
		memcpy(base->out.p, it->block, out);
	base->out.len = out;
	atomic_fetch_sub(&s->held[it->input], it->win_held - out);
	it->win_held = 0;
	it->out_held = out;
}

/* Hold the writer until a lane ahead has reached both caps and the
 * readers have stopped (no fill for 100 ms), at most 30 s: the lanes
 * ahead then sit at their caps.  Quiet alone is not enough: on a loaded
 * machine a reader may not run for 100 ms long before its lane is full. */
static int caps_reached(struct stage *s)
{
	return atomic_load(&s->max_pending_ahead) >= CRAWL_LANES_SLOTS - 1 &&
	       atomic_load(&s->max_held_ahead) + atomic_load(&s->max_item) >=
		       CRAWL_LANES_AHEAD_BYTES;
}

static void hold_writer(struct stage *s)
{
	long before = -1;
	for (int waited = 0;
	     waited < 30000 && (before != atomic_load(&s->fills_total) || !caps_reached(s));
	     waited += 100) {
		before = atomic_load(&s->fills_total);
		nanosleep(&(struct timespec){0, 100 * 1000000L}, NULL);
	}
}

static int on_write(void *ctx, struct crawl_item *base)
{
	struct stage *const s = ctx;
	struct item *const it = (struct item *)base;
	if (it->input < 0)
		return 0;
	const long n = s->c->in[it->input].base + it->k;
	if (n == s->hold_writer_at)
		hold_writer(s);
	if (n != s->next && !s->out_of_order) {
		fprintf(stderr, "-t%d: item %ld written where %ld was due\n", s->threads, n, s->next);
		s->out_of_order = 1;
	}
	s->next = n + 1;
	if (atomic_load(&s->computes[n]) != 1 || base->out.len != it->out_held ||
	    (it->out_held && memcmp(base->out.p, "HTTP/1.1 200 OK", 15)))
		s->bad_items = 1;
	atomic_fetch_add(&s->writes[n], 1);
	atomic_fetch_sub(&s->pending[it->input], 1);
	atomic_fetch_sub(&s->held[it->input], it->raw_held + it->out_held);
	atomic_fetch_add(&s->written[it->input], 1);
	return 0;
}

/* ---- runs ---- */

static void stage_init(struct stage *s, const struct corpus *c, int threads)
{
	memset(s, 0, sizeof *s);
	s->c = c;
	s->threads = threads;
	s->hold_writer_at = -1;
	const size_t n = (size_t)c->n_items + 1;
	s->fills = calloc(n, sizeof *s->fills);
	s->computes = calloc(n, sizeof *s->computes);
	s->writes = calloc(n, sizeof *s->writes);
	for (size_t k = 0; k < n; k++) {
		atomic_init(&s->fills[k], 0);
		atomic_init(&s->computes[k], 0);
		atomic_init(&s->writes[k], 0);
	}
}

static void stage_free(struct stage *s)
{
	free(s->fills);
	free(s->computes);
	free(s->writes);
}

/* Items 0 .. @upto - 1 each filled, computed and written once, and no
 * other written. */
static int each_once(const struct stage *s, long upto)
{
	for (long k = 0; k < s->c->n_items; k++) {
		const int want = k < upto;
		if (atomic_load(&s->writes[k]) != want ||
		    (want && (atomic_load(&s->fills[k]) != 1 || atomic_load(&s->computes[k]) != 1)))
			return 0;
	}
	return 1;
}

/* Run the engine over @c; @return crawl_lanes_run()'s, with standard
 * error kept in @err (the engine's messages) if not NULL. */
static int run(struct stage *s, struct crawl_reader_stats *rs, struct crawl_lanes_passed *p,
	       char *err, size_t err_cap)
{
	char *paths[MAX_INPUTS];
	for (int i = 0; i < s->c->n; i++)
		paths[i] = (char *)s->c->in[i].path;
	static const struct crawl_lanes_ops ops = {
		.item_size = sizeof(struct item),
		.fill = on_fill,
		.compute = on_compute,
		.write = on_write,
	};
	const struct crawl_lanes_config cfg = {
		.inputs = paths,
		.n_inputs = s->c->n,
		.file_base = FILE_BASE,
		.threads = s->threads,
	};
	struct progress prog;
	FILE *errf = err ? tmpfile() : NULL;
	int saved = -1;
	fflush(stderr);
	if (errf) {
		saved = dup(2);
		dup2(fileno(errf), 2);
	}
	progress_start(&prog, "records", 0);
	struct crawl_lanes *const x = crawl_lanes_open(&cfg, &ops, s, &prog);
	CHECK(x != NULL);
	const int rc = x ? crawl_lanes_run(x) : -1;
	progress_end(&prog);
	if (x && rc == 0)
		crawl_lanes_stats(x, rs, p);
	crawl_lanes_close(x);
	if (errf) {
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		rewind(errf);
		const size_t n = fread(err, 1, err_cap - 1, errf);
		err[n] = 0;
		fclose(errf);
	}
	return rc;
}

/* Every item in order, once, blocks intact; the counts of what was read. */
static void check_full_run(const struct corpus *c, int threads, long empty_inputs)
{
	struct stage s;
	struct crawl_reader_stats rs;
	struct crawl_lanes_passed p;
	static char err[1 << 18]; /* room for a sanitizer's reports too */
	stage_init(&s, c, threads);
	CHECK(run(&s, &rs, &p, err, sizeof err) == 0);
	CHECK(!s.out_of_order);
	CHECK(!s.bad_items);
	CHECK(!s.bad_blocks);
	CHECK(!atomic_load(&s.over_cap));
	CHECK_EQ_U64(s.next, c->n_items);
	CHECK(each_once(&s, c->n_items));
	long other = 0, revisits = 0;
	for (int i = 0; i < c->n; i++) {
		other += c->in[i].n_other;
		revisits += c->in[i].n_revisit;
	}
	CHECK_EQ_U64(rs.inputs, c->n);
	CHECK_EQ_U64(rs.empty_inputs, empty_inputs);
	CHECK_EQ_U64(rs.records, c->n_items + other + revisits);
	CHECK_EQ_U64(p.revisits, revisits);
	CHECK_EQ_U64(p.other_types, other);
	CHECK_EQ_U64(p.unknown_types, 0);
	if (empty_inputs) /* reported by name */
		for (int i = 0; i < c->n; i++)
			if (!c->in[i].n_items)
				CHECK(strstr(err, c->in[i].path) != NULL);
	stage_free(&s);
}

static const int thread_counts[] = {1, 2, 3, 8};

/* Inputs of every size, records passed over, an input without records. */
static void test_order(void)
{
	struct corpus c;
	corpus_init(&c);
	add_input(&c, 1, 200, 400, 0);
	add_input(&c, 300, 100, 3000, 7);
	add_input(&c, 0, 0, 0, 0); /* an empty file: reported, the rest read */
	add_input(&c, 17, 20000, 90000, 5);
	add_input(&c, 2, 100, 200, 1);
	add_input(&c, 800, 100, 600, 0);
	add_input(&c, 5, 300000, 600000, 0); /* a few big pages */
	add_input(&c, 40, 100, 5000, 3);
	for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++)
		check_full_run(&c, thread_counts[t], 1);
	corpus_free(&c);
}

/* A huge input first, tiny ones behind it: they wait at their caps and
 * the run ends. */
static void test_huge_first(void)
{
	struct corpus c;
	corpus_init(&c);
	add_input(&c, 3000, 2000, 12000, 0);
	for (int i = 0; i < 16; i++)
		add_input(&c, 1 + i % 3, 100, 2000, 0);
	for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++)
		check_full_run(&c, thread_counts[t], 0);
	corpus_free(&c);
}

/*
 * The writer held back early in the first input while the readers go on:
 * the lanes of the inputs after it fill up to their caps and no further
 * (checked at every fill), and do reach one (else the check above would
 * prove nothing).
 */
static void test_caps(void)
{
	struct corpus c;
	corpus_init(&c);
	add_input(&c, 200, 1000, 3000, 0);
	add_input(&c, 5000, 100, 300, 0);        /* more items than the slots */
	add_input(&c, 400, 30000, 40000, 0);     /* more bytes than the cap */
	add_input(&c, 300, 30000, 40000, 0);
	add_input(&c, 3, 100, 300, 0);
	for (int threads = 2; threads <= 3; threads++) {
		struct stage s;
		struct crawl_reader_stats rs;
		struct crawl_lanes_passed p;
		stage_init(&s, &c, threads);
		s.hold_writer_at = 5;
		CHECK(run(&s, &rs, &p, NULL, 0) == 0);
		CHECK(!s.out_of_order);
		CHECK(!s.bad_items && !s.bad_blocks);
		CHECK(each_once(&s, c.n_items));
		CHECK(!atomic_load(&s.over_cap));
		const long pend = atomic_load(&s.max_pending_ahead);
		const size_t held = atomic_load(&s.max_held_ahead);
		printf("-t%d: a lane ahead held up to %ld items, %zu bytes (largest item %zu)\n",
		       threads, pend, held, atomic_load(&s.max_item));
		CHECK(pend == CRAWL_LANES_SLOTS - 1);
		CHECK(held + atomic_load(&s.max_item) >= CRAWL_LANES_AHEAD_BYTES);
		stage_free(&s);
	}
	corpus_free(&c);
}

/*
 * An input that cannot be opened: the run fails when its turn comes,
 * naming it, as ndd-extract exits 2; what was written before is items of
 * the inputs before it, in order (all of them with one thread).
 */
static void test_missing(void)
{
	struct corpus c;
	corpus_init(&c);
	add_input(&c, 30, 100, 3000, 0);
	add_input(&c, 200, 100, 3000, 0);
	add_input(&c, -1, 0, 0, 0);
	add_input(&c, 50, 100, 3000, 0);
	const long before = c.in[2].base;
	for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
		struct stage s;
		static char err[1 << 18];
		stage_init(&s, &c, thread_counts[t]);
		CHECK(run(&s, NULL, NULL, err, sizeof err) == -1);
		CHECK(strstr(err, c.in[2].path) != NULL);
		CHECK(!s.out_of_order && !s.bad_items && !s.bad_blocks);
		CHECK(s.next <= before);
		CHECK(each_once(&s, s.next));
		if (thread_counts[t] == 1)
			CHECK_EQ_U64(s.next, before);
		stage_free(&s);
	}
	corpus_free(&c);
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "test_crawl_lanes: no end after 300 s (a hang?)\n";
	if (write(2, msg, sizeof msg - 1) < 0) {
	}
	_exit(1);
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	alarm(300);
	log_init("test_crawl_lanes");
	test_order();
	test_huge_first();
	test_caps();
	test_missing();
	return test_finish("test_crawl_lanes");
}
