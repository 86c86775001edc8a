/*
 * src.c - streaming, transparently decompressed input (see src.h).
 */
#include "src.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <lzma.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "ftlkit.h"
#include "sig.h"

/* Small enough that a blktrace set of hundreds of per-CPU files, each
 * its own source, stays within tens of MB; the data buffer grows on
 * demand (long lines, large peeks). */
#define IN_SIZE (128 * 1024)
#define BUF_SIZE (128 * 1024)

const char *src_codec_name(int codec)
{
	static const char *names[] = {"plain", "gzip", "bzip2", "zstd", "xz"};
	return names[codec];
}

static int fill_in(struct src *s)
{
	if (s->in_pos < s->in_len || s->in_eof)
		return 0;
	ssize_t r;
	do
		r = read(s->fd, s->in, IN_SIZE);
	while (r < 0 && errno == EINTR && !sig_caught); /* a signal stops a blocked read */
	if (r < 0)
		return set_err(s->err, sizeof(s->err), "%s: read error: %s", s->name, strerror(errno));
	s->in_len = (size_t)r;
	s->in_pos = 0;
	s->raw_read += (uint64_t)r;
	if (r == 0)
		s->in_eof = 1;
	return 0;
}

static int codec_init(struct src *s)
{
	int rc = 0;
	switch (s->codec) {
	case SRC_GZIP: {
		z_stream *z = calloc(1, sizeof(*z));
		s->z = z;
		rc = !z || inflateInit2(z, 15 + 32) != Z_OK;
		break;
	}
	case SRC_BZIP2: {
		bz_stream *z = calloc(1, sizeof(*z));
		s->z = z;
		rc = !z || BZ2_bzDecompressInit(z, 0, 0) != BZ_OK;
		break;
	}
	case SRC_ZSTD:
		s->z = ZSTD_createDStream();
		rc = !s->z || ZSTD_isError(ZSTD_initDStream(s->z));
		break;
	case SRC_XZ: {
		lzma_stream *z = calloc(1, sizeof(*z));
		s->z = z;
		if (z)
			*z = (lzma_stream)LZMA_STREAM_INIT;
		rc = !z || lzma_stream_decoder(z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK;
		break;
	}
	}
	if (rc)
		return set_err(s->err, sizeof(s->err), "%s: cannot start %s decoder: out of memory", s->name,
			       src_codec_name(s->codec));
	return 0;
}

static void codec_end(struct src *s)
{
	if (!s->z)
		return;
	switch (s->codec) {
	case SRC_GZIP: inflateEnd(s->z); free(s->z); break;
	case SRC_BZIP2: BZ2_bzDecompressEnd(s->z); free(s->z); break;
	case SRC_ZSTD: ZSTD_freeDStream(s->z); break;
	case SRC_XZ: lzma_end(s->z); free(s->z); break;
	}
	s->z = NULL;
}

static int corrupt(struct src *s, const char *what)
{
	return set_err(s->err, sizeof(s->err), "%s: corrupt %s data after %llu decompressed bytes (%s)",
		       s->name, src_codec_name(s->codec),
		       (unsigned long long)(s->offset + s->len - s->pos), what);
}

/* A decoder error met after made good bytes of this call: they are the
 * caller's first, so that every record before the damage is read, and
 * the error comes with the next call (err_late). */
static int corrupt_after(struct src *s, size_t used, size_t made, const char *what)
{
	s->in_pos += used;
	s->len += made;
	corrupt(s, what);
	if (!made)
		return -1;
	memcpy(s->err_late, s->err, sizeof(s->err));
	s->err[0] = 0;
	return 0;
}

/*
 * The decompressing thread of src_async: it reads the source through an
 * inner struct src (the synchronous code above) into a ring of NCHUNK
 * chunks; the outer source's produce() copies them out in order.
 */
enum { NCHUNK = 4, CHUNK = 256 * 1024 };

struct chunk {
	unsigned char data[CHUNK];
	size_t n;
	uint64_t raw_read; /* the inner source's raw_read after this chunk */
	int last;	   /* the data ends (or fails: err) after it */
	int failed;
};

struct src_async {
	struct src inner;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct chunk ring[NCHUNK];
	unsigned head, count; /* next chunk to consume, chunks ready */
	size_t used;	      /* bytes of ring[head] consumed */
	int stop;
	char err[256];
};

static void *async_main(void *arg)
{
	struct src_async *a = arg;
	unsigned tail = 0;
	for (;;) {
		pthread_mutex_lock(&a->mu);
		while (a->count == NCHUNK && !a->stop)
			pthread_cond_wait(&a->cv, &a->mu);
		int stop = a->stop;
		pthread_mutex_unlock(&a->mu);
		if (stop)
			return NULL;
		struct chunk *c = &a->ring[tail];
		ssize_t r = src_read(&a->inner, c->data, CHUNK);
		c->failed = r < 0;
		c->n = r > 0 ? (size_t)r : 0;
		c->last = r < (ssize_t)CHUNK;
		c->raw_read = a->inner.raw_read;
		pthread_mutex_lock(&a->mu);
		if (c->failed)
			memcpy(a->err, a->inner.err, sizeof(a->err));
		a->count++;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		if (c->last)
			return NULL;
		tail = (tail + 1) % NCHUNK;
	}
}

int src_async(struct src *s)
{
	struct stat st;
	if (s->codec == SRC_PLAIN || s->fd < 0 || fstat(s->fd, &st) || !S_ISREG(st.st_mode) || s->async)
		return 0;
	struct src_async *a = calloc(1, sizeof(*a));
	if (!a)
		return set_err(s->err, sizeof(s->err), "out of memory");
	a->inner = *s;
	a->inner.cap = BUF_SIZE;
	if (!(a->inner.buf = malloc(BUF_SIZE))) {
		free(a);
		return set_err(s->err, sizeof(s->err), "out of memory");
	}
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old); /* signals go to the caller's thread */
	int rc = pthread_create(&a->th, NULL, async_main, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv);
		free(a->inner.buf);
		free(a);
		return 0; /* read without the thread */
	}
	/* The outer source keeps its name, fd (for src_size) and buffer;
	 * the inner one owns the decoder, the raw input and the fd. */
	s->async = a;
	s->z = NULL;
	s->in = NULL;
	return 0;
}

static void async_end(struct src *s)
{
	struct src_async *a = s->async;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	a->inner.name = NULL; /* the outer source's */
	free(a->inner.buf);
	a->inner.buf = NULL;
	codec_end(&a->inner);
	free(a->inner.in);
	free(a);
	s->async = NULL;
}

/* produce() of an async source: the next chunk's bytes into buf. */
static int produce_async(struct src *s)
{
	struct src_async *a = s->async;
	pthread_mutex_lock(&a->mu);
	while (!a->count)
		pthread_cond_wait(&a->cv, &a->mu);
	pthread_mutex_unlock(&a->mu);
	struct chunk *c = &a->ring[a->head];
	size_t k = c->n - a->used, room = s->cap - s->len;
	if (k > room)
		k = room;
	memcpy(s->buf + s->len, c->data + a->used, k);
	s->len += k;
	a->used += k;
	if (a->used < c->n)
		return 0;
	s->raw_read = c->raw_read;
	if (c->failed) {
		memcpy(s->err, a->err, sizeof(s->err));
		return -1;
	}
	if (c->last) {
		s->eof = 1;
		return 0; /* the chunk stays: every later call sees the end */
	}
	a->used = 0;
	a->head = (a->head + 1) % NCHUNK;
	pthread_mutex_lock(&a->mu);
	a->count--;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return 0;
}

/* Decompress into buf[len..cap); sets eof at the end of all data. */
static int produce(struct src *s)
{
	if (s->async)
		return produce_async(s);
	if (s->err_late[0]) {
		memcpy(s->err, s->err_late, sizeof(s->err));
		return -1;
	}
	unsigned char *out = s->buf + s->len;
	size_t room = s->cap - s->len;
	while (room && !s->eof) {
		if (s->codec == SRC_PLAIN && s->in_pos >= s->in_len && !s->in_eof && s->fd >= 0) {
			/* plain data: read straight into the buffer */
			ssize_t r;
			do
				r = read(s->fd, out, room);
			while (r < 0 && errno == EINTR && !sig_caught);
			if (r < 0)
				return set_err(s->err, sizeof(s->err), "%s: read error: %s", s->name, strerror(errno));
			s->raw_read += (uint64_t)r;
			if (r == 0) {
				s->in_eof = 1;
				s->eof = 1;
				break;
			}
			s->len += (size_t)r;
			break; /* give the caller what we have */
		}
		if (fill_in(s))
			return -1;
		size_t avail = s->in_len - s->in_pos;
		const unsigned char *inp = s->in + s->in_pos;
		size_t used = 0, made = 0;
		if (s->codec == SRC_PLAIN) {
			if (!avail && s->in_eof) {
				s->eof = 1;
				break;
			}
			made = avail < room ? avail : room;
			memcpy(out, inp, made);
			used = made;
		} else if (s->codec == SRC_GZIP) {
			z_stream *z = s->z;
			z->next_in = (unsigned char *)inp;
			z->avail_in = (uInt)avail;
			z->next_out = out;
			z->avail_out = (uInt)room;
			int r = inflate(z, Z_NO_FLUSH);
			used = avail - z->avail_in;
			made = room - z->avail_out;
			if (r == Z_STREAM_END) {
				/* concatenated gzip members (as pigz and gzip -c >> make) */
				if (inflateReset(z) != Z_OK)
					return corrupt(s, "reset");
			} else if (r == Z_BUF_ERROR) {
				if (s->in_eof && !made && !used) {
					if (z->total_in)
						return set_err(s->err, sizeof(s->err),
							       "%s: gzip data ends early (truncated file)",
							       s->name);
					s->eof = 1;
				}
			} else if (r != Z_OK) {
				return corrupt_after(s, used, made, z->msg ? z->msg : "inflate");
			}
		} else if (s->codec == SRC_BZIP2) {
			bz_stream *z = s->z;
			z->next_in = (char *)inp;
			z->avail_in = (unsigned)avail;
			z->next_out = (char *)out;
			z->avail_out = (unsigned)room;
			int r = BZ2_bzDecompress(z);
			used = avail - z->avail_in;
			made = room - z->avail_out;
			if (r == BZ_STREAM_END) {
				BZ2_bzDecompressEnd(z);
				memset(z, 0, sizeof(*z));
				if (BZ2_bzDecompressInit(z, 0, 0) != BZ_OK)
					return corrupt(s, "reset");
				s->in_pos += used;
				out += made;
				room -= made;
				s->len += made;
				if (fill_in(s))
					return -1;
				/* Another stream may follow in the buffer: an
				 * in-memory source has all its input there, and
				 * in_eof set from the start. */
				if (s->in_eof && s->in_pos >= s->in_len)
					s->eof = 1;
				continue;
			} else if (r != BZ_OK) {
				return corrupt_after(s, used, made, "bzip2");
			}
			if (s->in_eof && !made && !used)
				return set_err(s->err, sizeof(s->err),
					       "%s: bzip2 data ends early (truncated file)", s->name);
		} else if (s->codec == SRC_ZSTD) {
			ZSTD_inBuffer ib = {inp, avail, 0};
			ZSTD_outBuffer ob = {out, room, 0};
			size_t r = ZSTD_decompressStream(s->z, &ob, &ib);
			if (ZSTD_isError(r))
				return corrupt_after(s, ib.pos, ob.pos, ZSTD_getErrorName(r));
			used = ib.pos;
			made = ob.pos;
			if (made || used)
				s->mid_frame = r != 0;
			if (s->in_eof && !made && !used) {
				if (s->mid_frame)
					return set_err(s->err, sizeof(s->err),
						       "%s: zstd data ends early (truncated file)", s->name);
				s->eof = 1;
			}
		} else {
			lzma_stream *z = s->z;
			z->next_in = inp;
			z->avail_in = avail;
			z->next_out = out;
			z->avail_out = room;
			lzma_ret r = lzma_code(z, s->in_eof ? LZMA_FINISH : LZMA_RUN);
			used = avail - z->avail_in;
			made = room - z->avail_out;
			if (r == LZMA_STREAM_END)
				s->eof = 1;
			else if (r != LZMA_OK)
				return r == LZMA_BUF_ERROR
					       ? set_err(s->err, sizeof(s->err),
							 "%s: xz data ends early (truncated file)", s->name)
					       : corrupt_after(s, used, made, "xz");
		}
		s->in_pos += used;
		out += made;
		room -= made;
		s->len += made;
		if (made)
			break; /* give the caller what we have */
	}
	return 0;
}

static void detect_codec(struct src *s)
{
	const unsigned char *m = s->in;
	size_t n = s->in_len;
	if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		s->codec = SRC_GZIP;
	else if (n >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h')
		s->codec = SRC_BZIP2;
	else if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd)
		s->codec = SRC_ZSTD;
	else if (n >= 6 && !memcmp(m, "\xfd" "7zXZ\0", 6))
		s->codec = SRC_XZ;
}

int src_open(struct src *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	int is_stdin = !strcmp(path, "-");
	s->name = strdup(is_stdin ? "<stdin>" : path);
	s->in = malloc(IN_SIZE);
	s->buf = malloc(BUF_SIZE);
	s->cap = BUF_SIZE;
	if (!s->name || !s->in || !s->buf)
		return set_err(s->err, sizeof(s->err), "out of memory");
	if (is_stdin) {
		s->fd = 0;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0)
			return set_err(s->err, sizeof(s->err), "cannot open '%s': %s", path, strerror(errno));
	}
	/* Sniff the compression magic from the raw bytes. */
	while (s->in_len < 6 && !s->in_eof) {
		ssize_t r = read(s->fd, s->in + s->in_len, IN_SIZE - s->in_len);
		if (r < 0 && errno == EINTR && !sig_caught)
			continue;
		if (r < 0)
			return set_err(s->err, sizeof(s->err), "%s: read error: %s", s->name,
				       strerror(errno));
		if (r == 0)
			s->in_eof = 1;
		s->in_len += (size_t)r;
		s->raw_read += (uint64_t)r;
	}
	if (s->in_eof && s->in_len)
		s->in_eof = 0; /* data remains in the buffer */
	if (s->in_len == 0)
		s->in_eof = 1;
	detect_codec(s);
	return codec_init(s);
}

int64_t src_size(const struct src *s)
{
	struct stat st;
	if (s->fd < 0 || fstat(s->fd, &st) || !S_ISREG(st.st_mode))
		return -1;
	return (int64_t)st.st_size;
}

int src_open_mem(struct src *s, const char *name, const void *data, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->name = strdup(name);
	s->in = malloc(len + 1);
	s->cap = 128 * 1024; /* grows on demand; small inputs stay cheap */
	s->buf = malloc(s->cap);
	if (!s->name || !s->in || !s->buf)
		return set_err(s->err, sizeof(s->err), "out of memory");
	memcpy(s->in, data, len);
	s->in_len = len;
	s->in_eof = 1; /* all raw input is in s->in */
	detect_codec(s);
	return codec_init(s);
}

void src_close(struct src *s)
{
	if (s->async)
		async_end(s);
	codec_end(s);
	if (s->fd > 0)
		close(s->fd);
	s->fd = -1;
	free(s->in);
	free(s->buf);
	free(s->name);
	s->in = s->buf = NULL;
	s->name = NULL;
}

/* Shift unread data to the front and decompress until n bytes are
 * available or the data ends. */
static int ensure(struct src *s, size_t n)
{
	if (s->len - s->pos >= n)
		return 0;
	if (s->err_pending[0]) {
		memcpy(s->err, s->err_pending, sizeof(s->err));
		return -1;
	}
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, s->len - s->pos);
		s->len -= s->pos;
		s->pos = 0;
	}
	if (n > s->cap) {
		/* Grow geometrically: a long line is read in O(length). */
		size_t ncap = s->cap * 2 > n ? s->cap * 2 : n;
		unsigned char *nb = realloc(s->buf, ncap);
		if (!nb)
			return set_err(s->err, sizeof(s->err), "out of memory");
		s->buf = nb;
		s->cap = ncap;
	}
	while (s->len < n && !s->eof) {
		/* fill_in's in_eof only marks the raw input; plain data at
		 * EOF with an empty buffer ends here. */
		if (produce(s))
			return -1;
		if (s->codec == SRC_PLAIN && s->in_eof && s->in_pos >= s->in_len)
			s->eof = 1;
	}
	return 0;
}

const unsigned char *src_peek(struct src *s, size_t n, size_t *avail)
{
	if (ensure(s, n))
		return NULL;
	*avail = s->len - s->pos;
	return s->buf + s->pos;
}

const unsigned char *src_peek_start(struct src *s, size_t n, size_t *avail)
{
	if (ensure(s, n)) {
		if (s->len == s->pos || !s->err[0])
			return NULL;
		memcpy(s->err_pending, s->err, sizeof(s->err));
	}
	*avail = s->len - s->pos;
	return s->buf + s->pos;
}

ssize_t src_read(struct src *s, void *dst, size_t n)
{
	size_t got = 0;
	unsigned char *d = dst;
	while (got < n) {
		if (s->pos == s->len) {
			if (s->eof)
				break;
			if (ensure(s, 1))
				return -1;
			if (s->pos == s->len)
				break;
		}
		size_t k = s->len - s->pos;
		if (k > n - got)
			k = n - got;
		memcpy(d + got, s->buf + s->pos, k);
		s->pos += k;
		got += k;
	}
	s->offset += got;
	return (ssize_t)got;
}

char *src_getline(struct src *s, size_t *len)
{
	size_t scan = s->pos;
	s->err[0] = 0;
	for (;;) {
		unsigned char *nl = memchr(s->buf + scan, '\n', s->len - scan);
		if (nl) {
			size_t start = s->pos;
			size_t l = (size_t)(nl - (s->buf + start));
			*nl = 0;
			s->offset += l + 1; /* every byte consumed, a CR too */
			if (l && s->buf[start + l - 1] == '\r')
				s->buf[start + --l] = 0;
			s->pos = (size_t)(nl - s->buf) + 1;
			s->lineno++;
			*len = l;
			return (char *)s->buf + start;
		}
		if (s->len - s->pos > SRC_MAX_LINE) {
			set_err(s->err, sizeof(s->err), "%s:%llu: line longer than %d bytes", s->name,
				(unsigned long long)s->lineno + 1, SRC_MAX_LINE);
			return NULL;
		}
		if (s->eof) {
			if (s->pos == s->len)
				return NULL;
			/* last line without a newline */
			if (s->len == s->cap && ensure(s, s->len - s->pos + 1))
				return NULL;
			size_t start = s->pos, l = s->len - start;
			s->buf[s->len] = 0;
			if (l && s->buf[start + l - 1] == '\r')
				s->buf[start + --l] = 0;
			s->pos = s->len;
			s->offset += s->len - start;
			s->lineno++;
			s->unterminated = s->lineno;
			*len = l;
			return (char *)s->buf + start;
		}
		size_t have = s->len - s->pos;
		if (ensure(s, have + 1))
			return NULL;
		scan = s->pos + have;
	}
}
