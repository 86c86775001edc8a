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
		if ((double)(hi - lo + 1) > (double)lo / LHIST_SUB + 1)
			narrow = 0;
		if (lhist_bucket(lo) != i || lhist_bucket(hi) != i)
			contiguous = 0;
		prev_hi = hi;
	}
	CHECK(contiguous, "buckets are contiguous and each value falls in its own");
	CHECK(narrow, "every bucket is at most 1/128 of its lower bound wide");

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
