/*
 * gc_random.c - a uniformly random sealed segment (WA = 1/Sf under
 * uniform writes). Index: array of the sealed segments, swap-remove.
 * Draws from the policy's own generator.
 */
#include "ftlkit.h"
#include "gc.h"

static int random_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	return segarray_init(st, f, st) ? policy_fail(st, "out of memory") : 0;
}

static int random_seal(void *st, const struct ftl *f, uint32_t seg)
{
	segarray_add(st, seg);
	return 0;
}

static int random_remove(void *st, const struct ftl *f, uint32_t seg)
{
	segarray_del(st, seg);
	return 0;
}

static int random_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	struct segarray *a = st;
	*seg = FTL_NONE;
	if (!a->n)
		return 0;
	*seg = a->seg[rng_below32(policy_rng(st), a->n)];
	segarray_del(a, *seg);
	return 0;
}

static int random_check(void *st, const struct ftl *f, char *err, size_t n)
{
	return segarray_check(f, st, err, n);
}

static void random_destroy(void *st, const struct ftl *f) { segarray_free(st); }

const struct gc_ops gc_random_ops = {
	.info = {.name = "random",
		 .desc = "uniformly random sealed segment",
		 .version = GC_API_VERSION,
		 .state_size = sizeof(struct segarray)},
	.init = random_init,
	.on_seal = random_seal,
	.remove = random_remove,
	.pick = random_pick,
	.check = random_check,
	.destroy = random_destroy,
};
