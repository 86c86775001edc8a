/*
 * gc_windowed.c - windowed greedy: the fewest valid pages among the W
 * segments sealed longest ago (ties: the older). W = 1 is FIFO, W = all
 * segments is greedy. A pick scans W list entries: O(W), a constant.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct windowed {
	struct seglist l;
	uint32_t w;
};

static int windowed_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	uint64_t w = 16;
	if (arg && (parse_u64(arg, &w) || w < 1 || w > UINT32_MAX))
		return set_err(err, n, "windowed:W needs a window W >= 1, not '%s'", arg);
	struct windowed *x = ftl_calloc(f, 1, sizeof(*x));
	*st = x;
	if (!x || seglist_init(f, &x->l))
		return set_err(err, n, "out of memory");
	x->w = (uint32_t)w;
	return 0;
}

static void windowed_seal(struct ftl *f, void *st, uint32_t seg)
{
	seglist_push(&((struct windowed *)st)->l, seg);
}

static void windowed_remove(struct ftl *f, void *st, uint32_t seg)
{
	seglist_unlink(&((struct windowed *)st)->l, seg);
}

static uint32_t windowed_pick(struct ftl *f, void *st)
{
	struct windowed *x = st;
	uint32_t best = FTL_NONE, i = 0;
	for (uint32_t s = x->l.head; s != FTL_NONE && i < x->w; s = x->l.next[s], i++)
		if (best == FTL_NONE || f->seg[s].valid < f->seg[best].valid)
			best = s;
	if (best != FTL_NONE)
		seglist_unlink(&x->l, best);
	return best;
}

static int windowed_check(struct ftl *f, void *st, char *err, size_t n)
{
	return seglist_check(f, &((struct windowed *)st)->l, err, n);
}

static void windowed_destroy(struct ftl *f, void *st)
{
	struct windowed *x = st;
	free(x->l.prev);
	free(x->l.next);
	free(x);
}

const struct gc_ops gc_windowed_ops = {
	.name = "windowed",
	.desc = "greedy among the W oldest sealed segments (windowed:W, default 16)",
	.version = GC_API_VERSION,
	.flags = GC_ARG,
	.init = windowed_init,
	.on_seal = windowed_seal,
	.remove = windowed_remove,
	.pick = windowed_pick,
	.check = windowed_check,
	.destroy = windowed_destroy,
};
