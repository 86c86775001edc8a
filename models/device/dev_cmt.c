/*
 * dev_cmt.c - a cached mapping table (dev_cmt.h): an LRU of C entries
 * over U logical pages. A logical page's slot by an index of U entries;
 * the slots a doubly linked list, most recently used first; a
 * translation page's bit "written to flash" (DFTL's global translation
 * directory). An entry is dirty while its mark is its translation
 * page's epoch + 1 (never 0, a clean mark): a write-back makes every
 * cached dirty entry of that page clean at once by moving the page's
 * epoch on; when it would reach 2^32 - 1 (its dirty mark 0) it starts
 * again at 0, the marks of the page's cached entries cleared (no mark
 * of an epoch before outlives the wrap).
 */
#include <stdlib.h>
#include <string.h>

#include "dev_cmt.h"

#define NONE UINT32_MAX

struct cmt {
	uint32_t per_tp, ntp, C, n; /* entries a translation page, translation pages, slots, slots in use */
	int whole;		    /* every entry cached: no state */
	uint32_t head, tail;	    /* the most and the least recently used slot */
	uint32_t *slot;		    /* [U] a logical page's slot, or NONE */
	uint32_t *lpn, *prev, *next, *mark; /* [C] a slot's page, its neighbours (MRU first), its dirty mark */
	uint32_t *epoch;	    /* [ntp] */
	uint8_t *written;	    /* [ntp] */
	uint64_t U;
};

uint64_t cmt_entries(double mib, uint32_t entry_bytes)
{
	return entry_bytes ? (uint64_t)(mib * 1048576.0 / entry_bytes) : 0;
}

static uint64_t tps(uint64_t pages, uint32_t per_tp) { return (pages + per_tp - 1) / per_tp; }

uint64_t cmt_bytes(uint64_t pages, uint64_t entries, uint32_t per_tp)
{
	if (!entries || entries >= pages || !per_tp)
		return sizeof(struct cmt);
	return sizeof(struct cmt) + pages * sizeof(uint32_t) + entries * 4 * sizeof(uint32_t) +
	       tps(pages, per_tp) * (sizeof(uint32_t) + 1);
}

void cmt_reset(struct cmt *m)
{
	if (m->whole)
		return;
	memset(m->slot, 0xff, m->U * sizeof(uint32_t));
	memset(m->epoch, 0, m->ntp * sizeof(uint32_t));
	memset(m->written, 0, m->ntp);
	m->n = 0;
	m->head = m->tail = NONE;
}

struct cmt *cmt_open(uint64_t pages, uint64_t entries, uint32_t per_tp)
{
	if (!per_tp || pages >= NONE || !entries)
		return NULL;
	struct cmt *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->U = pages;
	m->per_tp = per_tp;
	m->ntp = (uint32_t)tps(pages, per_tp);
	if (entries >= pages) {
		m->whole = 1;
		return m;
	}
	m->C = (uint32_t)entries;
	m->slot = malloc(pages * sizeof(uint32_t));
	m->lpn = malloc(entries * sizeof(uint32_t));
	m->prev = malloc(entries * sizeof(uint32_t));
	m->next = malloc(entries * sizeof(uint32_t));
	m->mark = malloc(entries * sizeof(uint32_t));
	m->epoch = malloc((m->ntp ? m->ntp : 1) * sizeof(uint32_t));
	m->written = malloc(m->ntp ? m->ntp : 1);
	if (!m->slot || !m->lpn || !m->prev || !m->next || !m->mark || !m->epoch || !m->written) {
		cmt_close(m);
		return NULL;
	}
	cmt_reset(m);
	return m;
}

void cmt_close(struct cmt *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m->lpn);
	free(m->prev);
	free(m->next);
	free(m->mark);
	free(m->epoch);
	free(m->written);
	free(m);
}

uint32_t cmt_tp(const struct cmt *m, uint32_t lpn) { return lpn / m->per_tp; }

void cmt_written(struct cmt *m, uint32_t lpn)
{
	if (!m->whole && lpn < m->U)
		m->written[lpn / m->per_tp] = 1;
}

static inline void unlink_slot(struct cmt *m, uint32_t s)
{
	uint32_t p = m->prev[s], x = m->next[s];
	if (p != NONE)
		m->next[p] = x;
	else
		m->head = x;
	if (x != NONE)
		m->prev[x] = p;
	else
		m->tail = p;
}

static inline void push_front(struct cmt *m, uint32_t s)
{
	m->prev[s] = NONE;
	m->next[s] = m->head;
	if (m->head != NONE)
		m->prev[m->head] = s;
	else
		m->tail = s;
	m->head = s;
}

unsigned cmt_access(struct cmt *m, uint32_t lpn, int write, uint32_t *wb)
{
	if (m->whole || lpn >= m->U)
		return 0;
	uint32_t tp = lpn / m->per_tp, s = m->slot[lpn];
	if (s != NONE) { /* a hit */
		if (s != m->head) {
			unlink_slot(m, s);
			push_front(m, s);
		}
		if (write)
			m->mark[s] = m->epoch[tp] + 1;
		return 0;
	}
	unsigned f = CMT_MISS | (m->written[tp] ? CMT_READ : 0);
	if (m->n < m->C) {
		s = m->n++;
	} else { /* the least recently used out */
		s = m->tail;
		unlink_slot(m, s);
		uint32_t old = m->lpn[s], otp = old / m->per_tp;
		m->slot[old] = NONE;
		if (m->mark[s] == m->epoch[otp] + 1) { /* dirty: its translation page written back, its dirty entries clean */
			f |= CMT_WB | (m->written[otp] ? CMT_WB_READ : 0);
			if (++m->epoch[otp] == UINT32_MAX) { /* (every 2^32 - 1 write-backs of a page) */
				m->epoch[otp] = 0;
				for (uint32_t i = 0; i < m->n; i++)
					if (m->lpn[i] / m->per_tp == otp)
						m->mark[i] = 0;
			}
			m->written[otp] = 1;
			*wb = otp;
		}
	}
	m->slot[lpn] = s;
	m->lpn[s] = lpn;
	m->mark[s] = write ? m->epoch[tp] + 1 : 0;
	push_front(m, s);
	return f;
}
