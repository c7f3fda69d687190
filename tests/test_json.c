/*
 * test_json.c - json_put_string() output always passes json_check(), for
 * every byte string (seeded random bytes, all control characters, invalid
 * UTF-8), keeps valid UTF-8 as it is and turns each invalid byte into one
 * U+FFFD; json_check() accepts JSON and rejects near misses.
 */
#include <stdlib.h>
#include <string.h>

#include "output/json.h"
#include "output/json_read.h"
#include "testutil.h"

/* json_put_string() of @s (@n bytes) into a NUL-terminated buffer. */
static char *encode(const char *s, size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	CHECK(fp && json_put_string(fp, s, n) == 0);
	fclose(fp);
	return buf;
}

static void test_escapes(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "\"plain\""},
		{"new\nline\ttab", "\"new\\nline\\ttab\""},
		{"q\"b\\", "\"q\\\"b\\\\\""},
		{"\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""},
		{"bad\xff\xfe!", "\"bad\\ufffd\\ufffd!\""},
		{"\xc3\xa9t\xc3\xa9", "\"\xc3\xa9t\xc3\xa9\""},         /* été stays */
		{"\xe6\x97\xa5", "\"\xe6\x97\xa5\""},                     /* 日 stays */
		{"\xc0\xaf", "\"\\ufffd\\ufffd\""},                       /* overlong '/' */
		{"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},             /* a surrogate */
		{"\xe6\x97", "\"\\ufffd\\ufffd\""},                       /* cut short */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len;
		char *got = encode(cases[i].in, strlen(cases[i].in), &len);
		CHECK(!strcmp(got, cases[i].out));
		if (strcmp(got, cases[i].out))
			fprintf(stderr, "case %zu: got %s\n", i, got);
		free(got);
	}
	size_t len;
	char *nul = encode("a\0b", 3, &len);
	CHECK(!strcmp(nul, "\"a\\u0000b\""));
	free(nul);
}

static void test_random_bytes(void)
{
	uint64_t st = test_seed(16);
	char in[64];
	for (int round = 0; round < 20000; round++) {
		const size_t n = test_rand(&st) % sizeof in;
		for (size_t i = 0; i < n; i++)
			in[i] = (char)test_rand(&st);
		size_t len;
		char *out = encode(in, n, &len);
		CHECK(json_check(out, len));
		free(out);
	}
}

static void test_check(void)
{
	static const char *good[] = {
		"{}", "[]", "0", "-1.5e+3", " {\"a\": [1, true, null, \"x\\u00e9\"]} \n",
		"{\"stage\": \"extract\", \"n\": {\"x\": 0.25}}", "\"\\/\"",
		"\"\xe2\x82\xac \xf0\x9f\x98\x80 \xc3\xa9\"",
	};
	static const char *bad[] = {
		"", "{", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "01", "1.", "tru", "\"\n\"",
		"\"\\x\"", "\"\\u12g4\"", "{} {}", "\"\xff\"", "[1] x", "{1: 2}",
		/* not UTF-8: overlong, surrogate, cut short, past U+10FFFF */
		"\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xe2\x82\"", "\"\xf4\x90\x80\x80\"",
		"{\"\x80\": 1}",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		CHECK(json_check(good[i], strlen(good[i])));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(!json_check(bad[i], strlen(bad[i])));
		if (json_check(bad[i], strlen(bad[i])))
			fprintf(stderr, "accepted: bad[%zu] %s\n", i, bad[i]);
	}
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	CHECK(!json_check(deep, sizeof deep)); /* past 64 levels */
	CHECK(json_check(deep + 40, 120));     /* 60 levels */
}

int main(void)
{
	test_escapes();
	test_random_bytes();
	test_check();
	return test_finish("test_json");
}
