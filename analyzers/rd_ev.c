/*
 * rd_ev.c - the event stream itself (binary or text), so that every
 * program reads what tracecat and tracegen write: binary versions 1 to 3
 * (docs/FORMATS.md section 5). From version 3 on the stream ends with an
 * end record: one that stops before it is cut (r->cut), not a short trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvrec.h"
#include "ftlkit.h"
#include "reader.h"

struct ev_priv {
	int binary; /* the binary stream's version, 0: text */
	uint64_t recno; /* whole event records read (good or bad) */
	int ended;	/* the end record, or the cut, was met */
};

static int ev_probe(const unsigned char *d, size_t len)
{
	if (len >= EV_MAGIC_LEN && !memcmp(d, EV_MAGIC, EV_MAGIC_LEN))
		return 100;
	size_t bom = cr_bom(d, len); /* text: a byte order mark first, as ev_next skips it */
	d += bom;
	len -= bom;
	/* Text form: the first line that is not blank or a "#" comment (as
	 * ev_next skips them) is "INT OP INT INT INT [INT [INT [INT]]]". */
	for (int lines = 0; lines < 64 && len; lines++) {
		char line[256];
		size_t i = 0;
		while (i < len && i < sizeof(line) - 1 && d[i] != '\n') {
			line[i] = (char)d[i];
			i++;
		}
		if (i == len && len >= sizeof(line) - 1)
			return 0;
		const unsigned char *nl = memchr(d, '\n', len);
		size_t next = nl ? (size_t)(nl - d) + 1 : len;
		if (i && line[i - 1] == '\r')
			i--;
		line[i] = 0;
		if (!i || line[0] == '#') {
			d += next;
			len -= next;
			continue;
		}
		struct ev e;
		char err[64];
		if (!ev_parse(line, &e, err, sizeof(err)))
			return 60;
		/* Its five fields good and an optional one bad: still this
		 * format, so that the reader names the file, the line and the
		 * field (no other format has a line "INT OP INT INT INT"). */
		char *p = line;
		for (int f = 0; f < 5 && *p; f++) {
			p += strspn(p, " \t");
			p += strcspn(p, " \t");
		}
		*p = 0;
		return !ev_parse(line, &e, err, sizeof(err)) ? 40 : 0;
	}
	return 0;
}

static int ev_open(struct reader *r)
{
	struct ev_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return set_err(r->err, sizeof(r->err), "out of memory");
	r->priv = p;
	if (!r->src)
		return set_err(r->err, sizeof(r->err), "%s: no input", r->path);
	size_t avail;
	const unsigned char *d = src_peek(r->src, EV_HDR_SIZE, &avail);
	if (!d)
		return set_err(r->err, sizeof(r->err), "%s", r->src->err);
	if (avail >= EV_MAGIC_LEN && !memcmp(d, EV_MAGIC, EV_MAGIC_LEN)) {
		unsigned char hdr[EV_HDR_SIZE];
		char why[128];
		if (src_read(r->src, hdr, EV_HDR_SIZE) != EV_HDR_SIZE)
			return set_err(r->err, sizeof(r->err), "%s: byte 0: truncated event stream header",
				       r->src->name);
		int v = ev_check_header(hdr, why, sizeof(why));
		if (v < 0)
			return set_err(r->err, sizeof(r->err), "%s: byte 0: %s", r->src->name, why);
		p->binary = v;
	}
	return 0;
}

/* The stream cut short: the events so far are good, the input is not
 * whole (from version 3 on, where the writer ends it with a record). */
static int cut(struct reader *r, uint64_t off, const char *how)
{
	struct ev_priv *p = r->priv;
	snprintf(r->cut, sizeof(r->cut),
		 "%s: byte %llu: the event stream %s after %llu events, without its end record: cut "
		 "short (the program that wrote it failed or was stopped)",
		 r->src->name, (unsigned long long)off, how, (unsigned long long)p->recno);
	p->ended = 1;
	return 0;
}

/* The end record at byte off: its count matches, nothing follows. */
static int end(struct reader *r, uint64_t off, uint64_t events)
{
	struct ev_priv *p = r->priv;
	size_t avail;
	p->ended = 1;
	if (events != p->recno)
		return set_err(r->err, sizeof(r->err),
			       "%s: byte %llu: the end record counts %llu events, the stream holds %llu",
			       r->src->name, (unsigned long long)off, (unsigned long long)events,
			       (unsigned long long)p->recno);
	if (!src_peek(r->src, 1, &avail))
		return set_err(r->err, sizeof(r->err), "%s", r->src->err);
	if (avail)
		return set_err(r->err, sizeof(r->err), "%s: byte %llu: data after the end record",
			       r->src->name, (unsigned long long)off + EV_REC_SIZE);
	return 0;
}

/* One whole record at byte off: 1 an event, 0 the end, -1 an error, 2 a
 * bad record skipped. */
static int record(struct reader *r, const unsigned char *in, uint64_t off, struct ev *e)
{
	struct ev_priv *p = r->priv;
	char why[128];
	uint64_t events;
	int end_rc = 0;
	if (p->binary >= EV_VERSION_END && in[24] == EV_OP_END) { /* what ev_is_end looks at first */
		end_rc = ev_is_end(in, p->binary, &events, why, sizeof(why));
		if (end_rc > 0)
			return end(r, off, events) ? -1 : 0;
	}
	p->recno++;
	if (!end_rc && !ev_decode(in, p->binary, e, why, sizeof(why)))
		return 1;
	return rd_bad(r, "%s: byte %llu: %s", r->src->name, (unsigned long long)off, why) ? -1 : 2;
}

static int ev_next(struct reader *r, struct ev *e)
{
	struct ev_priv *p = r->priv;
	char why[128];
	if (p->ended)
		return 0;
	for (;;) {
		if (p->binary) {
			uint64_t off = r->src->offset;
			const unsigned char *in = src_take(r->src, EV_REC_SIZE);
			unsigned char rec[EV_REC_SIZE];
			if (!in) {
				ssize_t got = src_read(r->src, rec, EV_REC_SIZE);
				if (got < 0)
					return set_err(r->err, sizeof(r->err), "%s", r->src->err);
				if (got == 0)
					return p->binary >= EV_VERSION_END ? cut(r, off, "ends") : 0;
				if (got < EV_REC_SIZE && p->binary >= EV_VERSION_END)
					return cut(r, off, "ends inside a record");
				if (got < EV_REC_SIZE) {
					/* A truncated tail is one bad record, then the end. */
					if (rd_bad(r, "%s: byte %llu: truncated record (%zd of %d bytes)",
						   r->src->name, (unsigned long long)off, got, EV_REC_SIZE))
						return -1;
					return 0;
				}
				in = rec;
			}
			/* else the record whole in the buffer: no copy */
			int rc = record(r, in, off, e);
			if (rc != 2)
				return rc;
		} else {
			size_t len;
			char *line = src_getline(r->src, &len);
			if (!line)
				return r->src->err[0] ? set_err(r->err, sizeof(r->err), "%s", r->src->err)
						      : 0;
			if (r->src->lineno == 1) {
				size_t bom = cr_bom((const unsigned char *)line, len);
				line += bom;
				len -= bom;
			}
			if (!len || line[0] == '#')
				continue;
			if (!ev_parse(line, e, why, sizeof(why)))
				return 1;
			if (rd_bad(r, "%s:%llu: %s", r->src->name, (unsigned long long)r->src->lineno,
				   why))
				return -1;
		}
	}
}

/* The records whole in the buffer that decode to events as record()
 * would, with their times within 2^62 ns of 0 (reader_ops.next_many);
 * anything else (an end record, a bad one, the buffer's end) is left to
 * ev_next. */
static size_t ev_next_many(struct reader *r, struct ev *e, size_t n)
{
	struct ev_priv *p = r->priv;
	struct src *s = r->src;
	int v = p->binary;
	size_t k = 0;
	if (p->ended || !v)
		return 0;
	for (; k < n && s->len - s->pos >= EV_REC_SIZE; k++) {
		const unsigned char *in = s->buf + s->pos;
		if (ev_get64(in) + (UINT64_C(1) << 62) >= UINT64_C(1) << 63 ||
		    (v >= EV_VERSION_END && in[24] == EV_OP_END) || !ev_decode_good(in, v, &e[k]))
			break; /* ev_next says what it is */
		s->pos += EV_REC_SIZE;
		s->offset += EV_REC_SIZE;
		p->recno++;
	}
	return k;
}

static void ev_close(struct reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

const struct reader_ops rd_ev_ops = {
	.name = "ev",
	.desc = "ftlkit event stream (binary or text)",
	.version = READER_API_VERSION,
	.flags = RD_MULTI_VOL | RD_TEMP,
	.probe = ev_probe,
	.open = ev_open,
	.next = ev_next,
	.close = ev_close,
	.next_many = ev_next_many,
};
