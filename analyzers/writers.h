/*
 * writers.h - trace writers for other tools: the events of any trace
 * written as a fio iolog (replayed with fio --read_iolog), a DiskSim or
 * MQSim ASCII trace, or a tidy CSV. What a format cannot say (a discard
 * in MQSim's trace, a request off the sector grid) is counted, and the
 * counts said by tw_report: never dropped without a word.
 */
#ifndef FTLKIT_WRITERS_H
#define FTLKIT_WRITERS_H

#include <stdint.h>
#include <stdio.h>

#include "event.h"

enum {
	TW_DROPPED_OP,	  /* an op the format has no request for (by op) */
	TW_WIDENED = EV_NOPS, /* widened to whole sectors */
	TW_REORDERED,	  /* time before the previous event's: written at that time */
	TW_ROUNDED,	  /* fio: time cut to whole microseconds */
	TW_ZONE,	  /* zone operations (event stream version 2): not written */
	TW_LABELS,	  /* a temperature, stream or hint the format cannot hold: not written */
	TW_NEGATIVE,	  /* csv: a time before the first event's, written negative */
	TW_NCOUNTS
};

struct trace_writer {
	const struct tw_ops *ops;
	FILE *fp;
	const char *target;	/* fio: the file name for volume N ("%u" in it) */
	int64_t last_t;		/* the time last written (ns) */
	uint64_t written;
	uint64_t count[TW_NCOUNTS];
	uint8_t *opened;	/* fio: volumes added so far (bitmap) */
	size_t nopened;		/* bytes in opened */
};

struct tw_ops {
	const char *name;
	const char *desc;
	int (*begin)(struct trace_writer *w);
	/* 0 written (or counted as not expressible), -1 out of memory */
	int (*write)(struct trace_writer *w, const struct ev *e);
	int (*end)(struct trace_writer *w);
};

/* The writer named name, or NULL. */
const struct tw_ops *tw_find(const char *name);
/* 0 ok; -1 out of memory. target: see struct trace_writer. */
int tw_begin(struct trace_writer *w, const struct tw_ops *ops, FILE *fp, const char *target);
int tw_write(struct trace_writer *w, const struct ev *e);
int tw_end(struct trace_writer *w);
/* What the format could not say, on stderr (nothing when all was said). */
void tw_report(const struct trace_writer *w);

#endif
