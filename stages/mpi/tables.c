/*
 * tables.c - the permuted tables built and self-joined on P ranks.
 *
 * Rank r holds the fingerprints of document indices [n r / P, n (r+1) / P)
 * of the catalog.  For each table of the design, in turn:
 *
 *   1. every rank permutes its fingerprints into the table's keys and
 *      sends each (key, index) to the rank that owns the key's top bits
 *      (a range of the key space, so rank 0 < rank 1 < ... in key order),
 *      all at once with MPI_Alltoallv;
 *   2. each rank sorts what it received (keysort(): it came in ascending
 *      index order, rank 0's share first, as the sort needs) and joins it
 *      (join_scan()): the owner is decided by leading bits only, so a run
 *      of equal leading bits is never cut between ranks and every pair
 *      within k is found by exactly one rank, in the first table whose
 *      leading blocks it agrees on, as on one machine;
 *   3. with --raw, rank 0 writes the sorted table as ndd-permute-sort
 *      would (its Huffman code from the summed histograms, then every
 *      rank's records in rank order, received a chunk at a time), for
 *      ndd-compress to read.
 *
 * At the end the pairs go to rank 0, a chunk at a time, into a pair file
 * (tables/pairfile.h) for ndd-self-join --found-pairs.  Each rank keeps
 * about 32 bytes per fingerprint of its share; rank 0 no more than that
 * plus a chunk.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/catalog.h"
#include "format/catalog_share.h"
#include "format/ndf.h"
#include "tables/codec.h"
#include "tables/design.h"
#include "tables/join.h"
#include "tables/keysort.h"
#include "tables/pairfile.h"
#include "tables/tablefile.h"
#include "util/cli.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/threads.h"
#include "rank.h"
#include "steps.h"

/* Records or pairs per message when gathering to rank 0. */
#define CHUNK ((size_t)1 << 18)
/* Top key bits that decide the owning rank (at most; fewer when a table
 * has fewer leading bits). */
#define OWNER_BITS 16

struct topts {
	int k;
	uint32_t design;
	const char *raw, *pairs, *stats;
	const char **inputs;
	int n_inputs;
};

/* What the job measured, per rank, reduced at the end. */
enum { PH_READ, PH_EXCHANGE, PH_SORT, PH_JOIN, PH_RAW, PH_PAIRS, PH_N };
static const char *const phase_name[PH_N] = {"read", "exchange", "sort", "join",
					      "tables_to_rank0", "pairs_to_rank0"};

struct tstats {
	double secs[PH_N];
	uint64_t sent_bytes;   /* to other ranks in the all-to-all exchanges */
	uint64_t gather_bytes; /* to rank 0: tables and pairs */
	uint64_t max_records;  /* the most of one table this rank held */
	uint64_t comparisons;
	uint64_t pairs; /* rank 0: found by all ranks */
	uint64_t catalog_bytes; /* of the catalog's blocks read (its share's) */
};

static void usage(FILE *fp, int status)
{
	if (mpi_rank == 0)
		fprintf(fp,
			"Usage: ndd-mpi tables -k K [options] FPS...\n"
			"Build the permuted tables of the fingerprint catalog FPS with each table's\n"
			"key range split over the ranks, and join them where they lie.\n\n"
			"  -k, --distance K   Hamming radius (0..8)\n"
			"      --design D     table design (default: as ndd-permute-sort chooses)\n"
			"      --raw FILE     rank 0 writes the sorted tables here, as\n"
			"                     ndd-permute-sort does (a FIFO for ndd-compress)\n"
			"      --pairs FILE   rank 0 writes the pairs here (ndd-self-join\n"
			"                     --found-pairs reads them)\n"
			"      --stats FILE   rank 0 writes the job's measurements as JSON\n"
			"  -t, --threads N    threads per rank\n");
	exit(status);
}

static void parse(struct topts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"distance", required_argument, NULL, 'k'}, {"design", required_argument, NULL, 'D'},
		{"raw", required_argument, NULL, 'r'},      {"pairs", required_argument, NULL, 'p'},
		{"stats", required_argument, NULL, 's'},    {"threads", required_argument, NULL, 't'},
		{"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct cli_common cc = {0};
	int c;
	o->k = -1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "k:t:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, 8); break;
		case 'D':
			if (design_parse(optarg, &o->design)) {
				log_error("--design: bad design '%s'", optarg);
				usage(stderr, EXIT_FAILED);
			}
			break;
		case 'r': o->raw = optarg; break;
		case 'p': o->pairs = optarg; break;
		case 's': o->stats = optarg; break;
		case 't': cc.threads = (int)cli_parse_int("--threads", optarg, 1, 4096); break;
		case 'q': log_set_level(LOG_QUIET); break;
		case 'h': usage(stdout, EXIT_OK); break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if (o->k < 0 || optind >= argc) {
		if (mpi_rank == 0)
			log_error("-k and a fingerprint catalog are required");
		usage(stderr, EXIT_FAILED);
	}
	o->inputs = (const char **)argv + optind;
	o->n_inputs = argc - optind;
	cli_common_finish(&cc);
}

/* ---- this rank's share of the catalog ---- */

struct share {
	uint64_t lo, hi;
	uint64_t *fp;
};

static int share_want(void *ctx, uint64_t idx)
{
	const struct share *s = ctx;
	return idx >= s->lo && idx < s->hi;
}

static int share_record(void *ctx, uint64_t idx, const struct fp_record *r)
{
	struct share *s = ctx;
	if (idx >= s->lo && idx < s->hi)
		s->fp[idx - s->lo] = r->simhash;
	return 0;
}

static int skip_all(void *ctx, uint64_t idx)
{
	(void)ctx;
	(void)idx;
	return 0;
}

static int count_only(void *ctx, uint64_t idx, const struct fp_record *r)
{
	(void)ctx;
	(void)idx;
	(void)r;
	return 0;
}

/* An input that cannot be read by index (catalog_share.h): rank 0 counts
 * the catalog (a pass that decodes nothing), every rank then reads it
 * all, decoding its share.  @return 0 or -1, the same on every rank. */
static int scan_share(const struct topts *o, struct share *s, struct catalog_info *info)
{
	uint64_t head[4] = {0};
	int rc = 0;
	if (mpi_rank == 0) {
		const struct catalog_visitor v = {.record = count_only, .want = skip_all};
		rc = catalog_scan(o->inputs, o->n_inputs, &v, info) ? -1 : 0;
		if (!rc && info->n_records >= UINT32_MAX) {
			log_error("%llu fingerprints: more than one table can index (2^32 - 1)",
				  (unsigned long long)info->n_records);
			rc = -1;
		}
		head[0] = info->n_records;
		head[1] = info->dataset_id;
		head[2] = info->feature_config;
	}
	if (mpi_agree(rc ? EXIT_FAILED : 0, "reading the catalog") > 1)
		return -1;
	if ((rc = MPI_Bcast(head, 4, MPI_UINT64_T, 0, MPI_COMM_WORLD)) != MPI_SUCCESS)
		return mpi_fail(rc, "sharing the catalog's size");
	mpi_share(head[0], mpi_rank, mpi_size, &s->lo, &s->hi);
	s->fp = xmalloc((size_t)(s->hi - s->lo + 1) * sizeof *s->fp);
	struct catalog_info mine;
	const struct catalog_visitor v = {.record = share_record, .want = share_want, .ctx = s};
	rc = catalog_scan(o->inputs, o->n_inputs, &v, &mine) ? -1 : 0;
	if (!rc && (mine.n_records != head[0] || mine.dataset_id != head[1])) {
		log_error("rank %d: the catalog changed while it was read", mpi_rank);
		rc = -1;
	}
	*info = mine;
	return mpi_agree(rc ? EXIT_FAILED : 0, "reading the catalog") > 1 ? -1 : 0;
}

/* This rank's share of the catalog, read by the sections' block indexes
 * (only the blocks that hold it); every rank checks that it saw the
 * catalog rank 0 saw.  @return 0 or -1, the same on every rank. */
static int read_share(const struct topts *o, struct share *s, struct catalog_info *info,
		      uint64_t *bytes_read)
{
	struct catalog_share sh;
	int rc = catalog_share(o->inputs, o->n_inputs, (uint64_t)mpi_rank, (uint64_t)mpi_size, &sh,
			       info);
	int indexed = rc != CATALOG_NOT_INDEXED, all = 0;
	const int mrc = MPI_Allreduce(&indexed, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (mrc != MPI_SUCCESS) {
		free(sh.fp);
		return mpi_fail(mrc, "reading the catalog");
	}
	if (!all) {
		free(sh.fp);
		return scan_share(o, s, info);
	}
	if (!rc && info->n_records >= UINT32_MAX) {
		if (mpi_rank == 0)
			log_error("%llu fingerprints: more than one table can index (2^32 - 1)",
				  (unsigned long long)info->n_records);
		rc = -1;
	}
	s->lo = sh.lo;
	s->hi = sh.hi;
	s->fp = sh.fp;
	*bytes_read = sh.bytes_read;
	if (mpi_agree(rc ? EXIT_FAILED : 0, "reading the catalog") > 1)
		return -1;
	uint64_t head[2] = {info->n_records, info->dataset_id};
	if ((rc = MPI_Bcast(head, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD)) != MPI_SUCCESS)
		return mpi_fail(rc, "sharing the catalog's size");
	rc = head[0] != info->n_records || head[1] != info->dataset_id;
	if (rc)
		log_error("rank %d: the catalog changed while it was read", mpi_rank);
	log_debug("rank %d: fingerprints [%llu, %llu) from %llu blocks, %llu bytes", mpi_rank,
		  (unsigned long long)sh.lo, (unsigned long long)sh.hi,
		  (unsigned long long)sh.blocks_read, (unsigned long long)sh.bytes_read);
	return mpi_agree(rc ? EXIT_FAILED : 0, "reading the catalog") > 1 ? -1 : 0;
}

/* ---- one table ---- */

struct job {
	const struct topts *o;
	const struct design *d;
	const struct catalog_info *info;
	struct share s;
	MPI_Datatype rec_type, pair_type;
	struct table_rec *send; /* the records out; then the sort's scratch and the join's arrays */
	size_t send_cap;
	struct table_rec *recv; /* this rank's part of the table, sorted */
	size_t recv_cap;
	int *scount, *sdispl, *rcount, *rdispl, *tcount; /* tcount: per thread and rank */
	struct pair_vec pairs;
	struct outfile raw_out;
	struct ndf_writer *raw;
	struct tstats st;
};

static inline int owner(uint64_t key, unsigned bits, int p)
{
	if (!bits)
		return 0;
	return (int)(((key >> (64 - bits)) * (uint64_t)p) >> bits);
}

static void grow(struct table_rec **a, size_t *cap, size_t n)
{
	if (n > *cap) {
		free(*a);
		*a = xmalloc(n * sizeof **a);
		*cap = n;
	}
}

/* Step 1: the keys of table @t to their owners; @return the records
 * received, or -1. */
static long long exchange(struct job *j, uint32_t t)
{
	const struct design_table *dt = &j->d->tables[t];
	const unsigned bits = dt->lead_bits < OWNER_BITS ? dt->lead_bits : OWNER_BITS;
	const size_t n = (size_t)(j->s.hi - j->s.lo);
	const int P = mpi_size, T = threads_max();
	struct design_lut lut;
	design_lut_build(dt, &lut);
	memset(j->tcount, 0, (size_t)T * (size_t)P * sizeof *j->tcount);
	/* Counted, then placed, by the same static chunks per thread: each
	 * rank's records leave in ascending index order. */
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		j->tcount[threads_id() * P + owner(design_lut_permute(&lut, j->s.fp[i]), bits, P)]++;
	size_t at = 0;
	for (int r = 0; r < P; r++) {
		j->sdispl[r] = (int)at;
		for (int th = 0; th < T; th++) {
			const int c = j->tcount[th * P + r];
			j->tcount[th * P + r] = (int)at;
			at += (size_t)c;
		}
		j->scount[r] = (int)(at - (size_t)j->sdispl[r]);
	}
#pragma omp parallel
	{
		int *pos = j->tcount + threads_id() * P;
#pragma omp for schedule(static)
		for (size_t i = 0; i < n; i++) {
			const uint64_t key = design_lut_permute(&lut, j->s.fp[i]);
			struct table_rec *to = &j->send[pos[owner(key, bits, P)]++];
			to->key = key;
			to->idx = (uint32_t)(j->s.lo + i);
		}
	}
	int rc = MPI_Alltoall(j->scount, 1, MPI_INT, j->rcount, 1, MPI_INT, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		return mpi_fail(rc, "exchanging the table's counts");
	long long m = 0;
	for (int r = 0; r < P; r++) {
		if (m > INT32_MAX - (long long)j->rcount[r]) {
			log_error("rank %d: more than 2^31 records of one table: use more ranks",
				  mpi_rank);
			return -1;
		}
		j->rdispl[r] = (int)m;
		m += j->rcount[r];
		if (r != mpi_rank)
			j->st.sent_bytes += (uint64_t)j->scount[r] * TABLE_RAW_RECORD;
	}
	grow(&j->recv, &j->recv_cap, (size_t)m + 1);
	rc = MPI_Alltoallv(j->send, j->scount, j->sdispl, j->rec_type, j->recv, j->rcount,
			   j->rdispl, j->rec_type, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		return mpi_fail(rc, "exchanging the table's records");
	return m;
}

/* Step 2: sort and join the @m records received. */
static int sort_and_join(struct job *j, uint32_t t, size_t m)
{
	double t0 = log_wall();
	grow(&j->send, &j->send_cap, m + 1);
	keysort(j->recv, j->send, m);
	j->st.secs[PH_SORT] += log_wall() - t0;
	t0 = log_wall();
	/* join_scan() wants keys and indices apart: 12 bytes a record, the
	 * scratch the sort is done with */
	uint64_t *keys = (uint64_t *)(void *)j->send;
	uint32_t *idx = (uint32_t *)(keys + m);
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < m; i++) {
		keys[i] = j->recv[i].key;
		idx[i] = j->recv[i].idx;
	}
	const uint32_t lead = j->d->tables[t].lead_bits;
	const int np = threads_max() * 4;
	struct pair_vec *part = xcalloc((size_t)np, sizeof *part);
	uint64_t cmp = 0;
	int bad = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : cmp) reduction(| : bad)
	for (int i = 0; i < np; i++) {
		const size_t lo = join_align(keys, m, m * (size_t)i / (size_t)np, lead);
		const size_t hi = join_align(keys, m, m * (size_t)(i + 1) / (size_t)np, lead);
		uint64_t c = 0;
		if (lo < hi && join_scan(j->d, t, keys + lo, idx + lo, hi - lo, &part[i], &c))
			bad = 1;
		cmp += c;
	}
	for (int i = 0; i < np; i++) {
		bad |= pair_vec_append(&j->pairs, &part[i]);
		pair_vec_free(&part[i]);
	}
	free(part);
	j->st.comparisons += cmp;
	j->st.secs[PH_JOIN] += log_wall() - t0;
	if (bad)
		log_error("rank %d: out of memory for the pairs", mpi_rank);
	return bad ? -1 : 0;
}

/* ---- step 3: the sorted table, written by rank 0 ---- */

struct raw_block {
	uint8_t buf[TABLE_RAW_BLOCK_RECORDS * TABLE_RAW_RECORD];
	size_t n;
	uint64_t first_key;
};

static int raw_add(struct ndf_writer *w, struct raw_block *b, const struct table_rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (b->n == 0)
			b->first_key = r[i].key;
		tablefile_put_raw(b->buf + b->n * TABLE_RAW_RECORD, r[i].key, r[i].idx);
		if (++b->n == TABLE_RAW_BLOCK_RECORDS) {
			if (ndf_write_block(w, (uint32_t)b->n, NDF_CODEC_RAW, b->first_key, b->buf,
					    b->n * TABLE_RAW_RECORD))
				return -1;
			b->n = 0;
		}
	}
	return 0;
}

/* The code over the whole table: every rank's transitions, and those
 * between one rank's last key and the next non-empty rank's first. */
static int table_code(struct job *j, size_t m, uint8_t code_bytes[64])
{
	uint64_t *hist = xcalloc(CODEC_SYMBOLS, sizeof *hist);
	uint64_t *sum = xcalloc(CODEC_SYMBOLS, sizeof *sum);
	uint64_t ends[3] = {m ? 1 : 0, m ? j->recv[0].key : 0, m ? j->recv[m - 1].key : 0};
	uint64_t *all = xcalloc((size_t)mpi_size * 3, sizeof *all);
	uint64_t *keys = (uint64_t *)(void *)j->send; /* still this table's keys */
	codec_histogram(keys, m, hist);
	int rc = MPI_Reduce(hist, sum, CODEC_SYMBOLS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(ends, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		rc = mpi_fail(rc, "summing the table's code");
	if (!rc && mpi_rank == 0) {
		int started = 0;
		uint64_t last = 0;
		for (int r = 0; r < mpi_size; r++) {
			if (!all[3 * r])
				continue;
			if (started)
				sum[codec_symbol(last, all[3 * r + 1])]++;
			last = all[3 * r + 2];
			started = 1;
		}
		struct codec code;
		if (codec_build(&code, sum)) {
			log_error("cannot build a table's Huffman code");
			rc = -1;
		} else {
			codec_serialize(&code, code_bytes);
		}
	}
	free(hist);
	free(sum);
	free(all);
	return rc;
}

static int raw_table(struct job *j, uint32_t t, size_t m)
{
	uint8_t code[64];
	int rc;
	if (table_code(j, m, code))
		return -1;
	if (mpi_rank != 0) {
		/* to rank 0, in chunks, when it asks (it takes the ranks in order) */
		uint64_t n = m;
		rc = MPI_Send(&n, 1, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
		for (size_t i = 0; rc == MPI_SUCCESS && i < m; i += CHUNK) {
			const size_t c = m - i < CHUNK ? m - i : CHUNK;
			rc = MPI_Send(j->recv + i, (int)c, j->rec_type, 0, 2, MPI_COMM_WORLD);
			j->st.gather_bytes += c * TABLE_RAW_RECORD;
		}
		return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "sending the table to rank 0");
	}
	struct ndf_header h;
	tablefile_header(&h, NDF_KIND_TABLE, j->d, t, j->info->feature_config, j->info->dataset_id);
	h.aux = j->info->n_records; /* ahead of the records, for compress */
	struct ndf_writer *w = ndf_writer_open(j->raw_out.fp, j->raw_out.display, &h);
	if (!w)
		return -1;
	struct raw_block *b = xcalloc(1, sizeof *b);
	struct table_rec *chunk = xmalloc(CHUNK * sizeof *chunk);
	int bad = ndf_write_block(w, 0, NDF_CODEC_CODE, 0, code, codec_serialized_size()) ||
		  raw_add(w, b, j->recv, m);
	for (int r = 1; r < mpi_size; r++) {
		uint64_t n = 0;
		rc = MPI_Recv(&n, 1, MPI_UINT64_T, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (uint64_t i = 0; rc == MPI_SUCCESS && i < n; i += CHUNK) {
			const size_t c = n - i < CHUNK ? (size_t)(n - i) : CHUNK;
			rc = MPI_Recv(chunk, (int)c, j->rec_type, r, 2, MPI_COMM_WORLD,
				      MPI_STATUS_IGNORE);
			bad = bad || (rc == MPI_SUCCESS && raw_add(w, b, chunk, c));
		}
		if (rc != MPI_SUCCESS) {
			bad = mpi_fail(rc, "receiving a table part");
			break;
		}
	}
	if (!bad && b->n)
		bad = ndf_write_block(w, (uint32_t)b->n, NDF_CODEC_RAW, b->first_key, b->buf,
				      b->n * TABLE_RAW_RECORD) != 0;
	if (bad)
		ndf_writer_abort(w);
	else
		bad = ndf_writer_finish(w) != 0;
	free(chunk);
	free(b);
	return bad ? -1 : 0;
}

/* ---- the pairs, to rank 0 ---- */

static int gather_pairs(struct job *j)
{
	uint64_t n = j->pairs.n, cmp = j->st.comparisons, total_cmp = 0;
	uint64_t *counts = xcalloc((size_t)mpi_size, sizeof *counts);
	int rc = MPI_Gather(&n, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rc == MPI_SUCCESS)
		rc = MPI_Reduce(&cmp, &total_cmp, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS) {
		free(counts);
		return mpi_fail(rc, "counting the pairs");
	}
	if (mpi_rank != 0) {
		for (size_t i = 0; rc == MPI_SUCCESS && i < j->pairs.n; i += CHUNK) {
			const size_t c = j->pairs.n - i < CHUNK ? j->pairs.n - i : CHUNK;
			rc = MPI_Send(j->pairs.v + i, (int)c, j->pair_type, 0, 3, MPI_COMM_WORLD);
			j->st.gather_bytes += c * sizeof *j->pairs.v;
		}
		free(counts);
		return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "sending the pairs to rank 0");
	}
	struct pairfile_info pi = {.k = j->d->k, .design_code = j->d->code,
				   .n_tables = j->d->n_tables, .records = j->info->n_records,
				   .comparisons = total_cmp, .dataset_id = j->info->dataset_id};
	for (int r = 0; r < mpi_size; r++)
		pi.n_pairs += counts[r];
	j->st.pairs = pi.n_pairs;
	struct outfile out;
	struct pairfile_writer w;
	int bad = j->o->pairs ? outfile_open(&out, j->o->pairs) : 0;
	const int write = j->o->pairs && !bad;
	if (write)
		bad = pairfile_begin(&w, out.fp, out.display, &pi) ||
		      pairfile_write(&w, j->pairs.v, j->pairs.n);
	struct pair *chunk = xmalloc(CHUNK * sizeof *chunk);
	for (int r = 1; r < mpi_size; r++)
		for (uint64_t i = 0; rc == MPI_SUCCESS && i < counts[r]; i += CHUNK) {
			const size_t c = counts[r] - i < CHUNK ? (size_t)(counts[r] - i) : CHUNK;
			rc = MPI_Recv(chunk, (int)c, j->pair_type, r, 3, MPI_COMM_WORLD,
				      MPI_STATUS_IGNORE);
			if (rc == MPI_SUCCESS && write && !bad)
				bad = pairfile_write(&w, chunk, c);
		}
	free(chunk);
	free(counts);
	if (rc != MPI_SUCCESS)
		bad = mpi_fail(rc, "receiving the pairs");
	if (write) {
		if (bad) {
			pairfile_abort(&w);
			outfile_abort(&out);
		} else if (pairfile_end(&w) || outfile_commit(&out)) {
			bad = -1;
		}
	}
	log_info("%llu pairs, %llu comparisons", (unsigned long long)pi.n_pairs,
		 (unsigned long long)total_cmp);
	return bad ? -1 : 0;
}

/* ---- the measurements ---- */

static int write_stats(const struct job *j, double secs)
{
	const int P = mpi_size;
	double *ph = xcalloc(PH_N, sizeof *ph);
	enum { NS = 6 };
	uint64_t mine[NS] = {(uint64_t)log_peak_rss_kb(), j->st.sent_bytes, j->st.gather_bytes,
			     j->st.max_records, (uint64_t)(log_cpu() * 1000), j->st.catalog_bytes};
	uint64_t *all = xcalloc((size_t)P * NS, sizeof *all);
	int rc = MPI_Reduce(j->st.secs, ph, PH_N, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rc == MPI_SUCCESS)
		rc = MPI_Gather(mine, NS, MPI_UINT64_T, all, NS, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS) {
		free(ph);
		free(all);
		return mpi_fail(rc, "gathering the measurements");
	}
	if (mpi_rank == 0 && j->o->stats) {
		struct outfile out;
		if (outfile_open(&out, j->o->stats)) {
			rc = -1;
		} else {
			FILE *f = out.fp;
			uint64_t sent = 0, gathered = 0;
			for (int r = 0; r < P; r++) {
				sent += all[NS * r + 1];
				gathered += all[NS * r + 2];
			}
			fprintf(f, "{\n  \"ranks\": %d,\n  \"threads_per_rank\": %d,\n", P,
				threads_max());
			fprintf(f, "  \"fingerprints\": %llu,\n  \"k\": %u,\n  \"tables\": %u,\n",
				(unsigned long long)j->info->n_records, j->d->k, j->d->n_tables);
			fprintf(f, "  \"pairs\": %llu,\n", (unsigned long long)j->st.pairs);
			fprintf(f, "  \"bytes_all_to_all\": %llu,\n  \"bytes_to_rank0\": %llu,\n",
				(unsigned long long)sent, (unsigned long long)gathered);
			const char *names[NS] = {"peak_rss_kb", "bytes_sent", "bytes_to_rank0",
						 "most_records_of_a_table", "cpu_ms",
						 "catalog_bytes_read"};
			for (int q = 0; q < NS; q++) {
				fprintf(f, "  \"per_rank_%s\": [", names[q]);
				for (int r = 0; r < P; r++)
					fprintf(f, "%s%llu", r ? ", " : "",
						(unsigned long long)all[NS * r + q]);
				fprintf(f, "],\n");
			}
			fprintf(f, "  \"seconds_slowest_rank\": {");
			for (int p = 0; p < PH_N; p++)
				fprintf(f, "%s\"%s\": %.3f", p ? ", " : "", phase_name[p], ph[p]);
			fprintf(f, "},\n  \"seconds\": %.3f\n}\n", secs);
			rc = outfile_commit(&out);
		}
	}
	free(ph);
	free(all);
	return rc;
}

/* ---- the step ---- */

static int build_and_join(struct job *j)
{
	const int P = mpi_size;
	j->scount = xcalloc((size_t)P * 4, sizeof(int));
	j->sdispl = j->scount + P;
	j->rcount = j->scount + 2 * P;
	j->rdispl = j->scount + 3 * P;
	j->tcount = xcalloc((size_t)threads_max() * (size_t)P, sizeof(int));
	grow(&j->send, &j->send_cap, (size_t)(j->s.hi - j->s.lo) + 1);
	int rc = 0;
	for (uint32_t t = 0; t < j->d->n_tables && !rc; t++) {
		double t0 = log_wall();
		const long long m = exchange(j, t);
		j->st.secs[PH_EXCHANGE] += log_wall() - t0;
		rc = mpi_agree(m < 0 ? EXIT_FAILED : 0, "the all-to-all exchange") > 1 ? -1 : 0;
		if (rc)
			break;
		if ((uint64_t)m > j->st.max_records)
			j->st.max_records = (uint64_t)m;
		rc = sort_and_join(j, t, (size_t)m) || (t == 1 && mpi_fault_point("tables"));
		rc = mpi_agree(rc ? EXIT_FAILED : 0, "sorting and joining a table") > 1 ? -1 : 0;
		if (!rc && j->o->raw) {
			t0 = log_wall();
			rc = raw_table(j, t, (size_t)m);
			j->st.secs[PH_RAW] += log_wall() - t0;
			rc = mpi_agree(rc ? EXIT_FAILED : 0, "writing the sorted tables") > 1 ? -1 : 0;
		}
		log_debug("table %u: %lld records here, %zu pairs so far", t, m, j->pairs.n);
	}
	free(j->scount);
	free(j->tcount);
	return rc;
}

int step_tables(int argc, char **argv)
{
	struct topts o = {0};
	struct catalog_info info;
	struct design d;
	struct job j;
	const double t0 = log_wall();
	parse(&o, argc, argv);
	memset(&j, 0, sizeof j);
	j.o = &o;
	j.info = &info;
	j.d = &d;
	if (read_share(&o, &j.s, &info, &j.st.catalog_bytes)) {
		free(j.s.fp);
		return EXIT_FAILED;
	}
	j.st.secs[PH_READ] = log_wall() - t0;
	int rc = design_make(&d, (uint32_t)o.k, o.design ? o.design : design_choose((uint32_t)o.k, info.n_records));
	if (mpi_agree(rc ? EXIT_FAILED : 0, "the table design") > 1) {
		free(j.s.fp);
		return EXIT_FAILED;
	}
	MPI_Type_contiguous(TABLE_RAW_RECORD, MPI_BYTE, &j.rec_type);
	MPI_Type_commit(&j.rec_type);
	MPI_Type_contiguous((int)sizeof(struct pair), MPI_BYTE, &j.pair_type);
	MPI_Type_commit(&j.pair_type);
	rc = 0;
	if (mpi_rank == 0 && o.raw)
		rc = outfile_open(&j.raw_out, o.raw);
	if (mpi_agree(rc ? EXIT_FAILED : 0, "opening the sorted tables' output") <= 1) {
		rc = build_and_join(&j);
		if (mpi_rank == 0 && o.raw) {
			if (rc || outfile_commit(&j.raw_out)) {
				if (rc)
					outfile_abort(&j.raw_out);
				rc = -1;
			}
		}
		rc = mpi_agree(rc ? EXIT_FAILED : 0, "building the tables") > 1 ? -1 : 0;
		free(j.send);
		free(j.recv);
		free(j.s.fp);
		j.send = j.recv = NULL;
		j.s.fp = NULL;
		if (!rc) {
			const double tp = log_wall();
			rc = gather_pairs(&j);
			j.st.secs[PH_PAIRS] = log_wall() - tp;
			rc = mpi_agree(rc ? EXIT_FAILED : 0, "gathering the pairs") > 1 ? -1 : 0;
		}
		if (!rc)
			rc = mpi_agree(write_stats(&j, log_wall() - t0) ? EXIT_FAILED : 0,
				       "writing the measurements") > 1 ? -1 : 0;
	} else {
		rc = -1;
	}
	pair_vec_free(&j.pairs);
	MPI_Type_free(&j.rec_type);
	MPI_Type_free(&j.pair_type);
	design_free(&d);
	free(j.send);
	free(j.recv);
	free(j.s.fp);
	return rc ? EXIT_FAILED : EXIT_OK;
}
