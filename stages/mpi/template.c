/*
 * template.c - each host's template learnt on P ranks, by host.
 *
 *   1. rank r reads its own documents (WORK/docs.r.ndf, extract's part)
 *      and keeps the pages that may be among their host's --sample of
 *      smallest URL hash (tpl_sample_take(), counting the host's pages on
 *      this rank: fewer than in all, so it keeps more, never fewer);
 *   2. each kept page (template/hostlearn.h: host, URL hash, signature,
 *      block hashes) goes to the rank owning its host, the host key's
 *      range [2^64 q / P, 2^64 (q+1) / P) for rank q, with one
 *      MPI_Alltoallv;
 *   3. each rank learns its hosts (tpl_learn_pages(): a host's --sample
 *      pages of smallest URL hash, as ndd-template takes them) in
 *      ascending host order;
 *   4. rank 0 writes the templates file (template/tplwrite.h, merged
 *      with --previous): its own hosts, then rank 1's, ... (received
 *      one rank at a time) -- the ranges ascend with the rank, so this
 *      is ascending host order and the file is ndd-template's, byte for
 *      byte.
 *
 * A rank holds its pages to send, the pages it receives (about 1/P of
 * every sampled page when hosts are many) and its hosts' templates;
 * rank 0 also the --previous file.  Pages past half of -m on a rank are
 * spilled (template/pagestore.h: 256 partitions by the host key's top
 * 8 bits); when any rank spilled, steps 2 and 3 run in rounds, each
 * round a run of partitions of at most half of -m over all ranks
 * together (at least one partition), in ascending order, so each rank's
 * hosts still come out ascending and the file is the same.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
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
#include "util/log.h"
#include "util/outfile.h"
#include "rank.h"
#include "steps.h"

/* u64 words per message of a rank's hosts to rank 0 */
#define CHUNK_WORDS ((size_t)1 << 22)

struct opts {
	const char *work, *out, *previous, *stats, *tmpdir;
	size_t mem;
	uint32_t sample;
	struct tpl_params tp;
};

/* Counted per rank, summed or gathered by rank 0. */
enum { S_DOCS, S_NO_HOST, S_TAKEN, S_CAPPED, S_SENT_BYTES, S_RECV_PAGES, S_HOSTS, S_LEARNT,
       S_TO_RANK0, S_RSS, S_SPILLED, S_ROUNDS, S_N };

static void usage(FILE *fp, int status)
{
	const struct tpl_params d = TPL_PARAMS_DEFAULT;
	if (mpi_rank == 0)
		fprintf(fp,
			"Usage: ndd-mpi template WORK OUT.ndf [options]\n"
			"Learn each host's template from the documents WORK/docs.R.ndf of the\n"
			"ranks, each host on one rank; rank 0 writes OUT.ndf, the same bytes as\n"
			"ndd-template over all the parts in order.\n\n"
			"      --sample N       pages of a host learnt from: the N of smallest URL hash\n"
			"                       (200)\n"
			"      --min-pages N    as ndd-template (%u)\n"
			"      --share PCT      as ndd-template (%u)\n"
			"      --near-bits B    as ndd-template (%d)\n"
			"      --previous FILE  an earlier night's templates (rank 0 reads it)\n"
			"  -m, --memory SIZE    per rank: pages held before spilling, and the pages\n"
			"                       of one exchange round, each half of it (default 1G)\n"
			"  -T, --tmpdir DIR     where to spill (default $TMPDIR or /tmp)\n"
			"      --stats FILE     rank 0 writes the statistics as JSON\n"
			"  -t, --threads N      threads per rank\n"
			"  -q, --quiet          errors only\n",
			d.min_pages, d.share_pct, d.near_bits);
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"sample", required_argument, NULL, 'S'},   {"min-pages", required_argument, NULL, 'M'},
		{"share", required_argument, NULL, 'P'},    {"near-bits", required_argument, NULL, 'N'},
		{"previous", required_argument, NULL, 'p'}, {"stats", required_argument, NULL, 's'},
		{"threads", required_argument, NULL, 't'},  {"quiet", no_argument, NULL, 'q'},
		{"memory", required_argument, NULL, 'm'},   {"tmpdir", required_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
	};
	const struct tpl_params dflt = TPL_PARAMS_DEFAULT;
	struct cli_common cc = {0};
	int c;
	o->tp = dflt;
	o->sample = 200;
	o->mem = 1u << 30;
	o->tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	optind = 0;
	while ((c = getopt_long(argc, argv, "t:qhm:T:", longopts, NULL)) != -1) {
		switch (c) {
		case 'S': o->sample = (uint32_t)cli_parse_int("--sample", optarg, 1, 1000); break;
		case 'M': o->tp.min_pages = (uint32_t)cli_parse_int("--min-pages", optarg, 2, 1000); break;
		case 'P': o->tp.share_pct = (uint32_t)cli_parse_int("--share", optarg, 0, 100); break;
		case 'N': o->tp.near_bits = (int)cli_parse_int("--near-bits", optarg, 0, 32); break;
		case 'p': o->previous = optarg; break;
		case 's': o->stats = optarg; break;
		case 't': cc.threads = (int)cli_parse_int("--threads", optarg, 1, 4096); break;
		case 'q': log_set_level(LOG_QUIET); break;
		case 'm': o->mem = (size_t)cli_parse_size("--memory", optarg); break;
		case 'T': o->tmpdir = optarg; break;
		case 'h': usage(stdout, EXIT_OK); break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if (o->mem < (4u << 10)) {
		if (mpi_rank == 0)
			log_error("-m must be at least 4K");
		usage(stderr, EXIT_FAILED);
	}
	if (argc - optind != 2) {
		if (mpi_rank == 0)
			log_error("WORK and OUT.ndf are required");
		usage(stderr, EXIT_FAILED);
	}
	o->work = argv[optind];
	o->out = argv[optind + 1];
	cli_common_finish(&cc);
}

/* ---- the pages this rank keeps ---- */

/* Read @path (this rank's documents) into @k.  @return 0 or -1 (logged). */
static int read_docs(const char *path, const struct opts *o, struct tpl_pagestore *k,
		     uint64_t *st, uint64_t *config, int *have_config)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		log_error("rank %d: cannot open '%s': %s", mpi_rank, path, strerror(errno));
		return -1;
	}
	struct hostcount hosts;
	if (hostcount_init(&hosts, o->mem / 4 / 12)) {
		log_error("rank %d: out of memory", mpi_rank);
		fclose(fp);
		return -1;
	}
	struct ndf_block b = {0};
	struct ndf_reader *r;
	struct doc_block *blk = NULL;
	size_t blk_cap = 0;
	uint64_t *hashes = xmalloc(tpl_page_words(TPL_MAX_PAGE_BLOCKS) * sizeof *hashes);
	int rc = 0, err = 0, got;
	while (!rc && (r = ndf_reader_open(fp, path, &err))) {
		const struct ndf_header *h = ndf_reader_header(r);
		rc = docrec_check_header(h, path);
		if (!rc && !*have_config) {
			*config = h->feature_config;
			*have_config = 1;
		}
		while (!rc && (got = ndf_read_raw_block(r, &b)) != 0) {
			if (got < 0) {
				rc = -1;
				break;
			}
			const uint8_t *p = b.data, *const end = b.data + b.len;
			for (uint32_t i = 0; i < b.n_records && !rc; i++) {
				struct doc_record d;
				if (docrec_decode(&p, end, &d)) {
					log_error("%s: block at offset %llu: record %u is malformed", path,
						  (unsigned long long)b.offset, i);
					rc = -1;
					break;
				}
				st[S_DOCS]++;
				const uint64_t host = host_key(d.url.p, d.url.n);
				if (!host) {
					st[S_NO_HOST]++;
					continue;
				}
				uint32_t *const c = hostcount_get(&hosts, host);
				if (!c) {
					rc = -1;
					break;
				}
				const uint64_t key = tpl_sample_key(&d);
				if (!tpl_sample_next(c, key, o->sample))
					continue;
				uint64_t sig;
				const long nb = tpl_page_blocks(&d, &blk, &blk_cap, &sig, hashes);
				if (nb < 0) {
					log_error("rank %d: out of memory for the blocks of a page", mpi_rank);
					rc = -1;
					break;
				}
				st[S_TAKEN]++;
				const struct tpl_page_head ph = {host, key, sig, (uint64_t)nb};
				if (tpl_pagestore_add(k, &ph, hashes))
					rc = -1;
			}
			if (!rc && p != end) {
				log_error("%s: block at offset %llu: bytes after the last record", path,
					  (unsigned long long)b.offset);
				rc = -1;
			}
		}
		ndf_reader_close(r);
	}
	if (!rc && err < 0)
		rc = -1;
	ndf_block_free(&b);
	fclose(fp);
	free(blk);
	free(hashes);
	hostcount_free(&hosts);
	return rc;
}

/* ---- the exchange ---- */

/* The rank owning @host: its range of the key space. */
static inline int owner(uint64_t host)
{
	return (int)(((unsigned __int128)host * (unsigned)mpi_size) >> 64);
}

/* Send the @n words of pages at @pages to their hosts' owners; *@recv
 * gets this rank's hosts' pages (*@n_recv words).  @return 0 or -1
 * (logged). */
static int exchange(const uint64_t *pages, size_t n, uint64_t **recv, size_t *n_recv,
		    uint64_t *st)
{
	const int P = mpi_size;
	int *cnt = xcalloc((size_t)P * 4, sizeof *cnt);
	int *displ = cnt + P, *rcnt = cnt + 2 * P, *rdispl = cnt + 3 * P;
	size_t *words = xcalloc((size_t)P, sizeof *words), *at = xcalloc((size_t)P, sizeof *at);
	for (size_t i = 0; i < n;) {
		const struct tpl_page_head *h = (const void *)(pages + i);
		const size_t w = tpl_page_size(h->n) / 8;
		words[owner(h->host)] += w;
		i += w;
	}
	size_t total = 0;
	int rc = 0;
	for (int q = 0; q < P; q++) {
		if (words[q] > INT32_MAX || total > INT32_MAX)
			rc = -1;
		displ[q] = (int)total;
		cnt[q] = (int)words[q];
		at[q] = total;
		total += words[q];
	}
	if (rc)
		log_error("rank %d: more than 16 GB of pages for one rank", mpi_rank);
	if (mpi_agree(rc ? EXIT_FAILED : 0, "sizing the template exchange") > 1) {
		free(cnt);
		free(words);
		free(at);
		return -1;
	}
	uint64_t *send = xmalloc((total + 1) * sizeof *send);
	for (size_t i = 0; i < n;) {
		const struct tpl_page_head *h = (const void *)(pages + i);
		const size_t w = tpl_page_size(h->n) / 8;
		const int q = owner(h->host);
		memcpy(send + at[q], pages + i, w * 8);
		at[q] += w;
		i += w;
	}
	for (int q = 0; q < P; q++)
		if (q != mpi_rank)
			st[S_SENT_BYTES] += words[q] * 8;
	st[S_ROUNDS]++;
	rc = MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD);
	size_t rtotal = 0;
	for (int q = 0; q < P && rc == MPI_SUCCESS; q++) {
		rdispl[q] = (int)rtotal;
		rtotal += (size_t)rcnt[q];
	}
	if (rc == MPI_SUCCESS && rtotal > INT32_MAX) {
		log_error("rank %d: more than 16 GB of pages to receive", mpi_rank);
		rc = MPI_ERR_COUNT;
	}
	*recv = NULL;
	if (rc == MPI_SUCCESS) {
		*recv = xmalloc((rtotal + 1) * sizeof **recv);
		rc = MPI_Alltoallv(send, cnt, displ, MPI_UINT64_T, *recv, rcnt, rdispl,
				   MPI_UINT64_T, MPI_COMM_WORLD);
	}
	*n_recv = rtotal;
	free(send);
	free(cnt);
	free(words);
	free(at);
	return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "the template exchange");
}

/* ---- learning, and the hosts to rank 0 ---- */

/* This rank's hosts, learnt: per host u64 host, u64 groups << 32 | n,
 * then n hashes. */
struct learnt {
	uint64_t *w;
	size_t n, cap;
};

static int keep_host(void *ctx, uint64_t host, uint32_t groups, const uint64_t *h, size_t n)
{
	struct learnt *l = ctx;
	if (l->n + 2 + n > l->cap) {
		l->cap = (l->n + 2 + n) * 2;
		l->w = xrealloc(l->w, l->cap * sizeof *l->w);
	}
	l->w[l->n++] = host;
	l->w[l->n++] = (uint64_t)groups << 32 | (uint32_t)n;
	if (n) /* a host that learnt nothing may come with no array */
		memcpy(l->w + l->n, h, n * 8);
	l->n += n;
	return 0;
}

/* Rank 0: one rank's learnt hosts into the file (@w NULL: dropped after
 * a failure, still received so the sender is not left waiting). */
static int write_hosts(struct tpl_writer *w, const uint64_t *v, size_t n)
{
	for (size_t i = 0; w && i + 2 <= n;) {
		const size_t nh = (uint32_t)v[i + 1];
		if (i + 2 + nh > n)
			return -1;
		if (tpl_writer_host(w, v[i], (uint32_t)(v[i + 1] >> 32), v + i + 2, nh))
			return -1;
		i += 2 + nh;
	}
	return 0;
}

/* The learnt hosts of every rank, in rank order, into @w on rank 0; every
 * other rank sends its own.  @return 0 or -1 (on rank 0: logged). */
static int gather_hosts(struct tpl_writer *w, const struct learnt *mine, uint64_t *st)
{
	int rc = MPI_SUCCESS, bad = 0;
	if (mpi_rank) {
		uint64_t n = mine->n;
		rc = MPI_Send(&n, 1, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
		for (size_t at = 0; rc == MPI_SUCCESS && at < mine->n; at += CHUNK_WORDS) {
			const size_t c = mine->n - at < CHUNK_WORDS ? mine->n - at : CHUNK_WORDS;
			rc = MPI_Send(mine->w + at, (int)c, MPI_UINT64_T, 0, 2, MPI_COMM_WORLD);
		}
		st[S_TO_RANK0] = mine->n * 8;
		return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "sending the templates to rank 0");
	}
	bad = write_hosts(w, mine->w, mine->n);
	uint64_t *buf = NULL;
	for (int q = 1; q < mpi_size && rc == MPI_SUCCESS; q++) {
		uint64_t n = 0;
		rc = MPI_Recv(&n, 1, MPI_UINT64_T, q, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			break;
		buf = xrealloc(buf, ((size_t)n + 1) * sizeof *buf);
		for (size_t at = 0; rc == MPI_SUCCESS && at < n; at += CHUNK_WORDS) {
			const size_t c = n - at < CHUNK_WORDS ? n - at : CHUNK_WORDS;
			rc = MPI_Recv(buf + at, (int)c, MPI_UINT64_T, q, 2, MPI_COMM_WORLD,
				      MPI_STATUS_IGNORE);
		}
		if (rc == MPI_SUCCESS && !bad && write_hosts(w, buf, (size_t)n)) {
			log_error("rank 0: rank %d's templates could not be written", q);
			bad = 1;
		}
	}
	free(buf);
	if (rc != MPI_SUCCESS)
		return mpi_fail(rc, "receiving the templates");
	return bad ? -1 : 0;
}

/* ---- the statistics ---- */

static int write_stats(const struct opts *o, const uint64_t *all, const struct tpl_write_stats *ws,
		       double secs)
{
	const int P = mpi_size;
	uint64_t sum[S_N] = {0};
	for (int r = 0; r < P; r++)
		for (int s = 0; s < S_N; s++)
			sum[s] += all[(size_t)r * S_N + s];
	struct outfile f;
	if (outfile_open(&f, o->stats))
		return -1;
#define U(x) (unsigned long long)(x)
	/* ndd-template's fields first, then the job's (pages_kept: the pages
	 * each rank kept as candidates for its hosts' samples, the pages moved) */
	fprintf(f.fp,
		"{\"documents\": %llu, \"without_host\": %llu, \"sampled\": %llu, "
		"\"pages_blocks_capped\": %llu, \"hosts\": %llu, \"hosts_with_template\": %llu, "
		"\"template_blocks\": %llu, \"hosts_from_previous\": %llu, \"spilled_bytes\": %llu,\n"
		" \"mpi\": {\"ranks\": %d, \"bytes_all_to_all\": %llu, \"bytes_to_rank0\": %llu, "
		"\"exchange_rounds\": %llu, \"seconds\": %.3f",
		U(sum[S_DOCS]), U(sum[S_NO_HOST]), U(sum[S_LEARNT]), U(sum[S_CAPPED]), U(sum[S_HOSTS]),
		U(ws->learnt), U(ws->learnt_blocks), U(ws->previous_hosts), U(sum[S_SPILLED]), P,
		U(sum[S_SENT_BYTES]), U(sum[S_TO_RANK0]), U(all[S_ROUNDS]), secs);
	static const struct {
		int s;
		const char *name;
	} per[] = {{S_RSS, "peak_rss_kb"},     {S_DOCS, "documents"},
		   {S_TAKEN, "pages_kept"},     {S_SENT_BYTES, "bytes_sent"},
		   {S_RECV_PAGES, "pages_received"}, {S_LEARNT, "pages_learnt_from"},
		   {S_HOSTS, "hosts"}, {S_SPILLED, "spilled_bytes"}};
	for (size_t q = 0; q < sizeof per / sizeof *per; q++) {
		fprintf(f.fp, ", \"per_rank_%s\": [", per[q].name);
		for (int r = 0; r < P; r++)
			fprintf(f.fp, "%s%llu", r ? ", " : "", U(all[(size_t)r * S_N + per[q].s]));
		fprintf(f.fp, "]");
	}
	fprintf(f.fp, "}}\n");
#undef U
	return outfile_commit(&f);
}

/* ---- the rounds ---- */

/* When any rank spilled, every rank's pages are in its partitions, and
 * bytes[p] is partition p's over all ranks. */
struct rounds {
	int spilled;
	uint64_t *bytes;
};

/* Whether any rank spilled and, if so, every page to the partitions and
 * their sizes summed over the ranks.  @return 0 or -1 (logged); a
 * collective call. */
static int plan_rounds(struct tpl_pagestore *k, struct rounds *R)
{
	int rc = MPI_Allreduce(&k->spilled, &R->spilled, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		return mpi_fail(rc, "planning the template exchange");
	if (!R->spilled)
		return 0;
	int bad = tpl_pagestore_spill(k);
	uint64_t *mine = xcalloc(TPL_STORE_PARTS, sizeof *mine);
	for (unsigned p = 0; p < TPL_STORE_PARTS && !bad; p++) {
		const int64_t b = tpl_pagestore_part_bytes(k, p);
		bad = b < 0;
		mine[p] = b < 0 ? 0 : (uint64_t)b;
	}
	R->bytes = xcalloc(TPL_STORE_PARTS, sizeof *R->bytes);
	rc = MPI_Allreduce(mine, R->bytes, TPL_STORE_PARTS, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	free(mine);
	if (rc != MPI_SUCCESS)
		return mpi_fail(rc, "planning the template exchange");
	return bad ? -1 : 0;
}

/* The end of the round that starts at partition @p0: the partitions
 * after it while all ranks' pages of the round stay within @limit bytes,
 * at least one. */
static unsigned round_end(const struct rounds *R, unsigned p0, size_t limit)
{
	uint64_t sum = R->bytes[p0];
	unsigned p1 = p0 + 1;
	while (p1 < TPL_STORE_PARTS && sum + R->bytes[p1] <= limit)
		sum += R->bytes[p1++];
	return p1;
}

/* ---- the step ---- */

int step_template(int argc, char **argv)
{
	struct opts o = {0};
	uint64_t st[S_N] = {0};
	const double t0 = log_wall();
	parse(&o, argc, argv);

	/* 1. this rank's pages */
	struct tpl_pagestore k;
	int rc = tpl_pagestore_init(&k, o.mem / 2, o.tmpdir);
	uint64_t config = 0;
	int have = 0;
	const size_t plen = strlen(o.work) + 32;
	char *part = xmalloc(plen);
	snprintf(part, plen, "%s/docs.%d.ndf", o.work, mpi_rank);
	if (!rc && access(part, F_OK) == 0)
		rc = read_docs(part, &o, &k, st, &config, &have);
	free(part);
	if (mpi_agree(rc ? EXIT_FAILED : 0, "reading the documents for the templates") > 1) {
		tpl_pagestore_free(&k);
		return EXIT_FAILED;
	}
	/* the file's feature configuration: the first documents' */
	uint64_t mine[2] = {(uint64_t)have, config}, *cfg = xcalloc((size_t)mpi_size * 2, 8);
	rc = MPI_Allgather(mine, 2, MPI_UINT64_T, cfg, 2, MPI_UINT64_T, MPI_COMM_WORLD);
	for (int q = mpi_size - 1; q >= 0 && rc == MPI_SUCCESS; q--)
		if (cfg[2 * q])
			config = cfg[2 * q + 1];
	free(cfg);
	if (rc != MPI_SUCCESS) {
		mpi_fail(rc, "sharing the feature configuration");
		tpl_pagestore_free(&k);
		return mpi_agree(EXIT_FAILED, "the templates");
	}

	/* 2 and 3, round by round: to the hosts' owners, learnt there */
	struct learnt l = {0};
	struct rounds R = {0};
	rc = plan_rounds(&k, &R);
	if (mpi_agree(rc ? EXIT_FAILED : 0, "planning the template exchange") > 1) {
		tpl_pagestore_free(&k);
		return EXIT_FAILED;
	}
	st[S_SPILLED] = k.spilled_bytes;
	struct tpl_learner *learner = tpl_learner_new();
	uint8_t *round = NULL;
	size_t round_cap = 0;
	rc = learner ? 0 : -1;
	int failed = 0; /* on some rank: every rank leaves the rounds together */
	for (unsigned p0 = 0, p1; p0 < TPL_STORE_PARTS && !failed; p0 = p1) {
		const uint64_t *pages = (const uint64_t *)k.buf;
		size_t len = k.len;
		p1 = TPL_STORE_PARTS;
		if (R.spilled) {
			p1 = round_end(&R, p0, o.mem / 2);
			len = 0;
			for (unsigned p = p0; p < p1 && !rc; p++)
				rc = tpl_pagestore_read_part(&k, p, &round, &len, &round_cap);
			pages = (const uint64_t *)round;
		}
		if ((failed = mpi_agree(rc ? EXIT_FAILED : 0, "reading the spilled pages") > 1))
			break;
		uint64_t *recv = NULL;
		size_t n_recv = 0;
		rc = exchange(pages, len / 8, &recv, &n_recv, st);
		if ((failed = mpi_agree(rc ? EXIT_FAILED : 0, "the template exchange") > 1)) {
			free(recv);
			break;
		}
		for (size_t i = 0; i < n_recv; i += tpl_page_size(recv[i + 3]) / 8)
			st[S_RECV_PAGES]++;
		if (!rc && p0 == 0 && mpi_fault_point("template"))
			rc = -1;
		struct tpl_learn_counts n = {0, 0, 0};
		if (!rc)
			rc = tpl_learn_pages(learner, (const uint8_t *)recv, n_recv * 8, o.sample,
					     &o.tp, keep_host, &l, &n);
		st[S_HOSTS] += n.hosts;
		st[S_LEARNT] += n.pages;
		st[S_CAPPED] += n.capped;
		free(recv);
		failed = mpi_agree(rc ? EXIT_FAILED : 0, "learning the templates") > 1;
	}
	tpl_learner_free(learner);
	tpl_pagestore_free(&k);
	free(round);
	free(R.bytes);
	if (failed) {
		free(l.w);
		return EXIT_FAILED;
	}

	/* 4. written by rank 0, rank after rank */
	struct tplset prev = {0};
	struct tpl_writer *w = NULL;
	rc = 0;
	if (mpi_rank == 0) {
		if (o.previous)
			rc = tplset_load(&prev, o.previous);
		if (!rc) {
			w = tpl_writer_open(o.out, config, o.previous ? &prev : NULL, o.tp.min_pages);
			rc = w ? 0 : -1;
		}
	}
	if (mpi_agree(rc ? EXIT_FAILED : 0, "opening the templates file") > 1) {
		tplset_free(&prev);
		free(l.w);
		return EXIT_FAILED;
	}
	rc = gather_hosts(w, &l, st);
	free(l.w);
	struct tpl_write_stats ws = {0};
	if (mpi_rank == 0) {
		if (rc)
			tpl_writer_abort(w);
		else
			rc = tpl_writer_finish(w, &ws);
	}
	tplset_free(&prev);
	if (mpi_agree(rc ? EXIT_FAILED : 0, "writing the templates") > 1)
		return EXIT_FAILED;

	st[S_RSS] = (uint64_t)log_peak_rss_kb();
	uint64_t *all = mpi_rank == 0 ? xcalloc((size_t)mpi_size * S_N, sizeof *all) : NULL;
	rc = MPI_Gather(st, S_N, MPI_UINT64_T, all, S_N, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		rc = mpi_fail(rc, "gathering the statistics");
	else if (mpi_rank == 0 && o.stats)
		rc = write_stats(&o, all, &ws, log_wall() - t0);
	if (mpi_rank == 0 && !rc) {
		uint64_t hosts = 0, sent = 0;
		for (int q = 0; q < mpi_size; q++) {
			hosts += all[(size_t)q * S_N + S_HOSTS];
			sent += all[(size_t)q * S_N + S_SENT_BYTES];
		}
		cli_summary("%d ranks: %llu hosts, %llu with a template (%llu blocks), %llu from "
			    "--previous; %llu bytes moved between ranks; %.2f s",
			    mpi_size, (unsigned long long)hosts, (unsigned long long)ws.learnt,
			    (unsigned long long)ws.learnt_blocks,
			    (unsigned long long)ws.previous_hosts, (unsigned long long)sent,
			    log_wall() - t0);
	}
	free(all);
	return mpi_agree(rc ? EXIT_FAILED : 0, "the template statistics");
}
