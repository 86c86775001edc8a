/*
 * event.c - encoding and decoding of the event stream (see event.h).
 */
#include "event.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"

const char ev_op_char[EV_NOPS] = {'R', 'W', 'D', 'F'};
static const char *const op_names[EV_NOPS_ALL] = {"R", "W", "D", "F", "ZR", "ZO", "ZF", "ZA"};

const char *ev_op_name(unsigned op) { return op < EV_NOPS_ALL ? op_names[op] : "?"; }

int ev_op_from_char(int c)
{
	switch (c) {
	case 'R': return EV_READ;
	case 'W': return EV_WRITE;
	case 'D': return EV_DISCARD;
	case 'F': return EV_FLUSH;
	}
	return -1;
}

int ev_ops_mask(const char *s)
{
	int m = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s == ',')
			continue;
		int op = ev_op_from_char(*s);
		if (op < 0)
			return -1;
		m |= 1 << op;
	}
	return m;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

void ev_encode_header(unsigned char out[EV_HDR_SIZE])
{
	memcpy(out, EV_MAGIC, EV_MAGIC_LEN);
	put32(out + 8, EV_VERSION);
	put32(out + 12, EV_REC_SIZE);
}

int ev_check_header(const unsigned char *hdr, char *err, size_t n)
{
	if (memcmp(hdr, EV_MAGIC, EV_MAGIC_LEN))
		return set_err(err, n, "not an ftlkit event stream (bad magic)");
	uint32_t v = get32(hdr + 8);
	if (v < 1 || v > EV_VERSION)
		return set_err(err, n, "unsupported event stream version %" PRIu32, v);
	if (get32(hdr + 12) != EV_REC_SIZE)
		return set_err(err, n, "unsupported event record size %" PRIu32, get32(hdr + 12));
	return (int)v;
}

void ev_encode(const struct ev *e, unsigned char out[EV_REC_SIZE])
{
	put64(out, (uint64_t)e->t_ns);
	put64(out + 8, e->offset);
	put32(out + 16, e->length);
	put32(out + 20, e->volume);
	out[24] = e->op;
	out[25] = e->temp;
	out[26] = (unsigned char)e->stream;
	out[27] = (unsigned char)(e->stream >> 8);
	out[28] = e->hint;
	memset(out + 29, 0, 3);
}

int ev_decode(const unsigned char in[EV_REC_SIZE], int version, struct ev *e, char *err, size_t n)
{
	e->t_ns = (int64_t)get64(in);
	e->offset = get64(in + 8);
	e->length = get32(in + 16);
	e->volume = get32(in + 20);
	e->op = in[24];
	e->temp = in[25];
	e->stream = 0;
	e->hint = 0;
	if (e->op >= (version >= 2 ? EV_NOPS_ALL : EV_NOPS))
		return set_err(err, n, "unknown op code %u", e->op);
	if (version >= 2) {
		e->stream = (uint16_t)(in[26] | in[27] << 8);
		e->hint = in[28];
		if (e->hint > EV_HINT_MAX)
			return set_err(err, n, "write-lifetime hint %u past %d", e->hint, EV_HINT_MAX);
	}
	for (int i = version >= 2 ? 29 : 26; i < 32; i++)
		if (in[i])
			return set_err(err, n, "nonzero padding byte");
	if (e->offset > INT64_MAX)
		return set_err(err, n, "offset %" PRIu64 " past 2^63", e->offset);
	return 0;
}

void ev_encode_end(uint64_t events, unsigned char out[EV_REC_SIZE])
{
	memset(out, 0, EV_REC_SIZE);
	put64(out, events);
	out[24] = EV_OP_END;
}

int ev_is_end(const unsigned char in[EV_REC_SIZE], int version, uint64_t *events, char *err, size_t n)
{
	if (version < EV_VERSION_END || in[24] != EV_OP_END)
		return 0;
	for (int i = 8; i < EV_REC_SIZE; i++)
		if (i != 24 && in[i])
			return set_err(err, n, "bad end record (nonzero byte %d)", i);
	*events = get64(in);
	return 1;
}

int ev_format(const struct ev *e, char *buf)
{
	int w = sprintf(buf, "%" PRId64 " %s %" PRIu64 " %" PRIu32 " %" PRIu32, e->t_ns, ev_op_name(e->op),
			e->offset, e->length, e->volume);
	/* Optional fields, each written when it or a later one is set. */
	if (e->temp || e->stream || e->hint)
		w += sprintf(buf + w, " %u", e->temp);
	if (e->stream || e->hint)
		w += sprintf(buf + w, " %u", e->stream);
	if (e->hint)
		w += sprintf(buf + w, " %u", e->hint);
	buf[w++] = '\n';
	buf[w] = 0;
	return w;
}

static int op_of(const char *b, size_t len)
{
	if (len == 1)
		return ev_op_from_char(*b);
	for (unsigned op = EV_NOPS; op < EV_NOPS_ALL; op++)
		if (len == strlen(op_names[op]) && !memcmp(b, op_names[op], len))
			return (int)op;
	return -1;
}

/* Next space-separated token; returns its start and sets *len. */
static const char *tok(const char **p, size_t *len)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	const char *b = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	*len = (size_t)(s - b);
	*p = s;
	return b;
}

static int tok_u64(const char **p, uint64_t max, uint64_t *out)
{
	size_t len;
	const char *b = tok(p, &len);
	char tmp[32];
	if (!len || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, b, len);
	tmp[len] = 0;
	if (parse_u64(tmp, out) || *out > max)
		return -1;
	return 0;
}

int ev_parse(const char *line, struct ev *e, char *err, size_t n)
{
	const char *p = line;
	size_t len;
	const char *b = tok(&p, &len);
	char tmp[32];
	uint64_t v;
	if (!len || len >= sizeof(tmp))
		return set_err(err, n, "missing or bad time field");
	memcpy(tmp, b, len);
	tmp[len] = 0;
	if (parse_i64(tmp, &e->t_ns))
		return set_err(err, n, "bad time '%s'", tmp);
	b = tok(&p, &len);
	int op = op_of(b, len);
	if (op < 0)
		return set_err(err, n, "bad op (want R, W, D, F, or ZR, ZO, ZF, ZA)");
	e->op = (uint8_t)op;
	if (tok_u64(&p, INT64_MAX, &e->offset))
		return set_err(err, n, "bad offset");
	if (tok_u64(&p, UINT32_MAX, &v))
		return set_err(err, n, "bad length");
	e->length = (uint32_t)v;
	if (tok_u64(&p, UINT32_MAX, &v))
		return set_err(err, n, "bad volume");
	e->volume = (uint32_t)v;
	e->temp = 0;
	e->stream = 0;
	e->hint = 0;
	/* Optional: temperature label, stream, write-lifetime hint. */
	static const struct {
		const char *what;
		uint64_t max;
	} opt[3] = {{"temperature label", 255}, {"stream", UINT16_MAX}, {"write-lifetime hint", EV_HINT_MAX}};
	for (int i = 0;; i++) {
		const char *q = p, *f = tok(&q, &len);
		if (!len)
			return 0;
		if (i == 3)
			return set_err(err, n, "too many fields");
		if (tok_u64(&p, opt[i].max, &v))
			return set_err(err, n, "bad %s '%.*s' (0 to %llu)", opt[i].what, len > 24 ? 24 : (int)len, f,
				       (unsigned long long)opt[i].max);
		if (i == 0)
			e->temp = (uint8_t)v;
		else if (i == 1)
			e->stream = (uint16_t)v;
		else
			e->hint = (uint8_t)v;
	}
}

void ev_writer_init(struct ev_writer *w, FILE *fp, int binary)
{
	w->fp = fp;
	w->binary = binary;
	w->n = 0;
	w->events = 0;
	if (binary) {
		ev_encode_header(w->buf);
		w->n = EV_HDR_SIZE;
	}
}

int ev_write(struct ev_writer *w, const struct ev *e)
{
	if (w->n + 128 > sizeof(w->buf) && ev_writer_flush(w))
		return -1;
	if (w->binary) {
		ev_encode(e, w->buf + w->n);
		w->n += EV_REC_SIZE;
	} else {
		w->n += (size_t)ev_format(e, (char *)w->buf + w->n);
	}
	w->events++;
	return 0;
}

int ev_writer_flush(struct ev_writer *w)
{
	if (w->n && fwrite(w->buf, 1, w->n, w->fp) != w->n)
		return -1;
	w->n = 0;
	return fflush(w->fp) ? -1 : 0;
}

int ev_writer_end(struct ev_writer *w)
{
	if (w->binary) {
		if (w->n + EV_REC_SIZE > sizeof(w->buf) && ev_writer_flush(w))
			return -1;
		ev_encode_end(w->events, w->buf + w->n);
		w->n += EV_REC_SIZE;
	}
	return ev_writer_flush(w);
}
