/*
 * place_single.c - one log for everything: host writes and GC copies
 * share stream 0 (the classic model the closed forms describe).
 */
#include "place.h"

static int single_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	return 0; /* one stream, one GC stream: the defaults */
}

static int single_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	*s = 0;
	return 0;
}

static int single_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = 0;
	return 0;
}

static const char *single_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	return "all";
}

const struct place_ops place_single_ops = {
	.info = {.name = "single",
		 .desc = "one log for host writes and GC copies",
		 .version = PLACE_API_VERSION,
		 .flags = PLACE_TRIVIAL},
	.init = single_init,
	.host = single_host,
	.gc = single_gc,
	.stream_name = single_name,
};
