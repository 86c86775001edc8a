/*
 * place.h - placement policies: which write stream (open segment) a
 * page goes to. One file per policy (models/place/place_NAME.c) fills a
 * struct place_ops; models/registry/registry.c lists them, found by
 * name, the first being the default. Adding a policy is one new file
 * and one line there.
 *
 * A placement lives in the room policy.h describes (state allocated by
 * the model, read-only view, declared arguments, its own generator,
 * failures by return code). init returns what it needs from the model
 * in struct place_needs: its streams (host and GC streams together),
 * how many of them host writes can go to (a host placement's handles on
 * an FDP device), how many distinct streams GC copies can go to (the default GC
 * watermarks keep that many segments free, so a victim's copies always
 * find room), a default high watermark, and what the model should keep
 * for it (a page's last write time, a segment's open time).
 *
 * What the model tells a placement, in order:
 *   host(w, &s)     a host write of w->lpn: its stream. Called before
 *                   the previous version is invalidated: w->prev_seg
 *                   is the segment that holds it (FTL_NONE: unmapped)
 *                   and w->prev_time its host write time (with
 *                   FTL_KEEP_WRITE_TIME; FTL_NEVER if never written).
 *                   ftl_now() already counts this write. The model
 *                   then records the page's new write time.
 *   on_clean(seg)   GC (or wear levelling, wl = 1) is about to clean
 *                   seg: ftl_seg_stream(seg) is the class that wrote
 *                   it, ftl_open_time/ftl_seal_time when it was opened
 *                   and sealed, ftl_valid how many pages it copies.
 *   gc(lpn, from, &s)  the stream of one copy out of that segment
 *                   (from = its stream).
 *   sort_key(lpn)   with PLACE_SORT: a pass's copies are buffered and
 *                   written in key order (ties by lpn).
 *   prefetch(lpn)   a hint, optional: a host write of lpn (or, in the
 *                   learning pass, an event of lpn) comes some events
 *                   ahead (ftl_prefetch); prefetch what host() or
 *                   learn() will read for it. It must change nothing.
 */
#ifndef FTLKIT_PLACE_H
#define FTLKIT_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"
#include "policy.h"

#define PLACE_API_VERSION 3

/* Flags, read by the model (or by ftlsim: PLACE_TEMP). */
#define PLACE_TRIVIAL 0x1 /* everything to stream 0: the model skips the calls */
#define PLACE_SORT 0x2	  /* GC copies of a pass are sorted by sort_key first */
#define PLACE_TEMP 0x4	  /* needs the trace's temperature labels: ftlsim refuses an unlabelled trace */
#define PLACE_FUTURE 0x8  /* learns the trace in a pass before the replay (learn, learn_done) */
/* Chooses every GC victim itself (the victim hook), each group of
 * segments by its own rule, sized from the free segments the watermarks
 * keep: the victim policy only indexes. The model refuses with it
 * (core/ftl.c, refused) the garbage-proportion trigger, another victim
 * policy or its arguments, random ties and a class selector. */
#define PLACE_VICTIM 0x10
/* Takes a host-side placement (place_init.host): the host's policy
 * chooses the handle a write carries, this one what the device does
 * with it (place_fdp.c). The model allocates the host policy's room. */
#define PLACE_HOSTS 0x20

/* One host write as the placement sees it. */
struct place_write {
	uint32_t lpn;
	unsigned temp;	    /* the trace's label, EV_TEMP_NONE if none */
	unsigned stream;    /* the host's placement or stream id (struct ev), 0: none */
	unsigned hint;	    /* the host's write-lifetime hint (struct ev), 0: not set */
	uint32_t prev_seg;  /* segment of the previous version, FTL_NONE */
	uint64_t prev_time; /* its host write time (FTL_KEEP_WRITE_TIME), FTL_NEVER */
};

struct place_init {
	const struct policy_args *args;
	/* With PLACE_HOSTS and a host placement configured: its table, its
	 * parsed arguments and its room (allocated, not yet initialised),
	 * else NULL. The host placement's hooks are called by this one. */
	const struct place_ops *host;
	const struct policy_args *host_args;
	void *host_st;
};

/* What init returns to the model. */
struct place_needs {
	unsigned streams;    /* 1..FTL_MAX_STREAMS, host and GC together */
	unsigned gc_streams; /* distinct streams GC copies may go to, >= 1 */
	/* host() chooses among streams 0..host_streams-1 (those apart for
	 * GC copies last); 0: among all. A device that takes a host
	 * placement (fdp) needs a handle for each. */
	unsigned host_streams;
	uint32_t gc_high;    /* default high watermark; 0: the low one */
	unsigned keep;	     /* FTL_KEEP_* */
	/* Optional hooks this configuration does not need (PLACE_NO_*):
	 * the model then never calls them (a request hook, for one, takes
	 * the model off its fast path for whole-page requests). */
	unsigned skip;
};
#define PLACE_NO_REQUEST 0x1
#define PLACE_NO_INVALIDATE 0x2
#define PLACE_NO_PLACED 0x4
#define PLACE_NO_SEALED 0x8
#define PLACE_NO_CLEAN 0x10

struct place_ops {
	struct policy_info info;
	/* Mandatory; out comes filled with one stream, one GC stream. */
	int (*init)(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out);
	/* Mandatory. */
	int (*host)(void *st, const struct ftl *f, const struct place_write *w, unsigned *stream);
	/* Optional. */
	int (*on_clean)(void *st, const struct ftl *f, uint32_t seg, int wl);
	/* Mandatory. */
	int (*gc)(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *stream);
	/* With PLACE_SORT. */
	uint64_t (*sort_key)(void *st, const struct ftl *f, uint32_t lpn);
	/* Name of a stream for the summary ("host", "gc", "temp1"...). Mandatory. */
	const char *(*stream_name)(void *st, const struct ftl *f, unsigned s, char *buf, size_t n);
	/* The optional hooks of the placements of the literature, each
	 * called only when set:
	 * request(lpn, n): a host write request of n pages from logical
	 *   page lpn (its first; they follow it unless the space is a
	 *   footprint), before its pages are placed.
	 * invalidate(lpn, seg): lpn's live copy in seg goes (an overwrite,
	 *   after host() placed the new one; or a trim).
	 * placed(lpn, seg): lpn was programmed into seg (host or GC).
	 * sealed(seg): seg, written by ftl_seg_stream(seg), is full.
	 * learn(lpn, op), learn_done(): PLACE_FUTURE's pass over the trace
	 *   before the replay, every page write (op EV_WRITE) and trim
	 *   (EV_DISCARD) in order, by the replay's rules.
	 * check(): --check; 0, or -1 with policy_fail.
 * victim(&seg): with PLACE_VICTIM (mandatory then, and set only
 *   then: registry_check), GC needs a victim: *seg = a sealed
 *   segment, which the model takes out of the victim policy's index
 *   and cleans, or FTL_NONE to leave the choice to the victim policy.
 *   It keeps its own index: never a scan of all segments. */
	int (*request)(void *st, const struct ftl *f, uint32_t lpn, uint32_t n);
	int (*invalidate)(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg);
	int (*placed)(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg);
	int (*sealed)(void *st, const struct ftl *f, uint32_t seg);
	int (*learn)(void *st, const struct ftl *f, uint32_t lpn, unsigned op);
	int (*learn_done)(void *st, const struct ftl *f);
	/* PLACE_FUTURE, for the memory estimate before any model is built:
	 * the bytes learning `events` page events (`writes` of them page
	 * writes) keeps for the replay, and *peak, the most it holds while
	 * learning them. */
	uint64_t (*learn_bytes)(uint64_t events, uint64_t writes, uint64_t *peak);
	int (*check)(void *st, const struct ftl *f);
	void (*prefetch)(void *st, const struct ftl *f, uint32_t lpn);
	int (*victim)(void *st, const struct ftl *f, uint32_t *seg);
	/* Optional: the GC copies so far of pages whose last host write
	 * went to stream s (the copies a stream's writes caused, wherever
	 * the copies went): per-handle write amplification. */
	uint64_t (*origin_copies)(void *st, const struct ftl *f, unsigned s);
	/* Free what init allocated (the model frees the state). Optional. */
	void (*destroy)(void *st, const struct ftl *f);
};

/*
 * For on_clean: prefetch, for every live page of the victim seg, the
 * entry of the placement's per-page array (base, size bytes an entry)
 * that gc() will read for it, and with model set the model's own map
 * entry and write stamp (ftl_prefetch), which the copy writes: the
 * copies then find in the cache what they would otherwise miss one by
 * one in page order. Hints only.
 */
static inline void place_prefetch_victim(const struct ftl *f, uint32_t seg, const void *base, size_t size, int model)
{
	uint32_t p0 = seg * f->b;
	for (uint32_t i = 0; i < f->b; i += 64) {
		unsigned bit;
		uint64_t w = *ftl_vword(f, p0 + i, &bit);
		for (; w; w &= w - 1) {
			uint32_t lpn = f->p2l[p0 + i + (uint32_t)__builtin_ctzll(w)];
			if (base)
				ftl_pf((const char *)base + (size_t)lpn * size);
			if (model)
				ftl_prefetch(f, lpn);
		}
	}
}


#endif
