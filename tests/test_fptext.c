/*
 * test_fptext.c - the --import-text line format (format/fptext.h): lines
 * parsed and refused one by one, and the reader over whole files: blank
 * lines, CRLF, a last line with no LF, NUL bytes in keys, line numbers of
 * bad lines, a line past FPTEXT_MAX_LINE skipped without holding it, and
 * seeded random lines checked against a plain reimplementation.
 */
#include <stdlib.h>
#include <string.h>

#include "format/fptext.h"
#include "util/log.h"
#include "testutil.h"

static int parse(const char *s, uint64_t *fp, struct str *key)
{
	return fptext_parse_line(s, strlen(s), fp, key);
}

static void test_lines(void)
{
	uint64_t v = 0;
	struct str k = {0};
	CHECK(parse("0123456789abcdef", &v, &k) == 1);
	CHECK_EQ_U64(v, 0x0123456789abcdefull);
	CHECK(k.n == 0);
	CHECK(parse("FFFFFFFFFFFFFFFF,http://a/b\r", &v, &k) == 1);
	CHECK_EQ_U64(v, UINT64_MAX);
	CHECK(k.n == 10 && !memcmp(k.p, "http://a/b", 10));
	CHECK(parse("00000000000000aB,", &v, &k) == 1 && v == 0xab && k.n == 0);
	CHECK(parse("", &v, &k) == 0);
	CHECK(parse("\r", &v, &k) == 0);
	static const char *const bad[] = {
		"0123456789abcde",          /* 15 digits */
		"0123456789abcdef0",        /* 17 digits */
		"0123456789abcdeg",         /* not hex */
		"0x23456789abcdef",         /* a prefix is not a digit */
		"0123456789abcdef key",     /* a key needs its comma */
		" 0123456789abcdef",        /* no leading space */
		"0123456789abcde\r",        /* CR does not count as a digit */
		"\r\r",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(parse(bad[i], &v, &k) == -1);
	/* a NUL inside a key is kept, with the length */
	const char nul[] = "000000000000000a,x\0y";
	CHECK(fptext_parse_line(nul, sizeof nul - 1, &v, &k) == 1 && k.n == 3 && k.p[1] == '\0');
}

struct got {
	uint64_t fp[8];
	char key[8][32];
	int n, end;
	uint64_t bad;
};

static struct got read_all(const char *data, size_t len)
{
	struct got g = {0};
	FILE *in = fmemopen((void *)(uintptr_t)data, len, "rb");
	CHECK(in != NULL);
	struct fptext_reader *r = fptext_open(in, "mem");
	CHECK(r != NULL);
	struct str key;
	int rc = 0;
	while (g.n < 8 && (rc = fptext_next(r, &g.fp[g.n], &key)) == 1) {
		CHECK(key.n < sizeof g.key[0]);
		memcpy(g.key[g.n], key.p, key.n < 31 ? key.n : 31);
		g.n++;
	}
	g.end = rc;
	g.bad = fptext_bad(r);
	fptext_close(r);
	fclose(in);
	return g;
}

static void test_reader(void)
{
	static const char f[] = "\n0000000000000001,a\r\nzz\n\n0000000000000002\nbad,line\n"
				"0000000000000003,last";
	const struct got g = read_all(f, sizeof f - 1);
	CHECK(g.n == 3 && g.end == 0);
	CHECK(g.fp[0] == 1 && !strcmp(g.key[0], "a"));
	CHECK(g.fp[1] == 2 && !strcmp(g.key[1], ""));
	CHECK(g.fp[2] == 3 && !strcmp(g.key[2], "last"));
	CHECK_EQ_U64(g.bad, 2);
	const struct got e = read_all("", 0);
	CHECK(e.n == 0 && e.end == 0 && e.bad == 0);
}

/* A line of @keylen key bytes between two good lines. */
static void long_line(size_t keylen, int want_ok)
{
	static const char head[] = "00000000000000aa\n00000000000000bb,";
	static const char tail[] = "\n00000000000000cc";
	const size_t len = sizeof head - 1 + keylen + sizeof tail - 1;
	char *buf = malloc(len);
	CHECK(buf != NULL);
	memcpy(buf, head, sizeof head - 1);
	memset(buf + sizeof head - 1, 'k', keylen);
	memcpy(buf + sizeof head - 1 + keylen, tail, sizeof tail - 1);
	FILE *in = fmemopen(buf, len, "rb");
	struct fptext_reader *r = fptext_open(in, "long");
	uint64_t v;
	struct str key;
	CHECK(fptext_next(r, &v, &key) == 1 && v == 0xaa);
	if (want_ok)
		CHECK(fptext_next(r, &v, &key) == 1 && v == 0xbb && key.n == keylen);
	CHECK(fptext_next(r, &v, &key) == 1 && v == 0xcc);
	CHECK(fptext_next(r, &v, &key) == 0);
	CHECK_EQ_U64(fptext_bad(r), want_ok ? 0 : 1);
	fptext_close(r);
	fclose(in);
	free(buf);
}

static void test_long_lines(void)
{
	const size_t most = FPTEXT_MAX_LINE - 17; /* the longest key taken */
	long_line(most, 1);
	long_line(most + 1, 0);
	long_line(3 * FPTEXT_MAX_LINE, 0);
}

/* Random lines of hex digits, commas, CRs and other bytes: the parser
 * agrees with the format stated in fptext.h, written out again here. */
static void test_random(void)
{
	uint64_t st = test_seed(17);
	static const char alphabet[] = "0123456789abcdefABCDEFgx,\r\n \0\xff";
	static const char hexd[] = "0123456789abcdefABCDEF";
	for (int iter = 0; iter < 200000; iter++) {
		char line[40];
		const size_t len = test_rand(&st) % 24;
		for (size_t i = 0; i < len; i++)
			line[i] = alphabet[test_rand(&st) % (sizeof alphabet - 1)];
		if (test_rand(&st) & 1)
			for (size_t i = 0; i < 16 && i < len; i++)
				line[i] = "0123456789abcdef"[test_rand(&st) % 16];
		size_t m = len && line[len - 1] == '\r' ? len - 1 : len;
		int want = m == 0 ? 0 : 1;
		uint64_t w = 0;
		if (m && (m < 16 || (m > 16 && line[16] != ',')))
			want = -1;
		for (size_t i = 0; want == 1 && i < 16; i++) {
			const char *d = memchr(hexd, line[i], 22);
			const size_t h = d ? (size_t)(d - hexd) : 0;
			if (!d)
				want = -1;
			else
				w = w << 4 | (h < 16 ? h : h - 6);
		}
		uint64_t v = 0;
		struct str k;
		const int got = fptext_parse_line(line, len, &v, &k);
		CHECK(got == want);
		if (got == 1 && want == 1) {
			CHECK(v == w);
			CHECK(k.n == (m > 16 ? m - 17 : 0));
		}
	}
}

int main(void)
{
	log_set_level(LOG_ERROR);
	test_lines();
	test_reader();
	test_long_lines();
	test_random();
	return test_finish("test_fptext");
}
