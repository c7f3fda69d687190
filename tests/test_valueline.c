/*
 * test_valueline.c - lines that are only a value, and a record's fields
 * (util/valueline.h).
 *
 * What must hold: a handle with its number, "Joined: <date>", a post
 * count and a date in any of the crawl's languages are values; a name
 * without digits, "Step 1", a headline with a year, a code line, a
 * sentence are not; prose is a sentence (not an initial or a firm's
 * "S.L.") or a long line.  A short run of values beside prose is a
 * record's fields; a long run, or the values of a table's row (after a
 * label that follows values), are not, nor values with no prose beside.
 * The kinds of random lines are the rule's, written plainly here.
 */
#include "util/valueline.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum valueline_kind kind_of(const char *s)
{
	return valueline_kind(s, strlen(s));
}

/* The rule of valueline.h written plainly, byte by byte, to hold the
 * library's 16-byte reading (and its early answer for prose) to. */
static int plain_space(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static enum valueline_kind plain_kind(const char *text, size_t n)
{
	const unsigned char *const s = (const unsigned char *)text;
	size_t bytes = 0, chars = 0, digits = 0;
	int sentence = 0;
	for (size_t i = 0; i < n; i++) {
		if (plain_space(s[i]))
			continue;
		size_t len = 0;
		if (s[i] == '.' || s[i] == '!' || s[i] == '?')
			len = 1;
		else if (i + 2 < n && !memcmp(s + i, "\xE2\x80\xA6", 3))
			len = 3;
		else if (i + 2 < n && (!memcmp(s + i, "\xE3\x80\x82", 3) ||
				       !memcmp(s + i, "\xEF\xBC\x81", 3) ||
				       !memcmp(s + i, "\xEF\xBC\x9F", 3)))
			sentence = 1;
		if (len && (i + len == n || plain_space(s[i + len])))
			sentence = 1;
		bytes++;
		chars += (s[i] & 0xC0) != 0x80;
		digits += s[i] >= '0' && s[i] <= '9';
	}
	if (bytes >= VALUELINE_PROSE_BYTES || (sentence && bytes >= VALUELINE_SENTENCE_BYTES))
		return VL_PROSE;
	return !sentence && bytes <= VALUELINE_MAX_BYTES && digits * 5 > chars ? VL_VALUE : VL_OTHER;
}

/* Random lines from pieces near every boundary of the rule (marks at a
 * 16-byte edge, the last byte, spaces of each kind, digits, multi-byte
 * characters cut off), each in an allocation of its own size. */
static void test_kind_random(void)
{
	static const char *const pieces[] = {"1", "42", "2021", "a", "Ab", "x", ".", "!", "?", " ",
		"\t", "\n", "\r", "\f", "\v", "  ", ":", "#", "\xE2\x80\xA6", "\xE2\x80",
		"\xE3\x80\x82", "\xEF\xBC\x81", "\xEF\xBC\x9F", "\xEF\xBC", "\xE5\xB9\xB4",
		"\xC3\xA9", "\xFF", "\x80", "\xE2", "word ", "Joined: ", "12.3.2019"};
	const size_t np = sizeof pieces / sizeof *pieces;
	uint64_t st = test_seed(57);
	int bad = 0;
	char buf[200];
	for (int it = 0; it < 200000; it++) {
		const size_t target = test_rand(&st) % (it < 100000 ? 48 : sizeof buf);
		size_t n = 0;
		while (n < target) {
			const char *const p = pieces[test_rand(&st) % np];
			const size_t l = strlen(p);
			if (n + l > target)
				break;
			memcpy(buf + n, p, l);
			n += l;
		}
		char *const line = malloc(n ? n : 1);
		CHECK(line != NULL);
		if (!line)
			return;
		memcpy(line, buf, n);
		if (valueline_kind(line, n) != plain_kind(line, n) && bad++ < 3)
			printf("  kind %d, plainly %d: '%.*s'\n", valueline_kind(line, n),
			       plain_kind(line, n), (int)n, line);
		free(line);
	}
	CHECK(bad == 0);
}

static void test_kind(void)
{
	static const char *const values[] = {
		"drdoor.102",     "thecrop8691", "Joined: March 23, 2022", "Joined: December 4, 2019",
		"posts: 838",     "Beiträge: 809", "Dabei seit: 14.1.2020", "15.8.2015",
		"2015年8月15日", "注册时间: 2021年1月25日", "帖子: 313", "March 23, 2022",
		"10:30",          "#1",
	};
	for (size_t i = 0; i < sizeof values / sizeof *values; i++)
		CHECK(kind_of(values[i]) == VL_VALUE);
	static const char *const others[] = {
		"Step 1", "2021 Planning underway", "Maria Berg", "Juan C. Sanz", "Igalia S.L.",
		">>> from tax import run_tax >>> run_tax(42)", "Two Borders Configures Our Patient", "",
		"A long line of 12345678901234567890123456789012345678901",
	};
	for (size_t i = 0; i < sizeof others / sizeof *others; i++)
		CHECK(kind_of(others[i]) == VL_OTHER);
	static const char *const prose[] = {
		"Leo Ito and Maria Urban visits a wine over our price!",
		"为了欢迎作家，公司逐渐记录。",
		"In 2011, the factory studies this southern resident in Harlow.",
		"A line that runs long enough to be the text of its own without any stop at all",
	};
	for (size_t i = 0; i < sizeof prose / sizeof *prose; i++)
		CHECK(kind_of(prose[i]) == VL_PROSE);
}

struct lines {
	const char *const *s;
	char dropped[16];
};

static enum valueline_kind kind_at(void *ctx, size_t i, int open)
{
	(void)open;
	const struct lines *const l = ctx;
	return l->s[i][0] == '-' ? VL_SKIP : kind_of(l->s[i]);
}

static void drop_at(void *ctx, size_t i)
{
	((struct lines *)ctx)->dropped[i] = 1;
}

/* The lines of @s (a "-" line is no line of the text) that are fields,
 * as a string of '1' and '0'. */
static const char *fields_of(const char *const *s, size_t n)
{
	static char out[17];
	struct lines l = {s, {0}};
	const size_t dropped = valueline_fields(n, kind_at, drop_at, &l);
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		out[i] = l.dropped[i] ? '1' : '0';
		count += l.dropped[i];
	}
	out[n] = 0;
	CHECK(count == dropped);
	return out;
}

#define FIELDS(a) fields_of(a, sizeof a / sizeof *a)

static void test_fields(void)
{
	static const char *const post[] = {
		"Two Borders Configures Our Patient", "xlake.7150", "Joined: March 23, 2022", "posts: 838",
		"- Top", "March 23, 2022", "According to a kitchen, their narrow driver finds some programs.",
		"thetradition9274", "Joined: March 6, 2015", "That stable room tests one chapter toward many chefs."};
	CHECK(!strcmp(FIELDS(post), "0111010110"));
	static const char *const alone[] = {"Two Borders Configures Our Patient", "xlake.7150", "posts: 838"};
	CHECK(!strcmp(FIELDS(alone), "000"));
	static const char *const table[] = {
		"Companies supporting the project in the last year, by changesets:",
		"Pedro Giffuni", "23183", "3.4%", "Armin Le Grand", "11018", "1.6%", "Michael Stahl", "18216",
		"0.9%", "To a first approximation, the top ten companies are the same as last year."};
	CHECK(!strcmp(FIELDS(table), "00000000000"));
	static const char *const releases[] = {
		"The releases of the last year, one after another, as the project made them:",
		"4.2.3", "April 2014", "4.1.6", "April 2014", "4.2.4", "May 2014",
		"The releases came about every month, as planned."};
	CHECK(!strcmp(FIELDS(releases), "00000000"));
}

int main(void)
{
	test_kind();
	test_kind_random();
	test_fields();
	return test_finish("test_valueline");
}
