/*
 * rd_blkparse.c - blkparse's default text output (docs/FORMATS.md
 * section 2), for traces shared as text rather than as the binary
 * per-CPU files:
 *
 *   "  8,16   5        2     0.000001850 18615  Q   R 1444645666 + 256 [java]"
 *    maj,min cpu  sequence  sec.nsec       pid  action RWBS  then per action
 *
 * One event per physical I/O at the chosen action (D, Q or C), with the
 * same record classes as the binary reader (rd_blktrace.c): zero-length
 * lines are kept only as flushes ("FN", offset 0), SCSI passthrough
 * lines ("D R 8 (12 00 ..) [smartctl]") are dropped, the op is the
 * RWBS main letter (D discard, W write, R read), and a line with data
 * and a leading F (a write with a preflush, "FWS", "FWFS") is two
 * events at its time: the flush (offset 0), then the data.
 *
 * Every line's header is checked; the rest of a line is parsed only
 * for the chosen action (remaps "A ... <- (maj,min) sector", merges,
 * plugs, splits and "m N" messages are skipped). Blank lines and the
 * per-CPU/Total summary block that blkparse prints after the events
 * are not records; an event line after a summary (outputs concatenated)
 * is read again. Lines starting with '#' (after blanks) are comments,
 * such as the column header scripts put above blkparse's output: they
 * are skipped and their count said on stderr at the end. A UTF-8 byte order mark and CRLF line ends are
 * accepted silently: they come from editors and Windows copies of the
 * text, not from damage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"
#include "reader.h"

#define BP_MAX_MAJOR 4095u	   /* dev_t: 12-bit major, 20-bit minor */
#define BP_MAX_MINOR 0xfffffu
#define BP_MAX_NSECT (UINT32_MAX / 512) /* ev length is 32-bit bytes */

struct bp_priv {
	char want;   /* action letter kept: 'D', 'Q' or 'C' */
	int summary; /* inside blkparse's trailing summary block */
	uint64_t seen[3]; /* lines of action Q, D, C (for rd_action_hint) */
	uint64_t comments; /* '#' lines skipped */
	int hinted;
	struct rd_held held; /* the data of a line whose preflush went out first */
};

/* A cursor over one line (not NUL-terminated as far as we care). */
struct cur {
	const char *p, *end;
};

struct tok {
	const char *s;
	size_t n;
};

struct hdr {
	uint32_t volume;
	int64_t t_ns;
	char act[3];
	int flush; /* RWBS leading 'F' */
	char main; /* RWBS D, W, R or N */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int next_tok(struct cur *c, struct tok *t)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (c->p == c->end)
		return 0;
	t->s = c->p;
	while (c->p < c->end && !is_blank(*c->p))
		c->p++;
	t->n = (size_t)(c->p - t->s);
	return 1;
}

static int tok_is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->s, s, t->n);
}

/* Decimal digits only, at most max. 0 ok, -1 not a number or too big. */
static int dec(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int tok_dec(const struct tok *t, uint64_t max, uint64_t *out)
{
	return dec(t->s, t->n, max, out);
}

/* Show at most 40 bytes of a token in a message. */
#define TOKF "'%.*s'"
#define TOKA(t) (int)((t)->n < 40 ? (t)->n : 40), (t)->s

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* "maj,min" -> dev_t as the kernel packs it. 0 ok, -1 out of range,
 * -2 not shaped "digits,digits". */
static int parse_dev(const struct tok *t, uint32_t *vol)
{
	const char *comma = memchr(t->s, ',', t->n);
	if (!comma)
		return -2;
	size_t nmaj = (size_t)(comma - t->s), nmin = t->n - nmaj - 1;
	if (!all_digits(t->s, nmaj) || !all_digits(comma + 1, nmin))
		return -2;
	uint64_t maj, min;
	if (dec(t->s, nmaj, BP_MAX_MAJOR, &maj) || dec(comma + 1, nmin, BP_MAX_MINOR, &min))
		return -1;
	*vol = (uint32_t)(maj << 20 | min);
	return 0;
}

static int known_action(const struct tok *t)
{
	static const char *const acts[] = {"A", "B", "C", "D", "F", "G", "I", "M", "P",
					   "Q", "R", "S", "T", "U", "UT", "X", "m"};
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (tok_is(t, acts[i]))
			return 1;
	return 0;
}

/*
 * RWBS as blkparse's fill_rwbs writes it, old and new:
 * [F flush] (D|W|R|N) [F fua] [A ahead] [B barrier, old kernels] [S sync] [M meta].
 */
static int parse_rwbs(const struct tok *t, struct hdr *h)
{
	size_t i = 0;
	h->flush = t->n > 1 && t->s[0] == 'F';
	i += (size_t)h->flush;
	if (i >= t->n || !memchr("DWRN", t->s[i], 4))
		return -1;
	h->main = t->s[i++];
	static const char opt[] = "FABSM";
	for (size_t k = 0; k < sizeof(opt) - 1 && i < t->n; k++)
		if (t->s[i] == opt[k])
			i++;
	return i == t->n ? 0 : -1;
}

/* The next field as a decimal number up to max. */
static int field_dec(struct cur *c, uint64_t max, uint64_t *v, const char *what, char *why,
		     size_t n)
{
	struct tok t;
	if (!next_tok(c, &t))
		return set_err(why, n, "missing %s", what);
	if (tok_dec(&t, max, v))
		return set_err(why, n, "bad %s " TOKF, what, TOKA(&t));
	return 0;
}

/*
 * The header fields every event line has. 0 ok; -1 bad (why); -2 the
 * first field is not a device at all (summary text, not an event).
 */
static int parse_header(struct cur *c, struct hdr *h, char *why, size_t n)
{
	struct tok t;
	uint64_t v;
	if (!next_tok(c, &t))
		return -2;
	int rc = parse_dev(&t, &h->volume);
	if (rc == -1)
		return set_err(why, n, "device " TOKF " out of range (major < 4096, minor < 2^20)",
			       TOKA(&t));
	if (rc)
		return -2;
	if (field_dec(c, UINT32_MAX, &v, "cpu", why, n) ||
	    field_dec(c, UINT32_MAX, &v, "sequence number", why, n))
		return -1;
	if (!next_tok(c, &t))
		return set_err(why, n, "missing time");
	if (!memchr(t.s, '.', t.n) || parse_fixed9(t.s, t.n, &h->t_ns))
		return set_err(why, n, "bad time " TOKF " (want SECONDS.NANOSECONDS)", TOKA(&t));
	if (field_dec(c, UINT32_MAX, &v, "pid", why, n))
		return -1;
	if (!next_tok(c, &t))
		return set_err(why, n, "missing action");
	if (!known_action(&t))
		return set_err(why, n, "unknown action " TOKF, TOKA(&t));
	memcpy(h->act, t.s, t.n);
	h->act[t.n] = 0;
	if (!next_tok(c, &t))
		return set_err(why, n, "missing RWBS field");
	if (parse_rwbs(&t, h))
		return set_err(why, n, "bad RWBS field " TOKF, TOKA(&t));
	return 0;
}

/*
 * The end of a D/Q/C line: an optional "(...)" (the elapsed time of
 * blkparse -t, or a passthrough CDB; may hold spaces), then "[command]"
 * or, for completions, "[error]", closing the line.
 */
static int parse_trailer(struct cur *c, int completion, char *why, size_t n)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (c->p < c->end && *c->p == '(') {
		const char *q = memchr(c->p, ')', (size_t)(c->end - c->p));
		if (!q)
			return set_err(why, n, "unclosed '('");
		c->p = q + 1;
		while (c->p < c->end && is_blank(*c->p))
			c->p++;
	}
	if (c->p == c->end)
		return set_err(why, n, "line ends early (no [%s])", completion ? "error" : "command");
	if (*c->p != '[' || c->end[-1] != ']' || c->end - c->p < 2)
		return set_err(why, n, "expected [%s] at the end of the line",
			       completion ? "error" : "command");
	uint64_t err;
	if (completion && dec(c->p + 1, (size_t)(c->end - c->p - 2), UINT16_MAX, &err))
		return set_err(why, n, "bad completion error field");
	return 0;
}

/*
 * SECTOR and NSECT of a D/Q/C line. 1 sized or zero-length fs request,
 * 0 passthrough (skip), -1 bad.
 *   D/Q: "S + N [comm]", "[comm]" (zero length), "BYTES [(cdb)] [comm]" (pc)
 *   C:   "S + N [err]",  "S [err]" (zero length), "[(cdb)] [err]" (pc)
 */
static int parse_extent(struct cur *c, int completion, uint64_t *sector, uint64_t *nsect,
			char *why, size_t n)
{
	struct cur start = *c;
	struct tok t;
	*sector = *nsect = 0;
	if (!next_tok(c, &t))
		return set_err(why, n, "line ends after the RWBS field");
	if (t.s[0] == '[' || t.s[0] == '(') {
		*c = start;
		if (parse_trailer(c, completion, why, n))
			return -1;
		return completion ? 0 : 1;
	}
	if (tok_dec(&t, UINT64_MAX, sector))
		return set_err(why, n, "bad sector " TOKF, TOKA(&t));
	struct cur after = *c;
	if (next_tok(c, &t) && tok_is(&t, "+")) {
		if (!next_tok(c, &t))
			return set_err(why, n, "missing length after '+'");
		if (tok_dec(&t, UINT64_MAX, nsect))
			return set_err(why, n, "bad length " TOKF, TOKA(&t));
		if (*nsect > BP_MAX_NSECT)
			return set_err(why, n, "length of %" PRIu64 " sectors is too large", *nsect);
		return parse_trailer(c, completion, why, n) ? -1 : 1;
	}
	*c = after;
	if (parse_trailer(c, completion, why, n))
		return -1;
	return completion ? 1 : 0;
}

/* An event line of the chosen action: 1 event, 2 an event with data
 * and a preflush (the flush to go first), 0 not I/O, -1 bad. */
static int parse_event(struct cur *c, const struct hdr *h, struct ev *e, char *why, size_t n)
{
	uint64_t sector, nsect;
	int rc = parse_extent(c, h->act[0] == 'C', &sector, &nsect, why, n);
	if (rc <= 0)
		return rc;
	if (!nsect) {
		if (!h->flush)
			return 0; /* no data, no flush: nothing for the device to do */
		e->op = EV_FLUSH;
		sector = 0; /* a flush has no address */
	} else if (h->main == 'N') {
		return set_err(why, n, "RWBS N (no data) with a length of %" PRIu64 " sectors", nsect);
	} else {
		e->op = h->main == 'D' ? EV_DISCARD : h->main == 'W' ? EV_WRITE : EV_READ;
	}
	if (e->op != EV_FLUSH && !rd_sectors_ok(sector, nsect * 512, 512))
		return set_err(why, n, "sector %" PRIu64 " out of range (the request ends past 2^63 bytes)",
			       sector);
	e->t_ns = h->t_ns;
	e->offset = sector * 512;
	e->length = (uint32_t)(nsect * 512);
	e->volume = h->volume;
	e->temp = EV_TEMP_NONE;
	return e->op != EV_FLUSH && h->flush ? 2 : 1;
}

/* The first line of blkparse's summary block (or its "Input file"
 * notes): not events, not errors. */
static int summary_start(const char *s, size_t n)
{
	static const char *const heads[] = {"Total (", "Throughput (", "Events (", "Skips: ",
					    "Input file "};
	if (n > 3 && !memcmp(s, "CPU", 3) && s[3] >= '0' && s[3] <= '9')
		return 1;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (n >= strlen(heads[i]) && !memcmp(s, heads[i], strlen(heads[i])))
			return 1;
	return 0;
}

/* One non-blank line: 1 event, 2 a preflush and its data (parse_event),
 * 0 not an event, -1 bad (why). */
static int parse_line(struct bp_priv *p, const char *s, size_t len, struct ev *e, char *why,
		      size_t n)
{
	struct cur c = {s, s + len};
	struct hdr h;
	int rc = parse_header(&c, &h, why, n);
	if (rc == -2) {
		if (p->summary || summary_start(s, len)) {
			p->summary = 1;
			return 0;
		}
		return set_err(why, n, "not a blkparse event line");
	}
	p->summary = 0;
	if (rc)
		return -1;
	static const char qdc[] = "QDC";
	const char *a = h.act[1] ? NULL : strchr(qdc, h.act[0]);
	if (a)
		p->seen[a - qdc]++;
	if (h.act[0] != p->want || h.act[1])
		return 0;
	return parse_event(&c, &h, e, why, n);
}

static int only_blanks(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_blank(s[i]))
			return 0;
	return 1;
}

static int is_comment(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && is_blank(s[i]))
		i++;
	return i < n && s[i] == '#';
}

static const char *skip_bom(const char *s, size_t *n)
{
	if (*n >= 3 && !memcmp(s, "\xef\xbb\xbf", 3)) {
		*n -= 3;
		return s + 3;
	}
	return s;
}

static int bp_probe(const unsigned char *d, size_t len)
{
	size_t pos = 0;
	/* the first line that is not blank or an "Input file" note */
	for (int lines = 0; lines < 8 && pos < len; lines++) {
		const unsigned char *nl = memchr(d + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (d + pos)) : len - pos;
		const char *s = (const char *)d + pos;
		pos += n + 1;
		if (!lines)
			s = skip_bom(s, &n);
		if (n && s[n - 1] == '\r')
			n--;
		if (only_blanks(s, n) || is_comment(s, n) || (n > 11 && !memcmp(s, "Input file ", 11)))
			continue;
		struct cur c = {s, s + n};
		struct hdr h;
		char why[128];
		return parse_header(&c, &h, why, sizeof(why)) ? 0 : 70;
	}
	return 0;
}

static int bp_open(struct reader *r)
{
	size_t avail;
	if (!r->src)
		return set_err(r->err, sizeof(r->err), "%s: no input", r->path);
	/* blkparse prints at least its summary: no bytes at all is a
	 * failed capture or copy, not a trace without I/O */
	if (!src_peek(r->src, 1, &avail))
		return set_err(r->err, sizeof(r->err), "%s", r->src->err);
	if (!avail)
		return set_err(r->err, sizeof(r->err), "%s: empty file (no blkparse output)",
			       r->src->name);
	struct bp_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return set_err(r->err, sizeof(r->err), "out of memory");
	p->want = r->opt.action == 'Q' || r->opt.action == 'C' ? (char)r->opt.action : 'D';
	r->priv = p;
	return 0;
}

static int bp_next(struct reader *r, struct ev *e)
{
	struct bp_priv *p = r->priv;
	char why[256];
	if (rd_take_held(&p->held, e))
		return 1;
	for (;;) {
		size_t len;
		const char *line = src_getline(r->src, &len);
		if (!line) {
			if (r->src->err[0])
				return set_err(r->err, sizeof(r->err), "%s", r->src->err);
			if (!p->hinted++ && !r->opt.again) {
				rd_action_hint(r->src->name, p->want, p->seen);
				if (p->comments)
					warn("%s: %" PRIu64 " comment line%s ('#') skipped", r->src->name,
					     p->comments, p->comments == 1 ? "" : "s");
			}
			return 0;
		}
		if (r->src->lineno == 1)
			line = skip_bom(line, &len);
		if (only_blanks(line, len))
			continue;
		if (is_comment(line, len)) {
			p->comments++;
			continue;
		}
		int rc = parse_line(p, line, len, e, why, sizeof(why));
		if (rc == 2) /* the flush now, the data at the next call */
			rd_hold_data(&p->held, e);
		if (rc > 0)
			return 1;
		if (rc < 0 && rd_bad(r, "%s:%" PRIu64 ": %s", r->src->name, r->src->lineno, why))
			return -1;
	}
}

static void bp_close(struct reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

const struct reader_ops rd_blkparse_ops = {
	.name = "blkparse",
	.desc = "blkparse default text output (\"8,16 5 2 0.000001850 18615 Q R 1444645666 + 256 [java]\")",
	.version = READER_API_VERSION,
	.flags = RD_ACTION | RD_MULTI_VOL,
	.probe = bp_probe,
	.open = bp_open,
	.next = bp_next,
	.close = bp_close,
};
