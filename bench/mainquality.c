/*
 * mainquality - how well extract keeps the main content of real pages.
 *
 * The labelled set (tests/data/maintext/, built by bench/maintext_ref.py)
 * holds real documentation pages, each with the visible text of its
 * main-content element (NAME.ref.txt) and the telling lines of its
 * navigation and footer (NAME.chrome.txt).
 *
 *   mainquality warc DIR > set.warc
 *       one WARC response record per page of DIR/manifest.tsv, with URL
 *       http://maintext.test/NAME.html and a bare "Content-Type: text/html"
 *       (the charset comes from the page, as on the web);
 *   mainquality score [-v] [--min-f1 F] DIR JSONL
 *       reads `ndd-extract --json` output of that WARC and reports, per
 *       page, per template and over the set, token-level precision and
 *       recall of the extracted text against the reference, and every
 *       chrome line found in the extracted text.
 *
 * Tokens are words (runs of letters and digits, ASCII lower-cased) and
 * single CJK characters; the overlap of two texts is the size of the
 * intersection of their token multisets.  P = overlap / output tokens,
 * R = overlap / reference tokens.  "Overall" sums overlaps over the set
 * (micro average); the mean of per-page F1 (macro) is shown beside it.
 * A chrome line matches when it occurs in the output with blanks collapsed.
 *
 * Exit status: 0 when overall F1 >= F (default 0.90), the macro mean too,
 * and no page keeps a chrome line; 1 otherwise; 2 on bad input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAGES 1024

struct page {
	char name[128], template[64];
	char *ref, *chrome; /* file contents */
	char *out;          /* extracted text, NULL until seen */
	double p, r, f1;
	size_t n_ref, n_out, overlap, chrome_hits;
};

static void *xmalloc(size_t n)
{
	void *const p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "mainquality: out of memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

/* The whole of @path, NUL-terminated; *len gets its length.  Exits on error. */
static char *slurp(const char *path, size_t *len)
{
	FILE *const fp = fopen(path, "rb");
	size_t n = 0, cap = 65536;
	char *buf = xmalloc(cap);
	if (!fp) {
		perror(path);
		exit(2);
	}
	for (size_t got; (got = fread(buf + n, 1, cap - n - 1, fp)) > 0;) {
		n += got;
		if (cap - n - 1 == 0) {
			char *const nb = realloc(buf, cap *= 2);
			if (!nb)
				exit(2);
			buf = nb;
		}
	}
	if (ferror(fp)) {
		perror(path);
		exit(2);
	}
	fclose(fp);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static char *slurp_in(const char *dir, const char *name, const char *suffix, size_t *len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix);
	return slurp(path, len);
}

/* Pages of DIR/manifest.tsv: name (column 1) and template (column 4). */
static size_t read_manifest(const char *dir, struct page *pages)
{
	char *const m = slurp_in(dir, "manifest", ".tsv", NULL);
	size_t n = 0;
	for (char *line = strtok(m, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		char name[128], pkg[128], ver[128], tmpl[64];
		if (sscanf(line, "%127[^\t]\t%127[^\t]\t%127[^\t]\t%63[^\t]", name, pkg, ver, tmpl) != 4 ||
		    n == MAX_PAGES) {
			fprintf(stderr, "mainquality: bad manifest line: %.60s\n", line);
			exit(2);
		}
		struct page *const p = &pages[n++];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", name);
		snprintf(p->template, sizeof(p->template), "%s", tmpl);
	}
	free(m);
	return n;
}

/* ---- warc ---- */

static void warc_record(const char *dir, const struct page *p, unsigned no)
{
	size_t len;
	char *const html = slurp_in(dir, p->name, ".html", &len);
	char http[256];
	const int hn = snprintf(http, sizeof(http),
				"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
				"Content-Length: %zu\r\n\r\n", len);
	printf("WARC/1.0\r\nWARC-Type: response\r\n"
	       "WARC-Target-URI: http://maintext.test/%s.html\r\n"
	       "WARC-Date: 2024-01-01T00:00:00Z\r\n"
	       "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012u>\r\n"
	       "Content-Type: application/http; msgtype=response\r\n"
	       "Content-Length: %zu\r\n\r\n%s",
	       p->name, no, (size_t)hn + len, http);
	fwrite(html, 1, len, stdout);
	fputs("\r\n\r\n", stdout);
	free(html);
}

/* ---- tokens ---- */

static uint32_t next_cp(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	uint32_t cp = *p++;
	const int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
	if (more)
		cp &= 0x3Fu >> more;
	for (int i = 0; i < more && (*p & 0xC0) == 0x80; i++)
		cp = cp << 6 | (*p++ & 0x3Fu);
	*pp = p;
	return cp;
}

static int is_cjk(uint32_t cp)
{
	return (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
	       (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

/* Letters and digits: ASCII alnum, and beyond ASCII all but the blocks of
 * punctuation, symbols, arrows, box drawing and CJK/fullwidth punctuation. */
static int is_word_cp(uint32_t cp)
{
	if (cp < 0x80)
		return (cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z');
	if (cp <= 0xBF || cp == 0xD7 || cp == 0xF7)
		return 0;
	if ((cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x303F) ||
	    (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF0F) ||
	    (cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0xFF3B && cp <= 0xFF40) ||
	    (cp >= 0xFF5B && cp <= 0xFF65) || cp == 0xFFFD)
		return 0;
	return 1;
}

/* Multiset of tokens: open addressing on (FNV-1a hash, bytes). */
struct tokset {
	struct slot {
		const char *s;
		uint32_t len, hash;
		uint32_t n[2]; /* count in the reference, in the output */
	} *slots;
	size_t cap, used;
};

static uint32_t fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void tokset_grow(struct tokset *t)
{
	struct tokset g = {xmalloc(2 * t->cap * sizeof(struct slot)), 2 * t->cap, 0};
	memset(g.slots, 0, g.cap * sizeof(struct slot));
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].s)
			continue;
		size_t j = t->slots[i].hash & (g.cap - 1);
		while (g.slots[j].s)
			j = (j + 1) & (g.cap - 1);
		g.slots[j] = t->slots[i];
	}
	g.used = t->used;
	free(t->slots);
	*t = g;
}

static void tokset_add(struct tokset *t, const char *s, size_t n, int side)
{
	if (2 * (t->used + 1) > t->cap)
		tokset_grow(t);
	const uint32_t h = fnv(s, n);
	size_t j = h & (t->cap - 1);
	for (; t->slots[j].s; j = (j + 1) & (t->cap - 1))
		if (t->slots[j].hash == h && t->slots[j].len == n && !memcmp(t->slots[j].s, s, n))
			break;
	struct slot *const sl = &t->slots[j];
	if (!sl->s) {
		sl->s = s;
		sl->len = (uint32_t)n;
		sl->hash = h;
		t->used++;
	}
	sl->n[side]++;
}

/* Add the tokens of @text (lower-cased in place) to side @side; @return their count. */
static size_t tokenize(struct tokset *t, char *text, int side)
{
	unsigned char *p = (unsigned char *)text;
	size_t count = 0;
	while (*p) {
		unsigned char *const start = p;
		uint32_t cp = next_cp((const unsigned char **)&p);
		if (is_cjk(cp)) {
			tokset_add(t, (const char *)start, (size_t)(p - start), side), count++;
			continue;
		}
		if (!is_word_cp(cp))
			continue;
		unsigned char *end = p, *q = p;
		while (*q && (cp = next_cp((const unsigned char **)&q), is_word_cp(cp) && !is_cjk(cp)))
			end = q;
		for (unsigned char *c = start; c < end; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c |= 0x20;
		tokset_add(t, (const char *)start, (size_t)(end - start), side), count++;
		p = end;
	}
	return count;
}

static size_t overlap(const struct tokset *t)
{
	size_t o = 0;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].s)
			o += t->slots[i].n[0] < t->slots[i].n[1] ? t->slots[i].n[0] : t->slots[i].n[1];
	return o;
}

/* ---- chrome lines ---- */

/* Collapse runs of ASCII blanks and U+00A0 into one space, in place. */
static void collapse(char *s)
{
	char *w = s;
	int space = 0;
	for (const char *r = s; *r;) {
		const int nbsp = (unsigned char)r[0] == 0xC2 && (unsigned char)r[1] == 0xA0;
		if (nbsp || (unsigned char)*r <= ' ') {
			r += nbsp ? 2 : 1;
			space = 1;
			continue;
		}
		if (space && w > s)
			*w++ = ' ';
		space = 0;
		*w++ = *r++;
	}
	*w = 0;
}

/* Chrome lines of @p found in its output (printed with @verbose). */
static size_t chrome_hits(const struct page *p, const char *out, int verbose)
{
	size_t hits = 0;
	char *const lines = strdup(p->chrome);
	if (!lines)
		exit(2);
	for (char *l = strtok(lines, "\n"); l; l = strtok(NULL, "\n")) {
		if (!strstr(out, l))
			continue;
		hits++;
		if (verbose)
			printf("    chrome kept in %s: %s\n", p->name, l);
	}
	free(lines);
	return hits;
}

/* ---- JSON lines ---- */

static void put_utf8(char **w, uint32_t cp)
{
	unsigned char *o = (unsigned char *)*w;
	if (cp < 0x80) {
		*o++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*o++ = (unsigned char)(0xC0 | cp >> 6);
		*o++ = (unsigned char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (unsigned char)(0xE0 | cp >> 12);
		*o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (unsigned char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (unsigned char)(0xF0 | cp >> 18);
		*o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (unsigned char)(0x80 | (cp & 0x3F));
	}
	*w = (char *)o;
}

static uint32_t hex4(const char *s)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		const char c = s[i];
		v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/*
 * The value of string field "@key" of the JSON object @line, decoded into a
 * new string, or NULL.  Only what ndd-extract writes is handled: a flat
 * object whose keys are plain ASCII and whose strings use \" \\ \n \uXXXX.
 */
static char *json_get(const char *line, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	const char *r = strstr(line, pat);
	if (!r)
		return NULL;
	r += strlen(pat);
	char *const out = xmalloc(strlen(r) + 1), *w = out;
	for (; *r && *r != '"'; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		r++;
		if (*r == 'n')
			*w++ = '\n';
		else if (*r == 't')
			*w++ = '\t';
		else if (*r == 'u' && strlen(r) >= 5) {
			uint32_t cp = hex4(r + 1);
			r += 4;
			if (cp >= 0xD800 && cp < 0xDC00 && r[1] == '\\' && r[2] == 'u') {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(r + 3) - 0xDC00);
				r += 6;
			}
			put_utf8(&w, cp);
		} else if (*r) {
			*w++ = *r;
		} else {
			break;
		}
	}
	*w = 0;
	return out;
}

/* Attach each JSON line's text to the page its URL names. */
static void read_outputs(const char *path, struct page *pages, size_t n)
{
	char *const all = slurp(path, NULL);
	for (char *line = strtok(all, "\n"); line; line = strtok(NULL, "\n")) {
		char *const url = json_get(line, "url");
		const char *const base = url ? strrchr(url, '/') : NULL;
		for (size_t i = 0; base && i < n; i++) {
			const size_t len = strlen(pages[i].name);
			if (!strncmp(base + 1, pages[i].name, len) && !strcmp(base + 1 + len, ".html")) {
				free(pages[i].out);
				pages[i].out = json_get(line, "text");
			}
		}
		free(url);
	}
	free(all);
}

/* ---- scoring ---- */

static double f1_of(double p, double r)
{
	return p + r > 0 ? 2 * p * r / (p + r) : 0;
}

static void score_page(const char *dir, struct page *p, int verbose)
{
	struct tokset t = {xmalloc(1024 * sizeof(struct slot)), 1024, 0};
	memset(t.slots, 0, t.cap * sizeof(struct slot));
	p->ref = slurp_in(dir, p->name, ".ref.txt", NULL);
	p->chrome = slurp_in(dir, p->name, ".chrome.txt", NULL);
	if (!p->out) {
		p->out = xmalloc(1);
		p->out[0] = 0;
	}
	collapse(p->out);
	p->chrome_hits = chrome_hits(p, p->out, verbose);
	p->n_ref = tokenize(&t, p->ref, 0);
	p->n_out = tokenize(&t, p->out, 1);
	p->overlap = overlap(&t);
	p->p = p->n_out ? (double)p->overlap / (double)p->n_out : 0;
	p->r = p->n_ref ? (double)p->overlap / (double)p->n_ref : 0;
	p->f1 = f1_of(p->p, p->r);
	free(t.slots);
}

struct sum {
	size_t pages, n_ref, n_out, overlap, chrome_hits;
	double f1_sum;
};

static void sum_add(struct sum *s, const struct page *p)
{
	s->pages++;
	s->n_ref += p->n_ref;
	s->n_out += p->n_out;
	s->overlap += p->overlap;
	s->chrome_hits += p->chrome_hits;
	s->f1_sum += p->f1;
}

/* Print one summary line; @return its micro F1. */
static double sum_print(const char *label, const struct sum *s)
{
	const double p = s->n_out ? (double)s->overlap / (double)s->n_out : 0;
	const double r = s->n_ref ? (double)s->overlap / (double)s->n_ref : 0;
	printf("%-18s %5zu  P %.3f  R %.3f  F1 %.3f  (mean page F1 %.3f)  chrome lines kept %zu\n",
	       label, s->pages, p, r, f1_of(p, r), s->pages ? s->f1_sum / (double)s->pages : 0,
	       s->chrome_hits);
	return f1_of(p, r);
}

static void print_templates(const struct page *pages, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && strcmp(pages[j].template, pages[i].template))
			j++;
		if (j < i)
			continue; /* template already reported */
		struct sum s = {0};
		for (j = i; j < n; j++)
			if (!strcmp(pages[j].template, pages[i].template))
				sum_add(&s, &pages[j]);
		sum_print(pages[i].template, &s);
	}
}

static int score(const char *dir, const char *jsonl, double min_f1, int verbose)
{
	static struct page pages[MAX_PAGES];
	const size_t n = read_manifest(dir, pages);
	struct sum all = {0};
	read_outputs(jsonl, pages, n);
	if (verbose)
		printf("%-52s %6s %6s %6s %6s %6s %s\n", "page", "ref", "out", "P", "R", "F1", "chrome");
	for (size_t i = 0; i < n; i++) {
		struct page *const p = &pages[i];
		score_page(dir, p, verbose);
		sum_add(&all, p);
		if (verbose)
			printf("%-52s %6zu %6zu %6.3f %6.3f %6.3f %zu\n", p->name, p->n_ref, p->n_out,
			       p->p, p->r, p->f1, p->chrome_hits);
	}
	print_templates(pages, n);
	const double f1 = sum_print("overall", &all);
	for (size_t i = 0; i < n; i++) {
		free(pages[i].ref);
		free(pages[i].chrome);
		free(pages[i].out);
	}
	return f1 >= min_f1 && all.f1_sum >= min_f1 * (double)n && all.chrome_hits == 0 ? 0 : 1;
}

static int usage(void)
{
	fputs("usage: mainquality warc DIR > set.warc\n"
	      "       mainquality score [-v] [--min-f1 F] DIR JSONL\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "warc")) {
		static struct page pages[MAX_PAGES];
		const size_t n = read_manifest(argv[2], pages);
		for (size_t i = 0; i < n; i++)
			warc_record(argv[2], &pages[i], (unsigned)i);
		return fflush(stdout) || ferror(stdout) ? 2 : 0;
	}
	if (argc < 4 || strcmp(argv[1], "score"))
		return usage();
	int verbose = 0, a = 2;
	double min_f1 = 0.90;
	for (; a < argc - 2; a++) {
		if (!strcmp(argv[a], "-v"))
			verbose = 1;
		else if (!strcmp(argv[a], "--min-f1") && a + 1 < argc - 2)
			min_f1 = atof(argv[++a]);
		else
			return usage();
	}
	return score(argv[a], argv[a + 1], min_f1, verbose);
}
