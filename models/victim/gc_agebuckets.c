/*
 * gc_agebuckets.c - per-valid-count binary heaps of sealed segments,
 * the oldest age origin on top (ftl_age_origin: the seal time, or the
 * youngest or mean write time of its pages when the policy keeps one,
 * cb:1 and cb:2; ties: lower segment number), for the policies whose
 * score rewards age (cb, cb-sqrt, cat). Moving a segment
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
	uint64_t tx = ftl_age_origin(f, x), ty = ftl_age_origin(f, y);
	if (tx != ty)
		return tx < ty;
	return x < y;
}

int agebuckets_init(void *st, const struct ftl *f, struct agebuckets *a)
{
	a->b = ftl_seg_pages(f);
	a->heap = policy_calloc(st, a->b + 1, sizeof(*a->heap));
	a->len = policy_calloc(st, a->b + 1, sizeof(uint32_t));
	a->cap = policy_calloc(st, a->b + 1, sizeof(uint32_t));
	a->pos = policy_calloc(st, ftl_segments(f), sizeof(uint32_t));
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

static void sift_up(const struct ftl *f, struct agebuckets *a, uint32_t *h, uint32_t i)
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

static void sift_down(const struct ftl *f, struct agebuckets *a, uint32_t *h, uint32_t len, uint32_t i)
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

static int resize(void *st, struct agebuckets *a, uint32_t v, uint32_t cap)
{
	uint32_t *h = policy_realloc(st, a->heap[v], (size_t)a->cap[v] * sizeof(uint32_t),
				     (size_t)cap * sizeof(uint32_t));
	if (!h)
		return -1;
	a->heap[v] = h;
	a->cap[v] = cap;
	return 0;
}

int agebuckets_add(void *st, const struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v)
{
	if (a->len[v] == a->cap[v] && resize(st, a, v, a->cap[v] ? 2 * a->cap[v] : 16))
		return -1;
	uint32_t i = a->len[v]++;
	a->heap[v][i] = seg;
	sift_up(f, a, a->heap[v], i);
	return 0;
}

void agebuckets_del(void *st, const struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v)
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
		resize(st, a, v, a->cap[v] / 2);
}

int agebuckets_check(const struct ftl *f, const struct agebuckets *a, char *err, size_t n)
{
	uint64_t total = 0;
	for (uint32_t v = 0; v <= a->b; v++) {
		const uint32_t *h = a->heap[v];
		total += a->len[v];
		for (uint32_t i = 0; i < a->len[v]; i++) {
			uint32_t s = h[i];
			if (s >= ftl_segments(f) || ftl_state(f, s) != SEG_SEALED || ftl_valid(f, s) != v ||
			    a->pos[s] != i)
				return set_err(err, n, "age bucket %u entry %u (segment %u) inconsistent", v, i, s);
			if (i && older(f, s, h[(i - 1) / 2]))
				return set_err(err, n, "age bucket %u: heap order broken at entry %u", v, i);
		}
	}
	if (total != ftl_sealed_count(f))
		return set_err(err, n, "age buckets hold %llu segments, %u are sealed",
			       (unsigned long long)total, ftl_sealed_count(f));
	return 0;
}

int agepol_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	return agebuckets_init(st, f, st) ? policy_fail(st, "out of memory") : 0;
}

int agepol_seal(void *st, const struct ftl *f, uint32_t seg)
{
	if (agebuckets_add(st, f, st, seg, ftl_valid(f, seg)))
		return policy_fail(st, "out of memory");
	return 0;
}

int agepol_invalidate(void *st, const struct ftl *f, uint32_t seg, uint32_t old)
{
	agebuckets_del(st, f, st, seg, old);
	if (agebuckets_add(st, f, st, seg, old - 1))
		return policy_fail(st, "out of memory");
	return 0;
}

int agepol_remove(void *st, const struct ftl *f, uint32_t seg)
{
	agebuckets_del(st, f, st, seg, ftl_valid(f, seg));
	return 0;
}

int agepol_check(void *st, const struct ftl *f, char *err, size_t n)
{
	return agebuckets_check(f, st, err, n);
}

void agepol_destroy(void *st, const struct ftl *f) { agebuckets_free(st); }

int agepol_pick(void *st, const struct ftl *f, uint32_t *seg, uint32_t depth,
		double (*score)(const struct ftl *f, uint32_t seg, uint32_t valid))
{
	struct agebuckets *a = st;
	uint32_t best = FTL_NONE;
	double best_score = 0;
	uint32_t vmax = ftl_max_victim_valid(f); /* the gp trigger's rule; b otherwise */
	/* An empty segment costs nothing to clean (no page read or copied):
	 * its benefit is unbounded under every age-rewarding score, so the
	 * oldest one goes first, whatever the ages of the others (cb's
	 * (1-u)*age/(1+u) would otherwise rank a young empty segment below
	 * an old, partly valid one). O(log n): the top of the empty heap. */
	if (a->len[0]) {
		best = a->heap[0][0];
		agebuckets_del(st, f, a, best, 0);
		*seg = best;
		return 0;
	}
	for (uint32_t v = 1; v <= a->b && v <= vmax; v++) {
		for (uint32_t i = 0; i < a->len[v] && i < depth; i++) {
			uint32_t s = a->heap[v][i];
			double sc = score(f, s, v);
			if (best == FTL_NONE || sc > best_score ||
			    (sc == best_score && ftl_valid(f, s) == ftl_valid(f, best) &&
			     ftl_age_origin(f, s) < ftl_age_origin(f, best))) {
				best = s;
				best_score = sc;
			}
		}
	}
	if (best != FTL_NONE)
		agebuckets_del(st, f, a, best, ftl_valid(f, best));
	*seg = best;
	return 0;
}
