/*
 * crawl_reader.c - see crawl_reader.h.
 *
 * A small state machine: between inputs (path == NULL), in an input
 * between members (in_member == 0), in a WARC member (wr != NULL).  Each
 * call advances it until a record is found.
 */
#include "input/crawl_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format/docrec.h"
#include "input/safe_text.h"
#include "util/log.h"

struct crawl_reader {
	char *const *paths;
	int n_paths, next_input;
	uint64_t file_base, file_no, ord;
	size_t max_record;

	const char *path; /* current input, NULL between inputs */
	FILE *fp;
	struct crawl_input *ci;
	struct crawl_member m;
	int in_member;
	struct warc_reader *wr;

	uint64_t member_records; /* records of the current member so far */
	char *esc[5];     /* escaped entry name and path, URL, record id, date (safe_text.h) */
	size_t esc_cap[5];

	uint8_t *page;    /* a loose page's bytes */
	size_t page_len, page_cap;
	char page_date[32];
	struct crawl_reader_stats st;
};

struct crawl_reader *crawl_reader_open(char *const *paths, int n_paths, uint64_t file_base,
				       size_t max_record)
{
	struct crawl_reader *cr = calloc(1, sizeof *cr);
	if (!cr) {
		log_error("out of memory");
		return NULL;
	}
	cr->paths = paths;
	cr->n_paths = n_paths;
	cr->file_base = file_base;
	cr->max_record = max_record ? max_record : WARC_DEFAULT_MAX_RECORD;
	return cr;
}

enum { ESC_FILE, ESC_PATH, ESC_URL, ESC_ID, ESC_DATE };

/* @s (@n bytes) made safe for the outputs in escape buffer @k: @return it
 * (NUL-terminated if @s is), *len its length, or NULL on OOM (logged). */
static const char *escaped(struct crawl_reader *cr, int k, const char *s, size_t n, size_t *len)
{
	size_t l;
	const char *r = safe_text(s, n, &cr->esc[k], &cr->esc_cap[k], &l);
	if (!r)
		log_error("out of memory");
	if (len)
		*len = l;
	return r;
}

static void end_member(struct crawl_reader *cr)
{
	if (cr->in_member && cr->wr && cr->member_records == 0 && cr->m.from_archive) {
		cr->st.empty_members++;
		log_warn("%s: no WARC record in this archive entry", cr->m.name);
	}
	if (cr->wr) {
		const struct warc_stats ws = warc_reader_stats(cr->wr);
		warc_stats_add(&cr->st.warc, &ws);
		warc_close(cr->wr);
		cr->wr = NULL;
	}
	cr->in_member = 0;
}

static void end_input(struct crawl_reader *cr)
{
	end_member(cr);
	if (cr->ci) {
		const struct crawl_input_stats *s = crawl_input_stats(cr->ci);
		cr->st.arc.archives += s->archives;
		cr->st.arc.members_used += s->members_used;
		cr->st.arc.members_other += s->members_other;
		cr->st.arc.members_nested += s->members_nested;
		cr->st.arc.bad_archive += s->bad_archive;
	}
	if (cr->ord == 0 && cr->ci) {
		/* Not a crawl archive at all (or empty): worth an error, though
		 * the other inputs of the night still go through. */
		log_error("'%s': no WARC record found: empty, or not a WARC file or archive",
			  strcmp(cr->path, "-") ? cr->path : "(standard input)");
		cr->st.empty_inputs++;
	}
	crawl_input_close(cr->ci);
	if (cr->fp && cr->fp != stdin)
		fclose(cr->fp);
	cr->ci = NULL;
	cr->fp = NULL;
	cr->path = NULL;
}

/* Open the next input.  @return 1, 0 if none is left, -1 (logged). */
static int open_input(struct crawl_reader *cr)
{
	const int n = cr->n_paths ? cr->n_paths : 1;
	if (cr->next_input >= n)
		return 0;
	cr->path = cr->n_paths ? cr->paths[cr->next_input] : "-";
	cr->file_no = cr->file_base + (uint64_t)cr->next_input++;
	cr->ord = 0;
	cr->fp = strcmp(cr->path, "-") ? fopen(cr->path, "rb") : stdin;
	if (!cr->fp) {
		log_error("cannot open '%s': %s", cr->path, strerror(errno));
		return -1;
	}
	cr->st.inputs++;
	cr->ci = crawl_input_open(cr->fp, cr->path);
	return cr->ci ? 1 : -1;
}

/* Start the next member.  @return 1, 0 at the end of the input, -1. */
static int open_member(struct crawl_reader *cr)
{
	const int rc = crawl_input_next(cr->ci, &cr->m);
	if (rc <= 0)
		return rc;
	cr->in_member = 1;
	cr->member_records = 0;
	if (!(cr->m.name = escaped(cr, ESC_FILE, cr->m.name, strlen(cr->m.name), NULL)) ||
	    (cr->m.path &&
	     !(cr->m.path = escaped(cr, ESC_PATH, cr->m.path, strlen(cr->m.path), NULL))))
		return -1;
	if (cr->m.kind == CRAWL_WARC) {
		cr->wr = warc_open_read(crawl_input_read, cr->ci, cr->m.name, cr->max_record,
					cr->m.size);
		if (!cr->wr)
			return -1;
	}
	return 1;
}

/* Header @name of @rec made safe for the outputs in buffer @k, or NULL. */
static const char *safe_header(struct crawl_reader *cr, const struct warc_record *rec,
			       const char *name, int k, int *oom)
{
	const struct warc_header *f = warc_header_field(rec->headers, rec->n_headers, name);
	if (!f)
		return NULL;
	const char *v = escaped(cr, k, f->value, f->value_len, NULL);
	*oom |= !v;
	return v;
}

/* @return 0, or -1 on OOM (logged). */
static int from_warc(struct crawl_reader *cr, const struct warc_record *rec,
		     struct crawl_record *out)
{
	int oom = 0;
	out->type = rec->type;
	size_t ul;
	const char *u = warc_target_uri(rec, &ul);
	out->url = u ? escaped(cr, ESC_URL, u, ul, &out->url_len) : "";
	if (!u)
		out->url_len = 0;
	oom |= !out->url;
	out->record_id = safe_header(cr, rec, "WARC-Record-ID", ESC_ID, &oom);
	out->date = safe_header(cr, rec, "WARC-Date", ESC_DATE, &oom);
	out->ptype = warc_header_get(rec, "WARC-Identified-Payload-Type");
	out->ctype = warc_header_get(rec, "Content-Type");
	out->block = rec->block;
	out->block_len = rec->block_len;
	out->offset = rec->offset;
	out->length = rec->length;
	if (warc_header_get(rec, "WARC-Truncated"))
		out->doc_flags |= DOC_TRUNCATED;
	if (rec->flags & WARC_REC_OFFSET_UNCOMPRESSED)
		out->doc_flags |= DOC_OFFSET_UNCOMPRESSED;
	return oom ? -1 : 0;
}

/* A loose page.  @return 1 a record, 0 skipped (too big), -1. */
static int from_page(struct crawl_reader *cr, struct crawl_record *out)
{
	const int rc = crawl_input_slurp(cr->ci, cr->max_record, &cr->page, &cr->page_len,
					 &cr->page_cap);
	if (rc < 0)
		return -1;
	cr->st.pages++;
	if (rc == 1) {
		cr->st.warc.huge++;
		log_warn("%s: page above the limit of %zu bytes skipped", cr->m.name, cr->max_record);
		return 0;
	}
	const time_t t = (time_t)cr->m.mtime;
	struct tm tm;
	cr->page_date[0] = 0;
	if (cr->m.mtime >= 0 && gmtime_r(&t, &tm))
		strftime(cr->page_date, sizeof cr->page_date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	out->type = WARC_RESOURCE;
	out->url = cr->m.path;
	out->url_len = strlen(cr->m.path);
	out->date = cr->page_date[0] ? cr->page_date : NULL;
	out->ptype = "text/html";
	out->block = cr->page;
	out->block_len = cr->page_len;
	out->length = cr->page_len;
	return 1;
}

/* The next record of the current member.  @return 1, 0 member done, -1. */
static int member_next(struct crawl_reader *cr, struct crawl_record *out)
{
	int rc;
	memset(out, 0, sizeof *out);
	if (cr->m.kind == CRAWL_HTML) {
		rc = from_page(cr, out);
		end_member(cr);
	} else {
		struct warc_record rec;
		rc = warc_next(cr->wr, &rec);
		if (rc == 1 && from_warc(cr, &rec, out))
			rc = -1;
		else if (rc != 1)
			end_member(cr);
	}
	if (rc != 1)
		return rc;
	cr->member_records++;
	out->doc_id = DOC_ID(cr->file_no, cr->ord++);
	out->file = cr->m.name;
	if (cr->m.from_archive)
		out->doc_flags |= DOC_FROM_ARCHIVE;
	cr->st.records++;
	return 1;
}

int crawl_reader_next(struct crawl_reader *cr, struct crawl_record *out)
{
	for (;;) {
		int rc;
		if (!cr->path) {
			rc = open_input(cr);
		} else if (!cr->in_member) {
			rc = open_member(cr);
			if (rc == 0) {
				end_input(cr);
				continue;
			}
		} else {
			rc = member_next(cr, out);
			if (rc == 1)
				return 1;
			if (rc == 0)
				continue;
		}
		if (rc <= 0)
			return rc;
	}
}

int crawl_reader_swap_block(struct crawl_reader *cr, uint8_t **buf, size_t *cap, size_t *written)
{
	if (cr->wr)
		return warc_swap_window(cr->wr, buf, cap, written);
	if (!cr->page) /* no record of a loose page in hand */
		return 0;
	/* a loose page: its buffer is the reader's own, refilled per page */
	uint8_t *const old = cr->page;
	const size_t old_cap = cr->page_cap;
	cr->page = *buf;
	cr->page_cap = *buf ? *cap : 0;
	cr->page_len = 0;
	*buf = old;
	*cap = old_cap;
	*written = old_cap; /* grown to fit the pages it held, each written whole */
	return 1;
}

void crawl_reader_get_stats(const struct crawl_reader *cr, struct crawl_reader_stats *out)
{
	*out = cr->st;
	out->bytes_in = cr->st.warc.bytes_in;
	if (cr->wr)
		out->bytes_in += warc_reader_stats(cr->wr).bytes_in;
}

void crawl_reader_stats_add(struct crawl_reader_stats *a, const struct crawl_reader_stats *b)
{
	a->inputs += b->inputs;
	a->empty_inputs += b->empty_inputs;
	a->empty_members += b->empty_members;
	a->records += b->records;
	a->pages += b->pages;
	a->bytes_in += b->bytes_in;
	warc_stats_add(&a->warc, &b->warc);
	a->arc.archives += b->arc.archives;
	a->arc.members_used += b->arc.members_used;
	a->arc.members_other += b->arc.members_other;
	a->arc.members_nested += b->arc.members_nested;
	a->arc.bad_archive += b->arc.bad_archive;
}

void crawl_reader_close(struct crawl_reader *cr)
{
	if (!cr)
		return;
	if (cr->path) {
		cr->ord = 1; /* closing early: no "no record" verdict */
		end_input(cr);
	}
	free(cr->page);
	for (int k = 0; k < 5; k++)
		free(cr->esc[k]);
	free(cr);
}
