/*
 * dev_ftl.c - the page-mapped FTL model (core/) as a device: the first
 * entry of the device interface (dev.h). Copy this file to start a new
 * device: open builds the model from the configuration (its policies
 * resolved by name in the registry), submit runs a batch of events with
 * the prefetch hints of the events ahead, stats copies the counters out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "ftlkit.h"
#include "place.h"
#include "registry.h"

struct dev {
	struct ftl *f;
	struct dev_observer obs;
	int ageing; /* an ageing trace: no milestone reaches the observer */
	uint64_t origin0[FTL_MAX_STREAMS]; /* origin copies at the restart after ageing */
};

/* The placement's count of the GC copies stream i's writes caused
 * (place.h, origin_copies), or UINT64_MAX when it keeps none. */
static uint64_t origin_copies(const struct ftl *f, unsigned i)
{
	return f->place->origin_copies ? f->place->origin_copies(f->place_st, f, i) : UINT64_MAX;
}

/* The core's milestones, handed to the device's observer. */
static int on_interval(struct ftl *f, void *ctx)
{
	struct dev *d = ctx;
	return d->obs.on_interval && !d->ageing ? d->obs.on_interval(d->obs.ctx) : 0;
}

static int on_snapshot(struct ftl *f, void *ctx)
{
	struct dev *d = ctx;
	return d->obs.on_snapshot && !d->ageing ? d->obs.on_snapshot(d->obs.ctx) : 0;
}

static void ftl_dev_close(struct dev *d)
{
	if (!d)
		return;
	ftl_free(d->f);
	free(d);
}

static struct dev *ftl_dev_open(const struct dev_config *c, char *err, size_t n)
{
	struct dev *d = calloc(1, sizeof(*d));
	if (!d) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	if (!(d->f = registry_ftl_new(&c->ftl, err, n))) {
		free(d);
		return NULL;
	}
	d->f->map = c->map;
	d->obs = c->obs;
	struct ftl_observer o = {.interval = c->obs.interval,
				 .snapshot_every = c->obs.snapshot_every,
				 .on_interval = on_interval,
				 .on_snapshot = on_snapshot,
				 .ctx = d};
	if (ftl_observe(d->f, &o)) {
		set_err(err, n, "%s", d->f->err);
		ftl_dev_close(d);
		return NULL;
	}
	return d;
}

static int ftl_dev_precondition(struct dev *d, int kind) { return ftl_precondition(d->f, kind); }

static int ftl_dev_learn_begin(struct dev *d)
{
	ftl_learn_begin(d->f);
	return 0;
}

static int ftl_dev_learn(struct dev *d, const struct ev *e) { return ftl_request(d->f, e); }

static int ftl_dev_learn_end(struct dev *d) { return ftl_learn_end(d->f); }

enum { LOOK = 32 };

/* Each write's map entry is prefetched LOOK events before the model
 * needs it, its segment record LOOK/2 and the record's neighbours
 * LOOK/4 (ftl.h). */
static size_t ftl_dev_submit(struct dev *d, const struct ev *e, size_t n)
{
	struct ftl *f = d->f;
	int64_t pg;
	for (size_t k = 0; k < n && k < LOOK; k++)
		if ((pg = ftl_hint_page(f, &e[k])) >= 0)
			ftl_prefetch(f, (uint32_t)pg);
	for (size_t k = 0; k < n; k++) {
		if (k + LOOK < n && (pg = ftl_hint_page(f, &e[k + LOOK])) >= 0)
			ftl_prefetch(f, (uint32_t)pg);
		if (k + LOOK / 2 < n && (pg = ftl_hint_page(f, &e[k + LOOK / 2])) >= 0)
			ftl_prefetch_seg(f, (uint32_t)pg);
		if (k + LOOK / 4 < n && (pg = ftl_hint_page(f, &e[k + LOOK / 4])) >= 0)
			ftl_prefetch_links(f, (uint32_t)pg);
		if (ftl_request(f, &e[k]))
			return k;
	}
	return n;
}

/* e[0] with the hints of ftl_dev_submit for the events after it, its
 * operations flushed. */
static size_t ftl_dev_submit_one(struct dev *d, const struct ev *e, size_t n)
{
	struct ftl *f = d->f;
	int64_t pg;
	if (LOOK < n && (pg = ftl_hint_page(f, &e[LOOK])) >= 0)
		ftl_prefetch(f, (uint32_t)pg);
	if (LOOK / 2 < n && (pg = ftl_hint_page(f, &e[LOOK / 2])) >= 0)
		ftl_prefetch_seg(f, (uint32_t)pg);
	if (LOOK / 4 < n && (pg = ftl_hint_page(f, &e[LOOK / 4])) >= 0)
		ftl_prefetch_links(f, (uint32_t)pg);
	int rc = ftl_request(f, e);
	return ftl_flash_flush(f) || rc ? 0 : 1;
}

static void ftl_dev_prefetch(struct dev *d, const struct ev *e, int stage)
{
	int64_t pg = ftl_hint_page(d->f, e);
	if (pg < 0)
		return;
	if (stage == 1)
		ftl_prefetch(d->f, (uint32_t)pg);
	else if (stage == 2)
		ftl_prefetch_seg(d->f, (uint32_t)pg);
	else
		ftl_prefetch_links(d->f, (uint32_t)pg);
}

/* This model cleans only when a write needs room: idle time changes
 * nothing. */
static int ftl_dev_idle(struct dev *d, uint64_t until_ns) { return 0; }

static int ftl_dev_age(struct dev *d, int begin)
{
	d->ageing = begin;
	for (unsigned i = 0; !begin && i < d->f->nstreams; i++)
		d->origin0[i] = origin_copies(d->f, i);
	return begin ? 0 : ftl_restart(d->f);
}

static int ftl_dev_clean(struct dev *d) { return ftl_gc_step(d->f); }

static uint32_t ftl_dev_free_segments(const struct dev *d) { return d->f->nfree; }

static const struct dev_time *ftl_dev_time(struct dev *d) { return NULL; }

static int ftl_dev_flash_observe(struct dev *d, flash_fn fn, void *ctx)
{
	return ftl_flash_observe(d->f, fn, ctx);
}

static int ftl_dev_flash_observe_batch(struct dev *d, flash_batch_fn fn, void *ctx)
{
	return ftl_flash_observe_batch(d->f, fn, ctx);
}

static int ftl_dev_flash_flush(struct dev *d) { return ftl_flash_flush(d->f); }

static void ftl_dev_stats(const struct dev *d, struct dev_stats *st)
{
	const struct ftl *f = d->f;
	memset(st, 0, sizeof(*st));
	st->flags = (f->place->info.flags & PLACE_FUTURE) ? DEV_LEARNS : 0;
	st->logical_pages = f->U;
	st->physical_pages = f->T;
	st->page_size = f->page_size;
	st->pages_per_seg = f->b;
	st->segments = f->nseg;
	st->streams = f->nstreams;
	st->gc_streams = f->gc_streams;
	st->gc_low = f->gc_low;
	st->gc_high = f->gc_high;
	st->gc_batch = f->gc_batch;
	st->gc_ops = f->gc_ops;
	st->gp_max = f->gp_max;
	st->interval = f->obs.interval;
	st->c = f->c;
	st->c0 = f->c0;
	st->ci = f->ci;
	st->measuring = f->measuring;
	st->r = f->r;
	st->precond_pages = f->precond_pages;
	st->gc_passes = f->gc_passes;
	st->gp_watermark_passes = f->gp_watermark_passes;
	st->bg_victims = f->bg_victims;
	st->aged_pages = f->aged_pages;
	st->now_ns = (int64_t)f->write_ns;
	st->free_segments = f->nfree;
	st->sealed_segments = f->nsealed;
	st->erase_max = f->ec_max;
	st->mem_bytes = f->mem_bytes;
}

static void ftl_dev_stream(const struct dev *d, unsigned i, struct dev_stream *out)
{
	const struct ftl *f = d->f;
	const struct ftl_stream *st = &f->streams[i];
	char buf[sizeof(out->name)];
	snprintf(out->name, sizeof(out->name), "%s", ftl_stream_name(f, i, buf, sizeof(buf)));
	out->host_pages = st->host_pages;
	out->gc_pages = st->gc_pages;
	out->sealed = st->sealed;
	out->victims = st->victims;
	out->victim_valid = st->victim_valid;
	uint64_t o = origin_copies(f, i);
	out->origin_gc_pages = o == UINT64_MAX ? o : o - d->origin0[i];
	out->host_pages_measured = f->measuring ? st->host_pages - st->host0 : UINT64_MAX;
	out->origin_gc_pages_measured = f->measuring && o != UINT64_MAX ? o - st->origin0 : UINT64_MAX;
}

static int ftl_dev_hist(const struct dev *d, int kind, uint64_t *bins, size_t nbins)
{
	const struct ftl *f = d->f;
	switch (kind) {
	case DEV_HIST_SEALED:
		if (nbins != (size_t)f->b + 1)
			return -1;
		ftl_sealed_hist(f, bins);
		return 0;
	case DEV_HIST_VICTIMS:
		if (nbins != (size_t)f->b + 1)
			return -1;
		memcpy(bins, f->victim_hist, nbins * sizeof(uint64_t));
		return 0;
	case DEV_HIST_ERASE:
		if (nbins != (size_t)f->ec_max + 1)
			return -1;
		memset(bins, 0, nbins * sizeof(uint64_t));
		for (uint32_t s = 0; s < f->nseg; s++)
			bins[f->erase_count[s]]++;
		return 0;
	}
	return -1;
}

static const char *ftl_dev_error(const struct dev *d) { return d->f->err; }

/* The model's map: the footprint renumbering, then l2p. */
static int ftl_dev_mapped(const struct dev *d, uint64_t page, uint32_t *lpn)
{
	const struct ftl *f = d->f;
	uint32_t l = f->map ? ftl_pagemap_get(f->map, page) : page < f->U ? (uint32_t)page : FTL_NONE;
	if (l == FTL_NONE || l >= f->U)
		return -1;
	*lpn = l;
	return f->l2p[l] != FTL_NONE;
}

const struct dev_ops dev_ftl_ops = {
	.name = "ftl",
	.open = ftl_dev_open,
	.precondition = ftl_dev_precondition,
	.learn_begin = ftl_dev_learn_begin,
	.learn = ftl_dev_learn,
	.learn_end = ftl_dev_learn_end,
	.submit = ftl_dev_submit,
	.submit_one = ftl_dev_submit_one,
	.prefetch = ftl_dev_prefetch,
	.idle = ftl_dev_idle,
	.age = ftl_dev_age,
	.clean = ftl_dev_clean,
	.free_segments = ftl_dev_free_segments,
	.time = ftl_dev_time,
	.flash_observe = ftl_dev_flash_observe,
	.flash_observe_batch = ftl_dev_flash_observe_batch,
	.flash_flush = ftl_dev_flash_flush,
	.stats = ftl_dev_stats,
	.stream = ftl_dev_stream,
	.hist = ftl_dev_hist,
	.error = ftl_dev_error,
	.close = ftl_dev_close,
	.mapped = ftl_dev_mapped,
};
