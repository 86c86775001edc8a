/*
 * gc_cb.c - LFS cost-benefit (Rosenblum & Ousterhout): clean the segment
 * with the largest (1-u)*age/(1+u), u its valid fraction, time = the
 * host page-write clock. cb:A chooses the age: A = 0 (default) now - the
 * seal time (since its youngest page was programmed), 1 now - the
 * youngest write time of its pages (LFS's definition: a copied block
 * keeps its modification time), 2 now - their mean write time (f2fs's
 * get_cb_cost); docs/MODEL.md measures the three. An empty segment
 * (u = 0) is cleaned before any other, the oldest first: it needs no
 * read and no copy, so its cost is 0 and its benefit unbounded (LFS:
 * "if a segment has no live blocks it need not be read at all"), where
 * the formula alone would rank a young empty segment below an old,
 * partly valid one. Within one valid count the oldest segment scores
 * best, so a pick compares the tops of b age-ordered heaps: O(b) a
 * pick (O(log n) when an empty segment is sealed), O(log n) an
 * invalidation. Ties: the fewer valid pages.
 */
#include <math.h>

#include "gc.h"

static double cb_score(const struct ftl *f, uint32_t s, uint32_t v)
{
	if (!v)
		return HUGE_VAL; /* nothing to read or copy: cost 0 (agepol_pick takes these first) */
	double u = (double)v / ftl_seg_pages(f);
	return (1 - u) * (double)(ftl_now(f) - ftl_age_origin(f, s)) / (1 + u);
}

static int cb_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	return agepol_pick(st, f, seg, 1, cb_score);
}

static int cb_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	static const unsigned keep[] = {0, FTL_KEEP_AGE_YOUNGEST, FTL_KEEP_AGE_MEAN};
	out->keep = keep[in->args->u[0]];
	return agepol_init(st, f, in, out);
}

static const struct policy_arg cb_args[] = {
	{"A", ARG_UINT, 0, 2, 0, "age from: 0 the seal, 1 the youngest page's write (LFS), 2 the mean write (f2fs)"},
};

const struct gc_ops gc_cb_ops = {
	.info = {.name = "cb",
		 .desc = "LFS cost-benefit (1-u)*age/(1+u) (cb:A, A = 0 age from the seal, 1 from the youngest page's write, 2 from the mean write)",
		 .version = GC_API_VERSION,
		 .args = cb_args,
		 .nargs = 1,
		 .state_size = sizeof(struct agebuckets)},
	.init = cb_init,
	.on_seal = agepol_seal,
	.on_invalidate = agepol_invalidate,
	.remove = agepol_remove,
	.pick = cb_pick,
	.check = agepol_check,
	.destroy = agepol_destroy,
};
