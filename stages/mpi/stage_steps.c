/*
 * stage_steps.c - extract and fingerprint on every rank: each rank runs
 * the stage program's own main() (linked in, renamed) on its share of
 * the input, so a rank's documents and fingerprints are byte for byte
 * what the one-machine stage writes for those inputs; rank 0 then joins
 * the fingerprint parts into the one catalog the one-machine run writes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "format/ndf_batch.h"
#include "format/ndf_deflate.h"
#include "util/cli.h"
#include "util/log.h"
#include "util/names0.h"
#include "util/outfile.h"
#include "rank.h"
#include "steps.h"

/* ndd-fingerprint's output block target: the joined catalog is cut into
 * blocks where the one-machine stage cuts its own (the tests compare the
 * bytes). */
#define FPS_BLOCK_TARGET (1u << 20)

static char *part_path(const char *work, const char *what, int r, const char *ext)
{
	const size_t n = strlen(work) + strlen(what) + 32;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s.%d.%s", work, what, r, ext);
	return p;
}

/* The stages' argv: writable strings, as main() gets them. */
static char a_extract[] = "ndd-extract", a_fingerprint[] = "ndd-fingerprint",
	    a_base[] = "--file-base", a_stats[] = "--stats", a_out[] = "-o";

/* Run a stage's main() on @argv[0..argc); its exit status. */
static int run_stage(int (*stage_main)(int, char **), int argc, char **argv)
{
	optind = 0; /* glibc: a fresh getopt for the stage's own parse */
	argv[argc] = NULL;
	return stage_main(argc, argv);
}

/*
 * The files in order, cut into P contiguous runs of about equal bytes:
 * file i goes to the rank where its middle byte falls.  Contiguous, so
 * rank 0's documents come first, then rank 1's, ...: the one-machine
 * order.
 */
static void file_share(char **files, int n, int *first, int *count)
{
	double total = 0, before = 0;
	double *size = xcalloc((size_t)n + 1, sizeof *size);
	for (int i = 0; i < n; i++) {
		struct stat st;
		size[i] = stat(files[i], &st) ? 1 : (double)st.st_size + 1;
		total += size[i];
	}
	*first = -1;
	*count = 0;
	for (int i = 0; i < n; i++) {
		int r = (int)((before + size[i] / 2) * mpi_size / total);
		r = r >= mpi_size ? mpi_size - 1 : r;
		if (r == mpi_rank) {
			if (*first < 0)
				*first = i;
			(*count)++;
		}
		before += size[i];
	}
	free(size);
}

int step_extract(int argc, char **argv)
{
	int dash = 2;
	while (dash < argc && strcmp(argv[dash], "--"))
		dash++;
	/* --files0-from LIST among the options: the names from LIST, as
	 * ndd-extract takes them (a night's thousands of names do not fit
	 * mpirun's argument list) */
	const char *list = NULL;
	int n_opts = 0;
	char **opts = xcalloc((size_t)argc + 1, sizeof *opts);
	for (int i = 2; i < dash; i++) {
		if (!strcmp(argv[i], "--files0-from") && i + 1 < dash)
			list = argv[++i];
		else if (!strncmp(argv[i], "--files0-from=", 14))
			list = argv[i] + 14;
		else
			opts[n_opts++] = argv[i];
	}
	char **files = argv + dash + 1, **listed = NULL;
	int n_files = dash < argc ? argc - dash - 1 : 0;
	if (argc < 2 || (list ? n_files > 0 : n_files < 1)) {
		if (mpi_rank == 0)
			log_error("usage: ndd-mpi extract WORK [ndd-extract options] "
				  "{--files0-from LIST | -- FILE...}");
		free(opts);
		return EXIT_FAILED;
	}
	int status = EXIT_OK;
	if (list) {
		/* every rank reads the list: it lies where the ranks see WORK */
		n_files = names0_read(list, &listed);
		files = listed;
		if (n_files < 1 && mpi_rank == 0 && n_files == 0)
			log_error("--files0-from '%s' names no file", list);
		if (n_files < 1)
			status = EXIT_FAILED;
	}
	status = mpi_agree(status, "reading the input list");
	if (status > 1) {
		names0_free(listed);
		free(opts);
		return status;
	}
	const char *work = argv[1];
	int first, count;
	file_share(files, n_files, &first, &count);
	if (count) {
		char **a = xcalloc((size_t)(n_opts + count + 8), sizeof *a);
		char base[24];
		int n = 0;
		a[n++] = a_extract;
		for (int i = 0; i < n_opts; i++)
			a[n++] = opts[i];
		snprintf(base, sizeof base, "%d", first);
		a[n++] = a_base;
		a[n++] = base;
		char *stats = part_path(work, "extract", mpi_rank, "json");
		char *docs = part_path(work, "docs", mpi_rank, "ndf");
		a[n++] = a_stats;
		a[n++] = stats;
		a[n++] = a_out;
		a[n++] = docs;
		for (int i = 0; i < count; i++)
			a[n++] = files[first + i];
		status = mpi_fault_point("extract") ? EXIT_FAILED : run_stage(ndd_extract_main, n, a);
		free(stats);
		free(docs);
		free(a);
	}
	log_init("ndd-mpi");
	names0_free(listed);
	free(opts);
	return mpi_agree(status, "extract");
}

/* Append every record of the FPS sections of @path to @b. */
static int join_part(const char *path, struct ndf_batch *b, uint64_t *feature_config,
		     int *have_config)
{
	FILE *fp = fopen(path, "rb");
	struct ndf_block blk = {0};
	struct ndf_unpacked u = {NULL, 0, NULL};
	int err = 0, got = 0;
	if (!fp) {
		log_error("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	struct ndf_reader *r;
	while (!err && (r = ndf_reader_open(fp, path, &err))) {
		const struct ndf_header *h = ndf_reader_header(r);
		if (h->kind != NDF_KIND_FPS || h->aux != FPREC_VERSION ||
		    (*have_config && h->feature_config != *feature_config)) {
			log_error("'%s': not a fingerprint part of this run", path);
			err = NDF_ERR_PARAMS;
		}
		*feature_config = h->feature_config;
		*have_config = 1;
		while (!err && (got = ndf_read_block(r, &blk)) > 0) {
			const uint8_t *in;
			size_t len;
			if ((err = ndf_block_payload(&blk, path, &u, &in, &len)))
				break;
			const uint8_t *const end = in + len;
			for (uint32_t i = 0; i < blk.n_records && !err; i++) {
				const uint8_t *at = in;
				struct fp_record rec;
				if (fprec_decode(&in, end, &rec)) {
					log_error("'%s': a bad fingerprint record", path);
					err = NDF_ERR_FORMAT;
					break;
				}
				uint8_t *to = ndf_batch_reserve(b, (size_t)(in - at), rec.doc_id);
				if (!to) {
					err = NDF_ERR_IO;
					break;
				}
				memcpy(to, at, (size_t)(in - at));
				ndf_batch_commit(b, (size_t)(in - at));
			}
		}
		if (got < 0)
			err = got;
		ndf_reader_close(r);
	}
	ndf_block_free(&blk);
	ndf_unpacked_free(&u);
	fclose(fp);
	return err ? -1 : 0;
}

/* Rank 0: the parts, in rank order, into one FPS section at @out_path. */
static int join_parts(const char *work, const char *out_path)
{
	struct outfile of;
	struct ndf_header h;
	struct ndf_batch b;
	struct ndf_header first = {0};
	uint64_t config = 0;
	int have = 0, rc = 0;
	/* the header wants the configuration before the first record: take
	 * it (and the record layout) from the first part */
	for (int r = 0; r < mpi_size && !have; r++) {
		char *p = part_path(work, "fps", r, "ndf");
		FILE *fp = fopen(p, "rb");
		int err;
		struct ndf_reader *rd = fp ? ndf_reader_open(fp, p, &err) : NULL;
		if (rd) {
			first = *ndf_reader_header(rd);
			config = first.feature_config;
			have = 1;
			ndf_reader_close(rd);
		}
		if (fp)
			fclose(fp);
		free(p);
	}
	if (!have) {
		log_error("no rank wrote fingerprints in '%s'", work);
		return -1;
	}
	if (outfile_open(&of, out_path))
		return -1;
	memset(&h, 0, sizeof h);
	h.version = first.version;
	h.kind = NDF_KIND_FPS;
	h.aux = first.aux;
	h.simhash_bits = first.simhash_bits;
	h.feature_config = config;
	struct ndf_writer *w = ndf_writer_open(of.fp, of.display, &h);
	if (!w) {
		outfile_abort(&of);
		return -1;
	}
	ndf_batch_init(&b, w, FPS_BLOCK_TARGET);
	if (ndf_batch_deflate(&b, FPREC_DEFLATE_LEVEL))
		rc = -1;
	for (int r = 0; r < mpi_size && !rc; r++) {
		char *p = part_path(work, "fps", r, "ndf");
		if (access(p, F_OK) == 0)
			rc = join_part(p, &b, &config, &have);
		free(p);
	}
	if (!rc && ndf_batch_flush(&b))
		rc = -1;
	ndf_batch_free(&b);
	if (rc) {
		ndf_writer_abort(w);
		outfile_abort(&of);
		return -1;
	}
	if (ndf_writer_finish(w)) {
		outfile_abort(&of);
		return -1;
	}
	return outfile_commit(&of);
}

int step_fingerprint(int argc, char **argv)
{
	if (argc < 3) {
		if (mpi_rank == 0)
			log_error("usage: ndd-mpi fingerprint WORK OUT.ndf [ndd-fingerprint options]");
		return EXIT_FAILED;
	}
	const char *work = argv[1], *out = argv[2];
	char *docs = part_path(work, "docs", mpi_rank, "ndf");
	int status = EXIT_OK;
	if (access(docs, F_OK) == 0) {
		char **a = xcalloc((size_t)argc + 8, sizeof *a);
		int n = 0;
		a[n++] = a_fingerprint;
		for (int i = 3; i < argc; i++)
			a[n++] = argv[i];
		char *stats = part_path(work, "fingerprint", mpi_rank, "json");
		char *fps = part_path(work, "fps", mpi_rank, "ndf");
		a[n++] = a_stats;
		a[n++] = stats;
		a[n++] = a_out;
		a[n++] = fps;
		a[n++] = docs;
		status = run_stage(ndd_fingerprint_main, n, a);
		free(stats);
		free(fps);
		free(a);
	}
	free(docs);
	log_init("ndd-mpi");
	status = mpi_agree(status, "fingerprint");
	if (status > 1)
		return status;
	int joined = mpi_rank == 0 ? (join_parts(work, out) ? EXIT_FAILED : EXIT_OK) : EXIT_OK;
	joined = mpi_agree(joined, "joining the fingerprint parts");
	return joined > status ? joined : status;
}
