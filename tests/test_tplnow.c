/*
 * test_tplnow.c - the templates final so far, grown host by host
 * (template/tplnow.h), hold after every host what tplset_load() holds of
 * a file of the same hosts: core keys kept while one host alone holds
 * their block as chrome or quoted, dropped once a second does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/ndf.h"
#include "format/tplrec.h"
#include "template/learn.h"
#include "template/tplnow.h"
#include "template/tplset.h"
#include "testutil.h"

enum { HOSTS = 12, THEME = 30, OWN = 20, MAXK = 3 * (THEME + OWN) };

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return *x;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Host @i's keys into @k (ascending): blocks of a theme every host may
 * show and of its own, each chrome (and then maybe core) or quoted. */
static size_t host_keys(uint64_t *x, int i, uint64_t *k)
{
	size_t n = 0;
	for (int b = 0; b < THEME + OWN; b++) {
		const uint64_t h = b < THEME ? 0x1000u + (uint64_t)b * 0x9e37u
					     : 0x100000u * (uint64_t)(i + 1) + (uint64_t)b;
		const uint64_t r = rnd(x) % 8;
		if (r < 2) /* not this host's */
			continue;
		if (r == 2) {
			k[n++] = tpl_quoted_key(h);
			continue;
		}
		k[n++] = h;
		if (r >= 5)
			k[n++] = tpl_core_key(h);
	}
	qsort(k, n, sizeof *k, cmp_u64);
	return n;
}

/* A templates file of the first @n hosts of @keys (@nk each). */
static int write_file(const char *path, uint64_t keys[][MAXK], const size_t *nk, int n)
{
	FILE *fp = fopen(path, "wb");
	struct ndf_header hd = {.version = NDF_VERSION, .kind = NDF_KIND_TEMPLATES,
				.aux = TPLREC_VERSION};
	struct ndf_writer *w = fp ? ndf_writer_open(fp, path, &hd) : NULL;
	static uint8_t buf[HOSTS * (12 + 8 + 8 * MAXK)];
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		const struct tpl_record r = {100 + (uint64_t)i, 10, 0, (uint32_t)nk[i], NULL};
		len += tplrec_encode(&r, keys[i], buf + len);
	}
	const int rc = w && ndf_write_block(w, (uint32_t)n, NDF_CODEC_RAW, 100, buf, len) == 0 &&
				       ndf_writer_finish(w) == 0
			       ? 0
			       : -1;
	if (fp)
		fclose(fp);
	return rc;
}

int main(void)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	static uint64_t keys[HOSTS][MAXK];
	size_t nk[HOSTS];
	for (int i = 0; i < HOSTS; i++)
		nk[i] = host_keys(&x, i, keys[i]);
	char path[] = "/tmp/test_tplnow.XXXXXX";
	const int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_finish("test_tplnow");
	close(fd);
	struct blockset now = {0};
	int kept = 0, dropped = 0;
	for (int j = 1; j <= HOSTS; j++) {
		CHECK(tplnow_add(&now, keys[j - 1], nk[j - 1]) == 0);
		struct tplset s;
		CHECK(write_file(path, keys, nk, j) == 0 && tplset_load(&s, path) == 0);
		const struct blockset *any = tplset_any_set(&s);
		int bad = 0;
		for (int i = 0; i < HOSTS; i++)
			for (size_t k = 0; k < nk[i]; k++)
				bad += blockset_has(&now, keys[i][k]) != blockset_has(any, keys[i][k]);
		CHECK(bad == 0 && now.n == any->n);
		size_t n_shared;
		const uint64_t *shared = tplset_shared_core(&s, &n_shared);
		for (size_t k = 0; k < n_shared; k++)
			CHECK(!blockset_has(any, shared[k]) && !blockset_has(&now, shared[k]));
		if (j == HOSTS) {
			dropped = (int)n_shared;
			for (int i = 0; i < HOSTS; i++)
				for (size_t k = 0; k < nk[i]; k++)
					kept += blockset_has(any, keys[i][k]) &&
						blockset_has(any, tpl_core_hash(keys[i][k]));
		}
		tplset_free(&s);
	}
	/* both kinds occur: the theme's core keys shared, each host's own kept */
	CHECK(kept > HOSTS && dropped > 0);
	blockset_free(&now);
	unlink(path);
	return test_finish("test_tplnow");
}
