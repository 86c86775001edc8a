/*
 * gc_dchoices.c - d-choices: sample D sealed segments uniformly (with
 * replacement) and clean the one with the fewest valid pages (ties: the
 * first drawn). D = 1 is random; large D tends to greedy. O(D) a pick.
 */
#include "ftlkit.h"
#include "gc.h"

struct dchoices {
	struct segarray a;
	uint32_t d;
};

static int dchoices_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	struct dchoices *x = st;
	x->d = (uint32_t)in->args->u[0];
	return segarray_init(st, f, &x->a) ? policy_fail(st, "out of memory") : 0;
}

static int dchoices_seal(void *st, const struct ftl *f, uint32_t seg)
{
	segarray_add(&((struct dchoices *)st)->a, seg);
	return 0;
}

static int dchoices_remove(void *st, const struct ftl *f, uint32_t seg)
{
	segarray_del(&((struct dchoices *)st)->a, seg);
	return 0;
}

static int dchoices_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	struct dchoices *x = st;
	struct rng *r = policy_rng(st);
	uint32_t best = FTL_NONE;
	for (uint32_t i = 0; x->a.n && i < x->d; i++) {
		uint32_t s = x->a.seg[rng_below32(r, x->a.n)];
		if (best == FTL_NONE || ftl_valid(f, s) < ftl_valid(f, best))
			best = s;
	}
	if (best != FTL_NONE)
		segarray_del(&x->a, best);
	*seg = best;
	return 0;
}

static int dchoices_check(void *st, const struct ftl *f, char *err, size_t n)
{
	return segarray_check(f, &((struct dchoices *)st)->a, err, n);
}

static void dchoices_destroy(void *st, const struct ftl *f) { segarray_free(&((struct dchoices *)st)->a); }

static const struct policy_arg dchoices_args[] = {
	{"D", ARG_UINT, 1, 1000000, 2, "samples a pick"},
};

const struct gc_ops gc_dchoices_ops = {
	.info = {.name = "dchoices",
		 .desc = "fewest valid of D random samples (dchoices:D, default 2)",
		 .version = GC_API_VERSION,
		 .args = dchoices_args,
		 .nargs = 1,
		 .state_size = sizeof(struct dchoices)},
	.init = dchoices_init,
	.on_seal = dchoices_seal,
	.remove = dchoices_remove,
	.pick = dchoices_pick,
	.check = dchoices_check,
	.destroy = dchoices_destroy,
};
