/*
 * wamath.c - write-amplification closed forms and mean-field models
 * (see wamath.h for the definitions and docs/WAMODEL.md for the
 * derivations). Pure functions of their arguments: no state, no I/O.
 */
#include "wamath.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INV_E 0.36787944117144232160

static int sf_ok(double sf)
{
	return sf > 0 && sf < 1;
}

double wa_op_from_sf(double sf)
{
	return sf / (1 - sf);
}

double wa_sf_from_op(double op)
{
	return op / (1 + op);
}

/* A start close enough that Halley's cubic convergence needs a few
 * steps everywhere: the branch-point series near -1/e (where W has a
 * square-root singularity and a Taylor start would be poor), log1p in
 * the middle, the asymptotic L1 - L2 + L2/L1 for large z. */
static double w0_start(double z)
{
	if (z < -0.25) {
		double p = sqrt(2 * (M_E * z + 1));
		return -1 + p * (1 + p * (-1.0 / 3 + p * 11.0 / 72));
	}
	if (z < 3)
		return log1p(z) * (1 - log1p(log1p(z)) / (2 + log1p(z)));
	double l1 = log(z), l2 = log(l1);
	return l1 - l2 + l2 / l1;
}

double wa_lambert_w0(double z)
{
	if (isnan(z) || z < -INV_E)
		return NAN;
	if (z == 0)
		return 0;
	if (z == -INV_E)
		return -1;
	double w = w0_start(z);
	for (int i = 0; i < 100; i++) {
		double ew = exp(w), f = w * ew - z, wp1 = w + 1;
		if (wp1 == 0)
			break;
		double dw = f / (ew * wp1 - (w + 2) * f / (2 * wp1));
		w -= dw;
		if (fabs(dw) <= 4e-16 * (1 + fabs(w)))
			break;
	}
	return w;
}

/* h(d) = -ln(1-d)/d - 1 = d/2 + d^2/3 + d^3/4 + ..., and h'(d), without
 * the cancellation of the closed form at small d (the series there). */
static double fifo_h(double d, double *dh)
{
	if (d < 0.05) {
		double h = 0, der = 0, p = 1; /* p = d^(k-1) */
		for (int k = 1; k <= 16; k++) {
			der += k * p / (k + 1);
			p *= d;
			h += p / (k + 1);
		}
		*dh = der;
		return h;
	}
	double h1 = -log1p(-d) / d; /* h + 1 */
	*dh = (1 / (1 - d) - h1) / d;
	return h1 - 1;
}

/* Desnoyers eq. 4. The other root of w e^w = -alpha e^-alpha, w =
 * -alpha, is on the W_-1 branch (alpha > 1) and is the trivial a = 1.
 * Near Sf = 0 the argument nears -1/e and alpha + W0 cancels (about 1e-16
 * / Sf relative: 0.5% at Sf = 1e-7, a factor of 10 at 1e-9): where the
 * victims are more than half valid, Newton steps polish d = 1 - a = 1/WA
 * on a = exp(-alpha(1-a)) written as h(d) = OP, which holds its precision
 * at any Sf (h is increasing and convex: the steps converge from either
 * side). */
double wa_fifo(double sf)
{
	if (!sf_ok(sf))
		return NAN;
	double alpha = 1 / (1 - sf), op = sf / (1 - sf);
	double d = (alpha + wa_lambert_w0(-alpha * exp(-alpha))) / alpha;
	if (d >= 0.5)
		return 1 / d;
	if (!(d > 0))
		d = 2 * op < 0.5 ? 2 * op : 0.5;
	for (int i = 0; i < 50; i++) {
		double dh, h = fifo_h(d, &dh), next = d - (h - op) / dh;
		if (!(next > 0))
			next = d / 2;
		if (fabs(next - d) <= 1e-16 * d) {
			d = next;
			break;
		}
		d = next;
	}
	return 1 / d;
}

double wa_fifo_victim_valid(double sf)
{
	return sf_ok(sf) ? 1 - 1 / wa_fifo(sf) : NAN;
}

double wa_greedy_approx(double sf, unsigned b)
{
	if (!sf_ok(sf) || b == 0)
		return NAN;
	double k = 1 + 1 / (2.0 * b), alpha = 1 / (1 - sf);
	/* wa_fifo takes Sf; k alpha as an alpha is Sf' = 1 - 1/(k alpha).
	 * An approximation for large b: at small b and large Sf (b = 1, 2,
	 * 3 at Sf .5) it falls below 1, which no cleaner can; not given
	 * there (NaN: the mean field is exact at any b). */
	double wa = wa_fifo(1 - 1 / (k * alpha)) / k;
	return wa >= 1 ? wa : NAN;
}

/*
 * Greedy, mean field. With x_j the fraction of segments holding j
 * valid pages, a page dies at rate 1/U per host write, so segments
 * flow j -> j-1 at rate j x_j / (rho b) (per host write, times the
 * segment count), and new segments enter full at rate 1/(b - v), v the
 * mean valid pages of a victim. Above the cleaning level k the flow is
 * the same at every j: x_j = A/j with A = rho b/(b - v) = rho WA. At
 * level k a fraction y <= A/k waits to be cleaned; a segment that
 * decays to k-1 first is cleaned at once (Bux & Iliadis' two
 * consecutive victim counts). Mass and page conservation,
 *     A (H_b - H_k) + y = 1,    A (b - k) + k y = rho b,
 * give A = (rho b - k) / (b - k - k (H_b - H_k)); the level is the k
 * whose y lies in [0, A/k]. Below rho = 1/H_b empty segments never run
 * out and WA = 1.
 */
int wa_greedy_mf_level(double sf, unsigned b, struct wa_greedy_level *out)
{
	if (!sf_ok(sf) || b == 0)
		return -1;
	double rho = 1 - sf, tail = 0; /* tail = H_b - H_k, summed small terms first */
	for (unsigned k = b; k >= 1; k--) {
		double den = b - k - k * tail, A = (rho * b - k) / den;
		double y = 1 - A * tail, tol = 1e-12;
		if (den > 0 && A > 0 && y >= -tol && y <= A / k + tol) {
			double p = k * y / A; /* decayed to k-1 before cleaning */
			p = p < 0 ? 0 : p > 1 ? 1 : p;
			out->wa = A / rho;
			out->k = k;
			out->frac_km1 = p;
			out->victim_valid = k - p;
			return 0;
		}
		tail += 1.0 / k;
	}
	/* rho <= 1/H_b: tail is now H_b. */
	out->wa = 1;
	out->k = 0;
	out->frac_km1 = 0;
	out->victim_valid = 0;
	return 0;
}

double wa_greedy_mf(double sf, unsigned b)
{
	struct wa_greedy_level l;
	return wa_greedy_mf_level(sf, b, &l) ? NAN : l.wa;
}

/*
 * d-choices, mean field (Van Houdt 2013). F_j = the fraction of
 * segments with at least j valid pages; a victim has at least j iff
 * all d drawn do: F_j^d. Balancing the flow across the boundary
 * between j-1 and j (decay out, victims out, new full segments in):
 *     j (F_j - F_{j+1}) = A (1 - F_j^d),   A = rho WA,   F_{b+1} = 0.
 * For a given A this fixes F_b, F_{b-1}, ... downward, each the root
 * in [F_{j+1}, 1] of F - (A/j)(1 - F^d) = F_{j+1}; page conservation
 * sum_j F_j = rho b then fixes A (the sum grows with A: bisection).
 * Greedy is the limit d -> infinity: F_j = min(1, F_{j+1} + A/j).
 */
static double dchoices_step(double next, double c, unsigned d)
{
	if (d == 0)
		return fmin(1, next + c);
	/* phi(F) = F - c (1 - F^d) - next is increasing and convex on
	 * [0, 1]: Newton from F = 1 descends monotonically to the root. */
	double F = 1;
	for (int i = 0; i < 200; i++) {
		double Fd1 = pow(F, d - 1), phi = F - c * (1 - Fd1 * F) - next;
		double Fn = F - phi / (1 + c * d * Fd1);
		if (!(Fn < F))
			break;
		F = Fn;
	}
	return F;
}

static double dchoices_pages(double A, unsigned b, unsigned d)
{
	double F = 0, sum = 0;
	for (unsigned j = b; j >= 1; j--) {
		F = dchoices_step(F, A / j, d);
		sum += F;
	}
	return sum;
}

double wa_dchoices_mf(double sf, unsigned b, unsigned d)
{
	if (!sf_ok(sf) || b == 0)
		return NAN;
	double rho = 1 - sf, want = rho * b;
	/* WA >= 1 and, for d >= 1, WA <= 1/Sf (random): A in [rho, rho/sf]. */
	double lo = rho, hi = rho / sf * 1.001 + 1e-9;
	for (int i = 0; i < 60 && dchoices_pages(hi, b, d) < want; i++)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi)
			break;
		if (dchoices_pages(mid, b, d) < want)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi) / rho;
}

double wa_random(double sf)
{
	return sf_ok(sf) ? 1 / sf : NAN;
}

/* g(u) = 1 - u + rho ln u rises to its maximum at u = rho and falls
 * to the trivial root u = 1: the root we want is the one in (0, rho). */
double lfs_cleaned_util(double rho)
{
	if (!(rho > 0 && rho < 1))
		return NAN;
	double lo = 0, hi = rho;
	for (int i = 0; i < 2000; i++) {
		double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi)
			break;
		if (1 - mid + rho * log(mid) < 0)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double lfs_write_cost(double rho)
{
	double u = lfs_cleaned_util(rho);
	return isnan(u) ? NAN : u > 0 ? 2 / (1 - u) : 1;
}

/* 1/(1-x) is an integer for x = .5, .75, .8, .9 ... but not in binary
 * floating point (1/(1-0.8) = 5.000000000000001): round within a
 * relative 1e-9 before taking the ceiling. Any x in [0, 1) has its N (at
 * most 2^53 for a double below 1); 0 outside. */
unsigned long lfs_worst_case_n(double x)
{
	if (!(x >= 0 && x < 1))
		return 0;
	double n = 1 / (1 - x), r = round(n);
	return fabs(n - r) <= 1e-9 * r ? (unsigned long)r : (unsigned long)ceil(n);
}

double lfs_worst_case_wa(double x)
{
	return x >= 0 && x < 1 ? 1 / (1 - x) : NAN;
}

/* z / (1 - e^-z), 1 at z = 0: the pages a group writes into the log
 * per traversal, over its host writes, when a fraction e^-z of them
 * survives to be copied again. */
static double phi_copies(double z)
{
	return z < 1e-12 ? 1 + z / 2 : z / -expm1(-z);
}

static int hc_ok(double r, double f)
{
	return r > 0 && r < 1 && f > 0 && f < 1;
}

/*
 * One FIFO log, hot and cold mixed (Desnoyers' LRU model with two
 * classes). Per traversal of the log (T page slots) the host writes
 * tau U pages; a hot page survives it with probability e^(-r tau/f),
 * a cold one e^(-(1-r) tau/(1-f)); each class fills its share of the
 * slots with host writes plus survivors copied from the tail:
 *     f phi(r tau/f) + (1-f) phi((1-r) tau/(1-f)) = alpha,
 * and WA = alpha / tau. The left side grows from 1 (tau = 0) and is
 * >= tau, so the root lies in (0, alpha].
 */
double wa_hc_mixed_fifo(double sf, double r, double f)
{
	if (!sf_ok(sf) || !hc_ok(r, f))
		return NAN;
	double alpha = 1 / (1 - sf), lo = 0, hi = alpha;
	for (int i = 0; i < 200; i++) {
		double tau = 0.5 * (lo + hi);
		if (tau <= lo || tau >= hi)
			break;
		double s = f * phi_copies(r * tau / f) + (1 - f) * phi_copies((1 - r) * tau / (1 - f));
		if (s < alpha)
			lo = tau;
		else
			hi = tau;
	}
	return alpha / (0.5 * (lo + hi));
}

struct hc_split {
	double sf, r, f;
	enum wa_pool_model m;
	unsigned b;
};

static double pool_wa(const struct hc_split *h, double pool_sf)
{
	return h->m == WA_POOL_FIFO ? wa_fifo(pool_sf) : wa_greedy_mf(pool_sf, h->b);
}

/* The total WA when the hot pool gets share s of the spare pages:
 * pool alpha = 1 + s (alpha-1)/f, so pool Sf = 1 - 1/pool alpha. */
static double split_wa(const struct hc_split *h, double s, double *wh, double *wc)
{
	double op = wa_op_from_sf(h->sf);
	double op_h = s * op / h->f, op_c = (1 - s) * op / (1 - h->f);
	*wh = pool_wa(h, wa_sf_from_op(op_h));
	*wc = pool_wa(h, wa_sf_from_op(op_c));
	return h->r * *wh + (1 - h->r) * *wc;
}

/*
 * The total is convex in s for FIFO pools (WA_FIFO is convex and
 * decreasing in alpha) and nearly so for greedy pools, whose WA has
 * kinks where the cleaning level changes. A grid finds the basin,
 * golden-section search refines it.
 */
int wa_hc_separated(double sf, double r, double f, enum wa_pool_model m, unsigned b,
		    struct wa_split *out)
{
	if (!sf_ok(sf) || !hc_ok(r, f) || (m == WA_POOL_GREEDY_MF && b == 0))
		return -1;
	struct hc_split h = {sf, r, f, m, b};
	enum { GRID = 200 };
	double best = INFINITY, wh, wc;
	int ib = 1;
	for (int i = 1; i < GRID; i++) {
		double w = split_wa(&h, (double)i / GRID, &wh, &wc);
		if (w < best) {
			best = w;
			ib = i;
		}
	}
	double a = (ib - 1.0) / GRID, c = (ib + 1.0) / GRID, g = (sqrt(5) - 1) / 2;
	a = a > 0 ? a : 1e-9;
	c = c < 1 ? c : 1 - 1e-9;
	double x1 = c - g * (c - a), x2 = a + g * (c - a);
	double f1 = split_wa(&h, x1, &wh, &wc), f2 = split_wa(&h, x2, &wh, &wc);
	for (int i = 0; i < 200 && c - a > 1e-13; i++) {
		if (f1 <= f2) {
			c = x2, x2 = x1, f2 = f1;
			x1 = c - g * (c - a);
			f1 = split_wa(&h, x1, &wh, &wc);
		} else {
			a = x1, x1 = x2, f1 = f2;
			x2 = a + g * (c - a);
			f2 = split_wa(&h, x2, &wh, &wc);
		}
	}
	out->hot_spare = 0.5 * (a + c);
	out->wa = split_wa(&h, out->hot_spare, &out->wa_hot, &out->wa_cold);
	return 0;
}

/*
 * Greedy, hot and cold mixed in one write frontier, mean field. A
 * segment's state is (h, c), its valid hot and cold pages; each hot
 * page dies at rate mu_h = r/(f rho b), each cold one at mu_c =
 * (1-r)/((1-f) rho b) (per host write, times the segment count). As in
 * Van Houdt's model the victim is erased, its valid pages are written
 * back into it and the rest is filled with host writes, hot with
 * probability r: a victim (hv, cv) re-enters full with hv + Binomial(
 * b - hv - cv, r) hot pages. Greedy cleans at one level k of h + c, at
 * rate theta per segment there (ties broken at random, whatever the
 * mix), and at once at k-1. For a given entry mix the steady state
 * follows level by level from h + c = b down; the level (k, theta) is
 * where mass and page conservation agree, M = b - v (entry rate 1, v
 * the victims' mean valid pages). The victims give the next entry mix;
 * that fixed point is found by Anderson-accelerated iteration (the
 * plain iteration converges, but with a rate near 0.96 per step).
 */
struct hcg {
	unsigned b;
	double mu_h, mu_c, r;
	double t;      /* the last level found, k - 1 + theta/(1 + theta) */
	double *x;     /* (b+1)^2 states */
	double *vict;  /* (b+1)^2 victim flow */
	double *entry; /* b+1: entering segments by hot pages */
};

#define HC_IX(b, h, c) ((size_t)(h) * ((b) + 1) + (c))
#define AA_M 5 /* Anderson memory */

/* In-flow to (h, c) from the deaths in the level above. */
static double hcg_inflow(const struct hcg *g, unsigned h, unsigned c)
{
	unsigned b = g->b;
	if (h + c == b)
		return g->entry[h];
	return (h + 1) * g->mu_h * g->x[HC_IX(b, h + 1, c)] +
	       (c + 1) * g->mu_c * g->x[HC_IX(b, h, c + 1)];
}

/* The steady state for level (k, theta): returns the mass; the victim
 * flow goes to g->vict and their mean valid pages to *v. */
static double hcg_level(struct hcg *g, unsigned k, double theta, double *v)
{
	unsigned b = g->b;
	double mass = 0, vsum = 0, vtot = 0;
	for (unsigned s = b + 1; s-- > k;)
		for (unsigned h = 0; h <= s; h++) {
			unsigned c = s - h;
			double in = hcg_inflow(g, h, c), out = h * g->mu_h + c * g->mu_c, xv;
			if (s > k)
				xv = in / out;
			else
				xv = isinf(theta) ? 0 : in / (out + theta);
			g->x[HC_IX(b, h, c)] = xv;
			mass += xv;
		}
	for (unsigned s = k - 1; s <= k; s++)
		for (unsigned h = 0; h <= s; h++) {
			unsigned c = s - h;
			double q = s == k - 1 ? hcg_inflow(g, h, c)
			   : isinf(theta) ? hcg_inflow(g, h, c) : theta * g->x[HC_IX(b, h, c)];
			g->vict[HC_IX(b, h, c)] = q;
			vsum += q * s;
			vtot += q;
		}
	*v = vsum / vtot;
	return mass;
}

/* M - (b - v) along t = k - 1 + theta/(1 + theta) in (0, b]: it falls
 * as t rises (cleaning earlier: less mass, fuller victims). */
static double hcg_gap(struct hcg *g, double t, unsigned *k, double *v)
{
	*k = t <= 1 ? 1 : (unsigned)ceil(t);
	double phi = t - (*k - 1);
	double theta = phi >= 1 ? INFINITY : phi / (1 - phi);
	return hcg_level(g, *k, theta, v) - (g->b - *v);
}

/* Solve for the level by Illinois regula falsi; returns 0 if no
 * cleaning level exists (empty segments never run out: WA = 1). The
 * level moves little from one round to the next: start from a narrow
 * bracket around the last one, widened when it does not hold the root. */
static int hcg_solve_level(struct hcg *g, unsigned *k, double *v)
{
	double lo = 1e-12, a = lo, c = g->b, fa, fc;
	if (g->t > 0) {
		a = fmax(lo, g->t - 0.02);
		c = fmin(g->b, g->t + 0.02);
	}
	fa = hcg_gap(g, a, k, v);
	if (fa <= 0 && a > lo)
		fa = hcg_gap(g, a = lo, k, v);
	if (fa <= 0)
		return 0;
	fc = hcg_gap(g, c, k, v);
	if (fc > 0 && c < g->b)
		fc = hcg_gap(g, c = g->b, k, v);
	int side = 0;
	for (int i = 0; i < 200 && c - a > 1e-14 * g->b; i++) {
		double t = (a * fc - c * fa) / (fc - fa);
		if (!(t > a && t < c))
			t = 0.5 * (a + c);
		double ft = hcg_gap(g, t, k, v);
		if (ft > 0) {
			a = t, fa = ft;
			if (side == 1)
				fc /= 2;
			side = 1;
		} else {
			c = t, fc = ft;
			if (side == -1)
				fa /= 2;
			side = -1;
		}
		if (ft == 0)
			break;
	}
	g->t = 0.5 * (a + c);
	hcg_gap(g, g->t, k, v);
	return 1;
}

/* Binomial(n, r) probabilities into p[0..n], by the ratio recurrence
 * out from the mode, then normalized: starting from (1-r)^n instead
 * would underflow to zero for large n. */
static void binom_pmf(unsigned n, double r, double *p)
{
	unsigned m = (unsigned)floor((n + 1) * r);
	double sum = 0;
	if (m > n)
		m = n;
	p[m] = 1;
	for (unsigned i = m + 1; i <= n; i++)
		p[i] = p[i - 1] * (n - i + 1) / i * r / (1 - r);
	for (unsigned i = m; i-- > 0;)
		p[i] = p[i + 1] * (i + 1) / (n - i) * (1 - r) / r;
	for (unsigned i = 0; i <= n; i++)
		sum += p[i];
	for (unsigned i = 0; i <= n; i++)
		p[i] /= sum;
}

/* The entry mix the victim flow produces: hv + Binomial(b - v, r).
 * pmf is scratch space of b+1 entries. */
static void hcg_entry_from(const struct hcg *g, unsigned k, double *out, double *pmf)
{
	unsigned b = g->b;
	double tot = 0;
	memset(out, 0, (b + 1) * sizeof(*out));
	for (unsigned s = k - 1; s <= k; s++) {
		unsigned n = b - s;
		binom_pmf(n, g->r, pmf);
		for (unsigned hv = 0; hv <= s; hv++) {
			double q = g->vict[HC_IX(b, hv, s - hv)];
			for (unsigned i = 0; i <= n; i++)
				out[hv + i] += q * pmf[i];
			tot += q;
		}
	}
	for (unsigned h = 0; h <= b; h++)
		out[h] /= tot;
}

/* Solve the m x m system a y = rhs in place (partial pivoting). */
static int small_solve(double a[AA_M][AA_M], double *y, int m)
{
	for (int i = 0; i < m; i++) {
		int p = i;
		for (int j = i + 1; j < m; j++)
			if (fabs(a[j][i]) > fabs(a[p][i]))
				p = j;
		if (a[p][i] == 0)
			return -1;
		for (int j = 0; j < m; j++) {
			double t = a[i][j];
			a[i][j] = a[p][j], a[p][j] = t;
		}
		double t = y[i];
		y[i] = y[p], y[p] = t;
		for (int j = i + 1; j < m; j++) {
			double l = a[j][i] / a[i][i];
			for (int q = i; q < m; q++)
				a[j][q] -= l * a[i][q];
			y[j] -= l * y[i];
		}
	}
	for (int i = m - 1; i >= 0; i--) {
		for (int j = i + 1; j < m; j++)
			y[i] -= a[i][j] * y[j];
		y[i] /= a[i][i];
	}
	return 0;
}

/*
 * Anderson acceleration of x <- G(x) (Walker & Ni 2011): the next x is
 * the mix of the last AA_M images whose residuals cancel best. dF and
 * dG hold differences of residuals and images, newest last. A mix of
 * probability vectors may dip below zero: clip and renormalize.
 */
static void anderson(double *x, const double *gx, double *f, double *dF, double *dG, int m,
		     size_t n)
{
	double a[AA_M][AA_M], y[AA_M], tot = 0;
	for (int i = 0; i < m; i++) {
		y[i] = 0;
		for (size_t q = 0; q < n; q++)
			y[i] += dF[i * n + q] * f[q];
		for (int j = 0; j < m; j++) {
			a[i][j] = 0;
			for (size_t q = 0; q < n; q++)
				a[i][j] += dF[i * n + q] * dF[j * n + q];
		}
		a[i][i] *= 1 + 1e-10;
	}
	int ok = m > 0 && !small_solve(a, y, m);
	for (size_t q = 0; q < n; q++) {
		double v = gx[q];
		for (int i = 0; ok && i < m; i++)
			v -= y[i] * dG[i * n + q];
		x[q] = v > 0 ? v : 0;
		tot += x[q];
	}
	for (size_t q = 0; q < n; q++)
		x[q] /= tot;
}

struct aa {
	double *gx, *f, *fprev, *gprev, *dF, *dG, *pmf;
	int m;
};

static double hcg_iterate(struct hcg *g, struct aa *s)
{
	size_t n = g->b + 1;
	double wa = 1, prev = 0, v;
	unsigned k;
	int still = 0;
	for (int it = 0; it < 1000; it++) {
		if (!hcg_solve_level(g, &k, &v))
			return 1;
		wa = g->b / (g->b - v);
		/* Rounding keeps the residual of a large state space above any
		 * fixed bound: also stop once WA has settled for good. */
		still = fabs(wa - prev) < 1e-13 * wa ? still + 1 : 0;
		prev = wa;
		if (still == 5)
			break;
		hcg_entry_from(g, k, s->gx, s->pmf);
		double res = 0;
		for (size_t q = 0; q < n; q++) {
			s->f[q] = s->gx[q] - g->entry[q];
			res += fabs(s->f[q]);
		}
		if (res < 1e-14)
			break;
		if (it > 0) { /* push the newest differences, dropping the oldest */
			if (s->m == AA_M) {
				memmove(s->dF, s->dF + n, (AA_M - 1) * n * sizeof(double));
				memmove(s->dG, s->dG + n, (AA_M - 1) * n * sizeof(double));
				s->m--;
			}
			for (size_t q = 0; q < n; q++) {
				s->dF[s->m * n + q] = s->f[q] - s->fprev[q];
				s->dG[s->m * n + q] = s->gx[q] - s->gprev[q];
			}
			s->m++;
		}
		memcpy(s->fprev, s->f, n * sizeof(double));
		memcpy(s->gprev, s->gx, n * sizeof(double));
		anderson(g->entry, s->gx, s->f, s->dF, s->dG, s->m, n);
	}
	return wa;
}

double wa_hc_mixed_greedy_mf(double sf, double r, double f, unsigned b)
{
	if (!sf_ok(sf) || !hc_ok(r, f) || b == 0 || b > 4096)
		return NAN;
	double rho = 1 - sf, wa = NAN;
	size_t n = (size_t)(b + 1) * (b + 1);
	struct hcg g = {b, r / (f * rho * b), (1 - r) / ((1 - f) * rho * b), r, -1,
			calloc(n, sizeof(double)), calloc(n, sizeof(double)),
			calloc(b + 1, sizeof(double))};
	struct aa s = {calloc(b + 1, sizeof(double)), calloc(b + 1, sizeof(double)),
		       calloc(b + 1, sizeof(double)), calloc(b + 1, sizeof(double)),
		       calloc(AA_M * (b + 1), sizeof(double)), calloc(AA_M * (b + 1), sizeof(double)),
		       calloc(b + 1, sizeof(double)), 0};
	if (g.x && g.vict && g.entry && s.gx && s.f && s.fprev && s.gprev && s.dF && s.dG &&
	    s.pmf) {
		binom_pmf(b, r, g.entry); /* start: segments of host writes only */
		wa = hcg_iterate(&g, &s);
	} else {
		errno = ENOMEM; /* NaN for want of memory, not of a value */
	}
	free(g.x);
	free(g.vict);
	free(g.entry);
	free(s.gx);
	free(s.f);
	free(s.fprev);
	free(s.gprev);
	free(s.dF);
	free(s.dG);
	free(s.pmf);
	return wa;
}
