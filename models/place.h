/*
 * place.h - placement policies: which write stream (open segment) a
 * page goes to. One file per policy (place_NAME.c) fills a struct
 * place_ops; place_table.c lists them, found by name, the first being
 * the default. Adding a policy is one new file and one line there.
 *
 * A placement lives in the room policy.h describes (state allocated by
 * the model, read-only view, declared arguments, its own generator,
 * failures by return code). init returns what it needs from the model
 * in struct place_needs: its streams (host and GC streams together),
 * how many distinct streams GC copies can go to (the default GC
 * watermarks keep that many segments free, so a victim's copies always
 * find room), a default high watermark, and what the model should keep
 * for it (a page's last write time, a segment's open time).
 *
 * What the model tells a placement, in order:
 *   host(w, &s)     a host write of w->lpn: its stream. Called before
 *                   the previous version is invalidated: w->prev_seg
 *                   is the segment that holds it (FTL_NONE: unmapped)
 *                   and w->prev_time its host write time (with
 *                   FTL_KEEP_WRITE_TIME; FTL_NEVER if never written).
 *                   ftl_now() already counts this write. The model
 *                   then records the page's new write time.
 *   on_clean(seg)   GC (or wear levelling, wl = 1) is about to clean
 *                   seg: ftl_seg_stream(seg) is the class that wrote
 *                   it, ftl_open_time/ftl_seal_time when it was opened
 *                   and sealed, ftl_valid how many pages it copies.
 *   gc(lpn, from, &s)  the stream of one copy out of that segment
 *                   (from = its stream).
 *   sort_key(lpn)   with PLACE_SORT: a pass's copies are buffered and
 *                   written in key order (ties by lpn).
 */
#ifndef FTLKIT_PLACE_H
#define FTLKIT_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"
#include "policy.h"

#define PLACE_API_VERSION 2

/* Flags, read by the model (or by ftlsim: PLACE_TEMP). */
#define PLACE_TRIVIAL 0x1 /* everything to stream 0: the model skips the calls */
#define PLACE_SORT 0x2	  /* GC copies of a pass are sorted by sort_key first */
#define PLACE_TEMP 0x4	  /* needs the trace's temperature labels: ftlsim refuses an unlabelled trace */

/* One host write as the placement sees it. */
struct place_write {
	uint32_t lpn;
	unsigned temp;	    /* the trace's label, EV_TEMP_NONE if none */
	uint32_t prev_seg;  /* segment of the previous version, FTL_NONE */
	uint64_t prev_time; /* its host write time (FTL_KEEP_WRITE_TIME), FTL_NEVER */
};

struct place_init {
	const struct policy_args *args;
};

/* What init returns to the model. */
struct place_needs {
	unsigned streams;    /* 1..FTL_MAX_STREAMS, host and GC together */
	unsigned gc_streams; /* distinct streams GC copies may go to, >= 1 */
	uint32_t gc_high;    /* default high watermark; 0: the low one */
	unsigned keep;	     /* FTL_KEEP_* */
};

struct place_ops {
	struct policy_info info;
	/* Mandatory; out comes filled with one stream, one GC stream. */
	int (*init)(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out);
	/* Mandatory. */
	int (*host)(void *st, const struct ftl *f, const struct place_write *w, unsigned *stream);
	/* Optional. */
	int (*on_clean)(void *st, const struct ftl *f, uint32_t seg, int wl);
	/* Mandatory. */
	int (*gc)(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *stream);
	/* With PLACE_SORT. */
	uint64_t (*sort_key)(void *st, const struct ftl *f, uint32_t lpn);
	/* Name of a stream for the summary ("host", "gc", "temp1"...). Mandatory. */
	const char *(*stream_name)(void *st, const struct ftl *f, unsigned s, char *buf, size_t n);
	/* Free what init allocated (the model frees the state). Optional. */
	void (*destroy)(void *st, const struct ftl *f);
};

extern const struct place_ops *const place_table[];
/* Find "NAME[:ARGS]" and parse its arguments; NULL with a message. */
const struct place_ops *place_find(const char *spec, struct policy_args *a, char *err, size_t n);
int place_table_check(char *err, size_t n);

#endif
