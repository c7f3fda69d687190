/*
 * fp_baseline - the plain SimHash baseline of bench/fpquality.py.
 *
 * Reads pages from standard input, each as a line "URL<TAB>LEN" followed
 * by LEN bytes of UTF-8 HTML, and prints one "<16 hex>,URL" line per page
 * (the input of ndd-fingerprint --import-text).  The fingerprint is what a
 * plain SimHash does: all visible text (tags stripped naively, script and
 * style dropped, a few entities decoded; no main-content extraction), the
 * distinct words (textnorm tokens: words, and single CJK characters) each
 * with weight 1, hashed with the same XXH3-64 seed as ndd-fingerprint.
 * The difference between its scores and ndd's is then the measured value
 * of extraction, features and weighting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "fingerprint/docfp.h"
#include "fingerprint/simhash.h"
#include "fingerprint/textnorm.h"

/* Skip to the end of an element whose content is not text (<script>). */
static size_t skip_raw(const char *h, size_t n, size_t i, const char *close)
{
	const size_t cl = strlen(close);
	for (; i + cl <= n; i++)
		if (h[i] == '<' && strncasecmp(h + i, close, cl) == 0)
			return i + cl;
	return n;
}

/* A character reference at h[i] ('&'): append its UTF-8 bytes.  @return the
 * bytes consumed, or 0 when it is not one we know (the '&' is kept). */
static size_t entity(const char *h, size_t n, size_t i, char *out, size_t *o)
{
	static const struct { const char *name, *text; } named[] = {
		{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&nbsp;", " "},
	};
	for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
		const size_t l = strlen(named[k].name);
		if (i + l <= n && memcmp(h + i, named[k].name, l) == 0) {
			out[(*o)++] = named[k].text[0];
			return l;
		}
	}
	if (i + 2 < n && h[i + 1] == '#') {
		char *end;
		const int hex = h[i + 2] == 'x' || h[i + 2] == 'X';
		const unsigned long cp = strtoul(h + i + 2 + hex, &end, hex ? 16 : 10);
		if (*end == ';' && cp > 0 && cp < 0x110000 && (size_t)(end - h) < n) {
			/* 4 bytes of UTF-8 fit where the reference was (>= 4 bytes). */
			char *w = out + *o;
			if (cp < 0x80) {
				*w++ = (char)cp;
			} else if (cp < 0x800) {
				*w++ = (char)(0xC0 | cp >> 6);
				*w++ = (char)(0x80 | (cp & 0x3F));
			} else if (cp < 0x10000) {
				*w++ = (char)(0xE0 | cp >> 12);
				*w++ = (char)(0x80 | (cp >> 6 & 0x3F));
				*w++ = (char)(0x80 | (cp & 0x3F));
			} else {
				*w++ = (char)(0xF0 | cp >> 18);
				*w++ = (char)(0x80 | (cp >> 12 & 0x3F));
				*w++ = (char)(0x80 | (cp >> 6 & 0x3F));
				*w++ = (char)(0x80 | (cp & 0x3F));
			}
			*o = (size_t)(w - out);
			return (size_t)(end - h) + 1 - i;
		}
	}
	return 0;
}

/* Visible text of @h: tags become spaces.  @out has room for @n bytes. */
static size_t strip_tags(const char *h, size_t n, char *out)
{
	size_t o = 0, i = 0;
	while (i < n) {
		if (h[i] == '<') {
			if (strncasecmp(h + i, "<script", 7) == 0)
				i = skip_raw(h, n, i + 7, "</script>");
			else if (strncasecmp(h + i, "<style", 6) == 0)
				i = skip_raw(h, n, i + 6, "</style>");
			else {
				const char *gt = memchr(h + i, '>', n - i);
				i = gt ? (size_t)(gt - h) + 1 : n;
			}
			out[o++] = ' ';
			continue;
		}
		if (h[i] == '&') {
			const size_t used = entity(h, n, i, out, &o);
			if (used) {
				i += used;
				continue;
			}
		}
		out[o++] = h[i++];
	}
	return o;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* SimHash of the distinct tokens of @tn, weight 1 each. */
static uint64_t plain_simhash(const struct textnorm *tn, uint64_t *hs)
{
	for (size_t k = 0; k < tn->n_tok; k++)
		hs[k] = XXH3_64bits_withSeed(tn->text + tn->tok[k].off, tn->tok[k].len, DOCFP_SEED);
	qsort(hs, tn->n_tok, sizeof *hs, cmp_u64);
	struct simhash_acc acc;
	simhash_acc_reset(&acc);
	for (size_t k = 0; k < tn->n_tok; k++)
		if (k == 0 || hs[k] != hs[k - 1])
			simhash_acc_add_one(&acc, hs[k]);
	return simhash_acc_final(&acc);
}

int main(void)
{
	char url[8192];
	struct textnorm tn = {0};
	int rc = 0;
	while (fgets(url, sizeof url, stdin)) {
		char *tab = strchr(url, '\t');
		if (!tab) {
			fprintf(stderr, "fp_baseline: bad frame line\n");
			return 2;
		}
		*tab = '\0';
		const size_t len = strtoul(tab + 1, NULL, 10);
		char *h = malloc(len + 1), *text = malloc(len + 1);
		uint64_t *hs = NULL;
		if (!h || !text || fread(h, 1, len, stdin) != len) {
			fprintf(stderr, "fp_baseline: truncated page %s\n", url);
			rc = 2;
		} else if ((h[len] = '\0', 0) || textnorm_run(&tn, text, strip_tags(h, len, text)) ||
			   !(hs = malloc((tn.n_tok + 1) * sizeof *hs))) {
			fprintf(stderr, "fp_baseline: out of memory\n");
			rc = 2;
		} else {
			printf("%016llx,%s\n", (unsigned long long)plain_simhash(&tn, hs), url);
		}
		free(hs);
		free(h);
		free(text);
		if (rc)
			break;
	}
	textnorm_free(&tn);
	if (fflush(stdout) || ferror(stdout))
		rc = 2;
	return rc;
}
