/*
 * dev_zns.c - a zoned device (NVMe ZNS, SMR's host-managed zones): the
 * logical space in zones, each written only at its write pointer, made
 * writable again only by a reset (its erase), as the host says. No map
 * and no garbage collector: the device writes what the host writes, so
 * its WA is 1, and above 1 only by what a zone finish pads (finish=pad).
 *
 * Zone operations (event ops EV_ZONE_*): reset (the write pointer to 0,
 * the zone erased), open (explicitly; a write opens a zone implicitly),
 * finish (the write pointer to the zone's capacity: the zone full; with
 * finish=pad the device programs the rest), append (a write at the
 * pointer, whatever the offset says). A write not at its zone's pointer,
 * or into a full zone, is an error (exit 1 with the event), or with
 * strict off (ftlsim --skip-bad) counted and dropped. At most max_open
 * zones are open (an implicitly opened zone is closed to open another)
 * and max_active open or closed (partly written): a write that would
 * pass max_active is an error. Reads of pages past a zone's pointer read
 * nothing (counted). Discards are counted and ignored.
 *
 * Its flash operations go to observers as the FTL's do (flash.h): a
 * program per page written or padded, a read per page read, an erase
 * per reset of a written zone, so that a device in time charges them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "ftlkit.h"

enum zstate { Z_EMPTY, Z_IOPEN, Z_EOPEN, Z_CLOSED, Z_FULL };

struct zone {
	uint32_t wp; /* pages written */
	uint8_t state;
	uint32_t erases;
	uint64_t used; /* last write, for closing the least recently used */
};

struct obs {
	flash_fn fn;
	void *ctx;
};

struct dev {
	struct zns_config c;
	uint32_t page_size, zpages, zcap; /* pages a zone spans, and may hold */
	uint32_t nzones;
	uint64_t logical_pages;
	struct zone *z;
	uint32_t nopen, nactive;
	uint64_t clock;
	struct ftl_counts cnt, c0; /* c0: at the warm-up's end (--warmup-writes) */
	int ageing;		   /* age(): 0, 1 (an ageing trace) or DEV_AGE_FILL */
	uint64_t precond_pages, aged_pages; /* pages programmed by each kind of ageing */
	uint64_t warmup;
	int measuring;
	struct ftl_reqs r;
	struct dev_observer dobs;
	uint64_t next_interval;
	struct obs obs[FTL_MAX_FLASH_OBS];
	unsigned nobs;
	uint64_t resets, finishes, pad_pages, zone_errors, reads_unwritten, discards_ignored;
	uint32_t erase_max;
	uint64_t mem_bytes;
	int check;	     /* --check: the zones' invariants after every event */
	uint64_t checked;    /* events since the last whole recount */
	char err[512];
};

uint64_t zns_mem_bytes(const struct zns_config *c, uint64_t logical_pages, uint32_t page_size)
{
	uint64_t zp = c->zone_bytes / page_size;
	return sizeof(struct dev) + (zp ? (logical_pages + zp - 1) / zp : 0) * sizeof(struct zone);
}

static int emit(struct dev *d, unsigned kind, unsigned cause, uint32_t zone, uint32_t page, int64_t t)
{
	struct flash_op op = {.t_ns = (uint64_t)t,
			      .seg = zone,
			      .ppn = kind == FLASH_ERASE ? UINT32_MAX : zone * d->zpages + page,
			      .lpn = kind == FLASH_ERASE ? UINT32_MAX : zone * d->zpages + page,
			      .kind = (uint8_t)kind,
			      .cause = (uint8_t)(cause == FLASH_HOST && d->ageing == DEV_AGE_FILL ? FLASH_FILL : cause)};
	for (unsigned i = 0; i < d->nobs; i++)
		if (d->obs[i].fn(d->obs[i].ctx, NULL, &op))
			return set_err(d->err, sizeof(d->err), "a flash-operation observer failed");
	return 0;
}

static void zns_close(struct dev *d)
{
	if (!d)
		return;
	free(d->z);
	free(d);
}

static struct dev *zns_open(const struct dev_config *c, char *err, size_t n)
{
	const struct zns_config *zc = c->zns;
	if (!zc) {
		set_err(err, n, "a zoned device needs its zone configuration");
		return NULL;
	}
	struct dev *d = calloc(1, sizeof(*d));
	if (!d) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	d->c = *zc;
	d->page_size = c->ftl.page_size;
	d->check = c->ftl.check;
	d->warmup = c->ftl.warmup_writes;
	d->measuring = !d->warmup;
	if (zc->zone_bytes % d->page_size || zc->capacity_bytes % d->page_size || !zc->zone_bytes) {
		set_err(err, n, "--zoned: the zone size %llu and capacity %llu must be whole %u-byte pages",
			(unsigned long long)zc->zone_bytes, (unsigned long long)zc->capacity_bytes, d->page_size);
		free(d);
		return NULL;
	}
	d->zpages = (uint32_t)(zc->zone_bytes / d->page_size);
	d->zcap = zc->capacity_bytes ? (uint32_t)(zc->capacity_bytes / d->page_size) : d->zpages;
	if (d->zcap > d->zpages) {
		set_err(err, n, "--zoned: a zone's capacity (%u pages) above its size (%u)", d->zcap, d->zpages);
		free(d);
		return NULL;
	}
	/* the device's zones: the logical space, whole zones */
	d->nzones = (uint32_t)((c->ftl.logical_pages + d->zpages - 1) / d->zpages);
	d->logical_pages = (uint64_t)d->nzones * d->zpages;
	if (!(d->z = calloc(d->nzones, sizeof(*d->z)))) {
		set_err(err, n, "out of memory");
		free(d);
		return NULL;
	}
	d->mem_bytes = sizeof(*d) + (uint64_t)d->nzones * sizeof(*d->z);
	d->dobs = c->obs;
	d->next_interval = c->obs.interval;
	return d;
}

/* A zone leaves the open states (closed, or full). */
static void unopen(struct dev *d, struct zone *z)
{
	if (z->state == Z_IOPEN || z->state == Z_EOPEN)
		d->nopen--;
}

static int fail(struct dev *d, const struct ev *e, const char *fmt, uint32_t zone, uint64_t a, uint64_t b)
{
	if (!d->c.strict) {
		d->zone_errors++;
		return 0;
	}
	char what[400];
	snprintf(what, sizeof(what), fmt, (unsigned long long)a, (unsigned long long)b);
	return set_err(d->err, sizeof(d->err), "zone %u: %s (%s at byte %llu, length %u)", zone, what,
		       e->op == EV_ZONE_APPEND ? "zone append" : "write", (unsigned long long)e->offset, e->length);
}

/* Zone z open for writing: implicitly, within the limits. 0, 1 refused
 * (counted), -1 error. */
static int open_zone(struct dev *d, const struct ev *e, uint32_t zi, int explicit)
{
	struct zone *z = &d->z[zi];
	if (z->state == Z_IOPEN || z->state == Z_EOPEN)
		return 0;
	if (z->state == Z_FULL)
		return fail(d, e, "the zone is full (%llu of %llu pages written; a zone is written again only after a "
				  "reset: a trace of random writes needs a file system's log above the zones, "
				  "--host-lfs segment=ZONE)", zi, z->wp, d->zcap) ? -1 : 1;
	if (z->state == Z_EMPTY && d->c.max_active && d->nactive >= d->c.max_active)
		return fail(d, e, "%llu zones active, the most the device allows is %llu", zi, d->nactive,
			    d->c.max_active) ? -1 : 1;
	if (d->c.max_open && d->nopen >= d->c.max_open) {
		/* close the least recently written implicitly open zone */
		uint32_t best = UINT32_MAX;
		for (uint32_t i = 0; i < d->nzones; i++)
			if (d->z[i].state == Z_IOPEN && (best == UINT32_MAX || d->z[i].used < d->z[best].used))
				best = i;
		if (best == UINT32_MAX)
			return fail(d, e, "%llu zones open explicitly, the most the device allows is %llu", zi, d->nopen,
				    d->c.max_open) ? -1 : 1;
		d->z[best].state = Z_CLOSED;
		d->nopen--;
	}
	if (z->state == Z_EMPTY)
		d->nactive++;
	z->state = explicit ? Z_EOPEN : Z_IOPEN;
	d->nopen++;
	return 0;
}

static int full(struct dev *d, struct zone *z)
{
	unopen(d, z);
	if (z->state != Z_EMPTY && z->state != Z_FULL)
		d->nactive--;
	z->state = Z_FULL;
	return 0;
}

/* Pages [p, p + n) of zone zi at its pointer. */
static int write_zone(struct dev *d, const struct ev *e, uint32_t zi, uint32_t p, uint32_t n, int append)
{
	struct zone *z = &d->z[zi];
	int rc = open_zone(d, e, zi, 0);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (append)
		p = z->wp;
	if (p != z->wp)
		return fail(d, e, "a write at page %llu, the write pointer at %llu (a zone takes its writes in order "
				  "at its pointer: a trace of random writes needs --host-lfs segment=ZONE above it)", zi, p, z->wp);
	if (z->wp + n > d->zcap)
		return fail(d, e, "a write past the zone's capacity (%llu pages written, %llu in it)", zi, z->wp + n,
			    d->zcap);
	for (uint32_t i = 0; i < n; i++)
		if (d->nobs && emit(d, FLASH_PROGRAM, FLASH_HOST, zi, z->wp + i, e->t_ns))
			return -1;
	z->wp += n;
	z->used = ++d->clock;
	d->cnt.host_pages += n;
	if (!d->measuring && d->cnt.host_pages >= d->warmup) { /* the measured window opens after this write */
		d->measuring = 1;
		d->c0 = d->cnt;
	}
	if (z->wp == d->zcap)
		full(d, z);
	return 0;
}

static int milestone(struct dev *d)
{
	while (d->dobs.interval && d->cnt.host_pages >= d->next_interval) {
		d->next_interval += d->dobs.interval;
		if (d->dobs.on_interval && d->dobs.on_interval(d->dobs.ctx))
			return -1;
	}
	return 0;
}

static int one(struct dev *d, const struct ev *e)
{
	uint64_t first = e->offset / d->page_size, end = (e->offset + e->length + d->page_size - 1) / d->page_size;
	if (e->op == EV_FLUSH) {
		d->r.flushes++;
		return 0;
	}
	if (first >= d->logical_pages || (e->op <= EV_DISCARD && end > d->logical_pages))
		return set_err(d->err, sizeof(d->err), "%s at byte %llu, length %u, past the zoned device's %u zones",
			       e->op == EV_READ ? "read" : e->op == EV_WRITE ? "write" : "request",
			       (unsigned long long)e->offset, e->length, d->nzones);
	uint32_t zi = (uint32_t)(first / d->zpages);
	struct zone *z = &d->z[zi];
	switch (e->op) {
	case EV_READ:
		d->r.reads++;
		d->r.read_pages += end - first;
		for (uint64_t p = first; p < end; p++) {
			uint32_t zp = (uint32_t)(p / d->zpages), off = (uint32_t)(p % d->zpages);
			if (off >= d->z[zp].wp)
				d->reads_unwritten++;
			else if (d->nobs && emit(d, FLASH_READ, FLASH_HOST_READ, zp, off, e->t_ns))
				return -1;
		}
		return 0;
	case EV_WRITE:
	case EV_ZONE_APPEND:
		d->r.writes++;
		if (!e->length) { /* writes nothing, as on a block device */
			d->r.zero_length++;
			return 0;
		}
		if ((end - 1) / d->zpages != zi)
			return fail(d, e, "a write across zones %llu and %llu", zi, zi, (end - 1) / d->zpages);
		if (write_zone(d, e, zi, (uint32_t)(first % d->zpages), (uint32_t)(end - first), e->op == EV_ZONE_APPEND))
			return -1;
		return milestone(d);
	case EV_DISCARD:
		d->r.discards++;
		d->discards_ignored++;
		return 0;
	case EV_ZONE_RESET:
		d->resets++;
		if (z->wp) {
			if (d->nobs && emit(d, FLASH_ERASE, FLASH_GC, zi, 0, e->t_ns))
				return -1;
			z->erases++;
			if (z->erases > d->erase_max)
				d->erase_max = z->erases;
			d->cnt.victims++; /* a victim the host emptied: no valid page, */
			d->cnt.victims_empty++; /* so none read (write cost) */
		}
		unopen(d, z);
		if (z->state != Z_EMPTY && z->state != Z_FULL)
			d->nactive--;
		z->state = Z_EMPTY;
		z->wp = 0;
		return 0;
	case EV_ZONE_OPEN:
		return open_zone(d, e, zi, 1) < 0 ? -1 : 0;
	case EV_ZONE_FINISH:
		d->finishes++;
		if (z->state == Z_FULL)
			return 0;
		if (d->c.finish_pad) { /* the device programs the rest of the zone */
			for (uint32_t p = z->wp; p < d->zcap; p++)
				if (d->nobs && emit(d, FLASH_PROGRAM, FLASH_GC, zi, p, e->t_ns))
					return -1;
			d->pad_pages += d->zcap - z->wp;
			d->cnt.gc_pages += d->zcap - z->wp;
		}
		z->wp = d->zcap; /* (an empty zone goes to full without being active) */
		return full(d, z);
	}
	return set_err(d->err, sizeof(d->err), "operation %u unknown to the zoned device", e->op);
}

/* --check: a zone's pointer within its capacity and its state agreeing
 * with it (empty at 0, full exactly at the capacity); every 4096 events, the open and active zones
 * recounted against the counts the limits are enforced on. */
static int check_zone(struct dev *d, uint32_t zi)
{
	const struct zone *z = &d->z[zi];
	int ok = z->wp <= d->zcap && (z->state == Z_FULL) == (z->wp == d->zcap) &&
		 (z->state != Z_EMPTY || z->wp == 0) && (z->state != Z_CLOSED || z->wp < d->zcap);
	return ok ? 0 : set_err(d->err, sizeof(d->err), "--check: zone %u: write pointer %u of %u in state %u", zi, z->wp,
				d->zcap, z->state);
}

static int check_all(struct dev *d)
{
	uint32_t open = 0, active = 0;
	for (uint32_t i = 0; i < d->nzones; i++) {
		if (check_zone(d, i))
			return -1;
		open += d->z[i].state == Z_IOPEN || d->z[i].state == Z_EOPEN;
		active += d->z[i].state == Z_IOPEN || d->z[i].state == Z_EOPEN || d->z[i].state == Z_CLOSED;
	}
	if (open != d->nopen || active != d->nactive || (d->c.max_open && open > d->c.max_open) ||
	    (d->c.max_active && active > d->c.max_active))
		return set_err(d->err, sizeof(d->err), "--check: %u zones open (counted %u, at most %u), %u active (counted %u, at most %u)",
			       open, d->nopen, d->c.max_open, active, d->nactive, d->c.max_active);
	return 0;
}

static size_t zns_submit(struct dev *d, const struct ev *e, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (one(d, &e[k]))
			return k;
		if (d->check) {
			uint64_t first = e[k].offset / d->page_size;
			if ((first < d->logical_pages && check_zone(d, (uint32_t)(first / d->zpages))) ||
			    (++d->checked % 4096 == 0 && check_all(d)))
				return k;
		}
	}
	return n;
}

static int zns_precondition(struct dev *d, int kind)
{
	(void)d;
	(void)kind;
	return 0; /* a zoned device starts with every zone empty */
}
static int zns_learn_begin(struct dev *d) { return set_err(d->err, sizeof(d->err), "a zoned device learns nothing"); }
static int zns_learn(struct dev *d, const struct ev *e) { return -1; }
static int zns_learn_end(struct dev *d) { return -1; }
static void zns_prefetch(struct dev *d, const struct ev *e, int stage) {}
static int zns_idle(struct dev *d, uint64_t until_ns) { return 0; }
static int zns_age(struct dev *d, int begin)
{
	if (begin) {
		d->ageing = begin;
		return 0;
	}
	if (d->ageing == DEV_AGE_FILL)
		d->precond_pages += d->cnt.host_pages;
	else
		d->aged_pages += d->cnt.host_pages;
	d->ageing = 0;
	memset(&d->cnt, 0, sizeof(d->cnt));
	memset(&d->r, 0, sizeof(d->r));
	d->resets = d->finishes = d->pad_pages = d->zone_errors = d->reads_unwritten = d->discards_ignored = 0;
	d->next_interval = d->dobs.interval;
	memset(&d->c0, 0, sizeof(d->c0));
	d->measuring = !d->warmup;
	return 0;
}
static int zns_clean(struct dev *d) { return 0; }
static uint32_t zns_free(const struct dev *d)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < d->nzones; i++)
		n += d->z[i].state == Z_EMPTY;
	return n;
}
static const struct dev_time *zns_time(struct dev *d) { return NULL; }

static int zns_flash_observe(struct dev *d, flash_fn fn, void *ctx)
{
	if (d->nobs == FTL_MAX_FLASH_OBS)
		return -1;
	d->obs[d->nobs++] = (struct obs){fn, ctx};
	return 0;
}

static void zns_stats(const struct dev *d, struct dev_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->flags = DEV_ZONED;
	st->logical_pages = st->physical_pages = d->logical_pages;
	st->page_size = d->page_size;
	st->pages_per_seg = d->zpages;
	st->segments = d->nzones;
	st->streams = 1; /* no streams of its own: every write at its zone's pointer ("zones") */
	st->interval = d->dobs.interval;
	st->c = d->cnt;
	st->precond_pages = d->precond_pages;
	st->aged_pages = d->aged_pages;
	st->measuring = d->measuring;
	st->c0 = d->c0;
	st->r = d->r;
	st->r.discards_ignored = d->discards_ignored; /* a zoned device ignores discards (counted) */
	st->free_segments = zns_free(d);
	for (uint32_t i = 0; i < d->nzones; i++)
		st->sealed_segments += d->z[i].state == Z_FULL;
	st->erase_max = d->erase_max;
	st->mem_bytes = d->mem_bytes;
	st->zone_resets = d->resets;
	st->zone_finishes = d->finishes;
	st->zone_pad_pages = d->pad_pages;
	st->zone_errors = d->zone_errors;
	st->zone_reads_unwritten = d->reads_unwritten;
	st->zone_capacity_pages = d->zcap;
	st->zones_open = d->nopen;
	st->zones_active = d->nactive;
	st->zones_max_active = d->c.max_active;
}

static void zns_stream(const struct dev *d, unsigned i, struct dev_stream *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "zones");
	out->origin_gc_pages = out->host_pages_measured = out->origin_gc_pages_measured = UINT64_MAX;
	if (i == 0) {
		out->host_pages = d->cnt.host_pages;
		out->gc_pages = d->cnt.gc_pages;
	}
}

static int zns_hist(const struct dev *d, int kind, uint64_t *bins, size_t nbins)
{
	switch (kind) {
	case DEV_HIST_SEALED:
	case DEV_HIST_VICTIMS:
		if (nbins != (size_t)d->zpages + 1)
			return -1;
		memset(bins, 0, nbins * sizeof(uint64_t));
		if (kind == DEV_HIST_SEALED)
			for (uint32_t i = 0; i < d->nzones; i++)
				if (d->z[i].state == Z_FULL)
					bins[d->z[i].wp]++;
		return 0;
	case DEV_HIST_ERASE:
		if (nbins != (size_t)d->erase_max + 1)
			return -1;
		memset(bins, 0, nbins * sizeof(uint64_t));
		for (uint32_t i = 0; i < d->nzones; i++)
			bins[d->z[i].erases]++;
		return 0;
	}
	return -1;
}

/* A page is held valid below its zone's write pointer. */
static int zns_mapped(const struct dev *d, uint64_t page, uint32_t *lpn)
{
	if (page >= d->logical_pages)
		return -1;
	*lpn = (uint32_t)page;
	return page % d->zpages < d->z[page / d->zpages].wp;
}

static const char *zns_error(const struct dev *d) { return d->err; }

const struct dev_ops dev_zns_ops = {
	.name = "zns",
	.open = zns_open,
	.precondition = zns_precondition,
	.learn_begin = zns_learn_begin,
	.learn = zns_learn,
	.learn_end = zns_learn_end,
	.submit = zns_submit,
	.prefetch = zns_prefetch,
	.idle = zns_idle,
	.age = zns_age,
	.clean = zns_clean,
	.free_segments = zns_free,
	.time = zns_time,
	.flash_observe = zns_flash_observe,
	.stats = zns_stats,
	.stream = zns_stream,
	.hist = zns_hist,
	.error = zns_error,
	.mapped = zns_mapped,
	.close = zns_close,
};
