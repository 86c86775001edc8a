/*
 * src.h - a streaming byte source: a file or stdin, transparently
 * decompressed (gzip, bzip2, zstd, xz, detected by magic), read through
 * one fixed buffer so memory stays constant whatever the input's size.
 *
 * Readers take bytes (src_read), peek at the start (src_peek, for
 * format detection) or lines (src_getline, with line numbers).
 */
#ifndef FTLKIT_SRC_H
#define FTLKIT_SRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum src_codec { SRC_PLAIN, SRC_GZIP, SRC_BZIP2, SRC_ZSTD, SRC_XZ };

struct src {
	char *name;   /* path as given, "-" shown as "<stdin>" */
	int fd;
	int codec;
	void *z;      /* decompressor state */
	unsigned char *in;  /* compressed input buffer */
	size_t in_len, in_pos;
	int in_eof;
	unsigned char *buf; /* decompressed data */
	size_t cap, len, pos;
	int eof;
	int mid_frame;  /* zstd: inside a frame (its end not yet seen) */
	uint64_t offset;    /* decompressed bytes consumed before buf[pos] */
	uint64_t lineno;    /* number of the line last returned by src_getline */
	uint64_t unterminated; /* the last line, returned without a newline after it (its number), or 0 */
	uint64_t raw_read;  /* bytes read from the file (compressed bytes if it is) */
	struct src_async *async; /* src_async: the decompressing thread */
	char err[256];
	/* An error met by src_peek after some bytes were decoded: given
	 * back when a read asks for more than those bytes. */
	char err_pending[256];
	/* A decoder's error met after good bytes of the same call: those
	 * bytes are given first, this error with the next call. */
	char err_late[256];
};

/* Open path ("-" for stdin). 0 ok, -1 with src->err set. */
int src_open(struct src *s, const char *path);
/* A source over bytes in memory (copied), for fuzzing and tests. */
int src_open_mem(struct src *s, const char *name, const void *data, size_t len);
void src_close(struct src *s);
const char *src_codec_name(int codec);
/*
 * Decompress ahead in a thread of its own (a compressed regular file
 * only; otherwise nothing changes): the caller parses one chunk while
 * the thread inflates the next, through a ring of a few chunks. Call
 * right after src_open, before any read. The bytes, errors and
 * raw_read (as of the bytes consumed) are the same as without. 0, or
 * -1 with s->err set (the source is then unchanged and still usable
 * without the thread, or closed by src_close as usual).
 */
int src_async(struct src *s);
/* The file's size in bytes (compressed, as stored), or -1 when it has
 * none (a pipe, a terminal, a source in memory): with raw_read, how far
 * a reader is through its input. */
int64_t src_size(const struct src *s);

/* Make at least n bytes available (fewer at end of data); returns a
 * pointer to them and sets *avail. NULL on error (s->err). */
const unsigned char *src_peek(struct src *s, size_t n, size_t *avail);
/* src_peek for a look at the start (format detection): an error after
 * some bytes were decoded (a truncated compressed file) returns those
 * bytes, and the error comes when a read asks for more than them. */
const unsigned char *src_peek_start(struct src *s, size_t n, size_t *avail);
/* Read exactly n bytes unless the data ends first. Returns the count
 * read (< n at the end), -1 on error. */
ssize_t src_read(struct src *s, void *dst, size_t n);
/* n bytes straight from the buffer when it holds them (consumed, as
 * src_read would), else NULL: the caller then takes the src_read path. */
static inline const unsigned char *src_take(struct src *s, size_t n)
{
	if (s->len - s->pos < n)
		return NULL;
	const unsigned char *p = s->buf + s->pos;
	s->pos += n;
	s->offset += n;
	return p;
}
/*
 * Next line, NUL-terminated, without its "\n" (a "\r" before it is
 * removed too). *len is its length. Returns NULL at the end of data
 * (s->err[0] == 0) or on error (s->err set). A line longer than
 * SRC_MAX_LINE is an error, not a silent split.
 */
#define SRC_MAX_LINE (1 << 20)
char *src_getline(struct src *s, size_t *len);

#endif
