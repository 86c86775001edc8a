/*
 * lhist.h - a latency histogram with bounded relative error, as
 * HdrHistogram keeps one: values in nanoseconds fall in log-linear
 * buckets, LHIST_SUB of them per power of two, so that every bucket's
 * width is at most 1/LHIST_SUB of its lower bound (under 0.8%); values
 * below LHIST_SUB are exact. A quantile is the midpoint of the bucket
 * that holds it, so its error is at most half a bucket (0.4%); the
 * mean, the count and the maximum are exact. Values of 2^48 ns and
 * more share the last bucket: a quantile there is the maximum (an upper
 * bound).
 *
 * Fixed size (LHIST_BUCKETS counters), no allocation after init: a
 * histogram per operation kind, per interval or per volume costs
 * sizeof(struct lhist).
 */
#ifndef FTLKIT_LHIST_H
#define FTLKIT_LHIST_H

#include <stdint.h>

#define LHIST_SUB_BITS 7
#define LHIST_SUB (1u << LHIST_SUB_BITS) /* 128 buckets per power of two */
#define LHIST_MAX_BITS 48 /* values below 2^48 ns (78 hours) bucketed; larger ones in one more, the last */
#define LHIST_BUCKETS ((LHIST_MAX_BITS - LHIST_SUB_BITS + 1) * LHIST_SUB + 1)

struct lhist {
	uint64_t n, max, min;
	double sum; /* ns */
	uint64_t b[LHIST_BUCKETS];
};

void lhist_init(struct lhist *h);
/* The bucket of v, and the bucket's bounds [lo, hi]. */
static inline unsigned lhist_bucket(uint64_t v)
{
	if (v < LHIST_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v); /* v in [2^e, 2^(e+1)) */
	if (e >= LHIST_MAX_BITS)
		return LHIST_BUCKETS - 1;
	unsigned sh = e - LHIST_SUB_BITS;
	return (e - LHIST_SUB_BITS + 1) * LHIST_SUB + (unsigned)((v >> sh) - LHIST_SUB);
}
void lhist_bounds(unsigned i, uint64_t *lo, uint64_t *hi);

/* v, whose bucket i = lhist_bucket(v) the caller has (one value into
 * several histograms). */
static inline void lhist_add_at(struct lhist *h, uint64_t v, unsigned i)
{
	h->b[i]++;
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += (double)v;
}

static inline void lhist_add(struct lhist *h, uint64_t v) { lhist_add_at(h, v, lhist_bucket(v)); }

/* Empty again, as lhist_init leaves it, clearing only the buckets
 * between its least and its largest value (a histogram emptied often,
 * as a timeline's per interval). */
void lhist_reset(struct lhist *h);

/* The q-quantile (0 <= q <= 1) in ns: the smallest value v with at
 * least ceil(q n) values <= v, as the midpoint of its bucket (clamped
 * to [min, max]); 0 when empty. */
double lhist_quantile(const struct lhist *h, double q);
double lhist_mean(const struct lhist *h);
void lhist_merge(struct lhist *to, const struct lhist *from);

#endif
