/*
 * catalog_share.c - see catalog_share.h.
 */
#include "format/catalog_share.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "format/ndf_deflate.h"
#include "util/log.h"

struct sec {
	const char *name;
	struct ndf_section *s;
	uint64_t first; /* document index of its first record */
	unsigned layout; /* its record layout */
};

struct secs {
	struct sec *v;
	size_t n, cap;
	FILE **files;
	int n_files;
};

static void secs_free(struct secs *a)
{
	for (size_t i = 0; i < a->n; i++)
		ndf_section_close(a->v[i].s);
	for (int i = 0; i < a->n_files; i++)
		if (a->files[i])
			fclose(a->files[i]);
	free(a->v);
	free(a->files);
}

static int check_header(const struct ndf_header *h, const char *name, struct catalog_info *info)
{
	if (h->kind != NDF_KIND_FPS || !fprec_layout_readable(h->aux)) {
		log_error("'%s': not fingerprints of record layout 0, 2 or %d", name, FPREC_VERSION);
		return NDF_ERR_PARAMS;
	}
	if (info->n_sections == 0) {
		info->feature_config = h->feature_config;
		info->simhash_bits = h->simhash_bits;
	} else if (h->feature_config != info->feature_config ||
		   h->simhash_bits != info->simhash_bits) {
		log_error("'%s': fingerprints made with another configuration; they cannot be joined",
			  name);
		return NDF_ERR_PARAMS;
	}
	return 0;
}

/* Every section of @fp (@name) onto @a.  @return as catalog_share(). */
static int open_sections(FILE *fp, const char *name, struct secs *a, struct catalog_info *info)
{
	struct stat st;
	if (fstat(fileno(fp), &st) || !S_ISREG(st.st_mode))
		return CATALOG_NOT_INDEXED;
	uint64_t off = 0;
	if (st.st_size == 0) {
		log_error("'%s': empty input, no fingerprints", name);
		return NDF_ERR_TRUNCATED;
	}
	while (off < (uint64_t)st.st_size) {
		int err;
		/* the header alone first: a section written to a pipe has no
		 * index to read by, and is no error */
		if (fseeko(fp, (off_t)off, SEEK_SET))
			return NDF_ERR_IO;
		struct ndf_reader *r = ndf_reader_open(fp, name, &err);
		if (!r)
			return err ? err : NDF_ERR_TRUNCATED;
		const int streamed = !!(ndf_reader_header(r)->flags & NDF_FLAG_STREAMED);
		ndf_reader_close(r);
		if (streamed)
			return CATALOG_NOT_INDEXED;
		if (a->n == a->cap) {
			struct sec *g = realloc(a->v, (a->cap = a->cap ? 2 * a->cap : 8) * sizeof *g);
			if (!g)
				return NDF_ERR_NOMEM;
			a->v = g;
		}
		struct sec *s = &a->v[a->n];
		if ((err = ndf_section_open(fp, name, off, &s->s)))
			return err;
		a->n++;
		s->name = name;
		s->first = info->n_records;
		const struct ndf_header *h = ndf_section_header(s->s);
		if ((err = check_header(h, name, info)))
			return err;
		s->layout = (unsigned)h->aux;
		info->n_records += h->record_count;
		info->dataset_id = catalog_dataset_next(info->dataset_id, h);
		info->n_sections++;
		off = ndf_section_end(s->s);
	}
	return 0;
}

/* The records of block @b, codec 0, at [@p, @end): as take_block() below. */
static int take_records(const struct ndf_block *b, const struct sec *s, uint64_t first,
			struct catalog_share *out, const uint8_t *p, const uint8_t *end)
{
	const char *name = s->name;
	for (uint32_t i = 0; i < b->n_records; i++) {
		const uint64_t idx = first + i;
		const int mine = idx >= out->lo && idx < out->hi;
		struct fp_record rec;
		if (mine ? fprec_decode_layout(&p, end, &rec, s->layout)
			 : fprec_skip_layout(&p, end, s->layout)) {
			log_error("'%s': offset %llu: malformed fingerprint record %u of the block",
				  name, (unsigned long long)b->offset, i);
			return NDF_ERR_FORMAT;
		}
		if (mine)
			out->fp[idx - out->lo] = rec.simhash;
	}
	if (p != end) {
		log_error("'%s': offset %llu: block has bytes after its last record", name,
			  (unsigned long long)b->offset);
		return NDF_ERR_FORMAT;
	}
	return 0;
}

/* Records of block @b (document indices from @first) within the share
 * into @out.  @return 0 or a negative ndf_err (logged). */
static int take_block(const struct ndf_block *b, const struct sec *s, uint64_t first,
		      struct catalog_share *out)
{
	const char *name = s->name;
	struct ndf_unpacked u = {NULL, 0, NULL};
	const uint8_t *p;
	size_t n;
	int rc = ndf_block_payload(b, name, &u, &p, &n);
	if (!rc)
		rc = take_records(b, s, first, out, p, p + n);
	ndf_unpacked_free(&u);
	return rc;
}

/* The blocks of section @s that hold records of the share. */
static int read_section(struct sec *s, struct catalog_share *out, struct ndf_block *b)
{
	const struct ndf_header *h = ndf_section_header(s->s);
	uint64_t n_blocks;
	const struct ndf_index_entry *ix = ndf_section_index(s->s, &n_blocks);
	for (uint64_t i = 0; i < n_blocks; i++) {
		const uint64_t from = s->first + ix[i].first_record;
		const uint64_t to = s->first + (i + 1 < n_blocks ? ix[i + 1].first_record
								 : h->record_count);
		if (to <= out->lo || from >= out->hi)
			continue;
		int err = ndf_section_read_block(s->s, i, b);
		if (err)
			return err;
		if (b->n_records != to - from) {
			log_error("'%s': block at offset %llu holds %u records, its index %llu",
				  s->name, (unsigned long long)ix[i].offset, b->n_records,
				  (unsigned long long)(to - from));
			return NDF_ERR_FORMAT;
		}
		out->blocks_read++;
		out->bytes_read += b->len;
		if ((err = take_block(b, s, from, out)))
			return err;
	}
	return 0;
}

int catalog_share(const char *const *paths, int n, uint64_t part, uint64_t parts,
		  struct catalog_share *out, struct catalog_info *info)
{
	struct secs a = {0};
	int rc = 0;
	memset(out, 0, sizeof *out);
	memset(info, 0, sizeof *info);
	a.files = calloc((size_t)n + 1, sizeof *a.files);
	if (!a.files)
		return NDF_ERR_NOMEM;
	for (int i = 0; i < n && !rc; i++) {
		if (!strcmp(paths[i], "-")) {
			rc = CATALOG_NOT_INDEXED;
			break;
		}
		FILE *fp = fopen(paths[i], "rb");
		if (!fp) {
			log_error("cannot open '%s': %s", paths[i], strerror(errno));
			rc = NDF_ERR_IO;
			break;
		}
		a.files[a.n_files++] = fp;
		rc = open_sections(fp, paths[i], &a, info);
	}
	if (!rc) {
		out->lo = info->n_records * part / parts;
		out->hi = info->n_records * (part + 1) / parts;
		out->fp = malloc((size_t)(out->hi - out->lo + 1) * sizeof *out->fp);
		if (!out->fp) {
			log_error("out of memory for %llu fingerprints",
				  (unsigned long long)(out->hi - out->lo));
			rc = NDF_ERR_NOMEM;
		}
	}
	struct ndf_block b = {0};
	for (size_t i = 0; i < a.n && !rc; i++)
		rc = read_section(&a.v[i], out, &b);
	ndf_block_free(&b);
	secs_free(&a);
	if (rc) {
		free(out->fp);
		out->fp = NULL;
	}
	return rc;
}
