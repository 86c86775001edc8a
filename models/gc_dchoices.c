/*
 * gc_dchoices.c - d-choices: sample D sealed segments uniformly (with
 * replacement) and clean the one with the fewest valid pages (ties: the
 * first drawn). D = 1 is random; large D tends to greedy. O(D) a pick.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct dchoices {
	struct segarray a;
	uint32_t d;
};

static int dchoices_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	uint64_t d = 2;
	if (arg && (parse_u64(arg, &d) || d < 1 || d > 1000000))
		return set_err(err, n, "dchoices:D needs 1 <= D <= 1000000, not '%s'", arg);
	struct dchoices *x = ftl_calloc(f, 1, sizeof(*x));
	*st = x;
	if (!x || segarray_init(f, &x->a))
		return set_err(err, n, "out of memory");
	x->d = (uint32_t)d;
	return 0;
}

static void dchoices_seal(struct ftl *f, void *st, uint32_t seg)
{
	segarray_add(&((struct dchoices *)st)->a, seg);
}

static void dchoices_remove(struct ftl *f, void *st, uint32_t seg)
{
	segarray_del(&((struct dchoices *)st)->a, seg);
}

static uint32_t dchoices_pick(struct ftl *f, void *st)
{
	struct dchoices *x = st;
	if (!x->a.n)
		return FTL_NONE;
	uint32_t best = FTL_NONE;
	for (uint32_t i = 0; i < x->d; i++) {
		uint32_t s = x->a.seg[ftl_rng_below(f->rng, x->a.n)];
		if (best == FTL_NONE || f->seg[s].valid < f->seg[best].valid)
			best = s;
	}
	segarray_del(&x->a, best);
	return best;
}

static int dchoices_check(struct ftl *f, void *st, char *err, size_t n)
{
	return segarray_check(f, &((struct dchoices *)st)->a, err, n);
}

static void dchoices_destroy(struct ftl *f, void *st)
{
	struct dchoices *x = st;
	free(x->a.seg);
	free(x->a.pos);
	free(x);
}

const struct gc_ops gc_dchoices_ops = {
	.name = "dchoices",
	.desc = "fewest valid of D random samples (dchoices:D, default 2)",
	.version = GC_API_VERSION,
	.flags = GC_ARG | GC_RANDOM,
	.init = dchoices_init,
	.on_seal = dchoices_seal,
	.remove = dchoices_remove,
	.pick = dchoices_pick,
	.check = dchoices_check,
	.destroy = dchoices_destroy,
};
