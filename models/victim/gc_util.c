/*
 * gc_util.c - indexes shared by several victim policies: a seal-order
 * list (fifo, windowed) and an array with swap-remove (random,
 * dchoices). Both are intrusive per-segment arrays: no allocation after
 * set-up.
 */
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"
#include "gc.h"

int seglist_init(void *st, const struct ftl *f, struct seglist *l)
{
	l->prev = policy_calloc(st, ftl_segments(f), sizeof(uint32_t));
	l->next = policy_calloc(st, ftl_segments(f), sizeof(uint32_t));
	l->head = l->tail = FTL_NONE;
	l->n = 0;
	return l->prev && l->next ? 0 : -1;
}

void seglist_push(struct seglist *l, uint32_t seg)
{
	l->prev[seg] = l->tail;
	l->next[seg] = FTL_NONE;
	if (l->tail != FTL_NONE)
		l->next[l->tail] = seg;
	else
		l->head = seg;
	l->tail = seg;
	l->n++;
}

void seglist_unlink(struct seglist *l, uint32_t seg)
{
	uint32_t p = l->prev[seg], nx = l->next[seg];
	if (p != FTL_NONE)
		l->next[p] = nx;
	else
		l->head = nx;
	if (nx != FTL_NONE)
		l->prev[nx] = p;
	else
		l->tail = p;
	l->n--;
}

/* Every sealed segment once, in seal order, nothing else. */
void seglist_free(struct seglist *l)
{
	free(l->prev);
	free(l->next);
}

int seglist_check(const struct ftl *f, const struct seglist *l, char *err, size_t n)
{
	uint32_t cnt = 0, prev = FTL_NONE;
	for (uint32_t s = l->head; s != FTL_NONE; prev = s, s = l->next[s]) {
		if (++cnt > ftl_segments(f))
			return set_err(err, n, "seal-order list has a cycle");
		if (ftl_state(f, s) != SEG_SEALED)
			return set_err(err, n, "seal-order list holds segment %u, which is not sealed", s);
		if (l->prev[s] != prev)
			return set_err(err, n, "seal-order list: bad back link at segment %u", s);
		if (prev != FTL_NONE && ftl_seal_time(f, prev) > ftl_seal_time(f, s))
			return set_err(err, n, "seal-order list out of order at segment %u", s);
	}
	if (cnt != ftl_sealed_count(f) || cnt != l->n || l->tail != prev)
		return set_err(err, n, "seal-order list holds %u segments, %u are sealed", cnt, ftl_sealed_count(f));
	return 0;
}

int segarray_init(void *st, const struct ftl *f, struct segarray *a)
{
	a->seg = policy_calloc(st, ftl_segments(f), sizeof(uint32_t));
	a->pos = policy_calloc(st, ftl_segments(f), sizeof(uint32_t));
	a->n = 0;
	return a->seg && a->pos ? 0 : -1;
}

void segarray_add(struct segarray *a, uint32_t seg)
{
	a->pos[seg] = a->n;
	a->seg[a->n++] = seg;
}

void segarray_del(struct segarray *a, uint32_t seg)
{
	uint32_t i = a->pos[seg], last = a->seg[--a->n];
	a->seg[i] = last;
	a->pos[last] = i;
}

void segarray_free(struct segarray *a)
{
	free(a->seg);
	free(a->pos);
}

int segarray_check(const struct ftl *f, const struct segarray *a, char *err, size_t n)
{
	if (a->n != ftl_sealed_count(f))
		return set_err(err, n, "candidate array holds %u segments, %u are sealed", a->n, ftl_sealed_count(f));
	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t s = a->seg[i];
		if (s >= ftl_segments(f) || ftl_state(f, s) != SEG_SEALED || a->pos[s] != i)
			return set_err(err, n, "candidate array entry %u (segment %u) inconsistent", i, s);
	}
	return 0;
}
