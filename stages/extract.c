/*
 * extract.c - ndd-extract: WARC files -> one document record per HTML
 * response (NDF_KIND_DOCS), or JSON lines with --json.
 *
 * Pipeline per input file, in input order:
 *
 *   read (serial)     warc_next(); response/resource records are copied
 *                     into a batch of items (the reader reuses its buffers)
 *   compute (OpenMP)  per item: HTTP head and body decoding, HTML check,
 *                     charset -> UTF-8, main-text extraction, hashes, and
 *                     the encoded output record, into the item's buffer
 *   write (serial)    items in batch order -> ~1 MiB NDF blocks
 *
 * Items are written in the order they were read, whatever thread computed
 * them, so the output is byte-identical for any -t.  Document ids are
 * DOC_ID(file_base + input position, record ordinal in its file): a file
 * processed anywhere gets the same ids.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <xxhash.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "charset.h"
#include "cli.h"
#include "docrec.h"
#include "html_text.h"
#include "http.h"
#include "log.h"
#include "ndf.h"
#include "warc.h"

#define BLOCK_TARGET (1u << 20)
#define BATCH_ITEMS 256
#define BATCH_BYTES (32u << 20)
#define MAX_TITLE 4096
#define EXTRACT_CONFIG_VERSION 1

struct opts {
	struct cli_common cc;
	size_t max_record, max_text;
	uint64_t file_base;
	const char *stats_path;
	int json;
	char **inputs;
	int n_inputs;
};

/* What became of a response or resource record. */
enum outcome {
	OUT_DOC,
	OUT_NON_HTML,    /* filtered: not HTML, or not HTTP */
	OUT_NON_2XX,     /* filtered */
	OUT_UNSUPPORTED, /* filtered: a Content-Encoding we cannot decode (br...) */
	OUT_BAD_HTTP,    /* skipped, bad input: no HTTP status line */
	OUT_UNDECODABLE, /* skipped, bad input: body does not de-chunk/inflate */
	OUT_NOMEM,
};

struct counts {
	uint64_t inputs, records, docs, revisits, other_types, unknown_types;
	uint64_t empty_inputs; /* inputs in which not one WARC record was found */
	uint64_t non_html, non_2xx, unsupported, bad_http, undecodable;
	uint64_t truncated, text_truncated, lossy;
	struct warc_stats warc;
};

struct bytes {
	uint8_t *p;
	size_t len, cap;
};

/* A response/resource record copied out of the reader, and its result. */
struct item {
	struct doc_record d; /* string fields point into raw or the worker */
	int is_response;
	const char *ptype, *ctype; /* WARC-Identified-Payload-Type, Content-Type (in raw) */
	struct bytes raw;          /* strings, NUL-terminated, then the block */
	size_t block_off, block_len;
	enum outcome outcome;
	struct bytes out; /* the encoded record or JSON line */
};

/* Per-thread scratch, reused for every item. */
struct worker {
	struct http_decoder *http;
	struct html_text *html;
	char *u8;
	size_t u8_len, u8_cap;
};

struct run {
	struct opts *o;
	struct counts c;
	struct item *items;
	int n_items;
	size_t batch_bytes;
	struct worker *workers;
	int n_workers;
	struct outfile of;
	struct ndf_writer *w;
	struct bytes block;
	uint32_t block_n;
	uint64_t block_key;
	struct progress prog;
	uint64_t bytes_done;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-extract [options] [WARC...]\n"
		"Read WARC files (.warc, .warc.gz; '-' or none for standard input) and\n"
		"write one document per 2xx HTML response: id, URL, WARC file, record\n"
		"offset, record id, date, title and main text as UTF-8.\n\n"
		"      --max-record SIZE  skip WARC records with a bigger block (default 64M)\n"
		"      --max-text SIZE    cut main text longer than this (default 4M)\n"
		"      --file-base N      number of the first input in document ids (default 0)\n"
		"      --stats FILE       write run statistics as JSON to FILE\n"
		"      --json             write JSON lines instead of an NDF documents section\n"
		CLI_COMMON_HELP);
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_MAX_RECORD = CLI_OPT_STAGE_BASE, OPT_MAX_TEXT, OPT_FILE_BASE, OPT_STATS, OPT_JSON };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"max-record", required_argument, NULL, OPT_MAX_RECORD},
		{"max-text", required_argument, NULL, OPT_MAX_TEXT},
		{"file-base", required_argument, NULL, OPT_FILE_BASE},
		{"stats", required_argument, NULL, OPT_STATS},
		{"json", no_argument, NULL, OPT_JSON},
		{NULL, 0, NULL, 0},
	};
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

static void bytes_printf(struct bytes *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bytes_printf(struct bytes *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	bytes_add(b, tmp, n > 0 ? (size_t)n : 0);
}

/* Length of the longest prefix of @s no longer than @max that does not
 * end inside a UTF-8 sequence. */
static size_t utf8_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

/* ---- JSON lines ---- */

/* Bytes of the valid UTF-8 sequence at @p, or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	const unsigned c = p[0];
	const size_t k = c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3
		       : c >= 0xf0 && c < 0xf5 ? 4 : 0;
	if (!k || k > n)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

/* A JSON string; bytes that are not UTF-8 (URLs can hold any) become U+FFFD. */
static void json_str(struct bytes *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	bytes_add(b, "\"", 1);
	while (p < end) {
		const unsigned char c = *p;
		size_t k;
		if (c == '"' || c == '\\') {
			const char esc[2] = {'\\', (char)c};
			bytes_add(b, esc, 2);
			p++;
		} else if (c == '\n') {
			bytes_add(b, "\\n", 2), p++;
		} else if (c < 0x20 || c == 0x7f) {
			bytes_printf(b, "\\u%04x", c), p++;
		} else if (c < 0x80) {
			bytes_add(b, p++, 1);
		} else if ((k = utf8_seq(p, (size_t)(end - p))) != 0) {
			bytes_add(b, p, k), p += k;
		} else {
			bytes_add(b, "\\ufffd", 6), p++;
		}
	}
	bytes_add(b, "\"", 1);
}

static void json_field(struct bytes *b, const char *name, struct str s)
{
	bytes_printf(b, ",\"%s\":", name);
	json_str(b, s.p, s.n);
}

static void encode_json(struct bytes *b, const struct doc_record *d)
{
	b->len = 0;
	bytes_printf(b, "{\"id\":%llu", (unsigned long long)d->doc_id);
	json_field(b, "url", d->url);
	json_field(b, "warc_file", d->warc_file);
	bytes_printf(b, ",\"warc_offset\":%llu,\"warc_length\":%llu",
		     (unsigned long long)d->warc_offset, (unsigned long long)d->warc_length);
	json_field(b, "record_id", d->record_id);
	json_field(b, "date", d->date);
	bytes_printf(b, ",\"status\":%u,\"flags\":%u", d->http_status, d->flags);
	json_field(b, "title", d->title);
	json_field(b, "text", d->text);
	bytes_add(b, "}\n", 2);
}

/* ---- per item: read side ---- */

static size_t add_cstr(struct bytes *b, const char *s, size_t n)
{
	const size_t off = b->len;
	bytes_add(b, s, n);
	bytes_add(b, "", 1);
	return off;
}

static struct str str_at(const struct bytes *b, size_t off)
{
	const char *p = (const char *)b->p + off;
	return (struct str){p, (uint32_t)strlen(p)};
}

/* Copy what the compute step needs out of @rec (the reader reuses it). */
static void item_fill(struct item *it, const struct warc_record *rec, uint64_t id, const char *file)
{
	const char *names[4] = {"WARC-Record-ID", "WARC-Date", "WARC-Identified-Payload-Type",
				"Content-Type"};
	size_t off[5], ul = 0;
	const char *u = warc_target_uri(rec, &ul);
	it->raw.len = 0;
	off[0] = add_cstr(&it->raw, u ? u : "", u ? ul : 0);
	for (int i = 0; i < 4; i++) {
		const char *v = warc_header_get(rec, names[i]);
		off[i + 1] = v ? add_cstr(&it->raw, v, strlen(v)) : SIZE_MAX;
	}
	it->block_off = it->raw.len;
	it->block_len = rec->block_len;
	bytes_add(&it->raw, rec->block, rec->block_len);
	memset(&it->d, 0, sizeof it->d);
	it->d.doc_id = id;
	it->d.warc_offset = rec->offset;
	it->d.warc_length = rec->length;
	it->d.url = str_at(&it->raw, off[0]);
	it->d.warc_file = (struct str){file, (uint32_t)strlen(file)};
	it->d.record_id = off[1] != SIZE_MAX ? str_at(&it->raw, off[1]) : (struct str){"", 0};
	it->d.date = off[2] != SIZE_MAX ? str_at(&it->raw, off[2]) : (struct str){"", 0};
	it->ptype = off[3] != SIZE_MAX ? (const char *)it->raw.p + off[3] : NULL;
	it->ctype = off[4] != SIZE_MAX ? (const char *)it->raw.p + off[4] : NULL;
	it->is_response = rec->type == WARC_RESPONSE;
	if (warc_header_get(rec, "WARC-Truncated"))
		it->d.flags |= DOC_TRUNCATED;
	if (rec->flags & WARC_REC_OFFSET_UNCOMPRESSED)
		it->d.flags |= DOC_OFFSET_UNCOMPRESSED;
}

/* ---- per item: compute side (runs in parallel) ---- */

static int generic_type(const char *t)
{
	while (*t == ' ')
		t++;
	return !*t || !strncasecmp(t, "application/octet-stream", 24) ||
	       !strncasecmp(t, "unknown", 7) || !strncasecmp(t, "application/unknown", 19);
}

/* The crawler's payload identification, then the declared type, then a
 * look at the first bytes. */
static int is_html(const char *ptype, const char *ct, const uint8_t *body, size_t n)
{
	if (ptype && !generic_type(ptype))
		return http_type_is_html(ptype);
	if (ct && !generic_type(ct))
		return http_type_is_html(ct);
	return http_sniff_html(body, n);
}

static enum outcome make_doc(struct worker *w, struct item *it, const struct opts *o,
			     const uint8_t *body, size_t n, const char *ct)
{
	int lossy = 0;
	size_t tl, ml;
	if (charset_to_utf8((const char *)body, n, ct, &w->u8, &w->u8_len, &w->u8_cap, &lossy) ||
	    html_text_extract(w->html, w->u8, w->u8_len))
		return OUT_NOMEM;
	if (lossy)
		it->d.flags |= DOC_CHARSET_LOSSY;
	const char *title = html_text_title(w->html, &tl);
	const char *text = html_text_main(w->html, &ml);
	tl = utf8_cut(title, tl, MAX_TITLE);
	if (ml > o->max_text) {
		ml = utf8_cut(text, ml, o->max_text);
		it->d.flags |= DOC_TEXT_TRUNCATED;
	}
	it->d.payload_hash = XXH3_64bits(body, n);
	it->d.text_hash = XXH3_64bits(text, ml);
	it->d.title = (struct str){title, (uint32_t)tl};
	it->d.text = (struct str){text, (uint32_t)ml};
	if (o->json) {
		encode_json(&it->out, &it->d);
	} else {
		it->out.len = 0;
		bytes_reserve(&it->out, docrec_size(&it->d));
		it->out.len = docrec_encode(&it->d, it->out.p);
	}
	return OUT_DOC;
}

static enum outcome http_outcome(int rc)
{
	switch (rc) {
	case HTTP_ERR_NOMEM: return OUT_NOMEM;
	case HTTP_ERR_FORMAT: return OUT_BAD_HTTP;
	case HTTP_ERR_ENCODING: return OUT_UNSUPPORTED;
	default: return OUT_UNDECODABLE;
	}
}

static enum outcome item_compute(struct worker *w, struct item *it, const struct opts *o)
{
	const uint8_t *body = it->raw.p + it->block_off;
	size_t n = it->block_len;
	const char *ct = it->ctype;
	if (it->is_response) {
		const char *t = ct ? ct + strspn(ct, " ") : NULL;
		if (t && strncasecmp(t, "application/http", 16))
			return OUT_NON_HTML; /* dns:, ftp: and the like */
		struct http_response resp;
		const int rc = http_parse_response(w->http, body, n, o->max_record, &resp);
		if (rc < 0)
			return http_outcome(rc);
		it->d.http_status = (uint32_t)resp.status;
		if (resp.status < 200 || resp.status > 299)
			return OUT_NON_2XX;
		if (resp.flags & (HTTP_BODY_TRUNCATED | HTTP_BODY_PARTIAL))
			it->d.flags |= DOC_TRUNCATED;
		body = resp.body;
		n = resp.body_len;
		ct = resp.content_type;
	}
	if (!is_html(it->ptype, ct, body, n))
		return OUT_NON_HTML;
	return make_doc(w, it, o, body, n, ct);
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
	if (r->block_n && r->block.len + it->out.len > BLOCK_TARGET && flush_block(r))
		return -1;
	if (!r->block_n)
		r->block_key = it->d.doc_id;
	bytes_add(&r->block, it->out.p, it->out.len);
	r->block_n++;
	return 0;
}

static void warn_item(const struct item *it, const char *what)
{
	log_warn("%.*s: record at offset %llu (%.*s) skipped: %s", (int)it->d.warc_file.n,
		 it->d.warc_file.p, (unsigned long long)it->d.warc_offset, (int)it->d.url.n,
		 it->d.url.p, what);
}

static int account(struct run *r, const struct item *it)
{
	struct counts *c = &r->c;
	switch (it->outcome) {
	case OUT_DOC:
		c->docs++;
		c->truncated += !!(it->d.flags & DOC_TRUNCATED);
		c->text_truncated += !!(it->d.flags & DOC_TEXT_TRUNCATED);
		c->lossy += !!(it->d.flags & DOC_CHARSET_LOSSY);
		return emit(r, it);
	case OUT_NON_HTML: c->non_html++; return 0;
	case OUT_NON_2XX: c->non_2xx++; return 0;
	case OUT_UNSUPPORTED: c->unsupported++; return 0;
	case OUT_BAD_HTTP:
		c->bad_http++;
		warn_item(it, "no HTTP status line");
		return 0;
	case OUT_UNDECODABLE:
		c->undecodable++;
		warn_item(it, "HTTP body does not decode");
		return 0;
	case OUT_NOMEM:
		break;
	}
	log_error("out of memory extracting text");
	return -1;
}

static int process_batch(struct run *r)
{
	const int n = r->n_items;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) if (r->n_workers > 1)
#endif
	for (int i = 0; i < n; i++) {
		int t = 0;
#ifdef _OPENMP
		t = omp_get_thread_num();
#endif
		r->items[i].outcome = item_compute(&r->workers[t], &r->items[i], r->o);
	}
	r->n_items = 0;
	r->batch_bytes = 0;
	for (int i = 0; i < n; i++)
		if (account(r, &r->items[i]))
			return -1;
	return 0;
}

/* ---- inputs ---- */

static int add_item(struct run *r, const struct warc_record *rec, uint64_t id, const char *file)
{
	item_fill(&r->items[r->n_items++], rec, id, file);
	r->batch_bytes += rec->block_len;
	if (r->n_items < BATCH_ITEMS && r->batch_bytes < BATCH_BYTES)
		return 0;
	return process_batch(r);
}

static int classify(struct run *r, const struct warc_record *rec, uint64_t id, const char *file)
{
	switch (rec->type) {
	case WARC_RESPONSE:
	case WARC_RESOURCE:
		return add_item(r, rec, id, file);
	case WARC_REVISIT:
		r->c.revisits++;
		return 0;
	case WARC_OTHER:
		r->c.unknown_types++;
		return 0;
	default:
		r->c.other_types++;
		return 0;
	}
}

/* Read one input; @return 0, or -1 on a fatal error (logged). */
static int do_input(struct run *r, const char *path, uint64_t file_no)
{
	FILE *fp = cli_open_input(path);
	if (!fp)
		return -1;
	struct warc_reader *wr = warc_open(fp, path, r->o->max_record);
	if (!wr) {
		cli_close_input(fp);
		return -1;
	}
	struct warc_record rec;
	uint64_t ord = 0;
	int rc;
	const char *name = strcmp(path, "-") ? path : "(standard input)";
	r->c.inputs++;
	while ((rc = warc_next(wr, &rec)) == 1) {
		r->c.records++;
		if (classify(r, &rec, DOC_ID(file_no, ord++), path)) {
			rc = -1;
			break;
		}
		progress_update(&r->prog, r->c.records, r->bytes_done + warc_reader_stats(wr)->bytes_in);
	}
	if (rc == 0 && process_batch(r))
		rc = -1;
	if (rc == 0 && ord == 0) {
		/* Not a crawl archive at all (or empty): worth an error, though
		 * the other inputs of the night still go through. */
		log_error("'%s': no WARC record found: empty, or not a WARC file", name);
		r->c.empty_inputs++;
	}
	warc_stats_add(&r->c.warc, warc_reader_stats(wr));
	r->bytes_done += warc_reader_stats(wr)->bytes_in;
	warc_close(wr);
	cli_close_input(fp);
	return rc < 0 ? -1 : 0;
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

static uint64_t skipped_bad(const struct counts *c)
{
	return warc_stats_skipped(&c->warc) + c->bad_http + c->undecodable;
}

static uint64_t filtered(const struct counts *c)
{
	return c->non_html + c->non_2xx + c->unsupported + c->revisits + c->other_types +
	       c->unknown_types;
}

static void write_stats_json(FILE *fp, const struct counts *c)
{
	const struct warc_stats *w = &c->warc;
	fprintf(fp,
		"{\n  \"stage\": \"extract\",\n  \"inputs\": %llu,\n"
		"  \"inputs_without_records\": %llu,\n  \"bytes_in\": %llu,\n"
		"  \"records_read\": %llu,\n  \"documents_written\": %llu,\n"
		"  \"skipped\": {\"total\": %llu, \"garbage\": %llu, \"bad_header\": %llu, "
		"\"bad_length\": %llu, \"huge\": %llu, \"truncated\": %llu, \"corrupt_gzip\": %llu, "
		"\"bad_http\": %llu, \"undecodable_body\": %llu},\n"
		"  \"filtered\": {\"non_html\": %llu, \"non_2xx\": %llu, "
		"\"unsupported_encoding\": %llu, \"revisit\": %llu, \"other_record_types\": %llu, "
		"\"unknown_record_types\": %llu},\n"
		"  \"documents_flagged\": {\"truncated\": %llu, \"text_truncated\": %llu, "
		"\"charset_lossy\": %llu}\n}\n",
		(unsigned long long)c->inputs, (unsigned long long)c->empty_inputs,
		(unsigned long long)w->bytes_in,
		(unsigned long long)c->records, (unsigned long long)c->docs,
		(unsigned long long)skipped_bad(c), (unsigned long long)w->garbage,
		(unsigned long long)w->bad_header, (unsigned long long)w->bad_length,
		(unsigned long long)w->huge, (unsigned long long)w->truncated,
		(unsigned long long)w->corrupt_gzip, (unsigned long long)c->bad_http,
		(unsigned long long)c->undecodable, (unsigned long long)c->non_html,
		(unsigned long long)c->non_2xx, (unsigned long long)c->unsupported,
		(unsigned long long)c->revisits, (unsigned long long)c->other_types,
		(unsigned long long)c->unknown_types, (unsigned long long)c->truncated,
		(unsigned long long)c->text_truncated, (unsigned long long)c->lossy);
}

/* What changes the text of a document: stored in the header so later
 * stages can tell outputs of different configurations apart. */
static uint64_t feature_config(const struct opts *o)
{
	char cfg[128];
	const int n = snprintf(cfg, sizeof cfg, "ndd-extract/%d max-text=%zu title=%d",
			       EXTRACT_CONFIG_VERSION, o->max_text, MAX_TITLE);
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
	h.feature_config = feature_config(r->o);
	r->w = ndf_writer_open(r->of.fp, r->of.display, &h);
	return r->w ? 0 : -1;
}

/* Finish the section, write the statistics, then publish both. */
static int output_finish(struct run *r)
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
		write_stats_json(st.fp, &r->c);
	}
	if (outfile_commit(&r->of)) {
		outfile_abort(&st);
		return -1;
	}
	return r->o->stats_path ? outfile_commit(&st) : 0;
}

static void workers_init(struct run *r)
{
	r->n_workers = r->o->cc.threads;
#ifdef _OPENMP
	if (omp_get_max_threads() > r->n_workers)
		r->n_workers = omp_get_max_threads();
#endif
	r->workers = xcalloc((size_t)r->n_workers, sizeof *r->workers);
	for (int i = 0; i < r->n_workers; i++) {
		r->workers[i].http = http_decoder_new();
		r->workers[i].html = html_text_new();
		if (!r->workers[i].http || !r->workers[i].html) {
			log_error("out of memory");
			exit(EXIT_FAILED);
		}
	}
	r->items = xcalloc(BATCH_ITEMS, sizeof *r->items);
}

static void run_free(struct run *r)
{
	for (int i = 0; i < r->n_workers; i++) {
		http_decoder_free(r->workers[i].http);
		html_text_free(r->workers[i].html);
		free(r->workers[i].u8);
	}
	for (int i = 0; i < BATCH_ITEMS; i++) {
		free(r->items[i].raw.p);
		free(r->items[i].out.p);
	}
	free(r->workers);
	free(r->items);
	free(r->block.p);
}

static int run_inputs(struct run *r)
{
	const struct opts *o = r->o;
	if (o->n_inputs == 0)
		return do_input(r, "-", o->file_base);
	for (int i = 0; i < o->n_inputs; i++)
		if (do_input(r, o->inputs[i], o->file_base + (uint64_t)i))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct opts o;
	static struct run r;
	log_init("ndd-extract");
	parse(&o, argc, argv);
	r.o = &o;
	workers_init(&r);
	int rc = output_start(&r);
	if (rc == 0) {
		progress_start(&r.prog, "records", total_input_bytes(&o));
		rc = run_inputs(&r);
		progress_end(&r.prog);
	}
	if (rc == 0 && r.c.empty_inputs == r.c.inputs) {
		log_error("no input held a WARC record; nothing written");
		rc = -1;
	}
	if (rc == 0)
		rc = output_finish(&r);
	if (rc) {
		ndf_writer_abort(r.w);
		outfile_abort(&r.of);
		run_free(&r);
		return EXIT_FAILED;
	}
	cli_summary("%llu records, %llu documents, %llu skipped, %llu filtered, %.1f MB in",
		    (unsigned long long)r.c.records, (unsigned long long)r.c.docs,
		    (unsigned long long)skipped_bad(&r.c), (unsigned long long)filtered(&r.c),
		    (double)r.c.warc.bytes_in / 1e6);
	const int status = skipped_bad(&r.c) || r.c.empty_inputs ? EXIT_SKIPPED : EXIT_OK;
	run_free(&r);
	return status;
}
