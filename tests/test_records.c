/*
 * test_records.c - document and fingerprint records round-trip and refuse
 * every truncation; CSV fields are quoted per RFC 4180.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "output/csv.h"
#include "format/docrec.h"
#include "format/ndf.h"
#include "util/outfile.h"
#include "testutil.h"

static struct str S(const char *s)
{
	return (struct str){s, (uint32_t)strlen(s)};
}

static int same(struct str a, struct str b)
{
	return a.n == b.n && !memcmp(a.p, b.p, a.n);
}

static void test_docrec(void)
{
	struct doc_record d = {0}, e;
	d.doc_id = DOC_ID(3, 12345);
	d.warc_offset = 1ull << 40;
	d.warc_length = 777;
	d.payload_hash = 0x0123456789abcdefull;
	d.text_hash = ~0ull;
	d.flags = DOC_TRUNCATED | DOC_CHARSET_LOSSY;
	d.http_status = 200;
	d.url = S("http://example.com/a,b\"c");
	d.warc_file = S("x.warc.gz");
	d.record_id = S("<urn:uuid:1>");
	d.date = S("2026-11-20T03:04:05.123Z");
	d.title = S("");
	d.text = S("\xe4\xb8\xad\xe6\x96\x87 text");
	size_t n = docrec_size(&d);
	uint8_t *buf = malloc(n);
	CHECK(docrec_encode(&d, buf) == n);
	const uint8_t *p = buf;
	CHECK(docrec_decode(&p, buf + n, &e) == 0 && p == buf + n);
	CHECK(e.doc_id == d.doc_id && e.warc_offset == d.warc_offset && e.flags == d.flags);
	CHECK(e.payload_hash == d.payload_hash && e.text_hash == d.text_hash);
	CHECK(same(e.url, d.url) && same(e.date, d.date) && same(e.title, d.title) &&
	      same(e.record_id, d.record_id));
	CHECK(e.text.n == 0 && e.n_blocks == 0); /* the text is made of the blocks: none */
	CHECK(DOC_ID_FILE(e.doc_id) == 3 && DOC_ID_REC(e.doc_id) == 12345);
	for (size_t cut = 0; cut < n; cut++) {
		p = buf;
		CHECK(docrec_decode(&p, buf + cut, &e) == -1);
	}
	free(buf);
}

/* Encode @d, flip what @mangle says, @return whether it still decodes. */
static int decodes(const struct doc_record *d)
{
	const size_t n = docrec_size(d);
	uint8_t *buf = malloc(n);
	struct doc_record e;
	CHECK(docrec_encode(d, buf) == n);
	const uint8_t *p = buf;
	const int ok = docrec_decode(&p, buf + n, &e) == 0 && p == buf + n;
	free(buf);
	return ok;
}

/* Encode @n blocks of lengths @len and flags @fl into @raw; @return bytes. */
static uint32_t put_blocks(uint8_t *raw, int n, const uint32_t *len, const uint8_t *fl)
{
	uint8_t *p = raw;
	for (int i = 0; i < n; i++)
		p = docblock_encode(p, len[i], fl[i]);
	return (uint32_t)(p - raw);
}

/* The blocks: round trip with the hashes, offsets and main text a reader
 * makes of them; every truncation refused; blocks that do not cut
 * all_text exactly (a length off by one, a separator that is not '\n', a
 * zero length, a count that is not the blocks stored) and varints that
 * are not the shortest or pass 32 bits refused. */
static void test_docrec_blocks(void)
{
	static const char all[] = "Home\nA long paragraph of text.\nShare\nMore text.";
	uint32_t len[4] = {4, 25, 5, 10};
	const uint8_t fl[4] = {DB_SOFT | DB_POINTER, DB_CONTENT | DB_MAIN, DB_HEADING, DB_CONTENT};
	uint8_t raw[4 * DOCBLOCK_MAX_SIZE];
	struct doc_record d = {0}, e;
	d.doc_id = 7;
	d.url = S("http://a.example/x");
	d.all_text = (struct str){all, (uint32_t)strlen(all)};
	d.blocks = (struct str){(const char *)raw, put_blocks(raw, 4, len, fl)};
	d.n_blocks = 4;
	CHECK(d.blocks.n == 8); /* lengths under 256: two bytes each */
	size_t n = docrec_size(&d);
	uint8_t *buf = malloc(n);
	CHECK(docrec_encode(&d, buf) == n);
	const uint8_t *p = buf;
	CHECK(docrec_decode(&p, buf + n, &e) == 0 && p == buf + n);
	CHECK(same(e.all_text, d.all_text) && docrec_n_blocks(&e) == 4);
	struct doc_block x[4];
	docrec_blocks(&e, x);
	static const uint32_t off[4] = {0, 5, 31, 37};
	for (uint32_t i = 0; i < 4; i++)
		CHECK(x[i].hash == XXH3_64bits(all + off[i], len[i]) && x[i].off == off[i] &&
		      x[i].len == len[i] && x[i].flags == fl[i]);
	/* two runs of content: joined in the buffer */
	char *tb = NULL;
	size_t tcap = 0;
	struct str t;
	CHECK(docrec_text(&e, &tb, &tcap, &t) == 0 && same(t, S("A long paragraph of text.\nMore text.")) &&
	      t.p == tb);
	for (size_t cut = 0; cut < n; cut++) {
		p = buf;
		CHECK(docrec_decode(&p, buf + cut, &e) == -1);
	}
	free(buf);
	/* one run: a slice of all_text */
	const uint8_t fl2[4] = {0, DB_CONTENT, DB_CONTENT, 0};
	d.blocks.n = put_blocks(raw, 4, len, fl2);
	CHECK(docrec_text(&d, &tb, &tcap, &t) == 0 && same(t, S("A long paragraph of text.\nShare")) &&
	      t.p == all + 5);
	const uint8_t fl0[4] = {0, 0, 0, 0};
	d.blocks.n = put_blocks(raw, 4, len, fl0);
	CHECK(docrec_text(&d, &tb, &tcap, &t) == 0 && t.n == 0);
	free(tb);
	CHECK(decodes(&d));
	len[0] = 5; /* "Home\n" as the first block: the separator is inside the next */
	d.blocks.n = put_blocks(raw, 4, len, fl);
	CHECK(!decodes(&d));
	len[0] = 3; /* "Hom", then 'e' where '\n' should be */
	d.blocks.n = put_blocks(raw, 4, len, fl);
	CHECK(!decodes(&d));
	len[0] = 0;
	d.blocks.n = put_blocks(raw, 4, len, fl);
	CHECK(!decodes(&d));
	len[0] = 4;
	d.blocks.n = put_blocks(raw, 4, len, fl);
	CHECK(decodes(&d));
	d.all_text.n--; /* the last block runs past the text */
	CHECK(!decodes(&d));
	d.all_text.n++;
	d.n_blocks = 3; /* the last block's text is unaccounted for */
	d.blocks.n = put_blocks(raw, 3, len, fl);
	CHECK(!decodes(&d));
	d.n_blocks = 0;
	d.blocks.n = 0;
	CHECK(!decodes(&d));
	d.all_text.n = 0;
	CHECK(decodes(&d));
	/* one block of 1 byte ("H") in its shortest varint, then longer ones */
	d.all_text.n = 1;
	d.n_blocks = 1;
	d.blocks.n = 1;
	raw[0] = 1 << DB_FLAG_BITS;
	CHECK(decodes(&d));
	raw[0] = 0x80 | 1 << DB_FLAG_BITS;
	raw[1] = 0;
	d.blocks.n = 2;
	CHECK(!decodes(&d));
	memcpy(raw, "\xa0\x80\x80\x80\x10", 5); /* bit 32 set */
	d.blocks.n = 5;
	CHECK(!decodes(&d));
	/* a count of blocks larger than the bytes hold */
	d.all_text.n = (uint32_t)strlen(all);
	d.n_blocks = 4;
	d.blocks.n = put_blocks(raw, 4, len, fl);
	n = docrec_size(&d);
	buf = malloc(n);
	docrec_encode(&d, buf);
	const size_t at_count = n - d.blocks.n - 4;
	buf[at_count] = 5;
	p = buf;
	CHECK(docrec_decode(&p, buf + n, &e) == -1);
	buf[at_count] = 0xff;
	buf[at_count + 3] = 0xff;
	p = buf;
	CHECK(docrec_decode(&p, buf + n, &e) == -1);
	free(buf);
	/* documents of the layouts before (aux 0: no blocks; 2: text stored) are refused */
	struct ndf_header h = {.version = NDF_VERSION, .kind = NDF_KIND_DOCS};
	CHECK(docrec_check_header(&h, "old.ndf") == -1);
	h.aux = 2;
	CHECK(docrec_check_header(&h, "v2.ndf") == -1);
	h.aux = DOCREC_VERSION + 1;
	CHECK(docrec_check_header(&h, "new.ndf") == -1);
	h.aux = DOCREC_VERSION;
	CHECK(docrec_check_header(&h, "this.ndf") == 0);
}

/* The block rules as docs/FORMATS.md states them, one byte at a time:
 * @n shortest varints below 2^32 of lengths > 0 that cut @t (@tn bytes)
 * into pieces joined by '\n'.  @return 0, or -1. */
static int blocks_ref(const uint8_t *b, size_t bn, uint32_t n, const char *t, uint32_t tn)
{
	size_t q = 0;
	uint64_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = 0;
		int k = 0;
		for (;; k++) {
			if (q == bn || k == 5)
				return -1;
			v |= (uint64_t)(b[q] & 0x7f) << (7 * k);
			if (b[q++] < 0x80)
				break;
		}
		if (v >> 32 || (k && b[q - 1] == 0) || (v >> DB_FLAG_BITS) == 0)
			return -1;
		at += v >> DB_FLAG_BITS;
		if (i + 1 < n && (at >= tn || t[at++] != '\n'))
			return -1;
	}
	return q == bn && at == tn ? 0 : -1;
}

/* Random blocks over a random text, then bytes of the blocks changed:
 * docrec_decode() takes a record exactly when the plain rules above do. */
static void test_docrec_blocks_random(uint64_t *rng)
{
	char t[256];
	uint8_t raw[64 * DOCBLOCK_MAX_SIZE];
	long taken = 0;
	for (int round = 0; round < 20000; round++) {
		const uint32_t n = (uint32_t)(test_rand(rng) % 8);
		uint32_t tn = 0, bn = 0;
		for (uint32_t i = 0; i < n; i++) {
			const uint32_t len = 1 + (uint32_t)(test_rand(rng) % (i % 2 ? 3 : 40));
			if (i)
				t[tn++] = '\n';
			for (uint32_t j = 0; j < len; j++)
				t[tn++] = test_rand(rng) % 5 ? 'a' : '\n';
			bn = (uint32_t)(docblock_encode(raw + bn, len, (unsigned)test_rand(rng)) - raw);
		}
		for (int m = (int)(test_rand(rng) % 3); m > 0 && bn; m--)
			raw[test_rand(rng) % bn] = (uint8_t)test_rand(rng);
		if (test_rand(rng) % 4 == 0 && bn < sizeof raw)
			raw[bn++] = (uint8_t)test_rand(rng);
		struct doc_record d = {0};
		d.all_text = (struct str){t, tn};
		d.blocks = (struct str){(const char *)raw, bn};
		d.n_blocks = n + (test_rand(rng) % 6 == 0);
		const int want = blocks_ref(raw, bn, d.n_blocks, t, tn) == 0;
		CHECK(decodes(&d) == want);
		taken += want;
	}
	CHECK(taken > 1000); /* both ways, many times */
}

static void test_fprec(void)
{
	struct fp_record r = {0}, s;
	r.simhash = 0xfeedfacecafebeefull;
	r.doc_id = 42;
	r.flags = FP_SHORT_TEXT | FP_NO_FRAME;
	r.frame = 0x0102030405060708ull;
	r.url = S("u");
	r.warc_file = S("w");
	r.record_id = S("<urn:uuid:1>");
	r.date = S("d");
	size_t n = fprec_size(&r);
	uint8_t *buf = malloc(n);
	CHECK(fprec_encode(&r, buf) == n);
	const uint8_t *p = buf;
	CHECK(fprec_decode(&p, buf + n, &s) == 0 && s.simhash == r.simhash && s.flags == r.flags);
	CHECK(s.frame == r.frame && n == FPREC_MIN_SIZE + 1 + 1 + 12 + 1);
	/* the frame follows text_hash, little-endian (docs/FORMATS.md) */
	CHECK(buf[40] == 0x08 && buf[47] == 0x01);
	CHECK(same(s.url, r.url) && same(s.warc_file, r.warc_file));
	CHECK(same(s.record_id, r.record_id) && same(s.date, r.date));
	p = buf; /* a skip ends where a decode ends */
	CHECK(fprec_skip(&p, buf + n) == 0 && p == buf + n);
	for (size_t cut = 0; cut < n; cut++) {
		p = buf;
		CHECK(fprec_decode(&p, buf + cut, &s) == -1);
		p = buf;
		CHECK(fprec_skip(&p, buf + cut) == -1 && p == buf);
	}
	/* A length field pointing past the end is refused, not followed. */
	buf[n - 5] = 0xff;
	p = buf;
	CHECK(fprec_decode(&p, buf + n, &s) == -1);
	p = buf;
	CHECK(fprec_skip(&p, buf + n) == -1);
	free(buf);
}

static void csv_case(const char *in, const char *want)
{
	struct csv_writer w;
	csv_init(&w, NULL);
	csv_field(&w, in, strlen(in));
	const int ok = !w.err && w.len == strlen(want) && (!w.len || !memcmp(w.buf, want, w.len));
	CHECK(ok);
	if (!ok)
		fprintf(stderr, "csv: [%s] -> [%.*s], want [%s]\n", in, (int)w.len,
			w.buf ? w.buf : "", want);
	CHECK(csv_close(&w) == 0);
}

static void test_numbers(void)
{
	struct csv_writer w;
	csv_init(&w, NULL);
	csv_u64(&w, 0);
	csv_sep(&w);
	csv_u64(&w, 18446744073709551615ull);
	csv_sep(&w);
	csv_hex64(&w, 0x00ab00cd00ef0012ull);
	const char *want = "0,18446744073709551615,00ab00cd00ef0012";
	CHECK(w.len == strlen(want) && !memcmp(w.buf, want, w.len));
	CHECK(csv_close(&w) == 0);
}

/* The cursor appends (csv_put_*) against printf, at every digit count and
 * at random; each leaves its bound's worth of room untouched past it. */
static void test_put_numbers(uint64_t *rng)
{
	uint64_t v[200];
	size_t n = 0;
	for (uint64_t p = 1; n < 60; p *= 10) { /* 1, 10, ... 10^19 and neighbours */
		v[n++] = p - 1;
		v[n++] = p;
		v[n++] = p + 1;
		if (p > UINT64_MAX / 10)
			break;
	}
	v[n++] = UINT64_MAX;
	while (n < 200)
		v[n++] = test_rand(rng) >> (test_rand(rng) % 64);
	for (size_t i = 0; i < n; i++) {
		char want[64], buf[64];
		memset(buf, '#', sizeof buf);
		int wl = snprintf(want, sizeof want, "%llu", (unsigned long long)v[i]);
		char *end = csv_put_u64(buf + 1, v[i]);
		CHECK(end - (buf + 1) == wl && !memcmp(buf + 1, want, (size_t)wl));
		CHECK(buf[0] == '#' && buf[1 + CSV_U64_BOUND] == '#');
		memset(buf, '#', sizeof buf);
		wl = snprintf(want, sizeof want, "%016llx", (unsigned long long)v[i]);
		end = csv_put_hex64(buf + 1, v[i]);
		CHECK(end - (buf + 1) == 16 && !memcmp(buf + 1, want, 16) && buf[17] == '#');
	}
}

static int needs_quotes_ref(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return 1;
	return 0;
}

/* Every length to 48 (the vector loop, its overlapping tail, the byte
 * loop), a special byte at every position or none, among bytes of all
 * values. */
static void test_needs_quotes(uint64_t *rng)
{
	static const char special[] = ",\"\r\n";
	char s[48];
	for (size_t len = 0; len <= sizeof s; len++)
		for (size_t at = 0; at <= len; at++)
			for (int round = 0; round < 8; round++) {
				for (size_t i = 0; i < len; i++) {
					char c = (char)(test_rand(rng) & 0xff);
					s[i] = strchr(special, c) && c ? 'x' : c;
				}
				if (at < len)
					s[at] = special[round % 4];
				CHECK(csv_needs_quotes(s, len) == needs_quotes_ref(s, len));
			}
}

/* A writer on an output flushes as it goes: many rows, some quoted, some
 * far longer than the flush size, must come out whole and in order, through
 * a plain output and through a bulk one (written past the page cache). */
static void test_csv_stream(int bulk)
{
	char path[] = "/tmp/test_records_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct outfile of;
	CHECK((bulk ? outfile_open_bulk(&of, path) : outfile_open(&of, path)) == 0);
	struct csv_writer w;
	struct csv_writer ref;
	csv_init(&w, &of);
	csv_init(&ref, NULL);
	char *big = malloc(700000);
	for (size_t i = 0; i < 700000; i++)
		big[i] = i % 1000 == 999 ? '"' : (char)('a' + i % 26);
	for (uint64_t i = 0; i < 50000; i++) {
		struct csv_writer *ws[2] = {&w, &ref};
		for (int k = 0; k < 2; k++) {
			csv_u64(ws[k], i);
			csv_sep(ws[k]);
			if (i % 10000 == 7)
				csv_field(ws[k], big, 700000);
			else
				csv_field(ws[k], i % 3 ? "a,b" : "plain", i % 3 ? 3 : 5);
			csv_end(ws[k]);
		}
	}
	CHECK(csv_close(&w) == 0);
	CHECK(outfile_commit(&of) == 0);
	FILE *fp = fopen(path, "rb");
	char *out = malloc(ref.len + 1);
	size_t len = fp ? fread(out, 1, ref.len + 1, fp) : 0;
	if (fp)
		fclose(fp);
	unlink(path);
	CHECK(len == ref.len && !memcmp(out, ref.buf, len));
	CHECK(csv_close(&ref) == 0);
	free(big);
	free(out);
}

int main(void)
{
	test_docrec();
	test_docrec_blocks();
	test_numbers();
	uint64_t rng = test_seed(5);
	test_docrec_blocks_random(&rng);
	test_put_numbers(&rng);
	test_needs_quotes(&rng);
	test_csv_stream(0);
	test_csv_stream(1);
	test_fprec();
	csv_case("plain", "plain");
	csv_case("", "");
	csv_case("a,b", "\"a,b\"");
	csv_case("say \"hi\"", "\"say \"\"hi\"\"\"");
	csv_case("line\nbreak", "\"line\nbreak\"");
	csv_case("cr\r", "\"cr\r\"");
	return test_finish("test_records");
}
