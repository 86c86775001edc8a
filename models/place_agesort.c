/*
 * place_agesort.c - LFS's age sort: a GC pass collects the live pages of
 * its victims, sorts them by the time of their last host write (oldest
 * first) and writes them to a GC stream apart from host writes, so that
 * pages of similar age share segments.
 *
 * agesort:K makes a pass clean until K segments are free (default 16:
 * LFS cleaned tens of segments at a time; sorting one victim's pages
 * alone would change nothing). Memory: a u32 write time per logical
 * page, in units of 2^shift host writes; when the clock outgrows 32
 * bits every time is halved once (shift++), keeping the order.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ftlkit.h"
#include "place.h"

struct agesort {
	uint32_t *wtime;
	unsigned shift;
};

static int agesort_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	uint64_t k = 16;
	if (arg && (parse_u64(arg, &k) || k < 1 || k > 1u << 20))
		return set_err(err, n, "agesort:K needs a batch of K >= 1 segments, not '%s'", arg);
	struct agesort *a = ftl_calloc(f, 1, sizeof(*a));
	*st = a;
	if (!a || !(a->wtime = ftl_calloc(f, f->U, sizeof(uint32_t))))
		return set_err(err, n, "out of memory");
	f->nstreams = 2;
	f->gc_streams = 1;
	f->gc_high = (uint32_t)k;
	return 0;
}

static unsigned agesort_host(struct ftl *f, void *st, uint32_t lpn, unsigned temp)
{
	struct agesort *a = st;
	uint64_t t = f->clock >> a->shift;
	if (t > UINT32_MAX) {
		for (uint64_t i = 0; i < f->U; i++)
			a->wtime[i] >>= 1;
		t = f->clock >> ++a->shift;
	}
	a->wtime[lpn] = (uint32_t)t;
	return 0;
}

static unsigned agesort_gc(struct ftl *f, void *st, uint32_t lpn, unsigned from) { return 1; }

static uint64_t agesort_key(struct ftl *f, void *st, uint32_t lpn)
{
	return (uint64_t)((struct agesort *)st)->wtime[lpn] << 32 | lpn;
}

static const char *agesort_name(struct ftl *f, void *st, unsigned s, char *buf, size_t n)
{
	return s ? "gc-sorted" : "host";
}

static void agesort_destroy(struct ftl *f, void *st)
{
	struct agesort *a = st;
	free(a->wtime);
	free(a);
}

const struct place_ops place_agesort_ops = {
	.name = "agesort",
	.desc = "LFS: GC copies sorted by age into their own stream (agesort:K, K segments a pass)",
	.version = PLACE_API_VERSION,
	.flags = PLACE_ARG | PLACE_SORT,
	.init = agesort_init,
	.host = agesort_host,
	.gc = agesort_gc,
	.sort_key = agesort_key,
	.stream_name = agesort_name,
	.destroy = agesort_destroy,
};
