/*
 * gc_cb.c - LFS cost-benefit (Rosenblum & Ousterhout): clean the segment
 * with the largest (1-u)*age/(1+u), u its valid fraction, age = now -
 * its seal time (the age of its youngest page), time = the host
 * page-write clock. Within one valid count the oldest segment scores
 * best, so a pick compares the tops of b + 1 age-ordered heaps: O(b)
 * a pick, O(log n) an invalidation. Ties: the fewer valid pages.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct cb {
	struct agebuckets a;
	int oom;
};

static int cb_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct cb *x = ftl_calloc(f, 1, sizeof(*x));
	*st = x;
	if (!x || agebuckets_init(f, &x->a))
		return set_err(err, n, "out of memory");
	return 0;
}

static void cb_seal(struct ftl *f, void *st, uint32_t seg)
{
	struct cb *x = st;
	x->oom |= agebuckets_add(f, &x->a, seg, f->seg[seg].valid);
}

static void cb_invalidate(struct ftl *f, void *st, uint32_t seg, uint32_t old)
{
	struct cb *x = st;
	agebuckets_del(f, &x->a, seg, old);
	x->oom |= agebuckets_add(f, &x->a, seg, old - 1);
}

static void cb_remove(struct ftl *f, void *st, uint32_t seg)
{
	agebuckets_del(f, &((struct cb *)st)->a, seg, f->seg[seg].valid);
}

static uint32_t cb_pick(struct ftl *f, void *st)
{
	struct cb *x = st;
	if (x->oom) {
		snprintf(f->err, sizeof(f->err), "victim policy 'cb': out of memory");
		return FTL_NONE;
	}
	uint32_t best = FTL_NONE;
	double best_score = 0;
	for (uint32_t v = 0; v <= f->b; v++) {
		if (!x->a.len[v])
			continue;
		uint32_t s = x->a.heap[v][0];
		double u = (double)v / f->b;
		double score = (1 - u) * (double)(f->clock - f->seal_time[s]) / (1 + u);
		if (best == FTL_NONE || score > best_score) {
			best = s;
			best_score = score;
		}
	}
	if (best != FTL_NONE)
		agebuckets_del(f, &x->a, best, f->seg[best].valid);
	return best;
}

static int cb_check(struct ftl *f, void *st, char *err, size_t n)
{
	return agebuckets_check(f, &((struct cb *)st)->a, err, n);
}

static void cb_destroy(struct ftl *f, void *st)
{
	struct cb *x = st;
	agebuckets_free(&x->a);
	free(x);
}

const struct gc_ops gc_cb_ops = {
	.name = "cb",
	.desc = "LFS cost-benefit (1-u)*age/(1+u)",
	.version = GC_API_VERSION,
	.init = cb_init,
	.on_seal = cb_seal,
	.on_invalidate = cb_invalidate,
	.remove = cb_remove,
	.pick = cb_pick,
	.check = cb_check,
	.destroy = cb_destroy,
};
