/*
 * ftl_wear.c - static wear levelling (docs/MODEL.md "Wear levelling"):
 * the sealed segments on one list per erase count, the number of
 * segments at each count, and the move of a least-worn segment's data
 * when the counts spread past the threshold.
 */
#include <stdlib.h>
#include <string.h>

#include "ftl_int.h"
#include "gc.h"

int ftl_wear_init(struct ftl *f)
{
	f->wl_cap = 64;
	f->wl_prev = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->wl_next = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->wl_head = calloc(f->wl_cap, sizeof(uint32_t));
	f->ec_count = calloc(f->wl_cap, sizeof(uint64_t));
	if (!f->wl_prev || !f->wl_next || !f->wl_head || !f->ec_count)
		return -1;
	memset(f->wl_head, 0xff, f->wl_cap * sizeof(uint32_t));
	f->ec_count[0] = f->nseg;
	return 0;
}

void ftl_wear_free(struct ftl *f)
{
	free(f->wl_prev);
	free(f->wl_next);
	free(f->wl_head);
	free(f->ec_count);
}

void ftl_wear_sealed(struct ftl *f, uint32_t seg)
{
	uint32_t e = f->erase_count[seg], h = f->wl_head[e];
	f->wl_prev[seg] = FTL_NONE;
	f->wl_next[seg] = h;
	if (h != FTL_NONE)
		f->wl_prev[h] = seg;
	f->wl_head[e] = seg;
}

static void wl_unlink(struct ftl *f, uint32_t seg)
{
	uint32_t p = f->wl_prev[seg], nx = f->wl_next[seg];
	if (p != FTL_NONE)
		f->wl_next[p] = nx;
	else
		f->wl_head[f->erase_count[seg]] = nx;
	if (nx != FTL_NONE)
		f->wl_prev[nx] = p;
}

static int wear_grow(struct ftl *f, uint32_t e)
{
	if (e < f->wl_cap)
		return 0;
	uint32_t cap = f->wl_cap * 2;
	uint32_t *h = realloc(f->wl_head, cap * sizeof(uint32_t));
	if (h)
		f->wl_head = h;
	uint64_t *c = realloc(f->ec_count, cap * sizeof(uint64_t));
	if (c)
		f->ec_count = c;
	if (!h || !c)
		return ftl_err(f, "out of memory for erase counts");
	memset(h + f->wl_cap, 0xff, (cap - f->wl_cap) * sizeof(uint32_t));
	memset(c + f->wl_cap, 0, (cap - f->wl_cap) * sizeof(uint64_t));
	f->wl_cap = cap;
	return 0;
}

int ftl_wear_erasing(struct ftl *f, uint32_t seg)
{
	uint32_t e = f->erase_count[seg];
	wl_unlink(f, seg);
	if (wear_grow(f, e + 1))
		return -1;
	f->ec_count[e]--;
	f->ec_count[e + 1]++;
	while (!f->ec_count[f->ec_min])
		f->ec_min++;
	return 0;
}

/* Static wear levelling: when erase counts spread past the threshold,
 * move the data of a least-worn sealed segment (cold data, likely) so
 * that the segment rejoins the free pool. Runs as the first "victim"
 * of a GC pass, so that the pass's free-segment accounting covers it. */
int ftl_wear_level(struct ftl *f)
{
	if (f->ec_max - f->ec_min <= f->wear_threshold)
		return 0;
	for (uint32_t e = f->ec_min; e <= f->ec_max; e++) {
		uint32_t seg = f->wl_head[e];
		if (seg == FTL_NONE)
			continue;
		if (f->gc->remove(ftl_gc_room(f, seg), f, seg))
			return ftl_gc_failed(f);
		if (ftl_clean(f, seg, 1))
			return -1;
		return f->place_batch ? ftl_writeout_sorted(f, 1) : 0;
	}
	return 0;
}

