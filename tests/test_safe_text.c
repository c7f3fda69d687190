/*
 * test_safe_text.c - safe_text_clean_prefix() (printable ASCII taken 8
 * bytes at a time) against the rule of safe_text.h read byte by byte:
 * random strings of printable ASCII with, now and then, a byte next to
 * the edges (0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF, NUL) or a UTF-8
 * sequence, at every length and place; and safe_text()'s escapes.
 */
#include "input/safe_text.h"
#include "util/utf8.h"

#include "testutil.h"

#include <string.h>

static size_t ref_prefix(const uint8_t *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		const size_t k = p[i] < 0x80 ? (size_t)(p[i] >= 0x20 && p[i] < 0x7f) : utf8_seq_len(p + i, n - i);
		if (!k)
			break;
		i += k;
	}
	return i;
}

static void test_prefix(void)
{
	static const uint8_t odd[] = {0x00, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x09, 0x41};
	uint64_t st = test_seed(41);
	int bad = 0, clean = 0;
	for (int it = 0; it < 200000; it++) {
		uint8_t s[64];
		const size_t n = (size_t)(test_rand(&st) % 50);
		for (size_t i = 0; i < n; i++)
			s[i] = (uint8_t)(0x21 + test_rand(&st) % 0x5D);
		if (n && it % 4) { /* one odd byte, or a two-byte character */
			const size_t at = (size_t)(test_rand(&st) % n);
			if (it % 4 == 3 && at + 1 < n) {
				s[at] = 0xC3;
				s[at + 1] = 0xA9;
			} else {
				s[at] = odd[test_rand(&st) % sizeof odd];
			}
		}
		const size_t want = ref_prefix(s, n);
		clean += want == n;
		bad += safe_text_clean_prefix((const char *)s, n) != want;
	}
	CHECK(bad == 0);
	CHECK(clean > 50000 && clean < 150000);
	char *buf = NULL;
	size_t cap = 0, len;
	const char *r = safe_text("https://a.example/x\x7f\x01y\xC3\xA9\xFFz", 26, &buf, &cap, &len);
	CHECK(r && !strcmp(r, "https://a.example/x%7F%01y\xC3\xA9%FFz") && len == 32);
	const char *u = "https://a.example/plain";
	CHECK(safe_text(u, strlen(u), &buf, &cap, &len) == u && len == strlen(u));
	free(buf);
}

int main(void)
{
	test_prefix();
	return test_finish("test_safe_text");
}
