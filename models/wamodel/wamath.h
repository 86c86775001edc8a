/*
 * wamath.h - closed forms and mean-field models of write amplification
 * under uniform random single-page writes (and a hot/cold mix), the
 * predictions bin/wamodel prints and the tests hold ftlsim against.
 *
 * Definitions (the reference page's, used by every function here):
 *   U logical pages, T physical pages, b pages per segment;
 *   spare factor Sf = (T-U)/T, OP = (T-U)/U = Sf/(1-Sf),
 *   utilization rho = U/T = 1-Sf, Desnoyers' alpha = T/U = 1+OP;
 *   WA = (host page writes + GC page copies) / host page writes;
 *   LFS write cost = 2/(1-u) for a cleaned segment of live fraction u.
 * Every WA function takes the spare factor. A value outside a
 * function's domain gives NAN (the caller checks arguments first and
 * reports; a library function does not print).
 *
 * Sources: Desnoyers, "Analytic modeling of SSD write performance",
 * SYSTOR 2012 (FIFO/LRU eq. 4, greedy eq. 12, hot/cold); Van Houdt, "A
 * mean field model for a class of garbage collection algorithms in
 * flash-based solid state drives", SIGMETRICS 2013 (d-choices, greedy
 * as d -> infinity); Bux & Iliadis, "Performance of greedy garbage
 * collection in flash-based solid-state drives", Perf. Eval. 2010;
 * Rosenblum & Ousterhout, "The design and implementation of a
 * log-structured file system", SOSP 1991 / TOCS 1992, section 3.5.
 * docs/WAMODEL.md derives each formula.
 */
#ifndef FTLKIT_WAMATH_H
#define FTLKIT_WAMATH_H

/* Parameter conversions. */
double wa_op_from_sf(double sf);
double wa_sf_from_op(double op);

/* Principal branch W0 of Lambert's W (w e^w = z), z >= -1/e. */
double wa_lambert_w0(double z);

/* FIFO/LRU cleaning (Desnoyers eq. 4): alpha/(alpha + W0(-alpha e^-alpha)). */
double wa_fifo(double sf);
/* Its victims' valid fraction a, the root in (0,1) of a = exp(-alpha(1-a)). */
double wa_fifo_victim_valid(double sf);

/* Greedy, Desnoyers eq. 12: WA_FIFO(k alpha)/k, k = 1 + 1/(2b). */
double wa_greedy_approx(double sf, unsigned b);

/* Greedy, mean field (N segments -> infinity): the closed form of the
 * fixed point, with its cleaning level. */
struct wa_greedy_level {
	double wa;
	unsigned k;	 /* victims hold k or k-1 valid pages */
	double frac_km1; /* the fraction of victims holding k-1 */
	double victim_valid; /* mean valid pages of a victim */
};
double wa_greedy_mf(double sf, unsigned b);
int wa_greedy_mf_level(double sf, unsigned b, struct wa_greedy_level *out);

/* d-choices (the fewest valid pages of d segments drawn at random),
 * mean field; d = 1 is random, d = 0 means d -> infinity (greedy). */
double wa_dchoices_mf(double sf, unsigned b, unsigned d);

/* Random victim: 1/Sf exactly. */
double wa_random(double sf);

/* LFS greedy, uniform, b large: the live fraction u* of cleaned
 * segments, rho = (1-u*)/ln(1/u*), and the write cost 2/(1-u*). */
double lfs_cleaned_util(double rho);
double lfs_write_cost(double rho);

/* The no-variance worst case: every segment at utilization x; one free
 * segment needs ceil(1/(1-x)) segments cleaned; WA = 1/(1-x). */
unsigned long lfs_worst_case_n(double x);
double lfs_worst_case_wa(double x);

/*
 * Hot/cold traffic: a fraction r of the writes goes to a fraction f of
 * the pages, uniform inside each group (0 < f < 1, 0 < r < 1).
 */
/* One write frontier for both, FIFO/LRU cleaning (Desnoyers). */
double wa_hc_mixed_fifo(double sf, double r, double f);

/* One write frontier, greedy cleaning, mean field (exact as the
 * segment count grows, for greedy that breaks ties between segments of
 * equal valid count at random; b <= 4096). NaN with errno ENOMEM when its
 * work arrays cannot be allocated. */
double wa_hc_mixed_greedy_mf(double sf, double r, double f, unsigned b);

/* Two pools, hot and cold, each cleaned on its own; the spare space is
 * split between them to minimize the total WA. */
enum wa_pool_model {
	WA_POOL_FIFO,	   /* each pool by wa_fifo */
	WA_POOL_GREEDY_MF, /* each pool by wa_greedy_mf with b */
};
struct wa_split {
	double wa;	  /* r WA_hot + (1-r) WA_cold at the optimum */
	double hot_spare; /* the hot pool's share of the spare pages */
	double wa_hot, wa_cold;
};
int wa_hc_separated(double sf, double r, double f, enum wa_pool_model m, unsigned b,
		    struct wa_split *out);

#endif
