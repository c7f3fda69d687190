/*
 * ndd-template - documents -> each host's template (NDF_KIND_TEMPLATES):
 * the text blocks that repeat over the host's distinct pages
 * (template/learn.h; why: docs/TEMPLATES.md).
 *
 *   read DOCS in order --> host of each page; the pages that may be
 *        among its --sample of smallest URL hash (template/hostlearn.h)
 *        are kept: signature (template/pagesig.h, of all the page's
 *        blocks, in parallel) and its block hashes
 *   --> in memory, or past half of -m spilled to 256 temporary files by
 *        the host's top 8 bits (-T DIR)
 *   --> per host in ascending host order (a partition at a time): learn,
 *        merge with --previous, write
 *
 * Memory: the page store (half of -m), the map of pages counted per host
 * (a quarter of -m: 16 bytes a host; when it is full it starts again, and
 * keeps more pages of the hosts counted again) and one partition when spilled
 * (its 1/256 of the spill: a spill of 256 x -m/2 fits).  A page keeps at
 * most TPL_MAX_PAGE_BLOCKS block hashes.  What is learnt depends on the
 * set of pages, not on their order, nor on -t.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "template/host.h"
#include "template/hostcount.h"
#include "template/hostlearn.h"
#include "template/learn.h"
#include "template/pagestore.h"
#include "template/tplset.h"
#include "template/tplwrite.h"
#include "util/cli.h"
#include "util/infile.h"
#include "util/outfile.h"
#include "util/teein.h"
#include "util/log.h"

struct opts {
	struct cli_common cc;
	size_t mem;
	const char *tmpdir, *previous, *stats, *copy, *copy_mem;
	uint64_t copy_mem_max;
	uint32_t sample, host_warn;
	struct tpl_params tp;
	char **inputs;
	int n_inputs;
};

struct stats {
	uint64_t docs, no_host, kept, sampled, capped_blocks, hosts, learnt, learnt_blocks;
	uint64_t previous_hosts, spilled_bytes, sections;
};

static void usage(FILE *fp, int status)
{
	const struct tpl_params d = TPL_PARAMS_DEFAULT;
	fprintf(fp,
		"Usage: ndd-template [options] [DOCS...]\n"
		"Learn each host's template from documents (ndd-extract's output; '-' or\n"
		"none reads standard input): the text blocks found on at least T distinct\n"
		"pages of the host, T = max(--min-pages, --share %% of its distinct pages);\n"
		"pages whose whole text is nearly the same count once.  Writes the\n"
		"templates file that ndd-fingerprint --templates reads.\n\n"
		"      --sample N         pages of a host learnt from: the N of smallest URL\n"
		"                         hash, a uniform sample (default 200)\n"
		"      --host-warn N      warn of a host with N pages or more, once (a crawler\n"
		"                         trap?); 0: never (default 1000000)\n"
		"      --min-pages N      T's floor and the fewest distinct pages a host needs\n"
		"                         (default %u)\n"
		"      --share PCT        T's share of the host's distinct pages (default %u)\n"
		"      --near-bits B      whole-page signatures this close are one page (%d)\n"
		"      --previous FILE    an earlier night's templates: kept for hosts that\n"
		"                         tonight has too few pages of (for %d nights)\n"
		"  -m, --memory SIZE      memory for pages before spilling (default 1G)\n"
		"  -T, --tmpdir DIR       where to spill (default $TMPDIR or /tmp)\n"
		"      --copy FILE        also write the documents read from standard input to\n"
		"                         FILE, byte for byte (as 'tee FILE |' before it would)\n"
		"      --copy-memory MFILE  write the copy as MFILE instead (a file on a tmpfs:\n"
		"                         memory) while it holds at most --copy-memory-max;\n"
		"                         past that, or when MFILE's file system is full, it\n"
		"                         moves to FILE and goes on there: one of the two is\n"
		"                         written\n"
		"      --copy-memory-max SIZE  MFILE's most bytes (K, M, G; default 0: FILE)\n"
		"      --stats FILE       write run statistics as JSON to FILE\n" CLI_COMMON_HELP,
		d.min_pages, d.share_pct, d.near_bits, TPL_MAX_AGE);
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_SAMPLE = CLI_OPT_STAGE_BASE, OPT_MIN, OPT_SHARE, OPT_NEAR, OPT_PREV, OPT_STATS, OPT_COPY,
	       OPT_COPY_MEM, OPT_COPY_MEM_MAX, OPT_HOST_WARN };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"sample", required_argument, NULL, OPT_SAMPLE},
		{"min-pages", required_argument, NULL, OPT_MIN},
		{"share", required_argument, NULL, OPT_SHARE},
		{"near-bits", required_argument, NULL, OPT_NEAR},
		{"previous", required_argument, NULL, OPT_PREV},
		{"memory", required_argument, NULL, 'm'},
		{"tmpdir", required_argument, NULL, 'T'},
		{"stats", required_argument, NULL, OPT_STATS},
		{"copy", required_argument, NULL, OPT_COPY},
		{"copy-memory", required_argument, NULL, OPT_COPY_MEM},
		{"copy-memory-max", required_argument, NULL, OPT_COPY_MEM_MAX},
		{"host-warn", required_argument, NULL, OPT_HOST_WARN},
		{NULL, 0, NULL, 0},
	};
	const struct tpl_params dflt = TPL_PARAMS_DEFAULT;
	int c;
	o->tp = dflt;
	o->sample = 200;
	o->host_warn = 1000000;
	o->mem = 1u << 30;
	o->tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "m:T:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		if (c == OPT_SAMPLE)
			o->sample = (uint32_t)cli_parse_int("--sample", optarg, 1, 1000);
		else if (c == OPT_HOST_WARN)
			o->host_warn = (uint32_t)cli_parse_int("--host-warn", optarg, 0, UINT32_MAX);
		else if (c == OPT_MIN)
			o->tp.min_pages = (uint32_t)cli_parse_int("--min-pages", optarg, 2, 1000);
		else if (c == OPT_SHARE)
			o->tp.share_pct = (uint32_t)cli_parse_int("--share", optarg, 0, 100);
		else if (c == OPT_NEAR)
			o->tp.near_bits = (int)cli_parse_int("--near-bits", optarg, 0, 32);
		else if (c == OPT_PREV)
			o->previous = optarg;
		else if (c == OPT_STATS)
			o->stats = optarg;
		else if (c == OPT_COPY)
			o->copy = optarg;
		else if (c == OPT_COPY_MEM)
			o->copy_mem = optarg;
		else if (c == OPT_COPY_MEM_MAX)
			o->copy_mem_max = cli_parse_size("--copy-memory-max", optarg);
		else if (c == 'm')
			o->mem = (size_t)cli_parse_size("--memory", optarg);
		else if (c == 'T')
			o->tmpdir = optarg;
		else
			usage(stderr, EXIT_FAILED);
	}
	if (o->mem < (4u << 10)) {
		log_error("-m must be at least 4K");
		usage(stderr, EXIT_FAILED);
	}
	o->inputs = argv + optind;
	o->n_inputs = argc - optind;
	if (o->copy && (o->n_inputs > 1 || (o->n_inputs == 1 && strcmp(o->inputs[0], "-")))) {
		log_error("--copy copies standard input: name no other input");
		usage(stderr, EXIT_FAILED);
	}
	if (o->copy_mem && !o->copy) {
		log_error("--copy-memory needs --copy FILE, where the copy goes past it");
		usage(stderr, EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

/* ---- learning, host by host ---- */

struct learn {
	struct tpl_learner *l;
	struct tpl_writer *w;
	const struct opts *o;
	struct stats *st;
};

static int learnt(void *ctx, uint64_t host, uint32_t groups, const uint64_t *h, size_t n)
{
	const struct learn *L = ctx;
	return tpl_writer_host(L->w, host, groups, h, n);
}

/* Learn every host of the @len bytes of pages at @buf, in host order. */
static int learn_all(struct learn *L, const uint8_t *buf, size_t len)
{
	struct tpl_learn_counts n = {0, 0, 0};
	const int rc = tpl_learn_pages(L->l, buf, len, L->o->sample, &L->o->tp, learnt, L, &n);
	L->st->hosts += n.hosts;
	L->st->sampled += n.pages;
	L->st->capped_blocks += n.capped;
	return rc;
}

/* Learn from partition @p of the store (all its pages at once). */
static int learn_part(struct learn *L, struct tpl_pagestore *s, unsigned p, uint8_t **buf,
		      size_t *cap)
{
	size_t len = 0;
	if (tpl_pagestore_read_part(s, p, buf, &len, cap))
		return -1;
	return len ? learn_all(L, *buf, len) : 0;
}

/* ---- reading the documents ---- */

struct reader {
	const struct opts *o;
	struct hostcount hosts;
	struct tpl_pagestore *s;
	struct doc_record *doc;
	uint64_t *host, *sig, *key;
	uint8_t *take;
	size_t cap;
	size_t *hoff;      /* where each taken record's hashes start in @hash */
	uint64_t *hash;    /* the taken records' block hashes, TPL_MAX_PAGE_BLOCKS at most each */
	size_t hash_cap;
	struct stats *st;
	uint64_t first_config;
	int have_config;
};

/* A host has as many pages as --host-warn: more than any site's template
 * needs and often a crawler trap (a calendar, session ids in the URLs),
 * which the operator wants to hear of.  Its template is still learnt. */
static void warn_host(struct reader *R, const char *name, const struct doc_record *d,
		      uint64_t offset)
{
	char host[256];
	host_name(d->url.p, d->url.n, host, sizeof host);
	log_warn("%s: block at offset %llu: host %s has %u pages: a crawler trap? Its template "
		 "is learnt from %u of them", name, (unsigned long long)offset, host,
		 R->o->host_warn, R->o->sample);
}

/* The records of one block: pick, sign (parallel), store. */
static int take_block(struct reader *R, const struct ndf_block *b, const char *name)
{
	const uint8_t *p = b->data, *const end = b->data + b->len;
	if (b->n_records > R->cap) {
		R->cap = b->n_records;
		R->doc = xrealloc(R->doc, R->cap * sizeof *R->doc);
		R->host = xrealloc(R->host, R->cap * sizeof *R->host);
		R->sig = xrealloc(R->sig, R->cap * sizeof *R->sig);
		R->key = xrealloc(R->key, R->cap * sizeof *R->key);
		R->take = xrealloc(R->take, R->cap);
		R->hoff = xrealloc(R->hoff, R->cap * sizeof *R->hoff);
	}
	const long n = b->n_records;
	for (long i = 0; i < n; i++) {
		if (docrec_decode(&p, end, &R->doc[i])) {
			log_error("%s: block at offset %llu: record %ld is malformed", name,
				  (unsigned long long)b->offset, i);
			return -1;
		}
		R->host[i] = host_key(R->doc[i].url.p, R->doc[i].url.n);
		R->take[i] = 0;
		R->st->docs++;
		if (!R->host[i]) {
			R->st->no_host++;
			continue;
		}
		uint32_t *const c = hostcount_get(&R->hosts, R->host[i]);
		if (!c)
			exit(EXIT_FAILED);
		R->key[i] = tpl_sample_key(&R->doc[i]);
		R->take[i] = (uint8_t)tpl_sample_next(c, R->key[i], R->o->sample);
		if (*c == R->o->host_warn)
			warn_host(R, name, &R->doc[i], b->offset);
	}
	if (p != end) {
		log_error("%s: block at offset %llu: bytes after the last record", name,
			  (unsigned long long)b->offset);
		return -1;
	}
	size_t nh = 0;
	for (long i = 0; i < n; i++) {
		if (!R->take[i])
			continue;
		uint32_t nb = docrec_n_blocks(&R->doc[i]);
		if (nb > TPL_MAX_PAGE_BLOCKS)
			nb = TPL_MAX_PAGE_BLOCKS;
		R->hoff[i] = nh;
		nh += tpl_page_words(nb);
	}
	if (nh > R->hash_cap)
		R->hash = xrealloc(R->hash, (R->hash_cap = nh) * sizeof *R->hash);
	int failed = 0;
#ifdef _OPENMP
#pragma omp parallel reduction(| : failed)
#endif
	{
		struct doc_block *blk = NULL;
		size_t blk_cap = 0;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 16)
#endif
		for (long i = 0; i < n; i++) {
			const struct doc_record *d = &R->doc[i];
			if (!R->take[i] || failed)
				continue;
			if (tpl_page_blocks(d, &blk, &blk_cap, &R->sig[i], R->hash + R->hoff[i]) < 0)
				failed = 1;
		}
		free(blk);
	}
	if (failed) {
		log_error("out of memory for the blocks of a page");
		return -1;
	}
	for (long i = 0; i < n; i++) {
		if (!R->take[i])
			continue;
		const struct doc_record *d = &R->doc[i];
		const uint32_t nb = d->n_blocks < TPL_MAX_PAGE_BLOCKS ? d->n_blocks : TPL_MAX_PAGE_BLOCKS;
		const struct tpl_page_head h = {R->host[i], R->key[i], R->sig[i], nb};
		R->st->kept++;
		if (tpl_pagestore_add(R->s, &h, R->hash + R->hoff[i]))
			return -1;
	}
	return 0;
}

static int read_input(struct reader *R, const char *path, struct teein *copy)
{
	FILE *fp = copy ? teein_file(copy) : infile_open(path);
	if (!fp)
		return -1;
	const char *name = strcmp(path, "-") ? path : "(standard input)";
	struct ndf_block b = {0};
	struct ndf_reader *r;
	int rc = 0, err = 0;
	while (!rc && (r = ndf_reader_open(fp, name, &err))) {
		const struct ndf_header *h = ndf_reader_header(r);
		R->st->sections++;
		rc = docrec_check_header(h, name);
		if (!rc && !R->have_config) {
			R->first_config = h->feature_config;
			R->have_config = 1;
		}
		int got;
		while (!rc && (got = ndf_read_raw_block(r, &b)) != 0) {
			if (got < 0) {
				rc = -1;
				break;
			}
			rc = take_block(R, &b, name);
		}
		ndf_reader_close(r);
	}
	if (!rc && err < 0)
		rc = -1;
	ndf_block_free(&b);
	if (!copy)
		infile_close(fp);
	return rc;
}

/* ---- main ---- */

static int write_stats(const char *path, const struct stats *st)
{
	struct outfile f = {0};
	if (outfile_open(&f, path))
		return -1;
	const struct tpl_run_stats r = {st->docs, st->no_host, st->sampled, st->capped_blocks,
					st->hosts, st->learnt, st->learnt_blocks, st->previous_hosts,
					st->spilled_bytes};
	tpl_stats_print(f.fp, &r);
	return outfile_commit(&f);
}

int main(int argc, char **argv)
{
	struct opts opt = {0};
	struct stats st = {0};
	log_init("ndd-template");
	parse(&opt, argc, argv);
	struct teein *copy = NULL;
	if (opt.copy && !(copy = teein_open(stdin, opt.copy, opt.copy_mem, opt.copy_mem_max)))
		return EXIT_FAILED;
	const double t0 = log_wall();
	struct tpl_pagestore s;
	if (tpl_pagestore_init(&s, opt.mem / 2, opt.tmpdir))
		return EXIT_FAILED;
	struct reader R = {.o = &opt, .s = &s, .st = &st};
	if (hostcount_init(&R.hosts, opt.mem / 4 / 12)) {
		log_error("out of memory");
		return EXIT_FAILED;
	}
	int rc = 0;
	for (int i = 0; i < (opt.n_inputs ? opt.n_inputs : 1) && !rc; i++)
		rc = read_input(&R, opt.n_inputs ? opt.inputs[i] : "-", copy);
	/* the copy is the whole input, also when the documents were bad */
	if (copy && teein_finish(copy))
		rc = -1;

	struct tplset prev = {0};
	if (!rc && opt.previous)
		rc = tplset_load(&prev, opt.previous);
	struct learn L = {tpl_learner_new(), NULL, &opt, &st};
	if (!L.l)
		rc = -1;
	if (!rc) {
		L.w = tpl_writer_open(opt.cc.output, R.first_config, opt.previous ? &prev : NULL,
				      opt.tp.min_pages);
		rc = L.w ? 0 : -1;
	}
	if (!rc && !s.spilled) {
		rc = learn_all(&L, s.buf, s.len);
	} else if (!rc) {
		rc = tpl_pagestore_spill(&s);
		for (unsigned p = 0; p < TPL_STORE_PARTS && !rc; p++)
			rc = learn_part(&L, &s, p, &s.buf, &s.limit);
	}
	st.spilled_bytes = s.spilled_bytes;
	if (!rc) {
		struct tpl_write_stats ws;
		rc = tpl_writer_finish(L.w, &ws);
		st.learnt = ws.learnt;
		st.learnt_blocks = ws.learnt_blocks;
		st.previous_hosts = ws.previous_hosts;
	} else {
		tpl_writer_abort(L.w);
	}
	if (!rc && opt.stats)
		rc = write_stats(opt.stats, &st);
	free(R.doc);
	free(R.host);
	free(R.sig);
	free(R.key);
	free(R.take);
	free(R.hoff);
	free(R.hash);
	hostcount_free(&R.hosts);
	tpl_pagestore_free(&s);
	tpl_learner_free(L.l);
	tplset_free(&prev);
	if (rc)
		return EXIT_FAILED;
	if (st.capped_blocks)
		log_warn("%llu pages learnt from had %d blocks or more: only their first %d were "
			 "learnt from", (unsigned long long)st.capped_blocks, TPL_MAX_PAGE_BLOCKS,
			 TPL_MAX_PAGE_BLOCKS);
	cli_summary("%llu documents, %llu kept, %llu learnt from, %llu hosts, %llu with a "
		    "template (%llu blocks), %llu from --previous; %.2f s",
		    (unsigned long long)st.docs, (unsigned long long)st.kept,
		    (unsigned long long)st.sampled,
		    (unsigned long long)st.hosts, (unsigned long long)st.learnt,
		    (unsigned long long)st.learnt_blocks, (unsigned long long)st.previous_hosts,
		    log_wall() - t0);
	return EXIT_OK;
}
