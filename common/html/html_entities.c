/*
 * html_entities.c - character references to UTF-8.
 *
 * The named table is sorted by byte order of the names and searched by
 * bisection, so a lookup costs ~9 short compares.  Names are matched case
 * sensitively, as HTML requires (&Eacute; is not &eacute;).
 */
#include "html/html_entities.h"
#include "util/simd16.h"
#include "util/utf8.h"

#include <string.h>

#include "html/html_entities_table.h"

/* windows-1252 meaning of &#128; .. &#159;, as browsers read them. */
static const uint16_t c1_1252[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

/* The references most pages are full of, found by two compares each
 * before the bisection: the rows of the table for them. */
static const struct entity_row *common_entity(const char *s, size_t n)
{
	static const struct entity_row amp = {0, 3, 1, '&', 0}, lt = {0, 2, 1, '<', 0},
				       gt = {0, 2, 1, '>', 0}, quot = {0, 4, 1, '"', 0},
				       nbsp = {0, 4, 1, 0xA0, 0};
	if (n == 2 && s[1] == 't')
		return s[0] == 'l' ? &lt : s[0] == 'g' ? &gt : NULL;
	if (n == 3 && !memcmp(s, "amp", 3))
		return &amp;
	if (n == 4 && !memcmp(s, "quot", 4))
		return &quot;
	if (n == 4 && !memcmp(s, "nbsp", 4))
		return &nbsp;
	return NULL;
}

/* The row of the name [s, s+n) (without ';'), or NULL: a bisection of
 * the 2,125 names, ~11 steps of a few byte compares each. */
static const struct entity_row *entity_lookup(const char *s, size_t n)
{
	const struct entity_row *const e = common_entity(s, n);
	if (e)
		return e;
	size_t lo = 0, hi = N_ENTITY_ROWS;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		const struct entity_row *const r = &entity_table[mid];
		const char *const name = entity_names + r->off;
		const size_t m = r->len < n ? r->len : n;
		int c = 0;
		for (size_t i = 0; i < m && c == 0; i++) /* memcmp() without the call */
			c = (unsigned char)name[i] - (unsigned char)s[i];
		if (c == 0)
			c = r->len < n ? -1 : r->len > n;
		if (c == 0)
			return r;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The UTF-8 of @e's one or two code points into @out; the length. */
static size_t entity_put(const struct entity_row *e, char *out)
{
	size_t k = utf8_put(out, e->cp1);
	if (e->cp2)
		k += utf8_put(out + k, e->cp2);
	return k;
}

static int is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* &#DDD; or &#xHHH; at s ("&#" already checked).  The ';' is optional. */
static size_t decode_numeric(const char *s, size_t n, char *out, size_t *olen)
{
	size_t i = 2;
	const int hex = i < n && (s[i] == 'x' || s[i] == 'X');
	const unsigned base = hex ? 16 : 10;
	i += (size_t)hex;
	const size_t digits_at = i;
	uint32_t cp = 0;
	for (; i < n; i++) {
		const int d = hex ? hex_val((unsigned char)s[i]) : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
		if (d < 0)
			break;
		if (cp <= 0x10FFFF) /* saturate: any bigger number is U+FFFD anyway */
			cp = cp * base + (uint32_t)d;
	}
	if (i == digits_at)
		return 0;
	if (i < n && s[i] == ';')
		i++;
	if (cp == 0)
		cp = 0xFFFD;
	else if (cp >= 0x80 && cp < 0xA0)
		cp = c1_1252[cp - 0x80];
	*olen = utf8_put(out, cp);
	return i;
}

size_t html_entity_decode_in(const char *s, size_t n, int in_attr, char *out, size_t *olen)
{
	*olen = 0;
	if (n < 2)
		return 0;
	if (s[1] == '#')
		return decode_numeric(s, n, out, olen);
	size_t run = 1;
	while (run < n && run <= ENTITY_MAX_NAME + 1 && is_alnum((unsigned char)s[run]))
		run++;
	const size_t name_len = run - 1;
	if (name_len == 0)
		return 0;
	if (name_len <= ENTITY_MAX_NAME && run < n && s[run] == ';') {
		const struct entity_row *const e = entity_lookup(s + 1, name_len);
		if (e) {
			*olen = entity_put(e, out);
			return run + 1;
		}
	}
	/* Without ';': the longest legacy name that prefixes the run.  In an
	 * attribute value, one followed by a letter, digit or '=' stays
	 * text ("?a=1&copy=2" is a URL, not a copyright sign). */
	for (size_t l = name_len < ENTITY_MAX_LEGACY ? name_len : ENTITY_MAX_LEGACY; l >= 2; l--) {
		const struct entity_row *const e = entity_lookup(s + 1, l);
		if (e && e->legacy) {
			if (in_attr && 1 + l < n && (is_alnum((unsigned char)s[1 + l]) || s[1 + l] == '='))
				return 0;
			*olen = entity_put(e, out);
			return 1 + l;
		}
	}
	return 0;
}

size_t html_entity_decode(const char *s, size_t n, char *out, size_t *olen)
{
	return html_entity_decode_in(s, n, 0, out, olen);
}

static int is_blank(unsigned char c)
{
	return c <= ' '; /* controls and NUL are read as blanks too */
}

/* A decoded reference that is itself white space (&nbsp; &#10; &Tab;)? */
static int decoded_blank(const char *d, size_t nd)
{
	return (nd == 1 && is_blank((unsigned char)d[0])) ||
	       (nd == 2 && (unsigned char)d[0] == 0xC2 && (unsigned char)d[1] == 0xA0);
}

/* Bit i set where byte i of @v is blank, '&' or 0xC2. */
static unsigned special16(v16 v)
{
	return v16_mask(v16_or(v16_le(v, v16_splat(' ')),
			       v16_or(v16_eq(v, v16_splat('&')), v16_eq(v, v16_splat(0xC2)))));
}

/*
 * Copy the leading run of plain bytes of [s, s+n) to @out 16 bytes at a
 * time while 17 are readable (@avail); @return the bytes of the run
 * copied, all of it unless the readable bytes ran short.  Plain is any
 * byte but blanks, '&' and 0xC2, and also a single blank between two
 * plain bytes of the text, written as ' ': collapsing would write one
 * space for it, and stopping at every blank between words (a line break
 * in a paragraph's source, as much as a space) would make the run as
 * short as a word or a line.  Whole chunks are stored, also past the
 * run's end: html_collapse()'s output never runs ahead of its input by
 * more than the one pending space, and HTML_COLLAPSE_SLACK covers the
 * rest.
 */
static size_t plain_run16(const char *s, size_t n, size_t avail, char *out, int *whole)
{
	size_t i = 0;
	*whole = 0;
	while (i < n && i + 17 <= avail) {
		const v16 v = v16_load(s + i);
		const v16 blank = v16_le(v, v16_splat(' '));
		v16_store(out + i, v16_max(v, v16_splat(' '))); /* a blank as ' ' */
		const unsigned sp = v16_mask(blank);
		const unsigned spec = special16(v);
		const size_t left = n - i;
		unsigned m;
		if (left > 16) {
			/* a blank is plain if the byte after it is; a blank
			 * that ends the chunk is left to the next one, which
			 * starts with it */
			m = spec & ~(sp & ~(spec >> 1));
			if (!m) {
				i += 16 - (sp >> 15);
				continue;
			}
		} else {
			/* the text ends here: a blank that ends it is owed, not
			 * written; shifts of a 64-bit ~0 by at most 32 */
			unsigned next = special16(v16_load(s + i + 1));
			next |= (unsigned)(~0ull << (left - 1));
			m = spec & ~(sp & ~next);
			m |= (unsigned)(~0ull << left) & 0xFFFFu;
		}
		if (m) {
			*whole = 1;
			return i + (size_t)__builtin_ctz(m);
		}
		i += 16;
	}
	*whole = i >= n;
	return i < n ? i : n;
}

/* The blanks at @s (s[0] is one), @n bytes of text left and @avail
 * readable: 16 judged at once where 16 are readable, as a block's source
 * is indented by runs of them. */
static size_t blank_run(const char *s, size_t n, size_t avail)
{
	size_t i = 0;
	while (avail - i >= 16 && i < n) {
		const unsigned other = ~v16_mask(v16_le(v16_load(s + i), v16_splat(' '))) & 0xFFFFu;
		if (other) {
			i += (size_t)__builtin_ctz(other);
			return i < n ? i : n;
		}
		i += 16;
	}
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	return i < n ? i : n;
}

/*
 * &amp; &lt; &gt; &quot; &nbsp; (most of the references pages hold) at @s,
 * @n bytes left, by a few byte compares; html_entity_decode() reads them
 * (and any other reference) by its name scan and table lookup, to the
 * same end.  @return the bytes used, 0 if @s starts none of them.
 */
static size_t common_ref(const char *s, size_t n, char *out, size_t *nb)
{
	if (n < 4)
		return 0;
	switch (s[1]) {
	case 'a':
		if (n < 5 || memcmp(s + 2, "mp;", 3))
			return 0;
		out[0] = '&';
		*nb = 1;
		return 5;
	case 'l':
	case 'g':
		if (s[2] != 't' || s[3] != ';')
			return 0;
		out[0] = s[1] == 'l' ? '<' : '>';
		*nb = 1;
		return 4;
	case 'q':
		if (n < 6 || memcmp(s + 2, "uot;", 4))
			return 0;
		out[0] = '"';
		*nb = 1;
		return 6;
	case 'n':
		if (n < 6 || memcmp(s + 2, "bsp;", 4))
			return 0;
		out[0] = (char)0xC2;
		out[1] = (char)0xA0;
		*nb = 2;
		return 6;
	default:
		return 0;
	}
}

size_t html_collapse(char *out, const char *s, size_t n, size_t avail, int has_text, int *pending,
		     int decode)
{
	char *const out0 = out;
	const char *const s0 = s, *const end = s + n;
	int owed = *pending, after_text = has_text; /* in locals: *pending is written once */
	while (s < end) {
		const unsigned char c = (unsigned char)*s;
		if (c > ' ' && c != '&' && c != 0xC2) {
			/* Fast path: a run of plain bytes, most of any text. */
			if (owed && after_text)
				*out++ = ' ';
			owed = 0;
			after_text = 1;
			int whole;
			const size_t fast = plain_run16(s, (size_t)(end - s), avail - (size_t)(s - s0), out, &whole);
			s += fast;
			out += fast;
			if (!whole)
				while (s < end && (unsigned char)*s > ' ' && *s != '&' && (unsigned char)*s != 0xC2)
					*out++ = *s++;
			continue;
		}
		char tmp[HTML_ENTITY_MAX_UTF8];
		const char *bytes = s;
		size_t used = 1, nb = 1;
		if (is_blank(c)) {
			owed = 1;
			s += blank_run(s, (size_t)(end - s), avail - (size_t)(s - s0));
			continue;
		}
		if (c == 0xC2 && end - s > 1 && (unsigned char)s[1] == 0xA0) {
			owed = 1;
			s += 2;
			continue;
		}
		if (c == '&' && decode &&
		    ((used = common_ref(s, (size_t)(end - s), tmp, &nb)) > 0 ||
		     (used = html_entity_decode(s, (size_t)(end - s), tmp, &nb)) > 0)) {
			bytes = tmp;
			if (decoded_blank(tmp, nb)) {
				owed = 1;
				s += used;
				continue;
			}
		} else {
			used = nb = 1;
		}
		if (owed && after_text)
			*out++ = ' ';
		owed = 0;
		after_text = 1;
		for (size_t k = 0; k < nb; k++) /* a byte or one character: no call */
			out[k] = bytes[k];
		out += nb;
		s += used;
	}
	*pending = owed;
	return (size_t)(out - out0);
}
