/*
 * valueline.c - see valueline.h.
 */
#include "util/valueline.h"

static int space(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Is there a sentence mark at @s[i] (of @n): ASCII or U+2026 before a
 * space or the end, U+3002, U+FF01 or U+FF1F anywhere? */
static int sentence_end(const unsigned char *s, size_t n, size_t i)
{
	size_t len = 0;
	if (s[i] == '.' || s[i] == '!' || s[i] == '?')
		len = 1;
	else if (i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x80 && s[i + 2] == 0xA6)
		len = 3;
	else if (i + 2 < n && ((s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x82) ||
			       (s[i] == 0xEF && s[i + 1] == 0xBC && (s[i + 2] == 0x81 || s[i + 2] == 0x9F))))
		return 1;
	return len && (i + len == n || space(s[i + len]));
}

enum valueline_kind valueline_kind(const char *text, size_t n)
{
	const unsigned char *const s = (const unsigned char *)text;
	size_t bytes = 0, chars = 0, digits = 0;
	int sentence = 0;
	for (size_t i = 0; i < n; i++) {
		if (space(s[i]))
			continue;
		/* only these bytes can start a sentence mark */
		if (s[i] == '.' || s[i] == '!' || s[i] == '?' || s[i] >= 0xE2)
			sentence |= sentence_end(s, n, i);
		bytes++;
		chars += (s[i] & 0xC0) != 0x80;
		digits += (unsigned)(s[i] - '0') < 10u;
	}
	if (bytes >= VALUELINE_PROSE_BYTES || (sentence && bytes >= VALUELINE_SENTENCE_BYTES))
		return VL_PROSE;
	return !sentence && bytes <= VALUELINE_MAX_BYTES && digits * 5 > chars ? VL_VALUE : VL_OTHER;
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
