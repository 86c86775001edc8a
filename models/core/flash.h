/*
 * flash.h - the flash-operation hook: every operation the model does on
 * flash, as it does it, to the observers registered on the model (a
 * device in time charges each to its die; ftlsim --flash-ops writes
 * them out).
 *
 * The operations and where they come from:
 *   program  a host page write (cause host; fill while --precondition
 *            writes), a GC copy (gc), a wear-levelling copy (wl)
 *   read     a GC or wear-levelling copy's read of its live page (gc,
 *            wl), a host read of a mapped page (host_read: the map
 *            looked up, so its segment is known; unmapped pages are
 *            read from no flash and give no operation)
 *   erase    a segment cleaned by GC (gc) or moved by wear levelling (wl)
 * A GC operation's reads of one victim come before its erase, and its
 * programs after it (the model erases a victim once its live pages are
 * in the buffer). t_ns is the time of the request being served (struct
 * ftl_tag's, or the event's); GC that a request triggers carries its
 * time.
 *
 * With no observer registered the model pays one predictable branch per
 * page; an observer's return value other than 0 stops the run with its
 * message in f->err.
 */
#ifndef FTLKIT_FLASH_H
#define FTLKIT_FLASH_H

#include <stdint.h>

enum flash_kind { FLASH_PROGRAM, FLASH_READ, FLASH_ERASE, FLASH_NKIND };
enum flash_cause { FLASH_HOST, FLASH_GC, FLASH_WL, FLASH_HOST_READ, FLASH_FILL, FLASH_NCAUSE };

struct flash_op {
	uint64_t t_ns;
	uint32_t seg; /* the segment (erase block) */
	uint32_t ppn; /* the physical page; FTL_NONE for an erase */
	uint32_t lpn; /* the logical page; FTL_NONE for an erase */
	uint8_t kind, cause; /* enum flash_kind, enum flash_cause */
	uint8_t stream; /* the stream that writes (program) or wrote (read, erase) the segment */
};

struct ftl;
typedef int (*flash_fn)(void *ctx, const struct ftl *f, const struct flash_op *op);

/* At most FTL_MAX_FLASH_OBS observers, called in the order registered:
 * 0, or -1 when full. */
#define FTL_MAX_FLASH_OBS 4
int ftl_flash_observe(struct ftl *f, flash_fn fn, void *ctx);

/*
 * A batch observer (one at most, beside those above): the operations
 * are kept in the model, in order, and handed to it FTL_FLASH_BATCH at
 * a time at most, when the model's array is full and when its owner
 * calls ftl_flash_flush; for an observer that does little with each
 * operation (a device in time), whose call per operation would cost
 * more than its work. Its owner flushes after each call into the model
 * that can do flash operations, before it needs their effect, and
 * while the state it reads them in is the one they were done in. fn's
 * return value other than 0 is an error as a direct observer's (the
 * flush or the operation that found the array full returns -1).
 */
#define FTL_FLASH_BATCH 64
typedef int (*flash_batch_fn)(void *ctx, const struct ftl *f, const struct flash_op *ops, unsigned n);
/* 0, or -1 when one is registered already. */
int ftl_flash_observe_batch(struct ftl *f, flash_batch_fn fn, void *ctx);
/* The operations kept to the batch observer: 0, or -1 with f->err. */
int ftl_flash_flush(struct ftl *f);

/* "program", "read", "erase"; "host", "gc", "wl", "host_read", "fill". */
const char *flash_kind_name(unsigned k);
const char *flash_cause_name(unsigned c);

#endif
