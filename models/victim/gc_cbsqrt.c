/*
 * gc_cbsqrt.c - SepBIT's cost-benefit (Wang et al., FAST'22): clean the
 * segment with the largest (1-u)/u*sqrt(age) (an empty one first), u
 * its valid fraction, age = now - its seal time, time = the host
 * page-write clock. Same index as cb (gc_cb.c): within one valid count
 * the oldest segment scores best, so a pick compares the tops of b + 1
 * age-ordered heaps. Ties: the fewer valid pages.
 */
#include <math.h>

#include "gc.h"

static double cbsqrt_score(const struct ftl *f, uint32_t s, uint32_t v)
{
	double u = (double)v / ftl_seg_pages(f);
	return v ? (1 - u) / u * sqrt((double)(ftl_now(f) - ftl_seal_time(f, s))) : HUGE_VAL;
}

static int cbsqrt_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	return agepol_pick(st, f, seg, 1, cbsqrt_score);
}

const struct gc_ops gc_cbsqrt_ops = {
	.info = {.name = "cb-sqrt",
		 .desc = "SepBIT cost-benefit (1-u)/u*sqrt(age)",
		 .version = GC_API_VERSION,
		 .state_size = sizeof(struct agebuckets)},
	.init = agepol_init,
	.on_seal = agepol_seal,
	.on_invalidate = agepol_invalidate,
	.remove = agepol_remove,
	.pick = cbsqrt_pick,
	.check = agepol_check,
	.destroy = agepol_destroy,
};
