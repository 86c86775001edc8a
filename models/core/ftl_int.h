/*
 * ftl_int.h - what the model's own files share: the core (ftl.c), the
 * requests (ftl_request.c), wear levelling (ftl_wear.c) and the
 * invariant checker (ftl_check.c). Nothing outside models/ftl*.c
 * includes it; policies see the model through policy.h.
 */
#ifndef FTLKIT_FTL_INT_H
#define FTLKIT_FTL_INT_H

#include "ftl.h"

/* A message in f->err; returns -1. */
int ftl_err(struct ftl *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A victim policy's hook failed in room (f->gc_st, or with a class
 * selector one stream's: ftl_gc_room) or the placement's did: its
 * message, named, in f->err; -1. */
int ftl_gc_failed(struct ftl *f, void *room);
int ftl_place_failed(struct ftl *f);

/* The record of one flash operation (a host program during
 * --precondition is a fill). */
static inline struct flash_op ftl_flash_op(const struct ftl *f, unsigned kind, unsigned cause, uint32_t seg,
					   uint32_t ppn, uint32_t lpn, unsigned stream)
{
	return (struct flash_op){.t_ns = f->now_ns,
				 .seg = seg,
				 .ppn = ppn,
				 .lpn = lpn,
				 .kind = (uint8_t)kind,
				 .cause = (uint8_t)(cause == FLASH_HOST && f->precond_active ? FLASH_FILL : cause),
				 .stream = (uint8_t)stream};
}

/* One flash operation to the observers (flash.h), when there are any:
 * 0, or -1 with f->err set. A host program during --precondition is
 * told as a fill. */
int ftl_flash_emit(struct ftl *f, unsigned kind, unsigned cause, uint32_t seg, uint32_t ppn, uint32_t lpn,
		   unsigned stream);
/* The same with an observer registered (f->nflash): for the batch
 * observer alone the operation is kept here, inline, while the array
 * has room. */
static inline __attribute__((always_inline)) int ftl_flash_to(struct ftl *f, unsigned kind, unsigned cause,
							      uint32_t seg, uint32_t ppn, uint32_t lpn,
							      unsigned stream)
{
	if (f->flash_batch_only && f->nbatched < FTL_FLASH_BATCH) {
		f->batched[f->nbatched++] = ftl_flash_op(f, kind, cause, seg, ppn, lpn, stream);
		return 0;
	}
	return ftl_flash_emit(f, kind, cause, seg, ppn, lpn, stream);
}
static inline int ftl_flash(struct ftl *f, unsigned kind, unsigned cause, uint32_t seg, uint32_t ppn,
			    uint32_t lpn, unsigned stream)
{
	return f->nflash ? ftl_flash_to(f, kind, cause, seg, ppn, lpn, stream) : 0;
}

/* The GC pass's steps that wear levelling reuses (ftl.c): clean one
 * segment (wl: a wear-levelling move, not a victim), and write out the
 * copies of a PLACE_SORT pass in key order. 0 or -1. */
int ftl_clean(struct ftl *f, uint32_t seg, int wl);
int ftl_writeout_sorted(struct ftl *f, int wl);

/* ftl_request has written a write request's pages while in_request
 * (--gc-ops N under gp:P): clears it and runs the request's GC
 * operations. 0 or -1. */
int ftl_request_written(struct ftl *f);

/* Static wear levelling (ftl_wear.c): lists of sealed segments per
 * erase count. init: 0 or -1 out of memory. */
int ftl_wear_init(struct ftl *f);
void ftl_wear_free(struct ftl *f);
void ftl_wear_sealed(struct ftl *f, uint32_t seg);
/* seg is about to be erased (its count goes up by one). 0 or -1. */
int ftl_wear_erasing(struct ftl *f, uint32_t seg);
/* At the start of a GC pass: move one least-worn segment if the spread
 * passed the threshold. 0 or -1. */
int ftl_wear_level(struct ftl *f);

#endif
