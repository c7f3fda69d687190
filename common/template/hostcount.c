/*
 * hostcount.c - see hostcount.h.
 */
#include "template/hostcount.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"

int hostcount_init(struct hostcount *m, size_t max_cap)
{
	m->cap = 1024;
	m->n = 0;
	m->max_cap = max_cap;
	m->key = calloc(m->cap, sizeof *m->key);
	m->count = calloc(m->cap, sizeof *m->count);
	if (m->key && m->count)
		return 0;
	hostcount_free(m);
	return -1;
}

uint32_t *hostcount_get(struct hostcount *m, uint64_t host)
{
	if ((m->n + 1) * 10 > m->cap * 7) {
		if (m->cap * 2 > m->max_cap) {
			log_debug("host map full at %zu hosts: counting again", m->n);
			memset(m->key, 0, m->cap * sizeof *m->key);
			m->n = 0;
		} else {
			struct hostcount g = {calloc(m->cap * 2, sizeof *g.key),
					      calloc(m->cap * 2, sizeof *g.count), m->cap * 2, 0,
					      m->max_cap};
			if (!g.key || !g.count) {
				hostcount_free(&g);
				log_error("out of memory counting pages of %zu hosts", m->n);
				return NULL;
			}
			for (size_t i = 0; i < m->cap; i++)
				if (m->key[i])
					*hostcount_get(&g, m->key[i]) = m->count[i];
			free(m->key);
			free(m->count);
			*m = g;
		}
	}
	size_t i = (size_t)(host * 0x9e3779b97f4a7c15ull >> 20) & (m->cap - 1);
	while (m->key[i] && m->key[i] != host)
		i = (i + 1) & (m->cap - 1);
	if (!m->key[i]) {
		m->key[i] = host;
		m->count[i] = 0;
		m->n++;
	}
	return &m->count[i];
}

void hostcount_free(struct hostcount *m)
{
	free(m->key);
	free(m->count);
	m->key = NULL;
	m->count = NULL;
}
