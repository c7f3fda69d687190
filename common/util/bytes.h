/*
 * bytes.h - little-endian field access on byte buffers.
 *
 * Every multi-byte field of every file this project writes goes through
 * these helpers, never through fwrite of a struct: the on-disk layout is
 * then independent of the host's endianness, padding and alignment.
 */
#ifndef NDD_BYTES_H
#define NDD_BYTES_H

#include <stdint.h>
#include <string.h>

/* On a little-endian host a field is its memory image: memcpy compiles to
 * one unaligned load or store.  Elsewhere, bytes are assembled by hand. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NDD_LITTLE_ENDIAN 1
#else
#define NDD_LITTLE_ENDIAN 0
#endif

static inline void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	if (NDD_LITTLE_ENDIAN) {
		memcpy(p, &v, 4);
		return;
	}
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
	if (NDD_LITTLE_ENDIAN) {
		memcpy(p, &v, 8);
		return;
	}
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t get_le32(const uint8_t *p)
{
	if (NDD_LITTLE_ENDIAN) {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t get_le64(const uint8_t *p)
{
	if (NDD_LITTLE_ENDIAN) {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

/*
 * A bounded read cursor: every get checks that the bytes exist before it
 * reads them, so a hostile length field can never walk past the buffer.
 * Functions return 0 on success and -1 when the buffer is exhausted.
 */
struct cursor {
	const uint8_t *next;
	const uint8_t *end;
};

static inline int cur_need(const struct cursor *c, size_t n)
{
	return (size_t)(c->end - c->next) >= n ? 0 : -1;
}

static inline int cur_u32(struct cursor *c, uint32_t *v)
{
	if (cur_need(c, 4))
		return -1;
	*v = get_le32(c->next);
	c->next += 4;
	return 0;
}

static inline int cur_u64(struct cursor *c, uint64_t *v)
{
	if (cur_need(c, 8))
		return -1;
	*v = get_le64(c->next);
	c->next += 8;
	return 0;
}

/* A length-prefixed string (u32 length, bytes); *s points into the buffer. */
static inline int cur_str(struct cursor *c, const char **s, uint32_t *len)
{
	uint32_t n;
	if (cur_u32(c, &n) || cur_need(c, n))
		return -1;
	*s = (const char *)c->next;
	*len = n;
	c->next += n;
	return 0;
}

/* Writers: the caller has reserved the space (see the *_encoded_size helpers). */
static inline uint8_t *out_u32(uint8_t *p, uint32_t v)
{
	put_le32(p, v);
	return p + 4;
}

static inline uint8_t *out_u64(uint8_t *p, uint64_t v)
{
	put_le64(p, v);
	return p + 8;
}

static inline uint8_t *out_str(uint8_t *p, const char *s, uint32_t len)
{
	put_le32(p, len);
	if (len)
		memcpy(p + 4, s, len);
	return p + 4 + len;
}

#endif
