/*
 * learn.c - see learn.h.
 */
#include "template/learn.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/sorted64.h"

/* A block's tally in the learner's table, per role: as a pointer, and
 * in any other role.  16 bytes, as the tally by hash alone was: counts
 * of at most TPL_LEARN_MAX_PAGES groups. */
struct slot {
	uint64_t hash;
	uint32_t seen;        /* (the last group met in + 1) << 2 | the roles
				 met there (ROLE_*); 0: an empty slot */
	uint32_t count : 10;  /* distinct groups it is not a pointer on */
	uint32_t pcount : 10; /* distinct groups it is a pointer on */
	uint32_t total : 10;  /* distinct groups it is on */
	uint32_t chrome : 1;  /* met neither as a pointer nor as content */
};
enum { ROLE_OTHER = 1, ROLE_POINTER = 2 };

struct tpl_learner {
	uint32_t *parent, *order, *start;
	size_t cap_pages, cap_order, cap_start;
	struct slot *table; /* open addressing, a power of two; all empty between calls */
	size_t cap_table;
	size_t *used; /* the slots filled by this call, emptied at its end */
	uint64_t *out;
	size_t cap_out;
	size_t *on_t; /* slots of the blocks on T groups, judged at the end */
	size_t cap_on_t;
};

struct tpl_learner *tpl_learner_new(void)
{
	return calloc(1, sizeof(struct tpl_learner));
}

void tpl_learner_free(struct tpl_learner *l)
{
	if (!l)
		return;
	free(l->parent);
	free(l->order);
	free(l->start);
	free(l->table);
	free(l->used);
	free(l->out);
	free(l->on_t);
	free(l);
}

static uint32_t find(uint32_t *parent, uint32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/*
 * Whether a block on T groups or more is template, and its key in it
 * (*@key).  Chrome, its hash: not a pointer on T groups (a menu item, a
 * footer line, a subtitle the page model takes as content on every
 * page), or met somewhere neither as a pointer nor as the page model's
 * content, in the host's chrome: template wherever it is, as by hash
 * alone.  Quoted, tpl_quoted_key(): a pointer on T groups and elsewhere
 * only the page model's content (its own page): template where it is a
 * pointer.
 */
static int role_key(const struct slot *sl, uint64_t t, uint64_t *key)
{
	if (sl->count >= t || sl->chrome)
		*key = sl->hash;
	else if (sl->pcount >= t)
		*key = tpl_quoted_key(sl->hash);
	else
		return 0;
	return 1;
}

/*
 * The pages in group order into @order: by root, then by index, as a
 * stable counting sort by root (@start: n + 1 counts), after which
 * @parent names each page's root directly.
 */
static void group_order(uint32_t *parent, size_t n, uint32_t *start, uint32_t *order)
{
	memset(start, 0, (n + 1) * sizeof *start);
	for (size_t i = 0; i < n; i++) {
		parent[i] = find(parent, (uint32_t)i);
		start[parent[i] + 1]++;
	}
	for (size_t r = 0; r < n; r++)
		start[r + 1] += start[r];
	for (size_t i = 0; i < n; i++)
		order[start[parent[i]]++] = (uint32_t)i;
}

/*
 * One pass over the @n pages in group order (l->order): each block's
 * tally by role in the table of @cap slots, the slots of the blocks that
 * reach @t groups in l->on_t (*@n_on_t), the slots filled in l->used
 * (*@n_used, also when memory runs out).  @return 0 or -1.
 */
static int tally(struct tpl_learner *l, const struct tpl_page *pages, size_t n, uint64_t t,
		 size_t cap, size_t *n_on_t, size_t *n_used)
{
	uint32_t *const parent = l->parent;
	size_t nq = 0, nu = 0;
	for (size_t o = 0; o < n; o++) {
		const size_t i = l->order[o];
		const uint32_t tag = (find(parent, (uint32_t)i) + 1) << 2;
		const uint64_t *const ptr = pages[i].pointer, *const con = pages[i].content;
		for (uint32_t k = 0; k < pages[i].n; k++) {
			const uint64_t h = pages[i].blocks[k];
			size_t at = (size_t)(h * 0x9e3779b97f4a7c15ull >> 32) & (cap - 1);
			while (l->table[at].seen && l->table[at].hash != h)
				at = (at + 1) & (cap - 1);
			struct slot *const sl = &l->table[at];
			if (!sl->seen)
				l->used[nu++] = at;
			const unsigned role = ptr && ptr[k / 64] >> (k % 64) & 1 ? ROLE_POINTER : ROLE_OTHER;
			sl->hash = h;
			if (role == ROLE_OTHER && con && !(con[k / 64] >> (k % 64) & 1))
				sl->chrome = 1;
			if ((sl->seen & ~3u) != tag) {
				sl->seen = tag;
				if (++sl->total == t) {
					if (array_grow((void **)&l->on_t, &l->cap_on_t, nq + 1,
						       sizeof *l->on_t)) {
						*n_used = nu;
						return -1;
					}
					l->on_t[nq++] = at;
				}
			} else if (sl->seen & role) {
				continue;
			}
			sl->seen |= role;
			if (role == ROLE_OTHER)
				sl->count++;
			else
				sl->pcount++;
		}
	}
	*n_on_t = nq;
	*n_used = nu;
	return 0;
}

int tpl_learn(struct tpl_learner *l, const struct tpl_page *pages, size_t n,
	      const struct tpl_params *p, const uint64_t **hashes, size_t *n_hashes,
	      uint32_t *groups)
{
	*hashes = l->out;
	*n_hashes = 0;
	*groups = 0;
	if (!n)
		return 0;
	if (n > TPL_LEARN_MAX_PAGES)
		return -1;
	if (array_grow((void **)&l->parent, &l->cap_pages, n, sizeof *l->parent))
		return -1;
	uint32_t *const parent = l->parent;
	for (size_t i = 0; i < n; i++)
		parent[i] = (uint32_t)i;
	/* The smaller index is the root, so a group is named by its first page. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (__builtin_popcountll(pages[i].sig ^ pages[j].sig) <= p->near_bits) {
				const uint32_t a = find(parent, (uint32_t)i), b = find(parent, (uint32_t)j);
				if (a != b)
					parent[a > b ? a : b] = a < b ? a : b;
			}
	uint32_t g = 0;
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		g += find(parent, (uint32_t)i) == i;
		total += pages[i].n;
	}
	*groups = g;
	if (g < p->min_pages || g < 2)
		return 0;
	uint64_t t = ((uint64_t)g * p->share_pct + 99) / 100;
	if (t < p->min_pages)
		t = p->min_pages;
	/*
	 * Pages in group order (a group is named by its first page, so by
	 * root), then one pass: a block's count goes up when the group it
	 * is met in is not the last one counted for it.  Repeats on a page
	 * and within a group count once.
	 */
	if (array_grow((void **)&l->order, &l->cap_order, n, sizeof *l->order) ||
	    array_grow((void **)&l->start, &l->cap_start, n + 1, sizeof *l->start))
		return -1;
	group_order(parent, n, l->start, l->order);
	size_t cap = 64;
	while (cap < 2 * total)
		cap *= 2;
	if (cap > l->cap_table) {
		free(l->table);
		free(l->used);
		l->table = calloc(cap, sizeof *l->table);
		l->used = malloc(cap / 2 * sizeof *l->used);
		l->cap_table = cap;
		if (!l->table || !l->used) {
			free(l->table);
			free(l->used);
			l->table = NULL;
			l->used = NULL;
			l->cap_table = 0;
			return -1;
		}
	}
	/* Each block on T groups is judged at the end (role_key()). */
	size_t out = 0, nq = 0, nu = 0;
	int rc = tally(l, pages, n, t, cap, &nq, &nu);
	for (size_t q = 0; !rc && q < nq; q++) {
		uint64_t key;
		if (!role_key(&l->table[l->on_t[q]], t, &key))
			continue;
		rc = array_grow((void **)&l->out, &l->cap_out, out + 2, sizeof *l->out);
		if (rc)
			break;
		l->out[out++] = key;
		if (key == l->table[l->on_t[q]].hash && 2 * (uint64_t)l->table[l->on_t[q]].total >= g)
			l->out[out++] = tpl_core_key(key);
	}
	/* The slots filled are emptied, not the whole table: a host's pages
	 * repeat their template blocks, so they fill a few of the slots
	 * sized for all their blocks. */
	for (size_t k = 0; k < nu; k++)
		l->table[l->used[k]] = (struct slot){0};
	if (rc)
		return -1;
	qsort(l->out, out, sizeof *l->out, u64_cmp);
	/* a quoted key equal to another block's hash: kept once */
	size_t u = 0;
	for (size_t i = 0; i < out; i++)
		if (!u || l->out[i] != l->out[u - 1])
			l->out[u++] = l->out[i];
	out = u;
	*hashes = l->out;
	*n_hashes = out;
	return 0;
}
