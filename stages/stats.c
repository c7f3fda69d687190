/*
 * ndd-stats - run_pipeline.sh's stats.json: the run (version, start and end
 * time, command line, settings, inputs, exit status), each stage's own
 * statistics and the seconds per stage, as one JSON document.
 *
 * Written here rather than by the shell because names are bytes: a path
 * with a newline, a quote or a non-UTF-8 byte must still give valid JSON
 * (json.h).  A stage's statistics file is embedded only if it is valid
 * JSON; otherwise the run fails, rather than publish a broken document.
 *
 * --verify reads .ndf files through and checks them whole: run_pipeline.sh's
 * completion markers hold only an .ndf output's size and last tail (cheap
 * to write while the next step runs), so --resume trusts such a file only
 * once every section's header, every block's CRC and every tail's totals
 * agree (docs/DESIGN-NOTES.md, "Resuming a run").
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format/ndf.h"
#include "output/json.h"
#include "output/json_read.h"
#include "util/cli.h"
#include "util/log.h"
#include "util/outfile.h"

#define MAX_ITEMS 64

struct pair {
	const char *name, *value;
};

struct opts {
	struct cli_common cc;
	const char *started, *ended, *inputs0;
	int exit_status;
	struct pair settings[MAX_ITEMS], stages[MAX_ITEMS], seconds[MAX_ITEMS];
	int n_settings, n_stages, n_seconds;
	int verify;
	char **argv;
	int argc;
};

static void usage(FILE *fp, int status)
{
	fprintf(fp,
		"Usage: ndd-stats [options] -o FILE [-- COMMAND LINE...]\n"
		"       ndd-stats --verify FILE.ndf...\n"
		"Write a run's statistics as one JSON document; the words after '--'\n"
		"are the run's command line.  With --verify, read each .ndf file\n"
		"through and check every section's header, every block's CRC and\n"
		"every section's tail; exit 0 if all are intact, 2 if one is not\n"
		"(or cannot be read), naming it.\n\n"
		"      --started EPOCH    start time, seconds since 1970 (date +%%s.%%N)\n"
		"      --ended EPOCH      end time\n"
		"      --exit-status N    the run's exit status\n"
		"      --setting NAME=VALUE  a top-level setting (a number, true or false\n"
		"                         stays one, anything else becomes a string)\n"
		"      --stage NAME=FILE  a stage's JSON statistics, as the member NAME\n"
		"      --seconds NAME=S   seconds stage NAME took, in \"seconds\"\n"
		"      --inputs0 FILE     the input names, each ended by NUL\n"
		"      --verify           check the .ndf files named, write nothing\n" CLI_COMMON_HELP);
	exit(status);
}

static void add_pair(struct pair *p, int *n, const char *opt, char *arg)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || *n == MAX_ITEMS) {
		log_error("%s wants NAME=VALUE (at most %d), got '%s'", opt, MAX_ITEMS, arg);
		exit(EXIT_FAILED);
	}
	*eq = '\0';
	p[*n].name = arg;
	p[*n].value = eq + 1;
	(*n)++;
}

static void parse(struct opts *o, int argc, char **argv)
{
	enum { OPT_STARTED = CLI_OPT_STAGE_BASE, OPT_ENDED, OPT_EXIT, OPT_SETTING, OPT_STAGE,
	       OPT_SECONDS, OPT_INPUTS0, OPT_VERIFY };
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{"started", required_argument, NULL, OPT_STARTED},
		{"ended", required_argument, NULL, OPT_ENDED},
		{"exit-status", required_argument, NULL, OPT_EXIT},
		{"setting", required_argument, NULL, OPT_SETTING},
		{"stage", required_argument, NULL, OPT_STAGE},
		{"seconds", required_argument, NULL, OPT_SECONDS},
		{"inputs0", required_argument, NULL, OPT_INPUTS0},
		{"verify", no_argument, NULL, OPT_VERIFY},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		if (cli_common_option(&o->cc, c, optarg, usage))
			continue;
		if (c == OPT_STARTED)
			o->started = optarg;
		else if (c == OPT_ENDED)
			o->ended = optarg;
		else if (c == OPT_EXIT)
			o->exit_status = (int)cli_parse_int("--exit-status", optarg, 0, 255);
		else if (c == OPT_SETTING)
			add_pair(o->settings, &o->n_settings, "--setting", optarg);
		else if (c == OPT_STAGE)
			add_pair(o->stages, &o->n_stages, "--stage", optarg);
		else if (c == OPT_SECONDS)
			add_pair(o->seconds, &o->n_seconds, "--seconds", optarg);
		else if (c == OPT_INPUTS0)
			o->inputs0 = optarg;
		else if (c == OPT_VERIFY)
			o->verify = 1;
		else
			usage(stderr, EXIT_FAILED);
	}
	o->argv = argv + optind;
	o->argc = argc - optind;
}

/* Whole file into a NUL-terminated buffer (freed by the caller), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		log_error("'%s': %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0, got;
	char *buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, fp)) > 0)
		if ((n += got) + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
	const int bad = ferror(fp);
	fclose(fp);
	if (bad) {
		log_error("'%s': read error", path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* @epoch (seconds since 1970, maybe with a fraction) as ISO 8601 UTC. */
static void put_time(FILE *fp, const char *key, const char *epoch)
{
	char *end;
	const double t = strtod(epoch, &end);
	const time_t s = (time_t)t;
	struct tm tm;
	char buf[32];
	if (end == epoch || !gmtime_r(&s, &tm) ||
	    !strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		fprintf(fp, "  \"%s\": null,\n", key);
		return;
	}
	fprintf(fp, "  \"%s\": \"%s\",\n", key, buf);
}

/* A setting's value: a JSON number, true or false as it is, else a string. */
static void put_value(FILE *fp, const char *v)
{
	const size_t n = strlen(v);
	const int literal = !strcmp(v, "true") || !strcmp(v, "false") ||
			    (n && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) && json_check(v, n));
	if (literal)
		fputs(v, fp);
	else
		json_put_string(fp, v, n);
}

static int put_inputs(FILE *fp, const char *path)
{
	size_t len = 0;
	char *buf = slurp(path, &len);
	if (!buf)
		return -1;
	fputs("  \"inputs\": [", fp);
	const char *sep = "";
	for (size_t i = 0; i < len;) {
		const size_t n = strnlen(buf + i, len - i);
		fprintf(fp, "%s\n    ", sep);
		json_put_string(fp, buf + i, n);
		sep = ",";
		i += n + 1;
	}
	fputs("],\n", fp);
	free(buf);
	return 0;
}

static int put_stage(FILE *fp, const struct pair *s)
{
	size_t len = 0;
	char *buf = slurp(s->value, &len);
	if (!buf)
		return -1;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	if (!json_check(buf, len)) {
		log_error("'%s': the statistics of stage %s are not valid JSON", s->value, s->name);
		free(buf);
		return -1;
	}
	fputs("  ", fp);
	json_put_cstr(fp, s->name);
	fprintf(fp, ": %s,\n", buf);
	free(buf);
	return 0;
}

static int write_doc(FILE *fp, const struct opts *o)
{
	fprintf(fp, "{\n  \"version\": \"%s\",\n", NDD_VERSION_STRING);
	put_time(fp, "started", o->started ? o->started : "");
	put_time(fp, "ended", o->ended ? o->ended : "");
	if (o->started && o->ended)
		fprintf(fp, "  \"seconds_total\": %.3f,\n", strtod(o->ended, NULL) - strtod(o->started, NULL));
	fputs("  \"command_line\": [", fp);
	for (int i = 0; i < o->argc; i++) {
		fputs(i ? ", " : "", fp);
		json_put_cstr(fp, o->argv[i]);
	}
	fprintf(fp, "],\n  \"exit_status\": %d,\n", o->exit_status);
	for (int i = 0; i < o->n_settings; i++) {
		fputs("  ", fp);
		json_put_cstr(fp, o->settings[i].name);
		fputs(": ", fp);
		put_value(fp, o->settings[i].value);
		fputs(",\n", fp);
	}
	if (o->inputs0 && put_inputs(fp, o->inputs0))
		return -1;
	for (int i = 0; i < o->n_stages; i++)
		if (put_stage(fp, &o->stages[i]))
			return -1;
	fputs("  \"seconds\": {", fp);
	for (int i = 0; i < o->n_seconds; i++) {
		fputs(i ? ", " : "", fp);
		json_put_cstr(fp, o->seconds[i].name);
		fputs(": ", fp);
		put_value(fp, o->seconds[i].value);
	}
	fputs("}\n}\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* Every section of @path in turn, to the end of the file; an empty file
 * holds no section and is not intact. */
static int verify_ndf(const char *path)
{
	FILE *fp = fopen(path, "rb");
	struct ndf_block b = {0};
	int err = 0, sections = 0;
	if (!fp) {
		log_error("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		struct ndf_reader *r = ndf_reader_open(fp, path, &err);
		if (!r)
			break;
		/* mapped: the blocks are checked in place, not copied */
		(void)ndf_reader_map(r);
		while ((err = ndf_read_block(r, &b)) > 0)
			;
		ndf_reader_close(r);
		if (err)
			break;
		sections++;
	}
	ndf_block_free(&b);
	fclose(fp);
	if (!err && !sections) {
		log_error("'%s': %s: empty file, no section", path,
			  ndf_strerror(NDF_ERR_TRUNCATED));
		err = NDF_ERR_TRUNCATED;
	}
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct opts o;
	struct outfile f = {0};
	log_init("ndd-stats");
	cli_die_with_parent();
	parse(&o, argc, argv);
	if (o.verify) {
		int bad = o.argc == 0;
		if (bad)
			log_error("--verify wants the .ndf files to check");
		for (int i = 0; i < o.argc; i++)
			bad |= verify_ndf(o.argv[i]) != 0;
		return bad ? EXIT_FAILED : EXIT_OK;
	}
	if (outfile_open(&f, o.cc.output))
		return EXIT_FAILED;
	if (write_doc(f.fp, &o)) {
		outfile_abort(&f);
		return EXIT_FAILED;
	}
	return outfile_commit(&f) ? EXIT_FAILED : EXIT_OK;
}
