/*
 * ftl_request.c - requests to pages (docs/MODEL.md "Requests"): byte
 * ranges to page ranges, the out-of-range rule, discards covering whole
 * pages only, the learning pass of a placement that knows the future,
 * and the footprint renumbering (--logical-space footprint).
 */
#include <string.h>

#include "ftl_int.h"
#include "place.h"

static uint32_t lpn_of(const struct ftl *f, uint64_t page)
{
	return f->map ? ftl_pagemap_get(f->map, page) : (uint32_t)page;
}

/* Pages [*first, *end) touched by e, after the out-of-range rule.
 * 1 go on, 0 drop the request, -1 error. */
static int span(struct ftl *f, const struct ev *e, uint64_t *first, uint64_t *end)
{
	ev_pages(e, f->page_size, first, end);
	if (f->map || *end <= f->U)
		return 1;
	f->r.out_of_range++;
	switch (f->oor) {
	case OOR_DROP:
		return 0;
	case OOR_CLIP:
		*end = f->U;
		return *first < *end;
	}
	return ftl_err(f, "%s at byte %llu, length %u, ends past the logical space (%llu pages of %u bytes)",
		    e->op == EV_WRITE ? "write" : e->op == EV_READ ? "read" : "discard",
		    (unsigned long long)e->offset, e->length, (unsigned long long)f->U, f->page_size);
}

static int discard(struct ftl *f, const struct ev *e, uint64_t first, uint64_t end)
{
	uint64_t ff, fe;
	ev_whole_pages(e, f->page_size, &ff, &fe);
	if (fe > end)
		fe = end;
	if (fe < ff)
		fe = ff;
	f->r.discard_partial_pages += (end - first) - (fe - ff);
	if (!f->map && !f->learning && fe > ff) { /* a direct map: the pages in runs */
		uint64_t trimmed = 0;
		if (ftl_trim_seq(f, (uint32_t)ff, (uint32_t)(fe - ff), &trimmed))
			return -1;
		f->r.discard_pages_trimmed += trimmed;
		f->r.discard_pages_unmapped += (fe - ff) - trimmed;
		return 0;
	}
	for (uint64_t p = ff; p < fe; p++) {
		uint32_t lpn = lpn_of(f, p);
		if (f->learning) {
			if (lpn != FTL_NONE && f->place->learn(f->place_st, f, lpn, EV_DISCARD))
				return ftl_place_failed(f);
			continue;
		}
		int rc = lpn == FTL_NONE ? 0 : ftl_trim(f, lpn);
		if (rc < 0)
			return -1;
		if (rc)
			f->r.discard_pages_trimmed++;
		else
			f->r.discard_pages_unmapped++;
	}
	return 0;
}

/* A host read: each mapped page read where the map says (flash.h). */
static int read_pages(struct ftl *f, uint64_t first, uint64_t end)
{
	for (uint64_t p = first; p < end; p++) {
		uint32_t lpn = lpn_of(f, p), ppn = lpn == FTL_NONE ? FTL_NONE : f->l2p[lpn];
		if (ppn == FTL_NONE)
			continue;
		uint32_t seg = ftl_seg_of(f, ppn);
		if (ftl_flash_to(f, FLASH_READ, FLASH_HOST_READ, seg, ppn, lpn, f->seg[seg].stream))
			return -1;
	}
	return 0;
}

int ftl_request(struct ftl *f, const struct ev *e)
{
	f->now_ns = e->t_ns;
	/* The common cases first: one whole page written or read in a
	 * direct map, what the general path below does for it, without its
	 * steps. */
	if (e->length == f->page_size && !(e->offset & (f->page_size - 1)) && !f->map &&
	    (e->offset >> f->page_shift) < f->U) {
		uint32_t page = (uint32_t)(e->offset >> f->page_shift);
		if (e->op == EV_WRITE && !f->place_request && !f->learning) {
			f->r.writes++;
			struct ftl_tag tag = {.temp = e->temp, .stream = e->stream, .hint = e->hint, .t_ns = e->t_ns};
			return ftl_write_tagged(f, page, &tag);
		}
		if (e->op == EV_READ) {
			f->r.reads++;
			f->r.read_pages++;
			if (!f->nflash || f->learning)
				return 0;
			uint32_t ppn = f->l2p[page], seg; /* read_pages of the one page */
			if (ppn == FTL_NONE)
				return 0;
			seg = ftl_seg_of(f, ppn);
			return ftl_flash_to(f, FLASH_READ, FLASH_HOST_READ, seg, ppn, page, f->seg[seg].stream);
		}
	}
	switch (e->op) {
	case EV_FLUSH:
		f->r.flushes++;
		return 0;
	case EV_READ: f->r.reads++; break;
	case EV_WRITE: f->r.writes++; break;
	case EV_DISCARD: f->r.discards++; break;
	case EV_ZONE_RESET:
	case EV_ZONE_OPEN:
	case EV_ZONE_FINISH:
	case EV_ZONE_APPEND:
		return ftl_err(f, "zone operation %s at byte %llu: a page-mapped model has no zones (a zoned "
				  "device takes them: --zoned, with no host log above it)", ev_op_name(e->op),
			       (unsigned long long)e->offset);
	default: return ftl_err(f, "unknown operation %u", e->op);
	}
	if (!e->length) {
		f->r.zero_length++;
		return 0;
	}
	if ((e->offset | e->length) & (f->page_size - 1))
		f->r.unaligned++;
	uint64_t first, end;
	int rc = span(f, e, &first, &end);
	if (rc <= 0)
		return rc;
	if (e->op == EV_READ) {
		f->r.read_pages += end - first;
		return f->nflash && !f->learning ? read_pages(f, first, end) : 0;
	}
	if (e->op == EV_DISCARD) {
		if (!f->trim) {
			f->r.discards_ignored++;
			return 0;
		}
		return discard(f, e, first, end);
	}
	if (f->place_request && !f->learning && end > first &&
	    f->place_request(f->place_st, f, lpn_of(f, first), (uint32_t)(end - first)))
		return ftl_place_failed(f);
	struct ftl_tag tag = {.temp = e->temp, .stream = e->stream, .hint = e->hint, .t_ns = e->t_ns};
	/* Under gp:P with --gc-ops N, GC waits for the request's last page
	 * (docs/MODEL.md); otherwise ftl_write_tagged runs it every page. */
	if (!f->map && !f->learning && f->gp_max <= 0) /* no GC at the request's end */
		return ftl_write_run(f, (uint32_t)first, (uint32_t)(end - first), &tag);
	f->in_request = f->gp_max > 0 && f->gc_ops > 0 && !f->learning;
	for (uint64_t p = first; p < end; p++) {
		uint32_t lpn = lpn_of(f, p);
		if (lpn == FTL_NONE) {
			f->in_request = 0;
			return ftl_err(f, "write of page %llu, which the footprint pass did not see",
				    (unsigned long long)p);
		}
		if (f->learning) {
			if (f->place->learn(f->place_st, f, lpn, EV_WRITE))
				return ftl_place_failed(f);
			continue;
		}
		if (ftl_write_tagged(f, lpn, &tag)) {
			f->in_request = 0;
			return -1;
		}
	}
	return f->in_request ? ftl_request_written(f) : 0;
}

void ftl_learn_begin(struct ftl *f) { f->learning = 1; }

int ftl_learn_end(struct ftl *f)
{
	f->learning = 0;
	memset(&f->r, 0, sizeof(f->r));
	if (f->place->learn_done && f->place->learn_done(f->place_st, f))
		return ftl_place_failed(f);
	return 0;
}

/*
 * Footprint map: a lib/pagemap (volume 0) whose value is the logical
 * page, numbered in first-touch order.
 */

int ftl_pagemap_init(struct ftl_pagemap *m)
{
	return pagemap_init(&m->t, sizeof(uint32_t));
}

int ftl_pagemap_add(struct ftl_pagemap *m, uint64_t page)
{
	if (m->t.n >= UINT32_MAX - 1 || page == UINT64_MAX)
		return -1;
	int added;
	uint32_t n = (uint32_t)m->t.n, *v = pagemap_get(&m->t, 0, page, &added);
	if (!v)
		return -1;
	if (added)
		*v = n;
	return 0;
}

/* A map numbered while the models replay (ftlsim --footprints): made
 * for its n pages, numbered by one thread, read by the models meanwhile
 * (lib/pagemap.h, a table filled by one thread). */
int ftl_pagemap_init_for(struct ftl_pagemap *m, uint64_t n)
{
	return n >= UINT32_MAX - 1 || pagemap_init_for(&m->t, sizeof(uint32_t), (size_t)n) ? -1 : 0;
}

int ftl_pagemap_add_shared(struct ftl_pagemap *m, uint64_t page)
{
	if (m->t.n >= UINT32_MAX - 1 || page == UINT64_MAX)
		return -1;
	if (pagemap_find(&m->t, 0, page))
		return 0;
	uint32_t n = (uint32_t)m->t.n;
	return pagemap_put_shared(&m->t, 0, page, &n);
}

uint32_t ftl_pagemap_get(const struct ftl_pagemap *m, uint64_t page)
{
	const uint32_t *v = page == UINT64_MAX ? NULL : pagemap_find_shared(&m->t, 0, page);
	return v ? *v : FTL_NONE;
}

void ftl_pagemap_free(struct ftl_pagemap *m)
{
	pagemap_free(&m->t);
}
