/*
 * fpspeed.c - the default fingerprint alone, in memory: the fingerprint
 * stage's hashing work without reading, decoding or writing, timed in CPU
 * seconds of the thread, best of several passes.
 *
 *   build/bench/fpspeed DOCS [PASSES]   (run by bench/fpspeed.sh)
 *
 * On a machine shared with other benchmarks the stage's CPU time moves by
 * 10% from run to run; the best of a few passes over texts already in
 * memory moves by about 2%, enough to see a 3% change.  Prints one line:
 * "hash-only: N documents, X MB text, best T s CPU, R MB/CPU-s".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "fingerprint/docfp.h"

struct texts {
	char **p;
	size_t *len;
	size_t n, cap, bytes;
};

static double thread_cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int texts_add(struct texts *t, const struct str *s)
{
	if (t->n == t->cap) {
		const size_t cap = t->cap ? 2 * t->cap : 4096;
		char **p = realloc(t->p, cap * sizeof *p);
		if (p)
			t->p = p;
		size_t *len = realloc(t->len, cap * sizeof *len);
		if (len)
			t->len = len;
		if (!p || !len)
			return -1;
		t->cap = cap;
	}
	char *c = malloc(s->n + 1u);
	if (!c)
		return -1;
	memcpy(c, s->p, s->n);
	t->p[t->n] = c;
	t->len[t->n++] = s->n;
	t->bytes += s->n;
	return 0;
}

/* The main texts of every record of the raw DOCS blocks of @r. */
static int read_texts(struct ndf_reader *r, struct texts *t)
{
	struct ndf_block b = {0};
	char *tb = NULL; /* docrec_text()'s buffer */
	size_t tcap = 0;
	int rc;
	while ((rc = ndf_read_block(r, &b)) > 0) {
		if (b.codec != NDF_CODEC_RAW) {
			fprintf(stderr, "fpspeed: block codec %u: only raw DOCS blocks\n", b.codec);
			rc = -1;
			break;
		}
		const uint8_t *p = b.data, *const end = b.data + b.len;
		for (uint32_t i = 0; i < b.n_records && rc > 0; i++) {
			struct doc_record d;
			struct str text;
			if (docrec_decode(&p, end, &d) || docrec_text(&d, &tb, &tcap, &text) ||
			    texts_add(t, &text))
				rc = -1;
		}
		if (rc < 0)
			break;
	}
	ndf_block_free(&b);
	free(tb);
	return rc < 0 ? -1 : 0;
}

/* CPU seconds of one pass of docfp_text() over @t; -1 on failure. */
static double one_pass(struct docfp_ctx *ctx, const struct texts *t, uint64_t *mix)
{
	const double t0 = thread_cpu();
	for (size_t k = 0; k < t->n; k++) {
		uint64_t fp;
		uint32_t flags = 0;
		if (docfp_text(ctx, t->p[k], t->len[k], &fp, &flags))
			return -1;
		*mix ^= fp + k; /* the result is used */
	}
	return thread_cpu() - t0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: fpspeed DOCS [PASSES]\n");
		return 2;
	}
	const int passes = argc == 3 ? atoi(argv[2]) : 3;
	FILE *fp = fopen(argv[1], "rb");
	int err = 0;
	struct ndf_reader *r = fp ? ndf_reader_open(fp, argv[1], &err) : NULL;
	struct texts t = {0};
	const struct docfp_config c = DOCFP_CONFIG_DEFAULT;
	struct docfp_ctx *ctx = docfp_ctx_new(&c);
	int status = 2;
	if (!r || !ctx || read_texts(r, &t)) {
		fprintf(stderr, "fpspeed: cannot read documents from '%s'\n", argv[1]);
		goto out;
	}
	double best = -1;
	uint64_t mix = 0;
	for (int i = 0; i < passes; i++) {
		const double s = one_pass(ctx, &t, &mix);
		if (s < 0)
			goto out;
		best = best < 0 || s < best ? s : best;
	}
	printf("hash-only: %zu documents, %.1f MB text, best %.3f s CPU, %.1f MB/CPU-s (%016llx)\n",
	       t.n, (double)t.bytes / 1e6, best, (double)t.bytes / 1e6 / (best > 0 ? best : 1e-9),
	       (unsigned long long)mix);
	status = 0;
out:
	for (size_t k = 0; k < t.n; k++)
		free(t.p[k]);
	free(t.p);
	free(t.len);
	docfp_ctx_free(ctx);
	if (r)
		ndf_reader_close(r);
	if (fp)
		fclose(fp);
	return status;
}
