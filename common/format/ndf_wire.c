/*
 * ndf_wire.c - the bytes of an NDF section that its writer, reader and
 * random-access sections share (see ndf_wire.h, ndf.h, docs/FORMATS.md).
 *
 *   +--------------------------------------------------------------+
 *   | header: magic, version, header_size, kind, flags, counts,    |
 *   |         parameters, perm[64], header CRC-32  (168 bytes)     |
 *   +--------------------------------------------------------------+
 *   | block: u32 n_records | u32 len | u32 codec | payload | crc   |  *
 *   +--------------------------------------------------------------+
 *   | u32 0xffffffff (end of blocks)                               |
 *   | index: n_blocks x { u64 offset, u64 first_record, u64 key }  |
 *   | tail:  u64 n_blocks, u64 record_count, u32 payload_crc,      |
 *   |        u64 section_size, u32 footer_crc, 8-byte end magic    |
 *   +--------------------------------------------------------------+
 */
#include "format/ndf_wire.h"

#include <string.h>
#include <libdeflate.h>

#include "util/bytes.h"

const uint8_t ndf_magic[8] = {0x89, 'N', 'D', 'F', '\r', '\n', 0x1a, '\n'};
const uint8_t ndf_end_magic[8] = {'N', 'D', 'F', 'E', 'N', 'D', 0x89, '\n'};

/* CRC-32 (the zlib/gzip polynomial, same values as zlib's crc32()), via
 * libdeflate, which computes it faster (docs/DEPENDENCIES.md): every byte
 * of every file between stages goes through it twice. */
uint32_t ndf_crc(uint32_t c, const void *p, size_t n)
{
	return libdeflate_crc32(c, p, n);
}

void ndf_header_encode(const struct ndf_header *h, uint8_t *out)
{
	memset(out, 0, NDF_HEADER_SIZE);
	memcpy(out, ndf_magic, 8);
	put_le32(out + 8, NDF_VERSION);
	put_le32(out + 12, NDF_HEADER_SIZE);
	put_le32(out + 16, h->kind);
	put_le32(out + 20, h->flags);
	put_le64(out + 24, h->record_count);
	put_le32(out + 32, h->payload_crc);
	put_le32(out + 36, h->simhash_bits);
	put_le64(out + 40, h->feature_config);
	put_le64(out + 48, h->dataset_id);
	put_le64(out + 56, h->section_size);
	put_le32(out + 64, h->k);
	put_le32(out + 68, h->design_code);
	put_le32(out + 72, h->n_tables);
	put_le32(out + 76, h->table_index);
	put_le32(out + 80, h->lead_bits);
	put_le32(out + 84, h->codec_param);
	put_le64(out + 88, h->aux);
	memcpy(out + 96, h->perm, 64);
	/* bytes 160..163 reserved (0) */
	put_le32(out + NDF_HEADER_SIZE - 4, ndf_crc(0, out, NDF_HEADER_SIZE - 4));
}

void ndf_header_decode(const uint8_t *in, struct ndf_header *h)
{
	h->version = get_le32(in + 8);
	h->kind = get_le32(in + 16);
	h->flags = get_le32(in + 20);
	h->record_count = get_le64(in + 24);
	h->payload_crc = get_le32(in + 32);
	h->simhash_bits = get_le32(in + 36);
	h->feature_config = get_le64(in + 40);
	h->dataset_id = get_le64(in + 48);
	h->section_size = get_le64(in + 56);
	h->k = get_le32(in + 64);
	h->design_code = get_le32(in + 68);
	h->n_tables = get_le32(in + 72);
	h->table_index = get_le32(in + 76);
	h->lead_bits = get_le32(in + 80);
	h->codec_param = get_le32(in + 84);
	h->aux = get_le64(in + 88);
	memcpy(h->perm, in + 96, 64);
}

void ndf_block_header(uint8_t bh[NDF_BLOCK_HEADER], uint32_t n_records, uint32_t len,
		      uint32_t codec)
{
	put_le32(bh, n_records);
	put_le32(bh + 4, len);
	put_le32(bh + 8, codec);
}

uint32_t ndf_block_crc(const uint8_t bh[NDF_BLOCK_HEADER], const uint8_t *data, size_t len)
{
	return ndf_crc(ndf_crc(0, bh, NDF_BLOCK_HEADER), data, len);
}
