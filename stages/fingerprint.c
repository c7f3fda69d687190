/*
 * ndd-fingerprint - documents -> 64-bit fingerprint records (minwise hashing by
 * default, SimHash on request; docfp.h).
 *
 * Input: an NDF stream of DOCS sections (ndd-extract's output; several
 * sections may be concatenated, e.g. `cat a.docs b.docs |`).  Output: one
 * NDF section of kind FPS, one fp_record per document, in input order,
 * with the feature configuration hash in the header (docfp.h).
 *
 *   read a batch of blocks --> decode records --> fingerprint (parallel)
 *        --> encode fp_records in input order --> ~1 MiB RAW blocks
 *
 * The batch (4 blocks per thread) is the unit of parallelism: reading and
 * writing stay on the main thread, and since each document's fingerprint
 * depends on nothing else, the output is byte-identical for any -t.
 * Each thread owns a fingerprint context (buffers reused across documents),
 * indexed by omp_get_thread_num().
 *
 * --import-text reads fingerprints computed elsewhere ("16 hex digits
 * [,key]" per line) into the same FPS format, so they can be joined with
 * the rest of the pipeline; their feature_config is 0 ("external").
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/cli.h"
#include "format/docrec.h"
#include "format/fptext.h"
#include "util/infile.h"
#include "util/log.h"
#include "format/ndf.h"
#include "format/ndf_batch.h"
#include "util/outfile.h"
#include "fingerprint/docfp.h"
#include "template/decide.h"
#include "template/follow.h"
#include "template/tplfp.h"
#include "template/tplset.h"
#include "template/tplwrite.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define OUT_BLOCK (1u << 20)    /* target payload bytes per output block */
#define BLOCKS_PER_THREAD 4     /* input blocks per thread in one batch */

struct opts {
	struct cli_common cc;
	struct docfp_config cfg;
	const char *import;
	const char *input;
	const char *templates;
	const char *stats;
	int dry_run;
	/* --learn-templates (template/follow.h) */
	struct follow_opts fo;
	const char *template_stats;
};

/* Features --method simhash measured best with (docs/BENCHMARKS.md),
 * unless given. */
#define SIMHASH_METHOD_SHINGLE 1
#define SIMHASH_METHOD_CJK_NGRAM 2

/* The defaults in the help are the ones the code uses, not a copy. */
static void usage(FILE *fp, int status)
{
	const struct docfp_config d = DOCFP_CONFIG_DEFAULT;
	fprintf(fp,
		"Usage: ndd-fingerprint [options] [DOCS]\n"
		"Compute the 64-bit fingerprint of every document in DOCS (the\n"
		"output of ndd-extract; a file, or '-' / none for standard input) and\n"
		"write one fingerprint record per document, in input order.\n\n"
		"      --method NAME      minhash: 1-bit minwise hashing of the feature set\n"
		"                         (default); simhash: Charikar's SimHash of\n"
		"                         weighted features\n"
		"      --shingle N        words per feature shingle, 1..%d (default %d for\n"
		"                         minhash, %d for simhash)\n"
		"      --cjk-ngram N      characters per CJK feature n-gram, 1..%d (default\n"
		"                         %d for minhash, %d for simhash)\n"
		"      --min-text BYTES   below this much normalised text, fingerprint the\n"
		"                         exact text and flag it short (default %zu)\n"
		"      --unit-weight W    with --shingle > 1: also single words (and CJK\n"
		"                         --cjk-unit n-grams); SimHash weighs them W/64;\n"
		"                         0..64, 0: none (default %d)\n"
		"      --cjk-unit N       characters per CJK unit feature, 1..%d (default %d)\n"
		"SimHash weights (minhash counts each distinct feature once):\n"
		"      --line-full BYTES  line length of full weight; shorter lines weigh\n"
		"                         (len/BYTES)^2; 0: no line weights (default %d)\n"
		"      --tf-log 0|1       1: weight 1+ln(tf); 0: each distinct feature 1 (%d)\n"
		"      --boundary-weight W  a feature where two lines meet, weight W/64 (%d)\n"
		"      --import-text FILE read fingerprints instead, one per line:\n"
		"                         16 hex digits, optionally ',' and a key (URL)\n"
		"      --templates FILE   each host's template (ndd-template): a page's main\n"
		"                         text is decided without its host's template blocks\n"
		"      --learn-templates FILE  learn the templates here while fingerprinting,\n"
		"                         as ndd-template and --templates would one after\n"
		"                         the other (the same bytes); the pages are done at\n"
		"                         the end, read back from DOCS, a file, or --docs\n"
		"      --docs FILE        the copy of DOCS being written (tee) to read back\n"
		"      --sample N         with --learn-templates: as ndd-template's (200)\n"
		"      --previous-templates FILE  as ndd-template's --previous\n"
		"      --template-stats FILE  ndd-template's --stats\n"
		"      --stats FILE       write run statistics as JSON to FILE\n"
		"      --dry-run          read, check and decode the documents, compute and\n"
		"                         write nothing: the I/O floor for benchmarks\n"
		CLI_COMMON_HELP,
		DOCFP_MAX_SHINGLE, d.shingle, SIMHASH_METHOD_SHINGLE, DOCFP_MAX_CJK_NGRAM,
		d.cjk_ngram, SIMHASH_METHOD_CJK_NGRAM, d.min_text, d.unit_weight,
		DOCFP_MAX_CJK_NGRAM, d.cjk_unit, d.line_full, d.tf_log, d.boundary_weight);
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_SHINGLE = CLI_OPT_STAGE_BASE, OPT_CJK, OPT_MIN_TEXT, OPT_IMPORT, OPT_DRY,
	       OPT_LINE, OPT_TF, OPT_UW, OPT_CJKU, OPT_BW, OPT_METHOD, OPT_TEMPLATES, OPT_STATS,
	       OPT_LEARN, OPT_DOCS, OPT_SAMPLE, OPT_PREV, OPT_TSTATS };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"shingle", required_argument, NULL, OPT_SHINGLE},
		{"cjk-ngram", required_argument, NULL, OPT_CJK},
		{"min-text", required_argument, NULL, OPT_MIN_TEXT},
		{"import-text", required_argument, NULL, OPT_IMPORT},
		{"dry-run", no_argument, NULL, OPT_DRY},
		{"line-full", required_argument, NULL, OPT_LINE},
		{"tf-log", required_argument, NULL, OPT_TF},
		{"unit-weight", required_argument, NULL, OPT_UW},
		{"cjk-unit", required_argument, NULL, OPT_CJKU},
		{"boundary-weight", required_argument, NULL, OPT_BW},
		{"method", required_argument, NULL, OPT_METHOD},
		{"templates", required_argument, NULL, OPT_TEMPLATES},
		{"stats", required_argument, NULL, OPT_STATS},
		{"learn-templates", required_argument, NULL, OPT_LEARN},
		{"docs", required_argument, NULL, OPT_DOCS},
		{"sample", required_argument, NULL, OPT_SAMPLE},
		{"previous-templates", required_argument, NULL, OPT_PREV},
		{"template-stats", required_argument, NULL, OPT_TSTATS},
		{NULL, 0, NULL, 0},
	};
	const struct docfp_config dflt = DOCFP_CONFIG_DEFAULT;
	const struct tpl_params tdflt = TPL_PARAMS_DEFAULT;
	int c, shingle_given = 0, cjk_given = 0, follow_given = 0;
	o->cfg = dflt;
	o->fo.tp = tdflt;
	o->fo.sample = 200;
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		if (c == OPT_SHINGLE) {
			o->cfg.shingle = (int)cli_parse_int("--shingle", optarg, 1, DOCFP_MAX_SHINGLE);
			shingle_given = 1;
		}
		else if (c == OPT_CJK) {
			o->cfg.cjk_ngram = (int)cli_parse_int("--cjk-ngram", optarg, 1,
							      DOCFP_MAX_CJK_NGRAM);
			cjk_given = 1;
		}
		else if (c == OPT_MIN_TEXT)
			o->cfg.min_text = (size_t)cli_parse_int("--min-text", optarg, 0, 1 << 30);
		else if (c == OPT_IMPORT)
			o->import = optarg;
		else if (c == OPT_DRY)
			o->dry_run = 1;
		else if (c == OPT_TEMPLATES)
			o->templates = optarg;
		else if (c == OPT_STATS)
			o->stats = optarg;
		else if (c == OPT_LEARN)
			o->fo.templates = optarg;
		else if (c == OPT_DOCS && ++follow_given)
			o->fo.docs = optarg;
		else if (c == OPT_SAMPLE && ++follow_given)
			o->fo.sample = (uint32_t)cli_parse_int("--sample", optarg, 1, 1000);
		else if (c == OPT_PREV && ++follow_given)
			o->fo.previous = optarg;
		else if (c == OPT_TSTATS && ++follow_given)
			o->template_stats = optarg;
		else if (c == OPT_LINE)
			o->cfg.line_full = (int)cli_parse_int("--line-full", optarg, 0, 100000);
		else if (c == OPT_TF)
			o->cfg.tf_log = (int)cli_parse_int("--tf-log", optarg, 0, 1);
		else if (c == OPT_UW)
			o->cfg.unit_weight = (int)cli_parse_int("--unit-weight", optarg, 0,
								DOCFP_WEIGHT_ONE);
		else if (c == OPT_METHOD && (!strcmp(optarg, "simhash") || !strcmp(optarg, "minhash")))
			o->cfg.method = strcmp(optarg, "minhash") ? DOCFP_SIMHASH : DOCFP_MINHASH;
		else if (c == OPT_BW)
			o->cfg.boundary_weight = (int)cli_parse_int("--boundary-weight", optarg, 0,
								    2 * DOCFP_WEIGHT_ONE);
		else if (c == OPT_CJKU)
			o->cfg.cjk_unit = (int)cli_parse_int("--cjk-unit", optarg, 1,
							     DOCFP_MAX_CJK_NGRAM);
		else
			usage(stderr, EXIT_FAILED);
	}
	if (o->cfg.method == DOCFP_SIMHASH && !shingle_given)
		o->cfg.shingle = SIMHASH_METHOD_SHINGLE;
	if (o->cfg.method == DOCFP_SIMHASH && !cjk_given)
		o->cfg.cjk_ngram = SIMHASH_METHOD_CJK_NGRAM;
	if (optind + 1 < argc || (o->import && optind < argc)) {
		log_error("one input at a time (--import-text FILE, or DOCS)");
		usage(stderr, EXIT_FAILED);
	}
	o->input = optind < argc ? argv[optind] : "-";
	if (o->fo.templates && (o->templates || o->import || o->dry_run)) {
		log_error("--learn-templates: not with --templates, --import-text or --dry-run");
		usage(stderr, EXIT_FAILED);
	}
	if (follow_given && !o->fo.templates) {
		log_error("--docs, --sample, --previous-templates and --template-stats go with "
			  "--learn-templates");
		usage(stderr, EXIT_FAILED);
	}
	if (o->fo.templates && !strcmp(o->fo.templates, "-")) {
		log_error("--learn-templates: a file, not standard output");
		usage(stderr, EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
	o->fo.cfg = &o->cfg;
	o->fo.threads = o->cc.threads;
}

/* ---- output: fp_records packed into ~1 MiB blocks ---- */

struct out {
	struct outfile of;
	struct ndf_writer *w;
	struct ndf_batch batch;
};

static int out_start(struct out *o, uint64_t feature_config)
{
	struct ndf_header h;
	memset(&h, 0, sizeof h);
	h.version = NDF_VERSION;
	h.kind = NDF_KIND_FPS;
	h.aux = FPREC_VERSION;
	h.simhash_bits = 64;
	h.feature_config = feature_config;
	o->w = ndf_writer_open(o->of.fp, o->of.display, &h);
	ndf_batch_init(&o->batch, o->w, OUT_BLOCK);
	if (o->w && ndf_batch_deflate(&o->batch, FPREC_DEFLATE_LEVEL))
		return -1;
	return o->w ? 0 : -1;
}

static int out_record(struct out *o, const struct fp_record *r)
{
	uint8_t *const at = ndf_batch_reserve(&o->batch, fprec_size(r), r->doc_id);
	if (!at)
		return -1;
	ndf_batch_commit(&o->batch, fprec_encode(r, at));
	return 0;
}

/* Flush, finish the section and publish the file.  @return 0 or -1. */
static int out_finish(struct out *o)
{
	int rc = ndf_batch_flush(&o->batch);
	struct ndf_writer *w = o->w;
	o->w = NULL;
	if (ndf_writer_finish(w))
		rc = -1;
	if (rc || outfile_commit(&o->of))
		return -1;
	return 0;
}

static void out_abort(struct out *o)
{
	ndf_writer_abort(o->w);
	o->w = NULL;
	outfile_abort(&o->of);
	ndf_batch_free(&o->batch);
}

/* ---- input: batches of document blocks ---- */

struct batch {
	struct ndf_block *blk;
	size_t n_blk, max_blk;
	struct doc_record *doc;
	struct tplfp_result *res;
	size_t n_doc, cap_doc;
};

struct stats {
	uint64_t docs, shorts, text_bytes, bytes_in, sections;
	uint64_t choice[4]; /* pages by enum tpl_choice */
	uint64_t total_bytes;
};

static void batch_free(struct batch *b)
{
	for (size_t k = 0; k < b->max_blk; k++)
		ndf_block_free(&b->blk[k]);
	free(b->blk);
	free(b->doc);
	free(b->res);
}

/* Read up to max_blk blocks.  @return blocks read (0 = end of section), or -1. */
static long read_batch(struct ndf_reader *r, struct batch *b, struct stats *st)
{
	const long got = ndf_read_raw_blocks(r, b->blk, b->max_blk, &st->bytes_in);
	b->n_blk = got > 0 ? (size_t)got : 0;
	return got;
}

static void batch_reserve(struct batch *b, size_t n)
{
	if (n <= b->cap_doc)
		return;
	b->cap_doc = n > 2 * b->cap_doc ? n : 2 * b->cap_doc;
	b->doc = xrealloc(b->doc, b->cap_doc * sizeof *b->doc);
	b->res = xrealloc(b->res, b->cap_doc * sizeof *b->res);
}

/* Decode every record of the batch's blocks.  @return 0, or -1 (logged). */
static int decode_batch(struct batch *b, const char *name)
{
	b->n_doc = 0;
	for (size_t k = 0; k < b->n_blk; k++) {
		const struct ndf_block *blk = &b->blk[k];
		const uint8_t *p = blk->data, *end = blk->data + blk->len;
		batch_reserve(b, b->n_doc + blk->n_records);
		for (uint32_t i = 0; i < blk->n_records; i++)
			if (docrec_decode(&p, end, &b->doc[b->n_doc++])) {
				log_error("%s: block at offset %llu: record %u is malformed", name,
					  (unsigned long long)blk->offset, i);
				return -1;
			}
		if (p != end) {
			log_error("%s: block at offset %llu: %zu bytes after the last record",
				  name, (unsigned long long)blk->offset, (size_t)(end - p));
			return -1;
		}
	}
	return 0;
}

/*
 * One document's fingerprint (tplfp.h).  Every host's template, not only
 * the page's own host's: a page and its copy on a host that learnt its
 * site's template (a mirror, an archive) must lose the same blocks, and
 * the copy's host may be the only one with enough of the site's pages to
 * learn it (docs/TEMPLATES.md).  @return 0, or -1 if memory ran out.
 */
static int compute_doc(struct batch *b, size_t i, struct tplfp_worker *w, const struct tplset *ts)
{
	return tplfp_page(&b->doc[i], ts ? tplset_any_set(ts) : NULL, w, &b->res[i]);
}

/*
 * Fingerprint the batch's documents: a worksharing loop, called inside
 * the parallel region of run_section() (or alone, without OpenMP).
 * @return 0, or -1 if any document failed (out of memory).
 */
static int compute_docs(struct batch *b, struct tplfp_worker *w, const struct tplset *ts)
{
	int failed = 0;
	const long n = (long)b->n_doc;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 8)
#endif
	for (long i = 0; i < n; i++) {
		int tid = 0;
#ifdef _OPENMP
		tid = omp_get_thread_num();
#endif
		failed |= compute_doc(b, (size_t)i, &w[tid], ts);
	}
	return failed ? -1 : 0;
}

static void count_record(struct stats *st, const struct fp_record *r, int choice)
{
	st->shorts += (r->flags & FP_SHORT_TEXT) != 0;
	st->text_bytes += r->text_len;
	st->choice[choice]++;
	st->docs++;
}

static int write_batch(const struct batch *b, struct out *o, struct stats *st)
{
	for (size_t i = 0; i < b->n_doc; i++) {
		const struct fp_record r = tplfp_record(&b->doc[i], &b->res[i]);
		if (o->w && out_record(o, &r)) /* no writer: --dry-run */
			return -1;
		count_record(st, &r, b->res[i].choice);
	}
	return 0;
}

/* What the steps of one section share. */
struct job {
	struct ndf_reader *r;
	struct batch *b; /* two: one computed while the other is written and refilled */
	struct tplfp_worker *w;
	const struct tplset *ts;
	int threads;
	struct out *o;
	struct stats *st;
	struct progress *pr;
};

/*
 * The serial half of a step: write batch @io (if @have_done, it holds
 * computed fingerprints), then read and decode the next batch into it.
 * @return blocks read (0 = end of section), or -1 (logged).
 */
static long io_step(struct job *j, struct batch *io, int have_done)
{
	if (have_done) {
		if (write_batch(io, j->o, j->st))
			return -1;
		progress_update(j->pr, j->st->docs, j->st->bytes_in);
	}
	const long n = read_batch(j->r, io, j->st);
	if (n > 0 && decode_batch(io, ndf_reader_name(j->r)))
		return -1;
	return n;
}

/*
 * One DOCS section.  Two batches alternate: while the team fingerprints
 * one, a single thread writes the other's results and refills it, then
 * joins the loop (dynamic schedule), so reading, CRC checking and
 * writing overlap the hashing instead of leaving the cores idle.
 * Batches are written in input order, so the output never depends on -t.
 * @return 0 or -1.
 */
static int run_section(struct job *j)
{
	struct batch *cur = &j->b[0], *other = &j->b[1];
	long n = io_step(j, cur, 0);
	int have_done = 0;
	while (n > 0) {
		long n_next = 0;
		int failed = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(j->threads) if (j->threads > 1) reduction(| : failed)
#endif
		{
#ifdef _OPENMP
#pragma omp single nowait
#endif
			n_next = io_step(j, other, have_done);
			failed |= compute_docs(cur, j->w, j->ts);
		}
		if (failed || n_next < 0)
			return -1;
		struct batch *const t = cur;
		cur = other;
		other = t; /* computed, not yet written */
		have_done = 1;
		n = n_next;
	}
	if (n < 0 || (have_done && write_batch(other, j->o, j->st)))
		return -1;
	progress_update(j->pr, j->st->docs, j->st->bytes_in);
	return 0;
}

static int open_section(FILE *fp, const char *name, struct ndf_reader **r)
{
	int err;
	*r = ndf_reader_open(fp, name, &err);
	if (!*r)
		return err < 0 ? -1 : 0;
	if (docrec_check_header(ndf_reader_header(*r), name)) {
		ndf_reader_close(*r);
		*r = NULL;
		return -1;
	}
	return 1;
}

/* Every section of the input.  @return 0 or -1; @o finished on success. */
static int run_docs(const struct opts *opt, FILE *fp, const char *name, struct out *o,
		    struct stats *st, const struct tplset *ts)
{
	const int threads = opt->cc.threads;
	struct tplfp_worker *w = xcalloc((size_t)threads, sizeof *w);
	struct batch b[2] = {{0}, {0}};
	struct progress pr;
	struct job j = {NULL, b, w, ts, threads, o, st, &pr};
	int rc = 0;
	for (int k = 0; k < 2; k++) {
		b[k].max_blk = (size_t)threads * BLOCKS_PER_THREAD;
		b[k].blk = xcalloc(b[k].max_blk, sizeof *b[k].blk);
	}
	for (int t = 0; t < threads && !rc && !opt->dry_run; t++)
		rc = (w[t].ctx = docfp_ctx_new(&opt->cfg)) ? 0 : -1;
	progress_start(&pr, "documents", st->total_bytes);
	while (!rc) {
		const int got = open_section(fp, name, &j.r);
		if (got <= 0) {
			rc = got;
			break;
		}
		st->sections++;
		rc = (o->w || opt->dry_run || !out_start(o, docfp_config_hash(&opt->cfg))) ? 0 : -1;
		if (!rc)
			rc = run_section(&j);
		ndf_reader_close(j.r);
	}
	progress_end(&pr);
	if (!rc && st->sections == 0) {
		/* ndd-extract writes a section even with no documents: no
		 * section at all is a cut or failed output, like any other */
		log_error("%s: no documents section: the input is empty", name);
		rc = -1;
	}
	for (int t = 0; t < threads; t++) {
		docfp_ctx_free(w[t].ctx);
		tplfp_worker_free(&w[t]);
	}
	free(w);
	for (int k = 0; k < 2; k++)
		batch_free(&b[k]);
	return rc;
}

/* ---- --learn-templates (template/follow.h) ---- */

struct emit_ctx {
	struct out *o;
	struct stats *st;
	uint64_t config;
};

static int emit_record(void *ctx, const struct fp_record *r, int choice)
{
	struct emit_ctx *e = ctx;
	if (!e->o->w && out_start(e->o, e->config))
		return -1;
	if (out_record(e->o, r))
		return -1;
	count_record(e->st, r, choice);
	return 0;
}

static int write_template_stats(const char *path, const struct follow_stats *fs)
{
	struct outfile f = {0};
	if (outfile_open(&f, path))
		return -1;
	const struct tpl_run_stats r = {fs->docs, fs->no_host, fs->sampled, fs->capped_blocks,
					fs->hosts, fs->learnt, fs->learnt_blocks,
					fs->previous_hosts, 0};
	tpl_stats_print(f.fp, &r);
	return outfile_commit(&f);
}

/* Learn and fingerprint in one pass.  @return 0 or -1; @o finished. */
static int run_follow(const struct opts *opt, FILE *in, const char *name, struct out *o,
		      struct stats *st)
{
	struct follow_stats fs;
	struct emit_ctx e = {o, st, docfp_config_hash(&opt->cfg)};
	int rc = follow_run(&opt->fo, in, name, emit_record, &e, &fs);
	if (!rc && !o->w)
		rc = out_start(o, e.config);
	st->sections = fs.sections;
	st->bytes_in = fs.bytes_in;
	if (!rc && opt->template_stats)
		rc = write_template_stats(opt->template_stats, &fs);
	log_info("templates learnt while fingerprinting: %llu hosts, %llu with a template, from "
		 "%llu pages read back; %llu pages done",
		 (unsigned long long)fs.hosts, (unsigned long long)fs.learnt,
		 (unsigned long long)fs.candidates, (unsigned long long)fs.docs);
	return rc;
}

/* ---- --import-text (the line format: fptext.h) ---- */

/* @return lines skipped as bad (warned), or -1 on failure. */
static long run_import(const char *path, struct out *o, struct stats *st)
{
	FILE *fp = infile_open(path);
	if (!fp)
		return -1;
	struct fptext_reader *tr = fptext_open(fp, path);
	int rc = !tr || out_start(o, 0) ? -1 : 0;
	uint64_t v;
	struct str key;
	int got = 0;
	while (!rc && (got = fptext_next(tr, &v, &key)) == 1) {
		/* No text: its length is unknown, not 0 (self-join never pairs
		 * empty texts), and no two imports claim the same payload. */
		const uint64_t id = DOC_ID(0, st->docs);
		const struct fp_record r = {.doc_id = id, .simhash = v, .url = key,
					    .payload_hash = ~id, .text_hash = ~id,
					    .text_len = UINT32_MAX, .flags = FP_NO_FRAME,
					    .warc_file = {"", 0}};
		rc = out_record(o, &r);
		st->docs++;
	}
	if (!rc && got < 0)
		rc = -1;
	const long bad = tr ? (long)fptext_bad(tr) : 0;
	fptext_close(tr);
	infile_close(fp);
	return rc ? -1 : bad;
}

/* ---- main ---- */

static uint64_t input_size(FILE *fp)
{
	struct stat sb;
	return fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
}

static void summary(const struct stats *st, double secs, long bad)
{
	const double mb = (double)st->text_bytes / 1e6;
	char tpl[160] = "";
	if (st->choice[TPL_CONTENT] + st->choice[TPL_FALLBACK] + st->choice[TPL_NONE])
		snprintf(tpl, sizeof tpl, "; template out of %llu, fallback text %llu, no content %llu",
			 (unsigned long long)st->choice[TPL_CONTENT],
			 (unsigned long long)st->choice[TPL_FALLBACK],
			 (unsigned long long)st->choice[TPL_NONE]);
	cli_summary("%llu documents, %llu short, %.1f MB text, %.1f MB/s%s%s",
		    (unsigned long long)st->docs, (unsigned long long)st->shorts, mb,
		    secs > 0 ? mb / secs : 0.0, tpl, bad > 0 ? ", some lines skipped" : "");
}

/* @cfg: docfp_config_string(), plain ASCII without quotes or backslashes. */
static int write_stats(const char *path, const struct stats *st, int templates,
		       const struct docfp_config *c, const char *cfg)
{
	struct outfile f = {0};
	if (outfile_open(&f, path))
		return -1;
	fprintf(f.fp, "{\"method\": \"%s\", \"shingle\": %d, \"cjk_ngram\": %d, \"settings\": \"%s\", ",
		c->method == DOCFP_MINHASH ? "minhash" : "simhash", c->shingle, c->cjk_ngram, cfg);
	fprintf(f.fp,
		"\"documents\": %llu, \"short\": %llu, \"templates\": %s, "
		"\"page_model\": %llu, \"template_removed\": %llu, \"fallback_text\": %llu, "
		"\"no_content\": %llu}\n",
		(unsigned long long)st->docs, (unsigned long long)st->shorts,
		templates ? "true" : "false", (unsigned long long)st->choice[TPL_PAGE],
		(unsigned long long)st->choice[TPL_CONTENT],
		(unsigned long long)st->choice[TPL_FALLBACK],
		(unsigned long long)st->choice[TPL_NONE]);
	return outfile_commit(&f);
}

int main(int argc, char **argv)
{
	struct opts opt = {0};
	struct out o = {0};
	struct stats st = {0};
	char cfg_text[256];
	log_init("ndd-fingerprint");
	parse(&opt, argc, argv);
	docfp_config_string(&opt.cfg, cfg_text, sizeof cfg_text);
	log_debug("feature config %016llx: %s",
		  (unsigned long long)docfp_config_hash(&opt.cfg), cfg_text);
	const double t0 = log_wall();
	FILE *in = NULL;
	long bad = 0;
	int rc = 0;
	struct tplset ts = {0};
	const struct tplset *tsp = NULL;
	if (opt.templates && !opt.import) {
		if (tplset_load(&ts, opt.templates))
			return EXIT_FAILED;
		tsp = &ts;
		log_debug("%zu hosts' templates, %zu blocks", ts.n_hosts, ts.n_hash);
	}
	if (!opt.import && !(in = infile_open(opt.input))) {
		tplset_free(&ts);
		return EXIT_FAILED;
	}
	if (opt.dry_run && !opt.import) {
		st.total_bytes = input_size(in);
		rc = run_docs(&opt, in, opt.input, &o, &st, tsp);
		infile_close(in);
		tplset_free(&ts);
		summary(&st, log_wall() - t0, 0);
		return rc ? EXIT_FAILED : EXIT_OK;
	}
	if (outfile_open(&o.of, opt.cc.output)) {
		infile_close(in);
		tplset_free(&ts);
		return EXIT_FAILED;
	}
	if (opt.import) {
		bad = run_import(opt.import, &o, &st);
		rc = bad < 0 ? -1 : 0;
	} else if (opt.fo.templates) {
		rc = run_follow(&opt, in, opt.input[0] == '-' && !opt.input[1] ? "(standard input)"
									       : opt.input,
				&o, &st);
		infile_close(in);
	} else {
		st.total_bytes = input_size(in);
		rc = run_docs(&opt, in, opt.input[0] == '-' && !opt.input[1] ? "(standard input)"
									     : opt.input,
			      &o, &st, tsp);
		infile_close(in);
	}
	tplset_free(&ts);
	if (rc || out_finish(&o)) {
		out_abort(&o);
		return EXIT_FAILED;
	}
	ndf_batch_free(&o.batch);
	if (opt.stats && write_stats(opt.stats, &st, tsp || opt.fo.templates, &opt.cfg, cfg_text))
		return EXIT_FAILED;
	summary(&st, log_wall() - t0, bad);
	if (bad > 0)
		log_warn("%ld bad line%s skipped", bad, bad == 1 ? "" : "s");
	return bad > 0 ? EXIT_SKIPPED : EXIT_OK;
}
