/*
 * event.h - the event stream: one record per physical I/O, the common
 * currency of every ftlkit program.
 *
 * Binary form (between programs): a 16-byte header
 *     "FTLKEV\0\0" magic, u32 version (1), u32 record size (32),
 * then fixed 32-byte little-endian records:
 *     0 i64 t_ns   8 u64 offset   16 u32 length   20 u32 volume
 *     24 u8 op     25 u8 temp     26..31 zero
 * Text form (for people): one line per record,
 *     "t_ns op offset length volume" with op one of R W D F,
 * and an optional sixth field, the temperature label (tracegen).
 * Consumers tell the two apart by the magic.
 *
 * t_ns is signed: times are relative to the trace's first event in
 * file order, and a trace that is not time-sorted (SYSTOR'17, Tencent)
 * has records before it unless it is sorted (tracecat --sort).
 */
#ifndef FTLKIT_EVENT_H
#define FTLKIT_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ev_op { EV_READ = 0, EV_WRITE = 1, EV_DISCARD = 2, EV_FLUSH = 3, EV_NOPS = 4 };

#define EV_TEMP_NONE 0 /* no label; tracegen labels 1 (hottest) .. 255 */

struct ev {
	int64_t t_ns;
	uint64_t offset; /* bytes */
	uint32_t length; /* bytes */
	uint32_t volume;
	uint8_t op;	 /* enum ev_op */
	uint8_t temp;	 /* temperature label, EV_TEMP_NONE if none */
};

#define EV_MAGIC "FTLKEV\0\0"
#define EV_MAGIC_LEN 8
#define EV_VERSION 1
#define EV_HDR_SIZE 16
#define EV_REC_SIZE 32

extern const char ev_op_char[EV_NOPS]; /* "RWDF" */
/* 'R' -> EV_READ ...; -1 if not an op letter. */
int ev_op_from_char(int c);
/* Parse "W,D" or "RWDF" into a bit mask (1 << op); -1 on error. */
int ev_ops_mask(const char *s);

void ev_encode_header(unsigned char out[EV_HDR_SIZE]);
/* 0 if hdr is a valid header, -1 with a message otherwise. */
int ev_check_header(const unsigned char *hdr, char *err, size_t n);
void ev_encode(const struct ev *e, unsigned char out[EV_REC_SIZE]);
/* 0 ok, -1 with a message on a bad op or nonzero padding. */
int ev_decode(const unsigned char in[EV_REC_SIZE], struct ev *e, char *err, size_t n);

/* Text form. ev_format returns the length written (buf >= 96 bytes). */
int ev_format(const struct ev *e, char *buf);
/* Parse one text line (no newline); 0 ok, -1 with a message. */
int ev_parse(const char *line, struct ev *e, char *err, size_t n);

/* Buffered writer of either form. */
struct ev_writer {
	FILE *fp;
	int binary;
	size_t n;
	unsigned char buf[EV_REC_SIZE * 2048];
};
void ev_writer_init(struct ev_writer *w, FILE *fp, int binary);
int ev_write(struct ev_writer *w, const struct ev *e);
int ev_writer_flush(struct ev_writer *w);

#endif
