/*
 * ftl_wear.c - static wear levelling (docs/MODEL.md "Wear levelling"):
 * the sealed segments on one list per erase count, the number of
 * segments at each count, and the move of a least-worn segment's data
 * when the counts spread past the threshold.
 */
#include <stdlib.h>

#include "ftl_int.h"
#include "gc.h"

int ftl_wear_init(struct ftl *f)
{
	f->wl_cap = 64;
	f->wl_prev = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->wl_next = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->wl = ftl_calloc(f, f->wl_cap, sizeof(*f->wl));
	if (!f->wl_prev || !f->wl_next || !f->wl)
		return -1;
	for (uint32_t e = 0; e < f->wl_cap; e++)
		f->wl[e] = (struct ftl_wl_level){.count = 0, .head = FTL_NONE};
	f->wl[0].count = f->nseg;
	return 0;
}

void ftl_wear_free(struct ftl *f)
{
	free(f->wl_prev);
	free(f->wl_next);
	free(f->wl);
}

void ftl_wear_sealed(struct ftl *f, uint32_t seg)
{
	uint32_t e = f->erase_count[seg], h = f->wl[e].head;
	f->wl_prev[seg] = FTL_NONE;
	f->wl_next[seg] = h;
	if (h != FTL_NONE)
		f->wl_prev[h] = seg;
	f->wl[e].head = seg;
}

static void wl_unlink(struct ftl *f, uint32_t seg)
{
	uint32_t p = f->wl_prev[seg], nx = f->wl_next[seg];
	if (p != FTL_NONE)
		f->wl_next[p] = nx;
	else
		f->wl[f->erase_count[seg]].head = nx;
	if (nx != FTL_NONE)
		f->wl_prev[nx] = p;
}

static int wear_grow(struct ftl *f, uint32_t e)
{
	if (e < f->wl_cap)
		return 0;
	uint32_t cap = f->wl_cap * 2;
	struct ftl_wl_level *l = realloc(f->wl, cap * sizeof(*l));
	if (!l)
		return ftl_err(f, "out of memory for erase counts");
	for (uint32_t i = f->wl_cap; i < cap; i++)
		l[i] = (struct ftl_wl_level){.count = 0, .head = FTL_NONE};
	f->mem_bytes += (uint64_t)(cap - f->wl_cap) * sizeof(*l);
	f->wl = l;
	f->wl_cap = cap;
	return 0;
}

int ftl_wear_erasing(struct ftl *f, uint32_t seg)
{
	uint32_t e = f->erase_count[seg];
	wl_unlink(f, seg);
	if (wear_grow(f, e + 1))
		return -1;
	f->wl[e].count--;
	f->wl[e + 1].count++;
	while (!f->wl[f->ec_min].count)
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
		uint32_t seg = f->wl[e].head;
		if (seg == FTL_NONE)
			continue;
		if (f->gc->remove(ftl_gc_room(f, seg), f, seg))
			return ftl_gc_failed(f, ftl_gc_room(f, seg));
		if (ftl_clean(f, seg, 1))
			return -1;
		return f->place_batch ? ftl_writeout_sorted(f, 1) : 0;
	}
	return 0;
}

