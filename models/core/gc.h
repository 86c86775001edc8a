/*
 * gc.h - victim policies. One file per policy (models/victim/gc_NAME.c)
 * fills a struct gc_ops; models/registry/registry.c lists them, found by
 * name, the first being the default. Adding a policy is one new file and
 * one line there.
 *
 * A policy lives in the room policy.h describes: state allocated by the
 * model (info.state_size), a read-only view of the model, declared
 * arguments, its own generator, failures reported by return code with
 * the message kept in the room (policy_fail). It keeps its own index of
 * the sealed segments so that choosing a victim never scans them all.
 * The model tells it what changes:
 *   on_seal(seg)               seg joins the candidates (ftl_valid set)
 *   on_invalidate(seg, old)    a sealed seg lost one page: old -> old-1
 *   remove(seg)                seg leaves the candidates (wear levelling)
 *   pick(&seg)                 choose a victim and remove it
 * Each returns 0, or -1 after policy_fail. on_invalidate runs once per
 * overwritten page: keep it O(1).
 *
 * Per-segment words. Two 32-bit words in each of the model's segment
 * records are the victim policy's (gc_slot): an index linked through
 * them (greedy's buckets) costs an invalidation one cache line for the
 * segment itself. A policy that stores segment numbers there (links)
 * says so with GC_SLOT_LINKS, and the model's prefetch hints then bring
 * in the linked neighbours ahead of an invalidation (ftl_prefetch_links).
 *
 * What a policy may write. Every hook sees the model as `const struct
 * ftl *`; the one writable thing it is handed (init's in->slots) reaches
 * those two words of each record and nothing else of it (not the valid
 * count, the state or the stream). Everything else it writes is in its
 * room (st): its state and what it allocated there.
 */
#ifndef FTLKIT_GC_H
#define FTLKIT_GC_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"
#include "policy.h"

#define GC_API_VERSION 3

/* Flags, read by the model. */
#define GC_SLOT_LINKS 0x1 /* gc_slot words hold segment numbers (or FTL_NONE) */
#define GC_RANDOM_TIES 0x2 /* breaks ties at random under --gc-tie random (ftl_tie_random) */

/* The victim policy's words in the segment records (init's in->slots):
 * gc_slot(s, seg)[0] and [1]. */
struct gc_slots {
	unsigned char *words; /* the first record's slot words; one record a sizeof(struct ftl_seg) */
};
static inline uint32_t *gc_slot(struct gc_slots s, uint32_t seg)
{
	return (uint32_t *)(void *)(s.words + (size_t)seg * sizeof(struct ftl_seg));
}
/* The model's side: the slots of its records. */
static inline struct gc_slots gc_slots_of(struct ftl_seg *seg)
{
	return (struct gc_slots){(unsigned char *)seg + offsetof(struct ftl_seg, slot)};
}

/* What init receives. */
struct gc_init {
	const struct policy_args *args;
	struct gc_slots slots;
};

/* What init returns to the model. */
struct gc_needs {
	unsigned keep; /* FTL_KEEP_* */
};

struct gc_ops {
	struct policy_info info;
	/* Build the index (no segment sealed yet). Mandatory. */
	int (*init)(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out);
	int (*on_seal)(void *st, const struct ftl *f, uint32_t seg);			      /* mandatory */
	int (*on_invalidate)(void *st, const struct ftl *f, uint32_t seg, uint32_t old); /* optional */
	/* Optional, beside on_invalidate: a sealed seg lost n pages at once
	 * (a discard's run of pages in it): old -> old-n, as n calls of
	 * on_invalidate would leave the index. */
	int (*on_invalidate_n)(void *st, const struct ftl *f, uint32_t seg, uint32_t old, uint32_t n);
	int (*remove)(void *st, const struct ftl *f, uint32_t seg);			      /* mandatory */
	/* *seg = the victim, removed from the index, or FTL_NONE if there
	 * is no candidate. Mandatory. */
	int (*pick)(void *st, const struct ftl *f, uint32_t *seg);
	/* Is the index consistent with the model? 0 ok, -1 with a message
	 * in err (--check). Optional. */
	int (*check)(void *st, const struct ftl *f, char *err, size_t n);
	/* Free what init allocated (the model frees the state). Optional. */
	void (*destroy)(void *st, const struct ftl *f);
};


/*
 * Shared indexes (gc_util.c, gc_agebuckets.c). st is the owning
 * policy's state (their arrays are counted in its room).
 */

/* Doubly-linked list of segments in seal order (fifo, windowed). */
struct seglist {
	uint32_t *prev, *next;
	uint32_t head, tail, n;
};
int seglist_init(void *st, const struct ftl *f, struct seglist *l);
void seglist_push(struct seglist *l, uint32_t seg);
void seglist_unlink(struct seglist *l, uint32_t seg);
int seglist_check(const struct ftl *f, const struct seglist *l, char *err, size_t n);
void seglist_free(struct seglist *l);

/* Array of the sealed segments with swap-remove (random, dchoices). */
struct segarray {
	uint32_t *seg, *pos;
	uint32_t n;
};
int segarray_init(void *st, const struct ftl *f, struct segarray *a);
void segarray_add(struct segarray *a, uint32_t seg);
void segarray_del(struct segarray *a, uint32_t seg);
int segarray_check(const struct ftl *f, const struct segarray *a, char *err, size_t n);
void segarray_free(struct segarray *a);

/* Per-valid-count binary heaps ordered by age origin (ftl_age_origin:
 * the seal time unless the policy keeps a write-time age), oldest on top
 * (cb, cb-sqrt, cat): within one valid count the oldest segment scores
 * best under every age-rewarding policy, so a pick compares b + 1 tops. */
struct agebuckets {
	uint32_t **heap; /* b + 1 heaps of segment numbers */
	uint32_t *len, *cap;
	uint32_t *pos; /* index of seg in its heap */
	uint32_t b;
};
int agebuckets_init(void *st, const struct ftl *f, struct agebuckets *a);
void agebuckets_free(struct agebuckets *a);
int agebuckets_add(void *st, const struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v);
void agebuckets_del(void *st, const struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v);
int agebuckets_check(const struct ftl *f, const struct agebuckets *a, char *err, size_t n);

/*
 * The hooks of a policy whose whole state is one struct agebuckets
 * (cb, cb-sqrt, cat): it differs from the others only in its score.
 * agepol_pick takes the oldest empty segment when one is sealed (it
 * costs nothing to clean: no score may rank it below a partly valid
 * one), O(log n); else it scores the first depth entries of each valid
 * count's heap (1: the tops) with score(f, seg, valid), higher is
 * better; ties go to the fewer valid pages, then the older segment.
 */
int agepol_init(void *st, const struct ftl *f, const struct gc_init *in, struct gc_needs *out);
int agepol_seal(void *st, const struct ftl *f, uint32_t seg);
int agepol_invalidate(void *st, const struct ftl *f, uint32_t seg, uint32_t old);
int agepol_remove(void *st, const struct ftl *f, uint32_t seg);
int agepol_check(void *st, const struct ftl *f, char *err, size_t n);
void agepol_destroy(void *st, const struct ftl *f);
int agepol_pick(void *st, const struct ftl *f, uint32_t *seg, uint32_t depth,
		double (*score)(const struct ftl *f, uint32_t seg, uint32_t valid));

#endif
