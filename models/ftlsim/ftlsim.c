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
 * ftlsim_report.c.
 */
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

static void abort_all(void)
{
	for (unsigned i = 0; i < g_n; i++)
		sim_abort_outputs(g_models[i]);
	if (g_in)
		out_abort(&g_in->results);
}

static _Noreturn void fail_v(int code, const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	abort_all();
	if (g_in && g_in->progress_shown)
		fputc('\n', stderr);
	if (code == EXIT_USAGE)
		die(code, "%s\nTry '%s --help'.", msg, prog_name);
	die(code, "%s", msg);
}

_Noreturn void sim_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(EXIT_DATA, fmt, ap);
}

_Noreturn void sim_fail_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(EXIT_USAGE, fmt, ap);
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
	if (t - s->last_progress < s->progress_every)
		return;
	s->last_progress = t;
	s->progress_shown = s->progress_tty;
	uint64_t n = pass == 1 ? s->events_pass1 : s->events, done, total;
	double dt = t - s->pass_t0, rate = dt > 0 ? n / dt : 0;
	char frac[96] = "", eta[32];
	if (s->t && !s->from_buf && !trace_position(s->t, &done, &total) && total) {
		double f = (double)done / (double)total;
		hms(eta, sizeof(eta), f > 0 ? dt * (1 - f) / f : 0);
		snprintf(frac, sizeof(frac), "%5.1f%%, ETA %s%s, ", 100 * f, eta,
			 pass == 1 ? " (pass 1 of 2)" : "");
	} else if (pass == 1) {
		snprintf(frac, sizeof(frac), "pass 1 of 2, ");
	}
	if (pass == 1 || !g_n || !g_models[0]->dev) {
		fprintf(stderr, "%s%s: %s%llu events, %.3g events/s%s", s->progress_tty ? "\r" : "",
			prog_name, frac, (unsigned long long)n, rate, s->progress_tty ? "   " : "\n");
		return;
	}
	struct ftl_counts c = {0};
	for (unsigned i = 0; i < g_n; i++) {
		struct dev_stats st;
		if (!g_models[i]->dev)
			continue;
		sim_stats(g_models[i], &st);
		c.host_pages += st.c.host_pages;
		c.gc_pages += st.c.gc_pages;
		c.wl_pages += st.c.wl_pages;
	}
	double wa = ftl_wa(&c, &(struct ftl_counts){0});
	fprintf(stderr, "%s%s: %s%llu events, %.3g events/s, %llu host pages, WA %.3f%s",
		s->progress_tty ? "\r" : "", prog_name, frac, (unsigned long long)n, rate,
		(unsigned long long)c.host_pages, wa < 0 ? 0 : wa, s->progress_tty ? "   " : "\n");
}

static void build_model(const struct sim *in, struct sim *s)
{
	char err[1024], label[512];
	uint64_t U = s->cfg.logical_pages;
	s->cfg.physical_pages = sim_physical_pages(s);
	struct dev_config dc = {
		.ftl = s->cfg,
		.timing = s->timing ? &s->tc : NULL,
		.map = s->space != SPACE_FOOTPRINT ? NULL : s->vol ? &s->vol->map : &s->space_owner->map,
		.obs = {.interval = s->interval_set ? s->interval : (U / 10 ? U / 10 : 1),
			.snapshot_every = s->snapshot_every,
			.on_interval = sim_curve_row,
			.on_snapshot = sim_snapshot,
			.ctx = s}};
	s->dops = s->timing ? &dev_time_ops : &dev_ftl_ops;
	s->dev = s->dops->open(&dc, err, sizeof(err));
	if (!s->dev) {
		/* The model refuses only its parameters (geometry, policy
		 * arguments, watermarks): a usage error, unless memory ran out. */
		const char *what = in->grid.naxes || in->per_volume ? sim_conf_label(in, s, label, sizeof(label)) : NULL;
		if (strstr(err, "out of memory"))
			sim_fail("%s%s%s", what ? what : "", what ? ": " : "", err);
		if (s->vol) { /* a volume too small for the geometry: listed, not fatal */
			if (!(s->skip = strdup(err)))
				sim_fail("out of memory");
			return;
		}
		usage_error("%s%s%s", what ? what : "", what ? ": " : "", err);
	}
	/* The TRIM host on every device: online by default, the trace's
	 * discards as they are (docs/MODEL.md, "The TRIM host"). */
	char spec[512];
	s->trim.seed = s->cfg.seed;
	s->hops = &host_trim_ops;
	if (trim_config_format(&s->trim, spec, sizeof(spec)) ||
	    !(s->host = s->hops->open(spec, s->dev, s->dops, err, sizeof(err))))
		sim_fail("%s", err);
	if (s->flashops_path && s->dops->flash_observe(s->dev, sim_flash_op, s))
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
	const struct reader_ops *r = reader_find(in->format);
	if (!r || (r->flags & RD_TEMP))
		return;
	for (unsigned i = 0; i < nconf; i++) {
		char err[256];
		const struct place_ops *p = place_find(conf[i]->cfg.placement, NULL, err, sizeof(err));
		if (p && (p->info.flags & PLACE_TEMP))
			usage_error("placement '%s' reads the trace's temperature labels, and format '%s' has none "
				    "(the event stream carries them: tracegen writes them)",
				    p->info.name, r->name);
	}
}

/* Standard input read twice is replayed from a buffer that keeps no
 * times (struct cev): a TRIM host that batches or delays by the trace's
 * time would see none pass. A usage error, before any model is built. */
static void check_times(const struct sim *in, struct sim *const *conf, unsigned nconf)
{
	char mode[64];
	for (unsigned i = 0; in->from_buf && i < nconf; i++)
		if (conf[i]->trim.mode != TRIM_ONLINE)
			sim_fail_usage("--trim-mode %s goes by the trace's times, and standard input read twice is "
				       "replayed without them: name a file (or give --logical-pages, read once)",
				       trim_mode_name(&conf[i]->trim, mode, sizeof(mode)));
}

static void start_models(struct sim *s, struct sim **m, unsigned n, unsigned nconf)
{
	for (unsigned i = 0; i < n; i++)
		m[i]->cfg.physical_pages = sim_physical_pages(m[i]);
	sim_check_memory(s, m, n, nconf);
	int learn = 0;
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->vol && m[i]->vol->skip)
			continue;
		build_model(s, m[i]);
		if (!m[i]->dev)
			continue;
		sim_open_outputs(m[i]);
		struct dev_stats st;
		sim_stats(m[i], &st);
		m[i]->learns = !!(st.flags & DEV_LEARNS);
		learn |= m[i]->learns;
	}
	sim_open_results(s);
	if (learn)
		sim_learn_pass(s, m, n);
	for (unsigned i = 0; i < n; i++)
		if (m[i]->dev && m[i]->dops->precondition(m[i]->dev, m[i]->precond))
			sim_fail("%s", m[i]->dops->error(m[i]->dev));
}

/* The trace has ended: what each host layer holds (a batch, delayed
 * discards) goes to its device. */
static void end_hosts(const struct sim *s, struct sim **m, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char label[512];
		if (!m[i]->host || !m[i]->hops->end(m[i]->host))
			continue;
		if (s->grid.naxes || s->per_volume)
			sim_fail("%s: at the end of the trace: %s: %s", s->path, sim_conf_label(s, m[i], label, sizeof(label)),
				 m[i]->hops->error(m[i]->host));
		sim_fail("%s: at the end of the trace: %s", s->path, m[i]->hops->error(m[i]->host));
	}
}

static void report(struct sim *s, struct sim **m, unsigned n, unsigned nconf, int partial)
{
	if (s->per_volume)
		sim_print_volume_summary(s, m, n, nconf, partial);
	else if (s->grid.naxes)
		sim_print_grid_summary(s, m, n, partial);
	else
		sim_print_summary(s, partial);
	fflush(stdout);
}

/* The end of a complete run: final rows, files renamed into place. The
 * per-model warnings are for a grid or a single run; per volume they
 * would be thousands (the summary lists what matters). */
static void finish(struct sim *s, struct sim **m, unsigned n)
{
	for (unsigned i = 0; i < n && !s->per_volume; i++) {
		char label[512];
		const char *what = s->grid.naxes ? sim_conf_label(s, m[i], label, sizeof(label)) : NULL;
		struct dev_stats st;
		sim_stats(m[i], &st);
		if (m[i]->cfg.warmup_writes && !st.measuring)
			warn("warning: %s%sthe trace ended within the %llu warm-up page writes: wa_measured is null",
			     what ? what : "", what ? ": " : "", (unsigned long long)m[i]->cfg.warmup_writes);
		else if (m[i]->cfg.warmup_writes && !s->quiet)
			warn("%s%smeasured window: host page writes %llu to %llu (the last %llu of %llu; the trace's "
			     "writes count from its first, those of a tracegen --fill included)",
			     what ? what : "", what ? ": " : "", (unsigned long long)st.c0.host_pages + 1,
			     (unsigned long long)st.c.host_pages, (unsigned long long)(st.c.host_pages - st.c0.host_pages),
			     (unsigned long long)st.c.host_pages);
		if (st.c.host_pages && !st.c.gc_pages && !st.c.wl_pages && m[i]->precond == 0)
			warn("warning: %s%sGC copied no page, so WA is 1: the replay never filled the drive with "
			     "valid data; fill it first (--precondition seq or random) or replay a longer trace",
			     what ? what : "", what ? ": " : "");
		if (st.bg_victims && !s->quiet)
			warn("%s%sbackground GC cleaned %llu of the %llu victims in idle time: it cleans earlier, "
			     "fuller victims than foreground GC would, so WA differs from a foreground-only run's",
			     what ? what : "", what ? ": " : "", (unsigned long long)st.bg_victims,
			     (unsigned long long)st.c.victims);
		if (st.gp_watermark_passes)
			warn("warning: %s%sunder --gc-trigger gp:%g, %llu of the %llu GC passes (gc_passes: the "
			     "trigger's operations and these) ran because the free "
			     "segments fell to the watermark before the garbage passed %g of the space written "
			     "(the spare space is about that or less): they cleaned any segment, and WA mixes the "
			     "two triggers (gp_watermark_passes)",
			     what ? what : "", what ? ": " : "", st.gp_max, (unsigned long long)st.gp_watermark_passes,
			     (unsigned long long)st.gc_passes, st.gp_max);
	}
	unsigned built = 0;
	for (unsigned i = 0; i < n; i++)
		if (m[i]->dev) {
			sim_finish_outputs(m[i]);
			built++;
		}
	if (!built && n)
		warn("warning: every model was skipped (%u; the summary's \"skipped\" says why)%s%s%s", n,
		     s->results_path ? ": " : "", s->results_path ? s->results_path : "",
		     s->results_path ? " is empty, without a header" : "");
	sim_write_results(s, m, n);
}

/* m: the models run (per volume: a copy of each configuration per
 * volume), conf: the configurations (m itself without --per-volume). */
static void free_models(struct sim *s, struct sim **m, unsigned n, struct sim **conf, unsigned nconf,
			struct sim **one)
{
	sim_close_input(s);
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->host)
			m[i]->hops->close(m[i]->host);
		if (m[i]->dev)
			m[i]->dops->close(m[i]->dev);
		free(m[i]->skip);
		if (m[i] != s) {
			ftl_pagemap_free(&m[i]->map);
			free(m[i]);
		}
	}
	if (conf != m) {
		for (unsigned i = 0; i < nconf; i++)
			if (conf[i] != s)
				free(conf[i]);
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
	prog_init(argv[0]);
	sim_defaults(&s);
	sim_parse_args(&s, argc, argv);
	if (s.grid.naxes)
		conf = sim_grid_models(&s, &nconf);
	sim_finish_args(&s);
	s.space_owner = &s;
	m = conf, n = nconf;
	g_in = &s, g_models = m, g_n = n;
	s.t0 = sim_now();
	if (s.dry_run && !s.grid.naxes && !s.per_volume) {
		sim_dry_run(&s);
		return EXIT_OK;
	}
	if (sim_needs_pass1(conf, nconf))
		sim_measure_space(&s, conf, nconf);
	else
		sim_open_trace(&s);
	if (sim_interrupted) {
		sim_print_unstarted(&s);
		fflush(stdout);
		free_models(&s, m, n, conf, nconf, &one);
		return sig_status();
	}
	check_labels(&s, conf, nconf);
	check_times(&s, conf, nconf);
	if (s.per_volume) {
		m = sim_volume_models(&s, conf, nconf, &n);
		g_models = m, g_n = n;
	}
	if (s.dry_run) {
		sim_dry_run_models(&s, m, n, nconf);
		free_models(&s, m, n, conf, nconf, &one);
		return EXIT_OK;
	}
	start_models(&s, m, n, nconf);
	sim_replay(&s, m, n);
	if (!sim_interrupted && !s.cut[0])
		end_hosts(&s, m, n);
	if (sim_interrupted || s.cut[0]) {
		/* Stopped, or the input cut short (its writer failed): the
		 * summary of what was replayed, partial; no output file. */
		if (!sim_interrupted)
			warn("%s", s.cut);
		abort_all();
		report(&s, m, n, nconf, 1);
		free_models(&s, m, n, conf, nconf, &one);
		return sim_interrupted ? sig_status() : EXIT_DATA;
	}
	finish(&s, m, n);
	report(&s, m, n, nconf, 0);
	free_models(&s, m, n, conf, nconf, &one);
	return EXIT_OK;
}
