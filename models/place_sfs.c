/*
 * place_sfs.c - SFS (Min, Kim, Cho, Lee, Eom: "SFS: Random Write
 * Considered Harmful in Solid State Drives", FAST'12), its on-writing
 * data grouping. A page's hotness is its write count over its age (host
 * writes since its last host write); a segment's is the sum of its live
 * pages' counts over the sum of their ages. After cleanings, iterative
 * quantization (three rounds of 1-D k-means, as SFS) puts the sealed
 * segments' hotness into N groups (sfs:N, default 6), and every write,
 * host or GC copy, goes to the stream of the group centre nearest to its
 * page's hotness (a page's first write counts as hottest). Groups are
 * numbered hottest first.
 *
 * SFS quantizes at every cleaning, over every segment; here it does so
 * after every ceil(sealed / SPAN) cleanings (sfs:N,SPAN=K, default
 * 1024), so that its cost per cleaning stays bounded (amortized 3 x SPAN
 * segment visits; a smaller SPAN is cheaper and follows the hotness
 * less closely). Memory: a
 * u32 write count a page, three doubles a segment.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define SFS_ROUNDS 3

struct sfs {
	unsigned n;
	uint64_t span; /* segments quantized per cleaning, amortized */
	uint32_t *count;
	double *sum_count, *sum_time; /* per segment, over its live pages */
	double center[FTL_MAX_STREAMS];
	uint64_t cleanings;
	uint32_t overwrite; /* lpn whose old copy host() already took out, or FTL_NONE */
	double *h;	    /* quantize: the counted segments' hotness, computed once */
};

static int sfs_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct sfs *p = st;
	if (!(p->count = policy_calloc(st, ftl_logical_pages(f), 4)) ||
	    !(p->sum_count = policy_calloc(st, ftl_segments(f), 8)) ||
	    !(p->sum_time = policy_calloc(st, ftl_segments(f), 8)) ||
	    !(p->h = policy_calloc(st, ftl_segments(f), 8)))
		return policy_fail(st, "out of memory");
	p->n = (unsigned)in->args->u[0];
	p->span = in->args->u[1];
	p->overwrite = FTL_NONE;
	out->streams = p->n;
	out->gc_streams = p->n;
	out->keep = FTL_KEEP_WRITE_TIME;
	return 0;
}

static double seg_hotness(const struct ftl *f, const struct sfs *p, uint32_t s)
{
	return p->sum_count[s] / ((double)ftl_valid(f, s) * (double)ftl_now(f) - p->sum_time[s]);
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The centre nearest h; ties to the higher index, as SFS's scan.
 * Branch-free (selects, not jumps): which centre is nearest changes
 * from page to page, and mispredicted branches were most of its cost. */
static unsigned nearest(const struct sfs *p, double h)
{
	unsigned best = 0;
	double d = HUGE_VAL;
	for (unsigned i = p->n; i-- > 0;) {
		double e = fabs(p->center[i] - h);
		int lt = e < d;
		best = lt ? i : best;
		d = lt ? e : d;
	}
	return best;
}

/* The centre nearest h, ties to the lower index (k-means' assignment). */
static unsigned nearest_low(const double *c, unsigned n, double h)
{
	unsigned g = 0;
	double d = HUGE_VAL;
	for (unsigned i = 0; i < n; i++) {
		double e = fabs(h - c[i]);
		int lt = e < d;
		g = lt ? i : g;
		d = lt ? e : d;
	}
	return g;
}

/* Segments holding no valid page carry no hotness: left out. */
static int counted(const struct ftl *f, uint32_t s) { return ftl_state(f, s) == SEG_SEALED && ftl_valid(f, s); }

static void quantize(const struct ftl *f, struct sfs *p)
{
	uint32_t m = 0, first[FTL_MAX_STREAMS], nseg = ftl_segments(f);
	for (uint32_t s = 0; s < nseg && m < p->n; s++)
		if (counted(f, s))
			first[m++] = s;
	if (m == 0)
		return;
	if (ftl_sealed_count(f) <= p->n) {
		for (unsigned i = 0; i < p->n; i++)
			p->center[i] = seg_hotness(f, p, first[i % m]);
	} else {
		/* The hotness of every counted segment once (the rounds
		 * see the same clock), in segment order as before. */
		uint32_t nh = 0;
		for (uint32_t s = 0; s < nseg; s++)
			if (counted(f, s))
				p->h[nh++] = seg_hotness(f, p, s);
		for (int r = 0; r < SFS_ROUNDS; r++) {
			double sum[FTL_MAX_STREAMS] = {0};
			uint64_t cnt[FTL_MAX_STREAMS] = {0};
			for (uint32_t k = 0; k < nh; k++) {
				unsigned g = nearest_low(p->center, p->n, p->h[k]);
				sum[g] += p->h[k];
				cnt[g]++;
			}
			int moved = 0;
			for (unsigned i = 0; i < p->n; i++) {
				double c = cnt[i] ? sum[i] / (double)cnt[i] : 0;
				moved |= c != p->center[i];
				p->center[i] = c;
			}
			/* Unmoved centres give the same assignment, sums and
			 * centres again: the rounds left change nothing. */
			if (!moved)
				break;
		}
	}
	qsort(p->center, p->n, sizeof(double), cmp_desc);
}

static int sfs_clean(void *st, const struct ftl *f, uint32_t seg, int wl)
{
	struct sfs *p = st;
	place_prefetch_victim(f, seg, p->count, sizeof(*p->count), 1);
	uint64_t every = (ftl_sealed_count(f) + p->span - 1) / p->span;
	if (++p->cleanings >= (every ? every : 1)) {
		p->cleanings = 0;
		quantize(f, p);
	}
	/* Its live pages are about to be copied elsewhere. */
	p->sum_count[seg] = 0;
	p->sum_time[seg] = 0;
	return 0;
}

static void take_out(const struct ftl *f, struct sfs *p, uint32_t lpn, uint32_t seg)
{
	p->sum_count[seg] -= p->count[lpn];
	p->sum_time[seg] -= (double)ftl_write_time(f, lpn);
}

/* A trim's page leaves its segment's sums; an overwrite's left in host(). */
static int sfs_invalidate(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg)
{
	struct sfs *p = st;
	if (lpn == p->overwrite)
		p->overwrite = FTL_NONE;
	else
		take_out(f, p, lpn, seg);
	return 0;
}

static int sfs_placed(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg)
{
	struct sfs *p = st;
	p->sum_count[seg] += p->count[lpn];
	p->sum_time[seg] += (double)ftl_write_time(f, lpn);
	return 0;
}

static int sfs_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct sfs *p = st;
	uint32_t lpn = w->lpn;
	uint64_t t = ftl_write_time(f, lpn);
	if (w->prev_seg != FTL_NONE) {
		take_out(f, p, lpn, w->prev_seg);
		p->overwrite = lpn;
	}
	double h = HUGE_VAL;
	if (p->count[lpn] && t != FTL_NEVER)
		h = p->count[lpn] / (double)(ftl_now(f) - t);
	if (p->count[lpn] < UINT32_MAX)
		p->count[lpn]++;
	*s = h == HUGE_VAL ? 0 : nearest(p, h);
	return 0;
}

static void sfs_prefetch(void *st, const struct ftl *f, uint32_t lpn)
{
	struct sfs *p = st;
	ftl_pf(&p->count[lpn]);
}

static int sfs_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct sfs *p = st;
	uint64_t age = ftl_now(f) - ftl_write_time(f, lpn);
	*s = nearest(p, age ? p->count[lpn] / (double)age : HUGE_VAL);
	return 0;
}

static const char *sfs_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "group%u", s);
	return buf;
}

static void sfs_destroy(void *st, const struct ftl *f)
{
	struct sfs *p = st;
	free(p->count);
	free(p->sum_count);
	free(p->sum_time);
	free(p->h);
}

static const struct policy_arg sfs_args[] = {
	{"N", ARG_UINT, 2, FTL_MAX_STREAMS, 6, "groups"},
	{"SPAN", ARG_UINT, 1, 1u << 30, 1024, "segments quantized per cleaning, amortized (quantize every ceil(sealed/SPAN) cleanings)"},
};

const struct place_ops place_sfs_ops = {
	.info = {.name = "sfs",
		 .desc = "SFS (FAST'12): groups by hotness (writes over age), centres quantized from the segments (sfs:N[,SPAN=K], default 6 groups, K 1024)",
		 .version = PLACE_API_VERSION,
		 .args = sfs_args,
		 .nargs = 2,
		 .state_size = sizeof(struct sfs)},
	.init = sfs_init,
	.host = sfs_host,
	.gc = sfs_gc,
	.on_clean = sfs_clean,
	.invalidate = sfs_invalidate,
	.placed = sfs_placed,
	.prefetch = sfs_prefetch,
	.stream_name = sfs_name,
	.destroy = sfs_destroy,
};
