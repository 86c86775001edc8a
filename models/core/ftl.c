/*
 * ftl.c - the FTL model's core: set-up, the page maps, segments (free
 * queue, open, seal, erase), host writes, the GC pass and its triggers,
 * and the milestones (warm-up, intervals, snapshots). Requests to pages
 * are in ftl_request.c, wear levelling in ftl_wear.c, the --check
 * invariants in ftl_check.c; docs/MODEL.md has the rules.
 */
#include "ftl_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ftlkit.h"
#include "gc.h"
#include "place.h"
#include "policy.h"
#include "select.h"

int ftl_err(struct ftl *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	return -1;
}

void ftl_config_default(struct ftl_config *c)
{
	memset(c, 0, sizeof(*c));
	c->pages_per_seg = 256;
	c->page_size = 4096;
	c->policy = "greedy";
	c->placement = "single";
	c->trim = 1;
	c->oor = OOR_ERROR;
	c->seed = 1;
}

/* T = U(1+OP), rounded to the nearest page; segments round it down. */
uint64_t ftl_pages_for_op(uint64_t U, double op)
{
	return (uint64_t)llround((double)U * (1.0 + op));
}

uint64_t ftl_pages_for_sf(uint64_t U, double sf)
{
	return (uint64_t)llround((double)U / (1.0 - sf));
}

/*
 * The page maps are the model's memory and its random accesses: at 2^26
 * pages they span hundreds of MiB, and with 4 KiB pages nearly every
 * access also misses the TLB. Transparent huge pages (when the kernel
 * offers them on request) make the page walks cheap.
 */
void *ftl_calloc(struct ftl *f, size_t n, size_t size)
{
	size_t huge = 2u << 20;
	if (size && n > (SIZE_MAX - huge) / size)
		return NULL; /* n * size, rounded up to huge pages, would wrap */
	size_t bytes = n * size;
	if (bytes >= 2 * huge && !f->probe) { /* (a probe's: calloc's, untouched) */
		size_t whole = (bytes + huge - 1) / huge * huge;
		void *p = aligned_alloc(huge, whole);
		if (p) {
			madvise(p, whole, MADV_HUGEPAGE);
			memset(p, 0, bytes);
			f->mem_bytes += bytes;
		}
		return p;
	}
	void *p = calloc(n ? n : 1, size);
	if (p)
		f->mem_bytes += (uint64_t)n * size;
	return p;
}

/*
 * Set-up.
 */

uint32_t ftl_auto_pages_per_seg(uint64_t logical)
{
	for (uint32_t b = FTL_AUTO_B_MAX; b > 2; b /= 2)
		if (logical / b >= FTL_AUTO_MIN_DATA_SEGS)
			return b;
	return 2;
}

uint32_t ftl_config_pages_per_seg(const struct ftl_config *c)
{
	return c->pages_per_seg ? c->pages_per_seg : ftl_auto_pages_per_seg(c->logical_pages);
}

static int geometry(struct ftl *f, const struct ftl_config *c, char *err, size_t n)
{
	uint32_t b = ftl_config_pages_per_seg(c);
	if (b < 2 || b > (1u << 24))
		return set_err(err, n, "pages per segment must be 2..2^24, not %u", b);
	if (c->logical_pages < 1)
		return set_err(err, n, "the logical space is empty (0 pages)");
	f->b = b;
	f->b_shift = (f->b & (f->b - 1)) ? -1 : __builtin_ctz(f->b);
	uint64_t nseg = c->physical_pages / f->b; /* whole segments, rounded down */
	if (nseg * f->b >= UINT32_MAX || c->logical_pages >= UINT32_MAX)
		return set_err(err, n, "%llu physical pages is more than this model addresses (2^32-1)",
			       (unsigned long long)(nseg * f->b));
	f->U = c->logical_pages;
	f->nseg = (uint32_t)nseg;
	f->T = nseg * f->b;
	if (c->page_size < 1 || (c->page_size & (c->page_size - 1)))
		return set_err(err, n, "the page size must be a power of two, not %u", c->page_size);
	f->page_size = c->page_size;
	f->page_shift = (unsigned)__builtin_ctz(c->page_size);
	return 0;
}

/* The placement's generator: its own sequence, apart from the victim
 * policy's (which the random fill shares, first, as it always has); the
 * class selector's likewise. */
#define PLACE_SEED_MIX 0x706c6163656d6e74ull
#define SELECT_SEED_MIX 0x73656c6563746f72ull

/* What the policies asked the model to keep. */
static int keep(struct ftl *f, unsigned what)
{
	if ((what & FTL_KEEP_WRITE_TIME) && !f->wtime && !(f->wtime = ftl_calloc(f, f->U, sizeof(uint32_t))))
		return -1;
	if ((what & FTL_KEEP_OPEN_TIME) && !f->open_time &&
	    !(f->open_time = ftl_calloc(f, f->nseg, sizeof(uint64_t))))
		return -1;
	if (what & (FTL_KEEP_AGE_YOUNGEST | FTL_KEEP_AGE_MEAN)) {
		f->age_mean = !!(what & FTL_KEEP_AGE_MEAN);
		if ((!f->wtime && !(f->wtime = ftl_calloc(f, f->U, sizeof(uint32_t)))) ||
		    !(f->age_origin = ftl_calloc(f, f->nseg, sizeof(uint64_t))) ||
		    !(f->seg_wsum = ftl_calloc(f, f->nseg, sizeof(uint64_t))) ||
		    !(f->seg_wmax = ftl_calloc(f, f->nseg, sizeof(uint32_t))))
			return -1;
	}
	return 0;
}

/*
 * The combinations of parts the model refuses, read from what each part
 * declares (its info.flags), here and nowhere else, before anything is
 * built:
 *   a placement that chooses every victim itself (PLACE_VICTIM, midas)
 *     sizes its groups from the free-segment budget the watermarks
 *     keep: the garbage-proportion trigger cleans by another measure,
 *     which such a rule does not follow (it would clean nearly full
 *     segments at every write); and another victim policy, a tie rule
 *     or a class selector would be echoed in the parameters and change
 *     nothing;
 *   --gc-tie random needs a victim policy with a random tie rule
 *     (GC_RANDOM_TIES).
 */
static int refused(const struct ftl_config *c, char *err, size_t n)
{
	const struct place_ops *p = c->place;
	const struct gc_ops *g = c->gc;
	if (p->info.flags & PLACE_VICTIM) {
		if (c->gc_gp > 0)
			return set_err(err, n, "placement '%s' chooses its own GC victims by free segments: "
				       "use --gc-trigger watermark with it, not gp:P", p->info.name);
		if (c->gc_chosen || c->tie_random || c->select)
			return set_err(err, n, "placement '%s' chooses its own GC victims and sizes its groups itself: "
				       "%s has no effect with it (leave the default)", p->info.name,
				       c->select ? c->select->option : c->tie_random ? "--gc-tie random" : "--policy");
	}
	if (c->tie_random && !(g->info.flags & GC_RANDOM_TIES))
		return set_err(err, n, "victim policy '%s' has no random tie rule (--gc-tie random: greedy)",
			       g->info.name);
	return 0;
}

/* The victim policy's room (ftl_gc_room): its words in the segment
 * records are the only part of the model it may write (gc.h). */
static int gc_room(struct ftl *f, const struct ftl_config *c, void **room, uint64_t seed, struct gc_needs *gn,
		   char *err, size_t n)
{
	const struct gc_ops *g = c->gc;
	struct gc_init in = {.args = &c->gc_args, .slots = gc_slots_of(f->seg)};
	if (!(*room = policy_room_new(f, g->info.state_size, seed)))
		return set_err(err, n, "out of memory");
	if (g->init(*room, f, &in, gn))
		return set_err(err, n, "victim policy '%s': %s", g->info.name, policy_error(*room));
	return 0;
}

static int policies(struct ftl *f, const struct ftl_config *c, uint32_t *gc_high, char *err, size_t n)
{
	const struct place_ops *p = c->place;
	const struct gc_ops *g = c->gc;
	const struct policy_args *pa = &c->place_args;
	if (!p || !g)
		return set_err(err, n, "the configuration names no resolved %s (registry_resolve)",
			       p ? "victim policy" : "placement");
	if (refused(c, err, n))
		return -1;
	f->place = p;
	if (!(f->place_st = policy_room_new(f, p->info.state_size, c->seed ^ PLACE_SEED_MIX)))
		return set_err(err, n, "out of memory");
	struct place_needs pn = {.streams = 1, .gc_streams = 1};
	struct place_init pin = {.args = pa};
	if (c->host_place) { /* the host's policy, in a room of its own, called by p */
		if (!(p->info.flags & PLACE_HOSTS))
			return set_err(err, n, "placement '%s' takes no host placement (--host-placement needs one "
					       "that follows the host's handles: fdp)", p->info.name);
		if (c->host_place->info.flags & (PLACE_VICTIM | PLACE_FUTURE | PLACE_HOSTS))
			return set_err(err, n, "host placement '%s' %s: it cannot run on the host", c->host_place->info.name,
				       c->host_place->info.flags & PLACE_VICTIM ? "chooses the device's GC victims"
				       : c->host_place->info.flags & PLACE_FUTURE ? "learns the trace before the replay"
										   : "follows handles itself");
		if (!(f->host_place_st = policy_room_new(f, c->host_place->info.state_size, c->seed ^ PLACE_SEED_MIX ^ 1)))
			return set_err(err, n, "out of memory");
		pin.host = c->host_place;
		pin.host_args = &c->host_place_args;
		pin.host_st = f->host_place_st;
	}
	if (p->init(f->place_st, f, &pin, &pn))
		return set_err(err, n, "placement '%s': %s", p->info.name, policy_error(f->place_st));
	f->place_request = pn.skip & PLACE_NO_REQUEST ? NULL : p->request;
	f->place_invalidate = pn.skip & PLACE_NO_INVALIDATE ? NULL : p->invalidate;
	f->place_placed = pn.skip & PLACE_NO_PLACED ? NULL : p->placed;
	f->place_sealed = pn.skip & PLACE_NO_SEALED ? NULL : p->sealed;
	f->place_on_clean = pn.skip & PLACE_NO_CLEAN ? NULL : p->on_clean;
	f->place_trivial = !!(p->info.flags & PLACE_TRIVIAL);
	f->place_prefetch = p->prefetch;
	f->place_batch = !!(p->info.flags & PLACE_SORT);
	f->place_victim = !!(p->info.flags & PLACE_VICTIM);
	if (pn.streams < 1 || pn.streams > FTL_MAX_STREAMS || pn.gc_streams < 1 || pn.gc_streams > pn.streams)
		return set_err(err, n, "placement '%s' asks for %u streams, %u for GC (1..%d)", p->info.name,
			       pn.streams, pn.gc_streams, FTL_MAX_STREAMS);
	f->nstreams = pn.streams;
	f->gc_streams = pn.gc_streams;
	*gc_high = pn.gc_high;
	f->gc = g;
	f->slot_links = (g->info.flags & GC_SLOT_LINKS) && !c->tie_random; /* random ties: no links */
	struct gc_needs gn = {0};
	if (gc_room(f, c, &f->gc_st, c->seed, &gn, err, n))
		return -1;
	f->gc_cls[0] = f->gc_st;
	/* A class selector: one room per stream (a segment is in one
	 * stream's index at a time: the rooms share the segment records'
	 * policy words). With one stream there is nothing to choose. */
	f->per_class = c->select && f->nstreams > 1;
	for (unsigned s = 1; f->per_class && s < f->nstreams; s++) {
		struct gc_needs gs = {0};
		if (gc_room(f, c, &f->gc_cls[s], c->seed + s, &gs, err, n))
			return -1;
	}
	if (f->per_class) {
		const struct select_ops *sel = c->select;
		f->sel = sel;
		if (!(f->sel_st = policy_room_new(f, sel->info.state_size, c->seed ^ SELECT_SEED_MIX)))
			return set_err(err, n, "out of memory");
		if (sel->init(f->sel_st, f, &(struct select_init){.args = &c->select_args}))
			return set_err(err, n, "class selector '%s': %s", sel->info.name, policy_error(f->sel_st));
	}
	if (keep(f, pn.keep | gn.keep))
		return set_err(err, n, "out of memory");
	return 0;
}

/* Watermarks: the placement's GC streams must find a free segment each
 * while a victim is copied; see docs/MODEL.md "Segments and GC". */
static int watermarks(struct ftl *f, const struct ftl_config *c, uint32_t place_high, char *err, size_t n)
{
	uint32_t lo = c->gc_low ? c->gc_low : f->gc_streams;
	uint32_t hi = c->gc_high ? c->gc_high : (place_high ? place_high : lo);
	if (c->gc_low && !c->gc_high && hi < lo)
		hi = lo;
	if (lo < f->gc_streams)
		return set_err(err, n, "GC low watermark %u is below the %u free segments placement '%s' needs",
			       lo, f->gc_streams, f->place->info.name);
	if (hi < lo)
		return set_err(err, n, "GC high watermark %u is below the low watermark %u", hi, lo);
	f->gc_low = lo;
	f->gc_high = hi;
	uint64_t data = ftl_data_segments(f->U, f->b); /* segments whose pages exceed U */
	/*
	 * What can run. A single log (one stream for host writes and GC
	 * copies, copies written as they are read, no wear levelling) runs
	 * with no segment kept free: GC starts when the log seals its
	 * segment with gc_low - 1 free, all the others sealed; data
	 * segments hold more pages than U, so a victim with an invalid page
	 * exists, its copies go to its own erased space and leave room.
	 * Several streams keep their open segments and the high watermark
	 * apart besides.
	 */
	int one_log = f->nstreams == 1 && !f->place_batch && !c->wear_threshold;
	uint64_t need = one_log ? data + lo - 1 : data + f->nstreams + hi;
	if (f->nseg < need) {
		/* smaller segments leave less in open and free ones: said
		 * when the automatic size would fit */
		uint32_t ab = ftl_auto_pages_per_seg(f->U);
		uint64_t adata = ftl_data_segments(f->U, ab);
		const char *smaller = c->pages_per_seg && ab < f->b &&
					      c->physical_pages / ab >= (one_log ? adata + lo - 1 : adata + f->nstreams + hi)
					      ? " or use smaller segments (--pages-per-segment auto)" : "";
		const char *advice = c->spare_advice ? c->spare_advice : "raise the over-provisioning";
		if (c->spare_advice)
			smaller = "";
		if (one_log)
			return set_err(err, n,
				       "too little spare space: %llu logical pages need at least %llu segment%s of %u pages "
				       "(%llu for the data and some garbage, %u kept free by GC), have %u; "
				       "%s%s",
				       (unsigned long long)f->U, (unsigned long long)need, need == 1 ? "" : "s", f->b,
				       (unsigned long long)data, lo - 1, f->nseg, advice, smaller);
		return set_err(err, n,
			       "too little spare space: %llu logical pages need at least %llu segment%s of %u pages "
			       "(%llu for the data and some garbage, %u open, %u kept free by GC), have %u; "
			       "%s%s",
			       (unsigned long long)f->U, (unsigned long long)need, need == 1 ? "" : "s", f->b,
			       (unsigned long long)data, f->nstreams, hi, f->nseg, advice, smaller);
	}
	return 0;
}

static int alloc_arrays(struct ftl *f)
{
	f->l2p = ftl_calloc(f, f->U, sizeof(uint32_t));
	f->p2l = ftl_calloc(f, f->T, sizeof(uint32_t));
	f->vmap_words = (f->b + 63) / 64;
	f->vmap = ftl_calloc(f, (size_t)f->nseg * f->vmap_words, sizeof(uint64_t));
	f->seg = ftl_calloc(f, f->nseg, sizeof(struct ftl_seg));
	f->seal_time = ftl_calloc(f, f->nseg, sizeof(uint64_t));
	f->erase_count = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->freeq = ftl_calloc(f, f->nseg, sizeof(uint32_t));
	f->victim_hist = ftl_calloc(f, f->b + 1, sizeof(uint64_t));
	f->gcbuf_cap = f->b;
	f->gcbuf = ftl_calloc(f, f->gcbuf_cap, sizeof(uint32_t));
	f->gckey = ftl_calloc(f, f->gcbuf_cap, sizeof(uint64_t));
	if (!f->l2p || !f->p2l || !f->vmap || !f->seg || !f->seal_time || !f->erase_count || !f->freeq || !f->victim_hist || !f->gcbuf || !f->gckey)
		return -1;
	if (!f->probe) { /* (a probe's maps stay untouched: calloc's pages cost nothing until written) */
		memset(f->l2p, 0xff, f->U * sizeof(uint32_t));
		memset(f->p2l, 0xff, f->T * sizeof(uint32_t));
	}
	for (uint32_t s = 0; s < f->nseg; s++)
		f->freeq[s] = s;
	f->nfree = f->nseg;
	for (unsigned i = 0; i < FTL_MAX_STREAMS; i++)
		f->streams[i].seg = FTL_NONE;
	return 0;
}

struct ftl *ftl_new(const struct ftl_config *c, char *err, size_t n)
{
	struct ftl *f = calloc(1, sizeof(*f));
	if (f)
		f->check_cls = -1;
	if (!f) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	f->mem_bytes = sizeof(*f); /* (a small model's is mostly this) */
	f->trim = c->trim;
	f->oor = c->oor;
	f->check = c->check;
	f->probe = c->probe;
	f->tie_random = c->tie_random;
	f->warmup_writes = c->warmup_writes;
	f->wear_threshold = c->wear_threshold;
	f->last_victim = FTL_NONE;
	f->milestone = UINT64_MAX;
	if (geometry(f, c, err, n))
		goto fail;
	/* The policies' indexes use the segment records. */
	if (alloc_arrays(f) || (c->wear_threshold && ftl_wear_init(f))) {
		set_err(err, n, "out of memory for %llu logical and %llu physical pages",
			(unsigned long long)f->U, (unsigned long long)f->T);
		goto fail;
	}
	uint32_t place_high = 0;
	if (policies(f, c, &place_high, err, n) || watermarks(f, c, place_high, err, n))
		goto fail;
	f->gp_max = c->gc_gp;
	f->gc_batch = c->gc_batch ? c->gc_batch : 1;
	f->gc_ops = c->gc_ops;
	f->max_victim_valid = c->gc_gp > 0 ? (uint32_t)floor(f->b * (1 - c->gc_gp) + 1e-9) : f->b;
	f->measuring = c->warmup_writes == 0;
	ftl_tick(f);
	return f;
fail:
	ftl_free(f);
	return NULL;
}

void ftl_free(struct ftl *f)
{
	if (!f)
		return;
	if (f->sel_st && f->sel->destroy)
		f->sel->destroy(f->sel_st, f);
	policy_room_free(f->sel_st);
	for (unsigned s = 1; s < FTL_MAX_STREAMS; s++)
		if (f->gc_cls[s]) {
			if (f->gc->destroy)
				f->gc->destroy(f->gc_cls[s], f);
			policy_room_free(f->gc_cls[s]);
		}
	if (f->gc_st && f->gc->destroy)
		f->gc->destroy(f->gc_st, f);
	if (f->place_st && f->place->destroy)
		f->place->destroy(f->place_st, f);
	policy_room_free(f->gc_st);
	policy_room_free(f->place_st);
	policy_room_free(f->host_place_st);
	free(f->wtime);
	free(f->open_time);
	free(f->age_origin);
	free(f->seg_wsum);
	free(f->seg_wmax);
	free(f->l2p);
	free(f->p2l);
	free(f->vmap);
	free(f->seg);
	free(f->seal_time);
	free(f->erase_count);
	free(f->freeq);
	free(f->victim_hist);
	free(f->gcbuf);
	free(f->gckey);
	ftl_wear_free(f);
	free(f);
}

/*
 * Segments: free queue, open, seal, erase.
 */

static int open_seg(struct ftl *f, unsigned s)
{
	if (!f->nfree)
		return ftl_err(f, "no free segment left for stream %u (GC watermarks %u/%u too low for "
			       "placement '%s'; raise --gc-low)", s, f->gc_low, f->gc_high, f->place->info.name);
	uint32_t seg = f->freeq[f->free_head];
	f->free_head = f->free_head + 1 == f->nseg ? 0 : f->free_head + 1;
	f->nfree--;
	struct ftl_stream *st = &f->streams[s];
	f->seg[seg].state = SEG_OPEN;
	f->seg[seg].stream = (uint8_t)s;
	if (f->open_time)
		f->open_time[seg] = f->clock;
	st->seg = seg;
	st->next = seg * f->b;
	st->room = f->b;
	return 0;
}

/* A failed victim- or placement-policy hook: its message, named. */
int ftl_gc_failed(struct ftl *f, void *room)
{
	return ftl_err(f, "victim policy '%s': %s", f->gc->info.name, policy_error(room));
}

int ftl_place_failed(struct ftl *f)
{
	return ftl_err(f, "placement '%s': %s", f->place->info.name, policy_error(f->place_st));
}

static int seal(struct ftl *f, struct ftl_stream *st)
{
	uint32_t seg = st->seg;
	f->seg[seg].state = SEG_SEALED;
	f->seal_time[seg] = f->clock;
	if (f->age_origin) {
		uint64_t stamp = f->age_mean ? f->seg_wsum[seg] / f->b : f->seg_wmax[seg];
		f->age_origin[seg] = stamp << f->wtime_shift;
		f->seg_wsum[seg] = 0;
		f->seg_wmax[seg] = 0;
	}
	f->nsealed++;
	st->sealed++;
	st->seg = FTL_NONE;
	if (f->wl)
		ftl_wear_sealed(f, seg);
	st->held++;
	if (f->gc->on_seal(ftl_gc_room(f, seg), f, seg))
		return ftl_gc_failed(f, ftl_gc_room(f, seg));
	if (f->place_sealed && f->place_sealed(f->place_st, f, seg))
		return ftl_place_failed(f);
	return 0;
}

/* The policy has already dropped seg from its index. */
static int erase(struct ftl *f, uint32_t seg, unsigned cause)
{
	uint32_t e = f->erase_count[seg];
	if (ftl_flash(f, FLASH_ERASE, cause, seg, FTL_NONE, FTL_NONE, f->seg[seg].stream))
		return -1;
	if (f->wl && ftl_wear_erasing(f, seg))
		return -1;
	f->erase_count[seg] = e + 1;
	if (e + 1 > f->ec_max)
		f->ec_max = e + 1;
	f->streams[f->seg[seg].stream].held--;
	f->seg[seg].state = SEG_FREE;
	f->seg[seg].valid = 0;
	memset(&f->vmap[(size_t)seg * f->vmap_words], 0, f->vmap_words * sizeof(uint64_t));
	f->nsealed--;
	uint32_t tail = f->free_head + f->nfree;
	f->freeq[tail >= f->nseg ? tail - f->nseg : tail] = seg;
	f->nfree++;
	return 0;
}

/* Program lpn at the stream's next page (cause: enum flash_cause). obs
 * is a constant at each call: whether observers are told (the loops
 * that call put test f->nflash once, not once a page). */
static inline __attribute__((always_inline)) int put_(struct ftl *f, struct ftl_stream *st, uint32_t lpn,
						      unsigned cause, const int obs)
{
	uint32_t ppn = st->next++;
	if (obs && ftl_flash_to(f, FLASH_PROGRAM, cause, st->seg, ppn, lpn, (unsigned)(st - f->streams)))
		return -1;
	unsigned bit;
	uint64_t *w = ftl_vword(f, ppn, &bit);
	f->l2p[lpn] = ppn;
	f->p2l[ppn] = lpn;
	*w |= 1ull << bit;
	f->seg[st->seg].valid++;
	st->live++;
	if (f->age_origin) {
		uint32_t ws = f->wtime[lpn];
		f->seg_wsum[st->seg] += ws;
		if (ws > f->seg_wmax[st->seg])
			f->seg_wmax[st->seg] = ws;
	}
	if (f->place_placed && f->place_placed(f->place_st, f, lpn, st->seg))
		return ftl_place_failed(f);
	if (--st->room == 0)
		return seal(f, st);
	return 0;
}

/* lpn's copy at ppn goes: its live bit and its map entry. */
static inline void unmap(struct ftl *f, uint32_t lpn, uint32_t ppn)
{
	unsigned bit;
	uint64_t *w = ftl_vword(f, ppn, &bit);
	*w &= ~(1ull << bit);
	f->l2p[lpn] = FTL_NONE;
}

/* seg lost n live pages: the counts; its valid count before. */
static inline uint32_t seg_lost(struct ftl *f, uint32_t seg, uint32_t n)
{
	uint32_t old = f->seg[seg].valid;
	f->seg[seg].valid = old - n;
	f->mapped -= n;
	f->streams[f->seg[seg].stream].live -= n;
	f->streams[f->seg[seg].stream].dead += n;
	return old;
}

static inline int invalidate(struct ftl *f, uint32_t lpn, uint32_t ppn)
{
	uint32_t seg = ftl_seg_of(f, ppn);
	unmap(f, lpn, ppn);
	uint32_t old = seg_lost(f, seg, 1);
	if (f->place_invalidate && f->place_invalidate(f->place_st, f, lpn, seg))
		return ftl_place_failed(f);
	if (f->seg[seg].state == SEG_SEALED && f->gc->on_invalidate &&
	    f->gc->on_invalidate(ftl_gc_room(f, seg), f, seg, old))
		return ftl_gc_failed(f, ftl_gc_room(f, seg));
	return 0;
}

/*
 * Garbage collection.
 */

/* Read the live pages of seg into the GC buffer, then erase it. */
static int gather(struct ftl *f, uint32_t seg, unsigned cause)
{
	uint32_t base = seg * f->b, v = f->seg[seg].valid;
	if (f->gcbuf_n + f->b > f->gcbuf_cap) {
		size_t cap = f->gcbuf_cap * 2;
		uint32_t *nb = realloc(f->gcbuf, cap * sizeof(uint32_t));
		if (nb)
			f->gcbuf = nb;
		uint64_t *nk = realloc(f->gckey, cap * sizeof(uint64_t));
		if (nk)
			f->gckey = nk;
		if (!nb || !nk)
			return ftl_err(f, "out of memory for the GC buffer");
		f->mem_bytes += (cap - f->gcbuf_cap) * 12;
		f->gcbuf_cap = cap;
	}
	/* Walk the live bits; the copies will store into l2p at random:
	 * start those lines coming now. */
	const uint64_t *w = &f->vmap[(size_t)seg * f->vmap_words];
	uint32_t live = 0;
	if (f->nflash)
		for (uint32_t i = 0; i < f->vmap_words; i++)
			for (uint64_t m = w[i]; m; m &= m - 1) {
				uint32_t ppn = base + i * 64 + (uint32_t)__builtin_ctzll(m);
				if (ftl_flash_to(f, FLASH_READ, cause, seg, ppn, f->p2l[ppn], f->seg[seg].stream))
					return -1;
			}
	for (uint32_t i = 0; i < f->vmap_words; i++) {
		for (uint64_t m = w[i]; m; m &= m - 1) {
			uint32_t lpn = f->p2l[base + i * 64 + (uint32_t)__builtin_ctzll(m)];
			ftl_pf(&f->l2p[lpn]);
			if (f->wtime) /* the placement reads the copy's write time */
				ftl_pf(&f->wtime[lpn]);
			f->gcbuf[f->gcbuf_n + live] = lpn;
			if (f->place_batch)
				f->gckey[f->gcbuf_n + live] = f->place->sort_key(f->place_st, f, lpn);
			live++;
		}
	}
	if (live != v)
		return ftl_err(f, "segment %u: valid count %u but %u live pages", seg, v, live);
	f->gcbuf_n += live;
	f->streams[f->seg[seg].stream].live -= live;
	return erase(f, seg, cause);
}

/* Program the GC buffer through the placement policy. */
static inline __attribute__((always_inline)) int writeout_(struct ftl *f, unsigned from, int wl, const int obs)
{
	for (size_t i = 0; i < f->gcbuf_n; i++) {
		uint32_t lpn = f->gcbuf[i];
		unsigned s = 0;
		if (!f->place_trivial && f->place->gc(f->place_st, f, lpn, from, &s))
			return ftl_place_failed(f);
		if (s >= f->nstreams)
			return ftl_err(f, "placement '%s' chose stream %u of %u", f->place->info.name, s, f->nstreams);
		struct ftl_stream *st = &f->streams[s];
		if (!st->room && open_seg(f, s))
			return -1;
		if (put_(f, st, lpn, wl ? FLASH_WL : FLASH_GC, obs))
			return -1;
		st->gc_pages++;
	}
	if (wl)
		f->c.wl_pages += f->gcbuf_n;
	else
		f->c.gc_pages += f->gcbuf_n;
	f->gcbuf_n = 0;
	return 0;
}

static int writeout(struct ftl *f, unsigned from, int wl)
{
	return f->nflash ? writeout_(f, from, wl, 1) : writeout_(f, from, wl, 0);
}

static void count_victim(struct ftl *f, uint32_t seg)
{
	uint32_t v = f->seg[seg].valid;
	struct ftl_stream *st = &f->streams[f->seg[seg].stream];
	f->c.victims++;
	f->c.victim_valid += v;
	f->c.victims_empty += v == 0;
	st->victims++;
	st->victim_valid += v;
	f->victim_hist[v]++;
	f->last_victim = seg;
}

/* Clean one segment (a GC victim, or a wear-levelling move). */
int ftl_clean(struct ftl *f, uint32_t seg, int wl)
{
	unsigned from = f->seg[seg].stream;
	if (f->place_on_clean && f->place_on_clean(f->place_st, f, seg, wl))
		return ftl_place_failed(f);
	if (wl)
		f->c.wl_moves++;
	else
		count_victim(f, seg);
	if (gather(f, seg, wl ? FLASH_WL : FLASH_GC))
		return -1;
	return f->place_batch ? 0 : writeout(f, from, wl);
}

static int cmp_key(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return *x < *y ? -1 : *x > *y;
}

/* PLACE_SORT: copy the pass's live pages in key order (ties by lpn). */
int ftl_writeout_sorted(struct ftl *f, int wl)
{
	size_t n = f->gcbuf_n;
	uint64_t *k = f->gckey;
	/* Sort (key, index) pairs packed in two words: key in the first. */
	uint64_t *pairs = malloc(n * 2 * sizeof(uint64_t) + 1);
	if (!pairs)
		return ftl_err(f, "out of memory sorting GC copies");
	for (size_t i = 0; i < n; i++) {
		pairs[2 * i] = k[i];
		pairs[2 * i + 1] = f->gcbuf[i];
	}
	qsort(pairs, n, 2 * sizeof(uint64_t), cmp_key);
	for (size_t i = 0; i < n; i++)
		f->gcbuf[i] = (uint32_t)pairs[2 * i + 1];
	free(pairs);
	return writeout(f, 0, wl);
}

/* Free segments once the buffered copies (PLACE_SORT) are written. */
static uint32_t free_after_copies(const struct ftl *f)
{
	uint64_t need = (f->gcbuf_n + f->b - 1) / f->b;
	return need >= f->nfree ? 0 : f->nfree - (uint32_t)need;
}

/* The failed class selector's message, named. */
static int select_failed(struct ftl *f)
{
	return ftl_err(f, "class selector '%s': %s", f->sel->info.name, policy_error(f->sel_st));
}

/*
 * The victim-selection chain (select.h): a sealed segment, or FTL_NONE
 * when none is found. A placement that declares PLACE_VICTIM chooses
 * (FTL_NONE: nothing sealed, or it leaves the choice to the rest of the
 * chain); else the class selector, when one is set up, chooses the
 * stream, and the victim policy the victim in that stream's room (or in
 * its one room). 0, or -1 with f->err set.
 */
static int pick(struct ftl *f, uint32_t *seg)
{
	*seg = FTL_NONE;
	if (f->place_victim) {
		if (f->place->victim(f->place_st, f, seg))
			return ftl_place_failed(f);
		if (*seg != FTL_NONE) {
			if (*seg >= f->nseg || f->seg[*seg].state != SEG_SEALED)
				return ftl_err(f, "placement '%s' chose segment %u, which is not sealed",
					       f->place->info.name, *seg);
			if (f->gc->remove(ftl_gc_room(f, *seg), f, *seg))
				return ftl_gc_failed(f, ftl_gc_room(f, *seg));
			return 0;
		}
	}
	void *room = f->gc_st;
	if (f->sel) {
		unsigned c;
		if (f->sel->pick_class(f->sel_st, f, &c))
			return select_failed(f);
		if (c == SELECT_NONE)
			return 0;
		if (c >= f->nstreams)
			return ftl_err(f, "class selector '%s' chose class %u of %u", f->sel->info.name, c,
				       f->nstreams);
		room = f->gc_cls[c];
	}
	if (f->gc->pick(room, f, seg))
		return ftl_gc_failed(f, room);
	if (*seg != FTL_NONE && (*seg >= f->nseg || f->seg[*seg].state != SEG_SEALED))
		return ftl_err(f, "victim policy '%s' chose segment %u, which is not sealed", f->gc->info.name,
			       *seg);
	return 0;
}

/* The end of a GC operation: sorted copies written, invariants checked. */
static int pass_done(struct ftl *f)
{
	if (f->place_batch && ftl_writeout_sorted(f, 0))
		return -1;
	if (f->check && ftl_check(f, f->err, sizeof(f->err)))
		return -1;
	return 0;
}

/*
 * One GC pass: clean victims until gc_high segments are free, or until
 * the copies have opened room in the stream that asked (a shared log:
 * the victim's space becomes the write frontier) while gc_low - 1
 * segments stay free. need is that stream, or -1.
 *
 * Why gc_low >= G (the placement's GC streams) suffices: a pass starts
 * with at least G - 1 free segments; each victim is erased before its
 * copies are written, and k victims' copies (at most k*b pages over G
 * streams) open at most k + G - 1 segments, so a stream never finds
 * the free pool empty.
 */
static int clean_to_watermark(struct ftl *f, int need)
{
	uint64_t guard = 0;
	if (f->wl && ftl_wear_level(f))
		return -1;
	while (free_after_copies(f) < f->gc_high) {
		if (need >= 0 && f->streams[need].room && f->nfree + 1 >= f->gc_low)
			break;
		if (++guard > 2 * (uint64_t)f->nseg)
			return ftl_err(f, "GC cleaned %llu victims without freeing %u segments: no reclaimable space",
				    (unsigned long long)guard - 1, f->gc_high);
		uint32_t seg;
		if (pick(f, &seg))
			return -1;
		if (seg == FTL_NONE)
			return ftl_err(f, "victim policy '%s' found no segment to clean (%u sealed)",
				    f->gc->info.name, f->nsealed);
		if (ftl_clean(f, seg, 0))
			return -1;
	}
	return pass_done(f);
}

static int gc_pass(struct ftl *f, int need)
{
	f->gc_passes++;
	if (f->gp_max <= 0)
		return clean_to_watermark(f, need);
	/* Under gp:P the free segments ran out before the garbage passed P
	 * (spare space under about P, or garbage that trims took away):
	 * the drive must free space, from any segment, as the watermarks
	 * would. Counted (gp_watermark_passes) and warned of. */
	f->gp_watermark_passes++;
	uint32_t keep = f->max_victim_valid;
	f->max_victim_valid = f->b;
	int rc = clean_to_watermark(f, need);
	f->max_victim_valid = keep;
	return rc;
}

/*
 * The garbage-proportion trigger (--gc-trigger gp:P, as SepBIT's
 * simulator): the garbage is the invalid pages of sealed segments, over
 * every page written to sealed and open segments.
 */
static int gp_exceeded(const struct ftl *f)
{
	uint64_t open_written = 0, open_valid = 0;
	for (unsigned i = 0; i < f->nstreams; i++) {
		const struct ftl_stream *st = &f->streams[i];
		if (st->seg != FTL_NONE) {
			open_written += f->b - st->room;
			open_valid += f->seg[st->seg].valid;
		}
	}
	uint64_t sealed = (uint64_t)f->nsealed * f->b;
	uint64_t garbage = sealed - (f->mapped - open_valid);
	return (double)garbage > f->gp_max * (double)(sealed + open_written);
}

/* GC operations of gc_batch victims while the proportion exceeds
 * gp_max: at most gc_ops of them (--gc-ops), or with gc_ops 0 until it
 * is under gp_max. Victim policies that can (greedy, the cost-benefit
 * family) choose only among segments holding gp_max garbage themselves
 * (ftl_max_victim_valid) and find none when none does; the others
 * clean what they choose. An operation that cleans a victim counts in
 * gc_passes once, as a pass does under the watermarks. */
static int gc_gp(struct ftl *f)
{
	uint64_t ops = 0, max_ops = f->gc_ops ? f->gc_ops : f->nseg;
	do {
		for (uint32_t k = 0; k < f->gc_batch; k++) {
			uint32_t seg;
			if (pick(f, &seg))
				return -1;
			if (seg == FTL_NONE)
				return 0;
			f->gc_passes += k == 0;
			if (ftl_clean(f, seg, 0))
				return -1;
		}
		if (pass_done(f))
			return -1;
	} while (++ops < max_ops && gp_exceeded(f));
	return 0;
}

/*
 * Background cleaning (a device in time, while the host is idle): one
 * GC operation of one victim, as a pass would choose it, while at least
 * G - 1 segments are free (G the GC streams: the guarantee a pass
 * starts with, clean_to_watermark). The caller stops when the free segments stop growing (a
 * victim with no invalid page only moves). 1 when a victim was cleaned, 0 when none could be, -1 on an error.
 * Counted as any GC (victims, copies) and in bg_victims.
 */
int ftl_gc_step(struct ftl *f)
{
	if (f->nfree + 1 < f->gc_streams || f->nsealed == 0)
		return 0;
	uint32_t seg;
	if (pick(f, &seg))
		return -1;
	if (seg == FTL_NONE)
		return 0;
	f->bg_victims++;
	f->gc_passes++;
	if (ftl_clean(f, seg, 0) || pass_done(f))
		return -1;
	return 1;
}

/* The end of a host write request's pages under --gc-ops N: its GC
 * operations, as SepBIT's simulator runs them after each request. */
int ftl_request_written(struct ftl *f)
{
	f->in_request = 0;
	if (f->gp_max > 0 && gp_exceeded(f))
		return gc_gp(f);
	return 0;
}

/* A host stream needs a new segment. */
static int host_open(struct ftl *f, unsigned s)
{
	if (f->nfree < f->gc_low) {
		if (gc_pass(f, (int)s))
			return -1;
		if (f->streams[s].room)
			return 0;
	}
	return open_seg(f, s);
}

/*
 * Host operations.
 */

/* The page's write stamp (FTL_KEEP_WRITE_TIME; policy.h): clock >>
 * shift, all stamps halved once when the clock outgrows 32 bits. */
static void stamp(struct ftl *f, uint32_t lpn)
{
	uint64_t t = f->clock >> f->wtime_shift;
	if (t > UINT32_MAX) {
		for (uint64_t i = 0; i < f->U; i++)
			f->wtime[i] >>= 1;
		t = f->clock >> ++f->wtime_shift;
	}
	f->wtime[lpn] = (uint32_t)t;
}

/* The placement sees the write before its previous version goes. */
static int host_stream(struct ftl *f, uint32_t lpn, const struct ftl_tag *tag, uint32_t old, unsigned *s)
{
	struct place_write w = {.lpn = lpn,
				.temp = tag->temp,
				.stream = tag->stream,
				.hint = tag->hint,
				.prev_seg = FTL_NONE,
				.prev_time = FTL_NEVER};
	if (old != FTL_NONE) {
		w.prev_seg = ftl_seg_of(f, old);
		if (f->wtime)
			w.prev_time = ftl_write_time(f, lpn);
	}
	if (f->place->host(f->place_st, f, &w, s))
		return ftl_place_failed(f);
	if (*s >= f->nstreams)
		return ftl_err(f, "placement '%s' chose stream %u of %u", f->place->info.name, *s, f->nstreams);
	return 0;
}

static inline int write_page(struct ftl *f, uint32_t lpn, const struct ftl_tag *tag)
{
	uint32_t old = f->l2p[lpn];
	unsigned s = 0;
	f->clock++;
	if (!f->place_trivial && host_stream(f, lpn, tag, old, &s))
		return -1;
	if (old != FTL_NONE && invalidate(f, lpn, old))
		return -1;
	if (f->wtime)
		stamp(f, lpn);
	struct ftl_stream *st = &f->streams[s];
	if (!st->room && host_open(f, s))
		return -1;
	if (put_(f, st, lpn, FLASH_HOST, f->nflash != 0))
		return -1;
	f->mapped++;
	st->host_pages++;
	return 0;
}

int ftl_write_tagged(struct ftl *f, uint32_t lpn, const struct ftl_tag *tag)
{
	f->now_ns = f->write_ns = tag->t_ns;
	if (write_page(f, lpn, tag))
		return -1;
	f->c.host_pages++;
	/* Under gp:P after every page, or under --gc-ops N after each
	 * request: after this page unless ftl_request writes more. */
	if (f->gp_max > 0 && !f->in_request && gp_exceeded(f) && gc_gp(f))
		return -1;
	if (f->c.host_pages == f->milestone)
		return ftl_tick(f);
	return 0;
}

/* The next page of a run: its clock tick and its previous version
 * unmapped, as write_page does before it is put. */
static inline int run_next(struct ftl *f, uint32_t lpn)
{
	f->clock++;
	uint32_t old = f->l2p[lpn];
	return old != FTL_NONE ? invalidate(f, lpn, old) : 0;
}

/* k pages of a run from lpn into st's open segment (k at most its room),
 * the first one's run_next done: put_ k times; with no observer, the
 * maps stored page by page and the live bits and counts once. */
static inline __attribute__((always_inline)) int put_run(struct ftl *f, struct ftl_stream *st, uint32_t lpn,
							 uint32_t k, const int obs)
{
	if (obs) {
		for (uint32_t i = 0;; i++) {
			if (put_(f, st, lpn + i, FLASH_HOST, obs))
				return -1;
			if (i + 1 == k)
				return 0;
			if (run_next(f, lpn + i + 1))
				return -1;
		}
	}
	uint32_t ppn = st->next, seg = st->seg, *l2p = f->l2p, *p2l = f->p2l;
	for (uint32_t i = 0;; i++) {
		l2p[lpn + i] = ppn + i;
		p2l[ppn + i] = lpn + i;
		if (i + 1 == k)
			break;
		if (run_next(f, lpn + i + 1))
			return -1;
	}
	uint64_t *w = &f->vmap[(size_t)seg * f->vmap_words];
	for (uint32_t off = ppn - seg * f->b, left = k; left;) {
		uint32_t bit = off & 63, m = 64 - bit < left ? 64 - bit : left;
		w[off >> 6] |= (m == 64 ? ~0ull : (1ull << m) - 1) << bit;
		off += m;
		left -= m;
	}
	f->seg[seg].valid += k;
	st->live += k;
	st->next += k;
	if ((st->room -= k) == 0)
		return seal(f, st);
	return 0;
}

/* n ftl_write_tagged calls of consecutive pages. With a single log,
 * no write stamps and no garbage-proportion trigger (nothing decided
 * page by page but the previous version's unmapping), the run is
 * written a segment's room at a time, its counts added once; the
 * milestones fall where they would. Otherwise page by page. */
static inline __attribute__((always_inline)) int write_run_(struct ftl *f, uint32_t lpn, uint32_t n, const int obs)
{
	struct ftl_stream *st = &f->streams[0];
	while (n) {
		if (run_next(f, lpn) || (!st->room && host_open(f, 0)))
			return -1;
		uint64_t k = n < st->room ? n : st->room, left = f->milestone - f->c.host_pages;
		if (left < k)
			k = left ? left : 1;
		if (put_run(f, st, lpn, (uint32_t)k, obs))
			return -1;
		f->mapped += k;
		st->host_pages += k;
		f->c.host_pages += k;
		lpn += (uint32_t)k;
		n -= (uint32_t)k;
		if (f->c.host_pages == f->milestone && ftl_tick(f))
			return -1;
	}
	return 0;
}

int ftl_write_run(struct ftl *f, uint32_t lpn, uint32_t n, const struct ftl_tag *tag)
{
	if (!f->place_trivial || f->wtime || f->age_origin || f->place_placed || f->gp_max > 0) {
		for (uint32_t i = 0; i < n; i++)
			if (ftl_write_tagged(f, lpn + i, tag))
				return -1;
		return 0;
	}
	f->now_ns = f->write_ns = tag->t_ns;
	return f->nflash ? write_run_(f, lpn, n, 1) : write_run_(f, lpn, n, 0);
}

int ftl_write(struct ftl *f, uint32_t lpn, unsigned temp)
{
	return ftl_write_tagged(f, lpn, &(struct ftl_tag){.temp = temp});
}

int ftl_trim(struct ftl *f, uint32_t lpn)
{
	uint32_t old = f->l2p[lpn];
	if (old == FTL_NONE)
		return 0;
	return invalidate(f, lpn, old) ? -1 : 1;
}

int ftl_trim_seq(struct ftl *f, uint32_t lpn, uint32_t n, uint64_t *trimmed)
{
	uint32_t end = lpn + n;
	if (f->place_invalidate || !f->gc->on_invalidate_n) { /* page by page */
		for (; lpn < end; lpn++) {
			int rc = ftl_trim(f, lpn);
			if (rc < 0)
				return -1;
			*trimmed += (uint64_t)rc;
		}
		return 0;
	}
	while (lpn < end) {
		uint32_t ppn = f->l2p[lpn];
		if (ppn == FTL_NONE) {
			lpn++;
			continue;
		}
		/* the run of pages held in seg: what invalidate does per page,
		 * the counts and the victim index once */
		uint32_t seg = ftl_seg_of(f, ppn), base = seg * f->b, off = ppn - base, k = 0;
		uint64_t *w = &f->vmap[(size_t)seg * f->vmap_words];
		do { /* unmap, with the segment's bitmap at hand */
			w[off >> 6] &= ~(1ull << (off & 63));
			f->l2p[lpn] = FTL_NONE;
			k++;
			lpn++;
		} while (lpn < end && (off = f->l2p[lpn] - base) < f->b); /* FTL_NONE - base >= b too */
		uint32_t old = seg_lost(f, seg, k);
		*trimmed += k;
		if (f->seg[seg].state == SEG_SEALED && f->gc->on_invalidate_n(ftl_gc_room(f, seg), f, seg, old, k))
			return ftl_gc_failed(f, ftl_gc_room(f, seg));
	}
	return 0;
}

int ftl_precondition(struct ftl *f, int kind)
{
	if (kind == PRECOND_NONE)
		return 0;
	uint32_t *perm = NULL;
	if (kind == PRECOND_RANDOM) {
		perm = malloc(f->U * sizeof(uint32_t));
		if (!perm)
			return ftl_err(f, "out of memory for a random fill of %llu pages",
				    (unsigned long long)f->U);
		for (uint32_t i = 0; i < f->U; i++)
			perm[i] = i;
		for (uint32_t i = (uint32_t)f->U - 1; i > 0; i--) {
			uint32_t j = rng_below32(policy_rng(f->gc_st), i + 1), t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
	}
	int rc = 0;
	f->precond_active = 1;
	for (uint32_t i = 0; i < f->U && !rc; i++) {
		rc = write_page(f, perm ? perm[i] : i, &(struct ftl_tag){.temp = EV_TEMP_NONE});
		f->precond_pages += !rc;
	}
	f->precond_active = 0;
	for (unsigned i = 0; i < f->nstreams; i++)
		f->streams[i].host_pages = 0; /* per-stream figures count host writes only */
	free(perm);
	return rc;
}

/*
 * Milestones: warm-up end, curve intervals, snapshots.
 */

int ftl_tick(struct ftl *f)
{
	uint64_t h = f->c.host_pages;
	if (!f->measuring && h >= f->warmup_writes) {
		f->measuring = 1;
		f->c0 = f->c;
		for (unsigned i = 0; i < f->nstreams; i++) {
			struct ftl_stream *st = &f->streams[i];
			st->host0 = st->host_pages;
			st->origin0 = f->place->origin_copies ? f->place->origin_copies(f->place_st, f, i) : 0;
		}
		memset(f->victim_hist, 0, (f->b + 1) * sizeof(uint64_t));
	}
	if (f->obs.interval && !f->next_interval)
		f->next_interval = f->obs.interval;
	if (f->obs.snapshot_every && !f->next_snapshot)
		f->next_snapshot = f->obs.snapshot_every;
	if (f->obs.interval && h >= f->next_interval) {
		if (f->obs.on_interval && f->obs.on_interval(f, f->obs.ctx))
			return -1;
		f->ci = f->c;
		f->next_interval += f->obs.interval;
	}
	if (f->obs.snapshot_every && h >= f->next_snapshot) {
		if (f->obs.on_snapshot && f->obs.on_snapshot(f, f->obs.ctx))
			return -1;
		f->next_snapshot += f->obs.snapshot_every;
	}
	uint64_t m = UINT64_MAX;
	if (!f->measuring)
		m = f->warmup_writes;
	if (f->obs.interval && f->next_interval < m)
		m = f->next_interval;
	if (f->obs.snapshot_every && f->next_snapshot < m)
		m = f->next_snapshot;
	f->milestone = m;
	return 0;
}

/*
 * The end of an ageing trace (--precondition-trace): what it wrote stays
 * (the map, the segments, their erase counts); its counts go. The run's
 * counters, requests, per-stream figures and GC counts restart at 0, the
 * warm-up and the milestones with them; its host pages are kept in
 * aged_pages.
 */
int ftl_restart(struct ftl *f)
{
	f->aged_pages += f->c.host_pages;
	f->aged_flash += f->c.host_pages + f->c.gc_pages + f->c.wl_pages;
	memset(&f->c, 0, sizeof(f->c));
	f->c0 = f->ci = f->c;
	memset(&f->r, 0, sizeof(f->r));
	memset(f->victim_hist, 0, (f->b + 1) * sizeof(uint64_t));
	for (unsigned i = 0; i < f->nstreams; i++) {
		struct ftl_stream *st = &f->streams[i];
		st->host_pages = st->gc_pages = st->sealed = st->victims = st->victim_valid = 0;
	}
	f->gc_passes = f->gp_watermark_passes = f->bg_victims = 0;
	f->measuring = 0;
	f->next_interval = f->next_snapshot = 0;
	return ftl_tick(f);
}

int ftl_observe(struct ftl *f, const struct ftl_observer *o)
{
	f->obs = *o;
	f->next_interval = f->next_snapshot = 0;
	return ftl_tick(f);
}

/*
 * The flash-operation hook (flash.h).
 */

int ftl_flash_observe(struct ftl *f, flash_fn fn, void *ctx)
{
	if (f->nflash_fn >= FTL_MAX_FLASH_OBS)
		return -1;
	f->flash[f->nflash_fn].fn = fn;
	f->flash[f->nflash_fn].ctx = ctx;
	f->nflash_fn++;
	f->nflash++;
	f->flash_batch_only = 0;
	return 0;
}

int ftl_flash_observe_batch(struct ftl *f, flash_batch_fn fn, void *ctx)
{
	if (f->flash_batch)
		return -1;
	f->flash_batch = fn;
	f->flash_batch_ctx = ctx;
	f->nflash++;
	f->flash_batch_only = !f->nflash_fn;
	return 0;
}

int ftl_flash_flush(struct ftl *f)
{
	unsigned n = f->nbatched;
	if (!n)
		return 0;
	f->nbatched = 0;
	if (f->flash_batch(f->flash_batch_ctx, f, f->batched, n))
		return f->err[0] ? -1 : ftl_err(f, "a flash-operation observer stopped the run");
	return 0;
}

__attribute__((noinline)) int ftl_flash_emit(struct ftl *f, unsigned kind, unsigned cause, uint32_t seg,
					     uint32_t ppn, uint32_t lpn, unsigned stream)
{
	struct flash_op op = ftl_flash_op(f, kind, cause, seg, ppn, lpn, stream);
	for (unsigned i = 0; i < f->nflash_fn; i++)
		if (f->flash[i].fn(f->flash[i].ctx, f, &op))
			return f->err[0] ? -1 : ftl_err(f, "a flash-operation observer stopped the run");
	if (f->flash_batch) {
		if (f->nbatched == FTL_FLASH_BATCH && ftl_flash_flush(f))
			return -1;
		f->batched[f->nbatched++] = op;
	}
	return 0;
}

const char *flash_kind_name(unsigned k)
{
	static const char *const n[] = {"program", "read", "erase"};
	return k < FLASH_NKIND ? n[k] : "?";
}

const char *flash_cause_name(unsigned c)
{
	static const char *const n[] = {"host", "gc", "wl", "host_read", "fill"};
	return c < FLASH_NCAUSE ? n[c] : "?";
}

const char *ftl_stream_name(const struct ftl *f, unsigned s, char *buf, size_t n)
{
	return f->place->stream_name(f->place_st, f, s, buf, n);
}

double ftl_wa(const struct ftl_counts *now, const struct ftl_counts *then)
{
	uint64_t h = now->host_pages - then->host_pages;
	if (!h)
		return -1;
	uint64_t w = h + (now->gc_pages - then->gc_pages) + (now->wl_pages - then->wl_pages);
	return (double)w / (double)h;
}

void ftl_sealed_hist(const struct ftl *f, uint64_t *bins)
{
	memset(bins, 0, (f->b + 1) * sizeof(uint64_t));
	for (uint32_t s = 0; s < f->nseg; s++)
		if (f->seg[s].state == SEG_SEALED)
			bins[f->seg[s].valid]++;
}

