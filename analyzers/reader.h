/*
 * reader.h - the trace reader interface. One file per format
 * (rd_NAME.c) fills a struct reader_ops; analyzers/readers.c lists them
 * in a table, found by name, the first entry being the default
 * (auto-detection is separate). Adding a format is one new file and
 * one line in that table.
 *
 * A reader turns its format into struct ev records with the format's
 * own clock in t_ns (nanoseconds, any origin: the trace layer makes
 * times relative to the first event). Units are converted to bytes.
 */
#ifndef FTLKIT_READER_H
#define FTLKIT_READER_H

#include <stdint.h>

#include "event.h"
#include "src.h"

#define READER_API_VERSION 1

/* Capability flags. */
#define RD_OWN_FILES 0x1 /* opens its own files (blktrace per-CPU set): no src */
#define RD_MULTI_VOL 0x2 /* records carry a volume id */
#define RD_ACTION 0x4	 /* honours --action (blktrace, blkparse) */
#define RD_SECTORS 0x8	 /* addresses in sectors: honours --sector-size */
#define RD_TEMP 0x10	 /* records may carry temperature labels (the event stream) */

struct rd_opts {
	int action;	     /* 'D' (default), 'Q' or 'C' */
	unsigned sector_size; /* bytes per sector for sector-based formats, 0: format default */
	int skip_bad;	     /* skip bad records and count them instead of failing */
	const char *columns; /* -f csv: the column map (--columns) */
	int again;	     /* the input read again (a second pass): its end-of-trace notes said already */
};

struct reader {
	const struct reader_ops *ops;
	const char *path;	/* as given on the command line, "-" for stdin */
	struct src *src;	/* open input, unless RD_OWN_FILES */
	struct rd_opts opt;
	void *priv;		/* reader's own state */
	uint64_t nbad;		/* bad records skipped (with skip_bad) */
	char first_bad[512];	/* the first skipped record's message */
	char err[512];		/* "FILE:LINE: what" or "FILE: byte OFFSET: what" */
	/* Set by a reader that knows where its input should end (an event
	 * stream of version 3 on) and returns 0 (end) before it: why the
	 * input is cut short. Its events are good; the input is not whole. */
	char cut[512];
};

struct reader_ops {
	const char *name;
	const char *desc;
	unsigned version; /* READER_API_VERSION */
	unsigned flags;
	/*
	 * How sure the reader is that data (the first bytes of the
	 * decompressed input, up to 64 KiB, possibly fewer) is its format:
	 * 0 (no) to 100 (magic number matched). Mandatory.
	 */
	int (*probe)(const unsigned char *data, size_t len);
	/* Set up priv. 0 ok, -1 with r->err set. Optional. */
	int (*open)(struct reader *r);
	/* Next event: 1 one event, 0 end of data (r->cut set when the data
	 * ends before its format's end), -1 error (r->err). Mandatory. */
	int (*next)(struct reader *r, struct ev *e);
	void (*close)(struct reader *r);
	/* Optional, a fast path beside next: up to n events as next would
	 * give them, of the records at hand (read already, whole and good,
	 * each time within 2^62 ns of 0), stopping before any other: how
	 * many (0: none is; next gives what comes). */
	size_t (*next_many)(struct reader *r, struct ev *e, size_t n);
};

/*
 * The one bound every reader applies to a request: it ends at or before
 * 2^63 bytes. So its offset is below 2^63, what the event stream
 * carries (ev_decode refuses more), and every event a reader gives
 * survives an encode-decode round trip.
 */
#define RD_END_LIMIT (UINT64_C(1) << 63)
static inline int rd_extent_ok(uint64_t offset, uint64_t length)
{
	return offset <= RD_END_LIMIT && length <= RD_END_LIMIT - offset;
}
/* A sector-addressed request (unit bytes per sector) within the bound. */
static inline int rd_sectors_ok(uint64_t sector, uint64_t nbytes, uint64_t unit)
{
	return sector <= RD_END_LIMIT / unit && rd_extent_ok(sector * unit, nbytes);
}

/*
 * A record with data and a preflush (blktrace's and blkparse's RWBS
 * "FWS", "FWFS": a write whose flush the kernel issues first) is two
 * events at its time: the flush (offset 0, length 0), then the data. A
 * reader gives the flush and holds the data for its next call.
 */
struct rd_held {
	struct ev ev;
	int have;
};
/* e, the data, becomes its flush; the data is held. */
static inline void rd_hold_data(struct rd_held *h, struct ev *e)
{
	h->ev = *e;
	h->have = 1;
	e->op = EV_FLUSH;
	e->offset = 0;
	e->length = 0;
}
/* The held data into e: 1, or 0 when none is held. */
static inline int rd_take_held(struct rd_held *h, struct ev *e)
{
	if (!h->have)
		return 0;
	h->have = 0;
	*e = h->ev;
	return 1;
}

/* The table (readers.c). */
extern const struct reader_ops *const reader_table[];
const struct reader_ops *reader_find(const char *name);
/* Check every table entry's version and mandatory ops; 0 ok, else -1
 * with a message naming the bad reader. */
int reader_table_check(char *err, size_t n);

/*
 * For readers: report a bad record. Without skip_bad it fills r->err
 * and returns -1 (the reader returns that). With skip_bad it counts
 * the record, keeps the first message and returns 0 (the reader goes
 * on to the next record).
 */
int rd_bad(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * For the readers that honour --action: at the end of a trace that gave
 * no event, say so on stderr when it has records of another action
 * (e.g. a completions-only capture read with the default D), naming the
 * --action that would read them. seen[] counts the records of each
 * action, indexed as "QDC".
 */
void rd_action_hint(const char *name, int want, const uint64_t seen[3]);

#endif
