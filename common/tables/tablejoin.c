/*
 * tablejoin.c - see tablejoin.h.
 *
 * Each batch's complete runs are cut into pieces at run starts, a few
 * per thread, and each piece is scanned by a task into its own pair
 * vector.  The vectors are appended to the output in piece order at the
 * next batch (the reader has waited for the tasks by then) and after the
 * last, so pairs never need a lock.
 */
#include "tables/tablejoin.h"

#include <stdlib.h>

#include "util/log.h"
#include "util/threads.h"

/* Pieces per thread and batch: enough for the tasks to even out the
 * threads' loads when runs differ in length. */
#define PIECES_PER_THREAD 4

struct piece {
	struct pair_vec pv;
	uint64_t comparisons;
	int bad; /* out of memory */
};

struct stream_join {
	const struct design *d;
	uint32_t t, lead;
	struct piece *piece;
	int n_pieces, pending; /* pieces with tasks since the last collect() */
	struct pair_vec *out;
	uint64_t comparisons;
};

static void scan_piece(const struct stream_join *j, struct piece *p, const uint64_t *keys,
		       const uint32_t *idx, size_t n)
{
	uint64_t cmp = 0; /* counted here: pieces share cache lines */
	if (join_scan(j->d, j->t, keys, idx, n, &p->pv, &cmp))
		p->bad = 1;
	p->comparisons += cmp;
}

/* The pairs of the pieces scanned since the last call, in order; their
 * tasks are done. */
static int collect(struct stream_join *j)
{
	int bad = 0;
	for (int i = 0; i < j->pending; i++) {
		struct piece *p = &j->piece[i];
		bad = bad || p->bad || pair_vec_append(j->out, &p->pv);
		j->comparisons += p->comparisons;
		p->comparisons = 0;
		p->bad = 0;
		p->pv.n = 0;
	}
	j->pending = 0;
	if (bad)
		log_error("out of memory collecting pairs");
	return bad ? NDF_ERR_NOMEM : 0;
}

/* tableread's consumer: take the complete runs (all at the end) and scan
 * them in pieces, as tasks. */
static int take_runs(void *ctx, const uint64_t *keys, const uint32_t *idx, size_t n, int last,
		     size_t *taken)
{
	struct stream_join *j = ctx;
	const int rc = collect(j);
	const size_t upto = last ? n : join_last_run(keys, n, j->lead);
	*taken = rc ? 0 : upto;
	if (rc || !upto)
		return rc;
	const size_t np = (size_t)j->n_pieces;
	for (size_t i = 0; i < np; i++) {
		const size_t lo = join_align(keys, upto, upto * i / np, j->lead);
		const size_t hi = join_align(keys, upto, upto * (i + 1) / np, j->lead);
		struct piece *p = &j->piece[i];
		if (lo < hi) {
#pragma omp task firstprivate(p, lo, hi)
			scan_piece(j, p, keys + lo, idx + lo, hi - lo);
		}
	}
	j->pending = j->n_pieces;
	return 0;
}

int tablejoin_section(struct ndf_reader *r, struct table_arrays *buf, const struct design *d,
		      uint32_t t, struct pair_vec *out, uint64_t *records, uint64_t *comparisons)
{
	struct stream_join j = {
		.d = d, .t = t, .lead = d->tables[t].lead_bits, .out = out,
		.n_pieces = threads_max() * PIECES_PER_THREAD,
	};
	j.piece = calloc((size_t)j.n_pieces, sizeof *j.piece);
	if (!j.piece) {
		log_error("out of memory for the join of a table");
		return NDF_ERR_NOMEM;
	}
	const struct tableread_consumer c = {take_runs, &j};
	int rc = tableread_stream(r, buf, &c, records);
	const int collected = collect(&j); /* the last batch's pieces */
	if (!rc)
		rc = collected;
	*comparisons += j.comparisons;
	for (int i = 0; i < j.n_pieces; i++)
		pair_vec_free(&j.piece[i].pv);
	free(j.piece);
	return rc;
}
