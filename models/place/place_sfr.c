/*
 * place_sfr.c - SFR of AutoStream (Yang et al., SYSTOR'17): sequential,
 * frequency and recency. The logical space is cut into chunks of 512
 * pages (2 MiB at 4 KiB), each with a write count that halves for every
 * 16384 host page writes (64 MiB) it goes untouched and counts one per
 * host request touching it. A page goes to stream min(N-2, floor(ln c))
 * of its chunk's count c (sfr:N, default 6), and a request that starts
 * where the previous one ended (sequential) to the previous request's
 * stream. GC copies go to stream N-1. 12 bytes per chunk.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define SFR_CHUNK 512
#define SFR_DECAY 16384

struct sfr {
	unsigned n;
	uint32_t nchunks;
	uint32_t *writes;
	uint64_t *last; /* host clock of the chunk's last access */
	uint64_t prev_end;
	int seq;
	unsigned prev_level;
};

static int sfr_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct sfr *p = st;
	p->n = (unsigned)in->args->u[0];
	p->nchunks = (uint32_t)((ftl_logical_pages(f) + SFR_CHUNK - 1) / SFR_CHUNK);
	if (!(p->writes = policy_calloc(st, p->nchunks, 4)) || !(p->last = policy_calloc(st, p->nchunks, 8)))
		return policy_fail(st, "out of memory");
	out->streams = p->n;
	out->gc_streams = 1;
	out->host_streams = p->n - 1;
	return 0;
}

static int sfr_request(void *st, const struct ftl *f, uint32_t lpn, uint32_t npages)
{
	struct sfr *p = st;
	uint64_t end = (uint64_t)lpn + npages;
	p->seq = lpn == p->prev_end;
	p->prev_end = end;
	for (uint64_t c = lpn / SFR_CHUNK; c * SFR_CHUNK < end && c < p->nchunks; c++) {
		uint64_t d = p->writes[c] ? (ftl_now(f) - p->last[c]) / SFR_DECAY : 0;
		uint32_t w = d >= 32 ? 0 : p->writes[c] >> d;
		p->writes[c] = w < UINT32_MAX ? w + 1 : w;
		p->last[c] = ftl_now(f);
	}
	return 0;
}

static int sfr_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct sfr *p = st;
	if (!p->seq) {
		double lg = log((double)p->writes[w->lpn / SFR_CHUNK]);
		p->prev_level = lg >= p->n - 2 ? p->n - 2 : (unsigned)lg;
	}
	*s = p->prev_level;
	return 0;
}

static int sfr_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	*s = ((struct sfr *)st)->n - 1;
	return 0;
}

static const char *sfr_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	if (s == ((struct sfr *)st)->n - 1)
		return "gc";
	snprintf(buf, n, "level%u", s);
	return buf;
}

static void sfr_destroy(void *st, const struct ftl *f)
{
	struct sfr *p = st;
	free(p->writes);
	free(p->last);
}

static const struct policy_arg sfr_args[] = {
	{"N", ARG_UINT, 2, FTL_MAX_STREAMS, 6, "streams"},
};

const struct place_ops place_sfr_ops = {
	.info = {.name = "sfr",
		 .desc = "AutoStream's SFR (SYSTOR'17): 2 MiB chunks by decayed write count, sequential runs together (sfr:N, default 6)",
		 .version = PLACE_API_VERSION,
		 .args = sfr_args,
		 .nargs = 1,
		 .state_size = sizeof(struct sfr)},
	.init = sfr_init,
	.request = sfr_request,
	.host = sfr_host,
	.gc = sfr_gc,
	.stream_name = sfr_name,
	.destroy = sfr_destroy,
};
