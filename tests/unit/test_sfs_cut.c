/*
 * test_sfs_cut.c - SFS's fast k-means round and nearest centre
 * (models/place/place_sfs.c, the cut of the hotness axis at thresholds)
 * against the scans they replace, on random and adversarial centres
 * (unsorted, equal, zero, nearly equal) and hotness values (on the
 * thresholds and one ulp either side, at the centres, far above them,
 * infinite, NaN): the same groups, bit for bit, and the same sums but
 * for the order of their additions.
 */
#include "../../models/place/place_sfs.c"

#include "th.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double unit(void) { return (double)(next() >> 11) / 9007199254740992.0; }

/* A hotness over eight decades, as segments' are. */
static double hot(void) { return pow(10, -8 * unit()); }

static void reference(const double *c, unsigned n, const double *h, uint32_t nh, double *sum, uint64_t *cnt)
{
	for (unsigned i = 0; i < n; i++)
		sum[i] = 0, cnt[i] = 0;
	for (uint32_t k = 0; k < nh; k++) {
		unsigned g = nearest_low(c, n, h[k]);
		sum[g] += h[k];
		cnt[g]++;
	}
}

static double maxh(const double *h, uint32_t nh)
{
	double m = 0;
	for (uint32_t k = 0; k < nh; k++)
		m = h[k] > m || h[k] != h[k] ? h[k] : m;
	return m;
}

/* Centres of one of several kinds. */
static void centres(double *c, unsigned n, int kind)
{
	for (unsigned i = 0; i < n; i++)
		c[i] = hot();
	switch (kind) {
	case 1: /* sorted, hottest first, as quantize leaves them */
		qsort(c, n, sizeof(double), cmp_desc);
		break;
	case 2: /* empty groups: zeros */
		c[next() % n] = 0;
		c[next() % n] = 0;
		break;
	case 3: /* two equal */
		c[next() % n] = c[next() % n];
		break;
	case 4: /* two a few ulps apart: no cut */
		c[1 % n] = nextafter(nextafter(c[0], 1), 1);
		break;
	case 5: /* all equal */
		for (unsigned i = 1; i < n; i++)
			c[i] = c[0];
		break;
	}
}

/* Hotness values, with the points where rounding decides: each centre,
 * the midpoints and thresholds between all pairs and one ulp around. */
static uint32_t values(double *h, uint32_t cap, const double *c, unsigned n, int wild)
{
	uint32_t k = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++) {
			double a = c[i] > c[j] ? c[i] : c[j], b = c[i] > c[j] ? c[j] : c[i];
			double m[] = {a, b, b + (a - b) / 2, a > b ? split(a, b, 0) : a, a > b ? split(a, b, 1) : a};
			for (unsigned q = 0; q < sizeof(m) / sizeof(m[0]) && k + 3 <= cap; q++) {
				h[k++] = m[q];
				h[k++] = nextafter(m[q], 0);
				h[k++] = nextafter(m[q], 1);
			}
		}
	while (k < cap)
		h[k++] = hot();
	if (wild) {
		h[next() % cap] = 1e12;
		h[next() % cap] = 0;
		if (wild > 1)
			h[next() % cap] = HUGE_VAL;
		if (wild > 2)
			h[next() % cap] = NAN;
	}
	return k;
}

static int close_to(double a, double b) { return a == b || fabs(a - b) <= 1e-12 * fabs(b) || (a != a && b != b); }

static void test_rounds(void)
{
	static double h[4000];
	unsigned bad_cnt = 0, bad_sum = 0, runs = 0;
	for (int t = 0; t < 3000; t++) {
		unsigned n = 2 + (unsigned)(next() % 9); /* 2..10: the cut and, past 8, the scan */
		double c[16], sum[16], rsum[16];
		uint64_t cnt[16], rcnt[16];
		centres(c, n, (int)(next() % 6));
		uint32_t nh = (uint32_t)(next() % 4) == 0 ? (uint32_t)(next() % 5) : 500 + (uint32_t)(next() % 3500);
		nh = values(h, nh, c, n, nh > 10 ? (int)(next() % 4) : 0);
		kmeans_round(c, n, h, nh, maxh(h, nh), sum, cnt);
		reference(c, n, h, nh, rsum, rcnt);
		for (unsigned i = 0; i < n; i++) {
			bad_cnt += cnt[i] != rcnt[i];
			bad_sum += !close_to(sum[i], rsum[i]);
		}
		runs++;
	}
	CHECK(bad_cnt == 0, "a k-means round's groups are the scan's in %u rounds (%u counts differ)", runs, bad_cnt);
	CHECK(bad_sum == 0, "and its sums within 1e-12 of the scan's (%u differ)", bad_sum);
}

static void test_nearest(void)
{
	static double h[2000];
	unsigned bad = 0, cut = 0, total = 0;
	for (int t = 0; t < 2000; t++) {
		struct sfs p = {.n = 2 + (unsigned)(next() % 12)};
		centres(p.center, p.n, (int)(next() % 6));
		qsort(p.center, p.n, sizeof(double), cmp_desc); /* as quantize leaves them */
		prepare(&p);
		cut += p.lim > 0;
		uint32_t nh = values(h, 2000, p.center, p.n, 3);
		for (uint32_t k = 0; k < nh; k++, total++)
			bad += nearest(&p, h[k]) != nearest_scan(&p, h[k]);
	}
	CHECK(bad == 0, "the nearest centre by the cut is the scan's for %u values (%u differ)", total, bad);
	CHECK(cut > 1000, "the cut applies to most centre sets (%u of 2000)", cut);
}

int main(void)
{
	test_rounds();
	test_nearest();
	return TH_DONE();
}
