/*
 * event.h - the event stream: one record per physical I/O, the common
 * currency of every ftlkit program (docs/FORMATS.md section 5).
 *
 * Binary form (between programs): a 16-byte header
 *     "FTLKEV\0\0" magic, u32 version (3; 1 and 2 are still read), u32
 *     record size (32),
 * then fixed 32-byte little-endian records:
 *     0 i64 t_ns   8 u64 offset   16 u32 length   20 u32 volume
 *     24 u8 op     25 u8 temp     26 u16 stream  28 u8 hint  29..31 zero
 * (version 1: ops 0-3 only, bytes 26..31 zero), and from version 3 on,
 * last, one end record:
 *     0 u64 the number of event records before it   24 u8 0xff
 *     every other byte zero
 * which a writer appends only when it has written every event it meant
 * to (ev_writer_end): not after an error, not when a signal stopped it.
 * A reader of a version 3 stream that ends without it reports the
 * stream cut (trace_cut): a pipe whose writer failed is not a short
 * trace. Versions 1 and 2 have no end record and are read as before.
 * Text form (for people): one line per record,
 *     "t_ns op offset length volume [temp [stream [hint]]]"
 * with op one of R W D F, or ZR ZO ZF ZA for the zone operations.
 * Consumers tell the two apart by the magic.
 *
 * t_ns is signed: times are relative to the trace's first event in
 * file order, and a trace that is not time-sorted (SYSTOR'17, Tencent)
 * has records before it unless it is sorted (tracecat --sort).
 *
 * stream is what the host said about where the data belongs: an NVMe
 * Flexible Data Placement handle (stream = handle + 1), a stream
 * directive's identifier, a zone's placement class; 0: none. hint is
 * the host's write-lifetime hint as Linux carries it (RWH_WRITE_LIFE_*:
 * 1 none, 2 short, 3 medium, 4 long, 5 extreme); 0: not set.
 * Zone operations (ZNS, ZBC): offset is the zone's first byte; length
 * its size for reset, open and finish (0: unknown), the bytes appended
 * for append.
 */
#ifndef FTLKIT_EVENT_H
#define FTLKIT_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The block operations are 0..EV_NOPS-1 (every consumer handles them);
 * the zone operations come after, up to EV_NOPS_ALL - 1. */
enum ev_op {
	EV_READ = 0,
	EV_WRITE = 1,
	EV_DISCARD = 2,
	EV_FLUSH = 3,
	EV_NOPS = 4,
	EV_ZONE_RESET = 4,
	EV_ZONE_OPEN = 5,
	EV_ZONE_FINISH = 6,
	EV_ZONE_APPEND = 7,
	EV_NOPS_ALL = 8
};

#define EV_TEMP_NONE 0 /* no label; tracegen labels 1 (hottest) .. 255 */

struct ev {
	int64_t t_ns;
	uint64_t offset; /* bytes */
	uint32_t length; /* bytes */
	uint32_t volume;
	uint8_t op;	 /* enum ev_op */
	uint8_t temp;	 /* temperature label, EV_TEMP_NONE if none */
	uint16_t stream; /* placement or stream identifier, 0: none */
	uint8_t hint;	 /* write-lifetime hint (RWH_WRITE_LIFE_*), 0: not set */
};

#define EV_HINT_MAX 5

#define EV_MAGIC "FTLKEV\0\0"
#define EV_MAGIC_LEN 8
#define EV_VERSION 3 /* written; 1, 2 and 3 are read */
#define EV_VERSION_END 3 /* the first version with an end record */
#define EV_OP_END 0xff /* byte 24 of the end record */
#define EV_HDR_SIZE 16
#define EV_REC_SIZE 32

extern const char ev_op_char[EV_NOPS]; /* "RWDF" */
/* 'R' -> EV_READ ...; -1 if not an op letter. */
int ev_op_from_char(int c);
/* "R" ... "F", "ZR" "ZO" "ZF" "ZA": an op's text name; "?" if none. */
const char *ev_op_name(unsigned op);
/* Parse "W,D" or "RWDF" into a bit mask (1 << op); -1 on error. */
int ev_ops_mask(const char *s);

/* Requests to pages of page_size bytes (a power of two), the one rule
 * of the model, ftlsim's passes and tracestat (docs/MODEL.md
 * "Requests"): [*first, *end) the pages e's byte range touches (what a
 * write programs, a read reads); both UINT64_MAX when its end would
 * pass 2^64. */
static inline void ev_pages(const struct ev *e, uint64_t page_size, uint64_t *first, uint64_t *end)
{
	unsigned sh = (unsigned)__builtin_ctzll(page_size);
	if (e->offset > UINT64_MAX - e->length - page_size) { /* the end would wrap */
		*first = *end = UINT64_MAX;
		return;
	}
	*first = e->offset >> sh;
	*end = (e->offset + e->length + page_size - 1) >> sh;
}
/* Of those, the pages it covers whole (what a discard trims), [*first,
 * *end): none when *end <= *first. */
static inline void ev_whole_pages(const struct ev *e, uint64_t page_size, uint64_t *first, uint64_t *end)
{
	unsigned sh = (unsigned)__builtin_ctzll(page_size);
	if (e->offset > UINT64_MAX - e->length - page_size) {
		*first = *end = UINT64_MAX;
		return;
	}
	*first = (e->offset + page_size - 1) >> sh;
	*end = (e->offset + e->length) >> sh;
}

void ev_encode_header(unsigned char out[EV_HDR_SIZE]);
/* The stream's version (1 to 3) if hdr is a valid header, -1 with a
 * message otherwise. */
int ev_check_header(const unsigned char *hdr, char *err, size_t n);
void ev_encode(const struct ev *e, unsigned char out[EV_REC_SIZE]);
/* A record of a stream of this version: 0 ok, -1 with a message on a
 * bad op, a bad hint or nonzero padding. */
int ev_decode(const unsigned char in[EV_REC_SIZE], int version, struct ev *e, char *err, size_t n);

/* Little-endian fields of a record. */
static inline uint32_t ev_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t ev_get64(const unsigned char *p) { return (uint64_t)ev_get32(p) | (uint64_t)ev_get32(p + 4) << 32; }

/* ev_decode of a good record, inline: 1 (*e as ev_decode sets it), or
 * 0 for one that ev_decode refuses (nothing said why). */
static inline int ev_decode_good(const unsigned char in[EV_REC_SIZE], int version, struct ev *e)
{
	unsigned op = in[24], hint = version >= 2 ? in[28] : 0;
	uint64_t offset = ev_get64(in + 8);
	unsigned pad = in[29] | in[30] | in[31]; /* the padding: bytes 29 to 31, from 26 in version 1 */
	if (version < 2)
		pad |= in[26] | in[27] | in[28];
	if (op >= (unsigned)(version >= 2 ? EV_NOPS_ALL : EV_NOPS) || hint > EV_HINT_MAX ||
	    offset > (uint64_t)INT64_MAX || pad)
		return 0;
	e->t_ns = (int64_t)ev_get64(in);
	e->offset = offset;
	e->length = ev_get32(in + 16);
	e->volume = ev_get32(in + 20);
	e->op = (uint8_t)op;
	e->temp = in[25];
	e->stream = version >= 2 ? (uint16_t)(in[26] | in[27] << 8) : 0;
	e->hint = (uint8_t)hint;
	return 1;
}

/* The end record after events event records. */
void ev_encode_end(uint64_t events, unsigned char out[EV_REC_SIZE]);
/* Whether a record of a stream of this version is its end record: 1
 * (the count of event records it states in *events), 0 (an event
 * record, or a version without end records), -1 with a message (byte
 * 24 says end but another byte is wrong). */
int ev_is_end(const unsigned char in[EV_REC_SIZE], int version, uint64_t *events, char *err, size_t n);

/* Text form. ev_format returns the length written (buf >= 112 bytes). */
int ev_format(const struct ev *e, char *buf);
/* Parse one text line (no newline); 0 ok, -1 with a message. */
int ev_parse(const char *line, struct ev *e, char *err, size_t n);

/* Buffered writer of either form. */
struct ev_writer {
	FILE *fp;
	int binary;
	size_t n;
	uint64_t events; /* written so far */
	unsigned char buf[EV_REC_SIZE * 2048];
};
void ev_writer_init(struct ev_writer *w, FILE *fp, int binary);
int ev_write(struct ev_writer *w, const struct ev *e);
/* What is buffered goes out; the stream stays open (and, binary, without
 * its end: what a writer does when it stops on an error or a signal). */
int ev_writer_flush(struct ev_writer *w);
/* The stream is complete: the binary form's end record, then a flush.
 * Only on success; the text form has no end record. */
int ev_writer_end(struct ev_writer *w);

#endif
