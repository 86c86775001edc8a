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
 * less closely).
 *
 * Speed without changing a result: the segments' hotness is divided
 * four at a time; a k-means round and a write's nearest centre cut the
 * hotness axis at thresholds between neighbouring centres (the exact
 * points where the scan's comparisons turn, found by split()), so that
 * a value's group is a count of independent comparisons rather than a
 * chain of them, with the scan kept for centres too close for the cut
 * to be exact. A round's sums are added in four lanes; the groups, and
 * with them every WA measured, are the scan's (tests/unit/test_sfs_cut.c).
 * Memory: a u32 write count a page, four 8-byte words a segment.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place.h"

#define SFS_ROUNDS 3

struct sfs {
	unsigned n;
	uint64_t span; /* segments quantized per cleaning, amortized */
	uint32_t *count;
	/* Per segment, over its live pages: integers, exact as doubles
	 * (below 2^53) and cheaper to add. */
	int64_t *sum_count, *sum_time;
	double center[FTL_MAX_STREAMS]; /* hottest first */
	/* nearest()'s cut of the hotness axis (see prepare) */
	double cut[FTL_MAX_STREAMS], lim;
	uint8_t rep[FTL_MAX_STREAMS];
	unsigned ncut;
	uint64_t cleanings;
	uint32_t overwrite; /* lpn whose old copy host() already took out, or FTL_NONE */
	double *h, *den;    /* quantize: the counted segments' hotness, computed once */
};

static void prepare(struct sfs *p);

static int sfs_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct sfs *p = st;
	if (!(p->count = policy_calloc(st, ftl_logical_pages(f), 4)) ||
	    !(p->sum_count = policy_calloc(st, ftl_segments(f), 8)) ||
	    !(p->sum_time = policy_calloc(st, ftl_segments(f), 8)) ||
	    !(p->h = policy_calloc(st, ftl_segments(f), 8)) ||
	    !(p->den = policy_calloc(st, ftl_segments(f), 8)))
		return policy_fail(st, "out of memory");
	p->n = (unsigned)in->args->u[0];
	p->span = in->args->u[1];
	p->overwrite = FTL_NONE;
	out->streams = p->n;
	out->gc_streams = p->n;
	out->keep = FTL_KEEP_WRITE_TIME;
	prepare(p);
	return 0;
}

static double seg_hotness(const struct ftl *f, const struct sfs *p, uint32_t s)
{
	return (double)p->sum_count[s] / ((double)ftl_valid(f, s) * (double)ftl_now(f) - (double)p->sum_time[s]);
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? 1 : x > y ? -1 : 0;
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

/* k-means' assignment, nearest_low's, is a cut of the hotness axis at
 * thresholds when the distinct centres, sorted, are finite,
 * non-negative and apart by more than the rounding of h - c for every
 * h of the data (half an ulp of the largest of them and the centres):
 * then the computed distances fall strictly to the nearest centre and
 * rise strictly after it, with at most one tie at the bottom, and
 * whether the colder of two neighbours is the nearer holds exactly
 * below a threshold, split() finds. A tie goes to the lower index. */
static int apart(const double *d, unsigned m, double hmax)
{
	if (!(d[m - 1] >= 0) || !(d[0] < HUGE_VAL) || !(hmax < HUGE_VAL))
		return 0;
	double gap = fmax(8 * DBL_EPSILON * fmax(d[0], hmax), DBL_MIN);
	for (unsigned i = 0; i + 1 < m; i++)
		if (!(d[i] - d[i + 1] > gap))
			return 0;
	return 1;
}

static int nearer(double x, double a, double b, int tie_b)
{
	return tie_b ? fabs(x - b) <= fabs(x - a) : fabs(x - b) < fabs(x - a);
}

/* The least double x >= b at which b (colder, a > b) is no longer the
 * nearer of the two (tie_b: ties go to b). */
static double split(double a, double b, int tie_b)
{
	double x = b + (a - b) / 2;
	while (nearer(x, a, b, tie_b))
		x = nextafter(x, HUGE_VAL);
	for (;;) {
		double y = nextafter(x, -HUGE_VAL);
		if (nearer(y, a, b, tie_b))
			return x;
		x = y;
	}
}

/* The centre nearest h; ties to the higher index, as SFS's scan.
 * Branch-free (selects, not jumps): which centre is nearest changes
 * from page to page, and mispredicted branches were most of its cost. */
static unsigned nearest_scan(const struct sfs *p, double h)
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

/* The same, as a cut: below p->lim (where the centres' gaps outweigh
 * the rounding of h - c), h's group is the number of thresholds above
 * it, independent comparisons instead of a chain. */
static unsigned nearest(const struct sfs *p, double h)
{
	if (!(h < p->lim))
		return nearest_scan(p, h);
	unsigned g = 0;
	for (unsigned j = 0; j < p->ncut; j++)
		g += h < p->cut[j];
	return p->rep[g];
}

/* nearest()'s cut for the centres (sorted, hottest first): each
 * distinct value once with the highest index that has it (the scan's
 * tie), thresholds between neighbours, and the limit below which they
 * are exact (none if the gaps are too narrow). */
static void prepare(struct sfs *p)
{
	double d[FTL_MAX_STREAMS], gap = HUGE_VAL;
	unsigned m = 0;
	for (unsigned i = 0; i < p->n; i++) {
		if (m == 0 || p->center[i] != d[m - 1])
			d[m++] = p->center[i];
		p->rep[m - 1] = (uint8_t)i;
	}
	p->lim = 0;
	p->ncut = 0;
	if (!(d[m - 1] >= 0) || !(d[0] < HUGE_VAL))
		return;
	for (unsigned j = 0; j + 1 < m; j++)
		gap = fmin(gap, d[j] - d[j + 1]);
	if (m > 1 && !(gap > fmax(8 * DBL_EPSILON * d[0], DBL_MIN)))
		return;
	for (unsigned j = 0; j + 1 < m; j++)
		p->cut[j] = split(d[j], d[j + 1], 1);
	p->ncut = m - 1;
	p->lim = m > 1 ? fmin(gap / (8 * DBL_EPSILON), DBL_MAX) : DBL_MAX;
}

/* Four lanes, whatever the instruction set: vectors the compiler splits
 * for SSE2 or keeps whole for AVX2, the same sums in the same order. */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4i __attribute__((vector_size(32)));
#define LANES 4

static inline __attribute__((always_inline)) double lanes_sum(const v4d *v)
{
	return ((*v)[0] + (*v)[1]) + ((*v)[2] + (*v)[3]);
}

/* One round's group sums and counts, groups cut at thresholds t[]
 * (h < t[j]: a group after j), n a constant once inlined (accumulators
 * in registers): below[j] sums the hotness under t[j], total all of it;
 * a group's sum is the difference of two (exact where it is empty). Each
 * sum is added in four lanes. */
static inline __attribute__((always_inline)) void
cut_round(unsigned n, const double *t, const double *h, uint32_t nh, double *sum, uint64_t *cnt)
{
	v4d below[FTL_MAX_STREAMS - 1] = {{0}}, total = {0}, tv[FTL_MAX_STREAMS - 1];
	v4i under[FTL_MAX_STREAMS - 1] = {{0}};
	for (unsigned j = 0; j + 1 < n; j++)
		tv[j] = (v4d){t[j], t[j], t[j], t[j]};
	uint32_t k = 0;
	for (; k + LANES <= nh; k += LANES) {
		v4d x;
		memcpy(&x, h + k, sizeof(x));
		total += x;
#pragma GCC unroll 8
		for (unsigned j = 0; j + 1 < n; j++) {
			v4i lt = x < tv[j];
			below[j] += (v4d)((v4i)x & lt);
			under[j] -= lt;
		}
	}
	double b[FTL_MAX_STREAMS - 1], tot = lanes_sum(&total);
	uint64_t u[FTL_MAX_STREAMS - 1];
	for (unsigned j = 0; j + 1 < n; j++) {
		b[j] = lanes_sum(&below[j]);
		u[j] = (uint64_t)((under[j][0] + under[j][1]) + (under[j][2] + under[j][3]));
	}
	for (; k < nh; k++) {
		tot += h[k];
		for (unsigned j = 0; j + 1 < n; j++)
			if (h[k] < t[j])
				b[j] += h[k], u[j]++;
	}
	sum[0] = tot - b[0];
	cnt[0] = nh - u[0];
	for (unsigned j = 1; j + 1 < n; j++) {
		sum[j] = b[j - 1] - b[j];
		cnt[j] = u[j - 1] - u[j];
	}
	sum[n - 1] = b[n - 2];
	cnt[n - 1] = u[n - 2];
}

/* x86-64: an AVX2 build of the loops beside the baseline one, chosen at
 * load time; the same arithmetic, so the same results. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define SFS_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef SFS_CLONES
#define SFS_CLONES
#endif

/* One round of k-means: each hotness to its nearest centre (ties to the
 * lower index), each group's sum and count. hmax: the largest hotness. */
SFS_CLONES static void kmeans_round(const double *c, unsigned n, const double *h, uint32_t nh, double hmax, double *sum,
			 uint64_t *cnt)
{
	for (unsigned i = 0; i < n; i++)
		sum[i] = 0, cnt[i] = 0;
	if (n <= 8) {
		/* The centres hottest first (equal ones by index), each
		 * value once, with the lowest index that has it. */
		unsigned o[8], m = 0;
		for (unsigned i = 0; i < n; i++) {
			unsigned j = i;
			for (; j > 0 && c[o[j - 1]] < c[i]; j--)
				o[j] = o[j - 1];
			o[j] = i;
		}
		double d[8] = {0};
		for (unsigned i = 0; i < n; i++)
			if (m == 0 || c[o[i]] != d[m - 1])
				d[m] = c[o[i]], o[m++] = o[i];
		if (apart(d, m, hmax)) {
			double t[7], s[8];
			uint64_t k[8];
			for (unsigned j = 0; j + 1 < m; j++)
				t[j] = split(d[j], d[j + 1], o[j + 1] < o[j]);
			switch (m) {
			case 1:
				s[0] = 0;
				for (uint32_t i = 0; i < nh; i++)
					s[0] += h[i];
				k[0] = nh;
				break;
			case 2: cut_round(2, t, h, nh, s, k); break;
			case 3: cut_round(3, t, h, nh, s, k); break;
			case 4: cut_round(4, t, h, nh, s, k); break;
			case 5: cut_round(5, t, h, nh, s, k); break;
			case 6: cut_round(6, t, h, nh, s, k); break;
			case 7: cut_round(7, t, h, nh, s, k); break;
			default: cut_round(8, t, h, nh, s, k); break;
			}
			for (unsigned j = 0; j < m; j++)
				sum[o[j]] = s[j], cnt[o[j]] = k[j];
			return;
		}
	}
	for (uint32_t k = 0; k < nh; k++) {
		unsigned g = nearest_low(c, n, h[k]);
		sum[g] += h[k];
		cnt[g]++;
	}
}

/* Segments holding no valid page carry no hotness: left out. */
static int counted(const struct ftl *f, uint32_t s) { return ftl_state(f, s) == SEG_SEALED && ftl_valid(f, s); }

/* The hotness of every counted segment into p->h, in segment order, as
 * seg_hotness computes it: numerators and denominators gathered first,
 * then divided four at a time; returns the largest (NaN if one is). */
SFS_CLONES static double hotness_all(const struct ftl *f, struct sfs *p, uint32_t *nh)
{
	uint32_t nseg = ftl_segments(f), n = 0, k = 0;
	double now = (double)ftl_now(f), *h = p->h, *den = p->den;
	for (uint32_t s = 0; s < nseg; s++) {
		h[n] = (double)p->sum_count[s];
		den[n] = (double)ftl_valid(f, s) * now - (double)p->sum_time[s];
		n += (uint32_t)counted(f, s);
	}
	v4d mx = {0, 0, 0, 0};
	for (; k + LANES <= n; k += LANES) {
		v4d x, y;
		memcpy(&x, h + k, sizeof(x));
		memcpy(&y, den + k, sizeof(y));
		x /= y;
		memcpy(h + k, &x, sizeof(x));
		v4i up = (x > mx) | (x != x);
		mx = (v4d)((up & (v4i)x) | (~up & (v4i)mx));
	}
	double m = mx[0];
	for (unsigned l = 1; l < LANES; l++)
		m = mx[l] > m || mx[l] != mx[l] ? mx[l] : m;
	for (; k < n; k++) {
		h[k] /= den[k];
		m = h[k] > m || h[k] != h[k] ? h[k] : m;
	}
	*nh = n;
	return m;
}

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
		double hmax = hotness_all(f, p, &nh);
		for (int r = 0; r < SFS_ROUNDS; r++) {
			double sum[FTL_MAX_STREAMS];
			uint64_t cnt[FTL_MAX_STREAMS];
			kmeans_round(p->center, p->n, p->h, nh, hmax, sum, cnt);
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
	prepare(p);
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
	p->sum_time[seg] -= (int64_t)ftl_write_time(f, lpn);
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
	p->sum_time[seg] += (int64_t)ftl_write_time(f, lpn);
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
	free(p->den);
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
