/*
 * decide.c - see decide.h.
 */
#include "template/decide.h"

#include <stdlib.h>
#include <string.h>

#include "template/blockset.h"
#include "util/grow.h"
#include "util/valueline.h"

void tpl_buf_free(struct tpl_buf *b)
{
	free(b->p);
	free(b->blk);
	memset(b, 0, sizeof *b);
}

/* The blocks of @blk (@d's) that are not template and have all the
 * flags of @need and none of @skip, '\n'-joined in @b.  @return 0 or -1. */
static int join(const struct doc_record *d, const struct doc_block *blk, unsigned need,
		unsigned skip, struct tpl_buf *b)
{
	b->len = 0;
	if (array_grow((void **)&b->p, &b->cap, (size_t)d->all_text.n + 1, 1))
		return -1;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		const struct doc_block *const k = &blk[i];
		if ((k->flags & need) != need || (k->flags & (skip | TPL_MARK)))
			continue;
		if (b->len)
			b->p[b->len++] = '\n';
		memcpy(b->p + b->len, d->all_text.p + k->off, k->len);
		b->len += k->len;
	}
	b->p[b->len] = 0;
	return 0;
}

/*
 * The page model's text (docrec_text()'s, the content blocks '\n'-joined)
 * from the blocks @blk already decoded, not from their varints again:
 * one run of adjacent content blocks is that stretch of all_text as it
 * stands, several are joined in @b.  @return 0 or -1.
 */
static int content_text(const struct doc_record *d, const struct doc_block *blk,
			struct tpl_buf *b, struct str *text)
{
	uint32_t first = 0, last = 0, runs = 0;
	unsigned prev = 0;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		const unsigned c = blk[i].flags & DB_CONTENT;
		if (c && !prev && ++runs == 1)
			first = blk[i].off;
		if (c && runs == 1)
			last = blk[i].off + blk[i].len;
		prev = c;
	}
	if (runs <= 1) {
		*text = runs ? (struct str){d->all_text.p + first, last - first} : (struct str){"", 0};
		return 0;
	}
	/* no content block is a template's (TPL_MARK) here */
	if (join(d, blk, DB_CONTENT, 0, b))
		return -1;
	*text = (struct str){b->p, (uint32_t)b->len};
	return 0;
}

/*
 * The length of the separator at @p (of @n bytes) between a headline and
 * a site's name in a <title>, 0 if none.  @spaced: spaces stood before
 * it.  Unspaced ("Title|Site", "标题_站名", "标题｜站名"), only the
 * marks that never sit inside a word count: a hyphen, colon or slash
 * after a word ("Covid-19", "Re:Zero") is part of the headline.
 */
static size_t title_sep(const unsigned char *p, size_t n, int spaced)
{
	if (p[0] == '|' || p[0] == '_')
		return 1;
	if (p[0] == '-' || p[0] == ':' || p[0] == '/')
		return spaced;
	/* spaced, the lead byte of a dash, bar, dot or fullwidth mark will do
	 * (what was taken before unspaced titles were) */
	if (spaced && (p[0] == 0xc2 || p[0] == 0xe2 || p[0] == 0xef))
		return 1;
	/* U+00B7 middle dot, U+00BB », U+2013 and U+2014 dashes, U+2022
	 * bullet, U+30FB katakana middle dot, U+FF0D fullwidth hyphen,
	 * U+FF1A fullwidth colon, U+FF5C fullwidth bar */
	static const char *const marks[] = {"\xc2\xb7", "\xc2\xbb", "\xe2\x80\x93",
					   "\xe2\x80\x94", "\xe2\x80\xa2", "\xe3\x83\xbb",
					   "\xef\xbc\x8d", "\xef\xbc\x9a", "\xef\xbd\x9c"};
	for (size_t k = 0; k < sizeof marks / sizeof *marks; k++) {
		const size_t m = strlen(marks[k]);
		if (m <= n && !memcmp(p, marks[k], m))
			return m;
	}
	return 0;
}

/*
 * Does the <title> @t open with @h: is it @h, or @h, a separator and more
 * ("Headline - Site", "Headline|Site", "标题_站名")?  @return the length
 * of what follows @h and the spaces after it (0 when @t is @h), or -1.
 */
static long title_opens(const char *h, size_t n, struct str t)
{
	if (!n || n > t.n || memcmp(h, t.p, n))
		return -1;
	if (n == t.n)
		return 0;
	size_t i = n;
	while (i < t.n && t.p[i] == ' ')
		i++;
	if (i == t.n || !title_sep((const unsigned char *)t.p + i, t.n - i, i > n))
		return -1;
	return (long)(t.n - i);
}

/*
 * Is @h the page's own headline: its <title> @t, or the title's first
 * part before a separator and the site's name (title_opens())?  The name
 * is the shorter part; "Site | Headline" is not taken, so that a site
 * name heading every page is not either.
 */
static int is_headline(const char *h, size_t n, struct str t)
{
	const long rest = title_opens(h, n, t);
	return rest >= 0 && (size_t)rest < n;
}

/*
 * Teasers and lists on other pages of a site ("You may also like", an
 * index, a forum's recent topics) quote a page's headline and first
 * lines, often on enough pages to make them template.  A template does
 * not carry the page's own title, though: when a heading that is the
 * page's headline (is_headline()) is template, and the block after it is
 * too (a teaser's summary line), the two and the page model's content
 * blocks that follow and are template too are the page's own and stay
 * (none chrome or pointers).  One heading alone that repeats is more
 * likely the site's than quoted.
 */
static void own_headline(const struct doc_record *d, struct doc_block *blk)
{
	const unsigned hd = DB_HEADING | TPL_MARK, not = DB_SOFT | DB_POINTER;
	for (uint32_t i = 0; i + 1 < d->n_blocks; i++) {
		const struct doc_block *const k = &blk[i];
		if ((k->flags & hd) != hd || (k->flags & not) ||
		    !is_headline(d->all_text.p + k->off, k->len, d->title))
			continue;
		const struct doc_block *const next = &blk[i + 1];
		if (!(next->flags & TPL_MARK) || (next->flags & not))
			return;
		uint32_t j = i + 2;
		while (j < d->n_blocks && (blk[j].flags & (TPL_MARK | DB_CONTENT)) == (TPL_MARK | DB_CONTENT) &&
		       !(blk[j].flags & not))
			j++;
		for (; i < j; i++)
			blk[i].flags &= (uint8_t)~TPL_MARK;
		return;
	}
}

/* A bit of the blocks' flags beside TPL_MARK (never on disk): a record's
 * field that the fallback text leaves out. */
#define TPL_FIELD 0x40

struct fallback_lines {
	const struct doc_record *d;
	struct doc_block *blk;
	unsigned skip;
};

static enum valueline_kind fallback_kind(void *ctx, size_t i, int open)
{
	(void)open;
	const struct fallback_lines *const l = ctx;
	const struct doc_block *const k = &l->blk[i];
	if (k->flags & (l->skip | TPL_MARK))
		return VL_SKIP;
	if (k->flags & DB_HEADING)
		return VL_OTHER;
	return valueline_kind(l->d->all_text.p + k->off, k->len);
}

static void fallback_drop(void *ctx, size_t i)
{
	((struct fallback_lines *)ctx)->blk[i].flags |= TPL_FIELD;
}

int tpl_decide(const struct doc_record *d, const struct blockset *tpl, struct tpl_buf *buf,
	       struct str *text)
{
	if (array_grow((void **)&buf->blk, &buf->blk_cap, d->n_blocks, sizeof *buf->blk))
		return -1;
	struct doc_block *const blk = buf->blk;
	if (!tpl || !tpl->n) { /* the frame needs the hashes of the non-content blocks only */
		docrec_blocks_unhashed(d, buf->blk, DB_CONTENT);
		return content_text(d, blk, buf, text) ? -1 : TPL_PAGE;
	}
	docrec_blocks(d, blk);
	int any = 0;
	for (uint32_t i = 0; i < d->n_blocks; i++)
		if (tpl_is_template(tpl, &blk[i])) {
			blk[i].flags |= TPL_MARK;
			any = 1;
		}
	if (any && d->title.n)
		own_headline(d, blk);
	uint64_t content = 0, rest = 0, lost = 0, own = 0;
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		const struct doc_block *const k = &blk[i];
		if (k->flags & TPL_MARK) {
			lost += k->flags & DB_CONTENT ? k->len : 0;
			continue;
		}
		rest += k->len;
		content += k->flags & DB_CONTENT ? k->len : 0;
		own += k->flags & DB_POINTER ? 0 : k->len;
	}
	if (!lost)
		return content_text(d, blk, buf, text) ? -1 : TPL_PAGE;
	int choice = TPL_CONTENT;
	if (!rest)
		choice = TPL_NONE;
	else if (lost >= content && content * 100 < rest * TPL_CONFIDENT_PCT)
		choice = TPL_FALLBACK;
	if (choice == TPL_NONE) {
		*text = (struct str){"", 0};
		return choice;
	}
	const unsigned need = choice == TPL_CONTENT ? DB_CONTENT : 0;
	unsigned skip = choice == TPL_FALLBACK && own >= TPL_OWN_MIN ? DB_POINTER : 0;
	if (choice == TPL_FALLBACK) {
		/* what the page model leaves out of content (html/html_values.h) */
		struct fallback_lines l = {d, blk, skip};
		if (valueline_fields(d->n_blocks, fallback_kind, fallback_drop, &l))
			skip |= TPL_FIELD;
	}
	if (join(d, blk, need, skip, buf))
		return -1;
	/* Left with its <title>'s opening alone (an index page whose links
	 * the site's other pages quote): nothing of its own either; two
	 * sites' "Science 4" pages would otherwise match by that one line. */
	if (d->title.n && title_opens(buf->p, buf->len, d->title) >= 0) {
		*text = (struct str){"", 0};
		return TPL_NONE;
	}
	*text = (struct str){buf->p, (uint32_t)buf->len};
	return choice;
}
