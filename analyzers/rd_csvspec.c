/*
 * rd_csvspec.c - any delimited text through a column map given on the
 * command line: -f csv --columns SPEC, so that a layout nobody wrote a
 * reader for needs no awk. SPEC is a list of blank-separated items:
 *
 *   t=N[:UNIT]           the time column; UNIT s, ms, us or ns (default
 *                        s), decimals allowed (those below a ns dropped)
 *   op=N:V=X[,V=X...]    the op column and its values: V is the text in
 *                        the file, X one of R W D F
 *   offset=N[:UNIT]      the offset column; UNIT bytes (default) or
 *                        sectors (512 bytes, or --sector-size)
 *   length=N[:UNIT]      likewise for the length
 *   volume=N             the volume column (default: volume 0)
 *   sep=C                the separator: a character, or comma (the
 *                        default), tab, space (runs of blanks), semicolon
 *   header=1             the first line is a header: skipped
 *
 * Columns count from 1. t, op, offset and length are required, except
 * that a flush (F) needs no offset or length. For example:
 *   --columns 't=1:us op=2:r=R,w=W offset=3:sectors length=4:bytes volume=5'
 * Never detected by -f auto: the layout is the user's word.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csvrec.h"
#include "csvspec.h"
#include "ftlkit.h"

static int col(const char *s, const char *end, int *out)
{
	char *e;
	long v = strtol(s, &e, 10);
	if (e != end || e == s || v < 1 || v > CSVREC_MAX_FIELDS)
		return -1;
	*out = (int)v - 1;
	return 0;
}

int csvspec_parse(const char *spec, struct csvspec *s, char *err, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->t = s->op = s->off = s->len = s->vol = -1;
	s->sep = ',';
	s->t_scale = 1000000000;
	char buf[1024];
	if (strlen(spec) >= sizeof(buf))
		return set_err(err, n, "--columns: too long");
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *save = NULL, *it = strtok_r(buf, " \t", &save); it; it = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(it, '=');
		if (!eq)
			return set_err(err, n, "--columns: '%s' is not NAME=VALUE", it);
		*eq = 0;
		char *v = eq + 1, *colon = strchr(v, ':');
		const char *vend = colon ? colon : v + strlen(v);
		if (!strcmp(it, "sep")) {
			if (!strcmp(v, "comma")) s->sep = ',';
			else if (!strcmp(v, "tab")) s->sep = '\t';
			else if (!strcmp(v, "space")) s->sep = ' ';
			else if (!strcmp(v, "semicolon")) s->sep = ';';
			else if (strlen(v) == 1) s->sep = (unsigned char)v[0];
			else return set_err(err, n, "--columns: sep=%s: one character, comma, tab, space or semicolon", v);
		} else if (!strcmp(it, "header")) {
			s->header = strcmp(v, "0") != 0;
		} else if (!strcmp(it, "t")) {
			if (col(v, vend, &s->t))
				return set_err(err, n, "--columns: t=%s: want a column number 1-%d", v, CSVREC_MAX_FIELDS);
			const char *u = colon ? colon + 1 : "s";
			s->t_scale = !strcmp(u, "s") ? 1000000000 : !strcmp(u, "ms") ? 1000000 : !strcmp(u, "us") ? 1000
				     : !strcmp(u, "ns") ? 1 : 0;
			if (!s->t_scale)
				return set_err(err, n, "--columns: t unit '%s': want s, ms, us or ns", u);
		} else if (!strcmp(it, "offset") || !strcmp(it, "length")) {
			int *c = it[0] == 'o' ? &s->off : &s->len;
			int *sec = it[0] == 'o' ? &s->off_sectors : &s->len_sectors;
			if (col(v, vend, c))
				return set_err(err, n, "--columns: %s=%s: want a column number 1-%d", it, v, CSVREC_MAX_FIELDS);
			const char *u = colon ? colon + 1 : "bytes";
			if (strcmp(u, "bytes") && strcmp(u, "sectors"))
				return set_err(err, n, "--columns: %s unit '%s': want bytes or sectors", it, u);
			*sec = !strcmp(u, "sectors");
		} else if (!strcmp(it, "volume")) {
			if (col(v, vend, &s->vol))
				return set_err(err, n, "--columns: volume=%s: want a column number 1-%d", v, CSVREC_MAX_FIELDS);
		} else if (!strcmp(it, "op")) {
			if (!colon || col(v, vend, &s->op))
				return set_err(err, n, "--columns: op=%s: want op=N:VALUE=X,... (X one of R W D F)", v);
			for (char *s2 = NULL, *m = strtok_r(colon + 1, ",", &s2); m; m = strtok_r(NULL, ",", &s2)) {
				char *e2 = strrchr(m, '=');
				int op = e2 && e2[1] && !e2[2] ? ev_op_from_char(e2[1]) : -1;
				if (op < 0 || e2 == m || s->nmap == CSVSPEC_MAX_OPS || (size_t)(e2 - m) >= sizeof(s->map[0].text))
					return set_err(err, n, "--columns: op value '%s': want TEXT=X, X one of R W D F", m);
				snprintf(s->map[s->nmap].text, sizeof(s->map[0].text), "%.*s", (int)(e2 - m), m);
				s->map[s->nmap++].op = op;
			}
		} else {
			return set_err(err, n, "--columns: unknown item '%s' (t, op, offset, length, volume, sep, header)", it);
		}
	}
	if (s->t < 0 || s->op < 0 || s->off < 0 || s->len < 0)
		return set_err(err, n, "--columns: t, op, offset and length are required (e.g. 't=1:us op=2:r=R,w=W offset=3 length=4')");
	int max = s->t;
	int cols[] = {s->op, s->off, s->len, s->vol};
	for (int i = 0; i < 4; i++)
		if (cols[i] > max)
			max = cols[i];
	s->min_fields = max + 1;
	return 0;
}

struct spec_priv {
	struct csvrec c;
	struct csvspec s;
	uint64_t nrec;
};

/* Any layout is read only through a map given; detected is ftlkit's own
 * CSV alone (tracecat -o csv), by its header, read with OWN_COLUMNS. */
#define OWN_HEADER "t_ns,op,offset,length,volume"
#define OWN_COLUMNS "t=1:ns op=2:R=R,W=W,D=D,F=F offset=3 length=4 volume=5 header=1"

static int spec_probe(const unsigned char *d, size_t len)
{
	size_t n = sizeof(OWN_HEADER) - 1, bom = cr_bom(d, len); /* (csvrec_next skips it too) */
	d += bom;
	len -= bom;
	if (len <= n || memcmp(d, OWN_HEADER, n))
		return 0;
	return d[n] == '\n' || (d[n] == '\r' && len > n + 1 && d[n + 1] == '\n') ? 100 : 0;
}

static void spec_close(struct reader *r)
{
	struct spec_priv *p = r->priv;
	if (!p)
		return;
	csvrec_free(&p->c);
	free(p);
	r->priv = NULL;
}

static int spec_open(struct reader *r)
{
	if (!r->src)
		return set_err(r->err, sizeof(r->err), "%s: no input", r->path);
	const char *columns = r->opt.columns ? r->opt.columns : OWN_COLUMNS; /* (detected: spec_probe) */
	struct spec_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return set_err(r->err, sizeof(r->err), "out of memory");
	r->priv = p;
	if (csvspec_parse(columns, &p->s, r->err, sizeof(r->err)))
		return -1;
	csvrec_init(&p->c, r->src, p->s.sep, p->s.sep == ',');
	return 0;
}

static const char *spec_parse(const struct rd_opts *o, struct spec_priv *p, struct ev *e)
{
	struct csvrec *c = &p->c;
	const struct csvspec *s = &p->s;
	if (c->bad)
		return c->bad;
	if (c->nf < s->min_fields)
		return cr_nfields(c, s->min_fields, 1);
	/* integer or decimal: any time whose ns fit */
	if (cr_decimal_ns(c->f[s->t], c->len[s->t], s->t_scale, &e->t_ns))
		return cr_why(c, "time '%.40s' (column %d) is not a non-negative number in range",
			      c->f[s->t], s->t + 1);
	int op = -1;
	for (int i = 0; i < s->nmap && op < 0; i++)
		if (!strcmp(c->f[s->op], s->map[i].text))
			op = s->map[i].op;
	if (op < 0)
		return cr_why(c, "op '%.40s' (column %d) is none of the --columns op values", c->f[s->op], s->op + 1);
	e->op = (uint8_t)op;
	uint64_t vol = 0, off, len;
	const char *w;
	if (s->vol >= 0 && (w = cr_field_u64(c, s->vol, "volume", UINT32_MAX, &vol)))
		return w;
	e->volume = (uint32_t)vol;
	if (op == EV_FLUSH) {
		e->offset = 0;
		e->length = 0;
		e->temp = EV_TEMP_NONE;
		return NULL;
	}
	uint64_t ss = cr_sector(o, 512);
	if ((w = cr_field_scaled(c, s->off, "offset", s->off_sectors ? ss : 1, &off)) ||
	    (w = cr_field_scaled(c, s->len, "length", s->len_sectors ? ss : 1, &len)))
		return w;
	return cr_extent(c, "offset", off, "length", len, e);
}

static int spec_next(struct reader *r, struct ev *e)
{
	struct spec_priv *p = r->priv;
	for (;;) {
		int rc = csvrec_next(&p->c);
		if (rc < 0)
			return set_err(r->err, sizeof(r->err), "%s", p->c.why);
		if (rc == 0)
			return p->nrec ? 0 : set_err(r->err, sizeof(r->err), "%s: no records", r->src->name);
		if (p->s.header && p->c.nlines == 1)
			continue;
		p->nrec++;
		const char *why = spec_parse(&r->opt, p, e);
		if (!why)
			return 1;
		if (rd_bad(r, "%s:%" PRIu64 ": %s", r->src->name, r->src->lineno, why))
			return -1;
	}
}

const struct reader_ops rd_csvspec_ops = {
	.name = "csv",
	.desc = "any delimited text, through the column map of --columns SPEC",
	.version = READER_API_VERSION,
	.flags = RD_MULTI_VOL | RD_SECTORS,
	.probe = spec_probe,
	.open = spec_open,
	.next = spec_next,
	.close = spec_close,
};
