/*
 * mapguard.h - a clear error, not a crash, when a mapped file fails.
 *
 * Reading a file through a mapping (ndf_reader_map()) saves a copy, but a
 * disk error under the mapping, or the file shrinking while it is read,
 * arrives as SIGBUS: by default the process dies with a core and no word
 * about which file.  A mapping registered here turns that SIGBUS into
 * "prog: error: 'FILE': offset N: the mapped file could not be read (an
 * I/O error, or the file shrank while it was read)" and exit status 2 (a
 * failed run, as every stage documents), so the nightly job's log says
 * which input to look at.  A SIGBUS anywhere else keeps its default
 * action.  The run cannot go on from a failed page (the reading thread is
 * deep in a decode), so this is about the message, not about recovery;
 * crawl input is read with read() for that reason (docs/DESIGN-NOTES.md).
 */
#ifndef NDD_MAPGUARD_H
#define NDD_MAPGUARD_H

#include <stddef.h>

/**
 * Watch [p, p + len), a mapping of file @name (copied; a long name is
 * cut).  Installs the SIGBUS handler the first time.
 * @return 0, or -1 if all slots are taken (the mapping then works as
 * before, unwatched).
 */
int mapguard_add(const void *p, size_t len, const char *name);

/** Stop watching the mapping that starts at @p (before it is unmapped). */
void mapguard_remove(const void *p);

#endif
