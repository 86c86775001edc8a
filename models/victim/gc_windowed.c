/*
 * gc_windowed.c - windowed greedy: the fewest valid pages among the W
 * segments sealed longest ago (ties: the older). W = 1 is FIFO, W = all
 * segments is greedy. A pick scans W list entries: O(W), a constant.
 */
#include "ftlkit.h"
#include "gc.h"

struct windowed {
	struct seglist l;
	uint32_t w;
};

static int windowed_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	struct windowed *x = st;
	x->w = (uint32_t)in->args->u[0];
	return seglist_init(st, f, &x->l) ? policy_fail(st, "out of memory") : 0;
}

static int windowed_seal(void *st, const struct ftl *f, uint32_t seg)
{
	seglist_push(&((struct windowed *)st)->l, seg);
	return 0;
}

static int windowed_remove(void *st, const struct ftl *f, uint32_t seg)
{
	seglist_unlink(&((struct windowed *)st)->l, seg);
	return 0;
}

static int windowed_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	struct windowed *x = st;
	uint32_t best = FTL_NONE, i = 0;
	for (uint32_t s = x->l.head; s != FTL_NONE && i < x->w; s = x->l.next[s], i++)
		if (best == FTL_NONE || ftl_valid(f, s) < ftl_valid(f, best))
			best = s;
	if (best != FTL_NONE)
		seglist_unlink(&x->l, best);
	*seg = best;
	return 0;
}

static int windowed_check(void *st, const struct ftl *f, char *err, size_t n)
{
	return seglist_check(f, &((struct windowed *)st)->l, err, n);
}

static void windowed_destroy(void *st, const struct ftl *f) { seglist_free(&((struct windowed *)st)->l); }

static const struct policy_arg windowed_args[] = {
	{"W", ARG_UINT, 1, UINT32_MAX, 16, "oldest segments a pick looks at"},
};

const struct gc_ops gc_windowed_ops = {
	.info = {.name = "windowed",
		 .desc = "greedy among the W oldest sealed segments (windowed:W, default 16)",
		 .version = GC_API_VERSION,
		 .args = windowed_args,
		 .nargs = 1,
		 .state_size = sizeof(struct windowed)},
	.init = windowed_init,
	.on_seal = windowed_seal,
	.remove = windowed_remove,
	.pick = windowed_pick,
	.check = windowed_check,
	.destroy = windowed_destroy,
};
