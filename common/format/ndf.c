/*
 * ndf.c - the pieces of the NDF container every part of it shares: error
 * and kind names, a block's buffer (see ndf.h).  The container's bytes are
 * in ndf_wire.c, its writer in ndf_writer.c, its reader in ndf_reader.c,
 * random access to a section in ndf_section.c.
 */
#include "format/ndf.h"

#include <stdlib.h>

const char *ndf_strerror(int err)
{
	switch (err) {
	case NDF_OK: return "no error";
	case NDF_ERR_IO: return "I/O error";
	case NDF_ERR_MAGIC: return "not an NDF file (bad magic)";
	case NDF_ERR_VERSION: return "unsupported format version";
	case NDF_ERR_CHECKSUM: return "checksum mismatch";
	case NDF_ERR_TRUNCATED: return "truncated";
	case NDF_ERR_FORMAT: return "malformed";
	case NDF_ERR_NOMEM: return "out of memory";
	case NDF_ERR_PARAMS: return "incompatible parameters";
	}
	return "unknown error";
}

const char *ndf_kind_name(uint32_t kind)
{
	switch (kind) {
	case NDF_KIND_DOCS: return "documents";
	case NDF_KIND_FPS: return "fingerprints";
	case NDF_KIND_TABLE: return "sorted table";
	case NDF_KIND_CTABLE: return "compressed table";
	case NDF_KIND_TEMPLATES: return "templates";
	}
	return "unknown";
}

void ndf_block_free(struct ndf_block *b)
{
	if (!b->mapped)
		free(b->data);
	b->mapped = 0;
	b->data = NULL;
	b->len = b->cap = 0;
}
