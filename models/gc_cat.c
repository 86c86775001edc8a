/*
 * gc_cat.c - Cost-Age-Times (Chiang, Lee & Chang 1999): clean the
 * segment with the smallest u/(1-u) * (erases+1) / (age+1), u its valid
 * fraction, age = now - seal time (host page-write clock); the +1s keep
 * new and never-erased segments comparable. A full segment (u = 1) is
 * chosen only when nothing else is sealed.
 *
 * Bounded search: the erase count breaks the age order, so the exact
 * minimum could sit anywhere in a bucket. A pick scores the first
 * CAT_TOP entries of each valid count's age heap (its top three levels:
 * the oldest segment and six more, each older than everything below
 * it), O(7(b+1)) a pick. Exact when erase counts are equal (no wear
 * spread), which is also when CAT reduces to an age-weighted greedy.
 */
#include <math.h>
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

enum { CAT_TOP = 7 };

struct cat {
	struct agebuckets a;
	int oom;
};

static int cat_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct cat *x = ftl_calloc(f, 1, sizeof(*x));
	*st = x;
	if (!x || agebuckets_init(f, &x->a))
		return set_err(err, n, "out of memory");
	return 0;
}

static void cat_seal(struct ftl *f, void *st, uint32_t seg)
{
	struct cat *x = st;
	x->oom |= agebuckets_add(f, &x->a, seg, f->seg[seg].valid);
}

static void cat_invalidate(struct ftl *f, void *st, uint32_t seg, uint32_t old)
{
	struct cat *x = st;
	agebuckets_del(f, &x->a, seg, old);
	x->oom |= agebuckets_add(f, &x->a, seg, old - 1);
}

static void cat_remove(struct ftl *f, void *st, uint32_t seg)
{
	agebuckets_del(f, &((struct cat *)st)->a, seg, f->seg[seg].valid);
}

static double cat_cost(const struct ftl *f, uint32_t s, uint32_t v)
{
	if (v == f->b)
		return HUGE_VAL;
	double u = (double)v / f->b;
	return u / (1 - u) * (f->erase_count[s] + 1.0) / (double)(f->clock - f->seal_time[s] + 1);
}

static uint32_t cat_pick(struct ftl *f, void *st)
{
	struct cat *x = st;
	if (x->oom) {
		snprintf(f->err, sizeof(f->err), "victim policy 'cat': out of memory");
		return FTL_NONE;
	}
	uint32_t best = FTL_NONE;
	double best_cost = 0;
	for (uint32_t v = 0; v <= f->b; v++) {
		for (uint32_t i = 0; i < x->a.len[v] && i < CAT_TOP; i++) {
			uint32_t s = x->a.heap[v][i];
			double c = cat_cost(f, s, v);
			if (best == FTL_NONE || c < best_cost ||
			    (c == best_cost && f->seg[s].valid == f->seg[best].valid &&
			     f->seal_time[s] < f->seal_time[best])) {
				best = s;
				best_cost = c;
			}
		}
	}
	if (best != FTL_NONE)
		agebuckets_del(f, &x->a, best, f->seg[best].valid);
	return best;
}

static int cat_check(struct ftl *f, void *st, char *err, size_t n)
{
	return agebuckets_check(f, &((struct cat *)st)->a, err, n);
}

static void cat_destroy(struct ftl *f, void *st)
{
	struct cat *x = st;
	agebuckets_free(&x->a);
	free(x);
}

const struct gc_ops gc_cat_ops = {
	.name = "cat",
	.desc = "Chiang's cost-age-times u/(1-u)*(erases+1)/(age+1)",
	.version = GC_API_VERSION,
	.init = cat_init,
	.on_seal = cat_seal,
	.on_invalidate = cat_invalidate,
	.remove = cat_remove,
	.pick = cat_pick,
	.check = cat_check,
	.destroy = cat_destroy,
};
