/*
 * dev.h - the device interface: a storage device behind a table of
 * operations, as fio's ioengine_ops or SQLite's VFS. A program opens a
 * device from a configuration, submits the trace's events to it in
 * order, lets it work while the host is idle, and reads what it did
 * through a stats structure that any device can fill; it reads no
 * member of a device's own state. Today's page-mapped FTL is the first
 * device (dev_ftl.c); a device in time, a zoned device or an FDP device
 * fill the same table.
 *
 * Errors: an operation that fails returns -1 (or, submit, the index of
 * the event that failed) and leaves its message for error(). No
 * operation exits the program.
 */
#ifndef FTLKIT_DEV_H
#define FTLKIT_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "ftl.h"

struct dev;

/* Milestones of a run, in host page writes (the device calls them). */
struct dev_observer {
	uint64_t interval, snapshot_every; /* 0: never */
	int (*on_interval)(void *ctx);	   /* nonzero stops the run */
	int (*on_snapshot)(void *ctx);
	/* A note of the device's while the run goes on (a device in time's
	 * timeline far longer than its requests), or NULL. */
	void (*on_note)(void *ctx, const char *msg);
	void *ctx;
};

struct time_config;

/* A zoned device (dev_zns.c): --zoned size=BYTES[,capacity=BYTES]
 * [,max_open=N][,max_active=N][,finish=pad|free]. */
struct zns_config {
	uint64_t zone_bytes, capacity_bytes; /* capacity 0: the zone's size */
	uint32_t max_open, max_active;	     /* 0: no limit */
	int finish_pad;			     /* a finish programs the rest of the zone */
	int strict;			     /* a write off the pointer is an error (else counted) */
};

struct dev_config {
	struct ftl_config ftl;	   /* geometry, policies by name, GC and TRIM rules */
	const struct time_config *timing; /* a device in time (dev_time.h), or NULL */
	const struct zns_config *zns;	  /* a zoned device (dev_zns.c), or NULL */
	struct ftl_pagemap *map;   /* footprint renumbering (shared, read-only), or NULL */
	struct dev_observer obs;
};

/* Capabilities, in dev_stats.flags. */
#define DEV_AGE_FILL 2 /* age(d, DEV_AGE_FILL): a fill written through the device */
#define DEV_LEARNS 0x1 /* wants the trace once before the replay (learn_*) */
#define DEV_ZONED 0x2  /* zones written at their pointers, reset by the host (dev_zns.c) */

/* What a device did, for the reports: counters since the start (c), at
 * the start of the measured window (c0) and of the current interval
 * (ci); the geometry in effect. */
struct dev_stats {
	unsigned flags;			 /* DEV_* */
	uint64_t logical_pages, physical_pages;
	uint32_t page_size, pages_per_seg, segments;
	unsigned streams, gc_streams;
	uint32_t gc_low, gc_high, gc_batch, gc_ops;
	double gp_max;			 /* 0: the watermark trigger */
	uint64_t interval;		 /* the observer's, as in effect */
	struct ftl_counts c, c0, ci;
	int measuring;			 /* the warm-up is over: c0 holds */
	struct ftl_reqs r;
	uint64_t precond_pages, gc_passes, gp_watermark_passes;
	uint64_t bg_victims;		 /* victims cleaned in idle time (clean) */
	uint64_t aged_pages;		 /* host pages of the ageing trace (age) */
	int64_t now_ns;			 /* the time of the last host page write */
	/* a zoned device (DEV_ZONED) */
	uint64_t zone_resets, zone_finishes, zone_pad_pages, zone_errors, zone_reads_unwritten;
	uint32_t zone_capacity_pages, zones_open, zones_active;
	uint32_t zones_max_active;	 /* its max_active (0: no limit) */
	uint32_t free_segments, sealed_segments;
	uint32_t erase_max;		 /* the largest erase count */
	uint64_t mem_bytes;		 /* what the device allocated */
};

/* One stream's figures. */
struct dev_stream {
	char name[32];
	uint64_t host_pages, gc_pages, sealed, victims, victim_valid;
	/* GC copies of the pages this stream's host writes wrote, wherever
	 * they went (a placement that keeps them: fdp), else UINT64_MAX */
	uint64_t origin_gc_pages;
	/* the two over the measured window (after --warmup-writes), or
	 * UINT64_MAX before it starts (origin_gc_pages_measured: or none kept) */
	uint64_t host_pages_measured, origin_gc_pages_measured;
};

/* Histograms: segments by valid pages (sealed now, or victims in the
 * measured window: pages_per_seg + 1 bins), or by erase count
 * (erase_max + 1 bins). */
enum dev_hist { DEV_HIST_SEALED, DEV_HIST_VICTIMS, DEV_HIST_ERASE };

struct dev_ops {
	const char *name;
	/* A device for c: NULL with a message in err ("out of memory"
	 * names an allocation; anything else, a parameter). */
	struct dev *(*open)(const struct dev_config *c, char *err, size_t n);
	/* Fill every logical page once before the replay (enum
	 * ftl_precond). 0 or -1. */
	int (*precondition)(struct dev *d, int kind);
	/* DEV_LEARNS: the trace once before the replay, event by event
	 * between learn_begin and learn_end. 0 or -1. */
	int (*learn_begin)(struct dev *d);
	int (*learn)(struct dev *d, const struct ev *e);
	int (*learn_end)(struct dev *d);
	/* Events e[0..n) in order: n when all were served, else the index
	 * of the one that failed. The device prefetches what the events
	 * ahead will touch itself. */
	size_t (*submit)(struct dev *d, const struct ev *e, size_t n);
	/* The first of the events e[0..n) for a caller that serves them
	 * one at a time (a device over this one, with work of its own
	 * around each): the hints submit would give for the events ahead,
	 * then e[0] served, and the flash operations it did handed to the
	 * batch observer (flash_flush). 1, or 0 when it failed. NULL:
	 * submit(d, e, 1) does, without the hints. */
	size_t (*submit_one)(struct dev *d, const struct ev *e, size_t n);
	/* A host layer's events for one request of its own (req: its time,
	 * kind and bytes) come between group(d, req, 1) and group(d, req,
	 * 0): a device in time serves them as one request (its reads first,
	 * its latency once); group(d, req, -1) ends one the layer dropped
	 * (past its space, --out-of-range drop): no request served. 0 or
	 * -1. NULL: a device without time, to which every event is its own. */
	int (*group)(struct dev *d, const struct ev *req, int begin);
	/* A hint for a caller that hands the device one event at a time
	 * (several devices take turns): event e comes some events ahead;
	 * stage 1 (furthest) to 3 (nearest). Changes nothing. */
	void (*prefetch)(struct dev *d, const struct ev *e, int stage);
	/* The host is idle until until_ns: work that waits for idle time
	 * (background GC) may run. 0 or -1. */
	int (*idle)(struct dev *d, uint64_t until_ns);
	/* An ageing trace (--precondition-trace): age(d, 1) before its
	 * events (submitted as any), age(d, 0) after: the data stays, the
	 * counts (and a device in time's clock) restart at 0; no milestone
	 * fires in between. age(d, DEV_AGE_FILL) instead of 1: the writes
	 * are a fill that a host layer writes through a device that cannot
	 * fill itself (a host log's --precondition on zones): the device
	 * counts them as its precondition's and its flash-operation hook
	 * labels them FLASH_FILL. 0 or -1. */
	int (*age)(struct dev *d, int begin);
	/* Background work, one step: clean one victim now. 1 cleaned, 0
	 * nothing to clean (or not safely: too few free segments), -1 an
	 * error. NULL: the device cleans only on demand. */
	int (*clean)(struct dev *d);
	/* Free segments now (cheap: a device in time asks per request). */
	uint32_t (*free_segments)(const struct dev *d);
	/* The device's figures in time (dev_time.h), or NULL: a device
	 * that counts only. At the end of the run: the work still queued
	 * is done first. */
	const struct dev_time *(*time)(struct dev *d);
	/* The flash-operation hook (flash.h): 0, or -1 when full. */
	int (*flash_observe)(struct dev *d, flash_fn fn, void *ctx);
	/* Its batch observer (flash.h): 0, or -1 when there is one; and
	 * the operations kept for it handed over: 0 or -1. NULL: the
	 * device has none. */
	int (*flash_observe_batch)(struct dev *d, flash_batch_fn fn, void *ctx);
	int (*flash_flush)(struct dev *d);
	void (*stats)(const struct dev *d, struct dev_stats *st);
	void (*stream)(const struct dev *d, unsigned i, struct dev_stream *out);
	/* Fills nbins bins (as enum dev_hist says); 0, or -1 when nbins is
	 * not the device's count. */
	int (*hist)(const struct dev *d, int kind, uint64_t *bins, size_t nbins);
	const char *(*error)(const struct dev *d);
	void (*close)(struct dev *d);
	/* Page `page` of the trace (its byte offset / page_size) as the
	 * device holds it now: 1 valid (mapped), 0 not, -1 outside its
	 * logical space (out of range, or not in its footprint: it never
	 * holds it). On 0 and 1, *lpn is the device's logical page for it
	 * (< logical_pages; the footprint renumbering applied). Cheap: a
	 * host layer asks per page (host_trim.c, the TRIM leak). */
	int (*mapped)(const struct dev *d, uint64_t page, uint32_t *lpn);
};

/* The page-mapped FTL model (core/) as a device. */
extern const struct dev_ops dev_ftl_ops;
/* A device in time over another (dev_time.c): opens dev_ftl_ops under
 * it from the same configuration, c->timing set. */
extern const struct dev_ops dev_time_ops;
/* A zoned device: no map, no GC (dev_zns.c). */
extern const struct dev_ops dev_zns_ops;
/* What a zoned device of logical_pages allocates (its zones). */
uint64_t zns_mem_bytes(const struct zns_config *c, uint64_t logical_pages, uint32_t page_size);

#endif
