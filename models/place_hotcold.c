/*
 * place_hotcold.c - N streams by estimated update frequency.
 *
 * Each logical page keeps a u8 write counter and the u8 epoch of its
 * last update; an epoch is U host page writes and the counter halves
 * every epoch (applied lazily when the page is next touched), so it
 * estimates about twice the page's writes per U host writes. Stream =
 * N-1 - min(N-1, floor(log2 counter)): stream 0 (temp1) gets pages
 * written 2^(N-1) or more times per ~epoch, stream N-1 pages written
 * about once. GC copies go to the stream of the page's decayed counter
 * (without counting a write), in the same streams. Epoch numbers wrap at
 * 256: a page untouched for exactly a multiple of 256 epochs keeps its
 * old counter (which had decayed anyway after 8 epochs). 2 bytes a page.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ftlkit.h"
#include "place.h"

struct hotcold {
	uint8_t *cnt, *epoch;
	unsigned n;
};

static int hotcold_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	uint64_t k = 2;
	if (arg && (parse_u64(arg, &k) || k < 2 || k > 8))
		return set_err(err, n, "hotcold:N needs 2 <= N <= 8 streams, not '%s'", arg);
	struct hotcold *h = ftl_calloc(f, 1, sizeof(*h));
	*st = h;
	if (!h || !(h->cnt = ftl_calloc(f, f->U, 1)) || !(h->epoch = ftl_calloc(f, f->U, 1)))
		return set_err(err, n, "out of memory");
	h->n = (unsigned)k;
	f->nstreams = h->n;
	f->gc_streams = h->n;
	return 0;
}

static unsigned decayed(const struct ftl *f, const struct hotcold *h, uint32_t lpn)
{
	uint8_t now = (uint8_t)(f->clock / f->U);
	uint8_t d = (uint8_t)(now - h->epoch[lpn]);
	return d >= 8 ? 0 : h->cnt[lpn] >> d;
}

static unsigned stream_of(const struct hotcold *h, unsigned c)
{
	unsigned lg = 0;
	while (c >>= 1)
		lg++;
	return h->n - 1 - (lg < h->n - 1 ? lg : h->n - 1);
}

static unsigned hotcold_host(struct ftl *f, void *st, uint32_t lpn, unsigned temp)
{
	struct hotcold *h = st;
	unsigned c = decayed(f, h, lpn);
	if (c < 255)
		c++;
	h->cnt[lpn] = (uint8_t)c;
	h->epoch[lpn] = (uint8_t)(f->clock / f->U);
	return stream_of(h, c);
}

static unsigned hotcold_gc(struct ftl *f, void *st, uint32_t lpn, unsigned from)
{
	return stream_of(st, decayed(f, st, lpn));
}

static const char *hotcold_name(struct ftl *f, void *st, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "temp%u", s + 1);
	return buf;
}

static void hotcold_destroy(struct ftl *f, void *st)
{
	struct hotcold *h = st;
	free(h->cnt);
	free(h->epoch);
	free(h);
}

const struct place_ops place_hotcold_ops = {
	.name = "hotcold",
	.desc = "N streams by a decaying per-page write counter (hotcold:N, default 2)",
	.version = PLACE_API_VERSION,
	.flags = PLACE_ARG,
	.init = hotcold_init,
	.host = hotcold_host,
	.gc = hotcold_gc,
	.stream_name = hotcold_name,
	.destroy = hotcold_destroy,
};
