/*
 * rd_fio.c - fio's I/O log (--write_iolog, replayed with --read_iolog),
 * versions 2 and 3 (fio's HOWTO, "Trace file format"; iolog.c):
 *
 *   fio version 3 iolog            fio version 2 iolog
 *   0 /dev/sdb add                 /dev/sdb add
 *   12 /dev/sdb open               /dev/sdb open
 *   149 /dev/sdb write 61440 4096  /dev/sdb write 61440 4096
 *   50924 /dev/sdb trim 0 65536    /dev/sdb wait 50000 0
 *   1000141 /dev/sdb close         /dev/sdb close
 *
 * The first line names the version (version 1 is no longer read by fio
 * either). Version 3 starts each line with the time in microseconds
 * from the start of the run (fio writes utime_since_now); version 2 has
 * no times, only "wait" actions whose offset field is a delay in
 * microseconds, summed here into the events' times. read, write and
 * trim (offset and length in bytes) are R, W and D; sync and datasync
 * are F (offset 0); add, open and close manage files. Each file gets a
 * volume number in the order of its "add" line (0, 1, ...); a file used
 * before its "add" is a bad record, as is an unknown action. Version 3
 * "wait" lines are ignored, as fio ignores them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csvrec.h"
#include "ftlkit.h"

#define FIO_MAX_FILES 65536

struct fio_priv {
	struct csvrec c;
	int version;
	int64_t t_ns;  /* version 2: the sum of the waits so far */
	char **file;
	size_t nfile, cap;
};

static const char V2[] = "fio version 2 iolog", V3[] = "fio version 3 iolog";

static int header_version(const unsigned char *d, size_t len)
{
	size_t n = strlen(V2);
	if (len < n)
		return 0;
	if (!memcmp(d, V2, n))
		return 2;
	if (!memcmp(d, V3, n))
		return 3;
	return 0;
}

static int fio_probe(const unsigned char *d, size_t len)
{
	size_t bom = cr_bom(d, len); /* (csvrec_next skips it too) */
	d += bom;
	len -= bom;
	int v = header_version(d, len);
	if (!v)
		return 0;
	/* the version line alone: nothing else is on it */
	size_t n = strlen(V2);
	return len == n || d[n] == '\n' || d[n] == '\r' ? 100 : 0;
}

static void fio_close(struct reader *r)
{
	struct fio_priv *p = r->priv;
	if (!p)
		return;
	csvrec_free(&p->c);
	for (size_t i = 0; i < p->nfile; i++)
		free(p->file[i]);
	free(p->file);
	free(p);
	r->priv = NULL;
}

static int fio_open(struct reader *r)
{
	if (!r->src)
		return set_err(r->err, sizeof(r->err), "%s: no input", r->path);
	struct fio_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return set_err(r->err, sizeof(r->err), "out of memory");
	r->priv = p;
	csvrec_init(&p->c, r->src, ' ', 0);
	int rc = csvrec_next(&p->c);
	if (rc < 0)
		return set_err(r->err, sizeof(r->err), "%s", p->c.why);
	if (rc == 0)
		return set_err(r->err, sizeof(r->err), "%s: empty file, not a fio iolog", r->src->name);
	/* the split line, rejoined: "fio version N iolog" */
	if (p->c.nf == 4 && !strcmp(p->c.f[0], "fio") && !strcmp(p->c.f[1], "version") &&
	    !strcmp(p->c.f[3], "iolog") && p->c.len[2] == 1)
		p->version = p->c.f[2][0] == '2' ? 2 : p->c.f[2][0] == '3' ? 3 : 0;
	if (!p->version)
		return set_err(r->err, sizeof(r->err),
			       "%s:%" PRIu64 ": not a fio iolog of version 2 or 3 (the first line must be "
			       "'%s' or '%s')",
			       r->src->name, r->src->lineno, V2, V3);
	return 0;
}

static long file_index(const struct fio_priv *p, const char *name)
{
	for (size_t i = p->nfile; i-- > 0;)
		if (!strcmp(p->file[i], name))
			return (long)i;
	return -1;
}

/* A file's "add": 0, or the reason it is bad. */
static const char *add_file(struct fio_priv *p, const char *name)
{
	if (file_index(p, name) >= 0)
		return NULL; /* added again: same volume */
	if (p->nfile == FIO_MAX_FILES)
		return cr_why(&p->c, "more than %d files", FIO_MAX_FILES);
	if (p->nfile == p->cap) {
		size_t ncap = p->cap ? 2 * p->cap : 8;
		char **nf = realloc(p->file, ncap * sizeof(*nf));
		if (!nf)
			return "out of memory";
		p->file = nf;
		p->cap = ncap;
	}
	if (!(p->file[p->nfile] = strdup(name)))
		return "out of memory";
	p->nfile++;
	return NULL;
}

/* One line: 1 event in e, 0 no event, or the reason it is bad in *why. */
static int fio_line(struct fio_priv *p, struct ev *e, const char **why)
{
	struct csvrec *c = &p->c;
	int b = p->version == 3; /* index of the file name */
	int nf = c->nf;
	*why = NULL;
	if (nf != b + 2 && nf != b + 4) {
		*why = cr_why(c, "wrong field count: %d, want %d or %d", nf, b + 2, b + 4);
		return 0;
	}
	uint64_t us = 0;
	if (b && (*why = cr_field_u64(c, 0, "time (us)", INT64_MAX / 1000, &us)))
		return 0;
	const char *name = c->f[b], *act = c->f[b + 1];
	if (nf == b + 2) {
		if (!strcmp(act, "add"))
			*why = add_file(p, name);
		else if (strcmp(act, "open") && strcmp(act, "close"))
			*why = cr_why(c, "unknown file action '%.40s' (want add, open or close)", act);
		else if (file_index(p, name) < 0)
			*why = cr_why(c, "file '%.100s' used before its add line", name);
		return 0;
	}
	uint64_t off, len;
	if ((*why = cr_field_u64(c, b + 2, "offset", UINT64_MAX, &off)) ||
	    (*why = cr_field_u64(c, b + 3, "length", UINT64_MAX, &len)))
		return 0;
	int op;
	if (!strcmp(act, "read"))
		op = EV_READ;
	else if (!strcmp(act, "write"))
		op = EV_WRITE;
	else if (!strcmp(act, "trim"))
		op = EV_DISCARD;
	else if (!strcmp(act, "sync") || !strcmp(act, "datasync"))
		op = EV_FLUSH;
	else if (!strcmp(act, "wait")) {
		if (!b) { /* version 2: the offset field is a delay in us */
			if (off > (uint64_t)(INT64_MAX - p->t_ns) / 1000) {
				*why = cr_why(c, "wait of %" PRIu64 " us takes the time past 2^63 ns", off);
				return 0;
			}
			p->t_ns += (int64_t)off * 1000;
		}
		return 0;
	} else {
		*why = cr_why(c, "unknown action '%.40s' (want read, write, trim, sync, datasync or wait)", act);
		return 0;
	}
	long vol = file_index(p, name);
	if (vol < 0) {
		*why = cr_why(c, "file '%.100s' used before its add line", name);
		return 0;
	}
	e->t_ns = b ? (int64_t)us * 1000 : p->t_ns;
	e->op = (uint8_t)op;
	e->volume = (uint32_t)vol;
	if (op == EV_FLUSH) {
		e->offset = 0;
		e->length = 0;
		e->temp = EV_TEMP_NONE;
		return 1;
	}
	return (*why = cr_extent(c, "offset", off, "length", len, e)) ? 0 : 1;
}

static int fio_next(struct reader *r, struct ev *e)
{
	struct fio_priv *p = r->priv;
	for (;;) {
		int rc = csvrec_next(&p->c);
		if (rc < 0)
			return set_err(r->err, sizeof(r->err), "%s", p->c.why);
		if (rc == 0)
			return 0;
		const char *why;
		if (fio_line(p, e, &why))
			return 1;
		if (why && !strcmp(why, "out of memory"))
			return set_err(r->err, sizeof(r->err), "out of memory");
		if (why && rd_bad(r, "%s:%" PRIu64 ": %s", r->src->name, r->src->lineno, why))
			return -1;
	}
}

const struct reader_ops rd_fio_ops = {
	.name = "fio",
	.desc = "fio I/O log (--write_iolog), versions 2 and 3",
	.version = READER_API_VERSION,
	.flags = RD_MULTI_VOL,
	.probe = fio_probe,
	.open = fio_open,
	.next = fio_next,
	.close = fio_close,
};
