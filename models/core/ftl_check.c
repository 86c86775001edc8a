/*
 * ftl_check.c - --check: every invariant of the model, recounted from
 * the maps and the segments rather than from the counters that the
 * model keeps, O(T) a call; each policy checks its own index.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ftl_int.h"
#include "ftlkit.h"
#include "gc.h"
#include "place.h"
#include "policy.h"

static int check_mapping(struct ftl *f, uint32_t *live, char *err, size_t n)
{
	for (uint64_t lpn = 0; lpn < f->U; lpn++) {
		uint32_t ppn = f->l2p[lpn];
		if (ppn == FTL_NONE)
			continue;
		if (ppn >= f->T)
			return set_err(err, n, "logical page %llu maps to physical page %u past the device",
				       (unsigned long long)lpn, ppn);
		if (f->p2l[ppn] != lpn)
			return set_err(err, n, "logical page %llu maps to physical page %u, which holds logical page %u",
				       (unsigned long long)lpn, ppn, f->p2l[ppn]);
		uint32_t seg = ftl_seg_of(f, ppn);
		if (f->seg[seg].state == SEG_FREE)
			return set_err(err, n, "logical page %llu maps into free segment %u",
				       (unsigned long long)lpn, seg);
		if (f->seg[seg].state == SEG_OPEN && ppn >= f->streams[f->seg[seg].stream].next)
			return set_err(err, n, "logical page %llu maps past the write pointer of open segment %u",
				       (unsigned long long)lpn, seg);
		unsigned bit;
		const uint64_t *w = ftl_vword(f, ppn, &bit);
		if (!(*w >> bit & 1))
			return set_err(err, n, "logical page %llu maps to physical page %u, whose live bit is clear",
				       (unsigned long long)lpn, ppn);
		live[seg]++;
	}
	return 0;
}

static int check_segments(struct ftl *f, const uint32_t *live, char *err, size_t n)
{
	uint32_t cnt[3] = {0, 0, 0};
	for (uint32_t s = 0; s < f->nseg; s++) {
		if (f->seg[s].state > SEG_SEALED)
			return set_err(err, n, "segment %u in unknown state %u", s, f->seg[s].state);
		cnt[f->seg[s].state]++;
		if (live[s] != f->seg[s].valid)
			return set_err(err, n, "segment %u: valid count %u, reverse map says %u", s,
				       f->seg[s].valid, live[s]);
		uint32_t bits = 0;
		for (uint32_t i = 0; i < f->vmap_words; i++)
			bits += (uint32_t)__builtin_popcountll(f->vmap[(size_t)s * f->vmap_words + i]);
		if (bits != live[s])
			return set_err(err, n, "segment %u: %u live bits, reverse map says %u", s, bits, live[s]);
	}
	uint64_t slive[FTL_MAX_STREAMS] = {0}, mapped = 0;
	for (uint32_t s = 0; s < f->nseg; s++)
		if (f->seg[s].state != SEG_FREE)
			slive[f->seg[s].stream] += f->seg[s].valid;
	for (unsigned i = 0; i < f->nstreams; i++) {
		if (slive[i] != f->streams[i].live)
			return set_err(err, n, "stream %u: %llu live pages counted, its segments hold %llu", i,
				       (unsigned long long)f->streams[i].live, (unsigned long long)slive[i]);
		mapped += slive[i];
	}
	if (mapped != f->mapped)
		return set_err(err, n, "%llu logical pages counted as mapped, the segments hold %llu",
			       (unsigned long long)f->mapped, (unsigned long long)mapped);
	uint32_t open = 0;
	for (unsigned i = 0; i < f->nstreams; i++) {
		const struct ftl_stream *st = &f->streams[i];
		if (st->seg == FTL_NONE)
			continue;
		open++;
		if (f->seg[st->seg].state != SEG_OPEN || f->seg[st->seg].stream != i ||
		    st->next - st->seg * f->b + st->room != f->b || !st->room)
			return set_err(err, n, "stream %u: open segment %u inconsistent", i, st->seg);
	}
	if (cnt[SEG_FREE] != f->nfree || cnt[SEG_OPEN] != open || cnt[SEG_SEALED] != f->nsealed ||
	    f->nfree + open + f->nsealed != f->nseg)
		return set_err(err, n,
			       "segment counts: %u free, %u open, %u sealed, %u in all; states say %u/%u/%u",
			       f->nfree, open, f->nsealed, f->nseg, cnt[0], cnt[1], cnt[2]);
	for (uint32_t i = 0; i < f->nfree; i++) {
		uint32_t q = f->free_head + i;
		uint32_t s = f->freeq[q >= f->nseg ? q - f->nseg : q];
		if (s >= f->nseg || f->seg[s].state != SEG_FREE)
			return set_err(err, n, "free queue entry %u is segment %u, not free", i, s);
	}
	return 0;
}

/* Flash writes counted apart from the counters: every erase followed a
 * full segment, and the sealed and open segments hold what they hold. */
static int check_flash(struct ftl *f, char *err, size_t n)
{
	uint64_t programmed = 0;
	for (uint32_t s = 0; s < f->nseg; s++) {
		programmed += (uint64_t)f->erase_count[s] * f->b;
		if (f->seg[s].state == SEG_SEALED)
			programmed += f->b;
		else if (f->seg[s].state == SEG_OPEN)
			programmed += f->streams[f->seg[s].stream].next - (uint64_t)s * f->b;
	}
	uint64_t counted = f->precond_pages + f->aged_flash + f->c.host_pages + f->c.gc_pages + f->c.wl_pages;
	if (programmed != counted)
		return set_err(err, n,
			       "flash writes: erase counts and segment fill say %llu pages were programmed, the "
			       "counters %llu (fill %llu + ageing %llu + host %llu + GC %llu + wear levelling %llu)",
			       (unsigned long long)programmed, (unsigned long long)counted,
			       (unsigned long long)f->precond_pages, (unsigned long long)f->aged_flash,
			       (unsigned long long)f->c.host_pages,
			       (unsigned long long)f->c.gc_pages, (unsigned long long)f->c.wl_pages);
	return 0;
}

int ftl_check(struct ftl *f, char *err, size_t n)
{
	uint32_t *live = calloc(f->nseg, sizeof(uint32_t));
	if (!live)
		return set_err(err, n, "out of memory for --check");
	int rc = check_mapping(f, live, err, n);
	if (!rc)
		rc = check_segments(f, live, err, n);
	free(live);
	if (!rc)
		rc = check_flash(f, err, n);
	if (!rc && f->gc->check && !f->per_class)
		rc = f->gc->check(f->gc_st, f, err, n);
	/* A class selector (select.h): every stream's room indexes its own sealed
	 * segments, whose count the stream keeps. */
	for (unsigned s = 0; !rc && f->per_class && s < f->nstreams; s++) {
		uint32_t held = 0;
		for (uint32_t g = 0; g < f->nseg; g++)
			held += f->seg[g].state == SEG_SEALED && f->seg[g].stream == s;
		if (held != f->streams[s].held)
			rc = set_err(err, n, "stream %u holds %u sealed segments, counted %u", s, held,
				     f->streams[s].held);
		f->check_cls = (int)s;
		if (!rc && f->gc->check)
			rc = f->gc->check(f->gc_cls[s], f, err, n);
		f->check_cls = -1;
	}
	if (!rc && f->place->check && f->place->check(f->place_st, f))
		rc = set_err(err, n, "placement '%s': %s", f->place->info.name, policy_error(f->place_st));
	if (rc) {
		char tmp[sizeof(f->err)];
		snprintf(tmp, sizeof(tmp), "check failed after GC pass %llu: %s",
			 (unsigned long long)f->gc_passes, err);
		snprintf(err, n, "%s", tmp);
	}
	return rc;
}
