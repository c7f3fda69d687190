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
 * The engine (input/crawl_lanes.h) reads the inputs, one thread or
 * several, hands each item to item_compute() on any thread and to
 * account() in input order; this file owns what an item is, the
 * options, the output and the statistics.
 * Items are written in input order, whatever thread read or computed
 * them, so the output is byte-identical for any -t.  Document
 * ids are DOC_ID(file_base + input position, ordinal in that input): a
 * file processed anywhere gets the same ids.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "util/cli.h"
#include "input/crawl_lanes.h"
#include "output/docjson.h"
#include "format/docrec.h"
#include "util/log.h"
#include "util/names0.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "html/webdoc.h"

#define BLOCK_TARGET (1u << 20)
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

/* A record (or loose page) copied out of the reader, and its result.
 * base.raw: NUL-terminated strings, then the block if copied; base.out:
 * the encoded record or JSON line. */
struct item {
	struct crawl_item base;    /* first: the engine's part */
	struct doc_record d;       /* string fields point into raw or the worker */
	struct webdoc_in in;       /* block and type strings point into raw */
	enum webdoc_outcome outcome;
};

struct run {
	struct opts *o;
	struct counts c;
	struct crawl_lanes *lanes;
	struct webdoc **workers;  /* one per thread */
	int n_workers;
	struct outfile of;
	struct ndf_writer *w;
	struct crawl_bytes block;
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

static void bytes_reserve(struct crawl_bytes *b, size_t extra)
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

static void bytes_add(struct crawl_bytes *b, const void *p, size_t n)
{
	bytes_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* Append @s (@n bytes) and a NUL; @return its offset. */
static size_t add_cstr(struct crawl_bytes *b, const char *s, size_t n)
{
	const size_t off = b->len;
	bytes_add(b, s, n);
	bytes_add(b, "", 1);
	return off;
}

/* ---- read side: records into items ---- */

/* Append @s (or nothing if NULL) and a NUL; @return its offset or SIZE_MAX. */
static size_t add_opt(struct crawl_bytes *b, const char *s)
{
	return s ? add_cstr(b, s, strlen(s)) : SIZE_MAX;
}

static struct str str_at(const struct crawl_bytes *b, size_t off)
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
	it->base.raw.len = 0;
	if (it->base.raw.cap > CRAWL_LANES_SHRINK_ABOVE && rec->block_len < it->base.raw.cap / 4) {
		free(it->base.raw.p); /* one huge page must not pin its size in every slot */
		it->base.raw = (struct crawl_bytes){0};
	}
	if (it->base.out.cap > CRAWL_LANES_SHRINK_ABOVE) {
		free(it->base.out.p);
		it->base.out = (struct crawl_bytes){0};
	}
	off[S_URL] = add_cstr(&it->base.raw, rec->url, rec->url_len);
	off[S_FILE] = add_opt(&it->base.raw, rec->file);
	off[S_ID] = add_opt(&it->base.raw, rec->record_id);
	off[S_DATE] = add_opt(&it->base.raw, rec->date);
	off[S_PTYPE] = add_opt(&it->base.raw, rec->ptype);
	off[S_CTYPE] = add_opt(&it->base.raw, rec->ctype);
	const size_t block_off = it->base.raw.len;
	if (!borrow)
		bytes_add(&it->base.raw, rec->block, rec->block_len);
	memset(&it->d, 0, sizeof it->d);
	it->d.doc_id = rec->doc_id;
	it->d.flags = rec->doc_flags;
	it->d.warc_offset = rec->offset;
	it->d.warc_length = rec->length;
	it->d.url = str_at(&it->base.raw, off[S_URL]);
	it->d.warc_file = str_at(&it->base.raw, off[S_FILE]);
	it->d.record_id = str_at(&it->base.raw, off[S_ID]);
	it->d.date = str_at(&it->base.raw, off[S_DATE]);
	it->in = (struct webdoc_in){
		.block = borrow ? rec->block : it->base.raw.p + block_off,
		.len = rec->block_len,
		.http = rec->type == WARC_RESPONSE,
		.ptype = off[S_PTYPE] != SIZE_MAX ? (const char *)it->base.raw.p + off[S_PTYPE] : NULL,
		.ctype = off[S_CTYPE] != SIZE_MAX ? (const char *)it->base.raw.p + off[S_CTYPE] : NULL,
		.max_body = o->max_record,
		.max_text = o->max_text,
	};
}

/* ---- compute side (runs in parallel) ---- */

/* Extract @it; with @encode, also encode its output record (else the
 * writer encodes it straight into its block: one thread, whose worker's
 * text is still there when the item is written). */
static void item_compute(struct webdoc *w, struct item *it, const struct opts *o, int encode)
{
	it->outcome = webdoc_extract(w, &it->in, &it->d);
	it->base.out.len = 0;
	if (it->outcome != WEBDOC_OK || !encode)
		return;
	if (o->json) {
		bytes_reserve(&it->base.out, docjson_size(&it->d));
		it->base.out.len = docjson_encode(&it->d, (char *)it->base.out.p);
	} else {
		bytes_reserve(&it->base.out, docrec_size(&it->d));
		it->base.out.len = docrec_encode(&it->d, it->base.out.p);
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
		if (fwrite(it->base.out.p, 1, it->base.out.len, r->of.fp) != it->base.out.len) {
			log_error("cannot write '%s': %s", r->of.display, strerror(errno));
			return -1;
		}
		return 0;
	}
	const size_t len = it->base.out.len ? it->base.out.len : docrec_size(&it->d);
	if (r->block_n && r->block.len + len > BLOCK_TARGET && flush_block(r))
		return -1;
	if (!r->block_n)
		r->block_key = it->d.doc_id;
	if (it->base.out.len) {
		bytes_add(&r->block, it->base.out.p, it->base.out.len);
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

/* ---- the engine's callbacks (input/crawl_lanes.h) ---- */

static void on_fill(void *ctx, struct crawl_item *base, const struct crawl_record *rec,
		    int borrow)
{
	const struct run *const r = ctx;
	item_fill((struct item *)base, rec, r->o, borrow);
}

/* In turn (one thread), an NDF record is encoded by the writer straight
 * into its block: the worker's text is still there. */
static void on_compute(void *ctx, int thread, struct crawl_item *base, int in_turn)
{
	const struct run *const r = ctx;
	item_compute(r->workers[thread], (struct item *)base, r->o, !in_turn || r->o->json);
}

static int on_write(void *ctx, struct crawl_item *base)
{
	return account(ctx, (struct item *)base);
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
}

/* The reader (one thread) or the lanes.  @return 0, or -1 (logged). */
static int readers_open(struct run *r)
{
	static const struct crawl_lanes_ops ops = {
		.item_size = sizeof(struct item),
		.fill = on_fill,
		.compute = on_compute,
		.write = on_write,
	};
	const struct crawl_lanes_config cfg = {
		.inputs = r->o->inputs,
		.n_inputs = r->o->n_inputs,
		.file_base = r->o->file_base,
		.max_record = r->o->max_record,
		.threads = r->n_workers,
	};
	r->lanes = crawl_lanes_open(&cfg, &ops, r, &r->prog);
	return r->lanes ? 0 : -1;
}

/* What the inputs held and lost, and the records passed over into r->c. */
static void readers_stats(struct run *r, struct crawl_reader_stats *rs)
{
	struct crawl_lanes_passed p;
	crawl_lanes_stats(r->lanes, rs, &p);
	r->c.revisits = p.revisits;
	r->c.other_types = p.other_types;
	r->c.unknown_types = p.unknown_types;
}

static void run_free(struct run *r)
{
	crawl_lanes_close(r->lanes);
	for (int i = 0; i < r->n_workers; i++)
		webdoc_free(r->workers[i]);
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
		rc = crawl_lanes_run(r.lanes);
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
