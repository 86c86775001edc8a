/*
 * gc_agebuckets.c - per-valid-count binary heaps of sealed segments,
 * oldest seal time on top (ties: lower segment number), for the
 * policies whose score rewards age (cb, cb-sqrt, cat). Moving a segment
 * between buckets is O(log n); the heaps grow and shrink so that their
 * memory stays proportional to the number of sealed segments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"
#include "gc.h"

static int older(const struct ftl *f, uint32_t x, uint32_t y)
{
	if (f->seal_time[x] != f->seal_time[y])
		return f->seal_time[x] < f->seal_time[y];
	return x < y;
}

int agebuckets_init(struct ftl *f, struct agebuckets *a)
{
	a->b = f->b;
	a->heap = calloc(f->b + 1, sizeof(*a->heap));
	a->len = calloc(f->b + 1, sizeof(uint32_t));
	a->cap = calloc(f->b + 1, sizeof(uint32_t));
	a->pos = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->mem_bytes += (f->b + 1) * (sizeof(*a->heap) + 8);
	return a->heap && a->len && a->cap && a->pos ? 0 : -1;
}

void agebuckets_free(struct agebuckets *a)
{
	if (a->heap)
		for (uint32_t v = 0; v <= a->b; v++)
			free(a->heap[v]);
	free(a->heap);
	free(a->len);
	free(a->cap);
	free(a->pos);
}

static void place(struct agebuckets *a, uint32_t *h, uint32_t i, uint32_t seg)
{
	h[i] = seg;
	a->pos[seg] = i;
}

static void sift_up(struct ftl *f, struct agebuckets *a, uint32_t *h, uint32_t i)
{
	uint32_t seg = h[i];
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!older(f, seg, h[p]))
			break;
		place(a, h, i, h[p]);
		i = p;
	}
	place(a, h, i, seg);
}

static void sift_down(struct ftl *f, struct agebuckets *a, uint32_t *h, uint32_t len, uint32_t i)
{
	uint32_t seg = h[i];
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= len)
			break;
		if (c + 1 < len && older(f, h[c + 1], h[c]))
			c++;
		if (!older(f, h[c], seg))
			break;
		place(a, h, i, h[c]);
		i = c;
	}
	place(a, h, i, seg);
}

static int resize(struct ftl *f, struct agebuckets *a, uint32_t v, uint32_t cap)
{
	uint32_t *h = realloc(a->heap[v], (size_t)cap * sizeof(uint32_t));
	if (!h)
		return -1;
	f->mem_bytes += ((int64_t)cap - a->cap[v]) * (int64_t)sizeof(uint32_t);
	a->heap[v] = h;
	a->cap[v] = cap;
	return 0;
}

int agebuckets_add(struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v)
{
	if (a->len[v] == a->cap[v] && resize(f, a, v, a->cap[v] ? 2 * a->cap[v] : 16))
		return -1;
	uint32_t i = a->len[v]++;
	a->heap[v][i] = seg;
	sift_up(f, a, a->heap[v], i);
	return 0;
}

void agebuckets_del(struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v)
{
	uint32_t *h = a->heap[v], i = a->pos[seg], last = h[--a->len[v]];
	if (i != a->len[v]) {
		h[i] = last;
		a->pos[last] = i;
		sift_up(f, a, h, i);
		sift_down(f, a, h, a->len[v], a->pos[last]);
	}
	/* Shrinking cannot fail in a way that matters: keep the old array. */
	if (a->cap[v] > 64 && a->len[v] < a->cap[v] / 4)
		resize(f, a, v, a->cap[v] / 2);
}

int agebuckets_check(struct ftl *f, const struct agebuckets *a, char *err, size_t n)
{
	uint64_t total = 0;
	for (uint32_t v = 0; v <= a->b; v++) {
		const uint32_t *h = a->heap[v];
		total += a->len[v];
		for (uint32_t i = 0; i < a->len[v]; i++) {
			uint32_t s = h[i];
			if (s >= f->nseg || f->seg[s].state != SEG_SEALED || f->seg[s].valid != v || a->pos[s] != i)
				return set_err(err, n, "age bucket %u entry %u (segment %u) inconsistent", v, i, s);
			if (i && older(f, s, h[(i - 1) / 2]))
				return set_err(err, n, "age bucket %u: heap order broken at entry %u", v, i);
		}
	}
	if (total != f->nsealed)
		return set_err(err, n, "age buckets hold %llu segments, %u are sealed",
			       (unsigned long long)total, f->nsealed);
	return 0;
}

int agepol_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct agebuckets *a = ftl_calloc(f, 1, sizeof(*a));
	*st = a;
	if (!a || agebuckets_init(f, a))
		return set_err(err, n, "out of memory");
	return 0;
}

/* After a failed add a segment is missing from the heaps: they are not
 * touched again, and the next pick reports the failure. */
void agepol_seal(struct ftl *f, void *st, uint32_t seg)
{
	struct agebuckets *a = st;
	if (!a->oom)
		a->oom |= agebuckets_add(f, a, seg, f->seg[seg].valid);
}

void agepol_invalidate(struct ftl *f, void *st, uint32_t seg, uint32_t old)
{
	struct agebuckets *a = st;
	if (a->oom)
		return;
	agebuckets_del(f, a, seg, old);
	a->oom |= agebuckets_add(f, a, seg, old - 1);
}

void agepol_remove(struct ftl *f, void *st, uint32_t seg)
{
	struct agebuckets *a = st;
	if (!a->oom)
		agebuckets_del(f, a, seg, f->seg[seg].valid);
}

int agepol_check(struct ftl *f, void *st, char *err, size_t n)
{
	return agebuckets_check(f, st, err, n);
}

void agepol_destroy(struct ftl *f, void *st)
{
	agebuckets_free(st);
	free(st);
}

uint32_t agepol_pick(struct ftl *f, void *st, const char *name, uint32_t depth,
		     double (*score)(const struct ftl *f, uint32_t seg, uint32_t valid))
{
	struct agebuckets *a = st;
	if (a->oom) {
		snprintf(f->err, sizeof(f->err), "victim policy '%s': out of memory", name);
		return FTL_NONE;
	}
	uint32_t best = FTL_NONE;
	double best_score = 0;
	for (uint32_t v = 0; v <= f->b; v++) {
		for (uint32_t i = 0; i < a->len[v] && i < depth; i++) {
			uint32_t s = a->heap[v][i];
			double sc = score(f, s, v);
			if (best == FTL_NONE || sc > best_score ||
			    (sc == best_score && f->seg[s].valid == f->seg[best].valid &&
			     f->seal_time[s] < f->seal_time[best])) {
				best = s;
				best_score = sc;
			}
		}
	}
	if (best != FTL_NONE)
		agebuckets_del(f, a, best, f->seg[best].valid);
	return best;
}
