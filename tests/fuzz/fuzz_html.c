/*
 * fuzz_html.c - libFuzzer target: the HTML tokenizer and the text
 * extraction on top of it (title, main text, blocks), over UTF-8 or any
 * bytes.  Checks what html_text.h promises: the texts are NUL-terminated
 * and within bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "html/html_text.h"
#include "html/html_tokenizer.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	static struct html_text *h;
	if (!h && !(h = html_text_new()))
		return 0;
	uint64_t sum = 0;
	struct htok t;
	struct htok_token tok;
	htok_init(&t, (const char *)data, size);
	for (size_t i = 0; i < 4 * size + 16 && htok_next(&t, &tok) != HTOK_EOF; i++)
		sum++;
	if (html_text_extract(h, (const char *)data, size))
		return 0;
	size_t tl, ml;
	const char *title = html_text_title(h, &tl);
	const char *text = html_text_main(h, &ml);
	if (title[tl] != 0 || text[ml] != 0)
		__builtin_trap();
	sum += tl + ml + (uint64_t)html_text_fallback(h);
	const size_t nb = html_text_n_blocks(h);
	for (size_t i = 0; i < nb; i++) {
		const struct html_text_block b = html_text_block_at(h, i);
		if (b.len)
			sum += (uint8_t)b.text[0] + (uint8_t)b.text[b.len - 1];
	}
	fuzz_sink(sum);
	return 0;
}
