/*
 * json_read.c - recursive descent over the bytes, building the tree as it
 * goes.  Arrays and objects grow their member arrays by doubling; a
 * failed parse frees what was built.
 */
#include "output/json_read.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

#define MAX_DEPTH 64

struct cur {
	const char *p, *end;
	int depth;
};

static void skip_ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int parse_value(struct cur *c, struct json_value *v);

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		const char ch = p[i];
		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= (unsigned)(ch - '0');
		else if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
			v |= (unsigned)((ch | 0x20) - 'a' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A \u escape at c->p (after the backslash and 'u'), a pair if it is a
 * high surrogate: the code point into *@cp. */
static int parse_u_escape(struct cur *c, unsigned *cp)
{
	unsigned hi, lo;
	if (c->end - c->p < 4 || hex4(c->p, &hi))
		return -1;
	c->p += 4;
	if (hi < 0xD800 || hi > 0xDFFF) {
		*cp = hi;
		return 0;
	}
	if (hi > 0xDBFF || c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' ||
	    hex4(c->p + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
		return -1;
	c->p += 6;
	*cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
	return 0;
}

/* The string at c->p (its opening quote) into a new NUL-terminated
 * buffer: its decoded form is never longer than its source. */
static int parse_string(struct cur *c, char **out, size_t *len)
{
	const char *p = ++c->p;
	while (p < c->end && *p != '"')
		p += *p == '\\' && p + 1 < c->end ? 2 : 1;
	if (p >= c->end)
		return -1;
	char *s = malloc((size_t)(p - c->p) + 1), *o = s;
	if (!s)
		return -1;
	while (c->p < p) {
		const unsigned char ch = (unsigned char)*c->p++;
		unsigned cp;
		if (ch < 0x20)
			goto bad;
		if (ch >= 0x80) {
			/* RFC 8259 text is UTF-8: bytes that are not are no JSON */
			const size_t k = utf8_seq_len((const uint8_t *)c->p - 1, (size_t)(p - c->p) + 1);
			if (!k)
				goto bad;
			memcpy(o, c->p - 1, k);
			o += k;
			c->p += k - 1;
			continue;
		}
		if (ch != '\\') {
			*o++ = (char)ch;
			continue;
		}
		switch (*c->p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (parse_u_escape(c, &cp) || c->p > p)
				goto bad;
			o += utf8_put(o, cp);
			break;
		default: goto bad;
		}
	}
	c->p = p + 1;
	*o = '\0';
	*out = s;
	*len = (size_t)(o - s);
	return 0;
bad:
	free(s);
	return -1;
}

static int parse_number(struct cur *c, struct json_value *v)
{
	const char *p = c->p;
	if (p < c->end && *p == '-')
		p++;
	if (p >= c->end || *p < '0' || *p > '9')
		return -1;
	if (*p == '0')
		p++;
	else
		while (p < c->end && *p >= '0' && *p <= '9')
			p++;
	if (p < c->end && *p == '.') {
		if (++p >= c->end || *p < '0' || *p > '9')
			return -1;
		while (p < c->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < c->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < c->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= c->end || *p < '0' || *p > '9')
			return -1;
		while (p < c->end && *p >= '0' && *p <= '9')
			p++;
	}
	char tmp[64];
	const size_t n = (size_t)(p - c->p);
	if (n >= sizeof tmp)
		return -1;
	memcpy(tmp, c->p, n);
	tmp[n] = '\0';
	v->type = JSON_NUMBER;
	v->num = strtod(tmp, NULL);
	c->p = p;
	return 0;
}

/* One more member slot in @v (array or object). */
static struct json_value *grow(struct json_value *v, size_t *cap, int keyed)
{
	if (v->len == *cap) {
		const size_t nc = *cap ? 2 * *cap : 8;
		struct json_value *items = realloc(v->items, nc * sizeof *items);
		if (!items)
			return NULL;
		v->items = items;
		if (keyed) {
			char **keys = realloc(v->keys, nc * sizeof *keys);
			if (!keys)
				return NULL;
			v->keys = keys;
		}
		*cap = nc;
	}
	memset(&v->items[v->len], 0, sizeof v->items[0]);
	return &v->items[v->len];
}

/* An array or object at c->p (its bracket); v->type is already set. */
static int parse_members(struct cur *c, struct json_value *v, char close)
{
	const int keyed = close == '}';
	size_t cap = 0;
	if (++c->depth > MAX_DEPTH)
		return -1;
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		c->depth--;
		return 0;
	}
	for (;;) {
		struct json_value *item = grow(v, &cap, keyed);
		if (!item)
			return -1;
		skip_ws(c);
		if (keyed) {
			size_t kl;
			if (c->p >= c->end || *c->p != '"' || parse_string(c, &v->keys[v->len], &kl))
				return -1;
			v->len++; /* the key is owned now; the value is still null */
			skip_ws(c);
			if (c->p >= c->end || *c->p++ != ':')
				return -1;
			if (parse_value(c, item))
				return -1;
		} else {
			v->len++;
			if (parse_value(c, item))
				return -1;
		}
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			c->depth--;
			return 0;
		}
		return -1;
	}
}

static int literal(struct cur *c, const char *word, enum json_type t, struct json_value *v)
{
	const size_t n = strlen(word);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return -1;
	c->p += n;
	v->type = t;
	return 0;
}

static int parse_value(struct cur *c, struct json_value *v)
{
	skip_ws(c);
	if (c->p >= c->end)
		return -1;
	switch (*c->p) {
	case '{': v->type = JSON_OBJECT; return parse_members(c, v, '}');
	case '[': v->type = JSON_ARRAY; return parse_members(c, v, ']');
	case '"': v->type = JSON_STRING; return parse_string(c, &v->str, &v->len);
	case 't': return literal(c, "true", JSON_TRUE, v);
	case 'f': return literal(c, "false", JSON_FALSE, v);
	case 'n': return literal(c, "null", JSON_NULL, v);
	default: return parse_number(c, v);
	}
}

static void free_members(struct json_value *v)
{
	if (v->type == JSON_ARRAY || v->type == JSON_OBJECT) {
		for (size_t i = 0; i < v->len; i++) {
			free_members(&v->items[i]);
			if (v->keys)
				free(v->keys[i]);
		}
		free(v->items);
		free(v->keys);
	}
	free(v->str);
}

struct json_value *json_parse(const char *p, size_t n)
{
	struct cur c = {p, p + n, 0};
	struct json_value *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	if (parse_value(&c, v) == 0) {
		skip_ws(&c);
		if (c.p == c.end)
			return v;
	}
	json_free(v);
	return NULL;
}

void json_free(struct json_value *v)
{
	if (!v)
		return;
	free_members(v);
	free(v);
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

double json_number(const struct json_value *v, double dflt)
{
	return v && v->type == JSON_NUMBER ? v->num : dflt;
}

const char *json_string(const struct json_value *v, const char *dflt)
{
	return v && v->type == JSON_STRING ? v->str : dflt;
}

long long json_int(const struct json_value *v, long long dflt)
{
	const double lim = 9007199254740992.0; /* 2^53 */
	if (!v || v->type != JSON_NUMBER || !(v->num >= -lim && v->num <= lim))
		return dflt;
	return (long long)v->num;
}

int json_check(const char *p, size_t n)
{
	struct json_value *v = json_parse(p, n);
	json_free(v);
	return v != NULL;
}
