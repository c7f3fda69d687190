/*
 * follow_end.c - learning while fingerprinting (follow.h), after the last
 * page came: the hosts left learnt, the templates written and loaded, the
 * pages whose blocks a template learnt later holds done again, the hosts
 * left done, the records emitted in order.
 */
#include <stdlib.h>
#include <string.h>

#include "template/follow.h"
#include "template/follow_state.h"
#include "template/tplset.h"
#include "template/tplwrite.h"
#include "util/grow.h"
#include "util/log.h"

/* Learn the hosts that never reached `sample` pages. */
static int learn_rest(struct fl *f, struct ref **v, size_t *cap)
{
	for (size_t k = 0; k <= f->hs_mask; k++) {
		struct hstate *h = &f->hs[k];
		if (!h->host || h->final)
			continue;
		const long n = fl_chain_list(f, h, v, cap);
		if (n < 0 || fl_read_back(f, *v, (size_t)n) || fl_learn_host(f, h, (size_t)n))
			return -1;
	}
	return 0;
}

/* Do the pages of the hosts learnt last, against every template. */
static int do_rest(struct fl *f, const struct blockset *all, struct ref **v, size_t *cap)
{
	for (size_t k = 0; k <= f->hs_mask; k++) {
		struct hstate *h = &f->hs[k];
		if (!h->host || h->final)
			continue;
		const long n = fl_chain_list(f, h, v, cap);
		if (n < 0 || fl_do_refs(f, *v, (size_t)n, all, 0, 0))
			return -1;
		f->st->at_end += (uint64_t)n;
		h->final = 1;
		fl_chain_free(f, h);
	}
	return 0;
}

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

/* The low 32 bits of the @n keys @h, as a set. */
static int low_set(const uint64_t *h, size_t n, struct blockset *low)
{
	uint64_t *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)h[i];
	const int rc = blockset_build(low, v, n);
	free(v);
	return rc;
}

struct redo {
	struct ref *v;
	size_t n, cap;
};

static int redo_add(void *ctx, uint64_t off, uint64_t slot, uint32_t len)
{
	struct redo *r = ctx;
	if (array_grow((void **)&r->v, &r->cap, r->n + 1, sizeof *r->v)) {
		log_error("out of memory");
		return -1;
	}
	r->v[r->n++] = (struct ref){off, slot, len, NONE};
	return 0;
}

/* Redo the pages done early that hold a block of a template learnt
 * after them, or whose frame met a core key another host shares.
 * @return 0 or -1. */
static int recheck(struct fl *f, const struct tplset *all)
{
	struct blockset low = {0}, low_core = {0};
	struct redo r = {NULL, 0, 0};
	size_t n, n_core;
	const uint64_t *const keys = tplset_any(all, &n);
	const uint64_t *const shared = tplset_shared_core(all, &n_core);
	int rc = low_set(keys, n, &low) || low_set(shared, n_core, &low_core) ? -1 : 0;
	if (rc)
		log_error("out of memory");
	if (!rc)
		rc = fcheck_scan(&f->check, &low, &low_core, redo_add, &r);
	blockset_free(&low);
	blockset_free(&low_core);
	f->st->redone = r.n;
	if (!rc)
		rc = fl_do_refs(f, r.v, r.n, tplset_any_set(all), 0, 1);
	free(r.v);
	return rc;
}

/* Everything after the last page came.  @return 0 or -1. */
int fl_finish(struct fl *f, follow_emit_fn emit, void *ctx)
{
	struct ref *v = NULL;
	size_t cap = 0;
	struct tplset all = {0};
	struct outfile held = {0};
	const double c0 = log_cpu();
	int rc = learn_rest(f, &v, &cap) || write_templates(f, &held) ? -1 : 0;
	/* the templates as ndd-fingerprint --templates loads them */
	if (!rc)
		rc = tplset_load(&all, held.tmp_path ? held.tmp_path : held.display);
	const double c1 = log_cpu();
	if (!rc)
		rc = recheck(f, &all);
	const double c2 = log_cpu();
	if (!rc)
		rc = do_rest(f, tplset_any_set(&all), &v, &cap);
	const double c3 = log_cpu();
	if (!rc)
		rc = fslots_emit(&f->slots, emit, ctx);
	log_debug("CPU s: stream %.3f, learn the rest and write %.3f, recheck and redo %.3f, "
		  "the rest %.3f, emit %.3f", c0, c1 - c0, c2 - c1, c3 - c2, log_cpu() - c3);
	if (!rc)
		rc = outfile_commit(&held);
	else if (held.fp)
		outfile_abort(&held);
	tplset_free(&all);
	free(v);
	return rc;
}
