/*
 * trace.h - open any trace (file, per-CPU blktrace set, stdin, event
 * stream, or a set of files read as one), detect its format, and read
 * events with the common filters: ops, time window, volume, and
 * optional sorting by time.
 *
 * Times come out relative to the first event (in file order, or the
 * earliest when sorting), as blkparse does.
 *
 * A trace set (trace_open_set): public traces come as many files, by
 * time slice or by volume. Its files are read one after another with
 * the format of the first, as one trace: one clock (times relative to
 * the set's first event), one count of skipped records, one position
 * over all the files. Where one file ends and the next begins, the next
 * must start no earlier than the last event before it: otherwise an
 * error names both files and both times, unless --sort (the whole set
 * read and sorted) or --unordered (taken as they come, out of order
 * said once as within a file).
 */
#ifndef FTLKIT_TRACE_H
#define FTLKIT_TRACE_H

#include <stdint.h>

#include "reader.h"

struct trace_opts {
	const char *format; /* NULL or "auto" to detect */
	struct rd_opts rd;
	int ops_mask;	  /* 1 << op for ops to keep; 0 means all */
	int64_t start_ns; /* keep t >= start (relative time); INT64_MIN for no start */
	int64_t end_ns;	  /* keep t < end; INT64_MAX for no end */
	int64_t volume;	  /* -1: all volumes */
	int sort;	  /* buffer everything and emit in time order */
	int unordered;	  /* a set's files may go back in time where one ends and the next begins */
	int quiet;	  /* don't say which format was detected */
	int action_given; /* --action was asked for (rd.action is 'D' anyway) */
	int reopen;	  /* the same input opened again: no warning repeated (options, time order) */
	int async;	  /* decompress in a thread of its own (src_async) */
	const char *format_opt; /* the option naming the format, in messages (NULL: -f) */
};

void trace_opts_default(struct trace_opts *o);

struct trace;

/* Open path with o. NULL on error, with the message in err. */
struct trace *trace_open(const char *path, const struct trace_opts *o, char *err, size_t n);
/* Open the n files of a trace set as one trace (see above); each may be
 * a per-CPU blktrace set. "-" only alone. NULL on error (err). */
struct trace *trace_open_set(const char *const *paths, size_t n, const struct trace_opts *o, char *err,
			     size_t en);
/* The file of the set being read (the trace's path when it is one). */
const char *trace_member(const struct trace *t);
/* Where event index (from 0, as trace_next gives them) of the trace of
 * these paths lies: "FILE:LINE" (a text format) or "FILE: byte OFFSET"
 * (the event stream) in buf; -1 when that cannot be said (standard
 * input, sorted in memory, index at or past most, another binary
 * format). Reads the trace again up to it: for an error's message. */
int trace_locate(const char *const *paths, size_t np, const struct trace_opts *o, uint64_t index, uint64_t most,
		 char *buf, size_t n);
/* The same over bytes in memory (for fuzzing and tests); name is used
 * in messages. Per-CPU formats read the bytes as one stream. */
struct trace *trace_open_mem(const char *name, const void *data, size_t len,
			     const struct trace_opts *o, char *err, size_t n);
/* 1 event, 0 end, -1 error (message via trace_error). */
int trace_next(struct trace *t, struct ev *e);
/* A fast path beside it: up to n events as trace_next would give them,
 * of those its reader has at hand without a special case (its
 * next_many): how many, 0 when none is (trace_next gives what comes). */
size_t trace_next_many(struct trace *t, struct ev *e, size_t n);
/* Whether trace_next_many can give any (its reader has the fast path,
 * the trace is not sorted in memory). */
int trace_has_many(const struct trace *t);
const char *trace_error(const struct trace *t);
/* After trace_next returned 0: NULL when the input ended where its
 * format says it ends (or the format cannot say), else why it is cut
 * short ("FILE: byte N: ..."): an event stream of version 3 on without
 * its end record, whose writer failed or was stopped. The events read
 * are good; a program says so, marks its summary partial and exits 1. */
const char *trace_cut(const struct trace *t);
const char *trace_format(const struct trace *t);
uint64_t trace_bad_count(const struct trace *t);
/* Events the reader gave so far, before the filters (ops, window,
 * volume) and bad records aside. */
uint64_t trace_events_read(const struct trace *t);
/* How far the reader is through its file: bytes read so far and the
 * file's size (both compressed for a compressed file); of a set, over
 * all its files. -1 when the size is unknown (stdin, a pipe, a blktrace
 * per-CPU set). */
int trace_position(const struct trace *t, uint64_t *done, uint64_t *total);
const char *trace_first_bad(const struct trace *t);
void trace_close(struct trace *t);

/* Detect a format from a file's first bytes; NULL if none fits. */
const struct reader_ops *trace_detect(const unsigned char *data, size_t len);

#endif
