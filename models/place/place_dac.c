/*
 * place_dac.c - DAC, dynamic data clustering (Chiang, Lee, Chang: "Using
 * data clustering to improve cleaning performance for flash memory",
 * Software: Practice and Experience 29(3), 1999): each logical page has
 * a temperature level 0..N-1 (dac:N, default 6); its first write is at
 * level 0, every host overwrite moves it one level up (hotter), every GC
 * copy one level down, and each level writes to its own stream, host
 * writes and GC copies alike. One byte a page.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

struct dac {
	uint8_t *level; /* level + 1; 0: never written */
	unsigned n;
};

static int dac_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct dac *d = st;
	if (!(d->level = policy_calloc(st, ftl_logical_pages(f), 1)))
		return policy_fail(st, "out of memory");
	d->n = (unsigned)in->args->u[0];
	out->streams = d->n;
	out->gc_streams = d->n;
	return 0;
}

static int dac_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct dac *d = st;
	unsigned l = d->level[w->lpn];
	if (!l)
		l = 1;
	else if (l < d->n)
		l++;
	d->level[w->lpn] = (uint8_t)l;
	*s = l - 1;
	return 0;
}

static int dac_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct dac *d = st;
	if (d->level[lpn] > 1)
		d->level[lpn]--;
	*s = d->level[lpn] - 1;
	return 0;
}

static const char *dac_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "level%u", s);
	return buf;
}

static void dac_destroy(void *st, const struct ftl *f) { free(((struct dac *)st)->level); }

static const struct policy_arg dac_args[] = {
	{"N", ARG_UINT, 2, FTL_MAX_STREAMS, 6, "levels"},
};

const struct place_ops place_dac_ops = {
	.info = {.name = "dac",
		 .desc = "DAC (Chiang et al. 1999): a level per page, up on each overwrite, down on each GC copy (dac:N, default 6)",
		 .version = PLACE_API_VERSION,
		 .args = dac_args,
		 .nargs = 1,
		 .state_size = sizeof(struct dac)},
	.init = dac_init,
	.host = dac_host,
	.gc = dac_gc,
	.stream_name = dac_name,
	.destroy = dac_destroy,
};
