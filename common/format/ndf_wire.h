/*
 * ndf_wire.h - internal to the NDF container's files (ndf.c, ndf_wire.c,
 * ndf_writer.c, ndf_reader.c, ndf_section.c): no other file includes it;
 * the public header is ndf.h.  It declares what they share: the bytes of
 * a section (magics, footer sizes, header and block encoding, the CRC;
 * defined in ndf_wire.c) and the reader's state with the three reader
 * functions a random-access section reuses (defined in ndf_reader.c).
 */
#ifndef NDD_NDF_WIRE_H
#define NDD_NDF_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/ndf.h"

extern const uint8_t ndf_magic[8];
extern const uint8_t ndf_end_magic[8];

#define END_MARKER 0xffffffffu
#define TAIL_SIZE 40
#define INDEX_ENTRY_SIZE 24
#define MAX_HEADER_SIZE 4096

uint32_t ndf_crc(uint32_t c, const void *p, size_t n);
void ndf_header_encode(const struct ndf_header *h, uint8_t *out);
void ndf_header_decode(const uint8_t *in, struct ndf_header *h);
void ndf_block_header(uint8_t bh[NDF_BLOCK_HEADER], uint32_t n_records, uint32_t len,
		      uint32_t codec);
uint32_t ndf_block_crc(const uint8_t bh[NDF_BLOCK_HEADER], const uint8_t *data, size_t len);

struct ndf_reader {
	FILE *fp;
	char *name;
	struct ndf_header h;
	uint64_t pos;   /* bytes consumed since the section start */
	uint64_t count; /* records in the blocks read so far */
	uint32_t crc;
	int done;
	struct ndf_index_entry *index;
	uint64_t n_blocks, cap_blocks;
	/* ndf_reader_map(): the whole file, read in place from there on */
	const uint8_t *map;
	uint64_t map_len;
	uint64_t base;     /* file offset of the section start */
	uint64_t released; /* section offset below which pages were dropped */
};

int ndf_fault(const struct ndf_reader *r, int err, uint64_t at, const char *what);
int ndf_read_header(struct ndf_reader *r);
int ndf_block_grow(struct ndf_block *b, size_t n);

#endif
