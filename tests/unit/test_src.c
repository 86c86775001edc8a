/*
 * test_src.c - lib/src.c: byte offsets of CRLF lines, and in-memory
 * sources over multi-stream compressed data (every codec), which must
 * read every stream as a file source does.
 */
#include <bzlib.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "src.h"
#include "th.h"

static size_t gz(const char *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream z = {0};
	deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	deflate(&z, Z_FINISH);
	size_t got = cap - z.avail_out;
	deflateEnd(&z);
	return got;
}

static size_t bz(const char *in, size_t n, unsigned char *out, size_t cap)
{
	unsigned int got = (unsigned)cap;
	BZ2_bzBuffToBuffCompress((char *)out, &got, (char *)in, (unsigned)n, 9, 0, 0);
	return got;
}

static size_t zs(const char *in, size_t n, unsigned char *out, size_t cap)
{
	return ZSTD_compress(out, cap, in, n, 3);
}

static size_t xz(const char *in, size_t n, unsigned char *out, size_t cap)
{
	size_t pos = 0;
	lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)in, n, out, &pos, cap);
	return pos;
}

/* All of s's data as one string (lines rejoined with "\n"). */
static char *slurp(struct src *s, size_t *n)
{
	static char out[1 << 16];
	size_t len, k = 0;
	char *line;
	while ((line = src_getline(s, &len))) {
		memcpy(out + k, line, len);
		k += len;
		out[k++] = '\n';
	}
	*n = k;
	return s->err[0] ? NULL : out;
}

int main(void)
{
	/* CRLF: the offset counts the CR too. */
	struct src s;
	const char crlf[] = "ab\r\ncd\r\nlast\r";
	size_t len;
	src_open_mem(&s, "crlf", crlf, strlen(crlf));
	char *l = src_getline(&s, &len);
	CHECK(l && len == 2 && !strcmp(l, "ab") && s.offset == 4, "CRLF line: offset 4 after \"ab\\r\\n\"");
	l = src_getline(&s, &len);
	CHECK(l && len == 2 && s.offset == 8, "second CRLF line: offset 8");
	l = src_getline(&s, &len);
	CHECK(l && len == 4 && s.offset == strlen(crlf), "last line without LF: offset is the size");
	src_close(&s);

	/* Multi-stream input in memory, each codec: both streams read. */
	static const char *const names[] = {"gzip", "bzip2", "zstd", "xz"};
	size_t (*enc[])(const char *, size_t, unsigned char *, size_t) = {gz, bz, zs, xz};
	const char *a = "first stream\n", *b = "second stream\n";
	for (int c = 0; c < 4; c++) {
		unsigned char buf[4096];
		size_t n1 = enc[c](a, strlen(a), buf, sizeof(buf));
		size_t n2 = enc[c](b, strlen(b), buf + n1, sizeof(buf) - n1);
		int rc = src_open_mem(&s, names[c], buf, n1 + n2);
		size_t got;
		char *all = rc ? NULL : slurp(&s, &got);
		CHECK(all && got == strlen(a) + strlen(b) && !memcmp(all, "first stream\nsecond stream\n", got),
		      "%s: an in-memory source reads both streams of a two-stream input", names[c]);
		src_close(&s);
	}
	return TH_DONE();
}
