/*
 * test_lhist.c - the latency histogram's bounds: every bucket at most
 * 1/128 of its lower bound wide, buckets contiguous, and quantiles
 * within 1%% of the exact ones on skewed samples.
 */
#include <math.h>
#include <stdlib.h>

#include "lhist.h"
#include "rng.h"
#include "th.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(void)
{
	uint64_t prev_hi = 0;
	int contiguous = 1, narrow = 1;
	for (unsigned i = 0; i < LHIST_BUCKETS; i++) {
		uint64_t lo, hi;
		lhist_bounds(i, &lo, &hi);
		if (i && lo != prev_hi + 1)
			contiguous = 0;
		if (i < LHIST_BUCKETS - 1 && (double)(hi - lo + 1) > (double)lo / LHIST_SUB + 1)
			narrow = 0; /* (the last holds every value from 2^LHIST_MAX_BITS) */
		if (lhist_bucket(lo) != i || lhist_bucket(hi) != i)
			contiguous = 0;
		prev_hi = hi;
	}
	CHECK(contiguous && prev_hi == UINT64_MAX, "buckets are contiguous to 2^64 and each value falls in its own");
	CHECK(narrow, "every bucket but the last (2^48 ns on) is at most 1/128 of its lower bound wide");

	/* an open loop far behind: latencies of 20 minutes to 3 days keep
	 * their 1%; beyond the buckets a quantile is the maximum */
	struct lhist g;
	lhist_init(&g);
	for (uint64_t k = 1; k <= 1000; k++)
		lhist_add(&g, k * 1200000000000ull / 1000 * 200); /* 240 s to 240,000 s */
	double p50 = lhist_quantile(&g, 0.5), p99 = lhist_quantile(&g, 0.99);
	CHECK(fabs(p50 - 1.2e14) <= 0.01 * 1.2e14 && fabs(p99 - 2.376e14) <= 0.01 * 2.376e14,
	      "p50 1.2e14 ns and p99 2.376e14 ns (33 and 66 hours) within 1%%: %g %g", p50, p99);
	lhist_add(&g, 1ull << 50);
	lhist_add(&g, 1ull << 51);
	CHECK(lhist_quantile(&g, 0.9999) == (double)(1ull << 51), "past 2^48 ns a quantile is the maximum");

	enum { N = 200000 };
	static uint64_t v[N];
	struct lhist h;
	lhist_init(&h);
	struct rng r;
	rng_seed(&r, 5);
	for (int i = 0; i < N; i++) { /* a heavy tail: 200 us with a few ms-long waits */
		double u = (rng_next(&r) >> 11) * 0x1p-53;
		v[i] = (uint64_t)(200000 + (u < 0.02 ? 5e7 * u : 3e5 * u));
		lhist_add(&h, v[i]);
	}
	qsort(v, N, sizeof(v[0]), cmp);
	static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
	int within = 1;
	for (unsigned k = 0; k < 5; k++) {
		double exact = (double)v[(size_t)ceil(qs[k] * N) - 1], got = lhist_quantile(&h, qs[k]);
		if (fabs(got - exact) > 0.01 * exact)
			within = 0;
	}
	CHECK(within, "p50, p90, p99, p99.9, p99.99 within 1%% of the exact quantiles");
	CHECK(h.max == v[N - 1] && h.min == v[0] && h.n == N, "count, min and max exact");
	return TH_DONE();
}
