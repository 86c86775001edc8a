/*
 * host.h - the host interface: a layer between the trace and a device
 * (dev.h) that turns each event into zero or more device events and
 * keeps its own ledger of what it did: a TRIM policy, a host-side
 * placement, a file system's log. It owns no device: it is stacked on
 * one that the program opened, and forwards idle time to it.
 *
 * The pass-through host (host_pass.c) hands every event on as it is:
 * the layer a program uses when the trace is what the device sees. The
 * TRIM host (host_trim.c) decides when and how the trace's discards
 * reach the device, and measures the pages they leave valid there.
 */
#ifndef FTLKIT_HOST_H
#define FTLKIT_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

struct host;

/* The host's ledger: events in (from the trace) and out (to the
 * device), by operation (enum ev_op, zone operations included); what it
 * did to the discards (0 for a layer that passes them on); the leak.
 * Pages are the device's (dev_stats.page_size); a discard's pages are
 * those it covers whole, as the device trims them. */
struct host_stats {
	uint64_t in[EV_NOPS_ALL], out[EV_NOPS_ALL];
	uint64_t discard_pages;		/* whole pages the trace's discards cover */
	uint64_t discards_held;		/* trace discards held for a batch or a delay */
	uint64_t batches;		/* batches sent (batch mode; the end's included) */
	uint64_t discards_dropped;	/* nothing left once aligned to the granularity */
	uint64_t discard_pages_dropped; /* whole pages the alignment cut off */
	uint64_t discards_split;	/* split in pieces of at most the maximum */
	uint64_t discards_lost;		/* pieces that never reached the device */
	uint64_t discard_pages_lost;	/* whole pages of those */
	uint64_t discard_pages_rewritten; /* held pages written again before sent */
	uint64_t discard_pages_pending; /* held now */
	/* The leak: pages the host has discarded (and not written again)
	 * that the device holds valid; now, the largest an event of the
	 * trace found, and its mean over the trace's page writes (the leak
	 * each found). leak_known 0: the layer does not measure it. */
	int leak_known;
	uint64_t leak_pages, leak_peak;
	double leak_mean;		/* -1: no page written */
	uint64_t mem_bytes;		/* what the layer allocated */
	/* a host log (host_lfs.c): is_log, and what its log did */
	int is_log;
	uint64_t log_host_pages, log_gc_pages, log_segments_cleaned, log_discards;
	uint64_t log_pages, log_mem_bytes;
	uint64_t log_out_of_range; /* the trace's requests past the file system (--out-of-range) */
	/* the pages the trace read, and of those the holes: pages the log
	 * holds no data for, read without a device read */
	uint64_t log_read_pages, log_read_holes, log_host_read_pages;
	/* the log's page writes when the device's measured window began
	 * (its page writes reached --warmup-writes); log_measuring once it has */
	int log_measuring;
	uint64_t log_host_pages0, log_gc_pages0;
	uint32_t log_segment_pages;
	double log_wa;
};

struct host_ops {
	const char *name;
	/* A layer on device d (ops dops): NULL with a message in err. */
	struct host *(*open)(const char *spec, struct dev *d, const struct dev_ops *dops, char *err, size_t n);
	/* Events e[0..n) in order: n when all were served, else the index
	 * of the one that failed (its message from error()). */
	size_t (*submit)(struct host *h, const struct ev *e, size_t n);
	/* The trace is idle until until_ns: the layer's own idle work, then
	 * the device's. 0 or -1. */
	int (*idle)(struct host *h, uint64_t until_ns);
	/* The trace has ended: what the layer still holds goes to the
	 * device. 0 or -1 (its message from error()). */
	int (*end)(struct host *h);
	/* An ageing trace (--precondition-trace) through the layer: age(h,
	 * 1) before its events (submitted as any), age(h, 0) after, the
	 * layer's data kept and its counts restarted, as the device's age
	 * (dev.h), which it calls (the TRIM host: its discards shaped as
	 * the trace's, the leak kept). 0 or -1. NULL: the ageing trace goes
	 * to the device as it is (a layer whose state is the device's). */
	int (*age)(struct host *h, int begin);
	void (*stats)(const struct host *h, struct host_stats *st);
	const char *(*error)(const struct host *h);
	void (*close)(struct host *h);
};

extern const struct host_ops host_pass_ops;
/* The TRIM host (host_trim.c, host_trim.h): open takes a spec that
 * trim_config_format wrote. */
extern const struct host_ops host_trim_ops;

/* A log-structured file system on the device (host_lfs.c): --host-lfs
 * segment=BYTES,policy=NAME,placement=NAME,discard=on|off,op=X,offset=BYTES. */
struct host_lfs_config {
	uint64_t segment_bytes, offset_bytes;
	char policy[64], placement[64];
	int discard;
	double op; /* the host log's pages = the file system's x (1 + op) */
	uint32_t page_size;
	int check; /* ftlsim --check: the host log checked as the device is */
	int probe; /* built only to be refused or freed (ftl_config.probe) */
	int oor;   /* --out-of-range: the trace's requests past the file system (enum ftl_oor) */
	uint64_t warmup; /* the device's --warmup-writes: its page writes before measuring */
};
extern const struct host_ops host_lfs_ops;
int host_lfs_parse(struct host_lfs_config *c, const char *spec, char *err, size_t n);
/* The device's logical pages the log needs: the file system's pages
 * plus the log's spare, in whole host segments, after the offset. */
uint64_t host_lfs_device_pages(const struct host_lfs_config *c, uint64_t fs_pages, uint32_t page_size);
struct host *host_lfs_open(const struct host_lfs_config *c, uint64_t fs_pages, uint32_t page_size, uint64_t seed,
			   struct ftl_pagemap *map, struct dev *d, const struct dev_ops *dops, char *err, size_t n);
/* Lay the file system's blocks out in the log before the trace
 * (enum ftl_precond), as the device is preconditioned. 0 or -1. */
int host_lfs_precondition(struct host *h, int kind);

#endif
