/*
 * place_warcip.c - WARCIP (Yang, Wu, Wang, Li, Zhou: "WARCIP: Write
 * Amplification Reduction by Clustering I/O Pages", SYSTOR'19). A host
 * write's rewrite interval is the time since its page's last host write
 * (0 for a first write), plus a penalty when GC copied the page since:
 * the interval up to that copy. Writes go to the cluster whose centre
 * (the running mean interval of the writes in its open segment) is
 * nearest; GC copies all go to stream 0. Every 256 sealed host segments
 * the clusters adapt: one that took more than half of the host writes
 * splits in two (while fewer than N clusters exist; warcip:N streams,
 * default 6), otherwise one that took less than a segment's worth is
 * merged away when its segment next seals. Clusters start as N-1 with
 * centre 0, as in SepBIT's simulator (fallfish/sepbit). Time is the host
 * page-write clock. Memory: a u64 penalty a page; the write times are
 * the model's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define WARCIP_ADAPT 256 /* sealed host segments between adaptations */

struct cluster {
	double center;
	uint64_t blocks; /* in its open segment */
	uint64_t writes; /* since the last adaptation */
	unsigned stream;
};

struct warcip {
	unsigned n, k;		/* streams; clusters 1..k-1 (0 is GC) */
	struct cluster c[FTL_MAX_STREAMS];
	uint64_t *penalty;
	uint64_t total, sealed;
	int merge;		/* cluster to merge at its next seal, -1 none */
	uint8_t used[FTL_MAX_STREAMS];
};

static int warcip_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct warcip *p = st;
	if (!(p->penalty = policy_calloc(st, ftl_logical_pages(f), 8)))
		return policy_fail(st, "out of memory");
	p->n = p->k = (unsigned)in->args->u[0];
	for (unsigned i = 0; i < p->k; i++) {
		p->c[i].stream = i;
		p->used[i] = 1;
	}
	p->merge = -1;
	out->streams = p->n;
	out->gc_streams = 1;
	out->keep = FTL_KEEP_WRITE_TIME;
	return 0;
}

static int warcip_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct warcip *p = st;
	uint32_t lpn = w->lpn;
	uint64_t t = ftl_write_time(f, lpn);
	double ui = t != FTL_NEVER ? (double)(ftl_now(f) - t + p->penalty[lpn]) : 0;
	p->penalty[lpn] = 0;
	unsigned best = 1;
	double d = HUGE_VAL;
	for (unsigned i = p->k; i-- > 1;) {
		double e = fabs(p->c[i].center - ui);
		if (e < d) {
			best = i;
			d = e;
		}
	}
	struct cluster *c = &p->c[best];
	c->center = (c->center * (double)c->blocks + ui) / (double)(c->blocks + 1);
	c->blocks++;
	c->writes++;
	p->total++;
	*s = c->stream;
	return 0;
}

static int warcip_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct warcip *p = st;
	p->penalty[lpn] = ftl_now(f) - ftl_write_time(f, lpn);
	*s = 0;
	return 0;
}

static void split(struct warcip *p, unsigned id)
{
	unsigned s = 0;
	while (p->used[s])
		s++;
	p->used[s] = 1;
	for (unsigned i = p->k; i > id; i--)
		p->c[i] = p->c[i - 1];
	p->k++;
	p->c[id] = (struct cluster){(p->c[id - 1].center + p->c[id + 1].center) / 2, 0, 0, s};
}

static void adapt(const struct ftl *f, struct warcip *p)
{
	int done = 0;
	for (unsigned i = 1; i < p->k && !done; i++)
		if (p->c[i].writes > p->total / 2 && p->k < p->n) {
			split(p, i);
			done = 1;
		}
	for (unsigned i = 1; i < p->k && !done; i++)
		if (p->c[i].writes < ftl_seg_pages(f)) {
			if (p->merge < 0)
				p->merge = (int)i;
			done = 1;
		}
	p->total = 0;
	for (unsigned i = 0; i < p->k; i++)
		p->c[i].writes = 0;
}

static int warcip_sealed(void *st, const struct ftl *f, uint32_t seg)
{
	struct warcip *p = st;
	unsigned s = ftl_seg_stream(f, seg), id = 0;
	while (id < p->k && p->c[id].stream != s)
		id++;
	if (id == p->k)
		return 0; /* a merged cluster's last segment */
	if (id)
		p->sealed++;
	if (p->merge == (int)id && id) {
		p->used[s] = 0;
		for (unsigned i = id; i + 1 < p->k; i++)
			p->c[i] = p->c[i + 1];
		p->k--;
		p->merge = -1;
	} else {
		p->c[id].blocks = 0;
	}
	if (p->sealed == WARCIP_ADAPT) {
		p->sealed = 0;
		adapt(f, p);
	}
	return 0;
}

static const char *warcip_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	if (!s)
		return "gc";
	snprintf(buf, n, "slot%u", s);
	return buf;
}

static void warcip_destroy(void *st, const struct ftl *f) { free(((struct warcip *)st)->penalty); }

static const struct policy_arg warcip_args[] = {
	{"N", ARG_UINT, 3, FTL_MAX_STREAMS, 6, "streams"},
};

const struct place_ops place_warcip_ops = {
	.info = {.name = "warcip",
		 .desc = "WARCIP (SYSTOR'19): host writes clustered by rewrite interval, clusters split and merged; GC copies apart (warcip:N, default 6)",
		 .version = PLACE_API_VERSION,
		 .args = warcip_args,
		 .nargs = 1,
		 .state_size = sizeof(struct warcip)},
	.init = warcip_init,
	.host = warcip_host,
	.gc = warcip_gc,
	.sealed = warcip_sealed,
	.stream_name = warcip_name,
	.destroy = warcip_destroy,
};
