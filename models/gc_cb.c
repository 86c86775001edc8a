/*
 * gc_cb.c - LFS cost-benefit (Rosenblum & Ousterhout): clean the segment
 * with the largest (1-u)*age/(1+u), u its valid fraction, age = now -
 * its seal time (the age of its youngest page), time = the host
 * page-write clock. Within one valid count the oldest segment scores
 * best, so a pick compares the tops of b + 1 age-ordered heaps: O(b)
 * a pick, O(log n) an invalidation. Ties: the fewer valid pages.
 */

#include "gc.h"

static double cb_score(const struct ftl *f, uint32_t s, uint32_t v)
{
	double u = (double)v / ftl_seg_pages(f);
	return (1 - u) * (double)(ftl_now(f) - ftl_seal_time(f, s)) / (1 + u);
}

static int cb_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	return agepol_pick(st, f, seg, 1, cb_score);
}

const struct gc_ops gc_cb_ops = {
	.info = {.name = "cb",
		 .desc = "LFS cost-benefit (1-u)*age/(1+u)",
		 .version = GC_API_VERSION,
		 .state_size = sizeof(struct agebuckets)},
	.init = agepol_init,
	.on_seal = agepol_seal,
	.on_invalidate = agepol_invalidate,
	.remove = agepol_remove,
	.pick = cb_pick,
	.check = agepol_check,
	.destroy = agepol_destroy,
};
