/*
 * policy.h - what victim policies (gc.h) and placement policies
 * (place.h) share: the room the model gives each of them, the read-only
 * view of the model they may use, and their declared arguments.
 *
 * The room. The model allocates a policy's state (info.state_size
 * bytes, zeroed, SQLite's szOsFile) behind a small header of its own
 * that holds the policy's seeded generator, the message of its last
 * failure and the model's memory count; every hook receives that state
 * as st, and the helpers below find the header from it. Policies
 * allocate their indexes with policy_calloc (counted in the model's
 * memory), report a failure with `return policy_fail(st, ...)` (the
 * model prefixes and reports the message), and draw random numbers from
 * policy_rng(st) only: a policy's draws never shift another's.
 *
 * The view. Hooks get `const struct ftl *`: a policy reads the model
 * through the accessors below (valid count, state, the stream that
 * wrote a segment, seal and open time, erase count, the clock, a page's
 * last host write, the streams' figures) and never writes into it (a
 * victim policy's two words in each segment record are its own: gc.h).
 * What a policy needs from the model (streams, watermarks, kept times)
 * it asks for once, in what init returns. Class selectors (select.h)
 * live in a room too.
 *
 * Arguments. A policy declares its arguments (name, kind, range,
 * default) in info.args; one parser reads "NAME", "NAME:V1,V2" or
 * "NAME:K=V,K=V" and hands init the values, so a policy never parses
 * text and every bad argument gets the same message.
 */
#ifndef FTLKIT_POLICY_H
#define FTLKIT_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"
#include "rng.h"


enum policy_arg_kind { ARG_UINT, ARG_REAL };

struct policy_arg {
	const char *name; /* "D", "K", "N" */
	int kind;	  /* enum policy_arg_kind */
	double min, max, def;
	const char *what; /* "samples", "segments a pass" */
};


/* The part of an ops table every kind (gc.h, place.h, select.h) shares,
 * first in each. */
struct policy_info {
	const char *name;
	const char *desc;
	unsigned version; /* GC_API_VERSION, PLACE_API_VERSION, SELECT_API_VERSION */
	unsigned flags;	  /* GC_*, PLACE_*: each read by the model (the capabilities it checks) */
	const struct policy_arg *args; /* nargs entries */
	unsigned nargs;
	size_t state_size; /* bytes of state the model allocates, zeroed */
};

/*
 * Find "NAME[:ARGS]" among the entries at(0), at(1), ... (NULL ends)
 * and parse its arguments into *a (a may be NULL): the entry's index,
 * or -1 with a message in err ("unknown victim policy 'x'", "dchoices:D
 * needs an integer 1 <= D <= 1000000, not '0'"); kind names the table
 * in messages ("victim policy", "placement"). gc_find and place_find.
 */
int policy_find(const struct policy_info *(*at)(unsigned i), const char *kind, const char *spec,
		struct policy_args *a, char *err, size_t n);
/* "D: samples, 1..1000000, default 2" lines for --list-*; 0 if none. */
int policy_describe_args(const struct policy_info *pi, char *buf, size_t n);

/*
 * The room's helpers: st is the state pointer the model handed a hook.
 */
/* Zeroed array counted in the model's memory; NULL when out of memory. */
void *policy_calloc(void *st, size_t n, size_t size);
/* Resize p from old to new bytes, counted; NULL (p untouched) on failure. */
void *policy_realloc(void *st, void *p, size_t old_bytes, size_t new_bytes);
/* Keep a message for the model; returns -1 for `return policy_fail(...)`. */
int policy_fail(void *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The policy's own generator, seeded from the model's seed. */
struct rng *policy_rng(void *st);

/* The model's side (ftl.c). */
void *policy_room_new(struct ftl *f, size_t state_size, uint64_t seed);
void policy_room_free(void *st);
const char *policy_error(void *st);

/*
 * The read-only view. Times are the host page-write clock (ftl_now):
 * host writes so far, preconditioning included.
 */
#define FTL_NEVER UINT64_MAX /* a time that has not happened */

static inline uint64_t ftl_now(const struct ftl *f) { return f->clock; }
static inline uint64_t ftl_logical_pages(const struct ftl *f) { return f->U; }
static inline uint32_t ftl_segments(const struct ftl *f) { return f->nseg; }
static inline uint32_t ftl_seg_pages(const struct ftl *f) { return f->b; }
/* Sealed segments; while --check asks one stream's victim-policy room
 * (with a class selector, select.h), those of that stream. */
static inline uint32_t ftl_sealed_count(const struct ftl *f)
{
	return f->check_cls >= 0 ? f->streams[f->check_cls].held : f->nsealed;
}
static inline uint32_t ftl_valid(const struct ftl *f, uint32_t seg) { return f->seg[seg].valid; }
/* enum ftl_seg_state */
static inline unsigned ftl_state(const struct ftl *f, uint32_t seg) { return f->seg[seg].state; }
/* The stream (placement class) that wrote seg (open or sealed). */
static inline unsigned ftl_seg_stream(const struct ftl *f, uint32_t seg) { return f->seg[seg].stream; }
static inline uint64_t ftl_seal_time(const struct ftl *f, uint32_t seg) { return f->seal_time[seg]; }
/* When seg was last opened: kept only when a policy asks (FTL_KEEP_OPEN_TIME). */
static inline uint64_t ftl_open_time(const struct ftl *f, uint32_t seg)
{
	return f->open_time ? f->open_time[seg] : FTL_NEVER;
}
static inline uint32_t ftl_erase_count(const struct ftl *f, uint32_t seg) { return f->erase_count[seg]; }
/* Logical pages that hold data. */
static inline uint64_t ftl_mapped(const struct ftl *f) { return f->mapped; }
/* Valid pages in the segments stream s wrote; segments of s cleaned so
 * far and the valid pages they held. */
static inline uint64_t ftl_stream_live(const struct ftl *f, unsigned s) { return f->streams[s].live; }
static inline uint64_t ftl_stream_victims(const struct ftl *f, unsigned s) { return f->streams[s].victims; }
static inline uint64_t ftl_stream_victim_valid(const struct ftl *f, unsigned s) { return f->streams[s].victim_valid; }
/* The sealed segments stream s wrote, now; the pages that died in the
 * segments it wrote (overwritten or trimmed) since the start. */
static inline uint32_t ftl_stream_held(const struct ftl *f, unsigned s) { return f->streams[s].held; }
static inline uint64_t ftl_stream_dead(const struct ftl *f, unsigned s) { return f->streams[s].dead; }
/* The streams the placement asked for (host and GC together). */
static inline unsigned ftl_streams(const struct ftl *f) { return f->nstreams; }
/* The high GC watermark: free segments a pass makes. */
static inline uint32_t ftl_gc_high(const struct ftl *f) { return f->gc_high; }
/* The learning pass of a PLACE_FUTURE placement is running (ftl_learn_begin). */
static inline int ftl_learning(const struct ftl *f) { return f->learning; }
/* The writes being placed fill the drive before the trace (ftl_precondition). */
static inline int ftl_preconditioning(const struct ftl *f) { return f->precond_active; }
/* A victim may hold at most this many valid pages (the gp trigger's
 * rule; b otherwise): victim policies that can, choose only among those. */
static inline uint32_t ftl_max_victim_valid(const struct ftl *f) { return f->max_victim_valid; }
/* --gc-tie random: equally good victims are drawn at random (from the
 * policy's generator), not taken oldest first. */
static inline int ftl_tie_random(const struct ftl *f) { return f->tie_random; }
/* The placement's open segment for stream s, FTL_NONE if none. */
static inline uint32_t ftl_stream_seg(const struct ftl *f, unsigned s) { return f->streams[s].seg; }

/*
 * A logical page's last host write, kept once by the model when a
 * policy asks (FTL_KEEP_WRITE_TIME): 4 bytes a page, a stamp in units
 * of 2^shift host writes (exact until the clock passes 2^32; then every
 * stamp is halved once, keeping the order). ftl_write_stamp is that
 * monotone 32-bit stamp (0: never written), ftl_write_time the time it
 * stands for (FTL_NEVER: never written).
 */
static inline uint32_t ftl_write_stamp(const struct ftl *f, uint32_t lpn) { return f->wtime[lpn]; }
static inline uint64_t ftl_write_time(const struct ftl *f, uint32_t lpn)
{
	uint32_t s = f->wtime[lpn];
	return s ? (uint64_t)s << f->wtime_shift : FTL_NEVER;
}

/* What a policy may ask the model to keep (its init's `keep`). */
#define FTL_KEEP_WRITE_TIME 0x1 /* ftl_write_time, and place_write.prev_time */
#define FTL_KEEP_OPEN_TIME 0x2	/* ftl_open_time */
/* A segment's age origin (ftl_age_origin) from the write times of the
 * pages programmed into it, fixed at its seal: the youngest (LFS's age
 * of the youngest block, kept across copies) or their mean (f2fs).
 * Either implies FTL_KEEP_WRITE_TIME. */
#define FTL_KEEP_AGE_YOUNGEST 0x4
#define FTL_KEEP_AGE_MEAN 0x8

/* Where a segment's age counts from: its seal time, unless a policy
 * asked for one of the write-time definitions above. */
static inline uint64_t ftl_age_origin(const struct ftl *f, uint32_t seg)
{
	return f->age_origin ? f->age_origin[seg] : f->seal_time[seg];
}

#endif
