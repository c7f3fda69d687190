/*
 * keep.c - see keep.h.
 */
#include "output/keep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csv_read.h"
#include "util/grow.h"
#include "util/log.h"

int keep_rule_parse(const char *name, enum keep_rule *rule)
{
	static const char *const names[] = {"earliest", "most-linked", "shortest-url"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, names[i])) {
			*rule = (enum keep_rule)i;
			return 0;
		}
	return -1;
}

/* Room for cluster ids up to @id in the per-cluster arrays of @kc, whose
 * capacity is *@cap.  @return 0, or -1 on OOM. */
static int grow_clusters(struct keep_clusters *kc, size_t *cap, uint64_t id)
{
	const size_t old = *cap;
	size_t rep_cap = old;
	if (id < old)
		return 0;
	/* the same need from the same capacity: both grow alike */
	if (array_grow((void **)&kc->size, cap, id + 1, sizeof *kc->size) ||
	    array_grow((void **)&kc->rep, &rep_cap, id + 1, sizeof *kc->rep)) {
		*cap = old;
		return -1;
	}
	memset(kc->size + old, 0, (*cap - old) * sizeof *kc->size);
	memset(kc->rep + old, 0, (*cap - old) * sizeof *kc->rep);
	return 0;
}

/* One row of clusters.csv: columns @col of @r as (cluster, document,
 * representative) into @kc.  @return 0, 1 if it is not a member of
 * tonight's clusters, or -1 on OOM. */
static int add_member(struct keep_clusters *kc, size_t *cap, const struct csv_record *r,
		      const long col[3], size_t n_docs, uint64_t v[3])
{
	int ok = 1;
	for (int i = 0; i < 3; i++)
		ok &= (size_t)col[i] < r->n_fields && !csv_field_u64(r, (size_t)col[i], &v[i]);
	if (!ok || v[0] == 0 || v[0] >= UINT32_MAX || v[1] >= n_docs || v[2] > 1 || kc->cid[v[1]])
		return 1;
	if (grow_clusters(kc, cap, v[0]))
		return -1;
	kc->cid[v[1]] = (uint32_t)v[0];
	kc->size[v[0]]++;
	if (v[2])
		kc->rep[v[0]] = (uint32_t)v[1];
	if (v[0] > kc->n_clusters)
		kc->n_clusters = (uint32_t)v[0];
	return 0;
}

/* The columns cluster_id, doc_id and is_representative of the header
 * row of @fp into @col.  @return 0, or -1 (logged). */
static int find_columns(FILE *fp, const char *path, struct csv_record *r, long col[3])
{
	static const char *const names[3] = {"cluster_id", "doc_id", "is_representative"};
	const int got = csv_read_record(fp, r);
	if (got < 0) {
		if (ferror(fp))
			log_error("cannot read '%s': %m", path);
		else
			log_error("'%s', row 1: not well-formed CSV", path);
		return -1;
	}
	for (int i = 0; i < 3; i++)
		col[i] = got ? csv_column(r, names[i]) : -1;
	if (col[0] < 0 || col[1] < 0 || col[2] < 0) {
		log_error("'%s': no cluster_id, doc_id and is_representative columns: "
			  "not a clusters.csv of ndd-self-join", path);
		return -1;
	}
	return 0;
}

int keep_clusters_read(struct keep_clusters *kc, const char *path, size_t n_docs)
{
	FILE *fp = fopen(path, "rb");
	struct csv_record r = {0};
	size_t line = 1, cap = 0;
	long col[3];
	int rc = -1, got = 0;
	memset(kc, 0, sizeof *kc);
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	if (find_columns(fp, path, &r, col))
		goto done;
	if (!(kc->cid = calloc(n_docs + 1, sizeof *kc->cid)) || grow_clusters(kc, &cap, 0))
		goto oom;
	while (line++, (got = csv_read_record(fp, &r)) > 0) {
		uint64_t v[3] = {0, 0, 0};
		const int bad = add_member(kc, &cap, &r, col, n_docs, v);
		if (bad < 0)
			goto oom;
		if (bad) {
			log_error("'%s', row %zu: not a member of tonight's clusters "
				  "(cluster %llu, document %llu of %zu)",
				  path, line, (unsigned long long)v[0], (unsigned long long)v[1], n_docs);
			goto done;
		}
	}
	if (ferror(fp))
		log_error("cannot read '%s': %m", path);
	else if (got < 0)
		log_error("'%s', row %zu: not well-formed CSV", path, line);
	else
		rc = 0;
	goto done;
oom:
	log_error("out of memory for the clusters of '%s'", path);
done:
	csv_record_free(&r);
	fclose(fp);
	return rc;
}

int keep_clusters_from(struct keep_clusters *kc, const struct clusters *cl,
		       const struct provenance *d, size_t n_docs)
{
	memset(kc, 0, sizeof *kc);
	if (cl->n_clusters >= UINT32_MAX - 1) {
		log_error("%zu clusters: more than documents.csv numbers", cl->n_clusters);
		return -1;
	}
	kc->n_clusters = (uint32_t)cl->n_clusters;
	kc->cid = calloc(n_docs + 1, sizeof *kc->cid);
	kc->size = malloc((cl->n_clusters + 1) * sizeof *kc->size);
	kc->rep = malloc((cl->n_clusters + 1) * sizeof *kc->rep);
	if (!kc->cid || !kc->size || !kc->rep) {
		log_error("out of memory for the clusters of %zu documents", n_docs);
		keep_clusters_free(kc);
		return -1;
	}
	kc->size[0] = kc->rep[0] = 0;
	for (size_t c = 0; c < cl->n_clusters; c++) {
		kc->size[c + 1] = cl->start[c + 1] - cl->start[c];
		kc->rep[c + 1] = (uint32_t)prov_at(d, cl->doc[cl->start[c]])->doc_id;
		for (uint32_t i = cl->start[c]; i < cl->start[c + 1]; i++)
			kc->cid[prov_at(d, cl->doc[i])->doc_id] = (uint32_t)c + 1;
	}
	return 0;
}

void keep_clusters_free(struct keep_clusters *kc)
{
	free(kc->cid);
	free(kc->size);
	free(kc->rep);
	memset(kc, 0, sizeof *kc);
}

static int cross_cmp(const void *pa, const void *pb)
{
	const struct keep_cross *a = pa, *b = pb;
	if (a->g != b->g)
		return a->g < b->g ? -1 : 1;
	if (a->night != b->night)
		return a->night < b->night ? -1 : 1;
	return (a->s > b->s) - (a->s < b->s);
}

void keep_cross_sort(struct keep_cross *x, size_t n)
{
	qsort(x, n, sizeof *x, cross_cmp);
}

/* WARC-Dates as written (ISO 8601, which sorts as text); none sorts last. */
static int date_cmp(struct str a, struct str b)
{
	if (!a.n || !b.n)
		return (a.n == 0) - (b.n == 0);
	const int c = memcmp(a.p, b.p, a.n < b.n ? a.n : b.n);
	return c ? c : (a.n > b.n) - (a.n < b.n);
}

/* Whether @x is to be kept rather than @y. */
static int better(const struct keep_plan *p, const struct keep_cand *x, const struct keep_cand *y)
{
	if (y->night == KEEP_NO_NIGHT)
		return 1;
	const struct prov_doc *a = prov_get(keep_cand_prov(p, x), x->idx);
	const struct prov_doc *b = prov_get(keep_cand_prov(p, y), y->idx);
	if (p->rule == KEEP_SHORTEST_URL && a->url_len != b->url_len)
		return a->url_len < b->url_len;
	if (p->rule == KEEP_MOST_LINKED && x->links != y->links)
		return x->links > y->links;
	if (x->night != y->night)
		return x->night < y->night;
	const int d = date_cmp(prov_date(a), prov_date(b));
	return d ? d < 0 : x->idx < y->idx;
}

static void offer(struct keep_plan *p, size_t g, struct keep_cand c)
{
	if (better(p, &c, &p->win[g]))
		p->win[g] = c;
}

/* The pairs of one group, @x[0..n): tonight's page, if in no cluster,
 * has as many links as the earlier pages it matches; an earlier page as
 * many as tonight's members it matches. */
static void offer_cross(struct keep_plan *p, const struct keep_cross *x, size_t n)
{
	const uint32_t tonight = (uint32_t)p->n_nights;
	if (x[0].g >= p->cl->n_clusters)
		offer(p, x[0].g, (struct keep_cand){tonight, x[0].t, (uint32_t)n});
	for (size_t a = 0; a < n;) {
		size_t b = a;
		while (b < n && x[b].night == x[a].night && x[b].s == x[a].s)
			b++;
		offer(p, x[0].g, (struct keep_cand){x[a].night, x[a].s, (uint32_t)(b - a)});
		a = b;
	}
}

/* A cluster's representative has its other members as links, a member its
 * representative. */
int keep_decide(struct keep_plan *p, const struct keep_cross *x, size_t nx)
{
	const struct keep_clusters *cl = p->cl;
	const uint32_t tonight = (uint32_t)p->n_nights;
	/* a page of tonight in no cluster needs an entry only if an earlier
	 * page matches it */
	p->n_win = cl->n_clusters + (nx ? p->tonight->n_docs : 0);
	p->win = malloc((p->n_win + 1) * sizeof *p->win);
	if (!p->win) {
		log_error("out of memory for the groups of %zu documents", p->tonight->n_docs);
		return -1;
	}
	for (size_t g = 0; g < p->n_win; g++)
		p->win[g].night = KEEP_NO_NIGHT;
	for (uint32_t t = 0; t < p->tonight->n_docs; t++) {
		const uint32_t c = cl->cid[t];
		if (c)
			offer(p, c - 1, (struct keep_cand){tonight, t, cl->rep[c] == t ? cl->size[c] - 1 : 1});
	}
	for (size_t i = 0; i < nx;) {
		size_t j = i;
		while (j < nx && x[j].g == x[i].g)
			j++;
		offer_cross(p, x + i, j - i);
		i = j;
	}
	return 0;
}

const struct keep_cand *keep_dropped_for(const struct keep_plan *p, uint32_t t)
{
	const size_t g = keep_group(p, t);
	if (g >= p->n_win)
		return NULL;
	const struct keep_cand *w = &p->win[g];
	if (w->night == KEEP_NO_NIGHT || (w->night == (uint32_t)p->n_nights && w->idx == t))
		return NULL;
	return w;
}

void keep_plan_free(struct keep_plan *p)
{
	free(p->win);
	p->win = NULL;
	p->n_win = 0;
}
