/*
 * html_values.c - a record's fields among the content (html_values.h).
 */
#include "html/html_values.h"

#include "util/valueline.h"

static enum valueline_kind line_kind(const struct hblock *b, const char *text)
{
	if (b->flags & HB_HEADING)
		return VL_OTHER;
	if (b->ns_bytes >= VALUELINE_PROSE_BYTES)
		return VL_PROSE;
	return valueline_kind(text + b->off, b->len);
}

/* Does b[i] keep the element around a run of values from being a record:
 * one more block past VALUES_RECORD_BLOCKS (@blocks counted so far), or
 * a heading (the record would be an article or a section)? */
static int too_much(const struct hblock *b, size_t *blocks)
{
	*blocks += !(b->flags & HB_MARK);
	return *blocks > VALUES_RECORD_BLOCKS || (b->flags & HB_HEADING);
}

/* Is the element that holds b[first] and b[last] a record: at most
 * VALUES_RECORD_BLOCKS blocks that are not marks, no heading? */
static int in_record(const struct hblock *b, size_t n, size_t first, size_t last)
{
	size_t blocks = 0;
	uint16_t depth = UINT16_MAX;
	for (size_t i = first; i <= last; i++) {
		if (too_much(&b[i], &blocks))
			return 0;
		if (i > first && b[i].gap_depth < depth)
			depth = b[i].gap_depth;
	}
	/* b[i - 1] and b[i] lie in that element while gap_depth >= depth */
	for (size_t i = first; i > 0 && b[i].gap_depth >= depth; i--)
		if (too_much(&b[i - 1], &blocks))
			return 0;
	for (size_t i = last + 1; i < n && b[i].gap_depth >= depth; i++)
		if (too_much(&b[i], &blocks))
			return 0;
	return 1;
}

struct value_lines {
	struct hblock *b;
	size_t n;
	const char *text;
};

static enum valueline_kind block_kind(void *ctx, size_t i, int open)
{
	const struct value_lines *const l = ctx;
	const struct hblock *const b = &l->b[i];
	if (b->cls != HB_GOOD)
		return VL_SKIP;
	/* a line too long to be a value only ends a run: unread without one */
	if (!open && (b->ns_bytes > VALUELINE_MAX_BYTES || (b->flags & HB_HEADING)))
		return VL_OTHER;
	return line_kind(b, l->text);
}

/* Values before prose, in one element that is a record. */
static int record_fields(void *ctx, const struct valueline_run *r)
{
	const struct value_lines *const l = ctx;
	return r->after == VL_PROSE && in_record(l->b, l->n, r->first, r->end);
}

static void drop_block(void *ctx, size_t i)
{
	((struct value_lines *)ctx)->b[i].cls = HB_BAD;
}

size_t hblocks_values(struct hblock *b, size_t n, const char *text)
{
	struct value_lines l = {b, n, text};
	return valueline_runs(n, block_kind, record_fields, drop_block, &l);
}
