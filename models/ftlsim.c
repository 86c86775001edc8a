/*
 * ftlsim - replay a block trace through the FTL model and report what
 * the garbage collector did: a JSON summary on stdout, and on request
 * CSV curves and histograms. The model's rules: docs/MODEL.md.
 *
 *   ftlsim [options] [TRACE]      (TRACE: any trace file, - for stdin)
 *
 * This file holds main() and the replay loop; the command line is in
 * ftlsim_cli.c, the input passes in ftlsim_input.c, the CSV files and
 * the JSON summary in ftlsim_report.c.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ftlsim.h"
#include "place.h"

static struct sim *g_sim;

double sim_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

_Noreturn void sim_fail(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (g_sim)
		sim_abort_outputs(g_sim);
	if (g_sim && g_sim->progress_shown)
		fputc('\n', stderr);
	die(EXIT_DATA, "%s", msg);
}

/* "1:02:03" */
static void hms(char *buf, size_t n, double sec)
{
	unsigned long t = sec > 0 && sec < 1e9 ? (unsigned long)(sec + 0.5) : 0;
	snprintf(buf, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

/* Every --progress seconds: the fraction of the input read and the time
 * left when its size is known, events a second, host pages written and
 * the WA so far. On a terminal one line rewritten; otherwise whole
 * lines, which a batch job's log keeps. */
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
	if (pass == 1 || !s->f) {
		fprintf(stderr, "%s%s: %s%llu events, %.3g events/s%s", s->progress_tty ? "\r" : "",
			prog_name, frac, (unsigned long long)n, rate, s->progress_tty ? "   " : "\n");
		return;
	}
	double wa = ftl_wa(&s->f->c, &(struct ftl_counts){0});
	fprintf(stderr, "%s%s: %s%llu events, %.3g events/s, %llu host pages, WA %.3f%s",
		s->progress_tty ? "\r" : "", prog_name, frac, (unsigned long long)n, rate,
		(unsigned long long)s->f->c.host_pages, wa < 0 ? 0 : wa, s->progress_tty ? "   " : "\n");
}

static void build_model(struct sim *s)
{
	char err[1024];
	uint64_t U = s->cfg.logical_pages;
	s->cfg.physical_pages = sim_physical_pages(s);
	sim_check_memory(s);
	s->f = ftl_new(&s->cfg, err, sizeof(err));
	if (!s->f) {
		/* The model refuses only its parameters (geometry, policy
		 * arguments, watermarks): a usage error, unless memory ran out. */
		if (strstr(err, "out of memory"))
			sim_fail("%s", err);
		usage_error("%s", err);
	}
	struct ftl *f = s->f;
	f->map = s->space == SPACE_FOOTPRINT ? &s->map : NULL;
	f->interval = s->interval_set ? s->interval : (U / 10 ? U / 10 : 1);
	f->snapshot_every = s->snapshot_every;
	f->on_interval = sim_curve_row;
	f->on_snapshot = sim_snapshot;
	f->cb_ctx = s;
	if (ftl_tick(f))
		sim_fail("%s", f->err);
}

/* Prefetch hints (ftl.h) for an upcoming write: stage 1 the map line,
 * 2 the segment record it points into, 3 that record's neighbours. */
static void hint(const struct sim *s, const struct ev *e, int stage)
{
	uint64_t page = e->offset / s->f->page_size;
	if (e->op != EV_WRITE || s->f->map || page >= s->f->U)
		return;
	if (stage == 1)
		ftl_prefetch(s->f, (uint32_t)page);
	else if (stage == 2)
		ftl_prefetch_seg(s->f, (uint32_t)page);
	else
		ftl_prefetch_links(s->f, (uint32_t)page);
}

/* Events go through a ring of LOOK so that each write's map entry is
 * prefetched LOOK events before the model needs it, its segment record
 * LOOK/2 and the record's neighbours LOOK/4. */
static void replay(struct sim *s)
{
	enum { LOOK = 32 };
	struct ev ring[LOOK];
	unsigned n = 0, head = 0;
	int more = 1;
	s->pass_t0 = sim_now();
	while (!sim_interrupted) {
		while (more && n < LOOK) {
			struct ev *e = &ring[(head + n) % LOOK];
			if ((more = sim_next_event(s, e) > 0)) {
				hint(s, e, 1);
				n++;
			}
		}
		if (!n)
			break;
		if (n > LOOK / 2)
			hint(s, &ring[(head + LOOK / 2) % LOOK], 2);
		if (n > LOOK / 4)
			hint(s, &ring[(head + LOOK / 4) % LOOK], 3);
		if (ftl_request(s->f, &ring[head]))
			sim_fail("%s: event %llu: %s", s->path, (unsigned long long)s->events + 1, s->f->err);
		head = (head + 1) % LOOK;
		n--;
		if ((++s->events & 0xffff) == 0 && s->progress_every > 0)
			sim_progress(s, 2);
	}
	if (s->t)
		cli_report_bad(s->t, s->path);
	if (s->progress_shown)
		fputc('\n', stderr);
	if (s->volumes_mixed && !sim_interrupted)
		warn("%s: events of several volumes share one logical space (choose one with --volume)",
		     s->path);
}

int main(int argc, char **argv)
{
	static struct sim s;
	prog_init(argv[0]);
	sim_defaults(&s);
	sim_parse_args(&s, argc, argv);
	g_sim = &s;
	sig_init();
	s.t0 = sim_now();
	if (s.dry_run) {
		sim_dry_run(&s);
		return EXIT_OK;
	}
	if (s.space == SPACE_GIVEN)
		sim_open_trace(&s);
	else
		sim_measure_space(&s);
	if (sim_interrupted) {
		sim_print_unstarted(&s);
		fflush(stdout);
		return sig_status();
	}
	build_model(&s);
	sim_open_outputs(&s);
	if (s.f->place->info.flags & PLACE_FUTURE)
		sim_learn_pass(&s);
	if (ftl_precondition(s.f, s.precond))
		sim_fail("%s", s.f->err);
	replay(&s);
	if (sim_interrupted) {
		sim_abort_outputs(&s);
		sim_print_summary(&s, 1);
		fflush(stdout);
		sim_close_input(&s);
		ftl_free(s.f);
		return sig_status();
	}
	if (s.cfg.warmup_writes && !s.f->measuring)
		warn("warning: the trace ended within the %llu warm-up page writes: wa_measured is null",
		     (unsigned long long)s.cfg.warmup_writes);
	else if (s.cfg.warmup_writes && !s.quiet)
		warn("measured window: host page writes %llu to %llu (the last %llu of %llu; the trace's writes "
		     "count from its first, those of a tracegen --fill included)",
		     (unsigned long long)s.f->c0.host_pages + 1, (unsigned long long)s.f->c.host_pages,
		     (unsigned long long)(s.f->c.host_pages - s.f->c0.host_pages),
		     (unsigned long long)s.f->c.host_pages);
	if (s.f->c.host_pages && !s.f->c.gc_pages && !s.f->c.wl_pages && s.precond == 0)
		warn("warning: GC copied no page, so WA is 1: the replay never filled the drive with valid "
		     "data; fill it first (--precondition seq or random) or replay a longer trace");
	sim_finish_outputs(&s);
	sim_print_summary(&s, 0);
	sim_close_input(&s);
	ftl_free(s.f);
	return EXIT_OK;
}
