/*
 * test_src_streams.c - several compressed streams concatenated in one
 * input (what `cat a.gz b.gz`, pigz, pbzip2, `zstd` of several files or
 * `xz` of several files produce) are all read, in order, by every
 * codec, from a file and from memory (src_open_mem), whatever the
 * streams' sizes: an empty stream, a one-byte one, one larger than the
 * source's buffer, so that stream ends fall inside and at the edge of a
 * buffer fill. The compressed data is made by the system's own gzip,
 * bzip2, zstd and xz (build dependencies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src.h"
#include "th.h"

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static int buf_add(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return 0; /* an empty piece: nothing to copy (p may be NULL) */
	if (b->n + n > b->cap) {
		size_t cap = (b->n + n) * 2;
		unsigned char *q = realloc(b->p, cap);
		if (!q)
			return -1;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

/* Plain data of stream k: lines of varying length, n bytes. */
static void plain(struct buf *b, unsigned k, size_t n)
{
	char line[96];
	size_t done = 0;
	for (unsigned i = 0; done < n; i++) {
		int w = snprintf(line, sizeof(line), "stream %u line %u %.*s\n", k, i, (int)(i * 7 % 50),
				 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
		size_t take = (size_t)w < n - done ? (size_t)w : n - done;
		buf_add(b, line, take);
		done += take;
	}
}

/* Compress p[0..n) with cmd (e.g. "gzip -c") into out, appended. */
static int compress(const char *cmd, const char *tmp, const unsigned char *p, size_t n, struct buf *out)
{
	char in[512], c[1200];
	snprintf(in, sizeof(in), "%s.in", tmp);
	FILE *fp = fopen(in, "wb");
	if (!fp || (n && fwrite(p, 1, n, fp) != n) || fclose(fp))
		return -1;
	snprintf(c, sizeof(c), "%s <'%s'", cmd, in);
	FILE *pp = popen(c, "r");
	if (!pp)
		return -1;
	unsigned char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), pp)) > 0)
		buf_add(out, chunk, got);
	unlink(in);
	return pclose(pp) == 0 ? 0 : -1;
}

/* Everything a source yields, through src_read in odd-sized pieces. */
static int drain(struct src *s, struct buf *b)
{
	unsigned char piece[4093];
	for (;;) {
		ssize_t r = src_read(s, piece, sizeof(piece));
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		buf_add(b, piece, (size_t)r);
	}
}

static void one_codec(const char *name, const char *cmd, int codec, const char *dir)
{
	/* Stream sizes: empty, one byte, larger than the source's buffers
	 * (they are some 64 KiB to 1 MiB), then small ones. */
	static const size_t sizes[] = {3000, 0, 1, 1500000, 70000, 5};
	struct buf want = {0}, packed = {0};
	char tmp[512];
	snprintf(tmp, sizeof(tmp), "%s/multi.%s", dir, name);
	int ok = 1;
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]) && ok; k++) {
		struct buf part = {0};
		plain(&part, k, sizes[k]);
		ok = !compress(cmd, tmp, part.p, part.n, &packed);
		buf_add(&want, part.p, part.n);
		free(part.p);
	}
	CHECK(ok, "%s: six streams made by '%s' (%zu bytes packed, %zu plain)", name, cmd, packed.n, want.n);
	if (!ok)
		goto out;
	FILE *fp = fopen(tmp, "wb");
	ok = fp && fwrite(packed.p, 1, packed.n, fp) == packed.n && !fclose(fp);
	struct src s;
	struct buf got = {0};
	int rc = ok ? src_open(&s, tmp) : -1;
	if (!rc) {
		CHECK(s.codec == codec, "%s: detected as %s", name, src_codec_name(s.codec));
		rc = drain(&s, &got);
		if (rc)
			printf("# %s\n", s.err);
		src_close(&s);
	}
	CHECK(!rc && got.n == want.n && (!want.n || !memcmp(got.p, want.p, want.n)),
	      "%s file: all six concatenated streams read in order (%zu of %zu bytes)", name, got.n, want.n);
	free(got.p);
	/* The same file decompressed in a thread of its own (src_async):
	 * the same bytes, the same raw count at the end, and a truncated
	 * copy fails with the same message. */
	got = (struct buf){0};
	rc = ok ? src_open(&s, tmp) : -1;
	uint64_t raw = 0;
	if (!rc) {
		if (!(rc = src_async(&s))) {
			CHECK(s.async != NULL, "%s: src_async starts its thread on a compressed file", name);
			rc = drain(&s, &got);
		}
		if (rc)
			printf("# %s\n", s.err);
		raw = s.raw_read;
		src_close(&s);
	}
	CHECK(!rc && got.n == want.n && (!want.n || !memcmp(got.p, want.p, want.n)) && raw == packed.n,
	      "%s file, async: the same bytes (%zu of %zu), raw_read %llu of %zu", name, got.n, want.n,
	      (unsigned long long)raw, packed.n);
	free(got.p);
	char cut[600];
	snprintf(cut, sizeof(cut), "%s.cut", tmp);
	fp = fopen(cut, "wb");
	size_t half = packed.n * 3 / 4;
	ok = fp && fwrite(packed.p, 1, half, fp) == half && !fclose(fp);
	char msg[2][256] = {"", ""};
	size_t n2[2] = {0, 0};
	for (int a = 0; a < 2 && ok; a++) {
		got = (struct buf){0};
		if (src_open(&s, cut) || (a && src_async(&s)))
			break;
		if (drain(&s, &got))
			snprintf(msg[a], sizeof(msg[a]), "%s", s.err);
		n2[a] = got.n;
		src_close(&s);
		free(got.p);
	}
	/* (the bytes before the error may differ by what one buffer or
	 * chunk held when the decoder failed) */
	CHECK(ok && msg[0][0] && !strcmp(msg[0], msg[1]) && n2[0] < half * 64 && n2[1] < half * 64,
	      "%s cut at 3/4, async: the same error ('%s' / '%s', after %zu / %zu bytes)", name, msg[0], msg[1],
	      n2[0], n2[1]);
	unlink(cut);
	got = (struct buf){0};
	rc = src_open_mem(&s, name, packed.p, packed.n);
	if (!rc) {
		rc = drain(&s, &got);
		if (rc)
			printf("# %s\n", s.err);
		src_close(&s);
	}
	CHECK(!rc && got.n == want.n && (!want.n || !memcmp(got.p, want.p, want.n)),
	      "%s in memory: all six concatenated streams read in order (%zu of %zu bytes)", name, got.n,
	      want.n);
	free(got.p);
out:
	unlink(tmp);
	free(want.p);
	free(packed.p);
}

int main(void)
{
	char dir[] = "/tmp/ftlkit-src-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "a temporary folder");
		return TH_DONE();
	}
	one_codec("gzip", "gzip -c", SRC_GZIP, dir);
	one_codec("bzip2", "bzip2 -c", SRC_BZIP2, dir);
	one_codec("zstd", "zstd -q -c", SRC_ZSTD, dir);
	one_codec("xz", "xz -c", SRC_XZ, dir);
	rmdir(dir);
	return TH_DONE();
}
