/*
 * gc_cbsqrt.c - SepBIT's cost-benefit (Wang et al., FAST'22): clean the
 * segment with the largest (1-u)/u*sqrt(age) (an empty one first), u
 * its valid fraction, age = now - its seal time, time = the host
 * page-write clock. Same index as cb (gc_cb.c): within one valid count
 * the oldest segment scores best, so a pick compares the tops of b + 1
 * age-ordered heaps. Ties: the fewer valid pages.
 */
#include <math.h>
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct cbs {
	struct agebuckets a;
	int oom;
};

static int cbs_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct cbs *x = ftl_calloc(f, 1, sizeof(*x));
	*st = x;
	if (!x || agebuckets_init(f, &x->a))
		return set_err(err, n, "out of memory");
	return 0;
}

static void cbs_seal(struct ftl *f, void *st, uint32_t seg)
{
	struct cbs *x = st;
	x->oom |= agebuckets_add(f, &x->a, seg, f->seg[seg].valid);
}

static void cbs_invalidate(struct ftl *f, void *st, uint32_t seg, uint32_t old)
{
	struct cbs *x = st;
	agebuckets_del(f, &x->a, seg, old);
	x->oom |= agebuckets_add(f, &x->a, seg, old - 1);
}

static void cbs_remove(struct ftl *f, void *st, uint32_t seg)
{
	agebuckets_del(f, &((struct cbs *)st)->a, seg, f->seg[seg].valid);
}

static uint32_t cbs_pick(struct ftl *f, void *st)
{
	struct cbs *x = st;
	if (x->oom) {
		snprintf(f->err, sizeof(f->err), "victim policy 'cb-sqrt': out of memory");
		return FTL_NONE;
	}
	uint32_t best = FTL_NONE;
	double best_score = 0;
	for (uint32_t v = 0; v <= f->b; v++) {
		if (!x->a.len[v])
			continue;
		uint32_t s = x->a.heap[v][0];
		double u = (double)v / f->b;
		double score = v ? (1 - u) / u * sqrt((double)(f->clock - f->seal_time[s])) : HUGE_VAL;
		if (best == FTL_NONE || score > best_score) {
			best = s;
			best_score = score;
		}
	}
	if (best != FTL_NONE)
		agebuckets_del(f, &x->a, best, f->seg[best].valid);
	return best;
}

static int cbs_check(struct ftl *f, void *st, char *err, size_t n)
{
	return agebuckets_check(f, &((struct cbs *)st)->a, err, n);
}

static void cbs_destroy(struct ftl *f, void *st)
{
	struct cbs *x = st;
	agebuckets_free(&x->a);
	free(x);
}

const struct gc_ops gc_cbsqrt_ops = {
	.name = "cb-sqrt",
	.desc = "SepBIT cost-benefit (1-u)/u*sqrt(age)",
	.version = GC_API_VERSION,
	.init = cbs_init,
	.on_seal = cbs_seal,
	.on_invalidate = cbs_invalidate,
	.remove = cbs_remove,
	.pick = cbs_pick,
	.check = cbs_check,
	.destroy = cbs_destroy,
};
