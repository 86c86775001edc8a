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

#include "place.h"

struct hotcold {
	uint8_t *cnt, *epoch;
	unsigned n;
};

static int hotcold_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct hotcold *h = st;
	uint64_t U = ftl_logical_pages(f);
	if (!(h->cnt = policy_calloc(st, U, 1)) || !(h->epoch = policy_calloc(st, U, 1)))
		return policy_fail(st, "out of memory");
	h->n = (unsigned)in->args->u[0];
	out->streams = h->n;
	out->gc_streams = h->n;
	return 0;
}

static uint8_t epoch_now(const struct ftl *f) { return (uint8_t)(ftl_now(f) / ftl_logical_pages(f)); }

static unsigned decayed(const struct ftl *f, const struct hotcold *h, uint32_t lpn)
{
	uint8_t d = (uint8_t)(epoch_now(f) - h->epoch[lpn]);
	return d >= 8 ? 0 : h->cnt[lpn] >> d;
}

static unsigned stream_of(const struct hotcold *h, unsigned c)
{
	unsigned lg = 0;
	while (c >>= 1)
		lg++;
	return h->n - 1 - (lg < h->n - 1 ? lg : h->n - 1);
}

static int hotcold_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct hotcold *h = st;
	unsigned c = decayed(f, h, w->lpn);
	if (c < 255)
		c++;
	h->cnt[w->lpn] = (uint8_t)c;
	h->epoch[w->lpn] = epoch_now(f);
	*s = stream_of(h, c);
	return 0;
}

static int hotcold_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = stream_of(st, decayed(f, st, lpn));
	return 0;
}

static const char *hotcold_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "temp%u", s + 1);
	return buf;
}

static void hotcold_destroy(void *st, const struct ftl *f)
{
	struct hotcold *h = st;
	free(h->cnt);
	free(h->epoch);
}

static const struct policy_arg hotcold_args[] = {
	{"N", ARG_UINT, 2, 8, 2, "streams"},
};

const struct place_ops place_hotcold_ops = {
	.info = {.name = "hotcold",
		 .desc = "N streams by a decaying per-page write counter (hotcold:N, default 2)",
		 .version = PLACE_API_VERSION,
		 .args = hotcold_args,
		 .nargs = 1,
		 .state_size = sizeof(struct hotcold)},
	.init = hotcold_init,
	.host = hotcold_host,
	.gc = hotcold_gc,
	.stream_name = hotcold_name,
	.destroy = hotcold_destroy,
};
