/*
 * place_sepgc.c - host writes and GC copies in separate streams: pages
 * that survived a cleaning are likelier to be cold (SepGC in SepBIT:
 * Wang et al., FAST'22).
 */
#include "place.h"

static int sepgc_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	out->streams = 2;
	out->gc_streams = 1;
	out->host_streams = 1;
	return 0;
}

static int sepgc_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	*s = 0;
	return 0;
}

static int sepgc_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = 1;
	return 0;
}

static const char *sepgc_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	return s ? "gc" : "host";
}

const struct place_ops place_sepgc_ops = {
	.info = {.name = "sepgc", .desc = "host writes and GC copies apart", .version = PLACE_API_VERSION},
	.init = sepgc_init,
	.host = sepgc_host,
	.gc = sepgc_gc,
	.stream_name = sepgc_name,
};
