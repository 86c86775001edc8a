/*
 * gc.h - victim policies. One file per policy (gc_NAME.c) fills a
 * struct gc_ops; gc_table.c lists them, found by name, the first being
 * the default. Adding a policy is one new file and one line there.
 *
 * A policy keeps its own index of the sealed segments so that choosing
 * a victim never scans them all. The model tells it what changes:
 *   on_seal(seg)               seg joins the candidates (valid[seg] set)
 *   on_invalidate(seg, old)    a sealed seg lost one page: old -> old-1
 *   remove(seg)                seg leaves the candidates (wear levelling)
 *   pick()                     choose a victim and remove it
 * on_invalidate runs once per overwritten page: keep it O(1).
 */
#ifndef FTLKIT_GC_H
#define FTLKIT_GC_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"

#define GC_API_VERSION 1

/* Capability flags. */
#define GC_ARG 0x1	/* takes ":ARG" (optional unless GC_ARG_REQUIRED) */
#define GC_ARG_REQUIRED 0x2
#define GC_RANDOM 0x4	/* draws from the model's seeded generator */

struct gc_ops {
	const char *name;
	const char *desc;
	unsigned version; /* GC_API_VERSION */
	unsigned flags;
	/* Build the index for f (no segment sealed yet); arg is the text
	 * after ':' or NULL. 0 ok, -1 with a message in err. Mandatory. */
	int (*init)(struct ftl *f, const char *arg, void **st, char *err, size_t n);
	void (*on_seal)(struct ftl *f, void *st, uint32_t seg);			      /* mandatory */
	void (*on_invalidate)(struct ftl *f, void *st, uint32_t seg, uint32_t old);    /* optional */
	void (*remove)(struct ftl *f, void *st, uint32_t seg);			      /* mandatory */
	uint32_t (*pick)(struct ftl *f, void *st); /* FTL_NONE if no candidate; mandatory */
	/* Is the index consistent with f? 0 ok, -1 with a message. Optional. */
	int (*check)(struct ftl *f, void *st, char *err, size_t n);
	void (*destroy)(struct ftl *f, void *st);
};

extern const struct gc_ops *const gc_table[];
/* Find "NAME" or "NAME:ARG"; *arg points into spec after ':' or NULL. */
const struct gc_ops *gc_find(const char *spec, const char **arg);
int gc_table_check(char *err, size_t n);

/*
 * Shared indexes (gc_util.c, gc_agebuckets.c).
 */

/* Doubly-linked list of segments in seal order (fifo, windowed). */
struct seglist {
	uint32_t *prev, *next;
	uint32_t head, tail, n;
};
int seglist_init(struct ftl *f, struct seglist *l);
void seglist_push(struct seglist *l, uint32_t seg);
void seglist_unlink(struct seglist *l, uint32_t seg);
int seglist_check(struct ftl *f, const struct seglist *l, char *err, size_t n);

/* Array of the sealed segments with swap-remove (random, dchoices). */
struct segarray {
	uint32_t *seg, *pos;
	uint32_t n;
};
int segarray_init(struct ftl *f, struct segarray *a);
void segarray_add(struct segarray *a, uint32_t seg);
void segarray_del(struct segarray *a, uint32_t seg);
int segarray_check(struct ftl *f, const struct segarray *a, char *err, size_t n);

/* Per-valid-count binary heaps ordered by seal time, oldest on top
 * (cb, cb-sqrt, cat): within one valid count the oldest segment scores
 * best under every age-rewarding policy, so a pick compares b + 1 tops. */
struct agebuckets {
	uint32_t **heap; /* b + 1 heaps of segment numbers */
	uint32_t *len, *cap;
	uint32_t *pos; /* index of seg in its heap */
	uint32_t b;
	int oom; /* an add failed: the next pick reports it */
};
int agebuckets_init(struct ftl *f, struct agebuckets *a);
void agebuckets_free(struct agebuckets *a);
int agebuckets_add(struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v);
void agebuckets_del(struct ftl *f, struct agebuckets *a, uint32_t seg, uint32_t v);
int agebuckets_check(struct ftl *f, const struct agebuckets *a, char *err, size_t n);

/*
 * The hooks of a policy whose whole state is one struct agebuckets
 * (cb, cb-sqrt, cat): it differs from the others only in its score.
 * agepol_pick scores the first depth entries of each valid count's heap
 * (1: the tops) with score(f, seg, valid), higher is better; ties go to
 * the fewer valid pages, then the older segment.
 */
int agepol_init(struct ftl *f, const char *arg, void **st, char *err, size_t n);
void agepol_seal(struct ftl *f, void *st, uint32_t seg);
void agepol_invalidate(struct ftl *f, void *st, uint32_t seg, uint32_t old);
void agepol_remove(struct ftl *f, void *st, uint32_t seg);
int agepol_check(struct ftl *f, void *st, char *err, size_t n);
void agepol_destroy(struct ftl *f, void *st);
uint32_t agepol_pick(struct ftl *f, void *st, const char *name, uint32_t depth,
		     double (*score)(const struct ftl *f, uint32_t seg, uint32_t valid));

#endif
