/*
 * json.c - see json.h.
 */
#include "output/json.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at @p (at most @n bytes), or 0.
 * Overlong forms, surrogates and code points past U+10FFFF are invalid. */
static size_t utf8_valid(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned cp;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

int json_put_string(FILE *fp, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	putc('"', fp);
	for (size_t i = 0; i < n;) {
		const unsigned char c = p[i];
		const size_t len = utf8_valid(p + i, n - i);
		if (!len) {
			fputs("\\ufffd", fp);
			i++;
		} else if (c == '"' || c == '\\') {
			putc('\\', fp);
			putc(c, fp);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
			if (named)
				fputs(named, fp);
			else
				fprintf(fp, "\\u%04x", c);
			i++;
		} else {
			fwrite(p + i, 1, len, fp);
			i += len;
		}
	}
	putc('"', fp);
	return ferror(fp) ? -1 : 0;
}

int json_put_cstr(FILE *fp, const char *s)
{
	return json_put_string(fp, s, strlen(s));
}

/* ---- validator: recursive descent over one value ---- */

struct cur {
	const char *p, *end;
	int depth;
};

static void skip_ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int eat(struct cur *c, const char *word)
{
	const size_t n = strlen(word);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return 0;
	c->p += n;
	return 1;
}

static int is_digit(struct cur *c)
{
	return c->p < c->end && *c->p >= '0' && *c->p <= '9';
}

static int digits(struct cur *c)
{
	if (!is_digit(c))
		return 0;
	while (is_digit(c))
		c->p++;
	return 1;
}

static int number(struct cur *c)
{
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (!digits(c))
		return 0;
	if (c->p < c->end && *c->p == '.' && (c->p++, !digits(c)))
		return 0;
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		return digits(c);
	}
	return 1;
}

static int string(struct cur *c)
{
	if (!eat(c, "\""))
		return 0;
	while (c->p < c->end) {
		const unsigned char ch = (unsigned char)*c->p;
		if (ch == '"') {
			c->p++;
			return 1;
		}
		if (ch < 0x20)
			return 0;
		if (ch == '\\') {
			if (++c->p >= c->end)
				return 0;
			if (*c->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (c->p + i >= c->end || !strchr("0123456789abcdefABCDEF", c->p[i]) || !c->p[i])
						return 0;
				c->p += 5;
			} else if (strchr("\"\\/bfnrt", *c->p) && *c->p) {
				c->p++;
			} else {
				return 0;
			}
			continue;
		}
		const size_t len = utf8_valid((const unsigned char *)c->p, (size_t)(c->end - c->p));
		if (!len)
			return 0;
		c->p += len;
	}
	return 0;
}

static int value(struct cur *c);

/* An array or object: @open, values (object: "key": value) split by ',', @close. */
static int container(struct cur *c, char close, int keyed)
{
	if (++c->depth > 64)
		return 0;
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		c->depth--;
		return 1;
	}
	for (;;) {
		skip_ws(c);
		if (keyed) {
			if (!string(c))
				return 0;
			skip_ws(c);
			if (!eat(c, ":"))
				return 0;
		}
		if (!value(c))
			return 0;
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			c->depth--;
			return 1;
		}
		return 0;
	}
}

static int value(struct cur *c)
{
	skip_ws(c);
	if (c->p >= c->end)
		return 0;
	switch (*c->p) {
	case '{':
		return container(c, '}', 1);
	case '[':
		return container(c, ']', 0);
	case '"':
		return string(c);
	case 't':
		return eat(c, "true");
	case 'f':
		return eat(c, "false");
	case 'n':
		return eat(c, "null");
	default:
		return number(c);
	}
}

int json_check(const char *p, size_t n)
{
	struct cur c = {p, p + n, 0};
	if (!value(&c))
		return 0;
	skip_ws(&c);
	return c.p == c.end;
}
