/*
 * gc_greedy.c - greedy: clean the segment with the fewest valid pages.
 *
 * Index: one doubly-linked list per valid count 0..b (intrusive u32
 * prev/next per segment, in the model's segment record so that an
 * invalidation touches one line per segment) and a moving minimum. An invalidation moves a
 * segment one bucket down, O(1); a pick advances the minimum past empty
 * buckets, amortized O(1) since it only moves down on invalidations.
 * Within a bucket, the segment that entered it first goes first.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct greedy {
	struct ftl_seg *seg;   /* the model's records: links in .prev, .next */
	uint32_t *head, *tail; /* b + 1 buckets */
	uint32_t min;	       /* no segment in a bucket below it */
};

static int greedy_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	struct greedy *g = ftl_calloc(f, 1, sizeof(*g));
	if (!g)
		return set_err(err, n, "out of memory");
	*st = g;
	g->seg = f->seg;
	g->head = ftl_calloc(f, f->b + 1, sizeof(uint32_t));
	g->tail = ftl_calloc(f, f->b + 1, sizeof(uint32_t));
	if (!g->head || !g->tail)
		return set_err(err, n, "out of memory");
	for (uint32_t v = 0; v <= f->b; v++)
		g->head[v] = g->tail[v] = FTL_NONE;
	g->min = f->b + 1;
	return 0;
}

static inline void link(struct greedy *g, uint32_t seg, uint32_t v)
{
	uint32_t t = g->tail[v];
	g->seg[seg].prev = t;
	g->seg[seg].next = FTL_NONE;
	if (t != FTL_NONE)
		g->seg[t].next = seg;
	else
		g->head[v] = seg;
	g->tail[v] = seg;
	if (v < g->min)
		g->min = v;
}

static inline void unlink_(struct greedy *g, uint32_t seg, uint32_t v)
{
	uint32_t p = g->seg[seg].prev, nx = g->seg[seg].next;
	if (p != FTL_NONE)
		g->seg[p].next = nx;
	else
		g->head[v] = nx;
	if (nx != FTL_NONE)
		g->seg[nx].prev = p;
	else
		g->tail[v] = p;
}

static void greedy_seal(struct ftl *f, void *st, uint32_t seg)
{
	link(st, seg, f->seg[seg].valid);
}

static void greedy_invalidate(struct ftl *f, void *st, uint32_t seg, uint32_t old)
{
	unlink_(st, seg, old);
	link(st, seg, old - 1);
}

static void greedy_remove(struct ftl *f, void *st, uint32_t seg)
{
	unlink_(st, seg, f->seg[seg].valid);
}

static uint32_t greedy_pick(struct ftl *f, void *st)
{
	struct greedy *g = st;
	while (g->min <= f->b && g->head[g->min] == FTL_NONE)
		g->min++;
	if (g->min > f->b)
		return FTL_NONE;
	uint32_t seg = g->head[g->min];
	unlink_(g, seg, g->min);
	return seg;
}

static int greedy_check(struct ftl *f, void *st, char *err, size_t n)
{
	struct greedy *g = st;
	uint64_t total = 0;
	for (uint32_t v = 0; v <= f->b; v++) {
		uint32_t prev = FTL_NONE;
		for (uint32_t s = g->head[v]; s != FTL_NONE; prev = s, s = g->seg[s].next) {
			if (++total > f->nseg)
				return set_err(err, n, "greedy bucket %u has a cycle", v);
			if (f->seg[s].state != SEG_SEALED || f->seg[s].valid != v || g->seg[s].prev != prev)
				return set_err(err, n, "greedy bucket %u holds segment %u (valid %u, state %u)",
					       v, s, f->seg[s].valid, f->seg[s].state);
			if (v < g->min)
				return set_err(err, n, "greedy minimum %u above a non-empty bucket %u", g->min, v);
		}
		if (g->tail[v] != prev)
			return set_err(err, n, "greedy bucket %u: bad tail", v);
	}
	if (total != f->nsealed)
		return set_err(err, n, "greedy buckets hold %llu segments, %u are sealed",
			       (unsigned long long)total, f->nsealed);
	return 0;
}

static void greedy_destroy(struct ftl *f, void *st)
{
	struct greedy *g = st;
	free(g->head);
	free(g->tail);
	free(g);
}

const struct gc_ops gc_greedy_ops = {
	.name = "greedy",
	.desc = "fewest valid pages",
	.version = GC_API_VERSION,
	.init = greedy_init,
	.on_seal = greedy_seal,
	.on_invalidate = greedy_invalidate,
	.remove = greedy_remove,
	.pick = greedy_pick,
	.check = greedy_check,
	.destroy = greedy_destroy,
};
