/*
 * follow_end.c - learning while fingerprinting (follow.h), after the last
 * page came: each host's candidates read back and learnt as ndd-template
 * learns them, the templates written and loaded, every page read back in
 * input order, done and emitted.
 */
#include <stdlib.h>
#include <string.h>

#include "template/follow.h"
#include "template/follow_state.h"
#include "template/hostlearn.h"
#include "template/tplset.h"
#include "template/tplwrite.h"
#include "util/grow.h"
#include "util/log.h"
#include "util/sorted64.h"

/* ---- each host's candidates ---- */

/* The pages read back to learn from, whole hosts, and their records. */
struct cands {
	struct ref *r;
	uint64_t *host;
	size_t n, cap_r, cap_host;
	uint32_t *taken; /* scratch: one host's pages ndd-template's reader keeps */
	uint64_t *keys;  /* scratch: their keys, sorted */
	size_t cap_taken, cap_keys;
	uint8_t *rec;
	size_t len, cap_rec;
};

/*
 * Add @h's candidates to @c: the pages ndd-template's reader keeps (seen
 * counted as it counts: tpl_sample_take()) of key up to the sample-th
 * smallest key among them, ties included, so that tpl_learn_pages(),
 * which orders by key, signature and blocks and takes the first sample,
 * takes what it takes from ndd-template's records.  The chain is walked
 * once; only the kept pages, about (2 x sample + 64)(1 + ln(N / that))
 * of a host of N, are held.  @return 0 or -1.
 */
static int host_candidates(struct fl *f, const struct hstate *h, struct cands *c)
{
	const uint32_t sample = f->o->sample;
	size_t nt = 0;
	uint32_t seen = 0;
	for (uint32_t i = h->head; i != NONE; i = f->ref[i].next) {
		if (!tpl_sample_next(&seen, f->ref[i].key, sample))
			continue;
		if (array_grow((void **)&c->taken, &c->cap_taken, nt + 1, sizeof *c->taken) ||
		    array_grow((void **)&c->keys, &c->cap_keys, nt + 1, sizeof *c->keys))
			return -1;
		c->keys[nt] = f->ref[i].key;
		c->taken[nt++] = i;
	}
	uint64_t top = UINT64_MAX;
	if (nt > sample) {
		qsort(c->keys, nt, sizeof *c->keys, u64_cmp);
		top = c->keys[sample - 1];
	}
	for (size_t k = 0; k < nt; k++) {
		const struct ref *r = &f->ref[c->taken[k]];
		if (r->key > top)
			continue;
		if (array_grow((void **)&c->r, &c->cap_r, c->n + 1, sizeof *c->r) ||
		    array_grow((void **)&c->host, &c->cap_host, c->n + 1, sizeof *c->host))
			return -1;
		c->r[c->n] = *r;
		c->host[c->n++] = h->host;
	}
	return 0;
}

/* A host learnt (tpl_host_fn): its template kept for write_templates(). */
static int learnt(void *ctx, uint64_t host, uint32_t groups, const uint64_t *hashes, size_t n)
{
	struct fl *f = ctx;
	if (array_grow((void **)&f->lt, &f->cap_lt, f->n_lt + 1, sizeof *f->lt) ||
	    array_grow((void **)&f->lhash, &f->cap_lhash, f->n_lhash + n, 8)) {
		log_error("out of memory learning a template");
		return -1;
	}
	f->lt[f->n_lt++] = (struct learnt){host, f->n_lhash, groups, (uint32_t)n};
	if (n)
		memcpy(f->lhash + f->n_lhash, hashes, n * 8);
	f->n_lhash += n;
	return 0;
}

/* Read @c's pages back, make their records, learn their hosts, empty
 * @c.  @return 0 or -1. */
static int learn_batch(struct fl *f, struct cands *c)
{
	int rc = 0;
	for (size_t at = 0; at < c->n && !rc; at += CHUNK_PAGES) {
		const size_t m = c->n - at < CHUNK_PAGES ? c->n - at : CHUNK_PAGES;
		rc = fl_read_back(f, c->r + at, m) ||
		     fl_page_records(f, c->host + at, &c->rec, &c->len, &c->cap_rec) ? -1 : 0;
	}
	struct tpl_learn_counts cnt = {0, 0, 0};
	if (!rc)
		rc = tpl_learn_pages(f->learner, c->rec, c->len, f->o->sample, &f->o->tp, learnt, f,
				     &cnt);
	f->st->hosts += cnt.hosts;
	f->st->sampled += cnt.pages;
	f->st->capped_blocks += cnt.capped;
	f->st->candidates += c->n;
	c->n = 0;
	c->len = 0;
	return rc;
}

/* Learn every host, a batch of hosts at a time.  @return 0 or -1. */
static int learn_all(struct fl *f)
{
	struct cands c = {0};
	int rc = 0;
	for (size_t k = 0; k <= f->hs_mask && !rc; k++) {
		if (!f->hs[k].host)
			continue;
		rc = host_candidates(f, &f->hs[k], &c);
		if (rc)
			log_error("out of memory");
		else if (c.n >= CHUNK_PAGES)
			rc = learn_batch(f, &c);
	}
	if (!rc && c.n)
		rc = learn_batch(f, &c);
	free(c.r);
	free(c.host);
	free(c.taken);
	free(c.keys);
	free(c.rec);
	return rc;
}

/* ---- the templates ---- */

static int by_host(const void *a, const void *b)
{
	const uint64_t x = ((const struct learnt *)a)->host, y = ((const struct learnt *)b)->host;
	return (x > y) - (x < y);
}

/* Every host's template in ascending host order, merged with --previous,
 * as ndd-template writes them, into @held, not yet published (a run that
 * fails after leaves no templates).  @return 0 or -1. */
static int write_templates(struct fl *f, struct outfile *held)
{
	struct tplset prev = {0};
	if (f->o->previous && tplset_load(&prev, f->o->previous))
		return -1;
	qsort(f->lt, f->n_lt, sizeof *f->lt, by_host);
	struct tpl_writer *w = tpl_writer_open(f->o->templates, f->feature_config,
					       f->o->previous ? &prev : NULL, f->o->tp.min_pages);
	int rc = w ? 0 : -1;
	for (size_t i = 0; i < f->n_lt && !rc; i++)
		rc = tpl_writer_host(w, f->lt[i].host, f->lt[i].groups, f->lhash + f->lt[i].at,
				     f->lt[i].n);
	if (!rc) {
		struct tpl_write_stats ws;
		rc = tpl_writer_finish_held(w, &ws, held);
		f->st->learnt = ws.learnt;
		f->st->learnt_blocks = ws.learnt_blocks;
		f->st->previous_hosts = ws.previous_hosts;
	} else {
		tpl_writer_abort(w);
	}
	tplset_free(&prev);
	return rc;
}

/* ---- the pages ---- */

/* Every page, in input order (f->ref's), against @all, to @emit. */
static int do_all(struct fl *f, const struct blockset *all, follow_emit_fn emit, void *ctx)
{
	int rc = 0;
	for (size_t at = 0; at < f->n_ref && !rc; at += CHUNK_PAGES) {
		const size_t m = f->n_ref - at < CHUNK_PAGES ? f->n_ref - at : CHUNK_PAGES;
		rc = fl_read_back(f, f->ref + at, m) || fl_do_pages(f, all) ? -1 : 0;
		for (size_t i = 0; i < m && !rc; i++) {
			const struct tplfp_result *res = &f->pg.res[i];
			const struct fp_record r = tplfp_record(&f->pg.doc[i], res);
			rc = emit(ctx, &r, res->choice);
		}
	}
	return rc;
}

int fl_finish(struct fl *f, follow_emit_fn emit, void *ctx)
{
	struct tplset all = {0};
	struct outfile held = {0};
	const double c0 = log_cpu();
	int rc = learn_all(f) || write_templates(f, &held) ? -1 : 0;
	/* the templates as ndd-fingerprint --templates loads them */
	if (!rc)
		rc = tplset_load(&all, held.tmp_path ? held.tmp_path : held.display);
	const double c1 = log_cpu();
	if (!rc)
		rc = do_all(f, tplset_any_set(&all), emit, ctx);
	log_debug("CPU s: stream %.3f, learn and write %.3f (%llu pages read back), pages %.3f",
		  c0, c1 - c0, (unsigned long long)f->st->candidates, log_cpu() - c1);
	if (!rc)
		rc = outfile_commit(&held);
	else if (held.fp)
		outfile_abort(&held);
	tplset_free(&all);
	return rc;
}
