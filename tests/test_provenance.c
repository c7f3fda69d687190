/*
 * test_provenance.c - the filter of pairs by slot (prov_slots_allowed(),
 * which reads a byte per document and the records only when it must)
 * gives prov_pair_allowed()'s answer for every kind of text, payload and
 * distance, and that answer is the documented rule.
 */
#include <string.h>

#include "provenance.h"
#include "testutil.h"

static void fill(struct provenance *p, uint32_t slot, int has_text, int short_text,
		 uint64_t payload)
{
	struct prov_doc *d = &p->doc[slot];
	memset(d, 0, sizeof *d);
	d->text = (uint8_t)((has_text ? PROV_HAS_TEXT : 0) | (short_text ? PROV_SHORT_TEXT : 0));
	d->payload_hash = payload;
	p->text[slot] = d->text;
}

static void test_slots_allowed(void)
{
	struct prov_doc doc[2];
	uint8_t text[2];
	struct provenance p;
	memset(&p, 0, sizeof p);
	p.doc = doc;
	p.text = text;
	p.n = 2;
	int allowed = 0, refused = 0;
	for (int kind = 0; kind < 16; kind++) /* has_text and short_text of both */
		for (int same_payload = 0; same_payload < 2; same_payload++)
			for (uint32_t d = 0; d < 4; d++) {
				fill(&p, 0, kind & 1, kind >> 1 & 1, 7);
				fill(&p, 1, kind >> 2 & 1, kind >> 3 & 1, same_payload ? 7 : 8);
				const int want = prov_pair_allowed(&doc[0], &doc[1], d);
				/* the rule as documented, spelled out */
				const int ha = kind & 1, sa = kind >> 1 & 1, hb = kind >> 2 & 1,
					  sb = kind >> 3 & 1;
				CHECK(want == ((same_payload && d == 0) ||
					       (ha && hb && sa == sb && (!sa || d == 0))));
				CHECK(prov_slots_allowed(&p, 0, 1, d) == want);
				CHECK(prov_slots_allowed(&p, 1, 0, d) == want);
				allowed += want;
				refused += !want;
			}
	CHECK(allowed > 0 && refused > 0); /* both answers were asked for */
}

int main(void)
{
	test_slots_allowed();
	return test_finish("test_provenance");
}
