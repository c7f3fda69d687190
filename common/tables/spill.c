/*
 * spill.c - see spill.h.  The merge keeps one buffered reader per run and
 * a binary min-heap of the runs by their current record; with runs of
 * hundreds of MB the heap has tens of entries, so its cost is small next
 * to the I/O.
 */
#include "tables/spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "tables/tablefile.h"

#define READ_RECS 5461 /* ~64 KiB per run */

const char *spill_dir(const char *dir)
{
	const char *d = dir ? dir : getenv("TMPDIR");
	return d && *d ? d : "/tmp";
}

FILE *spill_tmpfile(const char *dir)
{
	char path[4096];
	const char *d = spill_dir(dir);
	snprintf(path, sizeof path, "%s/ndd-spill.XXXXXX", d);
	int fd = mkstemp(path);
	if (fd < 0) {
		log_error("cannot create a temporary file in '%s': %s", d, strerror(errno));
		return NULL;
	}
	unlink(path);
	FILE *fp = fdopen(fd, "w+b");
	if (!fp) {
		log_error("cannot open a temporary file in '%s': %s", d, strerror(errno));
		close(fd);
	}
	return fp;
}

struct run {
	FILE *fp;
	uint64_t n;      /* records in the run */
	uint64_t left;   /* records not yet read from the file */
	uint8_t *buf;
	size_t have, at; /* records in buf, next one */
	struct table_rec cur;
};

struct spill_runs {
	char *dir;
	struct run *run;
	size_t n, cap;
};

struct spill_runs *spill_runs_new(const char *dir)
{
	struct spill_runs *s = calloc(1, sizeof *s);
	if (!s || (dir && !(s->dir = strdup(dir)))) {
		free(s);
		log_error("out of memory");
		return NULL;
	}
	return s;
}

size_t spill_runs_count(const struct spill_runs *s)
{
	return s->n;
}

int spill_runs_add(struct spill_runs *s, const struct table_rec *recs, size_t n)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		void *p = realloc(s->run, cap * sizeof *s->run);
		if (!p) {
			log_error("out of memory");
			return -1;
		}
		s->run = p;
		s->cap = cap;
	}
	FILE *fp = spill_tmpfile(s->dir);
	if (!fp)
		return -1;
	struct run *r = &s->run[s->n++];
	memset(r, 0, sizeof *r);
	r->fp = fp;
	r->n = n;
	uint8_t buf[READ_RECS * TABLE_RAW_RECORD];
	for (size_t i = 0; i < n; i += READ_RECS) {
		size_t m = n - i < READ_RECS ? n - i : READ_RECS;
		for (size_t j = 0; j < m; j++) {
			tablefile_put_raw(buf + j * TABLE_RAW_RECORD, recs[i + j].key,
					  (uint32_t)recs[i + j].idx);
		}
		if (fwrite(buf, TABLE_RAW_RECORD, m, fp) != m) {
			log_error("cannot write a temporary file in '%s': %s", spill_dir(s->dir),
				  strerror(errno));
			return -1;
		}
	}
	if (fflush(fp)) {
		log_error("cannot write a temporary file in '%s': %s", spill_dir(s->dir),
			  strerror(errno));
		return -1;
	}
	return 0;
}

/* Back to the run's first record. */
static int run_rewind(struct run *r)
{
	if (fseeko(r->fp, 0, SEEK_SET)) {
		log_error("cannot read back a temporary file: %s", strerror(errno));
		return -1;
	}
	r->left = r->n;
	r->have = r->at = 0;
	return 0;
}

/* Next record of run @r into r->cur; @return 1, 0 at its end, -1 on error. */
static int run_next(struct run *r)
{
	if (r->at == r->have) {
		if (!r->left)
			return 0;
		size_t want = r->left < READ_RECS ? (size_t)r->left : READ_RECS;
		if (!r->buf && !(r->buf = malloc(READ_RECS * TABLE_RAW_RECORD)))
			return -1;
		if (fread(r->buf, TABLE_RAW_RECORD, want, r->fp) != want) {
			log_error("cannot read back a temporary file: %s",
				  ferror(r->fp) ? strerror(errno) : "it is shorter than written");
			return -1;
		}
		r->have = want;
		r->at = 0;
		r->left -= want;
	}
	const uint8_t *p = r->buf + r->at++ * TABLE_RAW_RECORD;
	uint64_t key;
	uint32_t idx;
	tablefile_get_raw(p, &key, &idx);
	r->cur.key = key;
	r->cur.idx = idx;
	return 1;
}

static int less(const struct run *a, const struct run *b)
{
	return a->cur.key < b->cur.key || (a->cur.key == b->cur.key && a->cur.idx < b->cur.idx);
}

static void sift_down(struct run **h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && less(h[c + 1], h[c]))
			c++;
		if (!less(h[c], h[i]))
			return;
		struct run *t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

int spill_runs_merge(struct spill_runs *s, size_t batch,
		     int (*emit)(void *ctx, const struct table_rec *recs, size_t n), void *ctx)
{
	struct run **heap = malloc((s->n + 1) * sizeof *heap);
	struct table_rec *out = malloc((batch + 1) * sizeof *out);
	size_t hn = 0, on = 0;
	int rc = 0;
	if (!heap || !out) {
		log_error("out of memory merging %zu runs", s->n);
		rc = -1;
	}
	for (size_t i = 0; !rc && i < s->n; i++) {
		int got = run_rewind(&s->run[i]) ? -1 : run_next(&s->run[i]);
		if (got < 0)
			rc = -1;
		else if (got)
			heap[hn++] = &s->run[i];
	}
	for (size_t i = hn; !rc && i-- > 0;)
		sift_down(heap, hn, i);
	while (!rc && hn) {
		out[on++] = heap[0]->cur;
		int got = run_next(heap[0]);
		if (got < 0)
			rc = -1;
		else if (!got)
			heap[0] = heap[--hn];
		sift_down(heap, hn, 0);
		if (!rc && (on == batch || hn == 0) && on) {
			rc = emit(ctx, out, on);
			on = 0;
		}
	}
	free(heap);
	free(out);
	return rc;
}

void spill_runs_free(struct spill_runs *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		if (s->run[i].fp)
			fclose(s->run[i].fp);
		free(s->run[i].buf);
	}
	free(s->run);
	free(s->dir);
	free(s);
}
