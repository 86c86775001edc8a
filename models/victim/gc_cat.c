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

#include "gc.h"

enum { CAT_TOP = 7 };

static double cat_score(const struct ftl *f, uint32_t s, uint32_t v)
{
	if (v == ftl_seg_pages(f))
		return -HUGE_VAL; /* a full segment only when nothing else is sealed */
	double u = (double)v / ftl_seg_pages(f);
	return -(u / (1 - u) * (ftl_erase_count(f, s) + 1.0) / (double)(ftl_now(f) - ftl_seal_time(f, s) + 1));
}

static int cat_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	return agepol_pick(st, f, seg, CAT_TOP, cat_score);
}

const struct gc_ops gc_cat_ops = {
	.info = {.name = "cat",
		 .desc = "Chiang's cost-age-times u/(1-u)*(erases+1)/(age+1)",
		 .version = GC_API_VERSION,
		 .state_size = sizeof(struct agebuckets)},
	.init = agepol_init,
	.on_seal = agepol_seal,
	.on_invalidate = agepol_invalidate,
	.remove = agepol_remove,
	.pick = cat_pick,
	.check = agepol_check,
	.destroy = agepol_destroy,
};
