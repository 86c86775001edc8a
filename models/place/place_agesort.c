/*
 * place_agesort.c - LFS's age sort (Rosenblum & Ousterhout, TOCS 1992):
 * a GC pass collects the live pages of its victims, sorts them by the
 * time of their last host write (oldest first) and writes them to a GC
 * stream apart from host writes, so that pages of similar age share
 * segments.
 *
 * agesort:K makes a pass clean until K segments are free (default 16:
 * LFS cleaned tens of segments at a time; sorting one victim's pages
 * alone would change nothing). The write times are the model's
 * (FTL_KEEP_WRITE_TIME: a u32 stamp a logical page); the policy keeps
 * no state of its own.
 */
#include "place.h"

static int agesort_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	out->streams = 2;
	out->gc_streams = 1;
	out->host_streams = 1;
	out->gc_high = (uint32_t)in->args->u[0];
	out->keep = FTL_KEEP_WRITE_TIME;
	return 0;
}

static int agesort_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	*s = 0;
	return 0;
}

static int agesort_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = 1;
	return 0;
}

static uint64_t agesort_key(void *st, const struct ftl *f, uint32_t lpn)
{
	return (uint64_t)ftl_write_stamp(f, lpn) << 32 | lpn;
}

static const char *agesort_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	return s ? "gc-sorted" : "host";
}

static const struct policy_arg agesort_args[] = {
	{"K", ARG_UINT, 1, 1u << 20, 16, "free segments a GC pass makes"},
};

const struct place_ops place_agesort_ops = {
	.info = {.name = "agesort",
		 .desc = "LFS: GC copies sorted by age into their own stream (agesort:K, K segments a pass)",
		 .version = PLACE_API_VERSION,
		 .flags = PLACE_SORT,
		 .args = agesort_args,
		 .nargs = 1},
	.init = agesort_init,
	.host = agesort_host,
	.gc = agesort_gc,
	.sort_key = agesort_key,
	.stream_name = agesort_name,
};
