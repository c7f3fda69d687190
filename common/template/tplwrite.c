/*
 * tplwrite.c - see tplwrite.h.
 */
#include "template/tplwrite.h"

#include <stdlib.h>
#include <string.h>

#include "format/ndf.h"
#include "format/ndf_batch.h"
#include "format/tplrec.h"
#include "util/log.h"
#include "util/outfile.h"

/* Block target of the templates file. */
#define OUT_BLOCK (1u << 20)

struct tpl_writer {
	struct outfile of;
	struct ndf_writer *w;
	struct ndf_batch batch;
	const struct tplset *prev;
	size_t prev_at;
	uint32_t min_pages;
	struct tpl_write_stats st;
};

struct tpl_writer *tpl_writer_open(const char *path, uint64_t feature_config,
				   const struct tplset *prev, uint32_t min_pages)
{
	struct tpl_writer *o = calloc(1, sizeof *o);
	if (!o) {
		log_error("out of memory");
		return NULL;
	}
	o->prev = prev;
	o->min_pages = min_pages;
	if (outfile_open(&o->of, path)) {
		free(o);
		return NULL;
	}
	struct ndf_header h;
	memset(&h, 0, sizeof h);
	h.version = NDF_VERSION;
	h.kind = NDF_KIND_TEMPLATES;
	h.aux = TPLREC_VERSION;
	h.feature_config = feature_config;
	o->w = ndf_writer_open(o->of.fp, o->of.display, &h);
	if (!o->w) {
		outfile_abort(&o->of);
		free(o);
		return NULL;
	}
	ndf_batch_init(&o->batch, o->w, OUT_BLOCK);
	return o;
}

static int out_record(struct tpl_writer *o, const struct tpl_record *r, const uint64_t *hashes)
{
	uint8_t *const at = ndf_batch_reserve(&o->batch, tplrec_size(r->n), r->host);
	if (!at)
		return -1;
	ndf_batch_commit(&o->batch, tplrec_encode(r, hashes, at));
	return 0;
}

/* The earlier night's host i, a night older (dropped past TPL_MAX_AGE). */
static int out_previous(struct tpl_writer *o, size_t i)
{
	const struct tplset *p = o->prev;
	if (p->age[i] + 1 > TPL_MAX_AGE)
		return 0;
	const struct tpl_record r = {p->host[i], p->pages[i], p->age[i] + 1,
				     (uint32_t)(p->start[i + 1] - p->start[i]), NULL};
	o->st.previous_hosts++;
	return out_record(o, &r, p->hash + p->start[i]);
}

/* Earlier hosts below @host (all of them with @last). */
static int out_previous_below(struct tpl_writer *o, uint64_t host, int last)
{
	const struct tplset *p = o->prev;
	while (p && o->prev_at < p->n_hosts && (last || p->host[o->prev_at] < host))
		if (out_previous(o, o->prev_at++))
			return -1;
	return 0;
}

int tpl_writer_host(struct tpl_writer *o, uint64_t host, uint32_t groups,
		    const uint64_t *hashes, size_t n)
{
	if (out_previous_below(o, host, 0))
		return -1;
	const struct tplset *p = o->prev;
	const int have_prev = p && o->prev_at < p->n_hosts && p->host[o->prev_at] == host;
	if (groups < o->min_pages && have_prev)
		return out_previous(o, o->prev_at++);
	if (have_prev)
		o->prev_at++;
	if (!n)
		return 0;
	const struct tpl_record r = {host, groups, 0, (uint32_t)n, NULL};
	o->st.learnt++;
	o->st.learnt_blocks += n;
	return out_record(o, &r, hashes);
}

/* Finish the section; with @held, hand the unpublished file over. */
static int finish(struct tpl_writer *o, struct tpl_write_stats *st, struct outfile *held)
{
	int rc = out_previous_below(o, 0, 1);
	if (!rc)
		rc = ndf_batch_flush(&o->batch);
	struct ndf_writer *w = o->w;
	o->w = NULL;
	if (rc)
		ndf_writer_abort(w);
	else if (ndf_writer_finish(w))
		rc = -1;
	if (!rc && held) {
		if (fflush(o->of.fp)) {
			log_error("cannot write '%s'", o->of.display);
			rc = -1;
		} else {
			*held = o->of;
		}
	} else if (!rc) {
		rc = outfile_commit(&o->of);
	}
	if (rc)
		outfile_abort(&o->of);
	if (st)
		*st = o->st;
	ndf_batch_free(&o->batch);
	free(o);
	return rc;
}

int tpl_writer_finish(struct tpl_writer *o, struct tpl_write_stats *st)
{
	return finish(o, st, NULL);
}

int tpl_writer_finish_held(struct tpl_writer *o, struct tpl_write_stats *st,
			   struct outfile *held)
{
	return finish(o, st, held);
}

void tpl_writer_abort(struct tpl_writer *o)
{
	if (!o)
		return;
	ndf_writer_abort(o->w);
	outfile_abort(&o->of);
	ndf_batch_free(&o->batch);
	free(o);
}

void tpl_stats_print(FILE *fp, const struct tpl_run_stats *st)
{
#define U(x) (unsigned long long)(x)
	fprintf(fp,
		"{\"documents\": %llu, \"without_host\": %llu, \"sampled\": %llu, "
		"\"pages_blocks_capped\": %llu, \"hosts\": %llu, \"hosts_with_template\": %llu, "
		"\"template_blocks\": %llu, \"hosts_from_previous\": %llu, \"spilled_bytes\": %llu}\n",
		U(st->docs), U(st->no_host), U(st->sampled), U(st->capped_blocks), U(st->hosts),
		U(st->learnt), U(st->learnt_blocks), U(st->previous_hosts), U(st->spilled_bytes));
#undef U
}
