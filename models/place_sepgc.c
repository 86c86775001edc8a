/*
 * place_sepgc.c - host writes and GC copies in separate streams: pages
 * that survived a cleaning are likelier to be cold (SepGC in SepBIT).
 */
#include <stdio.h>

#include "place.h"

static int sepgc_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	f->nstreams = 2;
	f->gc_streams = 1;
	return 0;
}

static unsigned sepgc_host(struct ftl *f, void *st, uint32_t lpn, unsigned temp) { return 0; }
static unsigned sepgc_gc(struct ftl *f, void *st, uint32_t lpn, unsigned from) { return 1; }

static const char *sepgc_name(struct ftl *f, void *st, unsigned s, char *buf, size_t n)
{
	return s ? "gc" : "host";
}

const struct place_ops place_sepgc_ops = {
	.name = "sepgc",
	.desc = "host writes and GC copies apart",
	.version = PLACE_API_VERSION,
	.init = sepgc_init,
	.host = sepgc_host,
	.gc = sepgc_gc,
	.stream_name = sepgc_name,
};
