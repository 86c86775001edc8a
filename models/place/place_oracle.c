/*
 * place_oracle.c - the trace's temperature labels (tracegen's ev.temp,
 * 1 = hottest) pick the stream: label L goes to stream min(L, N) - 1,
 * unlabelled writes (0) to the coldest, N-1. The label of each logical
 * page is kept (1 byte a page) so that GC copies stay in their class.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

struct oracle {
	uint8_t *label; /* stream of the page's last write */
	unsigned n;
};

static int oracle_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct oracle *o = st;
	if (!(o->label = policy_calloc(st, ftl_logical_pages(f), 1)))
		return policy_fail(st, "out of memory");
	o->n = (unsigned)in->args->u[0];
	out->streams = o->n;
	out->gc_streams = o->n;
	return 0;
}

static int oracle_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct oracle *o = st;
	unsigned t = w->temp;
	*s = t == EV_TEMP_NONE ? o->n - 1 : (t < o->n ? t : o->n) - 1;
	o->label[w->lpn] = (uint8_t)*s;
	return 0;
}

static int oracle_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = ((struct oracle *)st)->label[lpn];
	return 0;
}

static const char *oracle_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "temp%u", s + 1);
	return buf;
}

static void oracle_destroy(void *st, const struct ftl *f) { free(((struct oracle *)st)->label); }

static const struct policy_arg oracle_args[] = {
	{"N", ARG_UINT, 1, FTL_MAX_STREAMS, 4, "streams"},
};

const struct place_ops place_oracle_ops = {
	.info = {.name = "oracle",
		 .desc = "the trace's temperature labels pick the stream (oracle:N, default 4)",
		 .version = PLACE_API_VERSION,
		 .flags = PLACE_TEMP,
		 .args = oracle_args,
		 .nargs = 1,
		 .state_size = sizeof(struct oracle)},
	.init = oracle_init,
	.host = oracle_host,
	.gc = oracle_gc,
	.stream_name = oracle_name,
	.destroy = oracle_destroy,
};
