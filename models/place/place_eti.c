/*
 * place_eti.c - ETI, extent-based temperature identification (Shafaei,
 * Desnoyers, Fitzpatrick: "Write Amplification Reduction in Flash-Based
 * SSDs Through Extent-Based Temperature Identification", HotStorage'16).
 *
 * The logical space is a sorted list of at most 1024 extents, each with
 * a 4-bit write count. A host write request raises the count of the
 * extents it covers, splitting an extent it covers in part (while there
 * is room for more extents); every 4096 requests all counts halve and
 * neighbours merge when they are both cold (count < 4) or equally hot.
 * A page of an extent with count >= 4 is hot (stream 0), else cold
 * (stream 1); GC copies go to stream 2. The rules follow the authors'
 * description as SepBIT's simulator (fallfish/sepbit) implements it.
 * Memory: room for 1026 extents of 24 bytes (a split at 1023 extents
 * may leave 1025), nothing per page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place.h"

#define ETI_EXTENTS 1024
#define ETI_DECAY 4096 /* requests between decays */
#define ETI_HOT 4
#define ETI_MAX 15

struct extent {
	uint64_t off, len;
	uint32_t count;
};

struct eti {
	struct extent *e; /* sorted by off, covering [0, U) */
	uint32_t n;
	uint32_t requests;
};

static int eti_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct eti *p = st;
	if (!(p->e = policy_calloc(st, ETI_EXTENTS + 2, sizeof(struct extent))))
		return policy_fail(st, "out of memory");
	p->e[0] = (struct extent){0, ftl_logical_pages(f), 0};
	p->n = 1;
	out->streams = 3;
	out->gc_streams = 1;
	out->host_streams = 2; /* hot, cold */
	return 0;
}

/* The extent holding page x. */
static uint32_t find(const struct eti *p, uint64_t x)
{
	uint32_t lo = 0, hi = p->n;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (p->e[mid].off <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Replace extent i by the k pieces in piece[]. */
static void replace(struct eti *p, uint32_t i, const struct extent *piece, uint32_t k)
{
	memmove(&p->e[i + k], &p->e[i + 1], (p->n - i - 1) * sizeof(struct extent));
	memcpy(&p->e[i], piece, k * sizeof(struct extent));
	p->n += k - 1;
}

static void decay(struct eti *p)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		struct extent x = p->e[i];
		x.count /= 2;
		if (m) {
			struct extent *last = &p->e[m - 1];
			if ((last->count >= ETI_HOT && last->count == x.count) ||
			    (last->count < ETI_HOT && x.count < ETI_HOT)) {
				last->len += x.len;
				continue;
			}
		}
		p->e[m++] = x;
	}
	p->n = m;
}

static int eti_request(void *st, const struct ftl *f, uint32_t lpn, uint32_t npages)
{
	struct eti *p = st;
	if (++p->requests >= ETI_DECAY) {
		decay(p);
		p->requests = 0;
	}
	uint64_t off = lpn, end = (uint64_t)lpn + npages;
	while (off < end && off < ftl_logical_pages(f)) {
		uint32_t i = find(p, off);
		struct extent x = p->e[i];
		uint64_t xend = x.off + x.len, len = end - off;
		int room = p->n < ETI_EXTENTS; /* as the reference: up to 2 past it */
		if (x.count == ETI_MAX) {
			/* saturated: nothing to count */
		} else if (x.off == off && len >= x.len) {
			p->e[i].count++;
		} else if (x.off == off) {
			struct extent piece[2] = {{off, len, x.count + 1}, {off + len, x.len - len, x.count}};
			if (room)
				replace(p, i, piece, 2);
		} else if (end >= xend) {
			struct extent piece[2] = {{x.off, off - x.off, x.count}, {off, xend - off, x.count + 1}};
			if (room)
				replace(p, i, piece, 2);
		} else {
			struct extent piece[3] = {{x.off, off - x.off, x.count},
						  {off, len, x.count + 1},
						  {end, xend - end, x.count}};
			if (room)
				replace(p, i, piece, 3);
		}
		off = xend;
	}
	return 0;
}

static int eti_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct eti *p = st;
	*s = p->e[find(p, w->lpn)].count >= ETI_HOT ? 0 : 1;
	return 0;
}

static int eti_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = 2;
	return 0;
}

static const char *eti_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	static const char *const names[] = {"hot", "cold", "gc"};
	return names[s];
}

static int eti_check(void *st, const struct ftl *f)
{
	struct eti *p = st;
	uint64_t at = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		if (p->e[i].off != at || !p->e[i].len || p->e[i].count > ETI_MAX)
			return policy_fail(st, "extent %u (%llu+%llu, count %u) breaks the cover at %llu", i,
				       (unsigned long long)p->e[i].off, (unsigned long long)p->e[i].len,
				       p->e[i].count, (unsigned long long)at);
		at += p->e[i].len;
	}
	if (at != ftl_logical_pages(f) || p->n > ETI_EXTENTS + 1)
		return policy_fail(st, "%u extents cover %llu of %llu pages", p->n, (unsigned long long)at,
				   (unsigned long long)ftl_logical_pages(f));
	return 0;
}

static void eti_destroy(void *st, const struct ftl *f) { free(((struct eti *)st)->e); }

const struct place_ops place_eti_ops = {
	.info = {.name = "eti",
		 .desc = "ETI (HotStorage'16): hot and cold by the write counts of at most 1024 extents; GC copies apart",
		 .version = PLACE_API_VERSION,
		 .state_size = sizeof(struct eti)},
	.init = eti_init,
	.request = eti_request,
	.host = eti_host,
	.gc = eti_gc,
	.check = eti_check,
	.stream_name = eti_name,
	.destroy = eti_destroy,
};
