/*
 * ftlsim_time.c - the reports of a device in time (dev_time.h): the
 * summary's "timing" figures (latency percentiles, throughput, the
 * dies' busy share, what GC cost the requests, the steady-state window)
 * and the --timeline and --latency files.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ftlsim.h"

#define SETR(o, k, v) json_object_set_new(o, k, json_real(v))

static const char *const kind_names[TK_N] = {"read", "write", "trim", "zone"};

const struct dev_time *sim_time(const struct sim *s)
{
	return s->cell.dev && s->cell.dops->time ? s->cell.dops->time(s->cell.dev) : NULL;
}

json_t *sim_j_lat(const struct lhist *h)
{
	json_t *o = json_object();
	static const struct {
		const char *name;
		double q;
	} qs[] = {{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p99_9", 0.999}, {"p99_99", 0.9999}};
	SETU(o, "count", h->n);
	if (!h->n) {
		json_object_set_new(o, "mean", json_null());
		for (unsigned i = 0; i < 5; i++)
			json_object_set_new(o, qs[i].name, json_null());
		json_object_set_new(o, "max", json_null());
		return o;
	}
	SETR(o, "mean", lhist_mean(h) / 1e3);
	for (unsigned i = 0; i < 5; i++)
		SETR(o, qs[i].name, lhist_quantile(h, qs[i].q) / 1e3);
	SETR(o, "max", (double)h->max / 1e3);
	return o;
}

/* Requests and bytes completed in interval i (the timeline's row i). */
static uint64_t done_in(const struct dev_time *t, size_t i) { return i < t->niv ? t->iv_done[i] : 0; }
static uint64_t done_bytes_in(const struct dev_time *t, size_t i) { return i < t->niv ? t->iv_done_bytes[i] : 0; }

/* Row i's span in ns: the interval, but the last row's ends with the
 * device's work (its rates are over the time it covers, not a drop
 * toward 0 at the end of every run). */
static double row_span(const struct dev_time *t, size_t i)
{
	uint64_t iv = t->cfg.timeline_ns, a = (uint64_t)i * iv;
	if (i + 1 < t->nrows || t->t_end <= a || t->t_end - a >= iv)
		return (double)iv;
	return (double)(t->t_end - a);
}

/* A round's IOPS (the timeline's row i): requests completed in it. */
static double row_iops(const struct dev_time *t, size_t i)
{
	return (double)done_in(t, i) / ((double)t->cfg.timeline_ns / 1e9);
}

/*
 * The steady-state window by the SNIA PTS rule (Solid State Storage
 * Performance Test Specification, Enterprise, 2.0.x): the first five
 * consecutive rounds (here timeline rows to the last completion's,
 * that partial one excluded: the rows after it, of the device's work
 * alone, complete nothing) whose IOPS range within 20% of their mean and whose
 * least-squares line moves within 10% of the mean across the window.
 * The search starts once the device measures (after --warmup-writes)
 * and has begun to clean (a drive that has not cleaned yet is fresh out
 * of the box, however steady; on a zoned device, which has no GC, once
 * its host has reset a zone); a closed loop only (sim_j_time). -1: none.
 */
#define SS_ROUNDS 5
static long steady_state(const struct dev_time *t, double *mean_out)
{
	if (t->rows_done < SS_ROUNDS + 1 || !t->measuring)
		return -1;
	size_t from = (t->t_measure + t->cfg.timeline_ns - 1) / t->cfg.timeline_ns; /* the first whole round measured */
	/* (a zoned device never cleans: its host does, if any, resetting
	 * the zones it cleaned; from the round of the first reset) */
	if (t->kinds == TK_N && !t->reset_seen)
		return -1; /* no zone reset yet: fresh out of the box */
	if (t->kinds == TK_N && t->reset_at / t->cfg.timeline_ns + 1 > from)
		from = t->reset_at / t->cfg.timeline_ns + 1;
	while (t->kinds != TK_N && from < t->niv && from < t->rows_done && !t->iv_gc[from])
		from++;
	for (size_t s = from; s + SS_ROUNDS <= t->rows_done - 1; s++) {
		double y[SS_ROUNDS], sum = 0, lo = INFINITY, hi = 0;
		for (unsigned k = 0; k < SS_ROUNDS; k++) {
			y[k] = row_iops(t, s + k);
			sum += y[k];
			lo = fmin(lo, y[k]);
			hi = fmax(hi, y[k]);
		}
		double mean = sum / SS_ROUNDS;
		if (!(mean > 0) || hi - lo > 0.2 * mean)
			continue;
		double sxy = 0, sxx = 0, xm = (SS_ROUNDS - 1) / 2.0;
		for (unsigned k = 0; k < SS_ROUNDS; k++) {
			sxy += (k - xm) * (y[k] - mean);
			sxx += (k - xm) * (k - xm);
		}
		double slope = sxy / sxx;
		if (fabs(slope) * (SS_ROUNDS - 1) > 0.1 * mean)
			continue;
		*mean_out = mean;
		return (long)s;
	}
	return -1;
}

/* The mean IOPS of the run's last five whole rounds (to the last
 * completion's, that partial row excluded): where a closed loop ended
 * up. -1: too few rounds. */
static double last_rounds_iops(const struct dev_time *t)
{
	if (t->rows_done < SS_ROUNDS + 1)
		return -1;
	double sum = 0;
	for (size_t i = t->rows_done - 1 - SS_ROUNDS; i < t->rows_done - 1; i++)
		sum += row_iops(t, i);
	return sum / SS_ROUNDS;
}

int sim_time_steady(const struct sim *s, double *window_iops, double *last_iops, double *round_s)
{
	const struct dev_time *t = sim_time(s);
	double mean = 0;
	if (!t || !t->cfg.timeline_ns || !t->cfg.qd || steady_state(t, &mean) < 0)
		return 0;
	*window_iops = mean;
	*last_iops = last_rounds_iops(t);
	*round_s = (double)t->cfg.timeline_ns / 1e9;
	return 1;
}

json_t *sim_j_time(const struct sim *s)
{
	const struct dev_time *t = sim_time(s);
	if (!t)
		return NULL;
	const struct time_config *c = &t->cfg;
	json_t *o = json_object(), *d = json_object();
	json_object_set_new(d, "profile", json_string(c->profile));
	json_object_set_new(d, "profile_modified", json_boolean(c->modified));
	SETU(d, "channels", c->channels);
	SETU(d, "dies_per_channel", c->dies);
	SETU(d, "planes", c->planes);
	SETU(d, "units", t->units);
	SETU(d, "page_bytes", s->opt.cfg.page_size);
	SETR(d, "tr_us", c->tr_us);
	SETR(d, "tprog_us", c->tprog_us);
	SETR(d, "tbers_us", c->tbers_us);
	SETR(d, "xfer_us", c->xfer_us);
	unsigned nt = time_page_types(c);
	SETU(d, "page_types", nt);
	json_t *trt = json_array(), *tpt = json_array();
	for (unsigned k = 0; k < nt; k++) {
		json_array_append_new(trt, json_real(c->tr_t[c->tr_n > 1 ? k : 0]));
		json_array_append_new(tpt, json_real(c->tprog_t[c->tprog_n > 1 ? k : 0]));
	}
	json_object_set_new(d, "tr_us_by_type", trt);
	json_object_set_new(d, "tprog_us_by_type", tpt);
	json_object_set_new(d, "page_order", json_string(c->page_order == ORDER_SHADOW ? "shadow" : "cyclic"));
	static const char *const sus[] = {"off", "erase", "program", "both"};
	json_object_set_new(d, "suspend", json_string(sus[c->suspend & 3]));
	SETR(d, "suspend_us", c->suspend_us);
	SETR(d, "cache_mib", c->cache_mib);
	SETR(d, "cache_us", c->cache_us);
	SETR(d, "host_us", c->host_us);
	SETR(d, "host_mbps", c->host_mbps);
	json_object_set_new(d, "layout", json_string(c->layout == LAYOUT_STRIPE ? "stripe" : "die"));
	if (c->planes > 1) {
		static const char *const mp[] = {"on", "off", "ideal"};
		json_object_set_new(d, "multiplane", json_string(mp[c->multiplane]));
	}
	json_object_set_new(o, "device", d);
	json_object_set_new(o, "loop", json_string(c->qd ? "closed" : "open"));
	if (c->qd)
		SETU(o, "qd", c->qd);
	else
		SETR(o, "time_scale", c->time_scale);
	json_object_set_new(o, "gc_mode", json_string(c->bg_high ? "idle" : c->preempt ? "preemptible" : "foreground"));
	if (c->bg_high) {
		SETR(o, "bg_idle_ms", c->bg_idle_ms);
		SETU(o, "bg_high", c->bg_high);
	}
	if (c->preempt)
		SETU(o, "preempt_hard", c->preempt_hard);
	json_object_set_new(o, "trim_cost",
			    json_string(c->trim == TRIM_QUEUED ? "queued" : c->trim == TRIM_UNQUEUED ? "unqueued" : "none"));
	if (c->trim != TRIM_FREE) {
		SETR(o, "trim_us", c->trim_us);
		SETR(o, "trim_us_per_mib", c->trim_us_mib);
	}
	json_t *l = json_object();
	for (unsigned k = 0; k < t->kinds; k++)
		json_object_set_new(l, kind_names[k], sim_j_lat(&t->lat[k]));
	json_object_set_new(o, "latency_us", l);
	/* flushes (no histogram: their count, mean and longest) */
	json_t *fl = json_object();
	SETU(fl, "count", t->flushes);
	json_object_set_new(fl, "mean_us", t->flushes ? json_real(t->flush_ns / (double)t->flushes / 1e3) : json_null());
	json_object_set_new(fl, "max_us", t->flushes ? json_real((double)t->flush_max / 1e3) : json_null());
	json_object_set_new(o, "flush_latency_us", fl);
	/* The run, and its measured window (after --warmup-writes: the
	 * latencies' window; without a warm-up the run): the rates, the
	 * units' time and what GC cost are the window's. */
	double span = t->requests ? (double)(t->t_end - t->t_first) / 1e9 : 0;
	double mw = t->measuring ? (double)(t->t_end - t->t_measure) / 1e9 : 0;
	int m = t->measuring; /* (no window: nothing in it) */
	uint64_t busy = m ? t->busy_ns - t->m0.busy_ns : 0, gc = m ? t->gc_ns - t->m0.gc_ns : 0,
		 gcbg = m ? t->gc_bg_ns - t->m0.gc_bg_ns : 0;
	SETU(o, "requests", t->requests);
	SETR(o, "simulated_s", span);
	SETU(o, "requests_measured", t->measuring ? t->requests - t->m0.requests : 0);
	SETR(o, "measured_s", mw);
	json_object_set_new(o, "iops", mw > 0 ? json_real((double)(t->requests - t->m0.requests) / mw) : json_null());
	json_object_set_new(o, "mb_per_s", mw > 0 ? json_real((double)(t->bytes - t->m0.bytes) / 1e6 / mw) : json_null());
	json_object_set_new(o, "unit_busy_share", mw > 0 ? json_real((double)busy / (t->units * mw * 1e9)) : json_null());
	SETR(o, "unit_busy_s", (double)busy / 1e9);
	json_t *ub = json_array();
	for (unsigned u = 0; u < t->units; u++)
		json_array_append_new(ub, json_real(m ? (double)(t->unit_busy[u] - t->unit_busy0[u]) / 1e9 : 0));
	json_object_set_new(o, "unit_busy_s_each", ub);
	if (c->planes > 1 && c->multiplane == MP_ON) {
		json_t *j = json_object();
		SETU(j, "read", t->mp_joined[FLASH_READ]);
		SETU(j, "program", t->mp_joined[FLASH_PROGRAM]);
		SETU(j, "erase", t->mp_joined[FLASH_ERASE]);
		json_object_set_new(o, "multiplane_joined", j);
	}
	json_object_set_new(o, "gc_share_of_busy", busy ? json_real((double)gc / (double)busy) : json_null());
	json_object_set_new(o, "gc_idle_share", gc ? json_real((double)gcbg / (double)gc) : json_null());
	SETR(o, "gc_wait_s", m ? (t->gc_wait_ns - t->m0.gc_wait_ns) / 1e9 : 0);
	SETU(o, "requests_waited_on_gc", m ? t->gc_waits - t->m0.gc_waits : 0);
	SETU(o, "bg_victims", m ? t->bg_steps - t->m0.bg_steps : 0);
	SETU(o, "arrivals_reordered", t->reordered);
	SETU(o, "read_pages_unwritten", t->read_unwritten);
	SETU(o, "suspensions", m ? t->suspensions - t->m0.suspensions : 0);
	/* the host link's busy time in the window: writes' data in, reads' out */
	SETR(o, "host_link_in_s", m ? (double)(t->link_ns[0] - t->m0.link_ns[0]) / 1e9 : 0);
	SETR(o, "host_link_out_s", m ? (double)(t->link_ns[1] - t->m0.link_ns[1]) / 1e9 : 0);
	/* the write cache: its pages; over the window, the host pages read
	 * from it, the requests that waited for room in it and that time */
	json_t *wc = json_object();
	SETU(wc, "pages", t->cache_pages);
	SETU(wc, "read_hits", m ? t->cache_hits - t->m0.cache_hits : 0);
	SETU(wc, "requests_waited", m ? t->cache_waits - t->m0.cache_waits : 0);
	SETR(wc, "wait_s", m ? (double)(t->cache_wait_ns - t->m0.cache_wait_ns) / 1e9 : 0);
	json_object_set_new(o, "cache", wc);
	if (c->cmt.mib > 0) { /* the cached mapping table: its entries; over the window, its lookups */
		json_t *cm = json_object();
		uint64_t hits = m ? t->cmt.n.hits - t->cmt.n0.hits : 0, miss = m ? t->cmt.n.misses - t->cmt.n0.misses : 0;
		SETU(cm, "entries", t->cmt.entries);
		SETU(cm, "entry_bytes", c->cmt.entry_bytes);
		SETU(cm, "hits", hits);
		SETU(cm, "misses", miss);
		json_object_set_new(cm, "hit_ratio", hits + miss ? json_real((double)hits / (double)(hits + miss)) : json_null());
		SETU(cm, "translation_reads", m ? t->cmt.n.reads - t->cmt.n0.reads : 0);
		SETU(cm, "translation_writes", m ? t->cmt.n.writes - t->cmt.n0.writes : 0);
		json_object_set_new(o, "cmt", cm);
	}
	json_object_set_new(o, "behind_max_s", c->qd ? json_null() : json_real((double)t->behind_max / 1e9));
	json_object_set_new(o, "behind_at_s",
			    c->qd ? json_null() : json_real((double)(t->behind_at - t->t_first) / 1e9));
	json_t *ss = json_object();
	double mean = 0;
	/* (a closed loop only: the PTS drives the device at its own pace; in
	 * an open loop the IOPS follow the trace, steady or not) */
	int searched = t->cfg.timeline_ns && t->cfg.qd;
	long w = searched ? steady_state(t, &mean) : -1;
	double iv = (double)t->cfg.timeline_ns / 1e9;
	json_object_set_new(ss, "found", searched ? json_boolean(w >= 0) : json_null()); /* null: not searched */
	json_object_set_new(ss, "round_s", t->cfg.timeline_ns ? json_real(iv) : json_null());
	uint64_t b = 0;
	for (long k = w; w >= 0 && k < w + SS_ROUNDS; k++)
		b += done_bytes_in(t, (size_t)k);
	/* the same keys found or not (a grid's results have one header) */
	json_object_set_new(ss, "start_s", w >= 0 ? json_real((double)w * iv) : json_null());
	json_object_set_new(ss, "end_s", w >= 0 ? json_real((double)(w + SS_ROUNDS) * iv) : json_null());
	json_object_set_new(ss, "iops", w >= 0 ? json_real(mean) : json_null());
	json_object_set_new(ss, "mb_per_s", w >= 0 ? json_real((double)b / 1e6 / (SS_ROUNDS * iv)) : json_null());
	double last = searched ? last_rounds_iops(t) : -1;
	json_object_set_new(ss, "last_rounds_iops", last >= 0 ? json_real(last) : json_null());
	json_object_set_new(o, "steady_state", ss);
	return o;
}

void sim_time_open_outputs(struct sim *s)
{
	char err[512];
	if (s->opt.timeline_path) {
		if (out_open(&s->out.timeline, s->opt.timeline_path, err, sizeof(err)))
			sim_fail("%s", err);
		fputs("t_s,iops,mb_per_s,lat_mean_us,lat_p99_us,busy_share,gc_busy_share,gc_idle_busy_share,free_segments,wa,"
		      "arrivals_per_s,span_s,read_iops,write_iops\n",
		      s->out.timeline.fp);
	}
	if (s->opt.latency_path) {
		if (out_open(&s->out.latency, s->opt.latency_path, err, sizeof(err)))
			sim_fail("%s", err);
		fputs("kind,latency_us,count,cdf\n", s->out.latency.fp);
	}
}

/* --latency's rows: each kind's non-empty buckets, their upper bound
 * (at most the maximum), count and the CDF there. */
static void latency_rows(FILE *fp, const struct lhist *lat, unsigned kinds)
{
	for (unsigned k = 0; k < kinds; k++) {
		const struct lhist *h = &lat[k];
		uint64_t seen = 0;
		for (unsigned i = 0; i < LHIST_BUCKETS && seen < h->n; i++) {
			if (!h->b[i])
				continue;
			uint64_t lo, hi;
			lhist_bounds(i, &lo, &hi);
			seen += h->b[i];
			double v = fmin((double)hi, (double)h->max);
			fprintf(fp, "%s,%.9g,%llu,%.9g\n", kind_names[k], v / 1e3, (unsigned long long)h->b[i],
				(double)seen / (double)h->n);
		}
	}
}

/* The rows of the timeline and the latency distributions. */
void sim_time_finish_outputs(struct sim *s)
{
	const struct dev_time *t = sim_time(s);
	if (!t)
		return;
	if (s->out.timeline.fp) {
		for (size_t i = 0; i < t->nrows && !sim_interrupted; i++) {
			const struct time_row *r = &t->rows[i];
			double busy = i < t->niv ? (double)t->iv_busy[i] : 0, gc = i < t->niv ? (double)t->iv_gc[i] : 0,
			       bg = i < t->niv ? (double)t->iv_bg[i] : 0, sp = row_span(t, i);
			double nr = i < t->niv ? (double)t->iv_done_r[i] : 0, nw = i < t->niv ? (double)t->iv_done_w[i] : 0;
			char wa[32] = ""; /* empty before the first host write, as wa_total is null */
			if (r->wa >= 0)
				snprintf(wa, sizeof(wa), "%.6g", r->wa);
			fprintf(s->out.timeline.fp, "%.9g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%u,%s,%.6g,%.9g,%.6g,%.6g\n",
				(double)i * (double)t->cfg.timeline_ns / 1e9, (double)done_in(t, i) / (sp / 1e9),
				(double)done_bytes_in(t, i) / 1e6 / (sp / 1e9), r->mean_ns / 1e3, r->p99_ns / 1e3,
				busy / (t->units * sp), busy > 0 ? gc / busy : 0, busy > 0 ? bg / busy : 0, r->free_segments,
				wa, (double)r->reqs / (sp / 1e9), sp / 1e9, nr / (sp / 1e9), nw / (sp / 1e9));
		}
	}
	if (s->out.latency.fp)
		latency_rows(s->out.latency.fp, t->lat, t->kinds);
}

/* --per-volume: configuration c's latency histograms over every
 * volume's requests, merged into all; 0 without timing. */
static int volumes_lat(struct sim **m, unsigned n, unsigned c, struct lhist *all, unsigned *kinds)
{
	int any = 0;
	*kinds = 0;
	for (unsigned k = 0; k < TK_N; k++)
		lhist_init(&all[k]);
	for (unsigned i = 0; i < n; i++) {
		const struct dev_time *t = m[i]->cell.conf == c ? sim_time(m[i]) : NULL;
		if (!t)
			continue;
		any = 1;
		if (t->kinds > *kinds)
			*kinds = t->kinds;
		for (unsigned k = 0; k < TK_N; k++)
			lhist_merge(&all[k], &t->lat[k]);
	}
	return any;
}

/* --per-volume --latency (one configuration): every volume's requests'
 * distributions, merged, as a single run's. */
void sim_time_volumes_latency(struct sim *in, struct sim **m, unsigned n)
{
	static struct lhist all[TK_N]; /* big: not on the stack */
	unsigned kinds;
	if (in->out.latency.fp && volumes_lat(m, n, 0, all, &kinds))
		latency_rows(in->out.latency.fp, all, kinds);
}

/* --per-volume: configuration c's latencies over every volume's
 * requests (the histograms merged), or NULL without timing. */
json_t *sim_j_time_volumes(struct sim **m, unsigned n, unsigned c)
{
	static struct lhist all[TK_N]; /* big: not on the stack */
	unsigned kinds = 0;
	uint64_t waits = 0, nfl = 0, flmax = 0;
	double wait = 0, fl = 0;
	int any = volumes_lat(m, n, c, all, &kinds);
	for (unsigned i = 0; i < n; i++) {
		const struct dev_time *t = m[i]->cell.conf == c ? sim_time(m[i]) : NULL;
		if (!t)
			continue;
		if (t->measuring) { /* the measured window's, as each run's own */
			wait += t->gc_wait_ns - t->m0.gc_wait_ns;
			waits += t->gc_waits - t->m0.gc_waits;
		}
		nfl += t->flushes; /* (counted in the measured window only) */
		fl += t->flush_ns;
		if (t->flush_max > flmax)
			flmax = t->flush_max;
	}
	if (!any)
		return NULL;
	json_t *o = json_object(), *l = json_object();
	for (unsigned k = 0; k < kinds; k++)
		json_object_set_new(l, kind_names[k], sim_j_lat(&all[k]));
	json_object_set_new(o, "latency_us", l);
	SETR(o, "gc_wait_s", wait / 1e9);
	SETU(o, "requests_waited_on_gc", waits);
	json_t *jf = json_object();
	SETU(jf, "count", nfl);
	json_object_set_new(jf, "mean_us", nfl ? json_real(fl / (double)nfl / 1e3) : json_null());
	json_object_set_new(jf, "max_us", nfl ? json_real((double)flmax / 1e3) : json_null());
	json_object_set_new(o, "flush_latency_us", jf);
	return o;
}
