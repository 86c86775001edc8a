/*
 * ftl.h - the flash translation layer model: a page-mapped log over
 * segments (erase blocks), a garbage collector that cleans one victim
 * at a time, and the counters ftlsim reports. See docs/MODEL.md.
 *
 * Use: fill a struct ftl_config (ftl_config_default, then the fields),
 * ftl_new(), then ftl_request() per trace event or ftl_write()/
 * ftl_trim() per page, and read the counters from struct ftl.
 * Victim policies (gc.h) and placement policies (place.h) do not touch
 * the struct: each lives in a room of its own (policy.h) and reads the
 * model through the accessors declared there.
 */
#ifndef FTLKIT_FTL_H
#define FTLKIT_FTL_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "flash.h"
#include "pagemap.h"

#define FTL_NONE UINT32_MAX /* unmapped page, no segment */
#define FTL_MAX_STREAMS 64

struct gc_ops;
struct place_ops;
struct select_ops;

/* A policy's arguments, parsed by its declaration (policy.h). */
#define POLICY_MAX_ARGS 4
/* Parsed values, in the order of the declaration (defaults filled). */
struct policy_args {
	uint64_t u[POLICY_MAX_ARGS]; /* ARG_UINT values */
	double x[POLICY_MAX_ARGS];   /* every value as a double */
	unsigned given;		     /* bit i: argument i was given */
};

enum ftl_seg_state { SEG_FREE = 0, SEG_OPEN = 1, SEG_SEALED = 2 };

/*
 * What an overwrite touches in its segment, together in 16 bytes (a
 * quarter cache line): the valid count, the state, and two words that
 * are the victim policy's (gc_slot in gc.h: greedy links its buckets
 * through them), so that an invalidation costs one line for the
 * segment itself.
 */
struct ftl_seg {
	uint32_t valid;
	uint8_t state;	/* enum ftl_seg_state */
	uint8_t stream; /* which stream wrote it */
	uint16_t spare;
	uint32_t slot[2]; /* the victim policy's */
};
enum ftl_precond { PRECOND_NONE, PRECOND_SEQ, PRECOND_RANDOM };
enum ftl_oor { OOR_ERROR, OOR_DROP, OOR_CLIP }; /* requests past the logical space */

struct ftl_config {
	uint64_t logical_pages;	 /* U */
	uint64_t physical_pages; /* T as asked; rounded down to whole segments */
	uint32_t pages_per_seg;	 /* b; 0: ftl_auto_pages_per_seg(U) */
	uint32_t page_size;	 /* bytes */
	const char *policy;	 /* "greedy", "dchoices:4", ... (for reports) */
	const char *placement;	 /* "single", "hotcold:3", ... (for reports) */
	/* a host-side placement that chooses each write's handle for a
	 * placement that takes one (PLACE_HOSTS: fdp), or NULL */
	const char *host_placement;
	/* The two resolved (registry_resolve): the core knows no policy
	 * by name. */
	const struct gc_ops *gc;
	const struct place_ops *place;
	struct policy_args gc_args, place_args;
	const struct place_ops *host_place; /* host_placement resolved, or NULL */
	struct policy_args host_place_args;
	/* gc is another victim policy than the registry's default, or has
	 * arguments (registry_resolve): refused with a placement that
	 * chooses its own victims (PLACE_VICTIM) */
	int gc_chosen;
	/* the class selector in front of the victim policy (select.h), or
	 * NULL; registry_resolve sets it from spare_share */
	const struct select_ops *select;
	struct policy_args select_args;
	uint32_t gc_low, gc_high; /* free segments; 0: the placement's default */
	int trim;		 /* discards invalidate the pages they cover */
	int oor;		 /* enum ftl_oor */
	uint64_t warmup_writes;	 /* host page writes before measuring */
	uint32_t wear_threshold; /* static wear levelling; 0: off */
	int check;		 /* verify invariants after every GC pass */
	int probe;		 /* built only to see whether it is refused (--dry-run): the maps left
				  * unfilled, their pages never touched; not to be run */
	double gc_gp;		 /* GC trigger by garbage proportion; 0: watermarks */
	uint32_t gc_batch;	 /* victims per GC operation under gc_gp (0: 1) */
	uint32_t gc_ops;	 /* under gc_gp: at most gc_ops operations per host write
				  * request, after its last page; 0: after every page,
				  * until the proportion is under gc_gp */
	int tie_random;		 /* equally good victims: random, not oldest */
	int spare_share;	 /* 1: each stream its own share of the spare space (opt):
				  * a class selector (registry_resolve) */
	/* the remedy that "too little spare space" names, for a log whose
	 * spare is set by other options than the device's (a host log);
	 * NULL: raise the over-provisioning, or smaller segments */
	const char *spare_advice;
	uint64_t seed;
};

/* One write stream: an open segment being filled. */
struct ftl_stream {
	uint32_t seg;	/* open segment, FTL_NONE if none */
	uint32_t next;	/* next physical page in it */
	uint32_t room;	/* pages left in it */
	uint64_t host_pages, gc_pages, sealed;
	uint64_t victims, victim_valid; /* cleaned segments this stream wrote */
	uint64_t live; /* valid pages in the segments this stream wrote */
	uint32_t held; /* its sealed segments now */
	uint64_t dead; /* pages that died in the segments it wrote (overwritten or trimmed) */
	/* at the start of the measured window: host_pages, and the copies
	 * its writes caused (place.h origin_copies; 0 without) */
	uint64_t host0, origin0;
};

/* Counters that the measured window (after the warm-up) repeats. */
struct ftl_counts {
	uint64_t host_pages;	/* host page writes */
	uint64_t gc_pages;	/* GC copies */
	uint64_t wl_pages;	/* wear-levelling copies */
	uint64_t victims;	/* segments cleaned by GC */
	uint64_t victims_empty; /* of which held no valid page */
	uint64_t victim_valid;	/* sum of the victims' valid pages */
	uint64_t wl_moves;	/* segments moved by wear levelling */
};

/* Per-request counts (ftl_request). */
struct ftl_reqs {
	uint64_t reads, read_pages, writes, discards, flushes;
	uint64_t discard_pages_trimmed;	 /* mapped pages a discard unmapped */
	uint64_t discard_pages_unmapped; /* covered pages that held no data */
	uint64_t discard_partial_pages;	 /* partly covered pages, left alone */
	uint64_t discards_ignored;	 /* discards dropped by --no-trim */
	uint64_t zero_length, unaligned, out_of_range;
};

/* Dense renumbering of the pages a trace writes (--logical-space
 * footprint): page number -> logical page, in first-touch order; t.n
 * pages numbered so far. */
struct ftl_pagemap {
	struct pagemap t; /* value: the logical page (uint32_t) */
};

struct ftl;

/*
 * Whoever watches a run (ftlsim's --curve and --hist): ftl_tick calls
 * on_interval every interval host page writes and on_snapshot every
 * snapshot_every (0: never); struct ftl's ci holds the counters at the
 * start of the current interval. A nonzero return stops the run (the
 * callback leaves its message in f->err).
 */
struct ftl_observer {
	uint64_t interval, snapshot_every;
	int (*on_interval)(struct ftl *f, void *ctx);
	int (*on_snapshot)(struct ftl *f, void *ctx);
	void *ctx;
};

struct ftl {
	/* geometry */
	uint64_t U, T;	  /* logical and physical pages */
	uint32_t b, nseg; /* pages per segment, segments */
	int b_shift;	  /* log2(b) when b is a power of two, else -1 */
	uint32_t page_size;	  /* a power of two */
	unsigned page_shift;	  /* log2(page_size) */
	uint32_t gc_low, gc_high; /* the effective watermarks */

	/* the rules of ftl_config used after set-up, each kept once (the
	 * geometry and the watermarks are the effective values above) */
	int trim, oor, check, probe;	 /* oor: enum ftl_oor */
	int tie_random;
	uint64_t warmup_writes;
	uint32_t wear_threshold; /* 0: off */

	/* mapping: l2p[lpn] = ppn; p2l[ppn] = the lpn last written there;
	 * vmap: one bit per physical page, set while it holds live data
	 * (so that GC reads the map only for the pages it copies). A
	 * segment's bits are vmap_words words from seg * vmap_words. */
	uint32_t *l2p, *p2l;
	uint64_t *vmap;
	uint32_t vmap_words;
	unsigned nflash; /* flash-operation observers (flash.h) of either kind, beside what every page write reads */

	/* segments */
	struct ftl_seg *seg;
	uint64_t *seal_time;
	uint64_t *open_time; /* kept when a policy asks (FTL_KEEP_OPEN_TIME), else NULL */
	uint32_t *erase_count;
	uint32_t *freeq; /* ring of free segments, FIFO */
	uint32_t free_head, nfree, nsealed;

	struct ftl_stream streams[FTL_MAX_STREAMS];
	unsigned nstreams;  /* streams in use */
	unsigned gc_streams; /* streams GC may write to (default watermarks) */

	/* policies: each one's state in its room (policy.h) */
	const struct gc_ops *gc;
	void *gc_st;
	/* the class selector (select.h), or NULL; with one, one victim-policy
	 * room per stream (per_class), each indexing the sealed segments
	 * that stream wrote (gc_st is the first) */
	const struct select_ops *sel;
	void *sel_st;
	void *gc_cls[FTL_MAX_STREAMS];
	int per_class;
	int check_cls;	     /* --check of one stream's room: its sealed count, else -1 */
	const struct place_ops *place;
	void *place_st;
	void *host_place_st; /* the host placement's room (PLACE_HOSTS), or NULL */
	/* the placement's optional hooks that this configuration calls
	 * (place.h: set, and not skipped by its init), else NULL */
	int (*place_request)(void *st, const struct ftl *f, uint32_t lpn, uint32_t n);
	int (*place_invalidate)(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg);
	int (*place_placed)(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg);
	int (*place_sealed)(void *st, const struct ftl *f, uint32_t seg);
	int (*place_on_clean)(void *st, const struct ftl *f, uint32_t seg, int wl);
	int place_victim;  /* the placement chooses every victim (PLACE_VICTIM) */
	/* the placement's prefetch hook (place.h), or NULL */
	void (*place_prefetch)(void *st, const struct ftl *f, uint32_t lpn);
	int place_trivial; /* single log: skip the per-page placement calls */
	int place_batch;   /* placement sorts a whole GC pass (agesort) */
	int slot_links;	   /* the victim policy's slot words are segment links */
	int learning;	   /* ftl_request feeds the placement's learn hook */
	int precond_active; /* ftl_precondition is writing */
	uint64_t mapped;   /* logical pages that hold data */
	/* GC by garbage proportion (gp_max > 0, SepBIT): GC while the
	 * invalid pages of sealed segments exceed gp_max of the pages
	 * written, gc_batch victims an operation, each with at most
	 * max_victim_valid valid pages (b under the watermark trigger). */
	double gp_max;
	uint32_t gc_batch;
	uint32_t max_victim_valid;
	uint32_t gc_ops;    /* operations per request; 0: until under gp_max */
	int in_request;	    /* ftl_request is writing a request's pages (gc_ops > 0) */
	/* per logical page: last host write stamp (FTL_KEEP_WRITE_TIME), else NULL */
	uint32_t *wtime;
	unsigned wtime_shift;
	/* FTL_KEEP_AGE_*: per segment the age origin, fixed at its seal, and
	 * the youngest and summed write stamps of the pages programmed into
	 * it while it is open */
	uint64_t *age_origin, *seg_wsum;
	uint32_t *seg_wmax;
	int age_mean;

	/* time and counters */
	uint64_t clock;		 /* page writes by the host, preconditioning included */
	uint64_t precond_pages;
	struct ftl_counts c;	 /* since the start (after preconditioning) */
	struct ftl_counts c0;	 /* at the start of the measured window */
	int measuring;
	uint64_t milestone;	 /* next host page count at which ftl_tick runs */
	struct ftl_observer obs; /* ftl_observe */
	uint64_t next_interval, next_snapshot;
	struct ftl_counts ci;	 /* at the start of the current interval */
	uint64_t *victim_hist;	 /* b + 1 bins, measured window */
	struct ftl_reqs r;

	/* wear levelling (static): per-erase-count lists of sealed segments;
	 * wl[e] for e < wl_cap: the list's head and the segments at count e */
	uint32_t *wl_prev, *wl_next;
	struct ftl_wl_level {
		uint64_t count;
		uint32_t head;
	} *wl;
	uint32_t wl_cap;
	uint32_t ec_min, ec_max;

	/* GC scratch: live pages of the victims of one pass */
	uint32_t *gcbuf;
	uint64_t *gckey;
	size_t gcbuf_n, gcbuf_cap;
	uint32_t last_victim;
	uint64_t gc_passes; /* GC passes (watermarks) or operations (gp:P), forced passes included */
	uint64_t gp_watermark_passes; /* under gp:P, passes the watermarks forced */
	uint64_t bg_victims;	      /* victims cleaned in the background (ftl_gc_step) */
	uint64_t aged_pages;	      /* host pages of an ageing trace before the run (ftl_restart) */
	uint64_t aged_flash;	      /* and every page it programmed (host, GC, wear levelling: --check) */

	uint64_t mem_bytes; /* bytes the model allocated */

	struct ftl_pagemap *map; /* footprint renumbering, or NULL */

	/* the flash-operation hook (flash.h): the observers (nflash of
	 * them), and the time of the request being served */
	struct ftl_flash_obs {
		flash_fn fn;
		void *ctx;
	} flash[FTL_MAX_FLASH_OBS];
	unsigned nflash_fn;	     /* of them, called per operation (flash[]) */
	int flash_batch_only;	     /* the batch observer alone: its operations kept inline (ftl_flash_to) */
	flash_batch_fn flash_batch; /* the batch observer, or NULL */
	void *flash_batch_ctx;
	unsigned nbatched;	     /* operations kept for it, batched[0..nbatched) */
	struct flash_op batched[FTL_FLASH_BATCH];
	uint64_t now_ns;
	uint64_t write_ns; /* the time of the last host page write */

	char err[512];
};

void ftl_config_default(struct ftl_config *c);
/* Physical pages for a spare factor or over-provisioning. */
uint64_t ftl_pages_for_op(uint64_t U, double op);
/* --pages-per-segment auto: the largest power of two b from 256 down to
 * 2 that gives the logical space at least 64 segments (so at least 4
 * spare segments at 7% over-provisioning); 2 when none does. It
 * depends on U only, so that a sweep of over-provisioning keeps b. */
#define FTL_AUTO_B_MAX 256
#define FTL_AUTO_MIN_DATA_SEGS 64
uint32_t ftl_auto_pages_per_seg(uint64_t logical);
/* Segments of b pages that U logical pages fill, and one for their
 * garbage: a model with fewer segments is refused (too little spare
 * space), whatever its streams and watermarks add. */
static inline uint64_t ftl_data_segments(uint64_t U, uint32_t b) { return U / b + 1; }
/* The segment size c gives: pages_per_seg, or with 0 (auto) the rule
 * above for its logical_pages. */
uint32_t ftl_config_pages_per_seg(const struct ftl_config *c);
uint64_t ftl_pages_for_sf(uint64_t U, double sf);

/* NULL on error with a message in err. */
struct ftl *ftl_new(const struct ftl_config *c, char *err, size_t n);
void ftl_free(struct ftl *f);

/* Fill every logical page once (not counted as host writes). */
int ftl_precondition(struct ftl *f, int kind);
/* One host page write / trim. 0 ok, -1 with f->err set. */
int ftl_write(struct ftl *f, uint32_t lpn, unsigned temp);
/* What the host said about a write (struct ev's temp, stream, hint),
 * passed on to the placement. */
struct ftl_tag {
	unsigned temp, stream, hint;
	uint64_t t_ns; /* the request's time (struct ev's), for the flash-operation hook */
};
int ftl_write_tagged(struct ftl *f, uint32_t lpn, const struct ftl_tag *tag);
/* Pages lpn..lpn+n-1 written, as n calls of ftl_write_tagged (a write
 * request in a direct map). 0, or -1 with f->err set. */
int ftl_write_run(struct ftl *f, uint32_t lpn, uint32_t n, const struct ftl_tag *tag);
/* 1 trimmed, 0 page held no data, -1 with f->err set. */
int ftl_trim(struct ftl *f, uint32_t lpn);
/* Logical pages lpn..lpn+n-1 trimmed (a discard in a direct map): as n
 * calls of ftl_trim, each segment's run of them told to the victim
 * policy at once where it can take it (gc.h, on_invalidate_n). The
 * pages trimmed in *trimmed; 0, or -1 with f->err set. */
int ftl_trim_seq(struct ftl *f, uint32_t lpn, uint32_t n, uint64_t *trimmed);
/* One trace event, by the rules in docs/MODEL.md. 0 ok, -1 f->err. */
int ftl_request(struct ftl *f, const struct ev *e);
/* PLACE_FUTURE: the pass before the replay. ftl_learn_begin, then
 * ftl_request for every event (the placement learns each page write
 * and trim by the same rules; the model's state is untouched), then
 * ftl_learn_end (the request counters restart). */
void ftl_learn_begin(struct ftl *f);
int ftl_learn_end(struct ftl *f);
/* Run the pending interval/snapshot callbacks, warm-up switch. */
int ftl_tick(struct ftl *f);
/* Background cleaning: one victim now (while the copies have room). 1
 * cleaned, 0 none, -1 error. */
int ftl_gc_step(struct ftl *f);
/* The end of an ageing trace: the counts restart at 0, the data stays. */
int ftl_restart(struct ftl *f);
/* Attach an observer (copied) and run the milestones due: 0, or -1. */
int ftl_observe(struct ftl *f, const struct ftl_observer *o);
/* Verify every invariant; 0 ok, -1 with the first violation in err. */
int ftl_check(struct ftl *f, char *err, size_t n);

/* Valid-page histogram (b + 1 bins) of the sealed segments. */
void ftl_sealed_hist(const struct ftl *f, uint64_t *bins);
/* Write amplification of a window, or -1 when it has no host write. */
double ftl_wa(const struct ftl_counts *now, const struct ftl_counts *then);

/* The victim-policy room that indexes sealed segment seg. */
static inline void *ftl_gc_room(const struct ftl *f, uint32_t seg)
{
	return f->per_class ? f->gc_cls[f->seg[seg].stream] : f->gc_st;
}

static inline uint32_t ftl_seg_of(const struct ftl *f, uint32_t ppn)
{
	return f->b_shift >= 0 ? ppn >> f->b_shift : ppn / f->b;
}

/*
 * Prefetch hints for a caller that knows its next writes (the benchmark;
 * any replay with lookahead): the map entry (some 16 writes ahead), then
 * the segment it points into (some 8 ahead, once the entry is cached),
 * then that segment's list neighbours (some 4 ahead). Hints only: the
 * model stays correct whatever happens in between.
 */
static inline void ftl_pf(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	/* asm volatile: GCC finds a function whose only effect is a
	 * __builtin_prefetch "pure" and deletes the calls to it. */
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}

/* The logical page of a write ahead that a prefetch hint is for, or
 * -1: not a write, or a model without a direct map (a footprint). */
static inline int64_t ftl_hint_page(const struct ftl *f, const struct ev *e)
{
	uint64_t page = e->offset >> f->page_shift;
	return e->op == EV_WRITE && !f->map && page < f->U ? (int64_t)page : -1;
}

static inline void ftl_prefetch(const struct ftl *f, uint32_t lpn)
{
	ftl_pf(&f->l2p[lpn]);
	if (f->wtime)
		ftl_pf(&f->wtime[lpn]);
	if (f->place_prefetch)
		f->place_prefetch(f->place_st, f, lpn);
}

/* The word of vmap that holds ppn's bit. */
static inline uint64_t *ftl_vword(const struct ftl *f, uint32_t ppn, unsigned *bit)
{
	uint32_t seg = ftl_seg_of(f, ppn), off = ppn - seg * f->b;
	*bit = off & 63;
	return &f->vmap[(size_t)seg * f->vmap_words + (off >> 6)];
}

static inline void ftl_prefetch_seg(const struct ftl *f, uint32_t lpn)
{
	uint32_t ppn = f->l2p[lpn];
	unsigned bit;
	if (ppn == FTL_NONE)
		return;
	ftl_pf(&f->seg[ftl_seg_of(f, ppn)]);
	ftl_pf(ftl_vword(f, ppn, &bit));
}

/* The segments the victim policy links the page's segment to (its slot
 * words, when GC_SLOT_LINKS says they are segment numbers). */
static inline void ftl_prefetch_links(const struct ftl *f, uint32_t lpn)
{
	uint32_t ppn = f->l2p[lpn];
	if (ppn == FTL_NONE || !f->slot_links)
		return;
	const struct ftl_seg *s = &f->seg[ftl_seg_of(f, ppn)];
	if (s->slot[0] < f->nseg)
		ftl_pf(&f->seg[s->slot[0]]);
	if (s->slot[1] < f->nseg)
		ftl_pf(&f->seg[s->slot[1]]);
}

/* Name of stream s for reports ("all", "host", "temp1"...). */
const char *ftl_stream_name(const struct ftl *f, unsigned s, char *buf, size_t n);

/* Footprint map: 0 ok, -1 out of memory. */
int ftl_pagemap_init(struct ftl_pagemap *m);
int ftl_pagemap_add(struct ftl_pagemap *m, uint64_t page);
/* Made for n pages and numbered by one thread while models read it
 * (ftlsim --footprints): add_shared numbers a new page as add does; -1
 * when out of room (n pages numbered) or out of memory. */
int ftl_pagemap_init_for(struct ftl_pagemap *m, uint64_t n);
int ftl_pagemap_add_shared(struct ftl_pagemap *m, uint64_t page);
uint32_t ftl_pagemap_get(const struct ftl_pagemap *m, uint64_t page);
void ftl_pagemap_free(struct ftl_pagemap *m);

/* Allocation counted in f->mem_bytes (policies: policy_calloc). */
void *ftl_calloc(struct ftl *f, size_t n, size_t size);

#endif
