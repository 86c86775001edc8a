/*
 * ftlsim - replay a block trace through the FTL model and report what
 * the garbage collector did: a JSON summary on stdout, and on request
 * CSV curves and histograms. The model's rules: docs/MODEL.md.
 *
 *   ftlsim [options] [TRACE]      (TRACE: any trace file, - for stdin)
 *
 * This file holds main() and builds the models; the command line is in
 * ftlsim_cli.c, the input passes in ftlsim_input.c, the replay loop in
 * ftlsim_replay.c, the CSV files and the JSON summary in
 * ftlsim_report.c (a device in time's in ftlsim_time.c), and every
 * error leaves through ftlsim_err.c.
 */
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ftlsim.h"
#include "place.h"
#include "registry.h"

/* What an error must clean up: every model's files and the results. */
static struct sim *g_in, **g_models;
static unsigned g_n;

double sim_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "1:02:03" */
static void hms(char *buf, size_t n, double sec)
{
	unsigned long t = sec > 0 && sec < 1e9 ? (unsigned long)(sec + 0.5) : 0;
	snprintf(buf, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

/* Every --progress seconds: the fraction of the input read and the time
 * left when its size is known, events a second, host pages written and
 * the WA so far (of all the models together when there are several).
 * On a terminal one line rewritten; otherwise whole lines, which a batch
 * job's log keeps. */
void sim_progress(struct sim *s, int pass)
{
	double t = sim_now();
	if (t - s->run.last_progress < s->opt.progress_every)
		return;
	s->run.last_progress = t;
	s->run.progress_shown = s->run.progress_tty;
	uint64_t n = pass == 1 ? s->in.events_pass1 : s->in.events, done, total;
	double dt = t - s->run.pass_t0, rate = dt > 0 ? n / dt : 0;
	char frac[96] = "", eta[32];
	if (s->in.t && !s->in.from_buf && !trace_position(s->in.t, &done, &total) && total) {
		double f = (double)done / (double)total;
		hms(eta, sizeof(eta), f > 0 ? dt * (1 - f) / f : 0);
		snprintf(frac, sizeof(frac), "%5.1f%%, ETA %s%s, ", 100 * f, eta,
			 pass == 1 ? " (pass 1 of 2)" : "");
	} else if (pass == 1) {
		snprintf(frac, sizeof(frac), "pass 1 of 2, ");
	}
	if (pass == 1 || !g_n || !g_models[0]->cell.dev) {
		fprintf(stderr, "%s%s: %s%llu events, %.3g events/s%s", s->run.progress_tty ? "\r" : "",
			prog_name, frac, (unsigned long long)n, rate, s->run.progress_tty ? "   " : "\n");
		return;
	}
	struct ftl_counts c = {0};
	for (unsigned i = 0; i < g_n; i++) {
		struct dev_stats st;
		if (!g_models[i]->cell.dev)
			continue;
		sim_stats(g_models[i], &st);
		c.host_pages += st.c.host_pages;
		c.gc_pages += st.c.gc_pages;
		c.wl_pages += st.c.wl_pages;
	}
	double wa = ftl_wa(&c, &(struct ftl_counts){0});
	fprintf(stderr, "%s%s: %s%llu events, %.3g events/s, %llu host pages, WA %.3f%s",
		s->run.progress_tty ? "\r" : "", prog_name, frac, (unsigned long long)n, rate,
		(unsigned long long)c.host_pages, wa < 0 ? 0 : wa, s->run.progress_tty ? "   " : "\n");
}

/* "volume 3 op=0.28: " of a model of several, for its messages. */
static const char *label_of(const struct sim *in, const struct sim *s, char *buf, size_t n)
{
	if (!in->opt.grid.naxes && !in->opt.per_volume)
		return "";
	size_t k = strlen(sim_conf_label(in, s, buf, n - 2));
	snprintf(buf + k, n - k, ": ");
	return buf;
}

/* The device's note during the run (dev_observer.on_note), as a warning. */
static void sim_note(void *ctx, const char *msg)
{
	struct sim *s = ctx;
	char label[256];
	warn("warning: %s%s", label_of(s, s, label, sizeof(label)), msg);
}

/* A model's warnings: said as they come; per volume gathered, each
 * kind said once a configuration, of its first volume, with how many
 * said the same (thousands of volumes would say it thousands of times). */
#define SAID_KINDS 32
struct said {
	int kind; /* the line that says it */
	unsigned n;
	char *first;
};
static struct said **g_said; /* per configuration: SAID_KINDS, allocated on its first warning */
static unsigned g_nsaid;

static void mwarn(const struct sim *in, const struct sim *m, int kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void mwarn(const struct sim *in, const struct sim *m, int kind, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!m->cell.vol) {
		warn("%s", buf);
		return;
	}
	if (in->opt.dry_run)
		return;
	if (!g_said) {
		g_nsaid = in->opt.grid.naxes ? (unsigned)in->opt.grid.nconf : 1;
		if (!(g_said = calloc(g_nsaid, sizeof(*g_said))))
			sim_fail("out of memory");
	}
	unsigned c = (unsigned)(m->cell.conf < g_nsaid ? m->cell.conf : 0);
	if (!g_said[c] && !(g_said[c] = calloc(SAID_KINDS, sizeof(**g_said))))
		sim_fail("out of memory");
	for (struct said *k = g_said[c]; k < g_said[c] + SAID_KINDS; k++)
		if (!k->n || k->kind == kind) {
			if (!k->n && !(k->first = strdup(buf)))
				sim_fail("out of memory");
			k->kind = kind;
			k->n++;
			return;
		}
	warn("%s", buf); /* (more kinds than the table holds: said as it comes) */
}

/* Per volume: each configuration's warnings, once each, with their count. */
static void said_flush(struct sim *const *m, unsigned n)
{
	for (unsigned c = 0; c < g_nsaid; c++) {
		if (!g_said || !g_said[c])
			continue;
		unsigned ran = 0;
		for (unsigned i = 0; i < n; i++)
			ran += m[i]->cell.conf == c && m[i]->cell.dev;
		for (struct said *k = g_said[c]; k < g_said[c] + SAID_KINDS && k->n; k++) {
			if (k->n > 1)
				warn("%s (so in %u of %s%u volumes; said of the first)", k->first, k->n,
				     g_nsaid > 1 ? "this configuration's " : "the ", ran);
			else
				warn("%s (so in this volume only, of %s%u)", k->first, g_nsaid > 1 ? "this configuration's " : "the ",
				     ran);
			free(k->first);
		}
		free(g_said[c]);
	}
	free(g_said);
	g_said = NULL;
	g_nsaid = 0;
}

/* A refusal of the model (its parameters: a usage error) -1, any other
 * failure (memory) -2, with the reason in err. */
static int refusal(const char *err) { return strstr(err, "out of memory") ? -2 : -1; }

/* Model s built: its device, and the host layer over it. 0, or as
 * sim_try_model with the reason in err and nothing left open. */
static int open_model(const struct sim *in, struct sim *s, char *err, size_t n)
{
	char label[512];
	uint64_t U = s->opt.cfg.logical_pages;
	s->opt.cfg.physical_pages = sim_physical_pages(s);
	struct ftl_pagemap *map =
		s->opt.space != SPACE_FOOTPRINT ? NULL : s->cell.vol ? &s->cell.vol->map : &s->cell.space_owner->cell.map;
	struct ftl_config dcfg = s->opt.cfg;
	/* under a host log the device holds the log: its pages, its own spare on them */
	sim_device_space(s, &dcfg.logical_pages, &dcfg.physical_pages);
	/* FDP: a reclaim unit of R segments is the unit the device's GC
	 * reclaims, the model's segment (docs/MODEL.md, "FDP") */
	uint32_t ru = sim_fdp_ru(&dcfg);
	if (ru > 1) {
		uint64_t b = (uint64_t)ftl_config_pages_per_seg(&dcfg) * ru;
		if (b > 1u << 24)
			return set_err(err, n, "--fdp ru=%u: a reclaim unit of %llu pages is more than a segment holds (2^24)",
				       ru, (unsigned long long)b);
		dcfg.pages_per_seg = (uint32_t)b;
	}
	s->opt.tc.seg_blocks = ru; /* a device in time erases its R blocks */
	/* each stream's write latencies, and the rows of simulated time the
	 * steady-state search reads: not per volume (thousands of models,
	 * whose memory would grow with the trace's span) */
	s->opt.tc.stream_lat = !in->opt.per_volume;
	if (in->opt.per_volume)
		s->opt.tc.timeline_ns = 0;
	/* an open loop keeps rows only for --timeline (the steady-state
	 * search reads them in a closed loop): a trace replayed fast over a
	 * long span would otherwise hold a row per interval for nothing */
	if (!s->opt.tc.qd && !s->opt.timeline_path)
		s->opt.tc.timeline_ns = 0;
	struct dev_config dc = {
		.ftl = dcfg,
		.timing = s->opt.timing ? &s->opt.tc : NULL,
		.zns = s->opt.zoned ? &s->opt.zns : NULL,
		.map = s->opt.host_lfs ? NULL : map, /* the host log numbers the footprint */
		.obs = {.interval = s->opt.interval_set ? s->opt.interval : (U / 10 ? U / 10 : 1),
			.snapshot_every = s->opt.snapshot_every,
			.on_interval = sim_curve_row,
			.on_snapshot = sim_snapshot,
			.on_note = sim_note,
			.ctx = s}};
	s->cell.dops = s->opt.timing ? &dev_time_ops : s->opt.zoned ? &dev_zns_ops : &dev_ftl_ops;
	if (!(s->cell.dev = s->cell.dops->open(&dc, err, n))) {
		sim_fdp_refusal(&s->opt.cfg, dcfg.logical_pages, err, n);
		return refusal(err);
	}
	struct dev_stats st;
	s->cell.dops->stats(s->cell.dev, &st);
	/* zones are whole: said, as a run's results hold the zones' pages
	 * (a volume's, per volume, too many to say) */
	if (s->opt.zoned && !s->cell.vol && st.logical_pages > dcfg.logical_pages)
		warn("%s--zoned: the logical space, %llu pages, rounded up to whole zones: %llu (%llu zones of %u pages)",
		     label_of(in, s, label, sizeof(label)), (unsigned long long)dcfg.logical_pages,
		     (unsigned long long)st.logical_pages, (unsigned long long)(st.logical_pages / st.pages_per_seg),
		     st.pages_per_seg);
	/* preemptible GC defers a pass only while the free segments are at
	 * least hard; a pass starts below the low mark */
	/* (once every logical page is written, the data takes ceil(U/b)
	 * segments and a stream writes one: the rest can be free) */
	uint64_t most_free = st.segments - (st.logical_pages + st.pages_per_seg - 1) / st.pages_per_seg;
	most_free = most_free ? most_free - 1 : 0;
	/* (each configuration of a grid, as it may set them; per volume gathered) */
	if (s->opt.timing && s->opt.tc.bg_high > most_free)
		mwarn(in, s, __LINE__, "warning: %s--bg-gc high=%u is above the %llu segments that can be free once the logical space is "
		     "written (%u segments, %llu of them the data's, one being written): idle time then cleans every "
		     "victim it can find, whatever its valid pages, and WA grows",
		     label_of(in, s, label, sizeof(label)), s->opt.tc.bg_high, (unsigned long long)most_free, st.segments,
		     (unsigned long long)((st.logical_pages + st.pages_per_seg - 1) / st.pages_per_seg));
	/* idle-time GC cleans while fewer than high are free; foreground GC
	 * keeps at least gc_low - 1 free (a pass starts below gc_low) */
	if (s->opt.timing && s->opt.tc.bg_high && s->opt.tc.bg_high < st.gc_low)
		mwarn(in, s, __LINE__, "warning: %s--bg-gc high=%u with GC starting when fewer than %u segments are free "
		     "(--gc-low): foreground GC keeps at least %u free, so idle time never cleans; give high above %u",
		     label_of(in, s, label, sizeof(label)), s->opt.tc.bg_high, st.gc_low, st.gc_low - 1,
		     st.gc_low - 1);
	if (s->opt.timing && s->opt.tc.preempt && s->opt.tc.preempt_hard >= st.gc_low)
		mwarn(in, s, __LINE__, "warning: %s--gc-preempt hard=%u with GC starting when fewer than %u segment%s free (--gc-low): no pass is "
		     "ever deferred, the same as foreground GC; give --gc-low above %u", label_of(in, s, label, sizeof(label)),
		     s->opt.tc.preempt_hard, st.gc_low, st.gc_low == 1 ? " is" : "s are", s->opt.tc.preempt_hard);
	if (s->opt.timing && s->opt.tc.suspend && (s->opt.zoned || (!s->opt.tc.bg_high && !s->opt.tc.preempt)))
		mwarn(in, s, __LINE__, "warning: %ssuspend=%s suspends GC work that yields (--bg-gc, --gc-preempt): %s",
		     label_of(in, s, label, sizeof(label)),
		     s->opt.tc.suspend == SUSPEND_ERASE ? "erase" : s->opt.tc.suspend == SUSPEND_PROGRAM ? "program" : "both",
		     s->opt.zoned ? "a zoned device has no GC, and nothing is suspended"
				  : "with foreground GC a read waits behind the request's own pass and nothing is suspended");
	/* a key given by name that the rest of the device leaves without effect */
	if (s->opt.timing) {
		const struct time_config *c = &s->opt.tc;
		const struct {
			const char *key, *why;
			int idle;
		} v[] = {
			{"cache_us", "the time a write takes into the write cache, and there is none (cache_mib=0)",
			 c->cache_mib == 0},
			{"suspend_us", "the time a suspension costs, and nothing is suspended (suspend=off)", !c->suspend},
			{"cmt_entry_bytes", "the size of a mapping-table entry, and the whole map is cached (cmt_mib=0)",
			 c->cmt.mib == 0},
			{"multiplane", "how a die's planes work together, and it has one (planes=1)", c->planes == 1},
		};
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			if ((c->given >> time_key_index(v[i].key) & 1) && v[i].idle)
				mwarn(in, s, __LINE__, "warning: %sthe device key %s changes nothing: it is %s",
				      label_of(in, s, label, sizeof(label)), v[i].key, v[i].why);
	}
	int rc = 0;
	if (s->opt.host_lfs) {
		s->cell.hops = &host_lfs_ops;
		s->opt.lfs.check = s->opt.cfg.check;
		s->opt.lfs.probe = s->opt.cfg.probe;
		s->opt.lfs.oor = s->opt.cfg.oor;
		s->opt.lfs.warmup = s->opt.cfg.warmup_writes;
		s->cell.host = host_lfs_open(&s->opt.lfs, U, s->opt.cfg.page_size, s->opt.cfg.seed, map, s->cell.dev,
					     s->cell.dops, err, n);
		if (!s->cell.host)
			rc = refusal(err);
	} else {
		/* The TRIM host on every other device: online by default, the
		 * trace's discards as they are (docs/MODEL.md, "The TRIM host"). */
		char spec[512];
		s->opt.trim.seed = s->opt.cfg.seed;
		s->cell.hops = &host_trim_ops;
		/* not the options' fault (checked when given): exit 1 */
		if (trim_config_format(&s->opt.trim, spec, sizeof(spec))) {
			set_err(err, n, "the TRIM host's spec is too long");
			rc = -2;
		} else if (!(s->cell.host = s->cell.hops->open(spec, s->cell.dev, s->cell.dops, err, n)))
			rc = -2;
	}
	if (rc) {
		if (s->cell.host)
			s->cell.hops->close(s->cell.host);
		s->cell.dops->close(s->cell.dev);
		s->cell.host = NULL;
		s->cell.dev = NULL;
	}
	return rc;
}

int sim_try_model(const struct sim *in, struct sim *m, char *err, size_t n)
{
	int probe = m->opt.cfg.probe;
	m->opt.cfg.probe = 1; /* built to be refused or freed: its maps never filled */
	int rc = open_model(in, m, err, n);
	m->opt.cfg.probe = probe;
	if (!rc) {
		m->cell.hops->close(m->cell.host);
		m->cell.dops->close(m->cell.dev);
		m->cell.host = NULL;
		m->cell.dev = NULL;
	}
	return rc;
}

static void build_model(const struct sim *in, struct sim *s)
{
	char err[1024], label[512];
	int rc = open_model(in, s, err, sizeof(err));
	if (rc == -2)
		sim_fail("%s%s", label_of(in, s, label, sizeof(label)), err);
	if (rc && s->cell.vol) { /* a volume too small for the geometry: listed, not fatal */
		if (!(s->cell.skip = strdup(err)))
			sim_fail("out of memory");
		return;
	}
	/* The model refuses only its parameters (geometry, policy
	 * arguments, watermarks): a usage error. */
	if (rc)
		sim_fail_usage("%s%s", label_of(in, s, label, sizeof(label)), err);
	if (s->opt.timing && s->opt.tc.layout == LAYOUT_STRIPE) { /* (each grid cell; per volume gathered) */
		struct dev_stats st;
		s->cell.dops->stats(s->cell.dev, &st);
		unsigned units = time_slots(&s->opt.tc); /* every plane holds a block of the segment */
		if (units > 1 && st.pages_per_seg < 16u * units && s->opt.tc.tbers_us > 0) /* (erases of no time cost nothing) */
			mwarn(in, s, __LINE__, "warning: %sa %s of %u pages striped over the array's %u planes (channels x dies x planes) "
			     "puts %u page%s of it in each plane's block: every %s costs %u erases of %g us, %g us of "
			     "erase a page (a flash block holds hundreds of pages): give %s a multiple of %u blocks, "
			     "fewer planes (channels, dies, planes), or layout=die", label_of(in, s, label, sizeof(label)),
			     s->opt.zoned ? "zone" : "segment", st.pages_per_seg, units, (st.pages_per_seg + units - 1) / units,
			     st.pages_per_seg > units ? "s" : "", s->opt.zoned ? "zone reset" : "segment cleaned",
			     st.pages_per_seg < units ? st.pages_per_seg : units, s->opt.tc.tbers_us,
			     s->opt.tc.tbers_us * (st.pages_per_seg < units ? st.pages_per_seg : units) / st.pages_per_seg,
			     s->opt.zoned ? "--zoned size=" : "--pages-per-segment", units);
	}
	if (s->opt.timing) { /* a cache above the drive's size */
		struct dev_stats st;
		s->cell.dops->stats(s->cell.dev, &st);
		uint64_t nc = time_cache_pages(&s->opt.tc, st.page_size);
		if (nc > st.logical_pages)
			mwarn(in, s, __LINE__, "warning: %sthe write cache (cache_mib=%g, %llu pages) holds more than the drive's "
			     "%llu logical pages: every page written stays in it, and every read of one is a hit",
			     label_of(in, s, label, sizeof(label)), s->opt.tc.cache_mib, (unsigned long long)nc,
			     (unsigned long long)st.logical_pages);
	}
	if (s->opt.timing && s->opt.tc.layout == LAYOUT_STRIPE) {
		struct dev_stats st;
		s->cell.dops->stats(s->cell.dev, &st);
		unsigned units = time_slots(&s->opt.tc); /* (every plane holds a block of the segment) */
		/* page types by the row in a block: a block of few rows holds
		 * the first types of the order only, or an uneven mix */
		unsigned R = s->opt.tc.seg_blocks > 1 ? s->opt.tc.seg_blocks : 1; /* (an FDP reclaim unit's blocks) */
		unsigned nt = time_page_types(&s->opt.tc), rows = st.pages_per_seg / R / units;
		if (units > 1 && nt > 1 && (rows < (s->opt.tc.page_order == ORDER_SHADOW ? 14u : nt) || rows % nt))
			mwarn(in, s, __LINE__, "warning: %sa %s of %u pages striped over the array's %u planes leaves %u row%s in each plane's "
			     "block: its %u page types are those of %s, not a flash block's mix (the mean tR and tPROG "
			     "move): give %s a multiple of %u blocks, or layout=die",
			     label_of(in, s, label, sizeof(label)), s->opt.zoned ? "zone" : "segment", st.pages_per_seg, units,
			     rows, rows == 1 ? "" : "s", nt, rows < nt || (s->opt.tc.page_order == ORDER_SHADOW && rows < 14)
							       ? "its first rows in the order only"
							       : "an uneven share of rows",
			     s->opt.zoned ? "--zoned size=" : "--pages-per-segment", units);
	}
	if (s->opt.flashops_path && s->cell.dops->flash_observe(s->cell.dev, sim_flash_op, s))
		sim_fail("too many flash-operation observers");
}

/* Each model built (their memory together checked first), its files
 * opened, its future learnt when its placement needs it, preconditioned.
 * A --per-volume volume too small for the geometry gets no model. */
/* A placement that reads the trace's temperature labels (PLACE_TEMP)
 * on a format that has none would put every page in one class: a usage
 * error, before any model is built or output file opened. */
static void check_labels(const struct sim *in, struct sim *const *conf, unsigned nconf)
{
	const struct reader_ops *r = reader_find(in->in.format);
	if (!r || (r->flags & RD_TEMP))
		return;
	for (unsigned i = 0; i < nconf; i++) {
		char err[256];
		const struct place_ops *p = place_find(conf[i]->opt.cfg.placement, NULL, err, sizeof(err));
		const struct place_ops *hp =
			conf[i]->opt.cfg.host_placement ? place_find(conf[i]->opt.cfg.host_placement, NULL, err, sizeof(err)) : NULL;
		const struct place_ops *lp =
			conf[i]->opt.host_lfs ? place_find(conf[i]->opt.lfs.placement, NULL, err, sizeof(err)) : NULL;
		if (hp && (hp->info.flags & PLACE_TEMP))
			p = hp;
		if (lp && (lp->info.flags & PLACE_TEMP))
			p = lp;
		if (p && (p->info.flags & PLACE_TEMP))
			sim_fail_usage("placement '%s'%s reads the trace's temperature labels, and format '%s' has none "
				    "(the event stream carries them: tracegen writes them)",
				    p->info.name, p == lp ? " (--host-lfs placement=)" : "", r->name);
	}
}

/* A placement that learns the trace before the replay (future
 * knowledge) learns the trace's own writes: under a host log, neither
 * the log's placement (it writes what the file system asks, learnt by
 * no one) nor the device's (it receives the log's writes, not the
 * trace's) would know the stream it places. A usage error. */
static void check_learners(struct sim *const *conf, unsigned nconf)
{
	for (unsigned i = 0; i < nconf; i++) {
		if (!conf[i]->opt.host_lfs)
			continue;
		char err[256];
		const struct place_ops *p = place_find(conf[i]->opt.cfg.placement, NULL, err, sizeof(err));
		const struct place_ops *lp = place_find(conf[i]->opt.lfs.placement, NULL, err, sizeof(err));
		if (lp && (lp->info.flags & PLACE_FUTURE))
			sim_fail_usage("--host-lfs placement=%s learns the trace before the replay, and the host log is "
				       "fed no such pass: a placement that learns goes on the device without --host-lfs",
				       lp->info.name);
		if (p && (p->info.flags & PLACE_FUTURE))
			sim_fail_usage("placement '%s' learns the trace before the replay, and under --host-lfs the device "
				       "receives the host log's writes, not the trace's: it would learn the wrong stream",
				       p->info.name);
	}
}

/* Standard input read twice is replayed from a buffer that keeps no
 * times (struct cev): a TRIM host that batches or delays by the trace's
 * time would see none pass. A usage error, before any model is built. */
static void check_times(const struct sim *in, struct sim *const *conf, unsigned nconf)
{
	char mode[64];
	for (unsigned i = 0; in->in.from_buf && i < nconf; i++)
		if (conf[i]->opt.trim.mode != TRIM_ONLINE)
			sim_fail_usage("--trim-mode %s goes by the trace's times, and standard input read twice is "
				       "replayed without them: name a file (or give --logical-pages, read once)",
				       trim_mode_name(&conf[i]->opt.trim, mode, sizeof(mode)));
}

void sim_check_input(const struct sim *in, struct sim *const *conf, unsigned nconf)
{
	check_labels(in, conf, nconf);
	check_learners(conf, nconf);
	check_times(in, conf, nconf);
}

static void start_models(struct sim *s, struct sim **m, unsigned n, unsigned nconf)
{
	for (unsigned i = 0; i < n; i++)
		m[i]->opt.cfg.physical_pages = sim_physical_pages(m[i]);
	sim_check_memory(s, m, n, nconf);
	int learn = 0;
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.vol && m[i]->cell.vol->skip)
			continue;
		build_model(s, m[i]);
		if (!m[i]->cell.dev)
			continue;
		sim_open_outputs(m[i]);
		struct dev_stats st;
		sim_stats(m[i], &st);
		m[i]->cell.learns = !!(st.flags & DEV_LEARNS);
		learn |= m[i]->cell.learns;
	}
	sim_open_results(s);
	if (learn)
		sim_learn_pass(s, m, n);
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.dev && m[i]->cell.dops->precondition(m[i]->cell.dev, m[i]->opt.precond))
			sim_fail("%s", m[i]->cell.dops->error(m[i]->cell.dev));
		if (m[i]->cell.dev && m[i]->opt.host_lfs && host_lfs_precondition(m[i]->cell.host, m[i]->opt.precond))
			sim_fail("the host log: %s", m[i]->cell.hops->error(m[i]->cell.host));
	}
	if (s->opt.age_path)
		sim_age_pass(s, m, n);
}

/* The trace has ended: what each host layer holds (a batch, delayed
 * discards) goes to its device. */
static void end_hosts(const struct sim *s, struct sim **m, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char label[512];
		if (!m[i]->cell.host || !m[i]->cell.hops->end(m[i]->cell.host))
			continue;
		if (s->opt.grid.naxes || s->opt.per_volume)
			sim_fail("%s: at the end of the trace: %s: %s", s->opt.path, sim_conf_label(s, m[i], label, sizeof(label)),
				 m[i]->cell.hops->error(m[i]->cell.host));
		sim_fail("%s: at the end of the trace: %s", s->opt.path, m[i]->cell.hops->error(m[i]->cell.host));
	}
}

static void report(struct sim *s, struct sim **m, unsigned n, unsigned nconf, int partial)
{
	if (s->opt.per_volume)
		sim_print_volume_summary(s, m, n, nconf, partial);
	else if (s->opt.grid.naxes)
		sim_print_grid_summary(s, m, n, partial);
	else
		sim_print_summary(s, partial);
	fflush(stdout);
}

/* A model's warning (kind: the line that says it; per volume gathered,
 * mwarn), or its note (said unless -q; per volume none: thousands). */
#define MWARN(...) mwarn(s, m[i], __LINE__, __VA_ARGS__)
#define NOTE(...) (s->opt.per_volume || s->opt.quiet ? (void)0 : warn(__VA_ARGS__))

/* The end of a complete run: each model's warnings, then final rows
 * (renamed into place by the caller unless a signal came meanwhile). */
static void finish(struct sim *s, struct sim **m, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char label[512];
		if (!m[i]->cell.dev)
			continue; /* a volume skipped */
		const char *what = s->opt.grid.naxes || m[i]->cell.vol ? sim_conf_label(s, m[i], label, sizeof(label)) : NULL;
		struct dev_stats st;
		sim_stats(m[i], &st);
		if (!st.c.host_pages)
			MWARN("warning: %s%sno page written (the events kept are reads, discards or flushes): "
			      "wa_total, wa_measured and write_cost are null",
			      what ? what : "", what ? ": " : "");
		else if (m[i]->opt.cfg.warmup_writes && !st.measuring)
			MWARN("warning: %s%sthe trace ended within the %llu warm-up page writes: wa_measured is null",
			     what ? what : "", what ? ": " : "", (unsigned long long)m[i]->opt.cfg.warmup_writes);
		else if (m[i]->opt.cfg.warmup_writes && st.c.host_pages == st.c0.host_pages)
			MWARN("warning: %s%sthe %llu warm-up page writes are all the trace's writes: the measured window "
			     "holds none (wa_measured and the measured latencies count nothing); lower --warmup-writes",
			     what ? what : "", what ? ": " : "", (unsigned long long)m[i]->opt.cfg.warmup_writes);
		else if (m[i]->opt.cfg.warmup_writes && !s->opt.quiet)
			NOTE("%s%smeasured window: host page writes %llu to %llu (the last %llu of %llu; the trace's "
			     "writes count from its first, those of a tracegen --fill included)",
			     what ? what : "", what ? ": " : "", (unsigned long long)st.c0.host_pages + 1,
			     (unsigned long long)st.c.host_pages, (unsigned long long)(st.c.host_pages - st.c0.host_pages),
			     (unsigned long long)st.c.host_pages);
		/* GC that never ran says the drive was never filled; GC that
		 * cleaned only empty segments says nothing of the kind (the
		 * trace's overwrites and discards emptied them). */
		if (st.c.host_pages && !st.c.gc_pages && !st.c.wl_pages && m[i]->opt.precond == 0 && !st.c.victims &&
		    !(st.flags & DEV_ZONED) && !m[i]->opt.host_lfs) /* a zoned device has no GC; a host log's device is fed whole segments */
			MWARN("warning: %s%sGC copied no page, so WA is 1: the replay never filled the drive with "
			     "valid data; fill it first (--precondition seq or random) or replay a longer trace",
			     what ? what : "", what ? ": " : "");
		else if (st.c.victims && !st.c.gc_pages && !st.c.wl_pages && !s->opt.quiet)
			NOTE("%s%sGC cleaned %llu segment%s, every one empty (no page to copy): WA is 1",
			     what ? what : "", what ? ": " : "", (unsigned long long)st.c.victims,
			     st.c.victims == 1 ? "" : "s");
		/* The spare space that rounding T down to whole segments took,
		 * said from a third of it: a small logical space (a volume's)
		 * under large segments can lose half, and WA is the smaller
		 * spare's. */
		if (!(st.flags & DEV_ZONED)) {
			uint64_t dU, dT;
			sim_device_space(m[i], &dU, &dT);
			if (dT > st.logical_pages && st.physical_pages < dT &&
			    (st.physical_pages > st.logical_pages ? st.physical_pages - st.logical_pages : 0) * 3 <
				    (dT - st.logical_pages) * 2)
				MWARN("warning: %s%sthe spare space asked, %llu pages (op %.3g), is %llu once the physical pages are "
				      "rounded down to whole segments of %u pages (op %.3g): WA is the smaller spare's; smaller "
				      "segments (--pages-per-segment) keep more of it", what ? what : "", what ? ": " : "",
				      (unsigned long long)(dT - st.logical_pages), (double)(dT - st.logical_pages) / (double)st.logical_pages,
				      (unsigned long long)(st.physical_pages > st.logical_pages ? st.physical_pages - st.logical_pages : 0),
				      st.pages_per_seg,
				      st.physical_pages > st.logical_pages
					      ? (double)(st.physical_pages - st.logical_pages) / (double)st.logical_pages : 0.0);
		}
		/* The host log's spare, its pages rounded up to whole host
		 * segments, said from half as much again as asked: a host
		 * segment large against the file system gives the log far
		 * more spare than op=, and the host WA is that spare's. */
		if (m[i]->opt.host_lfs && m[i]->cell.host) {
			struct host_stats hs;
			m[i]->cell.hops->stats(m[i]->cell.host, &hs);
			uint64_t fs = m[i]->opt.cfg.logical_pages, want = ftl_pages_for_op(fs, m[i]->opt.lfs.op);
			uint64_t asked = want > fs ? want - fs : 0, got = hs.log_pages > fs ? hs.log_pages - fs : 0;
			if (fs && got * 2 > asked * 3)
				MWARN("warning: %s%sthe host log's spare space asked, %llu pages (op=%g), is %llu once its pages "
				      "are rounded up to whole host segments of %u pages (op %.3g): the host WA is the larger "
				      "spare's; smaller host segments (--host-lfs segment=) keep it near what was asked",
				      what ? what : "", what ? ": " : "", (unsigned long long)asked, m[i]->opt.lfs.op,
				      (unsigned long long)got, hs.log_segment_pages, (double)got / (double)fs);
		}
		/* Reads of a host log's holes take no device time, where a
		 * block device reads a page it never wrote: said in time. */
		if (m[i]->opt.timing && m[i]->opt.host_lfs && m[i]->cell.host) {
			struct host_stats hs;
			m[i]->cell.hops->stats(m[i]->cell.host, &hs);
			int fp = m[i]->opt.space == SPACE_FOOTPRINT;
			if (hs.log_read_holes && hs.log_read_holes * 100 >= hs.log_read_pages)
				MWARN("warning: %s%s%llu of the %llu pages the trace read (%.0f%%) are holes of the host log (%s): "
				      "read without a device read, in no time, where a block device reads where a page it never "
				      "wrote would lie (tR)%s", what ? what : "", what ? ": " : "",
				      (unsigned long long)hs.log_read_holes, (unsigned long long)hs.log_read_pages,
				      100.0 * (double)hs.log_read_holes / (double)hs.log_read_pages,
				      fp ? "pages the trace never wrote, outside the footprint the logical space numbers"
				      : m[i]->opt.precond ? "it holds no data for them" : "it holds no data for them: the trace never wrote them",
				      fp ? "; --logical-space extent puts them in the file system" : m[i]->opt.precond ? ""
				      : "; --precondition writes every page first");
		}
		/* A device page larger than most requests (the tlc profile's
		 * 16 KiB under a trace of 4 KiB writes): each costs a page. */
		uint64_t nreq = st.r.reads + st.r.writes + st.r.discards;
		if (m[i]->opt.timing && st.page_size > 4096 && nreq && st.r.unaligned * 2 > nreq)
			MWARN("warning: %s%s%.0f%% of the requests are not whole pages of the device's %u KiB: a write of "
			     "less costs a whole page program (host_pages_written counts pages), a read a whole page's "
			     "(no write buffer gathers small writes into a page); --device NAME,page_kib=4 keeps the "
			     "requests' sizes, but each 4 KiB page then takes the profile's times of a %u KiB page "
			     "(tR, tPROG, and xfer_us unless given: a 4 KiB page's transfer is %.3g of it)",
			     what ? what : "", what ? ": " : "", 100.0 * (double)st.r.unaligned / (double)nreq,
			     st.page_size / 1024, st.page_size / 1024, 4096.0 / st.page_size);
		const struct dev_time *tm = m[i]->opt.timing && !m[i]->opt.tc.qd ? sim_time(m[i]) : NULL;
		if (tm && tm->requests > 1 && tm->t_last == tm->t_first && tm->reordered)
			MWARN("warning: %s%sall %llu requests arrived at the same time: %llu had times before an earlier "
			     "event's (the trace is not in time order) and were served at that time; --sort orders the trace",
			     what ? what : "", what ? ": " : "", (unsigned long long)tm->requests,
			     (unsigned long long)tm->reordered);
		else if (tm && tm->requests > 1 && tm->t_last == tm->t_first)
			MWARN("warning: %s%sall %llu requests arrived at the same time (a trace without times?): the open "
			     "loop served them as one burst; give --qd N for a closed loop", what ? what : "",
			     what ? ": " : "", (unsigned long long)tm->requests);
		/* Times in whole seconds or milliseconds (Tencent's are
		 * seconds): a tick's requests arrive at once, a burst whose
		 * queue the latencies hold, not the device's. */
		else if (tm && tm->requests > 100 && tm->tick_ms == tm->requests && tm->same_instant > tm->requests / 2)
			MWARN("warning: %s%sthe trace's times are whole %s and %.0f%% of the requests arrived at the time "
			     "of the one before: each tick's requests reach the device at once, and their latencies "
			     "include the burst's queue (an upper bound); give --qd N for a closed loop",
			     what ? what : "", what ? ": " : "", tm->tick_s == tm->requests ? "seconds" : "milliseconds",
			     100.0 * (double)tm->same_instant / (double)tm->requests);
		/* An open loop the device cannot keep up with: the latencies
		 * grow with the run, whatever the trace's own pattern. */
		if (tm && tm->requests > 1 && tm->t_last > tm->t_first && tm->t_end > tm->t_last &&
		    tm->t_end - tm->t_last > 1000000000ull && tm->t_end - tm->t_last > (tm->t_last - tm->t_first) / 10)
			MWARN("warning: %s%sthe device fell behind the trace: its last request completed %.3g s after the "
			     "last arrival (the arrivals span %.3g s): requests came faster than it serves them, and the "
			     "latencies grow with the run; slow the trace (--time-scale) or give --qd N for a closed loop",
			     what ? what : "", what ? ": " : "", (double)(tm->t_end - tm->t_last) / 1e9,
			     (double)(tm->t_last - tm->t_first) / 1e9);
		/* ...or for a while only, and caught up in the trace's idle
		 * time: the latencies then are mostly the backlog's */
		else if (tm && tm->requests > 1 && tm->t_last > tm->t_first && tm->behind_max > 1000000000ull &&
			 tm->behind_max > (tm->t_last - tm->t_first) / 100)
			MWARN("warning: %s%sthe device fell behind the trace for a while: a request arriving %.3g s into it "
			     "found %.3g s of earlier requests' work still to complete (the arrivals span %.3g s); the "
			     "latencies there are mostly that backlog's (timing.behind_max_s; --timeline shows when): "
			     "slow the trace (--time-scale), give the device more dies, or give --qd N for a closed loop",
			     what ? what : "", what ? ": " : "", (double)(tm->behind_at - tm->t_first) / 1e9,
			     (double)tm->behind_max / 1e9, (double)(tm->t_last - tm->t_first) / 1e9);
		/* A window the PTS rule accepts while the device was still
		 * slowing: rounds too short for it to show. */
		double wi, li, rs;
		if (sim_time_steady(m[i], &wi, &li, &rs) && li > 0 && wi > 1.2 * li)
			MWARN("warning: %s%sthe steady-state window's %.0f IOPS are %.0f%% above the last five rounds' %.0f: "
			     "the device was still slowing; rounds of %g s are too short for the PTS rule to see it "
			     "(--timeline-interval; the PTS's rounds are a pass of its whole test, minutes of I/O)",
			     what ? what : "", what ? ": " : "", wi, 100 * (wi - li) / li, li, rs);
		/* A timeline of mostly empty rows: the interval is far shorter
		 * than the gaps between requests. */
		const struct dev_time *tt = m[i]->opt.timing && s->opt.timeline_path ? sim_time(m[i]) : NULL;
		if (tt && tt->nrows > 100000 && tt->nrows / 100 > tt->requests && !tt->rows_noted)
			MWARN("warning: %s%sthe timeline has %zu rows for %llu requests, most of them empty: a longer "
			     "--timeline-interval (now %g ms) gives rows that say something",
			     what ? what : "", what ? ": " : "", tt->nrows, (unsigned long long)tt->requests,
			     (double)tt->cfg.timeline_ns / 1e6);
		/* Idle-time GC that never ran: no idle period came while it
		 * had work (the cleaning came first, or the trace has no gap
		 * that long). */
		if (m[i]->opt.timing && m[i]->opt.tc.bg_high && !st.bg_victims && st.c.victims &&
		    m[i]->opt.tc.bg_high >= st.gc_low) /* (else said at the start: foreground GC keeps that many) */
			MWARN("warning: %s%sidle-time GC (--bg-gc idle=%g,high=%u) cleaned none of the %llu victims: no %g ms "
			     "without a request came while fewer than %u segments were free (the cleaning came before the "
			     "trace's idle periods, or it has none that long: tracestat gives its gaps); every victim was "
			     "foreground GC's", what ? what : "", what ? ": " : "", m[i]->opt.tc.bg_idle_ms,
			     m[i]->opt.tc.bg_high, (unsigned long long)st.c.victims, m[i]->opt.tc.bg_idle_ms,
			     m[i]->opt.tc.bg_high);
		if (st.bg_victims && !s->opt.quiet)
			NOTE("%s%sbackground GC cleaned %llu of the %llu victims in idle time: it cleans earlier, "
			     "fuller victims than foreground GC would, so WA differs from a foreground-only run's",
			     what ? what : "", what ? ": " : "", (unsigned long long)st.bg_victims,
			     (unsigned long long)st.c.victims);
		if (st.gp_watermark_passes)
			MWARN("warning: %s%sunder --gc-trigger gp:%g, %llu of the %llu GC passes (gc_passes: the "
			     "trigger's operations and these) ran because the free "
			     "segments fell to the watermark before the garbage passed %g of the space written "
			     "(the spare space is about that or less): they cleaned any segment, and WA mixes the "
			     "two triggers (gp_watermark_passes)",
			     what ? what : "", what ? ": " : "", st.gp_max, (unsigned long long)st.gp_watermark_passes,
			     (unsigned long long)st.gc_passes, st.gp_max);
	}
	unsigned built = 0;
	for (unsigned i = 0; i < n; i++)
		if (m[i]->cell.dev) {
			sim_finish_outputs(m[i]);
			built++;
		}
	if (built && built < n) {
		unsigned small = 0; /* skipped before any was built (the memory line counted the rest) */
		for (unsigned i = 0; i < n; i++)
			small += m[i]->cell.vol && m[i]->cell.vol->skip;
		warn("%u of the %u models ran; %u were skipped: %u too small for the geometry before the run, %u "
		     "refused when built (the summary's \"skipped\" lists each and why)", built, n, n - built, small,
		     n - built - small);
		/* a configuration none of whose volumes ran, each refused when
		 * built: the configuration's fault, most likely, not theirs */
		for (unsigned c = 0; s->opt.grid.naxes && c < s->opt.grid.nconf; c++) {
			unsigned ran = 0, refused = 0;
			const struct sim *r = NULL;
			for (unsigned i = 0; i < n; i++)
				if (m[i]->cell.conf == c) {
					ran += !!m[i]->cell.dev;
					if (!m[i]->cell.dev && !(m[i]->cell.vol && m[i]->cell.vol->skip) && m[i]->cell.skip) {
						refused++;
						r = r ? r : m[i];
					}
				}
			char label[512];
			if (!ran && refused && r)
				warn("warning: %s: every volume was refused when built (%u), the first because: %s",
				     sim_axes_label(s, r, label, sizeof(label)), refused, r->cell.skip);
		}
	}
	if (!built && n)
		warn("warning: every model was skipped (%u; the summary's \"skipped\" says why)%s%s%s", n,
		     s->opt.results_path ? ": " : "", s->opt.results_path ? s->opt.results_path : "",
		     s->opt.results_path ? " is empty, without a header" : "");
	said_flush(m, n);
	sim_write_results(s, m, n);
	if (s->opt.per_volume)
		sim_time_volumes_latency(s, m, n);
}

/* m: the models run (per volume: a copy of each configuration per
 * volume), conf: the configurations (m itself without --per-volume). */
static void free_models(struct sim *s, struct sim **m, unsigned n, struct sim **conf, unsigned nconf,
			struct sim **one)
{
	sim_close_input(s);
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.host)
			m[i]->cell.hops->close(m[i]->cell.host);
		if (m[i]->cell.dev)
			m[i]->cell.dops->close(m[i]->cell.dev);
		free(m[i]->cell.skip);
		if (m[i] != s) {
			ftl_pagemap_free(&m[i]->cell.map);
			if (conf == m) /* (per volume: the configuration's, below) */
				free(m[i]->cell.paths);
			free(m[i]);
		}
	}
	if (conf != m) {
		for (unsigned i = 0; i < nconf; i++)
			if (conf[i] != s) {
				free(conf[i]->cell.paths);
				free(conf[i]);
			}
		free(m);
	}
	if (conf != one)
		free(conf);
	sim_volumes_free(s);
	sim_free_grid(s);
}

int main(int argc, char **argv)
{
	static struct sim s; /* the input, and without --grid the one model */
	struct sim *one = &s, **conf = &one, **m;
	unsigned nconf = 1, n;
	sig_init(); /* first: a signal from here on stops with a summary */
	/* A fixed mmap threshold: glibc otherwise raises it after the first
	 * large free, and later large blocks come from the heap, which keeps
	 * what is freed resident: the peak would outgrow the estimate. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	prog_init(argv[0]);
	sim_defaults(&s);
	sim_parse_args(&s, argc, argv);
	if (s.opt.grid.naxes)
		conf = sim_grid_models(&s, &nconf);
	sim_finish_args(&s);
	sim_check_files(&s, conf, nconf);
	s.cell.space_owner = &s;
	m = conf, n = nconf;
	g_in = &s, g_models = m, g_n = n;
	sim_watch(&s, m, n);
	s.run.t0 = sim_now();
	s.run.last_progress = s.run.t0; /* the first line --progress seconds in */
	if (s.opt.dry_run && !s.opt.grid.naxes && !s.opt.per_volume) {
		sim_dry_run(&s);
		return EXIT_OK;
	}
	if (sim_needs_pass1(conf, nconf))
		sim_measure_space(&s, conf, nconf);
	else {
		if (s.opt.fp_path)
			warn("warning: --footprints %s is not read: the logical space is given (--logical-pages or "
			     "--capacity), so no first pass is needed",
			     s.opt.fp_path);
		sim_open_trace(&s);
	}
	if (sim_interrupted) {
		sim_print_unstarted(&s);
		fflush(stdout);
		free_models(&s, m, n, conf, nconf, &one);
		return sig_status();
	}
	sim_check_input(&s, conf, nconf);
	if (s.opt.per_volume) {
		m = sim_volume_models(&s, conf, nconf, &n);
		g_models = m, g_n = n;
		sim_watch(&s, m, n);
	}
	if (s.opt.dry_run) {
		sim_dry_run_models(&s, m, n, nconf);
		free_models(&s, m, n, conf, nconf, &one);
		return EXIT_OK;
	}
	start_models(&s, m, n, nconf);
	sim_replay(&s, m, n);
	if (!sim_interrupted && !s.in.cut[0])
		end_hosts(&s, m, n);
	if (sim_interrupted || s.in.cut[0]) {
		/* Stopped, or the input cut short (its writer failed): the
		 * summary of what was replayed, partial; no output file. */
		if (!sim_interrupted)
			warn("%s", s.in.cut);
		said_flush(m, n); /* (per volume: what the models said when built) */
		sim_abort_all();
		report(&s, m, n, nconf, 1);
		free_models(&s, m, n, conf, nconf, &one);
		return sim_interrupted ? sig_status() : EXIT_DATA;
	}
	finish(&s, m, n);
	/* every file written whole before any is renamed: a write that
	 * fails (a full disk) leaves none of them (sim_fail removes the
	 * temporaries), not those of the models before it */
	for (unsigned i = 0; i < n && !sim_interrupted; i++)
		if (m[i]->cell.dev)
			sim_close_outputs(m[i]);
	if (!sim_interrupted)
		sim_close_outputs(&s);
	if (sim_interrupted) {
		/* stopped while the files were written: none of them */
		sim_abort_all();
		report(&s, m, n, nconf, 1);
		free_models(&s, m, n, conf, nconf, &one);
		return sig_status();
	}
	for (unsigned i = 0; i < n; i++)
		if (m[i]->cell.dev)
			sim_commit_outputs(m[i]);
	sim_commit_outputs(&s); /* --results (the other files of one run: once) */
	report(&s, m, n, nconf, 0);
	free_models(&s, m, n, conf, nconf, &one);
	return EXIT_OK;
}
