/*
 * extract.c - ndd-extract: WARC files and archives of them -> one document
 * record per HTML response (NDF_KIND_DOCS), or JSON lines with --json.
 *
 *   read (serial)     inputs in order (crawl_input.h: a WARC, or the WARC
 *                     and HTML entries of an archive), records through
 *                     warc_next(); response/resource records and loose
 *                     pages become items
 *   extract           per item: webdoc_extract() (HTTP, charset, main
 *                     text, hashes) and the encoded output record
 *   write (serial)    items in input order -> ~1 MiB NDF blocks
 *
 * With -t1 each page is read, extracted (from the reader's buffer,
 * without a copy) and written in turn (run_serial()).  With several
 * threads (run_ring()) one thread at a time is the reader (a token taken
 * under a lock, not a lock held while inflating); it reads records into
 * free slots of a ring of items until a few wait beyond its own, so a
 * thread done with its page takes the next one already inflated instead
 * of waiting for the inflate.  A thread extracts the oldest waiting item,
 * then writes whatever finished items come next in input order (a second
 * lock, taken only if free).  So the serial inflate overlaps the
 * extraction, and a thread waits only when nothing is read yet, or when
 * the ring is full behind a page another thread is still extracting.
 * (No batches computed by the team: each would end in a barrier, where
 * a thread spins; on a busy machine, long.)
 * Items are written in the order they were read, whatever thread
 * computed them, so the output is byte-identical for any -t.  Document
 * ids are DOC_ID(file_base + input position, ordinal in that input): a
 * file processed anywhere gets the same ids.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "util/cli.h"
#include "input/crawl_reader.h"
#include "output/docjson.h"
#include "format/docrec.h"
#include "util/log.h"
#include "util/names0.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "html/webdoc.h"

#define BLOCK_TARGET (1u << 20)
#define RING_PER_THREAD 32 /* several threads: slots of the ring per thread */
#define SHRINK_ABOVE (1u << 20) /* item buffers bigger than this are not kept */
#define WIN_KEEP_MAX (4u << 20) /* nor swapped read buffers written further than this */
#define EXTRACT_CONFIG_VERSION 2 /* 2: the blocks are recorded */

struct opts {
	struct cli_common cc;
	size_t max_record, max_text;
	uint64_t file_base;
	const char *stats_path;
	int json;
	char **inputs;
	int n_inputs;
};

/* What became of the records (the reader counts what it read and lost). */
struct counts {
	uint64_t docs, revisits, other_types, unknown_types;
	uint64_t non_html, non_2xx, unsupported, bad_http, undecodable;
	uint64_t truncated, text_truncated, lossy;
};

struct bytes {
	uint8_t *p;
	size_t len, cap;
};

/* A record (or loose page) copied out of the reader, and its result. */
struct item {
	struct doc_record d;       /* string fields point into raw or the worker */
	struct webdoc_in in;       /* block and type strings point into raw */
	struct bytes raw;          /* NUL-terminated strings, then the block if copied */
	struct bytes win;          /* the reader's buffer holding the block, if swapped;
				    * win.len: how far the reader wrote into it */
	enum webdoc_outcome outcome;
	struct bytes out;          /* the encoded record or JSON line */
};

/* Spare buffers, last in first out. */
struct pool {
	struct bytes *b;
	long n, cap;
};

/*
 * Several threads' items: item number k lives in slot k % n.  Items
 * [next_claim, ready) are read and wait for a thread to extract them;
 * a slot is free once its item is written (k < next_write); done[] says
 * its item is extracted.  One thread at a time is the reader (reading,
 * a token taken under lock, not a lock held while inflating): the
 * others can take what it publishes the moment it publishes it.
 * next_claim, reading and eof are the lock's; ready too, and only the
 * token's holder moves it (so it reads it unlocked); the reader belongs
 * to the token's holder; the output, next_write and done[]
 * going back to 0 to the write lock.
 */
struct ring {
	struct item *items;
	atomic_int *done;
	long n;
	long ready, next_claim;
	int reading, eof;
	long ahead;          /* read items kept waiting for a thread */
	long low;            /* read more once no more than this many wait */
	atomic_long next_write;
	atomic_int failed;
	/* pthread mutexes, not omp locks: libgomp's spin long before they
	 * sleep, and on a busy machine the holder may be descheduled. */
	pthread_mutex_t lock, write_lock;
	pthread_cond_t published; /* ready grew, or the reader let go */
	/* Buffers not in use, the lock's: an item's inflate buffer goes back
	 * once it is extracted, its output buffer once it is written, and
	 * the buffer given back last is handed out first.  So a few buffers
	 * go round, their pages touched once and likely still cached (one
	 * per slot, in turn, would leave every slot's buffers to fault in, as
	 * each met a big page, and to miss in the cache). */
	struct pool wins, outs;
	struct bytes rspare; /* the token holder's, for the next record */
};

struct run {
	struct opts *o;
	struct counts c;
	struct crawl_reader *cr;
	struct item *item; /* one thread's one page at a time (run_serial()) */
	struct ring g;
	struct webdoc **workers;
	int n_workers;
	struct outfile of;
	struct ndf_writer *w;
	struct bytes block;
	uint32_t block_n;
	uint64_t block_key;
	struct progress prog;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-extract [options] [INPUT...]\n"
		"Read WARC files (.warc, .warc.gz) and archives of them or of loose HTML\n"
		"pages (tar, tar.gz, zip); '-' or none reads standard input.  Write one\n"
		"document per 2xx HTML response: id, URL, WARC file, record offset,\n"
		"record id, date, title and main text as UTF-8.\n\n"
		"      --max-record SIZE  skip WARC records with a bigger block (default 64M)\n"
		"      --max-text SIZE    cut a page's text longer than this (default 4M)\n"
		"      --file-base N      number of the first input in document ids (default 0)\n"
		"      --stats FILE       write run statistics as JSON to FILE\n"
		"      --files0-from FILE read the inputs' names from FILE ('-': standard\n"
		"                         input), each ended by a NUL byte (find -print0)\n"
		"      --json             write JSON lines instead of an NDF documents section\n"
		CLI_COMMON_HELP);
	exit(status);
}

/* --files0-from (util/names0.h): the names stay in one buffer for the
 * whole run. */
static void read_names(const char *path, struct opts *o)
{
	char **names;
	const int n = names0_read(path, &names);
	if (n < 0)
		exit(EXIT_FAILED);
	if (!n) {
		log_error("--files0-from '%s' names no file", path);
		exit(EXIT_FAILED);
	}
	o->inputs = names;
	o->n_inputs = n;
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum {
		OPT_MAX_RECORD = CLI_OPT_STAGE_BASE,
		OPT_MAX_TEXT,
		OPT_FILE_BASE,
		OPT_STATS,
		OPT_JSON,
		OPT_FILES0_FROM
	};
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"max-record", required_argument, NULL, OPT_MAX_RECORD},
		{"max-text", required_argument, NULL, OPT_MAX_TEXT},
		{"file-base", required_argument, NULL, OPT_FILE_BASE},
		{"stats", required_argument, NULL, OPT_STATS},
		{"json", no_argument, NULL, OPT_JSON},
		{"files0-from", required_argument, NULL, OPT_FILES0_FROM},
		{NULL, 0, NULL, 0},
	};
	const char *list = NULL;
	int c;
	o->max_record = WARC_DEFAULT_MAX_RECORD;
	o->max_text = 4u << 20;
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		if (c == OPT_MAX_RECORD)
			o->max_record = (size_t)cli_parse_size("--max-record", optarg);
		else if (c == OPT_MAX_TEXT)
			o->max_text = (size_t)cli_parse_size("--max-text", optarg);
		else if (c == OPT_FILE_BASE)
			o->file_base = (uint64_t)cli_parse_int("--file-base", optarg, 0, (1 << 24) - 1);
		else if (c == OPT_STATS)
			o->stats_path = optarg;
		else if (c == OPT_JSON)
			o->json = 1;
		else if (c == OPT_FILES0_FROM)
			list = optarg;
		else
			usage(stderr, EXIT_FAILED);
	}
	/* a record must fit an NDF block; the window must fit memory */
	if (o->max_record < 1024 || o->max_record > (1ull << 30) || o->max_text > (32u << 20)) {
		log_error("--max-record must be 1K..1G and --max-text at most 32M");
		usage(stderr, EXIT_FAILED);
	}
	o->inputs = argv + optind;
	o->n_inputs = argc - optind;
	if (list) {
		if (o->n_inputs) {
			log_error("give the inputs either as arguments or with --files0-from");
			usage(stderr, EXIT_FAILED);
		}
		read_names(list, o);
	}
	if (o->file_base + (uint64_t)o->n_inputs > (1u << 24)) {
		log_error("--file-base plus the number of inputs must stay below 2^24");
		exit(EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

/* ---- small buffers ---- */

static void bytes_reserve(struct bytes *b, size_t extra)
{
	if (b->len + extra <= b->cap)
		return;
	size_t cap = b->cap ? b->cap * 2 : 4096;
	while (cap < b->len + extra)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

static void bytes_add(struct bytes *b, const void *p, size_t n)
{
	bytes_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* Append @s (@n bytes) and a NUL; @return its offset. */
static size_t add_cstr(struct bytes *b, const char *s, size_t n)
{
	const size_t off = b->len;
	bytes_add(b, s, n);
	bytes_add(b, "", 1);
	return off;
}

/* ---- read side: records into items ---- */

/* Append @s (or nothing if NULL) and a NUL; @return its offset or SIZE_MAX. */
static size_t add_opt(struct bytes *b, const char *s)
{
	return s ? add_cstr(b, s, strlen(s)) : SIZE_MAX;
}

static struct str str_at(const struct bytes *b, size_t off)
{
	if (off == SIZE_MAX)
		return (struct str){"", 0};
	const char *p = (const char *)b->p + off;
	return (struct str){p, (uint32_t)strlen(p)};
}

/* Copy what the compute step needs out of @rec (the reader reuses it);
 * the item's pointers are set once raw has stopped growing.  @borrow: the
 * block is not copied but read where it is (in the reader, when the item
 * is computed and written before the reader moves on; or in it->win). */
static void item_fill(struct item *it, const struct crawl_record *rec, const struct opts *o,
		      int borrow)
{
	enum { S_URL, S_FILE, S_ID, S_DATE, S_PTYPE, S_CTYPE, N_STR };
	size_t off[N_STR];
	it->raw.len = 0;
	if (it->raw.cap > SHRINK_ABOVE && rec->block_len < it->raw.cap / 4) {
		free(it->raw.p); /* one huge page must not pin its size in every slot */
		it->raw = (struct bytes){0};
	}
	if (it->out.cap > SHRINK_ABOVE) {
		free(it->out.p);
		it->out = (struct bytes){0};
	}
	off[S_URL] = add_cstr(&it->raw, rec->url, rec->url_len);
	off[S_FILE] = add_opt(&it->raw, rec->file);
	off[S_ID] = add_opt(&it->raw, rec->record_id);
	off[S_DATE] = add_opt(&it->raw, rec->date);
	off[S_PTYPE] = add_opt(&it->raw, rec->ptype);
	off[S_CTYPE] = add_opt(&it->raw, rec->ctype);
	const size_t block_off = it->raw.len;
	if (!borrow)
		bytes_add(&it->raw, rec->block, rec->block_len);
	memset(&it->d, 0, sizeof it->d);
	it->d.doc_id = rec->doc_id;
	it->d.flags = rec->doc_flags;
	it->d.warc_offset = rec->offset;
	it->d.warc_length = rec->length;
	it->d.url = str_at(&it->raw, off[S_URL]);
	it->d.warc_file = str_at(&it->raw, off[S_FILE]);
	it->d.record_id = str_at(&it->raw, off[S_ID]);
	it->d.date = str_at(&it->raw, off[S_DATE]);
	it->in = (struct webdoc_in){
		.block = borrow ? rec->block : it->raw.p + block_off,
		.len = rec->block_len,
		.http = rec->type == WARC_RESPONSE,
		.ptype = off[S_PTYPE] != SIZE_MAX ? (const char *)it->raw.p + off[S_PTYPE] : NULL,
		.ctype = off[S_CTYPE] != SIZE_MAX ? (const char *)it->raw.p + off[S_CTYPE] : NULL,
		.max_body = o->max_record,
		.max_text = o->max_text,
	};
}

/* Response and resource records become items; other types are counted. */
static int is_item(struct run *r, const struct crawl_record *rec)
{
	switch (rec->type) {
	case WARC_RESPONSE:
	case WARC_RESOURCE: return 1;
	case WARC_REVISIT: r->c.revisits++; return 0;
	case WARC_OTHER: r->c.unknown_types++; return 0;
	default: r->c.other_types++; return 0;
	}
}

/* The next response or resource record; other types are counted.
 * @return crawl_reader_next()'s: 1, 0 at the end, < 0 on failure. */
static int next_item_record(struct run *r, struct crawl_record *rec)
{
	int rc;
	while ((rc = crawl_reader_next(r->cr, rec)) == 1 && !is_item(r, rec))
		;
	return rc;
}

static void show_progress(struct run *r)
{
	struct crawl_reader_stats rs;
	crawl_reader_get_stats(r->cr, &rs);
	progress_update(&r->prog, rs.records, rs.bytes_in);
}

/* ---- compute side (runs in parallel) ---- */

/* Extract @it; with @encode, also encode its output record (else the
 * writer encodes it straight into its block: one thread, whose worker's
 * text is still there when the item is written). */
static void item_compute(struct webdoc *w, struct item *it, const struct opts *o, int encode)
{
	it->outcome = webdoc_extract(w, &it->in, &it->d);
	it->out.len = 0;
	if (it->outcome != WEBDOC_OK || !encode)
		return;
	if (o->json) {
		bytes_reserve(&it->out, docjson_size(&it->d));
		it->out.len = docjson_encode(&it->d, (char *)it->out.p);
	} else {
		bytes_reserve(&it->out, docrec_size(&it->d));
		it->out.len = docrec_encode(&it->d, it->out.p);
	}
}

/* ---- write side (serial, in input order) ---- */

static int flush_block(struct run *r)
{
	if (!r->block_n)
		return 0;
	const int rc = ndf_write_block(r->w, r->block_n, NDF_CODEC_RAW, r->block_key,
				       r->block.p, r->block.len);
	r->block.len = 0;
	r->block_n = 0;
	return rc < 0 ? -1 : 0;
}

static int emit(struct run *r, const struct item *it)
{
	if (r->o->json) {
		if (fwrite(it->out.p, 1, it->out.len, r->of.fp) != it->out.len) {
			log_error("cannot write '%s': %s", r->of.display, strerror(errno));
			return -1;
		}
		return 0;
	}
	const size_t len = it->out.len ? it->out.len : docrec_size(&it->d);
	if (r->block_n && r->block.len + len > BLOCK_TARGET && flush_block(r))
		return -1;
	if (!r->block_n)
		r->block_key = it->d.doc_id;
	if (it->out.len) {
		bytes_add(&r->block, it->out.p, it->out.len);
	} else { /* not encoded yet (item_compute()) */
		bytes_reserve(&r->block, len);
		r->block.len += docrec_encode(&it->d, r->block.p + r->block.len);
	}
	r->block_n++;
	return 0;
}

static void warn_item(const struct item *it, const char *what)
{
	log_warn("%.*s: record at offset %llu (%.*s) skipped: %s", (int)it->d.warc_file.n,
		 it->d.warc_file.p, (unsigned long long)it->d.warc_offset, (int)it->d.url.n,
		 it->d.url.p, what);
}

/* A page past --max-text or WEBDOC_MAX_BLOCKS (a 50 MB page, a page of
 * a million blocks) is kept, its text cut: say so, for it is bad input. */
static void warn_cut(const struct item *it)
{
	log_warn("%.*s: record at offset %llu (%.*s): text cut to %u bytes in %u blocks "
		 "(--max-text, or %u blocks)",
		 (int)it->d.warc_file.n, it->d.warc_file.p, (unsigned long long)it->d.warc_offset,
		 (int)it->d.url.n, it->d.url.p, it->d.all_text.n, it->d.n_blocks,
		 WEBDOC_MAX_BLOCKS);
}

static int account(struct run *r, const struct item *it)
{
	struct counts *c = &r->c;
	switch (it->outcome) {
	case WEBDOC_OK:
		c->docs++;
		c->truncated += !!(it->d.flags & DOC_TRUNCATED);
		c->text_truncated += !!(it->d.flags & DOC_TEXT_TRUNCATED);
		if (it->d.flags & DOC_TEXT_TRUNCATED)
			warn_cut(it);
		c->lossy += !!(it->d.flags & DOC_CHARSET_LOSSY);
		return emit(r, it);
	case WEBDOC_NON_HTML: c->non_html++; return 0;
	case WEBDOC_NON_2XX: c->non_2xx++; return 0;
	case WEBDOC_UNSUPPORTED: c->unsupported++; return 0;
	case WEBDOC_BAD_HTTP:
		c->bad_http++;
		warn_item(it, "no HTTP status line");
		return 0;
	case WEBDOC_UNDECODABLE:
		c->undecodable++;
		warn_item(it, "HTTP body does not decode");
		return 0;
	case WEBDOC_NOMEM:
		break;
	}
	log_error("out of memory extracting text");
	return -1;
}

/* ---- the pipeline ---- */

/* The next response or resource record into @it, borrowing its block from
 * the reader (written before the reader moves on).  @return 1, 0 when the inputs are done, or -1 (logged). */
static int read_item(struct run *r, struct item *it)
{
	struct crawl_record rec;
	const int rc = next_item_record(r, &rec);
	if (rc == 1)
		item_fill(it, &rec, r->o, 1);
	show_progress(r);
	return rc < 0 ? -1 : rc;
}

/* One thread: read a page, extract it from the reader's own buffer while
 * it is in cache, write it; then the next.  An NDF record is encoded by
 * the writer straight into its block: the worker's text is still there. */
static int run_serial(struct run *r)
{
	int rc;
	while ((rc = read_item(r, r->item)) == 1) {
		item_compute(r->workers[0], r->item, r->o, r->o->json);
		if (account(r, r->item))
			return -1;
	}
	return rc;
}

#ifdef _OPENMP
/* Under the lock: @b back to @p (emptied) if @keep and there is room;
 * @return what the caller frees once it has let go of the lock (a large
 * buffer's free is an munmap; one huge page must not pin its size). */
static void *pool_put(struct pool *p, struct bytes *b, int keep)
{
	void *drop = NULL;
	if (!keep || p->n == p->cap)
		drop = b->p;
	else if (b->p)
		p->b[p->n++] = *b;
	*b = (struct bytes){0};
	return drop;
}

/* Under the lock: @b (empty) gets the buffer given back last, if any. */
static void pool_get(struct pool *p, struct bytes *b)
{
	if (!b->p && p->n)
		*b = p->b[--p->n];
	b->len = 0;
}

static void pool_free(struct pool *p)
{
	for (long i = 0; i < p->n; i++)
		free(p->b[i].p);
	free(p->b);
}

/* Items written by one ring_drain() before their buffers go back. */
#define DRAIN_BATCH 16

/* The written items' output buffers back to the spares (the main lock
 * taken under the write lock, never the other way). */
static void outs_put(struct ring *g, struct bytes *outs, int n)
{
	void *drop[DRAIN_BATCH];
	if (!n)
		return;
	pthread_mutex_lock(&g->lock);
	for (int i = 0; i < n; i++)
		drop[i] = pool_put(&g->outs, &outs[i], outs[i].cap <= SHRINK_ABOVE);
	pthread_mutex_unlock(&g->lock);
	for (int i = 0; i < n; i++)
		free(drop[i]);
}

/* Write the items that are extracted and come next in input order, if no
 * other thread is writing (it will see them, or the next caller will). */
static void ring_drain(struct run *r, struct ring *g)
{
	struct bytes written[DRAIN_BATCH];
	int n = 0;
	if (pthread_mutex_trylock(&g->write_lock))
		return;
	for (;;) {
		const long k = atomic_load_explicit(&g->next_write, memory_order_relaxed);
		struct item *const it = &g->items[k % g->n];
		if (!atomic_load_explicit(&g->done[k % g->n], memory_order_acquire))
			break;
		if (!atomic_load(&g->failed) && account(r, it))
			atomic_store(&g->failed, 1);
		/* out of the slot before it is free (the reader refills it) */
		written[n++] = it->out;
		it->out = (struct bytes){0};
		if (n == DRAIN_BATCH) {
			outs_put(g, written, n);
			n = 0;
		}
		atomic_store_explicit(&g->done[k % g->n], 0, memory_order_relaxed);
		atomic_store_explicit(&g->next_write, k + 1, memory_order_release);
	}
	outs_put(g, written, n);
	pthread_mutex_unlock(&g->write_lock);
}

/*
 * Take the buffer the reader inflated the record into, giving it a spare
 * one (none: it allocates): the block is not copied.  @return 1 taken,
 * 0 (the block must be copied).
 */
static int take_block(struct crawl_reader *cr, struct ring *g, struct item *it)
{
	struct bytes b = g->rspare;
	if (!crawl_reader_swap_block(cr, &b.p, &b.cap, &b.len))
		return 0;
	it->win = b;
	g->rspare = (struct bytes){0};
	return 1;
}

/*
 * The reader's step (the token's holder, outside the lock): the next item
 * into its slot, once the slot is free.  @return 1 read, 0 inputs done
 * or failed.
 */
static int ring_read(struct run *r, struct ring *g)
{
	struct crawl_record rec;
	int rc;
	if (atomic_load(&g->failed))
		return 0;
	if ((rc = next_item_record(r, &rec)) != 1) {
		if (rc < 0)
			atomic_store(&g->failed, 1);
		return 0;
	}
	const long k = g->ready; /* the token's holder alone moves it */
	/* Full: the slot's last item is not written yet; it may be waiting
	 * for a page another thread is still extracting. */
	while (k - g->n >= atomic_load_explicit(&g->next_write, memory_order_acquire)) {
		ring_drain(r, g);
		if (k - g->n >= atomic_load_explicit(&g->next_write, memory_order_acquire))
			nanosleep(&(struct timespec){0, 50000}, NULL); /* a page takes longer */
	}
	struct item *const it = &g->items[k % g->n];
	item_fill(it, &rec, r->o, take_block(r->cr, g, it));
	show_progress(r);
	return 1;
}

/* Under the lock, as the reader (the token): read until g->ahead + 1
 * items wait or the inputs end, publishing each as it is read. */
static void ring_fill(struct run *r, struct ring *g)
{
	int more;
	g->reading = 1;
	do {
		pool_get(&g->wins, &g->rspare);
		pthread_mutex_unlock(&g->lock);
		const int got = ring_read(r, g);
		pthread_mutex_lock(&g->lock);
		g->ready += got;
		g->eof = !got;
		/* one item for one waiter: waking them all (with -t3 and up)
		 * had the rest find nothing and sleep again */
		if (got)
			pthread_cond_signal(&g->published);
		more = got && g->ready - g->next_claim < g->ahead + 1;
	} while (more);
	g->reading = 0;
	pthread_cond_broadcast(&g->published); /* a waiter may read now, or see the end */
}

/*
 * Under the lock: the next read item for this thread to extract, reading
 * more first if no more than g->low wait and nobody is reading; waits
 * while another thread reads and none waits.  The reader reads on while
 * fewer than g->ahead + 1 items wait, so a thread done with its page
 * finds the next one inflated instead of waiting for the inflate.
 * @return the item's number, or -1 when all are taken.
 */
static long ring_claim(struct run *r, struct ring *g)
{
	for (;;) {
		const long waiting = g->ready - g->next_claim;
		if (!g->reading && !g->eof && waiting <= g->low) {
			ring_fill(r, g);
			continue;
		}
		if (waiting > 0) {
			pool_get(&g->outs, &g->items[g->next_claim % g->n].out);
			return g->next_claim++;
		}
		if (g->eof)
			return -1;
		pthread_cond_wait(&g->published, &g->lock);
	}
}

/* Several threads: read (one at a time), extract, write in order. */
static int run_ring(struct run *r)
{
	struct ring *const g = &r->g;
#pragma omp parallel num_threads(r->n_workers)
	{
		struct webdoc *const w = r->workers[omp_get_thread_num()];
		pthread_mutex_lock(&g->lock);
		long k;
		while ((k = ring_claim(r, g)) >= 0) {
			pthread_mutex_unlock(&g->lock);
			struct item *const it = &g->items[k % g->n];
			item_compute(w, it, r->o, 1);
			/* out of the slot before it may be written and refilled.
			 * Kept by how far it was written (its size is address
			 * space), not by its record's length: a member of many
			 * records, or one a first inflate filled to the end,
			 * leaves more pages resident than its last block. */
			struct bytes win = it->win;
			const int keep = win.len <= WIN_KEEP_MAX;
			it->win = (struct bytes){0};
			atomic_store_explicit(&g->done[k % g->n], 1, memory_order_release);
			ring_drain(r, g);
			pthread_mutex_lock(&g->lock);
			void *drop = pool_put(&g->wins, &win, keep);
			if (drop) { /* freed without the lock, then taken again */
				pthread_mutex_unlock(&g->lock);
				free(drop);
				pthread_mutex_lock(&g->lock);
			}
		}
		pthread_mutex_unlock(&g->lock);
	}
	ring_drain(r, g); /* every item is extracted now */
	return atomic_load(&g->failed) ? -1 : 0;
}
#endif

static int run_inputs(struct run *r)
{
#ifdef _OPENMP
	if (r->n_workers > 1)
		return run_ring(r);
#endif
	return run_serial(r);
}

static uint64_t total_input_bytes(const struct opts *o)
{
	uint64_t sum = 0;
	struct stat sb;
	for (int i = 0; i < o->n_inputs; i++)
		if (strcmp(o->inputs[i], "-") && stat(o->inputs[i], &sb) == 0 && S_ISREG(sb.st_mode))
			sum += (uint64_t)sb.st_size;
	return sum;
}

/* ---- statistics, setup, main ---- */

static uint64_t skipped_bad(const struct counts *c, const struct crawl_reader_stats *rs)
{
	return warc_stats_skipped(&rs->warc) + rs->arc.bad_archive + c->bad_http + c->undecodable;
}

static uint64_t filtered(const struct counts *c)
{
	return c->non_html + c->non_2xx + c->unsupported + c->revisits + c->other_types +
	       c->unknown_types;
}

#define U(x) ((unsigned long long)(x))

static void write_stats_json(FILE *fp, const struct counts *c,
			     const struct crawl_reader_stats *rs)
{
	const struct warc_stats *w = &rs->warc;
	fprintf(fp,
		"{\n  \"stage\": \"extract\",\n  \"inputs\": %llu,\n"
		"  \"inputs_without_records\": %llu,\n  \"bytes_in\": %llu,\n"
		"  \"archives\": {\"inputs\": %llu, \"members_read\": %llu, "
		"\"members_passed_over\": %llu, \"nested_archives\": %llu, "
		"\"members_without_records\": %llu, \"html_pages\": %llu},\n"
		"  \"records_read\": %llu,\n  \"documents_written\": %llu,\n"
		"  \"skipped\": {\"total\": %llu, \"garbage\": %llu, \"bad_header\": %llu, "
		"\"bad_length\": %llu, \"huge\": %llu, \"truncated\": %llu, \"corrupt_gzip\": %llu, "
		"\"bad_http\": %llu, \"undecodable_body\": %llu, \"bad_archive\": %llu},\n"
		"  \"filtered\": {\"non_html\": %llu, \"non_2xx\": %llu, "
		"\"unsupported_encoding\": %llu, \"revisit\": %llu, \"other_record_types\": %llu, "
		"\"unknown_record_types\": %llu},\n"
		"  \"documents_flagged\": {\"truncated\": %llu, \"text_truncated\": %llu, "
		"\"charset_lossy\": %llu}\n}\n",
		U(rs->inputs), U(rs->empty_inputs), U(rs->bytes_in), U(rs->arc.archives),
		U(rs->arc.members_used), U(rs->arc.members_other), U(rs->arc.members_nested),
		U(rs->empty_members), U(rs->pages),
		U(rs->records), U(c->docs), U(skipped_bad(c, rs)), U(w->garbage), U(w->bad_header),
		U(w->bad_length), U(w->huge), U(w->truncated), U(w->corrupt_gzip),
		U(c->bad_http), U(c->undecodable), U(rs->arc.bad_archive), U(c->non_html),
		U(c->non_2xx), U(c->unsupported), U(c->revisits), U(c->other_types),
		U(c->unknown_types), U(c->truncated), U(c->text_truncated), U(c->lossy));
}

/* One line per kind of skipped record, at every verbosity (-q too): the
 * per-record warnings are hidden by -q, and exit status 1 must still say
 * why. */
static void report_skipped(const struct counts *c, const struct crawl_reader_stats *rs)
{
	const struct warc_stats *w = &rs->warc;
	const struct {
		const char *why;
		uint64_t n;
	} kinds[] = {
		{"garbage between records", w->garbage},
		{"bad WARC header", w->bad_header},
		{"bad Content-Length", w->bad_length},
		{"record bigger than --max-record", w->huge},
		{"truncated record", w->truncated},
		{"corrupt gzip", w->corrupt_gzip},
		{"bad HTTP response", c->bad_http},
		{"undecodable body", c->undecodable},
		{"bad archive", rs->arc.bad_archive},
		{"archive member without a WARC record", rs->empty_members},
		{"archive inside an archive (not read)", rs->arc.members_nested},
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].n)
			fprintf(stderr, "%s: skipped %llu: %s\n", log_program(), U(kinds[i].n),
				kinds[i].why);
}

/* What changes the text of a document: stored in the header so later
 * stages can tell outputs of different configurations apart. */
static uint64_t feature_config(const struct opts *o)
{
	char cfg[128];
	const int n = snprintf(cfg, sizeof cfg, "ndd-extract/%d max-text=%zu title=%d",
			       EXTRACT_CONFIG_VERSION, o->max_text, WEBDOC_MAX_TITLE);
	return XXH3_64bits(cfg, (size_t)n);
}

static int output_start(struct run *r)
{
	if (outfile_open(&r->of, r->o->cc.output))
		return -1;
	if (r->o->json)
		return 0;
	struct ndf_header h;
	memset(&h, 0, sizeof h);
	h.version = NDF_VERSION;
	h.kind = NDF_KIND_DOCS;
	h.aux = DOCREC_VERSION;
	h.feature_config = feature_config(r->o);
	r->w = ndf_writer_open(r->of.fp, r->of.display, &h);
	return r->w ? 0 : -1;
}

/* Finish the section, write the statistics, then publish both. */
static int output_finish(struct run *r, const struct crawl_reader_stats *rs)
{
	struct outfile st = {0};
	if (!r->o->json) {
		const int rc = flush_block(r) ? -1 : ndf_writer_finish(r->w);
		r->w = NULL;
		if (rc < 0)
			return -1;
	}
	if (r->o->stats_path) {
		if (outfile_open(&st, r->o->stats_path))
			return -1;
		write_stats_json(st.fp, &r->c, rs);
	}
	if (outfile_commit(&r->of)) {
		outfile_abort(&st);
		return -1;
	}
	return r->o->stats_path ? outfile_commit(&st) : 0;
}

static void workers_init(struct run *r)
{
	r->n_workers = r->o->cc.threads > 0 ? r->o->cc.threads : 1;
	r->workers = xcalloc((size_t)r->n_workers, sizeof *r->workers);
	for (int i = 0; i < r->n_workers; i++) {
		r->workers[i] = webdoc_new();
		if (!r->workers[i]) {
			log_error("out of memory");
			exit(EXIT_FAILED);
		}
	}
	r->item = xcalloc(1, sizeof *r->item);
#ifdef _OPENMP
	if (r->n_workers > 1) {
		struct ring *const g = &r->g;
		g->n = (long)r->n_workers * RING_PER_THREAD;
		g->items = xcalloc((size_t)g->n, sizeof *g->items);
		g->done = xcalloc((size_t)g->n, sizeof *g->done);
		/* every inflate buffer is in a slot, a spare, the reader's or
		 * rspare; every output buffer in a slot, a spare or being given
		 * back (more would be freed) */
		g->wins.cap = g->outs.cap = g->n + 2;
		g->wins.b = xcalloc((size_t)g->wins.cap, sizeof *g->wins.b);
		g->outs.b = xcalloc((size_t)g->outs.cap, sizeof *g->outs.b);
		for (long i = 0; i < g->n; i++)
			atomic_init(&g->done[i], 0);
		atomic_init(&g->next_write, 0);
		atomic_init(&g->failed, 0);
		pthread_mutexattr_t a;
		pthread_mutexattr_init(&a);
		/* a short spin, then sleep: the lock is held for a claim or a
		 * publish only, never while inflating */
		pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
		pthread_mutex_init(&g->lock, &a);
		pthread_mutex_init(&g->write_lock, &a);
		pthread_mutexattr_destroy(&a);
		pthread_cond_init(&g->published, NULL);
		/* Read on up to four waiting items per other thread, and again
		 * once two or fewer wait, not only when none does: a thread
		 * done with a small page then rarely finds the queue empty
		 * while the reader is inflating (replayed with the per-page
		 * times of the bench crawl, this comes close to the bound that no
		 * waiting at all would give); reading further ahead gains little
		 * and leaves the page a reader takes next less likely to be still
		 * in its core's cache (five pages of ~60 KB fit a 512 KB L2). */
		g->ahead = (long)(r->n_workers - 1) * 4;
		g->low = (long)(r->n_workers - 1) * 2;
	}
#endif
}

static void items_free(struct item *items, long n)
{
	for (long i = 0; items && i < n; i++) {
		free(items[i].raw.p);
		free(items[i].win.p);
		free(items[i].out.p);
	}
	free(items);
}

static void run_free(struct run *r)
{
	crawl_reader_close(r->cr);
	for (int i = 0; i < r->n_workers; i++)
		webdoc_free(r->workers[i]);
	items_free(r->item, 1);
#ifdef _OPENMP
	if (r->g.items) {
		items_free(r->g.items, r->g.n);
		pool_free(&r->g.wins);
		pool_free(&r->g.outs);
		free(r->g.rspare.p);
		free(r->g.done);
		pthread_mutex_destroy(&r->g.lock);
		pthread_cond_destroy(&r->g.published);
		pthread_mutex_destroy(&r->g.write_lock);
	}
#endif
	free(r->workers);
	free(r->block.p);
}

int main(int argc, char **argv)
{
	static struct opts o;
	static struct run r;
	struct crawl_reader_stats rs;
	log_init("ndd-extract");
	parse(&o, argc, argv);
	r.o = &o;
	workers_init(&r);
	r.cr = crawl_reader_open(o.inputs, o.n_inputs, o.file_base, o.max_record);
	int rc = r.cr ? output_start(&r) : -1;
	if (rc == 0) {
		progress_start(&r.prog, "records", total_input_bytes(&o));
		rc = run_inputs(&r);
		progress_end(&r.prog);
	}
	if (r.cr)
		crawl_reader_get_stats(r.cr, &rs);
	if (rc == 0 && rs.empty_inputs == rs.inputs) {
		log_error("no input held a WARC record; nothing written");
		rc = -1;
	}
	if (rc == 0)
		rc = output_finish(&r, &rs);
	if (rc) {
		ndf_writer_abort(r.w);
		outfile_abort(&r.of);
		run_free(&r);
		return EXIT_FAILED;
	}
	cli_summary("%llu records, %llu documents, %llu skipped, %llu filtered, %.1f MB in",
		    U(rs.records), U(r.c.docs), U(skipped_bad(&r.c, &rs)), U(filtered(&r.c)),
		    (double)rs.bytes_in / 1e6);
	report_skipped(&r.c, &rs);
	const int status = skipped_bad(&r.c, &rs) || rs.empty_inputs || rs.empty_members ||
				   rs.arc.members_nested ? EXIT_SKIPPED : EXIT_OK;
	run_free(&r);
	return status;
}
