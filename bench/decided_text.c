/*
 * decided_text - the main text ndd-fingerprint decides for each page, for
 * diagnosis: what the fingerprint sees, after the template is taken out,
 * not the page model's text alone (ndd-extract --json).
 *
 *   decided_text [--templates TPL.ndf] DOCS.ndf... > decided.jsonl
 *
 * One JSON line per document, in input order: url, choice (decide.h:
 * 0 page model, 1 content less template, 2 fallback, 3 none), text, and
 * blocks: each block's letters (C content, T template, P pointer, S soft
 * chrome, M main, H heading, F form) and text.  bench/crawl_missed.py
 * reads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/docrec.h"
#include "format/ndf.h"
#include "output/json.h"
#include "template/decide.h"
#include "template/tplset.h"
#include "util/log.h"

static void put_flags(unsigned f)
{
	static const struct {
		unsigned bit;
		char c;
	} names[] = {{DB_CONTENT, 'C'}, {TPL_MARK, 'T'}, {DB_POINTER, 'P'}, {DB_SOFT, 'S'},
		     {DB_MAIN, 'M'},    {DB_HEADING, 'H'}, {DB_FORM, 'F'}};
	putchar('"');
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (f & names[i].bit)
			putchar(names[i].c);
	putchar('"');
}

static int put_doc(const struct doc_record *d, const struct blockset *tpl, struct tpl_buf *buf)
{
	struct str text;
	const int choice = tpl_decide(d, tpl, buf, &text);
	if (choice < 0)
		return -1;
	fputs("{\"url\":", stdout);
	json_put_string(stdout, d->url.p, d->url.n);
	printf(",\"choice\":%d,\"text\":", choice);
	json_put_string(stdout, text.p, text.n);
	fputs(",\"blocks\":[", stdout);
	for (uint32_t i = 0; i < docrec_n_blocks(d); i++) {
		const struct doc_block *k = &buf->blk[i];
		fputs(i ? ",[" : "[", stdout);
		put_flags(k->flags);
		putchar(',');
		json_put_string(stdout, d->all_text.p + k->off, k->len);
		putchar(']');
	}
	fputs("]}\n", stdout);
	return 0;
}

static int scan(const char *path, const struct blockset *tpl, struct tpl_buf *buf)
{
	FILE *fp = fopen(path, "rb");
	struct ndf_block b = {0};
	int err = 0, rc = 0;
	if (!fp) {
		log_error("cannot open '%s': %m", path);
		return -1;
	}
	for (struct ndf_reader *r; rc == 0 && (r = ndf_reader_open(fp, path, &err));) {
		if (docrec_check_header(ndf_reader_header(r), path))
			rc = -1;
		int got = 0;
		while (rc == 0 && (got = ndf_read_raw_block(r, &b)) == 1) {
			const uint8_t *p = b.data, *pe = b.data + b.len;
			for (uint32_t i = 0; rc == 0 && i < b.n_records; i++) {
				struct doc_record d;
				rc = docrec_decode(&p, pe, &d) ? -1 : put_doc(&d, tpl, buf);
			}
		}
		if (got < 0)
			rc = -1;
		ndf_reader_close(r);
	}
	ndf_block_free(&b);
	fclose(fp);
	return err ? -1 : rc;
}

int main(int argc, char **argv)
{
	struct tplset ts = {0};
	const struct blockset *tpl = NULL;
	int i = 1;
	if (argc > 2 && !strcmp(argv[1], "--templates")) {
		if (tplset_load(&ts, argv[2]))
			return 2;
		tpl = tplset_any_set(&ts);
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: decided_text [--templates TPL.ndf] DOCS.ndf...\n");
		return 2;
	}
	struct tpl_buf buf = {0};
	int rc = 0;
	for (; rc == 0 && i < argc; i++)
		rc = scan(argv[i], tpl, &buf);
	tpl_buf_free(&buf);
	tplset_free(&ts);
	return rc || fflush(stdout) ? 2 : 0;
}
