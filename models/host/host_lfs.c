/*
 * host_lfs.c - a log on a log: a log-structured file system between the
 * trace and the device (Yang et al., "Don't stack your log on my log",
 * INFLOW'14). The trace's writes are the file system's block writes;
 * the file system writes them out of place into host segments of the
 * device's logical space, and a host segment cleaner (any victim policy,
 * any placement: the host log is an FTL model of its own, core/) makes
 * room by copying live blocks. The device sees the host log's writes
 * (sequential within a host segment), the cleaner's reads and copies,
 * and, with discard=on, a discard of each host segment it cleaned.
 *
 * The host log is watched through the flash-operation hook: each page
 * the log programs is a device write at that page's address, each page
 * it reads (a copy, a host read) a device read, each segment it erases a
 * device discard of the segment's range. Host WA is the log's WA; device
 * WA the device's; their product what the trace costs the flash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flash.h"
#include "ftlkit.h"
#include "host.h"
#include "registry.h"

struct host {
	struct dev *d;
	const struct dev_ops *dops;
	struct ftl *log;
	struct host_lfs_config c;
	struct host_stats st;
	const struct ev *cur; /* the trace event being served */
	/* device writes of the current event, coalesced while contiguous
	 * (stream: the host log's stream that writes them, the handle they
	 * carry on FDP); the GC's reads likewise (sent before the writes
	 * that follow) */
	struct run {
		uint64_t page, n;
		unsigned stream;
	} w, r;
	uint64_t base, seg_pages, run_max; /* the log's first device page, a segment's pages, a run's most */
	int failed;
	int zoned; /* a zoned device: a cleaned segment's zone is reset, not discarded */
	char err[600];
};

static int lfs_key(void *ctx, const char *k, const char *v, char *err, size_t n)
{
	struct host_lfs_config *c = ctx;
	uint64_t u;
	if (!strcmp(k, "segment")) {
		if (parse_size(v, &u) || !u)
			return set_err(err, n, "segment=%s: a size in bytes (e.g. 2M)", v);
		c->segment_bytes = u;
	} else if (!strcmp(k, "offset")) {
		if (parse_size(v, &u))
			return set_err(err, n, "offset=%s: a size in bytes", v);
		c->offset_bytes = u;
	} else if (!strcmp(k, "policy") || !strcmp(k, "placement")) {
		int pol = !strcmp(k, "policy");
		if (!*v || strlen(v) >= sizeof(c->policy))
			return set_err(err, n, "%s=%s: a %s's name (up to %zu characters)", k, v,
				       pol ? "victim policy" : "placement", sizeof(c->policy) - 1);
		snprintf(pol ? c->policy : c->placement, sizeof(c->policy), "%s", v);
	} else if (!strcmp(k, "discard") && (!strcmp(v, "on") || !strcmp(v, "off")))
		c->discard = !strcmp(v, "on");
	else if (!strcmp(k, "op")) {
		if (parse_double(v, &c->op) || !(c->op > 0 && c->op <= 10))
			return set_err(err, n, "op=%s: the host log's spare space over the file system's, above 0 and at most 10",
				       v);
	} else
		return set_err(err, n, "'%s=%s' (keys: segment=BYTES, policy=NAME, placement=NAME, discard=on|off, "
				       "op=X, offset=BYTES)", k, v);
	return 0;
}

int host_lfs_parse(struct host_lfs_config *c, const char *spec, char *err, size_t n)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->policy, sizeof(c->policy), "greedy");
	snprintf(c->placement, sizeof(c->placement), "single");
	c->discard = 1;
	c->op = 0.07;
	if (kv_parse("--host-lfs", spec, 0, lfs_key, c, err, n))
		return -1;
	if (!c->segment_bytes)
		return set_err(err, n, "--host-lfs %s: segment=BYTES (the host segment) is needed", spec);
	return 0;
}

uint64_t host_lfs_device_pages(const struct host_lfs_config *c, uint64_t fs_pages, uint32_t page_size)
{
	uint64_t hb = c->segment_bytes / page_size;
	uint64_t log = ftl_pages_for_op(fs_pages, c->op);
	return (log + hb - 1) / hb * hb + c->offset_bytes / page_size;
}

/* One request to the device, at the time of the trace event served;
 * stream: the host log's stream that writes it (a write's handle on an
 * FDP device: stream H + 1 is handle H, FORMATS.md), else 0. */
static int send(struct host *h, int op, uint64_t page, uint64_t pages, unsigned stream)
{
	struct ev e = {.t_ns = h->cur ? h->cur->t_ns : 0,
		       .offset = page * h->c.page_size,
		       .length = (uint32_t)(pages * h->c.page_size),
		       .op = (uint8_t)op,
		       .stream = (uint16_t)stream};
	h->st.out[op]++;
	if (h->dops->submit(h->d, &e, 1) != 1)
		return set_err(h->err, sizeof(h->err), "device: %s", h->dops->error(h->d));
	return 0;
}

/* The coalesced run of device reads out. */
static int flush_reads(struct host *h)
{
	uint64_t n = h->r.n;
	h->r.n = 0;
	return n ? send(h, EV_READ, h->r.page, n, 0) : 0;
}

/* The coalesced runs of device reads, then writes, out. */
static int flush_run(struct host *h)
{
	uint64_t n = h->w.n;
	h->w.n = 0;
	return flush_reads(h) || (n && send(h, EV_WRITE, h->w.page, n, h->w.stream + 1)) ? -1 : 0;
}

/* Page p of stream s extends run r: r's next page, of its stream, and r
 * below the most a request carries; else flush (r's and what goes
 * before it) and r starts at p. 0, or -1 with h->err set. */
static inline int add(struct host *h, struct run *r, uint64_t p, unsigned s, int (*flush)(struct host *))
{
	if (r->n && p == r->page + r->n && r->n < h->run_max && s == r->stream &&
	    !(h->zoned && (p - h->base) % h->seg_pages == 0)) { /* (a zoned device's request stays in its zone) */
		r->n++;
		return 0;
	}
	if (flush(h))
		return -1;
	*r = (struct run){.page = p, .n = 1, .stream = s};
	return 0;
}

static int dev_one(struct host *h, int op, uint64_t page, uint64_t pages)
{
	return flush_run(h) || send(h, op, page, pages, 0) ? -1 : 0;
}

/* The host log's flash operations: device requests. */
static inline int on_log(void *ctx, const struct ftl *f, const struct flash_op *op)
{
	struct host *h = ctx;
	uint64_t base = h->base;
	unsigned kind = op->kind, cause = op->cause; /* each byte on its own: the emitter stores them so */
	switch (kind) {
	case FLASH_PROGRAM: {
		if (cause == FLASH_FILL) /* the file system's blocks laid out before the trace: a
					  * block device is preconditioned the same way (ftlsim); a
					  * zoned one, which cannot be, is written them */
			return h->zoned ? add(h, &h->w, base + op->ppn, op->stream, flush_run) : 0;
		if (add(h, &h->w, base + op->ppn, op->stream, flush_run))
			return -1;
		if (cause == FLASH_GC || cause == FLASH_WL)
			h->st.log_gc_pages++;
		else
			h->st.log_host_pages++;
		/* the device measures once it has had --warmup-writes pages:
		 * the log's own counts then (the device's window, within the
		 * request that crossed it) */
		if (__builtin_expect(!h->st.log_measuring, 0) &&
		    h->st.log_host_pages + h->st.log_gc_pages >= h->c.warmup) {
			h->st.log_measuring = 1;
			h->st.log_host_pages0 = h->st.log_host_pages;
			h->st.log_gc_pages0 = h->st.log_gc_pages;
		}
		return 0;
	}
	case FLASH_READ:
		h->st.log_host_read_pages += cause == FLASH_HOST_READ;
		return add(h, &h->r, base + op->ppn, 0, flush_reads);
	case FLASH_ERASE:
		h->st.log_segments_cleaned++;
		if (!h->c.discard)
			return flush_run(h);
		h->st.log_discards++;
		return dev_one(h, h->zoned ? EV_ZONE_RESET : EV_DISCARD, base + (uint64_t)op->seg * h->seg_pages, h->seg_pages);
	}
	return 0;
}

/* The log's operations, handed over in batches (flash.h): in order, as
 * they were done; lfs_submit flushes them after each request. */
static int on_log_batch(void *ctx, const struct ftl *f, const struct flash_op *ops, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (on_log(ctx, f, &ops[i]))
			return -1;
	return 0;
}

static void lfs_close(struct host *h)
{
	if (!h)
		return;
	ftl_free(h->log);
	free(h);
}

static struct host *lfs_open(const char *spec, struct dev *d, const struct dev_ops *dops, char *err, size_t n)
{
	(void)spec;
	set_err(err, n, "host_lfs opens through host_lfs_open (its configuration)");
	return NULL;
}

struct host *host_lfs_open(const struct host_lfs_config *c, uint64_t fs_pages, uint32_t page_size, uint64_t seed,
			   struct ftl_pagemap *map, struct dev *d, const struct dev_ops *dops, char *err, size_t n)
{
	struct host *h = calloc(1, sizeof(*h));
	if (!h) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	h->d = d;
	h->dops = dops;
	h->c = *c;
	h->c.page_size = page_size;
	h->base = c->offset_bytes / page_size;
	h->seg_pages = c->segment_bytes / page_size;
	h->run_max = (1u << 20) / page_size * 8;
	if (c->segment_bytes % page_size || c->offset_bytes % page_size) {
		set_err(err, n, "--host-lfs: segment=%llu and offset=%llu must be whole %u-byte pages",
			(unsigned long long)c->segment_bytes, (unsigned long long)c->offset_bytes, page_size);
		free(h);
		return NULL;
	}
	struct dev_stats ds;
	dops->stats(d, &ds);
	if ((h->zoned = !!(ds.flags & DEV_ZONED)) &&
	    (c->segment_bytes != (uint64_t)ds.pages_per_seg * page_size || c->offset_bytes % c->segment_bytes)) {
		set_err(err, n, "--host-lfs on a zoned device: a host segment is a zone (%u pages), at a zone's start",
			ds.pages_per_seg);
		free(h);
		return NULL;
	}
	if (h->zoned && ds.zone_capacity_pages < ds.pages_per_seg) {
		/* the log writes a segment whole, and a zone takes its capacity only */
		set_err(err, n, "--host-lfs on a zoned device: a host segment is a zone written whole, and a zone of %u "
			"pages takes only its capacity, %u (capacity= below size=)", ds.pages_per_seg,
			ds.zone_capacity_pages);
		free(h);
		return NULL;
	}
	struct ftl_config fc;
	ftl_config_default(&fc);
	fc.logical_pages = fs_pages;
	fc.page_size = page_size;
	fc.pages_per_seg = (uint32_t)(c->segment_bytes / page_size);
	fc.physical_pages = host_lfs_device_pages(c, fs_pages, page_size) - c->offset_bytes / page_size;
	fc.policy = h->c.policy;
	fc.placement = h->c.placement;
	fc.trim = 1; /* the file system knows what it freed */
	fc.seed = seed;
	fc.check = c->check; /* --check: the host log's invariants after every pass, as the device's */
	fc.probe = c->probe;
	fc.oor = c->oor; /* the trace's requests past the file system's pages */
	/* the host log's spare and segments are --host-lfs op= and segment= */
	char advice[160];
	snprintf(advice, sizeof(advice),
		 "raise the host log's spare (--host-lfs op=, now %g) or use smaller host segments (--host-lfs segment=)",
		 c->op);
	fc.spare_advice = advice;
	if (!(h->log = registry_ftl_new(&fc, err, n))) {
		char m[600];
		snprintf(m, sizeof(m), "--host-lfs: the host log: %s", err);
		set_err(err, n, "%s", m);
		free(h);
		return NULL;
	}
	if (h->zoned && ds.zones_max_active && h->log->nstreams > ds.zones_max_active) {
		/* each stream of the log keeps a zone open: more than the device lets be active */
		set_err(err, n, "--host-lfs placement=%s on a zoned device: the host log writes %u streams, each into a zone "
			"of its own, more than max_active=%u zones", h->c.placement, h->log->nstreams, ds.zones_max_active);
		lfs_close(h);
		return NULL;
	}
	h->st.log_measuring = !c->warmup; /* (without a warm-up the window is the run) */
	h->log->map = map; /* the trace's footprint, numbered (or NULL) */
	if (ftl_flash_observe_batch(h->log, on_log_batch, h)) {
		set_err(err, n, "too many flash-operation observers");
		lfs_close(h);
		return NULL;
	}
	return h;
}

/* The device's age (dev.h): 0, or -1 with h->err set. */
static int dev_age(struct host *h, int begin)
{
	return h->dops->age(h->d, begin) ? set_err(h->err, sizeof(h->err), "device: %s", h->dops->error(h->d)) : 0;
}

int host_lfs_precondition(struct host *h, int kind)
{
	if (!h->zoned || !kind)
		return ftl_precondition(h->log, kind) || ftl_flash_flush(h->log) ? -1 : 0;
	/* on zones: the log's fill written to them, its segments in order
	 * (zone writes at their pointers), as an ageing the device's counts
	 * (and a device in time's clock) forget, kept as its precondition's
	 * pages, its flash operations labelled fill */
	if (dev_age(h, DEV_AGE_FILL))
		return -1;
	if (ftl_precondition(h->log, kind) || ftl_flash_flush(h->log))
		return set_err(h->err, sizeof(h->err), "the host log: %s", h->log->err);
	return flush_run(h) || dev_age(h, 0) ? -1 : 0;
}

/* The device's requests for trace event e begin or end (dev.h, group):
 * 0, or -1 with h->err set. */
static int group(struct host *h, const struct ev *e, int begin)
{
	if (h->dops->group && h->dops->group(h->d, e, begin))
		return set_err(h->err, sizeof(h->err), "device: %s", h->dops->error(h->d));
	return 0;
}

enum { LOOK = 32 };

/* The log's map entry of each write is fetched LOOK events ahead (its
 * segment record and the victim index's links too, as the device does
 * for its own in dev_ftl.c, cost more here than they saved: 1.15 s
 * against 1.23 s on tests/bench_host.sh's host log). */
static size_t lfs_submit(struct host *h, const struct ev *e, size_t n)
{
	const struct ftl *f = h->log;
	int64_t pg;
	for (size_t k = 0; k < n && k < LOOK; k++)
		if ((pg = ftl_hint_page(f, &e[k])) >= 0)
			ftl_prefetch(f, (uint32_t)pg);
	for (size_t k = 0; k < n; k++) {
		if (k + LOOK < n && (pg = ftl_hint_page(f, &e[k + LOOK])) >= 0)
			ftl_prefetch(f, (uint32_t)pg);
		h->cur = &e[k];
		h->st.in[e[k].op < EV_NOPS_ALL ? e[k].op : 0]++;
		if (e[k].op == EV_FLUSH) {
			if (dev_one(h, EV_FLUSH, 0, 0))
				return k;
			continue;
		}
		if (group(h, &e[k], 1)) /* the device's requests for this one: one request in time */
			return k;
		uint64_t oor = f->r.out_of_range;
		if (ftl_request(h->log, &e[k]) || ftl_flash_flush(h->log)) {
			if (!h->err[0])
				set_err(h->err, sizeof(h->err), "the host log: %s", h->log->err);
			return k;
		}
		if (flush_run(h))
			return k;
		/* (past the file system and dropped: no request served) */
		if (group(h, &e[k], h->c.oor == OOR_DROP && f->r.out_of_range != oor ? -1 : 0))
			return k;
	}
	h->cur = NULL;
	return n;
}

/* The trace ended: nothing held (the log sends as it writes). */
static int lfs_end(struct host *h) { return flush_run(h); }

static int lfs_idle(struct host *h, uint64_t until_ns) { return h->dops->idle(h->d, until_ns); }

/* An ageing trace through the host log: the file system ages with the
 * device beneath it; after it, the log's counts and the layer's restart
 * (its segments and map stay), then the device's. */
static int lfs_age(struct host *h, int begin)
{
	if (begin)
		return dev_age(h, 1);
	if (flush_run(h))
		return -1;
	if (ftl_restart(h->log) || ftl_flash_flush(h->log))
		return set_err(h->err, sizeof(h->err), "the host log: %s", h->log->err);
	memset(&h->st, 0, sizeof(h->st));
	h->st.log_measuring = !h->c.warmup;
	return dev_age(h, 0);
}

static void lfs_stats(const struct host *h, struct host_stats *st)
{
	*st = h->st;
	st->is_log = 1;
	st->leak_known = 0;
	st->log_wa = ftl_wa(&h->log->c, &(struct ftl_counts){0});
	st->log_segment_pages = h->log->b;
	st->log_pages = h->log->T;
	st->log_mem_bytes = h->log->mem_bytes;
	st->mem_bytes = h->log->mem_bytes; /* (the layer's memory is its log's) */
	/* the whole pages the trace's discards cover, as the log took them */
	st->discard_pages = h->log->r.discard_pages_trimmed + h->log->r.discard_pages_unmapped;
	st->log_out_of_range = h->log->r.out_of_range;
	st->log_read_pages = h->log->r.read_pages;
	st->log_read_holes = st->log_read_pages > h->st.log_host_read_pages ? st->log_read_pages - h->st.log_host_read_pages : 0;
}

static const char *lfs_error(const struct host *h) { return h->err[0] ? h->err : h->dops->error(h->d); }

const struct host_ops host_lfs_ops = {
	.name = "lfs",
	.open = lfs_open,
	.submit = lfs_submit,
	.idle = lfs_idle,
	.end = lfs_end,
	.age = lfs_age,
	.stats = lfs_stats,
	.error = lfs_error,
	.close = lfs_close,
};
