/*
 * test_frame.c - a page's frame (template/frame.h): pages of one host that
 * show different draws of its teasers lie within the same-template
 * threshold; pages of two sites of one theme do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/ndf.h"
#include "format/tplrec.h"
#include "output/provenance.h"
#include "template/decide.h"
#include "template/frame.h"
#include "template/learn.h"
#include "template/tplset.h"
#include "testutil.h"

enum { PAGES = 12, THEME = 5, OWN = 4, TEASERS = 40, DRAW = 8, BLOCKS = THEME + OWN + DRAW + 1 };


static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return x | 1;
}

/*
 * Page @i of site @site: the theme's chrome (every site of the theme
 * shows it), the site's own chrome, a draw of DRAW of the site's TEASERS
 * teaser blocks (each on about a fifth of the pages: template, not core)
 * and its article.
 */
static void page(uint64_t *h, int site, int i)
{
	int k = 0;
	for (int j = 0; j < THEME; j++)
		h[k++] = mix(0x1000 + (uint64_t)j);
	for (int j = 0; j < OWN; j++)
		h[k++] = mix(0x2000 + 0x100 * (uint64_t)site + (uint64_t)j);
	for (int j = 0; j < DRAW; j++)
		h[k++] = mix(0x3000 + 0x100 * (uint64_t)site + (uint64_t)((i * 7 + j * 5) % TEASERS));
	h[k] = mix(0x9000 + 0x100 * (uint64_t)site + (uint64_t)i);
}

/* Learn site @site's template into *@out (*@n keys). */
static void learn_site(struct tpl_learner *l, int site, uint64_t **out, size_t *n)
{
	static uint64_t body[PAGES][BLOCKS];
	struct tpl_page pages[PAGES];
	for (int i = 0; i < PAGES; i++) {
		page(body[i], site, i);
		pages[i] = (struct tpl_page){mix(0x7000 + 0x100 * (uint64_t)site + (uint64_t)i), BLOCKS,
					     body[i], NULL, NULL};
	}
	const struct tpl_params p = TPL_PARAMS_DEFAULT;
	const uint64_t *h;
	uint32_t g;
	CHECK(tpl_learn(l, pages, PAGES, &p, &h, n, &g) == 0 && g == PAGES);
	*out = malloc(*n * sizeof **out);
	memcpy(*out, h, *n * sizeof **out);
}

/* The frame of page @i of @site against the templates @s. */
static uint64_t frame_of(struct minhash *m, const struct tplset *s, int site, int i)
{
	uint64_t h[BLOCKS];
	struct doc_block blk[BLOCKS];
	page(h, site, i);
	const struct blockset *tpl = tplset_any_set(s);
	for (int k = 0; k < BLOCKS; k++) {
		blk[k] = (struct doc_block){h[k], 0, 1, k == BLOCKS - 1 ? DB_CONTENT : 0};
		if (blockset_has(tpl, h[k]))
			blk[k].flags |= TPL_MARK;
	}
	return frame_sketch(m, tpl, blk, BLOCKS, TPL_CONTENT);
}

int main(void)
{
	struct tpl_learner *l = tpl_learner_new();
	uint64_t *key[2];
	size_t n[2];
	for (int site = 0; site < 2; site++)
		learn_site(l, site, &key[site], &n[site]);
	tpl_learner_free(l);
	CHECK(n[0] == n[1] && n[0] > (size_t)(THEME + OWN) * 2);

	char path[] = "/tmp/test_frame.XXXXXX";
	const int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return test_finish("test_frame");
	close(fd);
	FILE *fp = fopen(path, "wb");
	struct ndf_header hd = {.version = NDF_VERSION, .kind = NDF_KIND_TEMPLATES,
				.aux = TPLREC_VERSION};
	struct ndf_writer *w = ndf_writer_open(fp, path, &hd);
	uint8_t *buf = malloc(tplrec_size((uint32_t)n[0]) + tplrec_size((uint32_t)n[1]));
	size_t len = 0;
	for (int site = 0; site < 2; site++) {
		const struct tpl_record r = {100 + (uint64_t)site, PAGES, 0, (uint32_t)n[site], NULL};
		len += tplrec_encode(&r, key[site], buf + len);
	}
	CHECK(w && ndf_write_block(w, 2, NDF_CODEC_RAW, 100, buf, len) == 0);
	CHECK(ndf_writer_finish(w) == 0);
	fclose(fp);
	struct tplset s;
	CHECK(tplset_load(&s, path) == 0);
	unlink(path);

	struct minhash m;
	frame_init(&m);
	int same = 1, apart = 1;
	for (int i = 0; i < PAGES; i++)
		for (int j = i + 1; j < PAGES; j++) {
			for (int site = 0; site < 2; site++)
				same &= __builtin_popcountll(frame_of(&m, &s, site, i) ^
							     frame_of(&m, &s, site, j)) <=
					PROV_SAME_FRAME_BITS;
			apart &= __builtin_popcountll(frame_of(&m, &s, 0, i) ^ frame_of(&m, &s, 1, j)) >
				 PROV_SAME_FRAME_BITS;
		}
	CHECK(same);
	CHECK(apart);
	/* a teaser draw changes nothing: the frame is the site's own chrome */
	CHECK(frame_of(&m, &s, 0, 0) == frame_of(&m, &s, 0, 5));
	tplset_free(&s);
	free(buf);
	free(key[0]);
	free(key[1]);
	return test_finish("test_frame");
}
