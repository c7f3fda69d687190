/*
 * extract.c - ndd-extract: WARC files and archives of them -> one document
 * record per HTML response (NDF_KIND_DOCS), or JSON lines with --json.
 *
 *   read              each input by one thread at a time, several inputs
 *                     at once (crawl_input.h: a WARC, or the WARC
 *                     and HTML entries of an archive), records through
 *                     warc_next(); response/resource records and loose
 *                     pages become items
 *   extract           per item: webdoc_extract() (HTTP, charset, main
 *                     text, hashes) and the encoded output record
 *   write (serial)    items in input order -> ~1 MiB NDF blocks
 *
 * With -t1 each page is read, extracted (from the reader's buffer,
 * without a copy) and written in turn (run_serial()).  With several
 * threads (run_ring()) each input being read has a lane: its own reader
 * and ring of items.  One thread at a time reads a lane (a token taken
 * under a lock, not a lock held while inflating), but the lanes of
 * different inputs are read by different threads at once, so inflate and
 * WARC parsing are not serial.  A reader fills free slots of its lane
 * until a few items wait beyond its own, so a thread done with its page
 * takes the next one already inflated instead of waiting for the
 * inflate; a thread that finds the writer's lane empty while another
 * thread reads it reads a lane further on.  A thread extracts the oldest
 * waiting item of the first lane that has one, then writes whatever
 * finished items come next in input order (a second lock, taken only if
 * free), lane after lane.  A thread waits only when every lane is being
 * read, full, or ahead of the writer's and at its cap; lanes ahead of the
 * writer's are bounded (slots and bytes), so memory is too, whatever the
 * inputs' sizes.  A pipe (standard input) is read only as the writer's
 * lane.  (No batches computed by the team: each would end in a barrier,
 * where a thread spins; on a busy machine, long.)
 * Items are written in input order, whatever thread read or computed
 * them, so the output is byte-identical for any -t.  Document
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
#define RING_PER_THREAD 32 /* several threads: slots of a lane per thread */
#define LANE_AHEAD_BYTES (8u << 20) /* a lane ahead of the writer's holds no more */
#define LANE_SLOTS 4096 /* slots of a lane, at least */
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
	size_t held;               /* bytes counted in its lane's held */
};

/* Spare buffers, last in first out. */
struct pool {
	struct bytes *b;
	long n, cap;
};

/*
 * Several threads: one lane per input being read.  Item number k of a
 * lane lives in its slot k % n.  Items [next_claim, ready) are read and
 * wait for a thread to extract them; a slot is free once its item is
 * written (k < next_write); done[] says its item is extracted.  One
 * thread at a time reads a lane (reading, a token taken under the lock,
 * not a lock held while inflating), but different lanes are read by
 * different threads at once: the inputs' inflate and parsing are not
 * serial.  next_claim, reading and eof are the lock's; ready too,
 * and only the token's holder moves it (so it reads it unlocked); cr, c
 * and rspare belong to the token's holder; next_write, held and done[]
 * going back to 0 to the write lock.  ended (after total, its number of
 * items) tells the writer that the lane's reader is done with its input.
 */
struct lane {
	struct crawl_reader *cr;   /* NULL: no input (past the last) */
	long input;                /* its position among the inputs */
	int solo;                  /* not a regular file (a pipe, stdin): read
				    * only as the writer's lane, in turn */
	struct item *items;
	atomic_int *done;
	long ready, next_claim;
	int reading, eof;
	atomic_long total;         /* its items, once ended */
	atomic_int ended;
	atomic_long next_write;
	atomic_size_t held;        /* bytes of its items read and not written */
	struct counts c;           /* what its reader passed over */
	struct bytes rspare;       /* the token holder's, for the next record */
	uint64_t shown_records, shown_bytes; /* added to the ring's totals */
};

/*
 * The lanes: input i, once open, is lanes[i % n_lanes]; the inputs
 * first .. first + n_lanes - 1 are open.  The writer writes the lane of
 * input first in order, then closes it and opens input first + n_lanes
 * in its place.  A lane ahead of the writer's stops reading when its
 * n slots are full or it holds held_max bytes, so memory stays bounded
 * whatever the inputs' sizes: a huge first input holds the others to
 * their caps, and is read on as its items are written.
 */
struct ring {
	struct lane *lanes;
	int n_lanes;
	long n;              /* slots per lane */
	long n_inputs;       /* 1 for standard input */
	atomic_long first;   /* moved by the writer only, under both locks */
	long ahead;          /* read items kept waiting for a thread */
	long low;            /* read more once no more than this many wait */
	size_t held_max;
	atomic_int failed;
	atomic_int waiters;  /* threads in a wait for something to do */
	/* pthread mutexes, not omp locks: libgomp's spin long before they
	 * sleep, and on a busy machine the holder may be descheduled. */
	pthread_mutex_t lock, write_lock;
	pthread_cond_t published; /* items read, a reader let go, a lane moved */
	/* Buffers not in use, the lock's: an item's inflate buffer goes back
	 * once it is extracted, its output buffer once it is written, and
	 * the buffer given back last is handed out first.  So a few buffers
	 * go round, their pages touched once and likely still cached (one
	 * per slot, in turn, would leave every slot's buffers to fault in, as
	 * each met a big page, and to miss in the cache). */
	struct pool wins, outs;
	struct crawl_reader_stats st; /* of the inputs written, the write lock's */
	atomic_ullong records, bytes_in; /* read so far, for the progress line */
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
	/* small first: a page done ahead of the writer keeps its strings
	 * and output (about 2 KB) until its turn, thousands of them */
	size_t cap = b->cap ? b->cap * 2 : 256;
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

/* Response and resource records become items; other types are counted
 * in @c. */
static int is_item(struct counts *c, const struct crawl_record *rec)
{
	switch (rec->type) {
	case WARC_RESPONSE:
	case WARC_RESOURCE: return 1;
	case WARC_REVISIT: c->revisits++; return 0;
	case WARC_OTHER: c->unknown_types++; return 0;
	default: c->other_types++; return 0;
	}
}

/* The next response or resource record of @cr; other types are counted
 * in @c.  @return crawl_reader_next()'s: 1, 0 at the end, < 0 on failure. */
static int next_item_record(struct crawl_reader *cr, struct counts *c,
			    struct crawl_record *rec)
{
	int rc;
	while ((rc = crawl_reader_next(cr, rec)) == 1 && !is_item(c, rec))
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
	const int rc = next_item_record(r->cr, &r->c, &rec);
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

/* Under the lock, or before the threads start: lane @L reads input @i.
 * @return 0, or -1 on OOM (logged). */
static int lane_open(const struct opts *o, struct lane *L, long i)
{
	char *const *const paths = o->n_inputs ? o->inputs + i : o->inputs;
	struct stat sb;
	L->cr = crawl_reader_open(paths, o->n_inputs ? 1 : 0, o->file_base + (uint64_t)i,
				  o->max_record);
	L->input = i;
	/* two readers of one pipe would share its bytes; a name that
	 * cannot be opened fails when its turn comes, as with one thread */
	L->solo = !o->n_inputs || stat(paths[0], &sb) || !S_ISREG(sb.st_mode);
	L->ready = L->next_claim = 0;
	atomic_store(&L->total, 0);
	L->reading = L->eof = 0;
	atomic_store(&L->ended, 0);
	atomic_store(&L->next_write, 0);
	atomic_store(&L->held, 0);
	memset(&L->c, 0, sizeof L->c);
	L->shown_records = L->shown_bytes = 0;
	return L->cr ? 0 : -1;
}

/* The writer, done with the lane of input first: its counts to the run's,
 * then the input n_lanes further on in its place. */
static void lane_finish(struct run *r, struct ring *g, struct lane *L)
{
	struct crawl_reader_stats rs;
	crawl_reader_get_stats(L->cr, &rs);
	crawl_reader_stats_add(&g->st, &rs);
	r->c.revisits += L->c.revisits;
	r->c.other_types += L->c.other_types;
	r->c.unknown_types += L->c.unknown_types;
	crawl_reader_close(L->cr); /* its reader has let go (ended) */
	const long next = L->input + g->n_lanes;
	pthread_mutex_lock(&g->lock);
	atomic_store(&g->first, L->input + 1);
	L->cr = NULL;
	if (next < g->n_inputs && lane_open(r->o, L, next))
		atomic_store(&g->failed, 1);
	pthread_cond_broadcast(&g->published);
	pthread_mutex_unlock(&g->lock);
}

/* What the writer can do next: 1 write an item, 2 close the lane, 0 wait. */
static int writable(const struct ring *g)
{
	const long first = atomic_load(&g->first);
	if (first >= g->n_inputs)
		return 0;
	const struct lane *const L = &g->lanes[first % g->n_lanes];
	const long k = atomic_load_explicit(&L->next_write, memory_order_relaxed);
	if (atomic_load_explicit(&L->done[k % g->n], memory_order_acquire))
		return 1;
	return atomic_load_explicit(&L->ended, memory_order_acquire) &&
		       k == atomic_load_explicit(&L->total, memory_order_relaxed) ? 2 : 0;
}

static void show_ring_progress(struct run *r, struct ring *g)
{
	progress_update(&r->prog, atomic_load_explicit(&g->records, memory_order_relaxed),
			atomic_load_explicit(&g->bytes_in, memory_order_relaxed));
}

/* Under the write lock: the items that are extracted and come next in
 * input order, lane after lane.  @return how many were written. */
static long drain_locked(struct run *r, struct ring *g)
{
	struct bytes written[DRAIN_BATCH];
	int n = 0, what;
	long total = 0;
	while ((what = writable(g))) {
		struct lane *const L = &g->lanes[atomic_load(&g->first) % g->n_lanes];
		if (what == 2) {
			lane_finish(r, g, L);
			continue;
		}
		const long k = atomic_load_explicit(&L->next_write, memory_order_relaxed);
		struct item *const it = &L->items[k % g->n];
		if (!atomic_load(&g->failed) && account(r, it))
			atomic_store(&g->failed, 1);
		/* out of the slot before it is free (the reader refills it) */
		written[n++] = it->out;
		it->out = (struct bytes){0};
		atomic_fetch_sub_explicit(&L->held, it->held, memory_order_relaxed);
		if (n == DRAIN_BATCH) {
			outs_put(g, written, n);
			n = 0;
		}
		atomic_store_explicit(&L->done[k % g->n], 0, memory_order_relaxed);
		atomic_store_explicit(&L->next_write, k + 1, memory_order_release);
		total++;
	}
	outs_put(g, written, n);
	if (total)
		show_ring_progress(r, g);
	return total;
}

/*
 * Write what can be written, if no other thread is writing.  The check
 * after letting go (fences on both sides: the extractor's after its done
 * flag) closes the gap where an item finished while the writer was on
 * its way out and its thread's trylock failed: one of the two sees it.
 */
static void ring_drain(struct run *r, struct ring *g)
{
	atomic_thread_fence(memory_order_seq_cst);
	do {
		if (pthread_mutex_trylock(&g->write_lock))
			return;
		const long n = drain_locked(r, g);
		pthread_mutex_unlock(&g->write_lock);
		if (n && atomic_load(&g->waiters)) { /* slots freed: a full lane may read */
			pthread_mutex_lock(&g->lock);
			pthread_cond_broadcast(&g->published);
			pthread_mutex_unlock(&g->lock);
		}
		atomic_thread_fence(memory_order_seq_cst);
	} while (writable(g));
}

/*
 * Take the buffer the reader inflated the record into, giving it a spare
 * one (none: it allocates): the block is not copied.  @return 1 taken,
 * 0 (the block must be copied).
 */
static int take_block(struct crawl_reader *cr, struct bytes *spare, struct item *it)
{
	struct bytes b = *spare;
	if (!crawl_reader_swap_block(cr, &b.p, &b.cap, &b.len))
		return 0;
	it->win = b;
	*spare = (struct bytes){0};
	return 1;
}

/* The lane's reader: its records and bytes so far to the ring's totals. */
static void lane_count(struct ring *g, struct lane *L)
{
	struct crawl_reader_stats rs;
	crawl_reader_get_stats(L->cr, &rs);
	atomic_fetch_add_explicit(&g->records, rs.records - L->shown_records,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&g->bytes_in, rs.bytes_in - L->shown_bytes,
				  memory_order_relaxed);
	L->shown_records = rs.records;
	L->shown_bytes = rs.bytes_in;
}

/*
 * The lane's reader (the token's holder, outside the lock): the next item
 * into its free slot (lane_can_read() saw one, and only the writer frees
 * more).  @return 1 read, 0 input done or failed.
 */
static int lane_read(struct run *r, struct ring *g, struct lane *L)
{
	struct crawl_record rec;
	int rc;
	if (atomic_load(&g->failed))
		return 0;
	if ((rc = next_item_record(L->cr, &L->c, &rec)) != 1) {
		if (rc < 0)
			atomic_store(&g->failed, 1);
		lane_count(g, L);
		return 0;
	}
	struct item *const it = &L->items[L->ready % g->n];
	item_fill(it, &rec, r->o, take_block(L->cr, &L->rspare, it));
	it->held = it->raw.cap + it->win.len;
	atomic_fetch_add_explicit(&L->held, it->held, memory_order_relaxed);
	lane_count(g, L);
	return 1;
}

/* Under the lock: may lane @L read one more record (its token aside)? */
static int lane_can_read(const struct ring *g, const struct lane *L)
{
	if (!L->cr || L->eof)
		return 0;
	if (L->ready - atomic_load_explicit(&L->next_write, memory_order_acquire) >= g->n)
		return 0; /* full: its oldest item is not written yet */
	if (L->input == atomic_load(&g->first))
		return 1;
	return !L->solo && atomic_load_explicit(&L->held, memory_order_relaxed) < g->held_max;
}

/* Under the lock, as lane @L's reader (the token): read until @ahead + 1
 * of its items wait, it may read no more, or its input ends, publishing
 * each item as it is read. */
static void lane_fill(struct run *r, struct ring *g, struct lane *L, long ahead)
{
	int more;
	L->reading = 1;
	do {
		pool_get(&g->wins, &L->rspare);
		pthread_mutex_unlock(&g->lock);
		const int got = lane_read(r, g, L);
		pthread_mutex_lock(&g->lock);
		L->ready += got;
		if (got) {
			/* one item for one waiter: waking them all (with -t3 and
			 * up) had the rest find nothing and sleep again */
			pthread_cond_signal(&g->published);
		} else {
			L->eof = 1;
			atomic_store_explicit(&L->total, L->ready, memory_order_relaxed);
			atomic_store_explicit(&L->ended, 1, memory_order_release);
		}
		more = got && L->ready - L->next_claim < ahead + 1 && lane_can_read(g, L);
	} while (more);
	L->reading = 0;
	pthread_cond_broadcast(&g->published); /* a waiter may read now, or see the end */
}

/*
 * Under the lock: one step towards work, the open lanes taken in input
 * order.  A lane no one reads, with no more than g->low items waiting,
 * is read first (so a thread done with its page finds the next one
 * inflated); else the oldest waiting item is claimed.  A thread that
 * finds the writer's lane being read and empty reads a lane further on.
 * @return 1 claimed (*lp, *kp), 0 read some (look again), -1 nothing to do.
 */
static int claim_step(struct run *r, struct ring *g, struct lane **lp, long *kp)
{
	const long first = atomic_load(&g->first);
	const long end = first + g->n_lanes < g->n_inputs ? first + g->n_lanes : g->n_inputs;
	for (long i = first; i < end; i++) {
		struct lane *const L = &g->lanes[i % g->n_lanes];
		const long waiting = L->ready - L->next_claim;
		if (!L->reading && waiting <= g->low && lane_can_read(g, L)) {
			if (i == first) {
				lane_fill(r, g, L, g->ahead);
				return 0;
			}
			/* Ahead of the writer: one page, extracted at once by
			 * the thread that read it, while it is in its cache;
			 * only the output waits for its turn. */
			lane_fill(r, g, L, 0);
			if (L->ready == L->next_claim)
				return 0;
		} else if (!waiting) {
			continue;
		}
		pool_get(&g->outs, &L->items[L->next_claim % g->n].out);
		*lp = L;
		*kp = L->next_claim++;
		return 1;
	}
	return -1;
}

/* Under the lock: 1 if no item is left to claim, now or later. */
static int ring_done(const struct ring *g)
{
	if (atomic_load(&g->failed))
		return 1;
	const long first = atomic_load(&g->first);
	if (first + g->n_lanes < g->n_inputs)
		return 0; /* inputs not open yet */
	for (long i = first; i < g->n_inputs; i++)
		if (!g->lanes[i % g->n_lanes].eof)
			return 0;
	return 1;
}

/*
 * Under the lock: the next read item for this thread to extract (*lp,
 * *kp), reading first if claim_step() says so; waits while nothing is
 * read and no lane may be read (each being read, full, or ahead of the
 * writer's and at its cap).  @return 1, or 0 when all are taken.
 */
static int ring_claim(struct run *r, struct ring *g, struct lane **lp, long *kp)
{
	int drained = 0;
	for (;;) {
		if (atomic_load(&g->failed))
			return 0;
		const int got = claim_step(r, g, lp, kp);
		if (got > 0)
			return 1;
		if (got == 0)
			continue;
		if (ring_done(g))
			return 0;
		if (!drained) { /* a lane may have ended after its last item was written */
			pthread_mutex_unlock(&g->lock);
			ring_drain(r, g);
			pthread_mutex_lock(&g->lock);
			drained = 1;
			continue;
		}
		/* timed: a wake-up lost to the writer's lock-free path costs
		 * a millisecond, not the run */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		atomic_fetch_add(&g->waiters, 1);
		pthread_cond_timedwait(&g->published, &g->lock, &ts);
		atomic_fetch_sub(&g->waiters, 1);
		drained = 0;
	}
}

/* Several threads: read (one thread per input at a time), extract, write
 * in order. */
static int run_ring(struct run *r)
{
	struct ring *const g = &r->g;
#pragma omp parallel num_threads(r->n_workers)
	{
		struct webdoc *const w = r->workers[omp_get_thread_num()];
		struct lane *L;
		long k;
		pthread_mutex_lock(&g->lock);
		while (ring_claim(r, g, &L, &k)) {
			pthread_mutex_unlock(&g->lock);
			struct item *const it = &L->items[k % g->n];
			item_compute(w, it, r->o, 1);
			/* out of the slot before it may be written and refilled.
			 * Kept by how far it was written (its size is address
			 * space), not by its record's length: a member of many
			 * records, or one a first inflate filled to the end,
			 * leaves more pages resident than its last block. */
			struct bytes win = it->win;
			const int keep = win.len <= WIN_KEEP_MAX;
			it->win = (struct bytes){0};
			const size_t held = it->raw.cap + it->out.cap;
			atomic_fetch_add_explicit(&L->held, held - it->held, memory_order_relaxed);
			it->held = held;
			atomic_store_explicit(&L->done[k % g->n], 1, memory_order_release);
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
	if (!atomic_load(&g->failed) && atomic_load(&g->first) < g->n_inputs) {
		log_error("internal error: input %ld not written", (long)atomic_load(&g->first));
		return -1;
	}
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

#ifdef _OPENMP
/* Several threads: the lanes, the first inputs open in them.  @return 0,
 * or -1 on OOM (logged). */
static int ring_init(struct run *r)
{
	struct ring *const g = &r->g;
	g->n_inputs = r->o->n_inputs ? r->o->n_inputs : 1;
	/* a reader for every thread, and one more lane so that a thread
	 * finds one to read while the others' are full */
	g->n_lanes = r->n_workers + 1;
	/* room for the pages done ahead of the writer (held_max bounds
	 * their bytes first), and RING_PER_THREAD per thread at least */
	g->n = (long)r->n_workers * RING_PER_THREAD;
	if (g->n < LANE_SLOTS)
		g->n = LANE_SLOTS;
	g->held_max = LANE_AHEAD_BYTES;
	g->lanes = xcalloc((size_t)g->n_lanes, sizeof *g->lanes);
	for (int j = 0; j < g->n_lanes; j++) {
		struct lane *const L = &g->lanes[j];
		L->items = xcalloc((size_t)g->n, sizeof *L->items);
		L->done = xcalloc((size_t)g->n, sizeof *L->done);
		for (long i = 0; i < g->n; i++)
			atomic_init(&L->done[i], 0);
		if (j < g->n_inputs && lane_open(r->o, L, j))
			return -1;
	}
	/* every inflate buffer is in a slot, a spare, a reader's or a lane's
	 * rspare; every output buffer in a slot, a spare or being given back
	 * (more would be freed) */
	g->wins.cap = g->outs.cap = g->n * g->n_lanes + g->n_lanes + 2;
	g->wins.b = xcalloc((size_t)g->wins.cap, sizeof *g->wins.b);
	g->outs.b = xcalloc((size_t)g->outs.cap, sizeof *g->outs.b);
	atomic_init(&g->first, 0);
	atomic_init(&g->failed, 0);
	atomic_init(&g->waiters, 0);
	atomic_init(&g->records, 0);
	atomic_init(&g->bytes_in, 0);
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
	return 0;
}

static void ring_free(struct ring *g)
{
	if (!g->lanes)
		return;
	for (int j = 0; j < g->n_lanes; j++) {
		crawl_reader_close(g->lanes[j].cr);
		items_free(g->lanes[j].items, g->n);
		free(g->lanes[j].done);
		free(g->lanes[j].rspare.p);
	}
	free(g->lanes);
	pool_free(&g->wins);
	pool_free(&g->outs);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->published);
	pthread_mutex_destroy(&g->write_lock);
}
#endif

/* The reader (one thread) or the lanes.  @return 0, or -1 on OOM. */
static int readers_open(struct run *r)
{
#ifdef _OPENMP
	if (r->n_workers > 1)
		return ring_init(r);
#endif
	r->cr = crawl_reader_open(r->o->inputs, r->o->n_inputs, r->o->file_base,
				  r->o->max_record);
	return r->cr ? 0 : -1;
}

/* What the inputs held and lost: the one reader's, or every lane's. */
static void readers_stats(const struct run *r, struct crawl_reader_stats *rs)
{
#ifdef _OPENMP
	if (r->g.lanes) {
		*rs = r->g.st;
		return;
	}
#endif
	crawl_reader_get_stats(r->cr, rs);
}

static void run_free(struct run *r)
{
	crawl_reader_close(r->cr);
	for (int i = 0; i < r->n_workers; i++)
		webdoc_free(r->workers[i]);
	items_free(r->item, 1);
#ifdef _OPENMP
	ring_free(&r->g);
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
	int rc = readers_open(&r) ? -1 : output_start(&r);
	if (rc == 0) {
		progress_start(&r.prog, "records", total_input_bytes(&o));
		rc = run_inputs(&r);
		progress_end(&r.prog);
	}
	if (rc == 0)
		readers_stats(&r, &rs);
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
