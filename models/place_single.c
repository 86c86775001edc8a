/*
 * place_single.c - one log for everything: host writes and GC copies
 * share stream 0 (the classic model the closed forms describe).
 */
#include <stdio.h>

#include "gc.h"
#include "place.h"

static int single_init(struct ftl *f, const char *arg, void **st, char *err, size_t n)
{
	f->nstreams = 1;
	f->gc_streams = 1;
	return 0;
}

static unsigned single_host(struct ftl *f, void *st, uint32_t lpn, unsigned temp) { return 0; }
static unsigned single_gc(struct ftl *f, void *st, uint32_t lpn, unsigned from) { return 0; }

static const char *single_name(struct ftl *f, void *st, unsigned s, char *buf, size_t n)
{
	return "all";
}

const struct place_ops place_single_ops = {
	.name = "single",
	.desc = "one log for host writes and GC copies",
	.version = PLACE_API_VERSION,
	.flags = PLACE_TRIVIAL,
	.init = single_init,
	.host = single_host,
	.gc = single_gc,
	.stream_name = single_name,
};
