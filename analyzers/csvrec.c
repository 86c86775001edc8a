/*
 * csvrec.c - field splitting and the shared reader skeleton of the
 * delimited text formats (see csvrec.h).
 *
 * Why a hand tokenizer: libcsv's callback parser reaches about 500 MB/s
 * over whole 1 MiB buffers with trivial callbacks, but a reader hands
 * out one event per call, and driving libcsv one line at a time
 * (csv_parse + csv_fini per line, fields copied out in the callbacks)
 * measured 150-270 MB/s for the whole MSR reader, too close to the
 * 200 MB/s goal, against 480-700 MB/s (10-14 M events/s) with the
 * tokenizer below (255 MB of replicated hm_0-head1000.csv, one core,
 * -O2, on a shared and variably loaded machine). So lines without a
 * double quote are split here, in place; lines with one still go to
 * libcsv (strict mode), which handles RFC 4180 quoting.
 */
#include "csvrec.h"

#include <csv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ftlkit.h"

static const char BOM[3] = {'\xef', '\xbb', '\xbf'};

void csvrec_init(struct csvrec *c, struct src *src, unsigned char sep, int quotes)
{
	memset(c, 0, sizeof(*c));
	c->src = src;
	c->sep = sep;
	c->quotes = quotes && sep != ' ';
}

void csvrec_free(struct csvrec *c)
{
	if (c->cp) {
		csv_free(c->cp);
		free(c->cp);
	}
	free(c->qbuf);
	c->cp = NULL;
	c->qbuf = NULL;
	c->qcap = 0;
}

/* --- libcsv, for lines with quotes -------------------------------- */

static void q_field(void *s, size_t len, void *data)
{
	struct csvrec *c = data;
	if (c->qrecs) { /* a field after the end of the record (embedded CR) */
		c->qover = 1;
		return;
	}
	if (c->qlen + len + 1 > c->qcap) {
		/* libcsv kept data from an earlier, failed line: never
		 * write past the buffer; the line is malformed. */
		c->qover = 1;
		return;
	}
	if (c->qfields < CSVREC_MAX_FIELDS) {
		char *dst = c->qbuf + c->qlen;
		if (len)
			memcpy(dst, s, len);
		dst[len] = 0;
		c->f[c->qfields] = dst;
		c->len[c->qfields] = len;
		c->qlen += len + 1;
	}
	c->qfields++;
}

static void q_record(int term, void *data)
{
	struct csvrec *c = data;
	c->qrecs++;
}

static int no_space(unsigned char ch)
{
	return 0; /* fields are not trimmed: " 12" is not a number */
}

static int q_split(struct csvrec *c, const char *line, size_t len)
{
	if (!c->cp) {
		c->cp = malloc(sizeof(struct csv_parser));
		if (!c->cp || csv_init(c->cp, CSV_STRICT | CSV_STRICT_FINI)) {
			free(c->cp);
			c->cp = NULL;
			return -1;
		}
		csv_set_delim(c->cp, c->sep);
		csv_set_space_func(c->cp, no_space);
	}
	/* Unquoting only shrinks a line: len + a NUL per field suffices.
	 * Grows with the longest quoted line, not per record. */
	size_t need = len + CSVREC_MAX_FIELDS + 1;
	if (need > c->qcap) {
		char *nb = realloc(c->qbuf, need);
		if (!nb)
			return -1;
		c->qbuf = nb;
		c->qcap = need;
	}
	c->qlen = 0;
	c->qfields = c->qrecs = c->qover = 0;
	size_t used = csv_parse(c->cp, line, len, q_field, q_record, c);
	int err = used != len ? csv_error(c->cp) : CSV_SUCCESS;
	int fin = csv_fini(c->cp, q_field, q_record, c); /* also resets the parser */
	if (err == CSV_ENOMEM || fin == CSV_ENOMEM)
		return -1;
	if (err != CSV_SUCCESS || fin != 0 || c->qover || c->qrecs != 1) {
		/* After a parse error libcsv's state is undefined: start a
		 * fresh parser for the next line. */
		csv_free(c->cp);
		free(c->cp);
		c->cp = NULL;
		c->bad = "malformed quoted field";
		c->nf = 0;
		return 0;
	}
	c->nf = c->qfields;
	return 0;
}

/* --- the tokenizers ----------------------------------------------- */

static void split_blanks(struct csvrec *c, char *s, size_t n)
{
	char *p = s, *end = s + n;
	int nf = 0;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		char *start = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		if (nf < CSVREC_MAX_FIELDS) {
			c->f[nf] = start;
			c->len[nf] = (size_t)(p - start);
		}
		nf++;
		if (p == end)
			break;
		*p++ = 0;
	}
	c->nf = nf;
}

static void split_sep(struct csvrec *c, char *s, size_t n)
{
	const char sep = (char)c->sep;
	char *p = s, *end = s + n, *start = s;
	int nf = 0;
	for (; p < end; p++) {
		if (*p != sep)
			continue;
		*p = 0;
		if (nf < CSVREC_MAX_FIELDS) {
			c->f[nf] = start;
			c->len[nf] = (size_t)(p - start);
		}
		nf++;
		start = p + 1;
	}
	if (nf < CSVREC_MAX_FIELDS) {
		c->f[nf] = start;
		c->len[nf] = (size_t)(end - start);
	}
	c->nf = nf + 1;
}

int csvrec_split(struct csvrec *c, char *line, size_t len)
{
	c->bad = NULL;
	if (c->sep == ' ') {
		split_blanks(c, line, len);
		return 0;
	}
	if (c->quotes && (c->force_libcsv || memchr(line, '"', len)))
		return q_split(c, line, len);
	split_sep(c, line, len);
	return 0;
}

int csvrec_next(struct csvrec *c)
{
	for (;;) {
		size_t len;
		char *line = src_getline(c->src, &len);
		if (!line) {
			if (!c->src->err[0])
				return 0;
			snprintf(c->why, sizeof(c->why), "%s", c->src->err);
			return -1;
		}
		if (c->src->lineno == 1 && len >= 3 && !memcmp(line, BOM, 3)) {
			line += 3;
			len -= 3;
		}
		if (!len)
			continue;
		c->nlines++;
		if (csvrec_split(c, line, len)) {
			snprintf(c->why, sizeof(c->why), "%s:%llu: out of memory", c->src->name,
				 (unsigned long long)c->src->lineno);
			return -1;
		}
		return 1;
	}
}

int csvrec_is_header(const struct csvrec *c, const char *const *names, int n, int exact)
{
	if (c->nf < n || (exact && c->nf != n) || n > CSVREC_MAX_FIELDS)
		return 0;
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) != c->len[i] || strcasecmp(names[i], c->f[i]))
			return 0;
	return 1;
}

/* --- field parsing ------------------------------------------------ */

const char *cr_why(struct csvrec *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return c->why;
}

const char *cr_nfields(struct csvrec *c, int want, int at_least)
{
	return cr_why(c, "wrong field count: %d, want %s%d", c->nf, at_least ? "at least " : "", want);
}

static const char *code_text(int code)
{
	switch (code) {
	case CR_EMPTY: return "empty";
	case CR_NEG: return "negative";
	case CR_RANGE: return "out of range";
	default: return "not a non-negative integer";
	}
}

const char *cr_field_u64(struct csvrec *c, int i, const char *name, uint64_t max, uint64_t *out)
{
	int rc = cr_u64(c->f[i], c->len[i], out);
	if (rc == CR_OK && *out > max)
		rc = CR_RANGE;
	if (rc == CR_OK)
		return NULL;
	if (rc == CR_EMPTY)
		return cr_why(c, "empty %s", name);
	if (rc == CR_RANGE)
		return cr_why(c, "%s '%.40s' out of range (above %llu)", name, c->f[i],
			      (unsigned long long)max);
	return cr_why(c, "%s '%.40s' is %s", name, c->f[i], code_text(rc));
}

int cr_decimal_ns(const char *s, size_t n, int64_t unit_ns, int64_t *out)
{
	const char *dot = memchr(s, '.', n);
	size_t ni = dot ? (size_t)(dot - s) : n, nf = dot ? n - ni - 1 : 0;
	uint64_t ip = 0;
	int64_t fp = 0, place = unit_ns;
	if (!ni && !nf)
		return -1;
	if (ni && cr_u64(s, ni, &ip) != CR_OK)
		return -1;
	for (size_t i = 0; i < nf; i++) {
		unsigned d = (unsigned)(unsigned char)dot[1 + i] - '0';
		if (d > 9)
			return -1;
		place /= 10; /* 0 below a nanosecond: dropped */
		fp += (int64_t)d * place;
	}
	if (ip > (uint64_t)(INT64_MAX - fp) / (uint64_t)unit_ns)
		return -1;
	*out = (int64_t)ip * unit_ns + fp;
	return 0;
}

const char *cr_field_sec9(struct csvrec *c, int i, const char *name, int64_t *out)
{
	if (!parse_fixed9(c->f[i], c->len[i], out))
		return NULL;
	if (!c->len[i])
		return cr_why(c, "empty %s", name);
	if (c->f[i][0] == '-')
		return cr_why(c, "%s '%.40s' is negative", name, c->f[i]);
	return cr_why(c, "%s '%.40s' is not a decimal number of seconds in range", name, c->f[i]);
}

const char *cr_field_scaled(struct csvrec *c, int i, const char *name, uint64_t unit, uint64_t *out)
{
	uint64_t v;
	const char *w = cr_field_u64(c, i, name, UINT64_MAX, &v);
	if (w)
		return w;
	if (__builtin_mul_overflow(v, unit, out))
		return cr_why(c, "%s '%.40s' out of range (%llu-byte units)", name, c->f[i],
			      (unsigned long long)unit);
	return NULL;
}

const char *cr_extent(struct csvrec *c, const char *off_name, uint64_t off, const char *len_name,
		      uint64_t len, struct ev *e)
{
	if (!len)
		return cr_why(c, "zero %s", len_name);
	if (len > UINT32_MAX)
		return cr_why(c, "%s %llu bytes is above 4294967295", len_name,
			      (unsigned long long)len);
	if (!rd_extent_ok(off, len))
		return cr_why(c, "%s %llu + %s %llu bytes is past 2^63", off_name,
			      (unsigned long long)off, len_name, (unsigned long long)len);
	e->offset = off;
	e->length = (uint32_t)len;
	e->temp = EV_TEMP_NONE;
	return NULL;
}

/* --- the reader skeleton ------------------------------------------ */

const char csvfmt_skip[] = "not I/O";

struct csvfmt_priv {
	struct csvrec c;
	const struct csvfmt *f;
	uint64_t nrec; /* record lines seen (good or bad) */
	uint64_t nskip; /* valid records that are not I/O (csvfmt_skip) */
	int header;    /* a header line was skipped */
};

/* Field count, then the format's parser. */
static const char *parse_rec(const struct csvfmt *f, const struct rd_opts *o, struct csvrec *c,
			     struct ev *e)
{
	if (c->bad)
		return c->bad;
	if (c->nf < f->min_fields || (f->max_fields && c->nf > f->max_fields))
		return cr_nfields(c, f->min_fields, f->max_fields != f->min_fields);
	return f->parse(o, c, e);
}

/*
 * Up to 10 lines (an unterminated last one only when it is the only
 * line, since the probe window may cut it). Each is "good" (a valid
 * record), "shaped" (right field count and shape, bad values) or
 * foreign. All good: the format's score; all shaped: 10 less; shaped
 * lines outnumbering foreign ones two to one: 20 less; else 0. A header
 * line with the format's column names raises the score.
 */
int csvfmt_probe(const struct csvfmt *f, const unsigned char *d, size_t len)
{
	struct csvrec c;
	struct rd_opts o = {.action = 'D'};
	struct ev e;
	char line[4096];
	int good = 0, shaped = 0, lines = 0, header = 0;
	size_t i = 0;
	csvrec_init(&c, NULL, f->sep, f->quotes);
	if (len >= 3 && !memcmp(d, BOM, 3))
		i = 3;
	while (i < len && lines < 10) {
		const unsigned char *nl = memchr(d + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (d + i)) : len - i;
		size_t next = i + l + 1;
		if (!nl && (lines || header))
			break;
		if (l && d[i + l - 1] == '\r')
			l--;
		if (!l) {
			i = next;
			continue;
		}
		if (l >= sizeof(line)) {
			lines++;
			i = next;
			continue;
		}
		memcpy(line, d + i, l);
		line[l] = 0;
		i = next;
		if (csvrec_split(&c, line, l))
			break;
		if (!lines && !header && !c.bad && f->header &&
		    csvrec_is_header(&c, f->header, f->nheader, f->header_exact)) {
			header = 1;
			continue;
		}
		lines++;
		if (c.bad || c.nf < f->min_fields || (f->max_fields && c.nf > f->max_fields) ||
		    !f->shape(&c))
			continue;
		shaped++;
		const char *why = f->parse(&o, &c, &e);
		if (!why || why == csvfmt_skip)
			good++;
	}
	csvrec_free(&c);
	int score = header ? f->header_score : f->score;
	if (!lines)
		return header ? score : 0;
	if (!good)
		return 0;
	if (good == lines)
		return score;
	if (shaped == lines)
		return score - 10;
	return shaped > 2 * (lines - shaped) ? score - 20 : 0;
}

int csvfmt_open(struct reader *r, const struct csvfmt *f)
{
	if (!r->src)
		return set_err(r->err, sizeof(r->err), "%s: no input", r->path);
	struct csvfmt_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return set_err(r->err, sizeof(r->err), "out of memory");
	csvrec_init(&p->c, r->src, f->sep, f->quotes);
	p->f = f;
	r->priv = p;
	return 0;
}

int csvfmt_next(struct reader *r, struct ev *e)
{
	struct csvfmt_priv *p = r->priv;
	struct csvrec *c = &p->c;
	const struct csvfmt *f = p->f;
	for (;;) {
		int rc = csvrec_next(c);
		if (rc < 0)
			return set_err(r->err, sizeof(r->err), "%s", c->why);
		if (rc == 0) {
			if (p->nskip && !r->opt.again) { /* (a second pass said it already) */
				warn("%s: %llu %s skipped (not reads or writes)", r->src->name,
				     (unsigned long long)p->nskip, f->skip_what ? f->skip_what : "records");
				p->nskip = 0;
			}
			if (p->nrec)
				return 0;
			return set_err(r->err, sizeof(r->err),
				       p->header ? "%s: no records, only a header line"
						 : "%s: empty file, no records",
				       r->src->name);
		}
		if (c->nlines == 1 && !c->bad && f->header &&
		    csvrec_is_header(c, f->header, f->nheader, f->header_exact)) {
			p->header = 1;
			continue;
		}
		p->nrec++;
		const char *why = parse_rec(f, &r->opt, c, e);
		if (!why)
			return 1;
		if (why == csvfmt_skip) {
			p->nskip++;
			continue;
		}
		if (rd_bad(r, "%s:%llu: %s", r->src->name, (unsigned long long)r->src->lineno, why))
			return -1;
	}
}

void csvfmt_close(struct reader *r)
{
	struct csvfmt_priv *p = r->priv;
	if (!p)
		return;
	csvrec_free(&p->c);
	free(p);
	r->priv = NULL;
}
