/*
 * valueline.c - see valueline.h.  A line is read 16 bytes at a time
 * (util/simd16.h; test_scalar_twin holds the twin to the same kinds).
 */
#include "util/valueline.h"
#include "util/simd16.h"

#include <string.h>

static int line_space(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Is there a sentence mark at @s[i] (of @n): ASCII or U+2026 before a
 * space or the end, U+3002, U+FF01 or U+FF1F anywhere? */
static int line_sentence_end(const unsigned char *s, size_t n, size_t i)
{
	size_t len = 0;
	if (s[i] == '.' || s[i] == '!' || s[i] == '?')
		len = 1;
	else if (i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x80 && s[i + 2] == 0xA6)
		len = 3;
	else if (i + 2 < n && ((s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x82) ||
			       (s[i] == 0xEF && s[i + 1] == 0xBC && (s[i + 2] == 0x81 || s[i + 2] == 0x9F))))
		return 1;
	return len && (i + len == n || line_space(s[i + len]));
}

/* The HTML and C white space bytes of @v: 9..13 and ' '. */
static unsigned line_space16(v16 v)
{
	const v16 ctl = v16_le(v16_sub(v, v16_splat('\t')), v16_splat('\r' - '\t'));
	return v16_mask(v16_or(ctl, v16_eq(v, v16_splat(' '))));
}

/* The bytes of @v that may start a sentence mark: '.', '!', '?', >= 0xE2. */
static unsigned line_marks16(v16 v)
{
	const v16 ascii = v16_or(v16_eq(v, v16_splat('.')),
				 v16_or(v16_eq(v, v16_splat('!')), v16_eq(v, v16_splat('?'))));
	return v16_mask(v16_or(ascii, v16_le(v16_splat(0xE2), v)));
}

/* The counts of valueline_kind() over the bytes of @v that @take marks. */
struct line_tally {
	size_t bytes, chars, digits;
	int sentence;
};

static inline __attribute__((always_inline)) void
line_tally16(struct line_tally *t, v16 v, unsigned take, const unsigned char *s, size_t n,
	     size_t at)
{
	const unsigned sp = line_space16(v) | ~take;
	const unsigned cont = v16_mask(v16_eq(v16_and(v, v16_splat(0xC0)), v16_splat(0x80)));
	const unsigned dig = v16_mask(v16_le(v16_sub(v, v16_splat('0')), v16_splat(9))) & take;
	for (unsigned m = t->sentence ? 0 : line_marks16(v) & take; m && !t->sentence; m &= m - 1)
		t->sentence = line_sentence_end(s, n, at + (size_t)__builtin_ctz(m));
	t->bytes += mask16_count(~sp & 0xFFFFu);
	t->chars += mask16_count(~(sp | cont) & 0xFFFFu);
	t->digits += mask16_count(dig);
}

static int line_is_prose(const struct line_tally *t)
{
	return t->bytes >= VALUELINE_PROSE_BYTES ||
	       (t->sentence && t->bytes >= VALUELINE_SENTENCE_BYTES);
}

enum valueline_kind valueline_kind(const char *text, size_t n)
{
	const unsigned char *const s = (const unsigned char *)text;
	struct line_tally t = {0, 0, 0, 0};
	size_t i = 0;
	/* The kind is prose once the line has VALUELINE_PROSE_BYTES, or a
	 * sentence end and VALUELINE_SENTENCE_BYTES, whatever follows: a
	 * paragraph stops being read there. */
	for (; i + 16 <= n; i += 16) {
		line_tally16(&t, v16_load(s + i), 0xFFFFu, s, n, i);
		if (line_is_prose(&t))
			return VL_PROSE;
	}
	if (i < n && n >= 16) {
		/* the last 16 bytes, those read above left out */
		const unsigned skip = (unsigned)(16 - (n - i));
		line_tally16(&t, v16_load(s + n - 16), 0xFFFFu << skip, s, n, n - 16);
	} else if (i < n) {
		unsigned char tail[16] = {0};
		memcpy(tail, s, n);
		line_tally16(&t, v16_load(tail), (1u << n) - 1, s, n, 0);
	}
	if (line_is_prose(&t))
		return VL_PROSE;
	return !t.sentence && t.bytes <= VALUELINE_MAX_BYTES && t.digits * 5 > t.chars ? VL_VALUE
										     : VL_OTHER;
}

/* The rule of valueline.h: beside prose, unless the values follow a label
 * that follows values (a table's rows of a label and its values, its last
 * row before prose too). */
static int beside_prose(void *ctx, const struct valueline_run *r)
{
	(void)ctx;
	if (r->before == VL_OTHER && r->before2 == VL_VALUE)
		return 0;
	return r->before == VL_PROSE || r->after == VL_PROSE;
}

size_t valueline_runs(size_t n, valueline_kind_fn kind, valueline_judge_fn judge,
		      valueline_drop_fn drop, void *ctx)
{
	size_t run[VALUELINE_RUN_MAX], len = 0, dropped = 0;
	int long_run = 0;
	enum valueline_kind before = VL_OTHER, before2 = VL_OTHER;
	for (size_t i = 0; i <= n; i++) {
		const enum valueline_kind k = i < n ? kind(ctx, i, len > 0) : VL_OTHER;
		if (k == VL_SKIP)
			continue;
		if (k == VL_VALUE) {
			if (len < VALUELINE_RUN_MAX)
				run[len++] = i;
			else
				long_run = 1;
			continue;
		}
		if (len && !long_run && judge(ctx, &(struct valueline_run){run[0], i, before2, before, k})) {
			for (size_t j = 0; j < len; j++)
				drop(ctx, run[j]);
			dropped += len;
		}
		before2 = len ? VL_VALUE : before;
		before = k;
		len = 0;
		long_run = 0;
	}
	return dropped;
}

size_t valueline_fields(size_t n, valueline_kind_fn kind, valueline_drop_fn drop, void *ctx)
{
	return valueline_runs(n, kind, beside_prose, drop, ctx);
}
