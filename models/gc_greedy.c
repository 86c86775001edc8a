/*
 * gc_greedy.c - greedy: clean the segment with the fewest valid pages.
 *
 * Index: one doubly-linked list per valid count 0..b, linked through
 * the policy's two words in the model's segment records (gc_slot:
 * prev, next), so that an invalidation touches one line per segment,
 * and a moving minimum. An invalidation moves a segment one bucket
 * down, O(1); a pick advances the minimum past empty buckets, amortized
 * O(1) since it only moves down on invalidations. Within a bucket, the
 * segment that entered it first goes first.
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct greedy {
	struct gc_slots slots; /* [0] prev, [1] next */
	uint32_t *head, *tail; /* b + 1 buckets */
	uint32_t min;	       /* no segment in a bucket below it */
};

#define PREV(g, s) gc_slot((g)->slots, s)[0]
#define NEXT(g, s) gc_slot((g)->slots, s)[1]

static int greedy_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out)
{
	struct greedy *g = st;
	uint32_t b = ftl_seg_pages(f);
	g->slots = in->slots;
	g->head = policy_calloc(st, b + 1, sizeof(uint32_t));
	g->tail = policy_calloc(st, b + 1, sizeof(uint32_t));
	if (!g->head || !g->tail)
		return policy_fail(st, "out of memory");
	for (uint32_t v = 0; v <= b; v++)
		g->head[v] = g->tail[v] = FTL_NONE;
	g->min = b + 1;
	return 0;
}

static inline void link(struct greedy *g, uint32_t seg, uint32_t v)
{
	uint32_t t = g->tail[v];
	PREV(g, seg) = t;
	NEXT(g, seg) = FTL_NONE;
	if (t != FTL_NONE)
		NEXT(g, t) = seg;
	else
		g->head[v] = seg;
	g->tail[v] = seg;
	if (v < g->min)
		g->min = v;
}

static inline void unlink_(struct greedy *g, uint32_t seg, uint32_t v)
{
	uint32_t p = PREV(g, seg), nx = NEXT(g, seg);
	if (p != FTL_NONE)
		NEXT(g, p) = nx;
	else
		g->head[v] = nx;
	if (nx != FTL_NONE)
		PREV(g, nx) = p;
	else
		g->tail[v] = p;
}

static int greedy_seal(void *st, const struct ftl *f, uint32_t seg)
{
	link(st, seg, ftl_valid(f, seg));
	return 0;
}

static int greedy_invalidate(void *st, const struct ftl *f, uint32_t seg, uint32_t old)
{
	unlink_(st, seg, old);
	link(st, seg, old - 1);
	return 0;
}

static int greedy_remove(void *st, const struct ftl *f, uint32_t seg)
{
	unlink_(st, seg, ftl_valid(f, seg));
	return 0;
}

static int greedy_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	struct greedy *g = st;
	uint32_t b = ftl_seg_pages(f);
	while (g->min <= b && g->head[g->min] == FTL_NONE)
		g->min++;
	*seg = FTL_NONE;
	if (g->min > b)
		return 0;
	*seg = g->head[g->min];
	unlink_(g, *seg, g->min);
	return 0;
}

static int greedy_check(void *st, const struct ftl *f, char *err, size_t n)
{
	struct greedy *g = st;
	uint64_t total = 0;
	for (uint32_t v = 0; v <= ftl_seg_pages(f); v++) {
		uint32_t prev = FTL_NONE;
		for (uint32_t s = g->head[v]; s != FTL_NONE; prev = s, s = NEXT(g, s)) {
			if (++total > ftl_segments(f))
				return set_err(err, n, "greedy bucket %u has a cycle", v);
			if (ftl_state(f, s) != SEG_SEALED || ftl_valid(f, s) != v || PREV(g, s) != prev)
				return set_err(err, n, "greedy bucket %u holds segment %u (valid %u, state %u)",
					       v, s, ftl_valid(f, s), ftl_state(f, s));
			if (v < g->min)
				return set_err(err, n, "greedy minimum %u above a non-empty bucket %u", g->min, v);
		}
		if (g->tail[v] != prev)
			return set_err(err, n, "greedy bucket %u: bad tail", v);
	}
	if (total != ftl_sealed_count(f))
		return set_err(err, n, "greedy buckets hold %llu segments, %u are sealed",
			       (unsigned long long)total, ftl_sealed_count(f));
	return 0;
}

static void greedy_destroy(void *st, const struct ftl *f)
{
	struct greedy *g = st;
	free(g->head);
	free(g->tail);
}

const struct gc_ops gc_greedy_ops = {
	.info = {.name = "greedy",
		 .desc = "fewest valid pages",
		 .version = GC_API_VERSION,
		 .flags = GC_SLOT_LINKS,
		 .state_size = sizeof(struct greedy)},
	.init = greedy_init,
	.on_seal = greedy_seal,
	.on_invalidate = greedy_invalidate,
	.remove = greedy_remove,
	.pick = greedy_pick,
	.check = greedy_check,
	.destroy = greedy_destroy,
};
