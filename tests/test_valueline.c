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
 */
#include "util/valueline.h"
#include "testutil.h"

#include <string.h>

static enum valueline_kind kind_of(const char *s)
{
	return valueline_kind(s, strlen(s));
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
	test_fields();
	return test_finish("test_valueline");
}
