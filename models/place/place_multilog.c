/*
 * place_multilog.c - MultiLog (Stoica, Ailamaki: "Improving Flash Write
 * Performance by Using Update Frequency", VLDB'13): N logs (multilog:N,
 * default 6), log 0 the hottest. A page's first write goes to log 0;
 * each GC copy moves it one log colder (the coldest log in use opens the
 * next one once it holds a segment's worth of valid pages); a host
 * overwrite after an update distance d (host writes since the page's
 * last write) moves it one log hotter with probability (E - d) / E,
 * where E = V(1 - g)/2 is the update distance expected in its log, V
 * that log's valid pages and g the garbage share of its cleaned
 * segments. One byte a page; the write times are the model's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

struct multilog {
	uint8_t *level; /* level + 1; 0: never written */
	unsigned n, top; /* logs, the coldest in use */
};

static int multilog_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct multilog *p = st;
	if (!(p->level = policy_calloc(st, ftl_logical_pages(f), 1)))
		return policy_fail(st, "out of memory");
	p->n = (unsigned)in->args->u[0];
	out->streams = p->n;
	out->gc_streams = p->n;
	out->keep = FTL_KEEP_WRITE_TIME;
	return 0;
}

static int multilog_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct multilog *p = st;
	unsigned l = p->level[w->lpn];
	if (!l) {
		p->level[w->lpn] = 1;
		*s = 0;
		return 0;
	}
	unsigned log = l - 1;
	uint64_t nv = ftl_stream_victims(f, log);
	if (log && nv && w->prev_seg != FTL_NONE && w->prev_time != FTL_NEVER) {
		/* the log's valid pages once this overwrite's old copy is gone */
		uint64_t live = ftl_stream_live(f, log) - (ftl_seg_stream(f, w->prev_seg) == log);
		double g = 1 - (double)ftl_stream_victim_valid(f, log) / ((double)nv * ftl_seg_pages(f));
		double e = (double)live * (1 - g) / 2;
		double d = (double)(ftl_now(f) - w->prev_time), prob = (e - d) / e;
		if (prob > 0 && rng_unit(policy_rng(st)) < prob)
			p->level[w->lpn] = (uint8_t)(l - 1);
	}
	*s = p->level[w->lpn] - 1;
	return 0;
}

static int multilog_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct multilog *p = st;
	unsigned l = p->level[lpn] - 1;
	if (l != p->top)
		l++;
	else if (p->top + 1 < p->n && ftl_stream_live(f, l) >= ftl_seg_pages(f))
		l = ++p->top;
	p->level[lpn] = (uint8_t)(l + 1);
	*s = l;
	return 0;
}

static const char *multilog_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "log%u", s);
	return buf;
}

static void multilog_destroy(void *st, const struct ftl *f) { free(((struct multilog *)st)->level); }

static const struct policy_arg multilog_args[] = {
	{"N", ARG_UINT, 2, FTL_MAX_STREAMS, 6, "logs"},
};

const struct place_ops place_multilog_ops = {
	.info = {.name = "multilog",
		 .desc = "MultiLog (VLDB'13): logs by update frequency, colder on each GC copy, hotter on early overwrites (multilog:N, default 6)",
		 .version = PLACE_API_VERSION,
		 .args = multilog_args,
		 .nargs = 1,
		 .state_size = sizeof(struct multilog)},
	.init = multilog_init,
	.host = multilog_host,
	.gc = multilog_gc,
	.stream_name = multilog_name,
	.destroy = multilog_destroy,
};
