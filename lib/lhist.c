/*
 * lhist.c - log-linear latency histograms (lhist.h).
 */
#include <math.h>
#include <string.h>

#include "lhist.h"

void lhist_init(struct lhist *h) { memset(h, 0, sizeof(*h)); }

void lhist_reset(struct lhist *h)
{
	if (h->n) { /* every value lies in [min, max]: no bucket outside theirs counts one */
		unsigned lo = lhist_bucket(h->min), hi = lhist_bucket(h->max);
		memset(&h->b[lo], 0, (hi - lo + 1) * sizeof(h->b[0]));
	}
	h->n = h->max = h->min = 0;
	h->sum = 0;
}

void lhist_bounds(unsigned i, uint64_t *lo, uint64_t *hi)
{
	if (i < LHIST_SUB) {
		*lo = *hi = i;
		return;
	}
	if (i == LHIST_BUCKETS - 1) { /* the rest */
		*lo = (uint64_t)1 << LHIST_MAX_BITS;
		*hi = UINT64_MAX;
		return;
	}
	unsigned e = i / LHIST_SUB + LHIST_SUB_BITS - 1, m = i % LHIST_SUB;
	unsigned sh = e - LHIST_SUB_BITS;
	*lo = ((uint64_t)LHIST_SUB + m) << sh;
	*hi = *lo + ((uint64_t)1 << sh) - 1;
}

double lhist_quantile(const struct lhist *h, double q)
{
	if (!h->n)
		return 0;
	if (q <= 0)
		return (double)h->min;
	if (q >= 1)
		return (double)h->max;
	uint64_t rank = (uint64_t)ceil(q * (double)h->n), seen = 0;
	if (rank < 1)
		rank = 1;
	/* the buckets below min's hold nothing, and max's reaches n */
	for (unsigned i = lhist_bucket(h->min), top = lhist_bucket(h->max); i <= top; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t lo, hi;
			lhist_bounds(i, &lo, &hi);
			double v = ((double)lo + (double)hi) / 2;
			if (v < (double)h->min)
				v = (double)h->min;
			if (v > (double)h->max)
				v = (double)h->max;
			return v;
		}
	}
	return (double)h->max;
}

double lhist_mean(const struct lhist *h) { return h->n ? h->sum / (double)h->n : 0; }

void lhist_merge(struct lhist *to, const struct lhist *from)
{
	if (!from->n)
		return;
	for (unsigned i = 0; i < LHIST_BUCKETS; i++)
		to->b[i] += from->b[i];
	if (!to->n || from->min < to->min)
		to->min = from->min;
	if (from->max > to->max)
		to->max = from->max;
	to->n += from->n;
	to->sum += from->sum;
}
