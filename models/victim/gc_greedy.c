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
 *
 * With --gc-tie random a bucket is instead an array (a segment's first
 * word its place in it, swap-remove), and a pick draws uniformly among
 * the segments of the lowest bucket, as simulators that scan a hash
 * table break ties; each operation stays O(1).
 */
#include <stdlib.h>

#include "ftlkit.h"
#include "gc.h"

struct greedy {
	struct gc_slots slots; /* [0] prev, [1] next; random ties: [0] index */
	uint32_t *head, *tail; /* b + 1 buckets */
	uint32_t min;	       /* no segment in a bucket below it */
	int random;	       /* random ties: the buckets are arrays */
	uint32_t **arr, *len, *cap;
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
	g->random = ftl_tie_random(f);
	if (g->random && (!(g->arr = policy_calloc(st, b + 1, sizeof(uint32_t *))) ||
			  !(g->len = policy_calloc(st, b + 1, sizeof(uint32_t))) ||
			  !(g->cap = policy_calloc(st, b + 1, sizeof(uint32_t)))))
		return policy_fail(st, "out of memory");
	return 0;
}

/* Random ties: bucket v as an array. */
static int arr_add(void *st, struct greedy *g, uint32_t seg, uint32_t v)
{
	if (g->len[v] == g->cap[v]) {
		uint32_t c = g->cap[v] ? 2 * g->cap[v] : 16;
		uint32_t *a = policy_realloc(st, g->arr[v], g->cap[v] * sizeof(uint32_t), c * sizeof(uint32_t));
		if (!a)
			return policy_fail(st, "out of memory");
		g->arr[v] = a;
		g->cap[v] = c;
	}
	PREV(g, seg) = g->len[v];
	g->arr[v][g->len[v]++] = seg;
	if (v < g->min)
		g->min = v;
	return 0;
}

static void arr_del(struct greedy *g, uint32_t seg, uint32_t v)
{
	uint32_t i = PREV(g, seg), last = g->arr[v][--g->len[v]];
	g->arr[v][i] = last;
	PREV(g, last) = i;
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
	struct greedy *g = st;
	if (g->random)
		return arr_add(st, g, seg, ftl_valid(f, seg));
	link(g, seg, ftl_valid(f, seg));
	return 0;
}

static int greedy_invalidate(void *st, const struct ftl *f, uint32_t seg, uint32_t old)
{
	struct greedy *g = st;
	if (g->random) {
		arr_del(g, seg, old);
		return arr_add(st, g, seg, old - 1);
	}
	unlink_(g, seg, old);
	link(g, seg, old - 1);
	return 0;
}

/* n pages at once: the bucket the n moves of greedy_invalidate end in,
 * at its tail as theirs (the buckets between are left as they were). */
static int greedy_invalidate_n(void *st, const struct ftl *f, uint32_t seg, uint32_t old, uint32_t n)
{
	struct greedy *g = st;
	if (g->random) {
		arr_del(g, seg, old);
		return arr_add(st, g, seg, old - n);
	}
	unlink_(g, seg, old);
	link(g, seg, old - n);
	return 0;
}

static int greedy_remove(void *st, const struct ftl *f, uint32_t seg)
{
	struct greedy *g = st;
	if (g->random)
		arr_del(g, seg, ftl_valid(f, seg));
	else
		unlink_(g, seg, ftl_valid(f, seg));
	return 0;
}

static int greedy_pick_random(void *st, const struct ftl *f, uint32_t *seg)
{
	struct greedy *g = st;
	uint32_t b = ftl_seg_pages(f);
	while (g->min <= b && !g->len[g->min])
		g->min++;
	*seg = FTL_NONE;
	if (g->min > ftl_max_victim_valid(f))
		return 0;
	*seg = g->arr[g->min][rng_below32(policy_rng(st), g->len[g->min])];
	arr_del(g, *seg, g->min);
	return 0;
}

static int greedy_pick(void *st, const struct ftl *f, uint32_t *seg)
{
	struct greedy *g = st;
	uint32_t b = ftl_seg_pages(f);
	if (g->random)
		return greedy_pick_random(st, f, seg);
	while (g->min <= b && g->head[g->min] == FTL_NONE)
		g->min++;
	*seg = FTL_NONE;
	if (g->min > ftl_max_victim_valid(f)) /* none at all, or none the gp trigger accepts */
		return 0;
	*seg = g->head[g->min];
	unlink_(g, *seg, g->min);
	return 0;
}

static int greedy_check_random(struct greedy *g, const struct ftl *f, char *err, size_t n)
{
	uint64_t total = 0;
	for (uint32_t v = 0; v <= ftl_seg_pages(f); v++)
		for (uint32_t i = 0; i < g->len[v]; i++, total++) {
			uint32_t s = g->arr[v][i];
			if (ftl_state(f, s) != SEG_SEALED || ftl_valid(f, s) != v || PREV(g, s) != i)
				return set_err(err, n, "greedy bucket %u holds segment %u (valid %u, state %u)",
					       v, s, ftl_valid(f, s), ftl_state(f, s));
			if (v < g->min)
				return set_err(err, n, "greedy minimum %u above a non-empty bucket %u", g->min, v);
		}
	if (total != ftl_sealed_count(f))
		return set_err(err, n, "greedy buckets hold %llu segments, %u are sealed",
			       (unsigned long long)total, ftl_sealed_count(f));
	return 0;
}

static int greedy_check(void *st, const struct ftl *f, char *err, size_t n)
{
	struct greedy *g = st;
	uint64_t total = 0;
	if (g->random)
		return greedy_check_random(g, f, err, n);
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
	if (g->arr)
		for (uint32_t v = 0; v <= ftl_seg_pages(f); v++)
			free(g->arr[v]);
	free(g->arr);
	free(g->len);
	free(g->cap);
}

const struct gc_ops gc_greedy_ops = {
	.info = {.name = "greedy",
		 .desc = "fewest valid pages",
		 .version = GC_API_VERSION,
		 .flags = GC_SLOT_LINKS | GC_RANDOM_TIES,
		 .state_size = sizeof(struct greedy)},
	.init = greedy_init,
	.on_seal = greedy_seal,
	.on_invalidate = greedy_invalidate,
	.on_invalidate_n = greedy_invalidate_n,
	.remove = greedy_remove,
	.pick = greedy_pick,
	.check = greedy_check,
	.destroy = greedy_destroy,
};
