/*
 * place.h - placement policies: which write stream (open segment) a
 * page goes to. One file per policy (place_NAME.c) fills a struct
 * place_ops; place_table.c lists them, found by name, the first being
 * the default. Adding a policy is one new file and one line there.
 *
 * init sets f->nstreams (host and GC streams together) and
 * f->gc_streams (how many distinct streams GC copies can go to: the
 * default GC watermarks keep that many segments free, so a victim's
 * copies always find room).
 */
#ifndef FTLKIT_PLACE_H
#define FTLKIT_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "ftl.h"

#define PLACE_API_VERSION 1

/* Capability flags. */
#define PLACE_ARG 0x1		/* takes ":ARG" (optional unless PLACE_ARG_REQUIRED) */
#define PLACE_ARG_REQUIRED 0x2
#define PLACE_TRIVIAL 0x4	/* everything to stream 0: the model skips the calls */
#define PLACE_SORT 0x8		/* GC copies of a pass are sorted by sort_key first */
#define PLACE_TEMP 0x10		/* uses the trace's temperature labels */

struct place_ops {
	const char *name;
	const char *desc;
	unsigned version; /* PLACE_API_VERSION */
	unsigned flags;
	/* 0 ok, -1 with a message. Mandatory. */
	int (*init)(struct ftl *f, const char *arg, void **st, char *err, size_t n);
	/* Stream of a host write of lpn (and its bookkeeping). Mandatory. */
	unsigned (*host)(struct ftl *f, void *st, uint32_t lpn, unsigned temp);
	/* Stream of a GC copy of lpn from a segment of stream from. Mandatory. */
	unsigned (*gc)(struct ftl *f, void *st, uint32_t lpn, unsigned from);
	/* Order of GC copies within a pass (PLACE_SORT). */
	uint64_t (*sort_key)(struct ftl *f, void *st, uint32_t lpn);
	/* Name of a stream for the summary ("host", "gc", "hot1"...). Mandatory. */
	const char *(*stream_name)(struct ftl *f, void *st, unsigned s, char *buf, size_t n);
	void (*destroy)(struct ftl *f, void *st);
};

extern const struct place_ops *const place_table[];
const struct place_ops *place_find(const char *spec, const char **arg);
int place_table_check(char *err, size_t n);

#endif
