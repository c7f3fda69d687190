/*
 * ndd-documents - documents.csv: every document of tonight, keep or drop.
 *
 * Tonight's clusters (self-join's clusters.csv) say which of tonight's
 * pages are copies of each other.  The pages of earlier nights (their
 * fingerprint catalogs, kept in the index of nights) are looked up in
 * tonight's compressed tables: each earlier night's fingerprints are the
 * queries of a batch (query.h), so no earlier night needs tables of its
 * own, only its catalog.  Which copy of each group is kept, and the file,
 * are keep.h's and documents_csv.h's, which ndd-self-join shares: it
 * writes documents.csv itself when no earlier night is looked up.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "format/catalog.h"
#include "format/ndf.h"
#include "output/documents_csv.h"
#include "output/keep.h"
#include "output/provenance.h"
#include "tables/design.h"
#include "tables/join.h"
#include "tables/query.h"
#include "util/cli.h"
#include "util/log.h"
#include "util/outfile.h"

struct night {
	const char *name, *path;
	size_t n_docs;
	struct pair_vec pairs; /* a = its document, b = tonight's */
	struct provenance prov;
};

struct opts {
	struct cli_common cc;
	int k;
	enum keep_rule keep;
	const char *catalog, *tables, *clusters, *stats;
	struct night *nights; /* oldest first */
	int n_nights;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-documents -c FPS [--tables TABLES] --clusters CSV [options]\n"
		"Write documents.csv: every document of tonight's catalog FPS, in order, kept\n"
		"or dropped as a copy of a page of tonight (clusters.csv of ndd-self-join) or\n"
		"of an earlier night (whose catalog is looked up in tonight's TABLES).\n\n"
		"  -c, --catalog FILE  tonight's fingerprints (the catalog of TABLES)\n"
		"      --tables FILE   tonight's compressed tables (needed with --earlier)\n"
		"      --clusters FILE tonight's clusters.csv (ndd-self-join -o)\n"
		"      --earlier NAME=FPS  an earlier night's catalog, named NAME in the\n"
		"                      output; repeat, the oldest night first\n"
		"      --keep RULE     which copy is kept: earliest (default: earliest night,\n"
		"                      then earliest WARC-Date, then input order), most-linked\n"
		"                      (most near-duplicates in its group), shortest-url\n"
		"  -k, --distance K    pairs within K (default: the tables' k; not more)\n"
		"      --stats FILE    write statistics as JSON\n" CLI_COMMON_HELP
		"Output columns: url,warc_file,warc_offset,record_id,warc_date,fingerprint,\n"
		"cluster_id,decision,duplicate_of,duplicate_of_night,match (decision: keep, drop;\n"
		"match: a dropped page's duplicate type against the kept copy).\n");
	exit(status);
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_TABLES = CLI_OPT_STAGE_BASE, OPT_CLUSTERS, OPT_EARLIER, OPT_KEEP, OPT_STATS };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"catalog", required_argument, NULL, 'c'},
		{"tables", required_argument, NULL, OPT_TABLES},
		{"clusters", required_argument, NULL, OPT_CLUSTERS},
		{"earlier", required_argument, NULL, OPT_EARLIER},
		{"keep", required_argument, NULL, OPT_KEEP},
		{"distance", required_argument, NULL, 'k'},
		{"stats", required_argument, NULL, OPT_STATS},
		{NULL, 0, NULL, 0},
	};
	int c;
	o->k = -1;
	o->nights = xcalloc((size_t)argc, sizeof *o->nights);
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "c:k:", longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		switch (c) {
		case 'c': o->catalog = optarg; break;
		case 'k': o->k = (int)cli_parse_int("--distance", optarg, 0, DESIGN_MAX_K); break;
		case OPT_TABLES: o->tables = optarg; break;
		case OPT_CLUSTERS: o->clusters = optarg; break;
		case OPT_STATS: o->stats = optarg; break;
		case OPT_EARLIER: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1]) {
				log_error("--earlier wants NAME=FPS, got '%s'", optarg);
				usage(stderr, EXIT_FAILED);
			}
			*eq = '\0';
			o->nights[o->n_nights].name = optarg;
			o->nights[o->n_nights++].path = eq + 1;
			break;
		}
		case OPT_KEEP:
			if (keep_rule_parse(optarg, &o->keep)) {
				log_error("--keep: earliest, most-linked or shortest-url, not '%s'",
					  optarg);
				usage(stderr, EXIT_FAILED);
			}
			break;
		default: usage(stderr, EXIT_FAILED);
		}
	}
	if (!o->catalog || !o->clusters || optind < argc) {
		log_error("--catalog and --clusters are required, and nothing else");
		usage(stderr, EXIT_FAILED);
	}
	if (o->n_nights && !o->tables) {
		log_error("--earlier looks nights up in tonight's tables: give --tables");
		usage(stderr, EXIT_FAILED);
	}
	cli_common_finish(&o->cc);
}

/* ---- the earlier nights ---- */

struct run {
	const struct opts *o;
	struct ndf_header tables; /* tonight's first table */
	struct provenance tonight;
	struct keep_clusters cl;
	struct keep_night *kn; /* the nights as keep.h sees them */
	struct keep_plan plan;
	struct query_stats qst;
	struct documents_stats st;
};

/* Look night @n's fingerprints up in tonight's tables; mark the pages
 * paired (both sides) for their provenance. */
static int look_up(struct run *r, struct night *n)
{
	uint64_t *q = NULL;
	size_t nq = 0;
	struct catalog_info info;
	struct ndf_header first;
	struct design d;
	memset(&d, 0, sizeof d);
	if (catalog_simhashes(&n->path, 1, &q, &nq, &info))
		return -1;
	int rc = 0;
	if (info.feature_config != r->tables.feature_config) {
		log_error("night '%s' (%s) was fingerprinted with other settings (feature config "
			  "%016llx) than tonight (%016llx): its pages cannot be compared",
			  n->name, n->path, (unsigned long long)info.feature_config,
			  (unsigned long long)r->tables.feature_config);
		rc = -1;
	}
	if (!rc)
		rc = query_file(r->o->tables, q, nq, info.feature_config, &n->pairs, &r->qst, &first,
				&d);
	design_free(&d);
	free(q);
	n->n_docs = nq;
	if (rc || prov_init(&n->prov, nq))
		return -1;
	pair_vec_limit(&n->pairs, r->o->k >= 0 ? (uint32_t)r->o->k : r->tables.k);
	for (size_t i = 0; i < n->pairs.n; i++) {
		prov_mark(&n->prov, n->pairs.v[i].a);
		prov_mark(&r->tonight, n->pairs.v[i].b);
	}
	return 0;
}

/* The pairs of every night that may be reported (prov_pair_allowed()),
 * sorted by group.  *@nx gets their number. */
static struct keep_cross *gather(const struct run *r, size_t *nx)
{
	size_t n = 0, total = 0;
	for (int j = 0; j < r->o->n_nights; j++)
		total += r->o->nights[j].pairs.n;
	struct keep_cross *x = xmalloc((total + 1) * sizeof *x);
	for (int j = 0; j < r->o->n_nights; j++) {
		const struct night *nt = &r->o->nights[j];
		for (size_t i = 0; i < nt->pairs.n; i++) {
			const struct pair *pr = &nt->pairs.v[i];
			if (!prov_pair_allowed(prov_get(&nt->prov, pr->a),
					       prov_get(&r->tonight, pr->b), pr->d))
				continue;
			x[n++] = (struct keep_cross){keep_group(&r->plan, pr->b), (uint32_t)j, pr->a,
						     pr->b};
		}
	}
	keep_cross_sort(x, n);
	*nx = n;
	return x;
}

/* ---- main ---- */

/* The header of the first section of @path, which must hold @kind. */
static int read_header(const char *path, uint32_t kind, struct ndf_header *h)
{
	FILE *fp = fopen(path, "rb");
	struct ndf_section *sec = NULL;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	int rc = ndf_section_open(fp, path, 0, &sec) ? -1 : 0;
	if (!rc)
		*h = *ndf_section_header(sec);
	if (!rc && h->kind != kind) {
		log_error("'%s': holds %s, expected %s", path, ndf_kind_name(h->kind),
			  ndf_kind_name(kind));
		rc = -1;
	}
	ndf_section_close(sec);
	fclose(fp);
	return rc;
}

/* Tonight's count, from the tables (or without earlier nights the
 * catalog's header: a run that joined in memory wrote no tables), and
 * tonight's clusters. */
static int read_tonight(struct run *r)
{
	const struct opts *o = r->o;
	int rc = o->tables ? read_header(o->tables, NDF_KIND_CTABLE, &r->tables)
			   : read_header(o->catalog, NDF_KIND_FPS, &r->tables);
	if (!rc && o->tables && o->k > (int)r->tables.k) {
		log_error("tables were built for k = %u; they cannot find pairs within %d",
			  r->tables.k, o->k);
		rc = -1;
	}
	if (!rc && r->tables.record_count >= UINT32_MAX) {
		log_error("too many documents tonight (%llu)",
			  (unsigned long long)r->tables.record_count);
		rc = -1;
	}
	if (!rc)
		rc = prov_init(&r->tonight, r->tables.record_count);
	if (!rc)
		rc = keep_clusters_read(&r->cl, o->clusters, r->tonight.n_docs);
	for (uint32_t t = 0; !rc && t < r->tonight.n_docs; t++)
		if (r->cl.cid[t])
			prov_mark(&r->tonight, t);
	return rc;
}

/* The provenance of tonight's pages that are named, then of the earlier
 * nights' (after every look-up has marked its pages). */
static int load_provenance(struct run *r)
{
	const struct opts *o = r->o;
	struct catalog_info info;
	int rc = prov_load(&r->tonight, &o->catalog, 1, &info);
	if (!rc && !o->tables && info.n_records != r->tables.record_count) {
		log_error("'%s': %llu records, its first section %llu: one catalog "
			  "section only without --tables",
			  o->catalog, (unsigned long long)info.n_records,
			  (unsigned long long)r->tables.record_count);
		rc = -1;
	}
	if (!rc && o->tables && info.dataset_id != r->tables.dataset_id) {
		log_error("'%s' is not the catalog the tables '%s' were built from", o->catalog,
			  o->tables);
		rc = -1;
	}
	for (int j = 0; !rc && j < o->n_nights; j++)
		if (o->nights[j].pairs.n) /* else nothing of it is named */
			rc = prov_load(&o->nights[j].prov, &o->nights[j].path, 1, &info);
	return rc;
}

/* Decide and write documents.csv to @out. */
static int write_documents(struct run *r, struct outfile *out)
{
	const struct opts *o = r->o;
	size_t nx = 0;
	r->kn = xcalloc((size_t)o->n_nights + 1, sizeof *r->kn);
	for (int j = 0; j < o->n_nights; j++)
		r->kn[j] = (struct keep_night){o->nights[j].name, &o->nights[j].prov};
	r->plan = (struct keep_plan){.rule = o->keep, .tonight = &r->tonight, .cl = &r->cl,
				     .nights = r->kn, .n_nights = o->n_nights};
	struct keep_cross *x = gather(r, &nx);
	int rc = keep_decide(&r->plan, x, nx);
	free(x);
	r->st.earlier_pairs = nx;
	if (!rc)
		rc = outfile_open(out, o->cc.output);
	if (!rc)
		rc = documents_csv_write(&r->plan, &o->catalog, 1, out, &r->st.c);
	if (!rc)
		rc = outfile_commit(out);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {0};
	struct run r;
	struct outfile out = {0};
	double t0 = log_wall();

	log_init("ndd-documents");
	parse(&o, argc, argv);
	memset(&r, 0, sizeof r);
	r.o = &o;
	int rc = read_tonight(&r);
	for (int j = 0; !rc && j < o.n_nights; j++)
		rc = look_up(&r, &o.nights[j]);
	if (!rc)
		rc = load_provenance(&r);
	if (!rc)
		rc = write_documents(&r, &out);
	r.st.documents = r.tonight.n_docs;
	r.st.earlier_nights = o.n_nights;
	r.st.blocks_read = r.qst.blocks_read;
	r.st.seconds = log_wall() - t0;
	if (!rc && o.stats)
		rc = documents_stats_write(o.stats, &r.st);
	if (!rc)
		cli_summary("%zu documents: %llu kept, %llu dropped (%llu as copies of %d earlier "
			    "night(s)); %llu blocks of tonight's tables read",
			    r.tonight.n_docs, (unsigned long long)r.st.c.kept,
			    (unsigned long long)r.st.c.dropped,
			    (unsigned long long)r.st.c.dropped_earlier, o.n_nights,
			    (unsigned long long)r.qst.blocks_read);
	else
		outfile_abort(&out);
	for (int j = 0; j < o.n_nights; j++) {
		prov_free(&o.nights[j].prov);
		pair_vec_free(&o.nights[j].pairs);
	}
	prov_free(&r.tonight);
	keep_clusters_free(&r.cl);
	keep_plan_free(&r.plan);
	free(r.kn);
	free(o.nights);
	return rc ? EXIT_FAILED : EXIT_OK;
}
