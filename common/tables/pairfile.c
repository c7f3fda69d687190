/*
 * pairfile.c - see pairfile.h.
 */
#include "tables/pairfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "util/bytes.h"
#include "util/log.h"

#define MAGIC "NDDPAIR1"
#define HEAD_BYTES 56
#define PAIR_BYTES 12
#define CHUNK 4096 /* pairs encoded at once */

static void encode_head(uint8_t *p, const struct pairfile_info *in)
{
	memcpy(p, MAGIC, 8);
	put_le32(p + 8, in->k);
	put_le32(p + 12, in->design_code);
	put_le32(p + 16, in->n_tables);
	put_le32(p + 20, 0);
	put_le64(p + 24, in->records);
	put_le64(p + 32, in->comparisons);
	put_le64(p + 40, in->dataset_id);
	put_le64(p + 48, in->n_pairs);
}

static int put(struct pairfile_writer *w, const void *p, size_t n)
{
	XXH3_64bits_update(w->xxh, p, n);
	if (fwrite(p, 1, n, w->fp) != n) {
		log_error("cannot write '%s': %s", w->name, strerror(errno));
		return -1;
	}
	return 0;
}

int pairfile_begin(struct pairfile_writer *w, FILE *fp, const char *name,
		   const struct pairfile_info *info)
{
	uint8_t head[HEAD_BYTES];
	memset(w, 0, sizeof *w);
	w->fp = fp;
	w->name = name;
	w->left = info->n_pairs;
	if (!(w->xxh = XXH3_createState())) {
		log_error("out of memory");
		return -1;
	}
	XXH3_64bits_reset(w->xxh);
	encode_head(head, info);
	return put(w, head, sizeof head);
}

int pairfile_write(struct pairfile_writer *w, const struct pair *p, size_t n)
{
	uint8_t buf[CHUNK * PAIR_BYTES];
	if (n > w->left) {
		log_error("'%s': more pairs than its header announced", w->name);
		return -1;
	}
	w->left -= n;
	for (size_t i = 0; i < n; i += CHUNK) {
		const size_t m = n - i < CHUNK ? n - i : CHUNK;
		for (size_t j = 0; j < m; j++) {
			put_le32(buf + j * PAIR_BYTES, p[i + j].a);
			put_le32(buf + j * PAIR_BYTES + 4, p[i + j].b);
			put_le32(buf + j * PAIR_BYTES + 8, p[i + j].d);
		}
		if (put(w, buf, m * PAIR_BYTES))
			return -1;
	}
	return 0;
}

int pairfile_end(struct pairfile_writer *w)
{
	uint8_t sum[8];
	int rc = 0;
	if (w->left) {
		log_error("'%s': %llu pairs fewer than its header announced", w->name,
			  (unsigned long long)w->left);
		rc = -1;
	}
	put_le64(sum, XXH3_64bits_digest(w->xxh));
	if (!rc && fwrite(sum, 1, 8, w->fp) != 8) {
		log_error("cannot write '%s': %s", w->name, strerror(errno));
		rc = -1;
	}
	pairfile_abort(w);
	return rc;
}

void pairfile_abort(struct pairfile_writer *w)
{
	XXH3_freeState(w->xxh);
	w->xxh = NULL;
}

static int bad(const char *path, const char *what)
{
	log_error("'%s' is not a pair file of ndd-mpi: %s", path, what);
	return -1;
}

int pairfile_read(const char *path, struct pair_vec *pv, struct pairfile_info *info)
{
	uint8_t head[HEAD_BYTES], buf[CHUNK * PAIR_BYTES], sum[8];
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		log_error("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	XXH3_state_t *x = XXH3_createState();
	int rc = -1;
	if (!x) {
		log_error("out of memory");
		goto out;
	}
	XXH3_64bits_reset(x);
	if (fread(head, 1, sizeof head, fp) != sizeof head || memcmp(head, MAGIC, 8)) {
		rc = bad(path, "no header");
		goto out;
	}
	XXH3_64bits_update(x, head, sizeof head);
	info->k = get_le32(head + 8);
	info->design_code = get_le32(head + 12);
	info->n_tables = get_le32(head + 16);
	info->records = get_le64(head + 24);
	info->comparisons = get_le64(head + 32);
	info->dataset_id = get_le64(head + 40);
	info->n_pairs = get_le64(head + 48);
	for (uint64_t i = 0; i < info->n_pairs; i += CHUNK) {
		const size_t m = info->n_pairs - i < CHUNK ? (size_t)(info->n_pairs - i) : CHUNK;
		if (fread(buf, PAIR_BYTES, m, fp) != m) {
			rc = bad(path, "truncated");
			goto out;
		}
		XXH3_64bits_update(x, buf, m * PAIR_BYTES);
		for (size_t j = 0; j < m; j++) {
			const uint8_t *p = buf + j * PAIR_BYTES;
			const uint32_t a = get_le32(p), b = get_le32(p + 4), d = get_le32(p + 8);
			if (a >= b || b >= info->records || d > info->k) {
				rc = bad(path, "a pair out of range");
				goto out;
			}
			if (pair_vec_push(pv, a, b, d)) {
				log_error("out of memory for %llu pairs",
					  (unsigned long long)info->n_pairs);
				goto out;
			}
		}
	}
	if (fread(sum, 1, 8, fp) != 8 || get_le64(sum) != XXH3_64bits_digest(x) ||
	    fgetc(fp) != EOF) {
		rc = bad(path, "checksum mismatch or trailing bytes");
		goto out;
	}
	rc = 0;
out:
	XXH3_freeState(x);
	fclose(fp);
	return rc;
}
