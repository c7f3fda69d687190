/*
 * gen_fps - a seeded generator of fingerprint files for benchmarks and
 * tests: N fingerprints, random bases with planted neighbours at
 * distances 0..k+1 (and exact copies), written as an NDF fingerprint
 * file; --brute also prints every pair within k by brute force (all
 * pairs, OpenMP), in the self-join's --pairs text format.
 *
 *   gen_fps -n 1000000 -s 42 -k 3 -o fps.ndf
 *   gen_fps -n 3000 -k 3 --brute pairs.txt -o fps.ndf
 *   gen_fps -n 1000000 -k 6 --brute pairs.txt --sample 100 -o fps.ndf
 *
 * --sample M brute-forces only the pairs of every M-th fingerprint (index
 * a multiple of M) against all the others: n / M * n comparisons, so large
 * N can be checked on a sample (the pairs file of the tables, kept to the
 * pairs that name a sampled document, must equal it).
 *   gen_fps -n 3000 --split 2000 --rest new.ndf -o old.ndf   (batch-query tests)
 *
 * With --split M, fingerprints 0..M-1 go to -o and the rest to --rest, both
 * keeping their names doc-<i> from the whole set, so brute-force pairs
 * across the split are what a batch query of --rest against -o must find.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "format/docrec.h"
#include "util/log.h"
#include "format/ndf.h"
#include "util/outfile.h"

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t flip(uint64_t fp, unsigned d, uint64_t *s)
{
	uint64_t mask = 0;
	while ((unsigned)__builtin_popcountll(mask) < d)
		mask |= 1ull << (splitmix(s) & 63);
	return fp ^ mask;
}

/* About a fifth of the fingerprints are planted neighbours of a base. */
static void generate(uint64_t *fp, size_t n, unsigned k, uint64_t seed)
{
	uint64_t s = seed;
	size_t i = 0;
	while (i < n) {
		uint64_t base = splitmix(&s);
		fp[i++] = base;
		if (splitmix(&s) % 5 == 0)
			for (unsigned v = 1 + (unsigned)(splitmix(&s) % 3); v && i < n; v--)
				fp[i++] = flip(base, (unsigned)(splitmix(&s) % (k + 2)), &s);
	}
	for (size_t j = n - 1; j > 0; j--) { /* neighbours not adjacent in the file */
		size_t r = splitmix(&s) % (j + 1);
		uint64_t t = fp[j];
		fp[j] = fp[r];
		fp[r] = t;
	}
}

static int write_fps(const char *path, const uint64_t *fp, size_t base, size_t n)
{
	struct outfile out;
	struct ndf_header h = {0};
	h.kind = NDF_KIND_FPS;
	h.aux = FPREC_VERSION;
	h.simhash_bits = 64;
	h.feature_config = 0x67656e5f66707300ull; /* "gen_fps": not text fingerprints */
	if (outfile_open(&out, path))
		return -1;
	struct ndf_writer *w = ndf_writer_open(out.fp, out.display, &h);
	uint8_t *buf = xmalloc(1 << 20);
	size_t used = 0, first = 0;
	int err = !w;
	for (size_t i = 0; i < n && !err; i++) {
		char url[32];
		struct fp_record r = {0};
		r.simhash = fp[i];
		r.doc_id = DOC_ID(0, base + i);
		r.payload_hash = r.text_hash = base + i;
		r.text_len = 1000;
		snprintf(url, sizeof url, "doc-%zu", base + i);
		r.url = (struct str){url, (uint32_t)strlen(url)};
		r.warc_file = (struct str){"synthetic", 9};
		used += fprec_encode(&r, buf + used);
		if (used > (1 << 20) - 256 || i + 1 == n) {
			err = ndf_write_block(w, (uint32_t)(i + 1 - first), NDF_CODEC_RAW,
					      DOC_ID(0, first), buf, used);
			used = 0;
			first = i + 1;
		}
	}
	free(buf);
	if (err || ndf_writer_finish(w) || outfile_commit(&out)) {
		outfile_abort(&out);
		return -1;
	}
	return 0;
}

/* The pairs CSV without its match column: brute force knows no pages. */
#define BRUTE_HEADER "key_a,key_b,distance\r\n"

static int brute(const char *path, const uint64_t *fp, size_t n, unsigned k)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return -1;
	fputs(BRUTE_HEADER, out);
	for (size_t i = 0; i < n; i++) {
		/* each thread collects row i's partners; rows stay in order */
		for (size_t j = i + 1; j < n; j++) {
			int d = __builtin_popcountll(fp[i] ^ fp[j]);
			if (d <= (int)k)
				fprintf(out, "doc-%zu,doc-%zu,%d\r\n", i, j, d);
		}
	}
	return fclose(out) ? -1 : 0;
}

/* Pairs (a, b), a < b, within k with a or b a multiple of @m, in order of
 * the sampled index, each row's partners found by all threads. */
static int brute_sample(const char *path, const uint64_t *fp, size_t n, unsigned k, size_t m)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return -1;
	fputs(BRUTE_HEADER, out);
	const size_t rows = (n + m - 1) / m;
	char **text = xcalloc(rows, sizeof *text);
#pragma omp parallel for schedule(dynamic, 1)
	for (size_t r = 0; r < rows; r++) {
		const size_t i = r * m;
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		for (size_t j = 0; j < n && mem; j++) {
			/* a pair of two sampled documents once, from its first */
			if (j == i || (j % m == 0 && j < i))
				continue;
			int d = __builtin_popcountll(fp[i] ^ fp[j]);
			if (d <= (int)k)
				fprintf(mem, "doc-%zu,doc-%zu,%d\r\n", i < j ? i : j, i < j ? j : i, d);
		}
		if (mem)
			fclose(mem);
		text[r] = buf;
	}
	for (size_t r = 0; r < rows; r++) {
		if (text[r])
			fputs(text[r], out);
		free(text[r]);
	}
	free(text);
	return fclose(out) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"brute", required_argument, NULL, 'b'},
		{"split", required_argument, NULL, 'S'},
		{"rest", required_argument, NULL, 'R'},
		{"sample", required_argument, NULL, 'M'},
		{NULL, 0, NULL, 0},
	};
	size_t n = 1000;
	unsigned k = 3;
	uint64_t seed = 1;
	const char *out = NULL, *brute_path = NULL, *rest = NULL;
	size_t split = 0, sample = 0;
	int c;
	log_init("gen_fps");
	while ((c = getopt_long(argc, argv, "n:s:k:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = (size_t)cli_parse_int("-n", optarg, 1, 1ll << 32); break;
		case 's': seed = (uint64_t)cli_parse_int("-s", optarg, 0, INT64_MAX); break;
		case 'k': k = (unsigned)cli_parse_int("-k", optarg, 0, 16); break;
		case 'o': out = optarg; break;
		case 'b': brute_path = optarg; break;
		case 'S': split = (size_t)cli_parse_int("--split", optarg, 1, 1ll << 32); break;
		case 'R': rest = optarg; break;
		case 'M': sample = (size_t)cli_parse_int("--sample", optarg, 1, 1ll << 32); break;
		default:
			fprintf(stderr, "usage: gen_fps [-n N] [-s SEED] [-k K] [--brute PAIRS] "
				"[--sample M] [--split M --rest FILE] -o FILE\n");
			return EXIT_FAILED;
		}
	}
	uint64_t *fp = xmalloc(n * sizeof *fp);
	generate(fp, n, k, seed);
	size_t first_part = split && rest && split < n ? split : n;
	if (write_fps(out, fp, 0, first_part) ||
	    (first_part < n && write_fps(rest, fp + first_part, first_part, n - first_part)) ||
	    (brute_path && (sample ? brute_sample(brute_path, fp, n, k, sample)
				   : brute(brute_path, fp, n, k))))
		return EXIT_FAILED;
	free(fp);
	return EXIT_OK;
}
