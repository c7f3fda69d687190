/*
 * test_csv_files.c - the CSV files (clusters_csv.h, previous_csv.h,
 * pairs_csv.h): each header is the documented column list; a row has as
 * many fields as its header and reads back, through an RFC 4180 parser,
 * as the values written, whatever bytes the URL, the WARC path, the
 * record id and the date hold
 * (commas, quotes, CR, LF, UTF-8); and a row of the largest size fits its
 * table's CSV_ROW_BOUND(), in a buffer of exactly that size.
 */
#include <stdlib.h>
#include <string.h>

#include "output/clusters_csv.h"
#include "output/csv.h"
#include "output/pairs_csv.h"
#include "output/previous_csv.h"
#include "testutil.h"

#define MAX_FIELDS 16

struct record {
	int n;
	char *field[MAX_FIELDS];
};

/* One RFC 4180 record of @s[0..len), which must end with its CRLF and
 * hold nothing after it.  @return 0, or -1 if it is not one record. */
static int parse_record(const char *s, size_t len, struct record *r)
{
	size_t i = 0;
	r->n = 0;
	for (;;) {
		if (r->n == MAX_FIELDS)
			return -1;
		char *f = malloc(len + 1);
		size_t n = 0;
		r->field[r->n++] = f;
		if (i < len && s[i] == '"') {
			for (i++;; i++) {
				if (i >= len)
					return -1;
				if (s[i] == '"' && (i + 1 >= len || s[i + 1] != '"'))
					break;
				if (s[i] == '"')
					i++;
				f[n++] = s[i];
			}
			i++;
		} else {
			while (i < len && s[i] != ',' && s[i] != '\r' && s[i] != '\n' && s[i] != '"')
				f[n++] = s[i++];
		}
		f[n] = 0;
		if (i < len && s[i] == ',') {
			i++;
			continue;
		}
		return i + 2 == len && s[i] == '\r' && s[i + 1] == '\n' ? 0 : -1;
	}
}

static void record_free(struct record *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->field[i]);
	r->n = 0;
}

/* Fields of the header row @h. */
static int header_fields(const char *h)
{
	struct record r;
	CHECK(parse_record(h, strlen(h), &r) == 0);
	const int n = r.n;
	record_free(&r);
	return n;
}

/* A URL as the provenance keeps it: followed by the record id and the
 * date, each a u16 LE length and its bytes (provenance.h). */
static const char *packed(const char *url, const char *rid, const char *date)
{
	static char pool[1 << 20];
	static size_t used;
	const size_t nu = strlen(url), nr = strlen(rid), nd = strlen(date);
	if (used + nu + nr + nd + 4 > sizeof pool)
		abort();
	char *const start = pool + used, *p = start;
	memcpy(p, url, nu);
	p += nu;
	*p++ = (char)(nr & 0xff);
	*p++ = (char)(nr >> 8);
	memcpy(p, rid, nr);
	p += nr;
	*p++ = (char)(nd & 0xff);
	*p++ = (char)(nd >> 8);
	memcpy(p, date, nd);
	used += (size_t)(p + nd - start);
	return start;
}

static struct prov_doc doc_ids(const char *url, const char *warc, uint64_t off, uint64_t fp,
			       const char *rid, const char *date)
{
	struct prov_doc d;
	memset(&d, 0, sizeof d);
	d.url = packed(url, rid, date);
	d.url_len = (uint32_t)strlen(url);
	d.warc_file = warc;
	d.warc_file_len = (uint16_t)strlen(warc);
	d.warc_offset = off;
	d.simhash = fp;
	return d;
}

static struct prov_doc doc(const char *url, const char *warc, uint64_t off, uint64_t fp)
{
	return doc_ids(url, warc, off, fp, "", "");
}

static void test_headers(void)
{
	CHECK(!strcmp(clusters_csv_header,
		      "cluster_id,url,warc_file,warc_offset,record_id,warc_date,fingerprint,"
		      "distance,is_representative,match,doc_id\r\n"));
	CHECK(!strcmp(previous_csv_header,
		      "query_url,query_warc_file,query_warc_offset,query_record_id,"
		      "query_warc_date,query_fingerprint,match_url,match_warc_file,"
		      "match_warc_offset,match_record_id,match_warc_date,match_fingerprint,"
		      "distance,match\r\n"));
	CHECK(!strcmp(pairs_csv_header, "key_a,key_b,distance,match\r\n"));
}

/* URLs and paths a stock CSV reader must get back byte for byte. */
static const char *const awkward[] = {
	"https://example.com/plain",
	"https://example.com/a,b?x=1,2",
	"https://example.com/say \"hi\"",
	"https://example.com/line\r\nbreak",
	"https://example.com/lf\nonly",
	"https://例え.jp/パス?q=ä,ö",
	"\"",
	",",
	"",
};
#define N_AWKWARD (sizeof awkward / sizeof *awkward)

/* Write one row into memory (the statements after @header, on the writer
 * w_); check it parses into as many fields as @header has, and return
 * them in @r. */
#define ROW(r, header, ...)                                                       \
	do {                                                                      \
		struct csv_writer w_;                                             \
		csv_init(&w_, NULL);                                              \
		__VA_ARGS__;                                                      \
		CHECK(!w_.err);                                                   \
		CHECK(parse_record(w_.buf, w_.len, r) == 0);                      \
		CHECK((r)->n == header_fields(header));                          \
		csv_close(&w_);                                                   \
	} while (0)

static void test_cluster_rows(void)
{
	for (size_t i = 0; i < N_AWKWARD; i++) {
		const char *warc = awkward[(i + 3) % N_AWKWARD];
		struct prov_doc rep = doc("https://example.com/rep", "rep.warc.gz", 7, 0xff);
		const char *rid = awkward[(i + 1) % N_AWKWARD], *date = awkward[(i + 2) % N_AWKWARD];
		struct prov_doc m =
			doc_ids(awkward[i], warc, 18446744073709551615ull, 0x0f, rid, date);
		rep.payload_hash = 1;
		m.payload_hash = 2;
		m.doc_id = 1099511627776ull * 3 + 9;
		struct record r = {0};
		ROW(&r, clusters_csv_header, clusters_csv_row(&w_, 42, &rep, &m, "same-layout"));
		if (r.n != 11)
			continue;
		const char *want[11] = {"42", awkward[i], warc, "18446744073709551615", rid, date,
					"000000000000000f", "4", "0", "same-layout", "3298534883337"};
		for (int f = 0; f < 11; f++)
			CHECK(!strcmp(r.field[f], want[f]));
		record_free(&r);
		ROW(&r, clusters_csv_header, clusters_csv_row(&w_, 1, &m, &m, "rep"));
		CHECK(r.n == 11 && !strcmp(r.field[7], "0") && !strcmp(r.field[8], "1") &&
		      !strcmp(r.field[9], "rep"));
		record_free(&r);
	}
}

static void test_previous_rows(void)
{
	for (size_t i = 0; i < N_AWKWARD; i++) {
		const char *other = awkward[(i + 1) % N_AWKWARD];
		struct prov_doc q = doc_ids(awkward[i], other, 0, 0x0123456789abcdefull,
					    "<urn:uuid:q>", "2026-11-25T01:02:03Z");
		struct prov_doc m = doc(other, awkward[i], 123, 0x0123456789abcdeeull);
		struct record r = {0};
		ROW(&r, previous_csv_header, previous_csv_row(&w_, &q, &m, 1, "exact"));
		if (r.n != 14)
			continue;
		const char *want[14] = {awkward[i], other, "0", "<urn:uuid:q>", "2026-11-25T01:02:03Z",
					"0123456789abcdef", other, awkward[i], "123", "", "",
					"0123456789abcdee", "1", "exact"};
		for (int f = 0; f < 14; f++)
			CHECK(!strcmp(r.field[f], want[f]));
		record_free(&r);
	}
}

static void test_pair_rows(void)
{
	for (size_t i = 0; i < N_AWKWARD; i++) {
		const char *other = awkward[(i + 5) % N_AWKWARD];
		struct prov_doc a = doc(awkward[i], "a.warc", 0, 0), b = doc(other, "b.warc", 0, 0);
		struct record r = {0};
		ROW(&r, pairs_csv_header, pairs_csv_row(&w_, &a, &b, 6, "partial"));
		if (r.n != 4)
			continue;
		CHECK(!strcmp(r.field[0], awkward[i]));
		CHECK(!strcmp(r.field[1], other));
		CHECK(!strcmp(r.field[2], "6"));
		CHECK(!strcmp(r.field[3], "partial"));
		record_free(&r);
	}
}

/* A writer whose buffer is exactly @bound bytes: a row that passed its
 * bound would write past the allocation (which the sanitizer build sees),
 * and its length would exceed the bound (which every build sees). */
static void exact_writer(struct csv_writer *w, size_t bound)
{
	csv_init(w, NULL);
	w->buf = malloc(bound);
	w->cap = bound;
	CHECK(w->buf != NULL);
}

/* The widest row: URL and path all quotes (each doubled, plus the
 * enclosing pair), every number at its most digits, the longest match. */
static void test_bounds(void)
{
	static char url[70000], path[4096], rid[300], date[100];
	memset(url, '"', sizeof url - 1);
	memset(path, '"', sizeof path - 1);
	memset(rid, '"', sizeof rid - 1);
	memset(date, '"', sizeof date - 1);
	struct prov_doc rep = doc_ids(url, path, UINT64_MAX, 0, rid, date),
			m = doc_ids(url, path, UINT64_MAX, ~0ull, rid, date);
	m.doc_id = UINT64_MAX;
	struct csv_writer w;
	const char *const longest = "same-content";
	CHECK_EQ_U64(strlen(longest), CSV_MATCH_BOUND);

	const size_t cb = CSV_ROW_BOUND(CLUSTERS_CSV_COLUMNS, 0, &rep, &m, longest);
	exact_writer(&w, cb);
	clusters_csv_row(&w, UINT64_MAX, &rep, &m, longest);
	CHECK(!w.err && w.len <= cb);
	/* only the distance (2 digits of CSV_U64_BOUND's 20) is short of it */
	CHECK_EQ_U64(cb - w.len, 18);
	csv_close(&w);

	const size_t qb = CSV_ROW_BOUND(PREVIOUS_CSV_COLUMNS, &rep, &m, 0, longest);
	exact_writer(&w, qb);
	previous_csv_row(&w, &rep, &m, UINT32_MAX, longest);
	CHECK(!w.err && w.len <= qb);
	CHECK_EQ_U64(qb - w.len, 20 - 10); /* UINT32_MAX's digits */
	csv_close(&w);

	const size_t pb = CSV_ROW_BOUND(PAIRS_CSV_COLUMNS, &rep, &m, 0, longest);
	exact_writer(&w, pb);
	pairs_csv_row(&w, &rep, &m, UINT32_MAX, longest);
	CHECK(!w.err && w.len <= pb);
	CHECK_EQ_U64(pb - w.len, 20 - 10);
	csv_close(&w);
}

/* clusters_csv_rows(): every member in cluster order, numbered from 1,
 * the representative first. */
static void test_cluster_file(void)
{
	struct prov_doc d[5];
	const char *urls[5] = {"u0", "u,1", "u2", "u\"3", "u4"};
	for (int i = 0; i < 5; i++) {
		d[i] = doc(urls[i], "w", (uint64_t)i, (uint64_t)i);
		d[i].payload_hash = d[i].text_hash = (uint64_t)i;
		d[i].doc_id = (uint64_t)(100 + i);
	}
	d[3].payload_hash = 1; /* the bytes of its representative */
	/* u4's members: u0 on another frame, 1 bit from it; u2 on its frame */
	uint64_t frame[5] = {~0ull, 0, 0, 0, 0};
	uint32_t start[] = {0, 2, 5}, member[] = {1, 3, 4, 0, 2};
	struct clusters cl = {.n_clusters = 2, .start = start, .doc = member};
	struct provenance p = {.doc = d, .n = 5, .frame = frame};
	struct csv_writer w;
	csv_init(&w, NULL);
	clusters_csv_rows(&w, &cl, &p, 0, 2);
	const char *want = "1,\"u,1\",w,1,,,0000000000000001,0,1,rep,101\r\n"
			   "1,\"u\"\"3\",w,3,,,0000000000000003,1,0,exact,103\r\n"
			   "2,u4,w,4,,,0000000000000004,0,1,rep,104\r\n"
			   "2,u0,w,0,,,0000000000000000,1,0,same-content,100\r\n"
			   "2,u2,w,2,,,0000000000000002,2,0,same-layout,102\r\n";
	CHECK(!w.err && w.len == strlen(want) && !memcmp(w.buf, want, w.len));
	w.len = 0;
	clusters_csv_rows(&w, &cl, &p, 1, 2); /* a part numbers as the whole */
	const char *second = strstr(want, "\r\n2,") + 2;
	CHECK(w.len == strlen(second) && !memcmp(w.buf, second, w.len));
	csv_close(&w);
}

int main(void)
{
	test_headers();
	test_cluster_rows();
	test_previous_rows();
	test_pair_rows();
	test_bounds();
	test_cluster_file();
	return test_finish("test_csv_files");
}
