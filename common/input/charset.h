/*
 * charset.h - decode an HTML payload of any common charset to UTF-8.
 *
 * The charset is chosen the way browsers choose it (WHATWG "encoding
 * sniffing"), in this order:
 *   1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
 *   2. the charset= parameter of the HTTP Content-Type header;
 *   3. <meta charset=...> or <meta http-equiv content="...charset=..."> in
 *      the first 4 KiB of the payload;
 *   4. the payload is valid UTF-8 -> UTF-8;
 *   5. the charset libuchardet finds in the bytes, if at least 16 of them
 *      are not UTF-8 (fewer are too few to tell);
 *   6. windows-1252.
 * A page declared UTF-8 (step 2 or 3) whose bytes are mostly not UTF-8
 * gets step 5 too; a few stray bytes in it stay U+FFFD.
 * Labels are mapped as the WHATWG Encoding Standard maps them, so
 * "iso-8859-1", "latin1" and "us-ascii" mean windows-1252, "gb2312" and
 * "gbk" mean GB18030, "euc-kr" means windows-949, "shift_jis" means
 * windows-31j, and a meta declaring UTF-16 means UTF-8.  Unknown labels are
 * ignored and detection goes on with the next step.
 *
 * The module is pure and reentrant: no global state; an iconv descriptor
 * is opened per call for the multi-byte legacy charsets.
 */
#ifndef NDD_CHARSET_H
#define NDD_CHARSET_H

#include <stddef.h>

/**
 * Convert an HTML payload to UTF-8.
 *
 * @param data          the payload bytes (need not be NUL-terminated); may
 *                      be NULL when @len is 0
 * @param len           number of bytes in @data
 * @param content_type  the HTTP Content-Type header value, or NULL
 * @param out           in/out: a malloc'd buffer (or NULL) that is grown
 *                      with realloc as needed; owned by the caller, who
 *                      passes the same pointers back on the next call and
 *                      frees *out once at the end
 * @param out_len       out: bytes of UTF-8 written (without the NUL)
 * @param out_cap       in/out: allocated size of *out (0 when *out is NULL)
 * @param lossy         out: 1 if any input byte became U+FFFD, else 0
 * @return 0 on success; -1 if memory ran out (then *out, *out_cap are
 *         still a valid pair the caller must free, and *out_len is 0).
 *
 * The result is NUL-terminated and always valid UTF-8: bytes that cannot
 * be decoded in the chosen charset (including invalid UTF-8 declared as
 * UTF-8) each become U+FFFD and decoding resumes at the next byte, so a
 * document is never lost.  A UTF-8 BOM is not copied to the output.
 */
int charset_to_utf8(const char *data, size_t len, const char *content_type,
		    char **out, size_t *out_len, size_t *out_cap, int *lossy)
	__attribute__((warn_unused_result));

/**
 * charset_to_utf8() without the copy where none is needed: when @data is
 * UTF-8 as it stands (chosen as UTF-8, no BOM, valid), *res points to
 * @data itself; otherwise @data is converted into *out exactly as
 * charset_to_utf8() does (same @out, @out_cap contract) and *res = *out.
 * @param res      out: the UTF-8 text (@data, *out, or "" if @len is 0);
 *                 NUL-terminated only when it is *out
 * @param res_len  out: its length in bytes
 * @return 0, or -1 if memory ran out.
 */
int charset_utf8_view(const char *data, size_t len, const char *content_type, const char **res,
		      size_t *res_len, char **out, size_t *out_cap, int *lossy)
	__attribute__((warn_unused_result));

/**
 * The canonical name of the encoding charset_to_utf8() would use for
 * @data (e.g. "UTF-8", "windows-1252", "GB18030"), a static string.
 * For tests and diagnostics; costs one extra sniffing pass.
 */
const char *charset_detect(const char *data, size_t len, const char *content_type);

#endif
