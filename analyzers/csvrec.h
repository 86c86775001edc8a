/*
 * csvrec.h - records of delimited text traces (the SNIA / cloud CSV
 * formats: MSR, SYSTOR'17, Tencent CBS, Alibaba, SPC, FIU), shared by
 * their readers.
 *
 * Two layers:
 *  - struct csvrec splits one line of a struct src into fields, in
 *    place and without allocating per record. Comma formats go through
 *    a hand tokenizer; a line that contains a double quote is handed to
 *    libcsv instead (the project's CSV parser), so quoted fields
 *    ("1,2", "a""b") follow RFC 4180. libcsv's callback interface is
 *    kept off the fast path because feeding it line by line runs at
 *    less than half the speed (see the measurements in csvrec.c).
 *    The blank-separated FIU format has no quoting at all: any run of
 *    spaces and tabs separates fields.
 *  - struct csvfmt describes one format (separator, field counts,
 *    optional header names, record parser, probe score) and provides
 *    the reader_ops open/next/close/probe built on csvrec, so a reader
 *    file only holds what is particular to its format.
 *
 * Lines: a UTF-8 byte order mark before the first line is skipped; CRLF
 * line ends are accepted (src_getline drops the CR); empty lines are
 * skipped. A first line that matches the format's column names
 * (case-insensitive) is a header and skipped. A file without any record
 * line is an error ("empty file").
 */
#ifndef FTLKIT_CSVREC_H
#define FTLKIT_CSVREC_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "reader.h"
#include "src.h"

#define CSVREC_MAX_FIELDS 16

struct csvrec {
	struct src *src;	/* NULL when only splitting lines (probe) */
	unsigned char sep;	/* ',' or ' ' (runs of blanks) */
	int quotes;		/* honour double-quoted fields (comma formats) */
	int force_libcsv;	/* tokenize every line with libcsv (tests, benchmarks) */
	int nf;			/* fields in the record (may exceed CSVREC_MAX_FIELDS) */
	char *f[CSVREC_MAX_FIELDS];   /* NUL-terminated fields (first MAX) */
	size_t len[CSVREC_MAX_FIELDS];
	const char *bad;	/* set by csvrec_split: the line cannot be split */
	uint64_t nlines;	/* non-empty lines returned so far */
	char why[256];		/* message buffer for parse errors */
	/* libcsv, set up on the first quoted line */
	void *cp;		/* struct csv_parser * */
	char *qbuf;
	size_t qcap, qlen;
	int qfields, qrecs, qover;
};

void csvrec_init(struct csvrec *c, struct src *src, unsigned char sep, int quotes);
void csvrec_free(struct csvrec *c);
/*
 * Split line (len bytes, NUL-terminated, modified in place) into
 * c->nf / c->f / c->len. Sets c->bad (and nf = 0) if it cannot be
 * split (bad quoting); returns 0, or -1 when out of memory.
 */
int csvrec_split(struct csvrec *c, char *line, size_t len);
/*
 * Next non-empty line of c->src, split. 1: a record (check c->bad), 0:
 * end of data, -1: error (message in c->src->err, or "out of memory").
 * The line number is c->src->lineno.
 */
int csvrec_next(struct csvrec *c);
/* Whether the record's first n fields are the names (case-insensitive);
 * exact: the record has exactly n fields. */
int csvrec_is_header(const struct csvrec *c, const char *const *names, int n, int exact);

/* --- strict field parsing ----------------------------------------- */

enum { CR_OK = 0, CR_EMPTY, CR_NEG, CR_NAN, CR_RANGE };

/* Decimal digits only (no sign, no blanks, not empty), at most
 * UINT64_MAX. Leading zeros are allowed. */
static inline int cr_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	if (!n)
		return CR_EMPTY;
	if (n <= 19) {
		for (i = 0; i < n; i++) {
			unsigned d = (unsigned)(unsigned char)s[i] - '0';
			if (d > 9)
				goto nan;
			v = v * 10 + d;
		}
	} else {
		int over = 0;
		for (i = 0; i < n; i++) {
			unsigned d = (unsigned)(unsigned char)s[i] - '0';
			if (d > 9)
				goto nan;
			if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
				over = 1;
		}
		if (over)
			return CR_RANGE;
	}
	*out = v;
	return CR_OK;
nan:
	return s[0] == '-' ? CR_NEG : CR_NAN;
}

/*
 * A non-negative decimal number of units of unit_ns nanoseconds each
 * (1, 10^3, 10^6 or 10^9) to ns: "12", "12.5", ".5", "12."; decimals
 * below a nanosecond are dropped. Any value whose ns fit an int64 is
 * read (the integer part is not bounded by a scale of its own). 0 ok,
 * -1 not such a number or out of range.
 */
int cr_decimal_ns(const char *s, size_t n, int64_t unit_ns, int64_t *out);
/* Field i as an unsigned integer no larger than max; on error returns
 * a message in c->why naming the field. */
const char *cr_field_u64(struct csvrec *c, int i, const char *name, uint64_t max, uint64_t *out);
/* Field i as decimal seconds ("s", "s.d", ".d", up to 9 decimals
 * exact, more truncated) to ns, through parse_fixed9. */
const char *cr_field_sec9(struct csvrec *c, int i, const char *name, int64_t *out);
/* Field i as a count of units (sectors, ...) converted to bytes. */
const char *cr_field_scaled(struct csvrec *c, int i, const char *name, uint64_t unit, uint64_t *out);
/* The request checks every format shares: length 1..UINT32_MAX bytes,
 * offset + length <= 2^63. Fills e (op, volume, t_ns set by caller). */
const char *cr_extent(struct csvrec *c, const char *off_name, uint64_t off, const char *len_name,
		      uint64_t len, struct ev *e);
/* A formatted message in c->why. */
const char *cr_why(struct csvrec *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "wrong field count: N, want M" */
const char *cr_nfields(struct csvrec *c, int want, int at_least);

/* --- formats ------------------------------------------------------ */

struct csvfmt {
	const char *name;
	unsigned char sep;	/* ',' or ' ' */
	int quotes;
	int min_fields, max_fields; /* max_fields 0: no limit */
	const char *const *header;  /* known column names, or NULL */
	int nheader;
	int header_exact;	/* a header has exactly nheader fields */
	int score;		/* probe score when the first lines fit */
	int header_score;	/* probe score when a header line matched too */
	/* Whether a record with the right field count has the format's
	 * shape (its op column, a numeric first field...), values aside:
	 * probe() tells "this format with bad values" from "another
	 * format". */
	int (*shape)(const struct csvrec *c);
	/* Parse c's fields into e (all of it). NULL on success, else the
	 * reason (typically in c->why). o gives the sector size. */
	const char *(*parse)(const struct rd_opts *o, struct csvrec *c, struct ev *e);
	const char *skip_what; /* what records parse() skips are, for the note */
};

/*
 * One delimited-text reader: its struct csvfmt and its reader_ops, the
 * wrappers stamped out here once for every format (as SQLite stamps out
 * its VFS variants). ID names the objects (rd_ID_ops, ID_fmt), NAME is
 * the -f name, DESC the --list-formats line, FLAGS the reader's RD_*
 * flags; the rest initialises the struct csvfmt (.sep, .parse, ...).
 */
#define CSV_READER(ID, NAME, DESC, FLAGS, ...)                                 \
	static const struct csvfmt ID##_fmt = {.name = NAME, __VA_ARGS__};       \
	static int ID##_probe(const unsigned char *d, size_t len)              \
	{                                                                      \
		return csvfmt_probe(&ID##_fmt, d, len);                          \
	}                                                                      \
	static int ID##_open(struct reader *r) { return csvfmt_open(r, &ID##_fmt); } \
	const struct reader_ops rd_##ID##_ops = {                              \
		.name = NAME,                                                  \
		.desc = DESC,                                                  \
		.version = READER_API_VERSION,                                 \
		.flags = FLAGS,                                                \
		.probe = ID##_probe,                                           \
		.open = ID##_open,                                             \
		.next = csvfmt_next,                                           \
		.close = csvfmt_close,                                         \
	}

/* parse() may return this: the record is valid but not I/O (a SCSI
 * command that moves no data, say); it is skipped and counted, and the
 * count said on stderr at the end with the format's skip_what. */
extern const char csvfmt_skip[];

int csvfmt_probe(const struct csvfmt *f, const unsigned char *d, size_t len);
int csvfmt_open(struct reader *r, const struct csvfmt *f);
int csvfmt_next(struct reader *r, struct ev *e);
void csvfmt_close(struct reader *r);

/* Field i as a one-letter op "R"/"W" (any case): EV_READ, EV_WRITE, or
 * -1. */
static inline int cr_rw(const struct csvrec *c, int i)
{
	if (c->len[i] != 1)
		return -1;
	switch (c->f[i][0]) {
	case 'R': case 'r': return EV_READ;
	case 'W': case 'w': return EV_WRITE;
	}
	return -1;
}

/* Bytes of a UTF-8 byte order mark at d (len bytes): 3 or 0. Editors
 * and spreadsheets put one before a text file's first line. */
static inline size_t cr_bom(const unsigned char *d, size_t len)
{
	return len >= 3 && d[0] == 0xef && d[1] == 0xbb && d[2] == 0xbf ? 3 : 0;
}

/* Whether field i is non-empty and all decimal digits. */
static inline int cr_digits(const struct csvrec *c, int i)
{
	uint64_t v;
	int rc = cr_u64(c->f[i], c->len[i], &v);
	return rc == CR_OK || rc == CR_RANGE;
}

/* Sector size in bytes: the option if set, else the format's default. */
static inline uint64_t cr_sector(const struct rd_opts *o, uint64_t dflt)
{
	return o->sector_size ? o->sector_size : dflt;
}

#endif
