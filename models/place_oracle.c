/*
 * place_oracle.c - the trace's temperature labels (tracegen's ev.temp,
 * 1 = hottest) pick the stream: label L goes to stream min(L, N) - 1,
 * unlabelled writes (0) to the coldest, N-1. The label of each logical
 * page is kept (1 byte a page) so that GC copies stay in their class.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ftlkit.h"
#include "place.h"

struct oracle {
	uint8_t *label; /* stream of the page's last write */
	unsigned n;
};

static int oracle_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	uint64_t k = 4;
	if (arg && (parse_u64(arg, &k) || k < 1 || k > FTL_MAX_STREAMS))
		return set_err(err, n, "oracle:N needs 1 <= N <= %d streams, not '%s'", FTL_MAX_STREAMS, arg);
	struct oracle *o = ftl_calloc(f, 1, sizeof(*o));
	*st = o;
	if (!o || !(o->label = ftl_calloc(f, f->U, 1)))
		return set_err(err, n, "out of memory");
	o->n = (unsigned)k;
	f->nstreams = o->n;
	f->gc_streams = o->n;
	return 0;
}

static unsigned oracle_host(struct ftl *f, void *st, uint32_t lpn, unsigned temp)
{
	struct oracle *o = st;
	unsigned s = temp == EV_TEMP_NONE ? o->n - 1 : (temp < o->n ? temp : o->n) - 1;
	o->label[lpn] = (uint8_t)s;
	return s;
}

static unsigned oracle_gc(struct ftl *f, void *st, uint32_t lpn, unsigned from)
{
	return ((struct oracle *)st)->label[lpn];
}

static const char *oracle_name(struct ftl *f, void *st, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "temp%u", s + 1);
	return buf;
}

static void oracle_destroy(struct ftl *f, void *st)
{
	struct oracle *o = st;
	free(o->label);
	free(o);
}

const struct place_ops place_oracle_ops = {
	.name = "oracle",
	.desc = "the trace's temperature labels pick the stream (oracle:N, default 4)",
	.version = PLACE_API_VERSION,
	.flags = PLACE_ARG | PLACE_TEMP,
	.init = oracle_init,
	.host = oracle_host,
	.gc = oracle_gc,
	.stream_name = oracle_name,
	.destroy = oracle_destroy,
};
