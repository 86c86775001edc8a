/*
 * gc_random.c - a uniformly random sealed segment (WA = 1/Sf under
 * uniform writes). Index: array of the sealed segments, swap-remove.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

static int random_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct segarray *a = ftl_calloc(f, 1, sizeof(*a));
	*st = a;
	if (!a || segarray_init(f, a))
		return set_err(err, n, "out of memory");
	return 0;
}

static void random_seal(struct ftl *f, void *st, uint32_t seg) { segarray_add(st, seg); }
static void random_remove(struct ftl *f, void *st, uint32_t seg) { segarray_del(st, seg); }

static uint32_t random_pick(struct ftl *f, void *st)
{
	struct segarray *a = st;
	if (!a->n)
		return FTL_NONE;
	uint32_t seg = a->seg[ftl_rng_below(f->rng, a->n)];
	segarray_del(a, seg);
	return seg;
}

static int random_check(struct ftl *f, void *st, char *err, size_t n)
{
	return segarray_check(f, st, err, n);
}

static void random_destroy(struct ftl *f, void *st)
{
	struct segarray *a = st;
	free(a->seg);
	free(a->pos);
	free(a);
}

const struct gc_ops gc_random_ops = {
	.name = "random",
	.desc = "uniformly random sealed segment",
	.version = GC_API_VERSION,
	.flags = GC_RANDOM,
	.init = random_init,
	.on_seal = random_seal,
	.remove = random_remove,
	.pick = random_pick,
	.check = random_check,
	.destroy = random_destroy,
};
