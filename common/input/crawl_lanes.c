/*
 * crawl_lanes.c - read, compute, write in input order (crawl_lanes.h).
 *
 * With one thread (run_serial()) each page is read, computed (from the
 * reader's buffer, without a copy) and written in turn.  With several
 * threads (run_ring()) each input being read has a lane: its own reader
 * and ring of items.  One thread at a time reads a lane (a token taken
 * under a lock, not a lock held while inflating), but the lanes of
 * different inputs are read by different threads at once, so inflate and
 * WARC parsing are not serial.  A reader fills free slots of its lane
 * until a few items wait beyond its own, so a thread done with its page
 * takes the next one already inflated instead of waiting for the
 * inflate; a thread that finds the writer's lane empty while another
 * thread reads it reads a lane further on.  A thread computes the oldest
 * waiting item of the first lane that has one, then writes whatever
 * finished items come next in input order (a second lock, taken only if
 * free), lane after lane.  A thread waits only when every lane is being
 * read, full, or ahead of the writer's and at its cap; lanes ahead of the
 * writer's are bounded (slots and bytes), so memory is too, whatever the
 * inputs' sizes.  A pipe (standard input) is read only as the writer's
 * lane.  (No batches computed by the team: each would end in a barrier,
 * where a thread spins; on a busy machine, long.)
 */
#include "input/crawl_lanes.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#define RING_PER_THREAD 32 /* several threads: slots of a lane per thread */
#define WIN_KEEP_MAX (4u << 20) /* swapped read buffers written further than this are not kept */

/* Spare buffers, last in first out. */
struct pool {
	struct crawl_bytes *b;
	long n, cap;
};

/*
 * Several threads: one lane per input being read.  Item number k of a
 * lane lives in its slot k % n.  Items [next_claim, ready) are read and
 * wait for a thread to compute them; a slot is free once its item is
 * written (k < next_write); done[] says its item is computed.  One
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
	unsigned char *items;      /* n slots of item_size bytes */
	atomic_int *done;
	long ready, next_claim;
	int reading, eof;
	atomic_long total;         /* its items, once ended */
	atomic_int ended;
	atomic_long next_write;
	atomic_size_t held;        /* bytes of its items read and not written */
	struct crawl_lanes_passed c; /* what its reader passed over */
	struct crawl_bytes rspare; /* the token holder's, for the next record */
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
	size_t item_size;
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
	 * once it is computed, its output buffer once it is written, and
	 * the buffer given back last is handed out first.  So a few buffers
	 * go round, their pages touched once and likely still cached (one
	 * per slot, in turn, would leave every slot's buffers to fault in, as
	 * each met a big page, and to miss in the cache). */
	struct pool wins, outs;
	struct crawl_reader_stats st; /* of the inputs written, the write lock's */
	atomic_ullong records, bytes_in; /* read so far, for the progress line */
};

struct crawl_lanes {
	struct crawl_lanes_config cfg;
	struct crawl_lanes_ops ops;
	void *ctx;
	struct progress *prog;
	struct crawl_lanes_passed passed; /* of the inputs written */
	struct crawl_reader *cr;   /* one thread: the reader */
	struct crawl_item *item;   /* one thread: its one page at a time */
	struct ring g;             /* several threads */
};

#ifdef _OPENMP
/* Item number @k of lane @L. */
static struct crawl_item *slot(const struct ring *g, const struct lane *L, long k)
{
	return (struct crawl_item *)(void *)(L->items + (size_t)(k % g->n) * g->item_size);
}
#endif

/* Response and resource records become items; other types are counted
 * in @c. */
static int is_item(struct crawl_lanes_passed *c, const struct crawl_record *rec)
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
static int next_item_record(struct crawl_reader *cr, struct crawl_lanes_passed *c,
			    struct crawl_record *rec)
{
	int rc;
	while ((rc = crawl_reader_next(cr, rec)) == 1 && !is_item(c, rec))
		;
	return rc;
}

static void show_progress(struct crawl_lanes *x)
{
	struct crawl_reader_stats rs;
	crawl_reader_get_stats(x->cr, &rs);
	progress_update(x->prog, rs.records, rs.bytes_in);
}

/* ---- the pipeline ---- */

/* The next response or resource record into @it, borrowing its block from
 * the reader (written before the reader moves on).  @return 1, 0 when the inputs are done, or -1 (logged). */
static int read_item(struct crawl_lanes *x, struct crawl_item *it)
{
	struct crawl_record rec;
	const int rc = next_item_record(x->cr, &x->passed, &rec);
	if (rc == 1)
		x->ops.fill(x->ctx, it, &rec, 1);
	show_progress(x);
	return rc < 0 ? -1 : rc;
}

/* One thread: read a page, compute it from the reader's own buffer while
 * it is in cache, write it; then the next.  (In turn, the caller may
 * leave the encoding to its write step: the worker's state is still
 * there.) */
static int run_serial(struct crawl_lanes *x)
{
	int rc;
	while ((rc = read_item(x, x->item)) == 1) {
		x->ops.compute(x->ctx, 0, x->item, 1);
		if (x->ops.write(x->ctx, x->item))
			return -1;
	}
	return rc;
}

#ifdef _OPENMP
/* Under the lock: @b back to @p (emptied) if @keep and there is room;
 * @return what the caller frees once it has let go of the lock (a large
 * buffer's free is an munmap; one huge page must not pin its size). */
static void *pool_put(struct pool *p, struct crawl_bytes *b, int keep)
{
	void *drop = NULL;
	if (!keep || p->n == p->cap)
		drop = b->p;
	else if (b->p)
		p->b[p->n++] = *b;
	*b = (struct crawl_bytes){0};
	return drop;
}

/* Under the lock: @b (empty) gets the buffer given back last, if any. */
static void pool_get(struct pool *p, struct crawl_bytes *b)
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
static void outs_put(struct ring *g, struct crawl_bytes *outs, int n)
{
	void *drop[DRAIN_BATCH];
	if (!n)
		return;
	pthread_mutex_lock(&g->lock);
	for (int i = 0; i < n; i++)
		drop[i] = pool_put(&g->outs, &outs[i], outs[i].cap <= CRAWL_LANES_SHRINK_ABOVE);
	pthread_mutex_unlock(&g->lock);
	for (int i = 0; i < n; i++)
		free(drop[i]);
}

/* Under the lock, or before the threads start: lane @L reads input @i.
 * @return 0, or -1 on OOM (logged). */
static int lane_open(const struct crawl_lanes_config *o, struct lane *L, long i)
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
static void lane_finish(struct crawl_lanes *x, struct ring *g, struct lane *L)
{
	struct crawl_reader_stats rs;
	crawl_reader_get_stats(L->cr, &rs);
	crawl_reader_stats_add(&g->st, &rs);
	x->passed.revisits += L->c.revisits;
	x->passed.other_types += L->c.other_types;
	x->passed.unknown_types += L->c.unknown_types;
	crawl_reader_close(L->cr); /* its reader has let go (ended) */
	const long next = L->input + g->n_lanes;
	pthread_mutex_lock(&g->lock);
	atomic_store(&g->first, L->input + 1);
	L->cr = NULL;
	if (next < g->n_inputs && lane_open(&x->cfg, L, next))
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

static void show_ring_progress(struct crawl_lanes *x, struct ring *g)
{
	progress_update(x->prog, atomic_load_explicit(&g->records, memory_order_relaxed),
			atomic_load_explicit(&g->bytes_in, memory_order_relaxed));
}

/* Under the write lock: the items that are computed and come next in
 * input order, lane after lane.  @return how many were written. */
static long drain_locked(struct crawl_lanes *x, struct ring *g)
{
	struct crawl_bytes written[DRAIN_BATCH];
	int n = 0, what;
	long total = 0;
	while ((what = writable(g))) {
		struct lane *const L = &g->lanes[atomic_load(&g->first) % g->n_lanes];
		if (what == 2) {
			lane_finish(x, g, L);
			continue;
		}
		const long k = atomic_load_explicit(&L->next_write, memory_order_relaxed);
		struct crawl_item *const it = slot(g, L, k);
		if (!atomic_load(&g->failed) && x->ops.write(x->ctx, it))
			atomic_store(&g->failed, 1);
		/* out of the slot before it is free (the reader refills it) */
		written[n++] = it->out;
		it->out = (struct crawl_bytes){0};
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
		show_ring_progress(x, g);
	return total;
}

/*
 * Write what can be written, if no other thread is writing.  The check
 * after letting go (fences on both sides: the extractor's after its done
 * flag) closes the gap where an item finished while the writer was on
 * its way out and its thread's trylock failed: one of the two sees it.
 */
static void ring_drain(struct crawl_lanes *x, struct ring *g)
{
	atomic_thread_fence(memory_order_seq_cst);
	do {
		if (pthread_mutex_trylock(&g->write_lock))
			return;
		const long n = drain_locked(x, g);
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
static int take_block(struct crawl_reader *cr, struct crawl_bytes *spare, struct crawl_item *it)
{
	struct crawl_bytes b = *spare;
	if (!crawl_reader_swap_block(cr, &b.p, &b.cap, &b.len))
		return 0;
	it->win = b;
	*spare = (struct crawl_bytes){0};
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
static int lane_read(struct crawl_lanes *x, struct ring *g, struct lane *L)
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
	struct crawl_item *const it = slot(g, L, L->ready);
	x->ops.fill(x->ctx, it, &rec, take_block(L->cr, &L->rspare, it));
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
static void lane_fill(struct crawl_lanes *x, struct ring *g, struct lane *L, long ahead)
{
	int more;
	L->reading = 1;
	do {
		pool_get(&g->wins, &L->rspare);
		pthread_mutex_unlock(&g->lock);
		const int got = lane_read(x, g, L);
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
static int claim_step(struct crawl_lanes *x, struct ring *g, struct lane **lp, long *kp)
{
	const long first = atomic_load(&g->first);
	const long end = first + g->n_lanes < g->n_inputs ? first + g->n_lanes : g->n_inputs;
	for (long i = first; i < end; i++) {
		struct lane *const L = &g->lanes[i % g->n_lanes];
		const long waiting = L->ready - L->next_claim;
		if (!L->reading && waiting <= g->low && lane_can_read(g, L)) {
			if (i == first) {
				lane_fill(x, g, L, g->ahead);
				return 0;
			}
			/* Ahead of the writer: one page, computed at once by
			 * the thread that read it, while it is in its cache;
			 * only the output waits for its turn. */
			lane_fill(x, g, L, 0);
			if (L->ready == L->next_claim)
				return 0;
		} else if (!waiting) {
			continue;
		}
		pool_get(&g->outs, &slot(g, L, L->next_claim)->out);
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
 * Under the lock: the next read item for this thread to compute (*lp,
 * *kp), reading first if claim_step() says so; waits while nothing is
 * read and no lane may be read (each being read, full, or ahead of the
 * writer's and at its cap).  @return 1, or 0 when all are taken.
 */
static int ring_claim(struct crawl_lanes *x, struct ring *g, struct lane **lp, long *kp)
{
	int drained = 0;
	for (;;) {
		if (atomic_load(&g->failed))
			return 0;
		const int got = claim_step(x, g, lp, kp);
		if (got > 0)
			return 1;
		if (got == 0)
			continue;
		if (ring_done(g))
			return 0;
		if (!drained) { /* a lane may have ended after its last item was written */
			pthread_mutex_unlock(&g->lock);
			ring_drain(x, g);
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

/* Several threads: read (one thread per input at a time), compute, write
 * in order. */
static int run_ring(struct crawl_lanes *x)
{
	struct ring *const g = &x->g;
#pragma omp parallel num_threads(x->cfg.threads)
	{
		const int thread = omp_get_thread_num();
		struct lane *L;
		long k;
		pthread_mutex_lock(&g->lock);
		while (ring_claim(x, g, &L, &k)) {
			pthread_mutex_unlock(&g->lock);
			struct crawl_item *const it = slot(g, L, k);
			x->ops.compute(x->ctx, thread, it, 0);
			/* out of the slot before it may be written and refilled.
			 * Kept by how far it was written (its size is address
			 * space), not by its record's length: a member of many
			 * records, or one a first inflate filled to the end,
			 * leaves more pages resident than its last block. */
			struct crawl_bytes win = it->win;
			const int keep = win.len <= WIN_KEEP_MAX;
			it->win = (struct crawl_bytes){0};
			const size_t held = it->raw.cap + it->out.cap;
			atomic_fetch_add_explicit(&L->held, held - it->held, memory_order_relaxed);
			it->held = held;
			atomic_store_explicit(&L->done[k % g->n], 1, memory_order_release);
			ring_drain(x, g);
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
	ring_drain(x, g); /* every item is computed now */
	if (!atomic_load(&g->failed) && atomic_load(&g->first) < g->n_inputs) {
		log_error("internal error: input %ld not written", (long)atomic_load(&g->first));
		return -1;
	}
	return atomic_load(&g->failed) ? -1 : 0;
}
#endif

/* calloc() that logs its failure (library code does not exit). */
static void *zalloc(size_t n, size_t size)
{
	void *const p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		log_error("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

/* The buffers of @n items of @size bytes each at @items, then @items. */
static void items_free(unsigned char *items, long n, size_t size)
{
	for (long i = 0; items && i < n; i++) {
		struct crawl_item *const it = (struct crawl_item *)(void *)(items + (size_t)i * size);
		free(it->raw.p);
		free(it->win.p);
		free(it->out.p);
	}
	free(items);
}

#ifdef _OPENMP
/* Several threads: the lanes, the first inputs open in them.  @return 0,
 * or -1 on OOM (logged). */
static int ring_init(struct crawl_lanes *x)
{
	struct ring *const g = &x->g;
	const int n_workers = x->cfg.threads;
	g->n_inputs = x->cfg.n_inputs ? x->cfg.n_inputs : 1;
	g->item_size = x->ops.item_size;
	/* a reader for every thread, and one more lane so that a thread
	 * finds one to read while the others' are full */
	g->n_lanes = n_workers + 1;
	/* room for the pages done ahead of the writer (held_max bounds
	 * their bytes first), and RING_PER_THREAD per thread at least */
	g->n = (long)n_workers * RING_PER_THREAD;
	if (g->n < CRAWL_LANES_SLOTS)
		g->n = CRAWL_LANES_SLOTS;
	g->held_max = CRAWL_LANES_AHEAD_BYTES;
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
	/* every inflate buffer is in a slot, a spare, a reader's or a lane's
	 * rspare; every output buffer in a slot, a spare or being given back
	 * (more would be freed) */
	g->wins.cap = g->outs.cap = g->n * g->n_lanes + g->n_lanes + 2;
	g->wins.b = zalloc((size_t)g->wins.cap, sizeof *g->wins.b);
	g->outs.b = zalloc((size_t)g->outs.cap, sizeof *g->outs.b);
	g->lanes = zalloc((size_t)g->n_lanes, sizeof *g->lanes);
	if (!g->wins.b || !g->outs.b || !g->lanes)
		return -1;
	for (int j = 0; j < g->n_lanes; j++) {
		struct lane *const L = &g->lanes[j];
		L->items = zalloc((size_t)g->n, g->item_size);
		L->done = zalloc((size_t)g->n, sizeof *L->done);
		if (!L->items || !L->done)
			return -1;
		for (long i = 0; i < g->n; i++)
			atomic_init(&L->done[i], 0);
		if (j < g->n_inputs && lane_open(&x->cfg, L, j))
			return -1;
	}
	/* Read on up to four waiting items per other thread, and again
	 * once two or fewer wait, not only when none does: a thread
	 * done with a small page then rarely finds the queue empty
	 * while the reader is inflating (replayed with the per-page
	 * times of the bench crawl, this comes close to the bound that no
	 * waiting at all would give); reading further ahead gains little
	 * and leaves the page a reader takes next less likely to be still
	 * in its core's cache (five pages of ~60 KB fit a 512 KB L2). */
	g->ahead = (long)(n_workers - 1) * 4;
	g->low = (long)(n_workers - 1) * 2;
	return 0;
}

/* The ring, from any point of ring_init() on. */
static void ring_free(struct ring *g)
{
	pool_free(&g->wins);
	pool_free(&g->outs);
	if (!g->lanes)
		return;
	for (int j = 0; j < g->n_lanes; j++) {
		crawl_reader_close(g->lanes[j].cr);
		items_free(g->lanes[j].items, g->n, g->item_size);
		free(g->lanes[j].done);
		free(g->lanes[j].rspare.p);
	}
	free(g->lanes);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->published);
	pthread_mutex_destroy(&g->write_lock);
}
#endif

struct crawl_lanes *crawl_lanes_open(const struct crawl_lanes_config *cfg,
				     const struct crawl_lanes_ops *ops, void *ctx,
				     struct progress *prog)
{
	assert(cfg->threads >= 1 && ops->item_size >= sizeof(struct crawl_item));
	struct crawl_lanes *const x = zalloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->cfg = *cfg;
	x->ops = *ops;
	x->ctx = ctx;
	x->prog = prog;
	x->item = zalloc(1, ops->item_size);
	if (!x->item) {
		crawl_lanes_close(x);
		return NULL;
	}
#ifdef _OPENMP
	if (cfg->threads > 1) {
		if (!ring_init(x))
			return x;
		crawl_lanes_close(x);
		return NULL;
	}
#endif
	x->cr = crawl_reader_open(cfg->inputs, cfg->n_inputs, cfg->file_base, cfg->max_record);
	if (x->cr)
		return x;
	crawl_lanes_close(x);
	return NULL;
}

int crawl_lanes_run(struct crawl_lanes *x)
{
#ifdef _OPENMP
	if (x->cfg.threads > 1)
		return run_ring(x);
#endif
	return run_serial(x);
}

void crawl_lanes_stats(const struct crawl_lanes *x, struct crawl_reader_stats *rs,
		       struct crawl_lanes_passed *passed)
{
	*passed = x->passed;
#ifdef _OPENMP
	if (x->g.lanes) {
		*rs = x->g.st;
		return;
	}
#endif
	crawl_reader_get_stats(x->cr, rs);
}

void crawl_lanes_close(struct crawl_lanes *x)
{
	if (!x)
		return;
	crawl_reader_close(x->cr);
	items_free((unsigned char *)x->item, 1, x->ops.item_size);
#ifdef _OPENMP
	ring_free(&x->g);
#endif
	free(x);
}
