/*
 * tablefile.c - see tablefile.h.
 */
#include "tables/tablefile.h"

#include <string.h>
#include <sys/stat.h>

#include "util/bytes.h"
#include "util/log.h"

void tablefile_header(struct ndf_header *h, uint32_t kind, const struct design *d,
		      uint32_t t, uint64_t feature_config, uint64_t dataset_id)
{
	memset(h, 0, sizeof *h);
	h->kind = kind;
	h->simhash_bits = 64;
	h->feature_config = feature_config;
	h->dataset_id = dataset_id;
	h->k = d->k;
	h->design_code = d->code;
	h->n_tables = d->n_tables;
	h->table_index = t;
	h->lead_bits = d->tables[t].lead_bits;
	memcpy(h->perm, d->tables[t].perm, 64);
}

int tablefile_check(const struct ndf_header *h, const char *name,
		    const struct ndf_header *first, uint32_t expect)
{
	if (h->kind != NDF_KIND_TABLE && h->kind != NDF_KIND_CTABLE) {
		log_error("'%s': holds %s, expected a table", name, ndf_kind_name(h->kind));
		return NDF_ERR_PARAMS;
	}
	if (h->k != first->k || h->design_code != first->design_code ||
	    h->n_tables != first->n_tables || h->dataset_id != first->dataset_id ||
	    h->feature_config != first->feature_config) {
		log_error("'%s': table %u belongs to another design or catalog than table 0",
			  name, h->table_index);
		return NDF_ERR_PARAMS;
	}
	if (h->table_index != expect) {
		log_error("'%s': found table %u where table %u of %u was expected "
			  "(tables missing or out of order)",
			  name, h->table_index, expect, h->n_tables);
		return NDF_ERR_PARAMS;
	}
	return 0;
}

int tablefile_design(const struct ndf_header *h, const char *name, struct design *d)
{
	if (design_make(d, h->k, h->design_code)) {
		log_error("'%s': unknown table design %u for k = %u", name, h->design_code, h->k);
		return NDF_ERR_PARAMS;
	}
	/* The permutation is rebuilt from the design code and must match the
	 * one recorded: a reader of another version must not misjoin. */
	if (d->n_tables != h->n_tables || h->table_index >= d->n_tables ||
	    memcmp(d->tables[h->table_index].perm, h->perm, 64) ||
	    d->tables[h->table_index].lead_bits != h->lead_bits) {
		log_error("'%s': table %u's permutation does not match design %u for k = %u",
			  name, h->table_index, h->design_code, h->k);
		design_free(d);
		return NDF_ERR_PARAMS;
	}
	return 0;
}

int tablefile_decode_raw(const uint8_t *p, size_t n, uint64_t *keys, uint32_t *idx,
			 uint32_t *max_idx)
{
	uint64_t prev = n ? get_le64(p) : 0;
	uint32_t m = 0;
	int bad = 0;
	for (size_t i = 0; i < n; i++, p += TABLE_RAW_RECORD) {
		uint64_t k;
		uint32_t x;
		tablefile_get_raw(p, &k, &x);
		bad |= k < prev;
		prev = k;
		m = x > m ? x : m;
		keys[i] = k;
		idx[i] = x;
	}
	*max_idx = m;
	return bad;
}

/* glibc ignores the size asked for when setvbuf() gets no buffer, so the
 * buffers are given: static, for they must outlive the stream, which may
 * be stdin or stdout (a stage has one table input and one output). */
#define PIPE_BUFFER ((size_t)1 << 20)
static char g_pipe_buffer[2][PIPE_BUFFER];
static int g_pipe_buffers_used;

void tablefile_pipe_buffer(FILE *fp)
{
	struct stat st;
	if (fp && g_pipe_buffers_used < 2 && fstat(fileno(fp), &st) == 0 && S_ISFIFO(st.st_mode) &&
	    setvbuf(fp, g_pipe_buffer[g_pipe_buffers_used], _IOFBF, PIPE_BUFFER) == 0)
		g_pipe_buffers_used++;
}
