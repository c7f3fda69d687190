/*
 * fuzz_http.c - libFuzzer target: the HTTP response parser and its body
 * decoding (chunked, gzip, deflate, br), with a body cap from the first
 * byte so that the cut paths run too.
 */
#include <stddef.h>
#include <stdint.h>

#include "input/http.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	static struct http_decoder *d;
	if (!d && !(d = http_decoder_new()))
		return 0;
	if (size < 1)
		return 0;
	const size_t cap = data[0] & 1 ? (size_t)data[0] * 64 : (size_t)8 << 20;
	struct http_response resp;
	if (http_parse_response(d, data + 1, size - 1, cap, &resp) == HTTP_OK) {
		uint64_t sum = resp.body_len;
		if (resp.body_len)
			sum += resp.body[0] + resp.body[resp.body_len - 1];
		if (resp.body_len > cap)
			__builtin_trap();
		sum += (uint64_t)http_type_is_html(resp.content_type);
		sum += (uint64_t)http_sniff_html(resp.body, resp.body_len);
		fuzz_sink(sum);
	}
	return 0;
}
