/*
 * place_midas.c - MiDAS (Oh, Kim, Han, Kim, Lee, Noh: "MiDAS: Minimizing
 * Write Amplification in Log-Structured Systems through Adaptive Group
 * Number and Size Configuration", FAST'24).
 *
 * Segments are kept in groups. Host writes go to the hot group 0 or to
 * group 1; a GC copy goes one group further than the victim's group
 * (the last group's copies stay in it), so data that survives cleaning
 * migrates towards the last group. Groups 0 .. F-1 are FIFO queues with
 * a size each: GC cleans the oldest segment of the first of them that
 * holds more sealed segments than its size; when none does, it cleans
 * the segments of the other groups (F .. k-1, one pool) greedily, the
 * fewest valid pages first. The placement chooses every victim itself
 * (PLACE_VICTIM, place.h's victim hook); --policy is not consulted.
 * The choice is not a class selector's (select.h: a stream, then the
 * victim policy among its segments): the pool spans several streams
 * and is cleaned greedily across them while each FIFO group is cleaned
 * in its own order, and segments move from a group to the pool as
 * configurations are applied.
 *
 * Update-interval distribution (UID): on one logical page in R (R = 100,
 * but at least 8192 pages sampled, or all of a smaller space: a few
 * pages would miss the hottest ones; which pages, by an offset drawn
 * from the placement's generator), the interval between each host
 * write and the page's next write or trim within the same epoch of W U
 * host writes (W = 4) is counted in bins of b/4 writes (wider when that
 * makes more than 2^15 bins), apart for versions written to the hot
 * group (class 1) and to group 1 (class 0). At the epoch's end each
 * count is scaled by E / (E - t) (an interval t is seen only when it
 * starts in the first E - t writes of the epoch E; at most 8x): F_c(t),
 * the fraction of class c's versions dead by age t, S_c = 1 - F_c.
 *
 * Markov-chain model (MCAM) of a configuration (hot group size H, FIFO
 * sizes S_1 .. S_{k-2}, the pool the segments left): the epoch's hot
 * share h of the host writes fills the hot group, which keeps a page
 * T0 = (H+1) b / h host writes: its victims' valid ratio is S_1(T0).
 * Group 1 takes two flows, the other host writes (rate 1-h, class 0,
 * age 0) and the hot survivors (rate h S_1(T0), class 1, age T0). A
 * FIFO group i with inflow lambda_i (the flows' rates) keeps a page
 * T_i = (S_i+1) b / lambda_i host writes; each flow of age a leaves it
 * with its rate times S(a + T_i) / S(a), and adds rate times the
 * survival's integral from a to a + T_i, over S(a), to the group's
 * valid pages; the victims' valid ratio is the outflow over the
 * inflow. The pool holds the valid pages the groups do not; its WA is
 * greedy's (Desnoyers' hot/cold FIFO model at k alpha, divided by k =
 * 1 + 1/(2b), as the authors' simulator), its hot and cold shares from
 * class 0's intervals beyond the age at which they reach it (hot: below
 * 0.7 of their mean). WA = h + sum lambda_i + lambda_pool WA_pool. A
 * configuration that keeps the hot group's pages, or group 1's pages
 * through the FIFO groups, past the epoch's length is refused (the
 * epoch says nothing about those ages), as in the authors' simulator.
 *
 * Group configuration search (GCS), at each epoch's end: the hot size
 * with the pool alone, then one FIFO group at a time inserted before
 * the pool (sizes on a grid: 1..50, then steps of 2%), each time the
 * size that minimizes the model's WA, up to N groups; the best group
 * count, refined by two rounds that rescan each size with the others
 * fixed. The configuration is applied when its WA is below the WA
 * measured over the epoch; FIFO groups kept keep their segments (their
 * oldest beyond the new size join the pool), the others join the pool.
 *
 * Before the first configuration (and while none beats the measured
 * WA) the groups 0..4 migrate as above with all segments in the pool
 * (F = 0), the authors' starting mode. After a configuration is
 * applied, 0.3 epochs of victims are compared with the prediction: the
 * first FIFO group past the hot one whose victims hold 0.1 more valid
 * pages than predicted, and all after it, join the pool (the paper's
 * irregular-pattern handling). A GC pass needing 25 victims (at one
 * host write) without a free segment gained moves the last FIFO group
 * into the pool.
 *
 * Epoch doubling (the authors' simulator): a model error is a FIFO
 * group merged by that check, or the last FIFO group merged by the
 * endless-GC guard when the last victim's copies went to a group, in
 * the first half of the configuration's groups (index <= k/2). At an
 * epoch's end the epochs with errors are counted running: an applied
 * configuration adds one when the epoch had errors and ends the run
 * when it had none; a configuration not applied adds one when it had
 * errors. An applied configuration with a run of 2 or more doubles the
 * epoch first (up to 64 U; never back): the bins double too while they
 * stay within 2^15 (a reallocation, once a doubling), else they widen.
 * D = 0 keeps the epoch.
 *
 * Hot filter: a 2-bit counter a logical page. A host overwrite of a
 * page whose old version is in the hot group adds 1; in group 1, adds 1
 * if that segment was sealed at most the hot age ago (or is open),
 * else takes 1; a GC copy out of group 0 takes 2, out of group 1 takes
 * 1. Counter 3 is hot. The hot age starts at U host writes and follows
 * the mean age (host writes since its seal) of the hot group's victims
 * while that group is a FIFO (in the starting mode greedy cleans its
 * segments as soon as they are empty, whatever their data's age): after
 * each window of hot-age host writes, the mean of the two (1.5x the old
 * one when the victims' mean is twice it or more).
 *
 * Memory: 2 bits a logical page, 8 bytes a sampled page (8/R a page),
 * 10 bytes a segment, 48 bytes a UID bin (at most 2^15 bins, more after
 * the epoch doubles).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place.h"
#include "wamath.h"

#define MIDAS_MAXG 16
#define MIDAS_START 5	   /* groups of the starting mode */
#define MIDAS_BINS 32768u  /* UID bins at most */
#define MIDAS_MIN_SAMPLED 8192 /* pages sampled at least (all of a smaller space) */
#define MIDAS_ILOOP 25	   /* victims in a GC pass without a free segment gained: a FIFO group joins the pool */
#define MIDAS_ERR_WINDOW 0.3
#define MIDAS_ERR_MARGIN 0.1
#define MIDAS_ERR_VICTIMS 4 /* victims of a group before its valid ratio is judged */
#define MIDAS_ERR_RUN 2	    /* epochs running with model errors (the configuration applied): the epoch doubles */
#define MIDAS_EPOCH_MAX 64  /* the epoch doubles up to 64 U */
#define IN_POOL 0xfe
#define IN_NONE 0xff

struct midas {
	unsigned n;	   /* streams: groups at most */
	unsigned k, F;	   /* groups in use; 0..F-1 FIFO with a size, F..k-1 the pool */
	uint32_t size[MIDAS_MAXG];
	double pred[MIDAS_MAXG]; /* predicted valid ratio of each group's victims */
	uint32_t b, nseg;

	/* per segment: its group, the list it is in, the list links */
	uint8_t *label, *in;
	uint32_t *prev, *next;
	uint32_t head[MIDAS_MAXG], tail[MIDAS_MAXG], cnt[MIDAS_MAXG];
	uint32_t *bhead, *btail; /* the pool: b + 1 lists by valid count */
	uint32_t minv, pool_n;

	/* hot filter */
	uint8_t *hc;
	double hot_age, age_sum;
	uint64_t age_n, hot_win;

	/* UID */
	uint32_t R, off, nsamp;
	uint64_t *samp; /* per sampled page: epoch time of its last write (>= 1) << 1 | class, 0: none */
	uint32_t *deaths[2], nbins; /* versions written to group 1 (0) and to the hot group (1) */
	uint64_t unit, epoch_len, epoch_max, epoch_start, births[2];
	/* at an epoch's end, per class: F, the survival's integral; sum of t dF of class 0 */
	double *cf[2], *is[2], *p1;
	void *bins; /* one block: cf, is, p1, deaths */
	double hot; /* the hot share of the epoch's host writes */

	/* measured over the epoch, and after a configuration */
	uint64_t e_host, e_copies;
	unsigned D, kc;		/* D: the epoch may double; kc: groups of the configuration in force, 0 none */
	unsigned errs, err_run; /* model errors this epoch; epochs with errors running */
	uint64_t err_until;
	uint64_t ev[MIDAS_MAXG];
	double evs[MIDAS_MAXG];

	uint64_t run_clock;
	uint32_t run_free; /* the most free segments seen in this GC pass */
	unsigned run, vg;
	uint32_t overwrite;
};

/* Lists through prev/next. */
static void l_push(struct midas *p, uint32_t *h, uint32_t *t, uint32_t s)
{
	p->prev[s] = *t;
	p->next[s] = FTL_NONE;
	if (*t != FTL_NONE)
		p->next[*t] = s;
	else
		*h = s;
	*t = s;
}

static void l_unlink(struct midas *p, uint32_t *h, uint32_t *t, uint32_t s)
{
	if (p->prev[s] != FTL_NONE)
		p->next[p->prev[s]] = p->next[s];
	else
		*h = p->next[s];
	if (p->next[s] != FTL_NONE)
		p->prev[p->next[s]] = p->prev[s];
	else
		*t = p->prev[s];
}

static void pool_add(struct midas *p, const struct ftl *f, uint32_t s)
{
	uint32_t v = ftl_valid(f, s);
	l_push(p, &p->bhead[v], &p->btail[v], s);
	p->in[s] = IN_POOL;
	p->pool_n++;
	if (v < p->minv)
		p->minv = v;
}

static void fifo_add(struct midas *p, unsigned g, uint32_t s)
{
	l_push(p, &p->head[g], &p->tail[g], s);
	p->in[s] = (uint8_t)g;
	p->cnt[g]++;
}

/* Take s out of its list (valid: its valid count there). */
static void take(struct midas *p, uint32_t s, uint32_t valid)
{
	unsigned in = p->in[s];
	if (in == IN_POOL) {
		l_unlink(p, &p->bhead[valid], &p->btail[valid], s);
		p->pool_n--;
	} else if (in < MIDAS_MAXG) {
		l_unlink(p, &p->head[in], &p->tail[in], s);
		p->cnt[in]--;
	}
	p->in[s] = IN_NONE;
}

/* FIFO group g's segments join the pool, keeping their group or, with
 * label >= 0, in group label. */
static void fifo_to_pool(struct midas *p, const struct ftl *f, unsigned g, int label)
{
	while (p->head[g] != FTL_NONE) {
		uint32_t s = p->head[g];
		take(p, s, ftl_valid(f, s));
		if (label >= 0)
			p->label[s] = (uint8_t)label;
		pool_add(p, f, s);
	}
}

static unsigned seg_group(const struct ftl *f, const struct midas *p, uint32_t seg)
{
	if (ftl_state(f, seg) == SEG_SEALED)
		return p->label[seg];
	unsigned s = ftl_seg_stream(f, seg);
	return s < p->k ? s : p->k - 1;
}

static unsigned hc_get(const uint8_t *hc, uint32_t lpn) { return hc[lpn >> 2] >> ((lpn & 3) * 2) & 3; }

static void hc_set(uint8_t *hc, uint32_t lpn, unsigned v)
{
	unsigned sh = (lpn & 3) * 2;
	hc[lpn >> 2] = (uint8_t)((hc[lpn >> 2] & ~(3u << sh)) | v << sh);
}

/*
 * The model (MCAM) over the UID of the epoch just ended.
 */

static double uid_F(const struct midas *p, unsigned c, double t)
{
	const double *cf = p->cf[c];
	double x = t / (double)p->unit;
	if (x >= p->nbins)
		return cf[p->nbins];
	unsigned j = (unsigned)x;
	return cf[j] + (cf[j + 1] - cf[j]) * (x - j);
}

static double uid_S(const struct midas *p, unsigned c, double t) { return 1 - uid_F(p, c, t); }

/* The survival's integral from 0 to t. */
static double uid_IS(const struct midas *p, unsigned c, double t)
{
	const double *cf = p->cf[c];
	double x = t / (double)p->unit;
	if (x >= p->nbins)
		return p->is[c][p->nbins] + (t - (double)p->nbins * (double)p->unit) * (1 - cf[p->nbins]);
	unsigned j = (unsigned)x;
	double fr = x - j, ft = cf[j] + (cf[j + 1] - cf[j]) * fr;
	return p->is[c][j] + fr * (double)p->unit * (1 - (cf[j] + ft) / 2);
}

/* The hot share r and page share f of the group-1 versions older than
 * a: below 0.7 of their mean interval is hot. 0 when it says nothing. */
static int tail_hc(const struct midas *p, double a, double *r, double *fr)
{
	const double *cf = p->cf[0];
	double E = (double)p->epoch_len, u = (double)p->unit, send = 1 - cf[p->nbins];
	unsigned n = p->nbins, ja = a / u >= n ? n : (unsigned)(a / u);
	double reqs = cf[n] - cf[ja] + send;
	if (reqs <= 1e-12)
		return 0;
	double mean = (p->p1[n] - p->p1[ja] + send * E) / reqs, th = 0.7 * mean / u;
	unsigned jh = th >= n ? n : (unsigned)th;
	if (jh < ja)
		jh = ja;
	double pages = (p->p1[n] - p->p1[ja]) / E + send;
	*r = (cf[jh] - cf[ja]) / reqs;
	*fr = pages > 0 ? (p->p1[jh] - p->p1[ja]) / E / pages : 0;
	return *r > 0.001 && *r < 0.999 && *fr > 0.0001 && *r > *fr + 0.001;
}

/* Greedy's WA for a pool at spare factor sf: Desnoyers' FIFO model at k
 * alpha, over k (his eq. 12), hot/cold when the tail has a hot part. */
static double pool_wa(const struct midas *p, double sf, double a)
{
	double kk = 1 + 1 / (2.0 * p->b), alpha = 1 / (1 - sf), sf2 = 1 - 1 / (kk * alpha), r, fr;
	double w = tail_hc(p, a, &r, &fr) ? wa_hc_mixed_fifo(sf2, r, fr) : wa_fifo(sf2);
	return isnan(w) ? HUGE_VAL : w / kk;
}

struct cfg {
	unsigned k;
	uint32_t s[MIDAS_MAXG]; /* sealed-segment sizes of groups 0..k-2 */
	double vr[MIDAS_MAXG];
	double wa;
};

/* Segments the groups may hold, sealed and open: the rest is kept free
 * (the default low watermark) or open in streams not in use. */
static double capacity(const struct midas *p, unsigned k)
{
	return (double)p->nseg - (p->n - 1) - (p->n - k);
}

/* One flow of versions through the FIFO groups: its rate (versions a
 * host write), the class whose survival it follows, its age. */
struct flow {
	double rate, age;
	unsigned c;
};

static double evaluate(struct midas *p, double mapped, struct cfg *c)
{
	double used = 0;
	for (unsigned i = 0; i + 1 < c->k; i++)
		used += c->s[i] + 1.0;
	double pool = capacity(p, c->k) - used;
	if (pool < 1)
		return c->wa = HUGE_VAL;
	/* The hot group: a FIFO of the hot share h. */
	double h = p->hot, valid = 0, wa = h, v0 = 0, t0 = 0;
	if (h > 0) {
		t0 = (c->s[0] + 1.0) * p->b / h;
		if (t0 >= (double)p->epoch_len)
			return c->wa = HUGE_VAL;
		v0 = uid_S(p, 1, t0);
		valid = h * uid_IS(p, 1, t0);
	}
	c->vr[0] = v0;
	/* Group 1 takes the other host writes and the hot survivors. */
	struct flow fl[2] = {{1 - h, 0, 0}, {h * v0, t0, 1}};
	for (unsigned i = 1; i + 1 < c->k; i++) {
		double lam = fl[0].rate + fl[1].rate, out = 0;
		if (lam <= 0)
			break;
		double t = (c->s[i] + 1.0) * p->b / lam;
		if (fl[0].age + t >= (double)p->epoch_len) /* beyond what the epoch saw */
			return c->wa = HUGE_VAL;
		for (unsigned j = 0; j < 2; j++) {
			struct flow *x = &fl[j];
			double s0 = uid_S(p, x->c, x->age), e = x->age + t;
			if (x->rate <= 0 || s0 <= 1e-12) {
				x->rate = 0;
				continue;
			}
			valid += x->rate * (uid_IS(p, x->c, e) - uid_IS(p, x->c, x->age)) / s0;
			x->rate *= uid_S(p, x->c, e) / s0;
			x->age = e;
			out += x->rate;
		}
		wa += lam;
		c->vr[i] = out / lam;
	}
	double lam = fl[0].rate + fl[1].rate, data = mapped - valid;
	if (data < 1)
		data = 1;
	double sf = 1 - data / (pool * p->b);
	if (sf < 0.002)
		return c->wa = HUGE_VAL;
	double wl = lam > 0 ? pool_wa(p, sf, fl[0].age) : 1;
	c->vr[c->k - 1] = 1 - 1 / wl;
	return c->wa = wa + lam * wl;
}

static uint32_t grid_next(uint32_t j) { return j < 50 ? j + 1 : j + j / 50; }

/* Rescan size i of c (the pool takes the rest); keep the best in *best. */
static void scan(struct midas *p, double mapped, const struct cfg *c, unsigned i, struct cfg *best)
{
	struct cfg t = *c;
	double lim = capacity(p, c->k);
	for (uint32_t j = 1; j < lim; j = grid_next(j)) {
		t.s[i] = j;
		if (evaluate(p, mapped, &t) == HUGE_VAL && j > c->s[i])
			break;
		if (t.wa < best->wa)
			*best = t;
	}
}

/* GCS: the configuration of least modelled WA; best.wa HUGE_VAL if none. */
static struct cfg search(struct midas *p, const struct ftl *f)
{
	double mapped = (double)ftl_mapped(f);
	struct cfg best = {.k = 2, .wa = HUGE_VAL}, cur;
	scan(p, mapped, &best, 0, &best);
	if (best.wa == HUGE_VAL)
		return best;
	cur = best;
	for (unsigned k = 3; k <= p->n; k++) {
		struct cfg c = cur, kb = {.wa = HUGE_VAL};
		c.k = k;
		c.s[k - 2] = 0;
		scan(p, mapped, &c, k - 2, &kb);
		if (kb.wa == HUGE_VAL)
			break;
		cur = kb;
		if (kb.wa < best.wa)
			best = kb;
	}
	for (int round = 0; round < 2; round++)
		for (unsigned i = 0; i + 1 < best.k; i++) {
			struct cfg c = best;
			scan(p, mapped, &c, i, &best);
		}
	evaluate(p, mapped, &best); /* its valid ratios */
	return best;
}

/* Apply c: FIFO groups kept keep their segments (the oldest past the
 * new size join the pool); every other segment is the pool's, labelled
 * the last group. */
static void apply(struct midas *p, const struct ftl *f, const struct cfg *c)
{
	unsigned nf = c->k - 1, last = c->k - 1;
	for (uint32_t v = 0; v <= p->b; v++)
		for (uint32_t s = p->bhead[v]; s != FTL_NONE; s = p->next[s])
			p->label[s] = (uint8_t)last;
	for (unsigned g = 0; g < p->F; g++) {
		if (g >= nf) {
			fifo_to_pool(p, f, g, (int)last);
			continue;
		}
		while (p->cnt[g] > c->s[g]) {
			uint32_t s = p->head[g];
			take(p, s, ftl_valid(f, s));
			p->label[s] = (uint8_t)last;
			pool_add(p, f, s);
		}
	}
	p->k = c->k;
	p->F = nf;
	p->kc = c->k;
	for (unsigned g = 0; g < MIDAS_MAXG; g++) {
		p->size[g] = g < nf ? c->s[g] : 0;
		p->pred[g] = g < c->k ? c->vr[g] : 0;
		p->ev[g] = 0;
		p->evs[g] = 0;
	}
	p->err_until = ftl_now(f) + (uint64_t)(MIDAS_ERR_WINDOW * (double)p->epoch_len) + 1;
}

/* Bytes of the UID's bins, n of them: F, the survival's integral and
 * sum of t dF (n + 1 each), then the death counts. */
static size_t bins_bytes(uint32_t n) { return (size_t)5 * (n + 1) * sizeof(double) + (size_t)2 * n * sizeof(uint32_t); }

static void bins_layout(struct midas *p)
{
	double *d = p->bins;
	uint32_t n = p->nbins;
	p->cf[0] = d;
	p->cf[1] = d + (n + 1);
	p->is[0] = d + 2 * (n + 1);
	p->is[1] = d + 3 * (n + 1);
	p->p1 = d + 4 * (n + 1);
	p->deaths[0] = (uint32_t *)(d + 5 * (n + 1));
	p->deaths[1] = p->deaths[0] + n;
}

/* The epoch doubles (up to 64 U), at an epoch's end: the bins, whose
 * counts are cleared next, double too while they stay within 2^15 (one
 * reallocation), else they widen. */
static void epoch_double(struct midas *p)
{
	uint64_t e = 2 * p->epoch_len < p->epoch_max ? 2 * p->epoch_len : p->epoch_max;
	if (e <= p->epoch_len)
		return;
	p->epoch_len = e;
	uint64_t n = (e + p->unit - 1) / p->unit;
	if (n <= MIDAS_BINS) {
		void *q = policy_realloc(p, p->bins, bins_bytes(p->nbins), bins_bytes((uint32_t)n));
		if (q) {
			p->bins = q;
			p->nbins = (uint32_t)n;
			bins_layout(p);
			return;
		}
	}
	p->unit = (e + p->nbins - 1) / p->nbins;
}

static void epoch_end(struct midas *p, const struct ftl *f)
{
	uint64_t nb = p->births[0] + p->births[1];
	if (nb >= 64 && p->e_host) {
		double E = (double)p->epoch_len, u = (double)p->unit;
		for (unsigned c = 0; c < 2; c++) {
			double B = p->births[c] ? (double)p->births[c] : 1, *cf = p->cf[c], *is = p->is[c];
			cf[0] = is[0] = p->p1[0] = 0;
			for (uint32_t j = 0; j < p->nbins; j++) {
				double t = (j + 0.5) * u, w = E - t > E / 8 ? E / (E - t) : 8;
				double x = cf[j] + p->deaths[c][j] * w / B;
				cf[j + 1] = x < 1 ? x : 1;
				is[j + 1] = is[j] + u * (1 - (cf[j] + cf[j + 1]) / 2);
				if (!c)
					p->p1[j + 1] = p->p1[j] + (cf[j + 1] - cf[j]) * t;
			}
		}
		p->hot = (double)p->births[1] / (double)nb;
		struct cfg c = search(p, f);
		double measured = (double)(p->e_host + p->e_copies) / (double)p->e_host;
		int applied = c.wa < measured;
		/* Model errors in the epoch: counted as epochs running, the
		 * run ended by an applied configuration without them. */
		if (applied)
			p->err_run = p->errs ? p->err_run + 1 : 0;
		else if (c.wa != HUGE_VAL && p->errs)
			p->err_run++;
		if (applied && p->D && p->err_run >= MIDAS_ERR_RUN)
			epoch_double(p);
		if (applied)
			apply(p, f, &c);
	}
	memset(p->deaths[0], 0, p->nbins * sizeof(uint32_t));
	memset(p->deaths[1], 0, p->nbins * sizeof(uint32_t));
	memset(p->samp, 0, (size_t)p->nsamp * sizeof(*p->samp));
	p->births[0] = p->births[1] = p->e_host = p->e_copies = 0;
	p->errs = 0;
	p->epoch_start = ftl_now(f) - 1;
}

/* 0.3 epochs after a configuration: a FIFO group past the hot one whose
 * victims hold clearly more than predicted joins the pool, and the
 * FIFO groups after it. */
static void err_check(struct midas *p, const struct ftl *f)
{
	p->err_until = 0;
	for (unsigned g = 1; g < p->F; g++)
		if (p->ev[g] >= MIDAS_ERR_VICTIMS && p->evs[g] / (double)p->ev[g] > p->pred[g] + MIDAS_ERR_MARGIN) {
			p->errs += g <= p->kc / 2; /* a model error when in the first half of the groups */
			for (unsigned h = g; h < p->F; h++)
				fifo_to_pool(p, f, h, -1);
			p->F = g;
			break;
		}
}

/* The version of sampled page slot ends at epoch time t. */
static void uid_death(struct midas *p, uint32_t slot, uint64_t t)
{
	uint64_t x = p->samp[slot], bin = (t - (x >> 1)) / p->unit;
	p->deaths[x & 1][bin < p->nbins ? bin : p->nbins - 1]++;
}

static int midas_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct midas *p = st;
	p->n = (unsigned)in->args->u[0];
	p->R = (uint32_t)in->args->u[2];
	p->D = (unsigned)in->args->u[3];
	uint64_t most = ftl_logical_pages(f) / MIDAS_MIN_SAMPLED; /* at least that many pages sampled */
	if (p->R > most)
		p->R = most ? (uint32_t)most : 1;
	p->b = ftl_seg_pages(f);
	p->nseg = ftl_segments(f);
	uint64_t U = ftl_logical_pages(f);
	double e = ceil(in->args->x[1] * (double)U);
	p->epoch_len = e < 2 ? 2 : (uint64_t)e;
	p->epoch_max = MIDAS_EPOCH_MAX * U > p->epoch_len ? MIDAS_EPOCH_MAX * U : p->epoch_len;
	p->unit = (p->b + 3) / 4;
	if (p->unit < (p->epoch_len + MIDAS_BINS - 1) / MIDAS_BINS)
		p->unit = (p->epoch_len + MIDAS_BINS - 1) / MIDAS_BINS;
	p->nbins = (uint32_t)((p->epoch_len + p->unit - 1) / p->unit);
	p->nsamp = (uint32_t)(U / p->R + 1);
	p->off = rng_below32(policy_rng(st), p->R);
	if (!(p->label = policy_calloc(st, p->nseg, 1)) || !(p->in = policy_calloc(st, p->nseg, 1)) ||
	    !(p->prev = policy_calloc(st, p->nseg, 4)) || !(p->next = policy_calloc(st, p->nseg, 4)) ||
	    !(p->bhead = policy_calloc(st, p->b + 1, 4)) || !(p->btail = policy_calloc(st, p->b + 1, 4)) ||
	    !(p->hc = policy_calloc(st, U / 4 + 1, 1)) || !(p->samp = policy_calloc(st, p->nsamp, 8)) ||
	    !(p->bins = policy_calloc(st, 1, bins_bytes(p->nbins))))
		return policy_fail(st, "out of memory");
	bins_layout(p);
	memset(p->in, IN_NONE, p->nseg);
	for (uint32_t v = 0; v <= p->b; v++)
		p->bhead[v] = p->btail[v] = FTL_NONE;
	for (unsigned g = 0; g < MIDAS_MAXG; g++)
		p->head[g] = p->tail[g] = FTL_NONE;
	p->k = p->n < MIDAS_START ? p->n : MIDAS_START;
	p->hot_age = (double)U;
	p->overwrite = FTL_NONE;
	p->run_clock = FTL_NEVER;
	out->streams = p->n;
	out->gc_streams = p->n - 1; /* copies go to groups 1..N-1 */
	return 0;
}

static int midas_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct midas *p = st;
	uint64_t now = ftl_now(f);
	uint32_t lpn = w->lpn;
	if (now - p->epoch_start > p->epoch_len)
		epoch_end(p, f);
	if (p->err_until && now >= p->err_until)
		err_check(p, f);
	unsigned c = hc_get(p->hc, lpn);
	if (w->prev_seg != FTL_NONE) {
		unsigned g = seg_group(f, p, w->prev_seg);
		if (g == 0) {
			c += c < 3;
		} else if (g == 1) {
			int sealed = ftl_state(f, w->prev_seg) == SEG_SEALED;
			if (!sealed || (double)(now - ftl_seal_time(f, w->prev_seg)) <= p->hot_age)
				c += c < 3;
			else
				c -= c > 0;
		}
		hc_set(p->hc, lpn, c);
		p->overwrite = lpn;
	}
	if (++p->hot_win >= p->hot_age && p->age_n) {
		double m = p->age_sum / (double)p->age_n;
		p->hot_age = m >= 2 * p->hot_age ? 1.5 * p->hot_age : (m + p->hot_age) / 2;
		p->age_sum = 0;
		p->age_n = p->hot_win = 0;
	}
	unsigned hot = c == 3;
	if (lpn % p->R == p->off) {
		uint32_t slot = lpn / p->R;
		uint64_t t = now - p->epoch_start;
		if (p->samp[slot])
			uid_death(p, slot, t);
		p->samp[slot] = t << 1 | hot;
		p->births[hot]++;
	}
	p->e_host++;
	*s = !hot;
	return 0;
}

static int midas_invalidate(void *st, const struct ftl *f, uint32_t lpn, uint32_t seg)
{
	struct midas *p = st;
	if (lpn == p->overwrite) {
		p->overwrite = FTL_NONE;
	} else if (lpn % p->R == p->off && p->samp[lpn / p->R]) { /* a trim ends the version */
		uint32_t slot = lpn / p->R;
		uid_death(p, slot, ftl_now(f) - p->epoch_start + 1);
		p->samp[slot] = 0;
	}
	if (p->in[seg] == IN_POOL) {
		uint32_t v = ftl_valid(f, seg);
		l_unlink(p, &p->bhead[v + 1], &p->btail[v + 1], seg);
		l_push(p, &p->bhead[v], &p->btail[v], seg);
		if (v < p->minv)
			p->minv = v;
	}
	return 0;
}

static int midas_sealed(void *st, const struct ftl *f, uint32_t seg)
{
	struct midas *p = st;
	unsigned s = ftl_seg_stream(f, seg), g = s < p->k ? s : p->k - 1;
	p->label[seg] = (uint8_t)g;
	if (g < p->F)
		fifo_add(p, g, seg);
	else
		pool_add(p, f, seg);
	return 0;
}

static int midas_victim(void *st, const struct ftl *f, uint32_t *seg)
{
	struct midas *p = st;
	uint64_t now = ftl_now(f);
	uint32_t nfree = p->nseg - ftl_sealed_count(f);
	for (unsigned s = 0; s < p->n; s++)
		nfree -= ftl_stream_seg(f, s) != FTL_NONE;
	if (now != p->run_clock || nfree > p->run_free) {
		p->run_clock = now;
		p->run_free = nfree;
		p->run = 0;
	}
	if (++p->run > MIDAS_ILOOP && p->F > 0) {
		/* a model error when the last victim's copies went to the
		 * first half of the configuration's groups */
		unsigned to = p->vg + 1 < p->k ? p->vg + 1 : p->k - 1;
		p->errs += p->kc && to <= p->kc / 2;
		fifo_to_pool(p, f, --p->F, -1);
		if (!p->F)
			p->kc = 0;
		p->run = 0;
	}
	for (unsigned g = 0; g < p->F; g++)
		if (p->cnt[g] > p->size[g]) {
			*seg = p->head[g];
			return 0;
		}
	if (p->pool_n) {
		while (p->bhead[p->minv] == FTL_NONE)
			p->minv++;
		*seg = p->bhead[p->minv];
		return 0;
	}
	unsigned big = 0;
	for (unsigned g = 1; g < p->F; g++)
		if (p->cnt[g] > p->cnt[big])
			big = g;
	*seg = p->head[big]; /* FTL_NONE when nothing is sealed */
	return 0;
}

static int midas_clean(void *st, const struct ftl *f, uint32_t seg, int wl)
{
	struct midas *p = st;
	unsigned g = p->label[seg];
	uint32_t v = ftl_valid(f, seg);
	p->vg = g;
	take(p, seg, v);
	if (!wl) {
		p->ev[g]++;
		p->evs[g] += (double)v / p->b;
		if (g == 0 && p->F) { /* a FIFO hot group's: greedy's empty victims say nothing */
			p->age_sum += (double)(ftl_now(f) - ftl_seal_time(f, seg));
			p->age_n++;
		}
	}
	return 0;
}

static int midas_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct midas *p = st;
	unsigned g = p->vg;
	*s = g + 1 < p->k ? g + 1 : p->k - 1;
	if (g <= 1) {
		unsigned c = hc_get(p->hc, lpn), d = g == 0 ? 2 : 1;
		hc_set(p->hc, lpn, c > d ? c - d : 0);
	}
	p->e_copies++;
	return 0;
}

static void midas_prefetch(void *st, const struct ftl *f, uint32_t lpn)
{
	struct midas *p = st;
	ftl_pf(&p->hc[lpn >> 2]);
}

static int midas_check(void *st, const struct ftl *f)
{
	struct midas *p = st;
	uint64_t listed = 0, sealed = 0;
	for (unsigned g = 0; g < MIDAS_MAXG; g++) {
		uint32_t n = 0;
		for (uint32_t s = p->head[g]; s != FTL_NONE; s = p->next[s]) {
			if (g >= p->F || p->in[s] != g || p->label[s] != g || ftl_state(f, s) != SEG_SEALED)
				return policy_fail(st, "segment %u in FIFO group %u (of %u) is not one of its sealed segments", s, g, p->F);
			if (++n > p->nseg)
				return policy_fail(st, "FIFO group %u's list loops", g);
		}
		if (n != p->cnt[g])
			return policy_fail(st, "FIFO group %u holds %u segments, counted %u", g, n, p->cnt[g]);
		listed += n;
	}
	uint32_t pn = 0;
	for (uint32_t v = 0; v <= p->b; v++)
		for (uint32_t s = p->bhead[v]; s != FTL_NONE; s = p->next[s]) {
			if (p->in[s] != IN_POOL || ftl_valid(f, s) != v || ftl_state(f, s) != SEG_SEALED ||
			    p->label[s] >= p->k || p->label[s] < p->F)
				return policy_fail(st, "segment %u in the pool's list of %u valid pages: %u valid, group %u", s,
						   v, ftl_valid(f, s), p->label[s]);
			if (v < p->minv)
				return policy_fail(st, "pool segment %u holds %u valid pages, below the least %u", s, v, p->minv);
			if (++pn > p->nseg)
				return policy_fail(st, "the pool's lists loop");
		}
	if (pn != p->pool_n)
		return policy_fail(st, "the pool holds %u segments, counted %u", pn, p->pool_n);
	listed += pn;
	for (uint32_t s = 0; s < p->nseg; s++) {
		int is = ftl_state(f, s) == SEG_SEALED;
		sealed += is;
		if (is != (p->in[s] != IN_NONE))
			return policy_fail(st, "segment %u: %s but %s", s, is ? "sealed" : "not sealed",
					   is ? "in no group" : "in a group");
	}
	if (listed != sealed)
		return policy_fail(st, "%llu segments in the groups, %llu sealed", (unsigned long long)listed,
				   (unsigned long long)sealed);
	return 0;
}

static const char *midas_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	if (!s)
		return "hot";
	snprintf(buf, n, "group%u", s);
	return buf;
}

static void midas_destroy(void *st, const struct ftl *f)
{
	struct midas *p = st;
	free(p->label);
	free(p->in);
	free(p->prev);
	free(p->next);
	free(p->bhead);
	free(p->btail);
	free(p->hc);
	free(p->samp);
	free(p->bins);
}

static const struct policy_arg midas_args[] = {
	{"N", ARG_UINT, 3, MIDAS_MAXG, 8, "groups at most (streams), the hot group included"},
	{"W", ARG_REAL, 0.25, 64, 4, "epoch of the update-interval model, host writes in logical spaces"},
	{"R", ARG_UINT, 1, 65536, 100, "update intervals sampled on one logical page in R"},
	{"D", ARG_UINT, 0, 1, 1, "1: the epoch doubles after model errors in two epochs running; 0: never"},
};

const struct place_ops place_midas_ops = {
	.info = {.name = "midas",
		 .desc = "MiDAS (FAST'24): FIFO groups chained by GC migration, their number and sizes from a Markov-chain model of sampled update intervals; a hot group (midas:N[,W=E,R=K,D=1], default 8 groups, 4 U, 100, doubling)",
		 .version = PLACE_API_VERSION,
		 .flags = PLACE_VICTIM,
		 .args = midas_args,
		 .nargs = 4,
		 .state_size = sizeof(struct midas)},
	.init = midas_init,
	.host = midas_host,
	.on_clean = midas_clean,
	.gc = midas_gc,
	.invalidate = midas_invalidate,
	.sealed = midas_sealed,
	.victim = midas_victim,
	.check = midas_check,
	.prefetch = midas_prefetch,
	.stream_name = midas_name,
	.destroy = midas_destroy,
};
