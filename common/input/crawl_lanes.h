/*
 * crawl_lanes.h - the read, compute, write engine of ndd-extract: every
 * response and resource record of a list of inputs, handed to the
 * caller's compute step on any thread and to its write step one at a
 * time, in input order, whatever the thread count.
 *
 * The engine owns the readers (crawl_reader.h), a ring of items per input
 * being read (a lane), the spare buffers and the order of writing; the
 * caller owns what an item means.  Its item type begins with a struct
 * crawl_item; the engine allocates the slots (ops.item_size bytes each,
 * zeroed) and frees the three buffers of the crawl_item, nothing else.
 *
 * With one thread each record is read, filled (its block borrowed from
 * the reader), computed and written in turn.  With several, one thread at
 * a time reads a lane, the lanes of different inputs are read at once,
 * any thread computes, and one thread at a time writes; lanes ahead of
 * the writer's are bounded in slots and bytes, so memory is too.
 * docs/SCALE.md describes the design and its figures.
 */
#ifndef NDD_CRAWL_LANES_H
#define NDD_CRAWL_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "input/crawl_reader.h"
#include "util/log.h"

/* An item's buffers bigger than this are freed, not kept for the next. */
#define CRAWL_LANES_SHRINK_ABOVE (1u << 20)

/* The memory bound the README states: a lane ahead of the writer's stops
 * reading once it holds this many bytes of items (and the item in hand),
 * or fills its slots (at least this many). */
#define CRAWL_LANES_AHEAD_BYTES (8u << 20)
#define CRAWL_LANES_SLOTS 4096

/* A growable buffer; the caller grows raw and out, the engine moves them. */
struct crawl_bytes {
	uint8_t *p;
	size_t len, cap;
};

/* The engine's part of an item: the first member of the caller's item. */
struct crawl_item {
	struct crawl_bytes raw;    /* the caller's copy of the record */
	struct crawl_bytes win;    /* the reader's buffer holding the block, if
				    * taken (win.len: how far the reader wrote) */
	struct crawl_bytes out;    /* the encoded output, written by the caller */
	size_t held;               /* the engine's: bytes counted in its lane */
};

/* What the caller does with items; @ctx is crawl_lanes_open()'s. */
struct crawl_lanes_ops {
	size_t item_size; /* of the caller's item, a struct crawl_item first */
	/* Copy what compute needs out of @rec (valid only during the call)
	 * into @it's raw.  @borrow: the block is not copied but read where it
	 * is, in the reader (one thread: computed and written before the
	 * reader moves on) or in it->win. */
	void (*fill)(void *ctx, struct crawl_item *it, const struct crawl_record *rec,
		     int borrow);
	/* Compute @it on thread number @thread (0 .. threads - 1).  @in_turn:
	 * one thread, @it is written before another item is computed. */
	void (*compute)(void *ctx, int thread, struct crawl_item *it, int in_turn);
	/* Write @it: one thread at a time, items in input order.  @return 0,
	 * or -1 (logged): the run stops. */
	int (*write)(void *ctx, struct crawl_item *it);
};

struct crawl_lanes_config {
	char *const *inputs;   /* none: standard input */
	int n_inputs;
	uint64_t file_base;    /* number of the first input in document ids */
	size_t max_record;
	int threads;           /* 1: serial; more needs OpenMP */
};

/* Records passed over, not items: counted by type. */
struct crawl_lanes_passed {
	uint64_t revisits, other_types, unknown_types;
};

struct crawl_lanes;

/**
 * Open the inputs' readers (with several threads, the first lanes).
 * @prog: updated with records and bytes read as items are written.
 * @return the engine, or NULL (logged).  Free with crawl_lanes_close().
 */
struct crawl_lanes *crawl_lanes_open(const struct crawl_lanes_config *cfg,
				     const struct crawl_lanes_ops *ops, void *ctx,
				     struct progress *prog);

/** Read, compute and write every item.  @return 0, or -1 (logged). */
int crawl_lanes_run(struct crawl_lanes *x);

/** After a successful run: what the inputs held and lost (@rs) and the
 * records passed over by type (@passed). */
void crawl_lanes_stats(const struct crawl_lanes *x, struct crawl_reader_stats *rs,
		       struct crawl_lanes_passed *passed);

/** Free @x, its readers and its items' buffers (NULL is a no-op). */
void crawl_lanes_close(struct crawl_lanes *x);

#endif
