/*
 * select_share.c - --spare-share opt: each stream (class) a pool of its
 * own, GC cleaning the stream furthest over its share of the segments.
 *
 * Stream s holds the live data of its pages, d_s = live_s / b segments,
 * plus a share x_s of the spare segments X = (segments - gc_high - open
 * ones) - sum d_s, split so that the WA of separated pools, sum r_s
 * WA(x_s / (d_s + x_s)) with r_s the stream's share of the pages dying
 * (below) and WA greedy's mean field (wamath.h), is least: the
 * condition of Desnoyers' equations 20-22 ("Analytic modeling of SSD
 * write performance", SYSTOR'12), that every pool's marginal gain r_s
 * dWA_s/dx_s be equal, met by handing the spare out in 256 slices, each
 * to the pool it saves most. r_s is measured: the pages that die in the
 * stream's segments (overwritten or trimmed, ftl_stream_dead) over
 * windows of U/8 host writes, halved at each window (the split adapts
 * as the traffic changes). In separated pools a pool's deaths are its
 * host writes. Where GC copies move between streams (sepgc, sepbit,
 * ...) the pools are fed by copies too, and the spare goes where the
 * garbage is made: measured against the pages coming into each stream
 * from outside it, the deaths gave a WA as low or lower in 34 of 45
 * runs (docs/MODEL.md).
 *
 * The class to clean: the stream furthest over its share (sealed
 * segments, and its open one, against d_s + x_s) among those whose
 * sealed segments hold garbage. A stream whose sealed segments are all
 * valid frees nothing, however far over; when no stream's do,
 * SELECT_NONE.
 */
#include <math.h>
#include <stdlib.h>

#include "select.h"
#include "wamath.h"

/* One stream's figures, kept here. */
struct cls {
	uint64_t dead0; /* ftl_stream_dead at the last split */
	double rate;	/* its deaths, decayed: halved at each split */
	double quota;	/* the segments (sealed and open) it may hold */
};

struct share {
	unsigned n;	/* streams */
	uint64_t next;	/* host clock of the next split (0: at the first pick) */
	struct cls *c;
};

static int share_init(void *st, const struct ftl *f, const struct select_init *in)
{
	struct share *p = st;
	p->n = ftl_streams(f);
	if (!(p->c = policy_calloc(st, p->n, sizeof(*p->c))))
		return policy_fail(st, "out of memory");
	return 0;
}

static double pool_wa(double d, double x, uint32_t b)
{
	if (x <= 0)
		return 1e12;
	double w = wa_greedy_mf(x / (d + x), b);
	return isnan(w) ? 1e12 : w;
}

static void split(struct share *p, const struct ftl *f)
{
	double d[FTL_MAX_STREAMS], x[FTL_MAX_STREAMS], rsum = 0, dsum = 0;
	unsigned n = p->n;
	uint32_t b = ftl_seg_pages(f);
	for (unsigned s = 0; s < n; s++) {
		struct cls *c = &p->c[s];
		uint64_t dead = ftl_stream_dead(f, s);
		c->rate = c->rate / 2 + (double)(dead - c->dead0);
		c->dead0 = dead;
		rsum += c->rate;
		d[s] = (double)ftl_stream_live(f, s) / b;
		dsum += d[s];
		x[s] = 0;
	}
	double room = (double)ftl_segments(f) - ftl_gc_high(f) - n, X = room - dsum;
	for (unsigned k = 0; k < 256 && X > 0; k++) {
		double slice = X / 256, best = -1;
		unsigned bs = 0;
		for (unsigned s = 0; s < n; s++) {
			double r = rsum > 0 ? p->c[s].rate / rsum : 1.0 / n;
			if (d[s] <= 0 || r <= 0)
				continue;
			double g = r * (pool_wa(d[s], x[s], b) - pool_wa(d[s], x[s] + slice, b));
			if (g > best) {
				best = g;
				bs = s;
			}
		}
		if (best < 0)
			break;
		x[bs] += slice;
	}
	for (unsigned s = 0; s < n; s++)
		p->c[s].quota = d[s] + x[s];
	uint64_t every = ftl_logical_pages(f) / 8 ? ftl_logical_pages(f) / 8 : 1;
	p->next = ftl_now(f) + every;
}

static int share_pick_class(void *st, const struct ftl *f, unsigned *cls)
{
	struct share *p = st;
	if (ftl_now(f) >= p->next)
		split(p, f);
	unsigned best = SELECT_NONE;
	double over = 0;
	uint32_t b = ftl_seg_pages(f);
	for (unsigned s = 0; s < p->n; s++) {
		uint32_t open = ftl_stream_seg(f, s), held = ftl_stream_held(f, s);
		uint64_t open_valid = open != FTL_NONE ? ftl_valid(f, open) : 0;
		if ((uint64_t)held * b <= ftl_stream_live(f, s) - open_valid)
			continue;
		double o = (double)held + (open != FTL_NONE) - p->c[s].quota;
		if (best == SELECT_NONE || o > over) {
			best = s;
			over = o;
		}
	}
	*cls = best;
	return 0;
}

static void share_destroy(void *st, const struct ftl *f)
{
	struct share *p = st;
	free(p->c);
}

const struct select_ops select_share_ops = {
	.info = {.name = "share",
		 .desc = "each stream its own share of the spare space, split at the optimum of separated pools; "
			 "GC cleans the stream furthest over its share",
		 .version = SELECT_API_VERSION,
		 .state_size = sizeof(struct share)},
	.option = "--spare-share opt",
	.init = share_init,
	.pick_class = share_pick_class,
	.destroy = share_destroy,
};
