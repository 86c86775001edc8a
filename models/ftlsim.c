/*
 * ftlsim - replay a block trace through the FTL model and report what
 * the garbage collector did: a JSON summary on stdout, and on request
 * CSV curves and histograms. The model's rules: docs/MODEL.md.
 *
 *   ftlsim [options] [TRACE]      (TRACE: any trace file, - for stdin)
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli_trace.h"
#include "ftl.h"
#include "ftlkit.h"
#include "gc.h"
#include "place.h"

enum space { SPACE_GIVEN, SPACE_EXTENT, SPACE_FOOTPRINT };
enum phys { PHYS_OP, PHYS_SF, PHYS_PAGES };

/* A buffered event (stdin read twice): 16 bytes. */
struct cev {
	uint64_t offset;
	uint32_t length;
	uint8_t op, temp;
};

struct sim {
	struct trace_opts topt;
	const char *path;
	struct ftl_config cfg;
	int space;
	uint64_t capacity;
	int phys_kind;
	double phys_val;
	uint64_t phys_pages;
	int precond;
	const char *wear;
	uint64_t interval, snapshot_every;
	int interval_set;
	const char *curve_path, *hist_path, *erase_path;
	struct outfile curve, hist, ehist;
	uint64_t snapshots;
	/* input */
	struct trace *t;
	const char *format;
	struct cev *buf;
	size_t nbuf, capbuf, next;
	int from_buf; /* pass 2 replays the buffer */
	struct ftl_pagemap map;
	uint64_t events, events_pass1;
	uint32_t volume0;
	int volumes_mixed, have_volume0;
	/* run */
	struct ftl *f;
	double t0;
	double last_progress;
	int progress_shown;
};

static struct sim *g_sim;
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void abort_outputs(struct sim *s)
{
	out_abort(&s->curve);
	out_abort(&s->hist);
	out_abort(&s->ehist);
}

/* A data or runtime error: no half-written output file stays behind. */
static _Noreturn void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void fail(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (g_sim)
		abort_outputs(g_sim);
	if (g_sim && g_sim->progress_shown)
		fputc('\n', stderr);
	die(EXIT_DATA, "%s", msg);
}

/*
 * Usage.
 */

static void usage(void)
{
	printf("usage: %s [options] [TRACE]\n"
	       "Replay a block trace (any format, or - for stdin, the default) through an FTL\n"
	       "model; print a JSON summary on stdout. Rules: docs/MODEL.md.\n\n", prog_name);
	printf(CLI_TRACE_HELP);
	printf("  -q, --quiet          don't say which format was detected\n\n"
	       "Logical space (one of; default: from the trace, --logical-space extent):\n"
	       "      --logical-pages N     U logical pages\n"
	       "      --capacity BYTES      U = BYTES / page size (e.g. 16G)\n"
	       "      --logical-space extent|footprint\n"
	       "                            extent: page 0 to the largest offset touched;\n"
	       "                            footprint: the distinct pages written, renumbered\n"
	       "                            densely in first-write order (reads the trace twice;\n"
	       "                            stdin is buffered in memory, 16 bytes an event)\n"
	       "      --page-size BYTES     default 4096\n"
	       "      --out-of-range error|drop|clip\n"
	       "                            requests past U pages (default error)\n\n"
	       "Physical space (one of; default --op 0.07):\n"
	       "      --op X                T = U(1+X)\n"
	       "      --spare-factor S      T = U/(1-S)\n"
	       "      --physical-pages T\n"
	       "      --pages-per-segment B default 256; T is rounded down to whole segments\n\n"
	       "Garbage collection:\n"
	       "      --policy NAME[:ARG]   victim policy (default greedy; --list-policies)\n"
	       "      --placement NAME[:ARG] placement policy (default single; --list-placements)\n"
	       "      --gc-low N            start GC below N free segments (default: the\n"
	       "                            placement's GC streams)\n"
	       "      --gc-high N           clean until N are free (default: the low mark)\n"
	       "      --wear-level none|static:THRESHOLD\n"
	       "      --trim | --no-trim    discards invalidate pages (default) or are ignored\n"
	       "      --precondition none|seq|random  write every page once first (default none)\n"
	       "      --warmup-writes N     host page writes before measuring (wa_measured)\n"
	       "      --seed S              random policies and fills (default 1)\n\n"
	       "Output:\n"
	       "      --curve FILE.csv      a row every --interval host page writes (default U/10)\n"
	       "      --interval N\n"
	       "      --hist FILE.csv       victim utilization histogram, and sealed-segment\n"
	       "                            snapshots every --snapshot-every N host page writes\n"
	       "                            (default: one at the end)\n"
	       "      --snapshot-every N\n"
	       "      --erase-hist FILE.csv erase counts\n"
	       "      --check               verify the invariants after every GC pass (slow)\n"
	       "      --help, --version\n\n"
	       "Exit status: 0 ok, 1 data or runtime error, 2 usage error, 130 interrupted\n"
	       "(the partial summary is printed, marked \"partial\": true).\n");
}

static void list_policies(void)
{
	for (const struct gc_ops *const *p = gc_table; *p; p++)
		printf("%-10s %s\n", (*p)->name, (*p)->desc);
}

static void list_placements(void)
{
	for (const struct place_ops *const *p = place_table; *p; p++)
		printf("%-10s %s\n", (*p)->name, (*p)->desc);
}

enum {
	O_LPAGES = 2000, O_CAPACITY, O_SPACE, O_PAGESIZE, O_OOR, O_OP, O_SF, O_PPAGES, O_PPS,
	O_POLICY, O_PLACEMENT, O_GCLOW, O_GCHIGH, O_WEAR, O_TRIM, O_NOTRIM, O_PRECOND, O_WARMUP,
	O_SEED, O_CURVE, O_INTERVAL, O_HIST, O_SNAP, O_EHIST, O_CHECK, O_LISTPOL, O_LISTPLACE,
	O_HELP, O_VERSION
};

static const struct option longopts[] = {
	CLI_TRACE_LONGOPTS,
	{"quiet", no_argument, NULL, 'q'},
	{"logical-pages", required_argument, NULL, O_LPAGES},
	{"capacity", required_argument, NULL, O_CAPACITY},
	{"logical-space", required_argument, NULL, O_SPACE},
	{"page-size", required_argument, NULL, O_PAGESIZE},
	{"out-of-range", required_argument, NULL, O_OOR},
	{"op", required_argument, NULL, O_OP},
	{"spare-factor", required_argument, NULL, O_SF},
	{"physical-pages", required_argument, NULL, O_PPAGES},
	{"pages-per-segment", required_argument, NULL, O_PPS},
	{"policy", required_argument, NULL, O_POLICY},
	{"placement", required_argument, NULL, O_PLACEMENT},
	{"gc-low", required_argument, NULL, O_GCLOW},
	{"gc-high", required_argument, NULL, O_GCHIGH},
	{"wear-level", required_argument, NULL, O_WEAR},
	{"trim", no_argument, NULL, O_TRIM},
	{"no-trim", no_argument, NULL, O_NOTRIM},
	{"precondition", required_argument, NULL, O_PRECOND},
	{"warmup-writes", required_argument, NULL, O_WARMUP},
	{"seed", required_argument, NULL, O_SEED},
	{"curve", required_argument, NULL, O_CURVE},
	{"interval", required_argument, NULL, O_INTERVAL},
	{"hist", required_argument, NULL, O_HIST},
	{"snapshot-every", required_argument, NULL, O_SNAP},
	{"erase-hist", required_argument, NULL, O_EHIST},
	{"check", no_argument, NULL, O_CHECK},
	{"list-policies", no_argument, NULL, O_LISTPOL},
	{"list-placements", no_argument, NULL, O_LISTPLACE},
	{"help", no_argument, NULL, O_HELP},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

static uint32_t opt_u32(const char *opt, const char *arg, uint32_t lo, uint32_t hi)
{
	uint64_t v = opt_u64(opt, arg);
	if (v < lo || v > hi)
		usage_error("option '%s' must be %u..%u, not '%s'", opt, lo, hi, arg);
	return (uint32_t)v;
}

static int set_phys(struct sim *s, int kind, const char *opt, const char *arg)
{
	static int given;
	if (given++)
		usage_error("give only one of --op, --spare-factor, --physical-pages");
	s->phys_kind = kind;
	if (kind == PHYS_PAGES) {
		s->phys_pages = opt_u64(opt, arg);
		return 0;
	}
	s->phys_val = opt_double(opt, arg);
	if (kind == PHYS_OP && !(s->phys_val > 0))
		usage_error("--op must be above 0, not '%s'", arg);
	if (kind == PHYS_SF && !(s->phys_val > 0 && s->phys_val < 1))
		usage_error("--spare-factor must be between 0 and 1, not '%s'", arg);
	return 0;
}

static int parse_choice(const char *opt, const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	usage_error("option '%s' does not take '%s'", opt, arg);
}

static void opt_wear(struct sim *s, const char *arg)
{
	s->wear = arg;
	if (!strcmp(arg, "none")) {
		s->cfg.wear_threshold = 0;
		return;
	}
	uint64_t v;
	if (strncmp(arg, "static:", 7) || parse_u64(arg + 7, &v) || v < 1 || v > UINT32_MAX)
		usage_error("--wear-level takes none or static:THRESHOLD (THRESHOLD >= 1), not '%s'", arg);
	s->cfg.wear_threshold = (uint32_t)v;
}

static void check_policies(struct sim *s)
{
	char err[256];
	const char *arg;
	if (gc_table_check(err, sizeof(err)) || place_table_check(err, sizeof(err)))
		die(EXIT_DATA, "%s", err);
	if (!gc_find(s->cfg.policy, &arg))
		usage_error("unknown victim policy '%s' (see --list-policies)", s->cfg.policy);
	if (!place_find(s->cfg.placement, &arg))
		usage_error("unknown placement '%s' (see --list-placements)", s->cfg.placement);
}

static void one_space(void)
{
	static int given;
	if (given++)
		usage_error("give only one of --logical-pages, --capacity, --logical-space");
}

static int sim_opt(struct sim *s, int c, const char *arg)
{
	static const char *const spaces[] = {"given", "extent", "footprint", NULL};
	static const char *const oors[] = {"error", "drop", "clip", NULL};
	static const char *const preconds[] = {"none", "seq", "random", NULL};
	switch (c) {
	case 'q': s->topt.quiet = 1; break;
	case O_LPAGES:
		one_space();
		s->cfg.logical_pages = opt_u64("--logical-pages", arg);
		s->space = SPACE_GIVEN;
		break;
	case O_CAPACITY:
		one_space();
		s->capacity = opt_size("--capacity", arg);
		s->space = SPACE_GIVEN;
		break;
	case O_SPACE:
		one_space();
		s->space = parse_choice("--logical-space", arg, spaces);
		if (s->space == SPACE_GIVEN)
			usage_error("--logical-space takes extent or footprint; give a size with --logical-pages");
		break;
	case O_PAGESIZE:
		s->cfg.page_size = opt_u32("--page-size", arg, 512, 1u << 30);
		if (s->cfg.page_size & (s->cfg.page_size - 1))
			usage_error("--page-size must be a power of two >= 512, not '%s'", arg);
		break;
	case O_OOR: s->cfg.oor = parse_choice("--out-of-range", arg, oors); break;
	case O_OP: set_phys(s, PHYS_OP, "--op", arg); break;
	case O_SF: set_phys(s, PHYS_SF, "--spare-factor", arg); break;
	case O_PPAGES: set_phys(s, PHYS_PAGES, "--physical-pages", arg); break;
	case O_PPS: s->cfg.pages_per_seg = opt_u32("--pages-per-segment", arg, 2, 65536); break;
	case O_POLICY: s->cfg.policy = arg; break;
	case O_PLACEMENT: s->cfg.placement = arg; break;
	case O_GCLOW: s->cfg.gc_low = opt_u32("--gc-low", arg, 1, UINT32_MAX); break;
	case O_GCHIGH: s->cfg.gc_high = opt_u32("--gc-high", arg, 1, UINT32_MAX); break;
	case O_WEAR: opt_wear(s, arg); break;
	case O_TRIM: s->cfg.trim = 1; break;
	case O_NOTRIM: s->cfg.trim = 0; break;
	case O_PRECOND: s->precond = parse_choice("--precondition", arg, preconds); break;
	case O_WARMUP: s->cfg.warmup_writes = opt_u64("--warmup-writes", arg); break;
	case O_SEED: s->cfg.seed = opt_u64("--seed", arg); break;
	case O_CURVE: s->curve_path = arg; break;
	case O_INTERVAL: s->interval = opt_u64("--interval", arg); s->interval_set = 1;
		if (!s->interval)
			usage_error("--interval must be at least 1");
		break;
	case O_HIST: s->hist_path = arg; break;
	case O_SNAP: s->snapshot_every = opt_u64("--snapshot-every", arg); break;
	case O_EHIST: s->erase_path = arg; break;
	case O_CHECK: s->cfg.check = 1; break;
	case O_LISTPOL: list_policies(); exit(EXIT_OK);
	case O_LISTPLACE: list_placements(); exit(EXIT_OK);
	case 'h':
	case O_HELP: usage(); exit(EXIT_OK);
	case 'V':
	case O_VERSION: print_version(); exit(EXIT_OK);
	default: return 0;
	}
	return 1;
}

static void parse_args(struct sim *s, int argc, char **argv)
{
	int c;
	list_options(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "f:qhV", longopts, NULL)) != -1) {
		if (c == '?')
			usage_error("bad option");
		if (!cli_trace_opt(c, optarg, &s->topt) && !sim_opt(s, c, optarg))
			usage_error("bad option");
	}
	if (argc - optind > 1)
		usage_error("one trace at a time (got %d)", argc - optind);
	s->path = optind < argc ? argv[optind] : "-";
	if (optind == argc && isatty(0))
		usage_error("no trace: name a FILE, or pipe one in (- for stdin)");
	if (s->capacity) {
		if (s->capacity % s->cfg.page_size)
			usage_error("--capacity %llu is not a multiple of the page size %u",
				    (unsigned long long)s->capacity, s->cfg.page_size);
		s->cfg.logical_pages = s->capacity / s->cfg.page_size;
	}
	if (s->space == SPACE_GIVEN && !s->cfg.logical_pages)
		usage_error("the logical space is empty (0 pages)");
	if (s->snapshot_every && !s->hist_path)
		usage_error("--snapshot-every needs --hist");
	check_policies(s);
}

/*
 * Input: the trace, possibly twice (or buffered when it is stdin).
 */

static void open_trace(struct sim *s)
{
	char err[1024];
	s->t = trace_open(s->path, &s->topt, err, sizeof(err));
	if (!s->t)
		fail("%s", err);
	s->format = trace_format(s->t);
	s->topt.quiet = 1; /* a second opening says nothing */
}

static int buffered(const struct sim *s)
{
	return s->space != SPACE_GIVEN && !strcmp(s->path, "-");
}

/* 1 event, 0 end. Errors end the program. */
static int next_event(struct sim *s, struct ev *e)
{
	if (s->from_buf) {
		if (s->next >= s->nbuf)
			return 0;
		const struct cev *c = &s->buf[s->next++];
		*e = (struct ev){.offset = c->offset, .length = c->length, .op = c->op, .temp = c->temp};
		return 1;
	}
	int rc = trace_next(s->t, e);
	if (rc < 0)
		fail("%s", trace_error(s->t));
	if (rc && !s->have_volume0) {
		s->volume0 = e->volume;
		s->have_volume0 = 1;
	} else if (rc && e->volume != s->volume0) {
		s->volumes_mixed = 1;
	}
	return rc;
}

static void buffer_event(struct sim *s, const struct ev *e)
{
	if (s->nbuf == s->capbuf) {
		s->capbuf = s->capbuf ? 2 * s->capbuf : 1 << 16;
		struct cev *nb = realloc(s->buf, s->capbuf * sizeof(*nb));
		if (!nb)
			fail("out of memory buffering %zu events from standard input", s->nbuf);
		s->buf = nb;
	}
	s->buf[s->nbuf++] = (struct cev){e->offset, e->length, e->op, e->temp};
}

/* Pass 1: the logical space from the trace. */
static void measure_space(struct sim *s)
{
	uint64_t P = s->cfg.page_size, max_end = 0;
	struct ev e;
	if (s->space == SPACE_FOOTPRINT && ftl_pagemap_init(&s->map))
		fail("out of memory");
	open_trace(s);
	while (next_event(s, &e) > 0) {
		if (interrupted)
			return;
		s->events_pass1++;
		if (buffered(s))
			buffer_event(s, &e);
		if (!e.length || e.op == EV_FLUSH)
			continue;
		if (e.offset > UINT64_MAX - e.length - P)
			fail("%s: a request at byte %llu, length %u, ends past 2^64", s->path,
			     (unsigned long long)e.offset, e.length);
		uint64_t first = e.offset / P, end = (e.offset + e.length + P - 1) / P;
		if (end > max_end)
			max_end = end;
		if (s->space == SPACE_FOOTPRINT && e.op == EV_WRITE)
			for (uint64_t p = first; p < end; p++)
				if (ftl_pagemap_add(&s->map, p))
					fail("out of memory, or more than 2^32 distinct pages, in the footprint");
	}
	cli_report_bad(s->t, s->path);
	trace_close(s->t);
	s->t = NULL;
	s->cfg.logical_pages = s->space == SPACE_FOOTPRINT ? s->map.n : max_end;
	if (!s->cfg.logical_pages)
		fail("%s: the trace %s no page", s->path,
		     s->space == SPACE_FOOTPRINT ? "writes" : "touches");
	if (buffered(s))
		s->from_buf = 1;
	else
		open_trace(s);
}

/*
 * Output files.
 */

static FILE *fp_of(struct outfile *o) { return o->fp; }

static void open_out(struct outfile *o, const char *path, const char *header)
{
	char err[512];
	if (!path)
		return;
	if (out_open(o, path, err, sizeof(err)))
		fail("%s", err);
	fputs(header, fp_of(o));
}

static void print_ratio(FILE *fp, double x)
{
	if (x >= 0)
		fprintf(fp, "%.6f", x);
}

static int curve_row(struct ftl *f, void *ctx)
{
	struct sim *s = ctx;
	FILE *fp = fp_of(&s->curve);
	if (!fp)
		return 0;
	uint64_t nv = f->c.victims - f->ci.victims;
	fprintf(fp, "%llu,", (unsigned long long)f->c.host_pages);
	print_ratio(fp, ftl_wa(&f->c, &f->ci));
	fputc(',', fp);
	print_ratio(fp, ftl_wa(&f->c, &(struct ftl_counts){0}));
	fprintf(fp, ",%u,%llu,", f->nfree, (unsigned long long)nv);
	if (nv)
		print_ratio(fp, (double)(f->c.victim_valid - f->ci.victim_valid) / nv / f->b);
	fputc('\n', fp);
	return 0;
}

static void hist_rows(struct sim *s, const char *kind, uint64_t snap, const uint64_t *bins)
{
	FILE *fp = fp_of(&s->hist);
	for (uint32_t v = 0; v <= s->f->b; v++)
		fprintf(fp, "%s,%llu,%llu,%u,%.6f,%llu\n", kind, (unsigned long long)snap,
			(unsigned long long)s->f->c.host_pages, v, (double)v / s->f->b,
			(unsigned long long)bins[v]);
}

static int snapshot(struct ftl *f, void *ctx)
{
	struct sim *s = ctx;
	uint64_t *bins = malloc((f->b + 1) * sizeof(uint64_t));
	if (!bins)
		return -1;
	ftl_sealed_hist(f, bins);
	hist_rows(s, "sealed", ++s->snapshots, bins);
	free(bins);
	return 0;
}

static void erase_rows(struct sim *s)
{
	struct ftl *f = s->f;
	uint64_t *cnt = calloc((size_t)f->ec_max + 1, sizeof(uint64_t));
	if (!cnt)
		fail("out of memory");
	for (uint32_t i = 0; i < f->nseg; i++)
		cnt[f->erase_count[i]]++;
	for (uint32_t e = 0; e <= f->ec_max; e++)
		if (cnt[e])
			fprintf(fp_of(&s->ehist), "%u,%llu\n", e, (unsigned long long)cnt[e]);
	free(cnt);
}

/* Final rows, then rename every file into place. */
static void finish_outputs(struct sim *s)
{
	struct ftl *f = s->f;
	char err[512];
	if (s->curve.fp && f->c.host_pages != f->ci.host_pages)
		curve_row(f, s);
	if (s->hist.fp) {
		if (snapshot(f, s))
			fail("out of memory");
		hist_rows(s, "victims", 0, f->victim_hist);
	}
	if (s->ehist.fp)
		erase_rows(s);
	if (out_commit(&s->curve, err, sizeof(err)) || out_commit(&s->hist, err, sizeof(err)) ||
	    out_commit(&s->ehist, err, sizeof(err)))
		fail("%s", err);
}

/*
 * The JSON summary.
 */

static json_t *jratio(double x) { return x >= 0 ? json_real(x) : json_null(); }
#define SETU(o, k, v) json_object_set_new(o, k, json_integer((json_int_t)(v)))

static json_t *j_params(const struct sim *s)
{
	static const char *const spaces[] = {"given", "extent", "footprint"};
	static const char *const oors[] = {"error", "drop", "clip"};
	static const char *const preconds[] = {"none", "seq", "random"};
	const struct ftl *f = s->f;
	json_t *p = json_object();
	SETU(p, "seed", s->cfg.seed);
	SETU(p, "page_size", f->page_size);
	json_object_set_new(p, "logical_space", json_string(spaces[s->space]));
	SETU(p, "logical_pages", f->U);
	SETU(p, "pages_per_segment", f->b);
	SETU(p, "physical_pages_requested", s->cfg.physical_pages);
	SETU(p, "physical_pages", f->T);
	SETU(p, "segments", f->nseg);
	json_object_set_new(p, "segment_rounding", json_string("down"));
	json_object_set_new(p, "op", json_real((double)(f->T - f->U) / f->U));
	json_object_set_new(p, "spare_factor", json_real((double)(f->T - f->U) / f->T));
	json_object_set_new(p, "policy", json_string(s->cfg.policy));
	json_object_set_new(p, "placement", json_string(s->cfg.placement));
	SETU(p, "streams", f->nstreams);
	SETU(p, "gc_low_segments", f->gc_low);
	SETU(p, "gc_high_segments", f->gc_high);
	json_object_set_new(p, "trim", json_boolean(s->cfg.trim));
	json_object_set_new(p, "out_of_range", json_string(oors[s->cfg.oor]));
	json_object_set_new(p, "precondition", json_string(preconds[s->precond]));
	SETU(p, "warmup_writes", s->cfg.warmup_writes);
	json_object_set_new(p, "wear_level", json_string(s->wear ? s->wear : "none"));
	json_object_set_new(p, "check", json_boolean(s->cfg.check));
	SETU(p, "interval", f->interval);
	SETU(p, "snapshot_every", s->snapshot_every);
	return p;
}

static json_t *j_requests(const struct ftl_reqs *r)
{
	json_t *o = json_object();
	SETU(o, "reads", r->reads);
	SETU(o, "read_pages", r->read_pages);
	SETU(o, "writes", r->writes);
	SETU(o, "discards", r->discards);
	SETU(o, "flushes", r->flushes);
	SETU(o, "zero_length", r->zero_length);
	SETU(o, "unaligned", r->unaligned);
	SETU(o, "out_of_range", r->out_of_range);
	SETU(o, "discard_pages_trimmed", r->discard_pages_trimmed);
	SETU(o, "discard_pages_unmapped", r->discard_pages_unmapped);
	SETU(o, "discard_partial_pages", r->discard_partial_pages);
	SETU(o, "discards_ignored", r->discards_ignored);
	return o;
}

/* LFS write cost of a window: (new data + copies + whole segments read)
 * / new data; a non-empty victim is read whole, an empty one not at all. */
static double write_cost(const struct ftl *f, const struct ftl_counts *a, const struct ftl_counts *z)
{
	uint64_t h = a->host_pages - z->host_pages;
	if (!h)
		return -1;
	uint64_t copies = (a->gc_pages - z->gc_pages) + (a->wl_pages - z->wl_pages);
	uint64_t reads = (a->victims - z->victims) - (a->victims_empty - z->victims_empty) +
			 (a->wl_moves - z->wl_moves);
	return (double)(h + copies + reads * f->b) / h;
}

static double util_mean(const struct ftl *f, const struct ftl_counts *a, const struct ftl_counts *z)
{
	uint64_t n = a->victims - z->victims;
	return n ? (double)(a->victim_valid - z->victim_valid) / n / f->b : -1;
}

static json_t *j_counts(const struct ftl *f, const struct ftl_counts *a, const struct ftl_counts *z)
{
	json_t *o = json_object();
	SETU(o, "host_pages_written", a->host_pages - z->host_pages);
	SETU(o, "gc_pages_copied", a->gc_pages - z->gc_pages);
	SETU(o, "wl_pages_copied", a->wl_pages - z->wl_pages);
	SETU(o, "segments_cleaned", a->victims - z->victims);
	SETU(o, "segments_cleaned_empty", a->victims_empty - z->victims_empty);
	json_object_set_new(o, "wa", jratio(ftl_wa(a, z)));
	json_object_set_new(o, "write_cost", jratio(write_cost(f, a, z)));
	json_object_set_new(o, "victim_utilization_mean", jratio(util_mean(f, a, z)));
	return o;
}

static json_t *j_streams(const struct sim *s)
{
	const struct ftl *f = s->f;
	json_t *a = json_array();
	char buf[32];
	for (unsigned i = 0; i < f->nstreams; i++) {
		const struct ftl_stream *st = &f->streams[i];
		json_t *o = json_object();
		SETU(o, "stream", i);
		json_object_set_new(o, "name", json_string(f->place->stream_name(
						       (struct ftl *)f, f->place_st, i, buf, sizeof(buf))));
		SETU(o, "host_pages_written", st->host_pages);
		SETU(o, "gc_pages_copied", st->gc_pages);
		SETU(o, "segments_sealed", st->sealed);
		SETU(o, "segments_cleaned", st->victims);
		json_object_set_new(o, "victim_utilization_mean",
				    jratio(st->victims ? (double)st->victim_valid / st->victims / f->b : -1));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *j_erase(const struct ftl *f)
{
	uint64_t sum = 0;
	uint32_t lo = UINT32_MAX, hi = 0;
	for (uint32_t i = 0; i < f->nseg; i++) {
		uint32_t e = f->erase_count[i];
		sum += e;
		lo = e < lo ? e : lo;
		hi = e > hi ? e : hi;
	}
	json_t *o = json_object();
	SETU(o, "min", lo);
	json_object_set_new(o, "mean", json_real((double)sum / f->nseg));
	SETU(o, "max", hi);
	return o;
}

static json_t *j_timing(const struct sim *s, double elapsed)
{
	const struct ftl *f = s->f;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	json_t *o = json_object();
	json_object_set_new(o, "elapsed_s", json_real(elapsed));
	uint64_t flash = f->c.host_pages + f->c.gc_pages + f->c.wl_pages;
	json_object_set_new(o, "page_writes_per_s", json_real(elapsed > 0 ? f->c.host_pages / elapsed : 0));
	json_object_set_new(o, "flash_page_writes_per_s", json_real(elapsed > 0 ? flash / elapsed : 0));
	json_object_set_new(o, "cpu_s", json_real(ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
						  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6));
	SETU(o, "max_rss_kb", ru.ru_maxrss);
	return o;
}

static json_t *summary(struct sim *s, int partial, double elapsed)
{
	struct ftl *f = s->f;
	static const struct ftl_counts zero;
	json_t *j = json_object(), *in = json_object();
	json_object_set_new(j, "program", json_string("ftlsim"));
	json_object_set_new(j, "version", json_string(FTLKIT_VERSION));
	json_object_set_new(j, "partial", json_boolean(partial));
	json_object_set_new(in, "path", json_string(s->path));
	json_object_set_new(in, "format", s->format ? json_string(s->format) : json_null());
	SETU(in, "events", s->events);
	json_object_set_new(in, "volumes_mixed", json_boolean(s->volumes_mixed));
	json_object_set_new(j, "input", in);
	json_object_set_new(j, "params", j_params(s));
	json_object_set_new(j, "requests", j_requests(&f->r));
	SETU(j, "precondition_pages_written", f->precond_pages);
	SETU(j, "host_pages_written", f->c.host_pages);
	SETU(j, "gc_pages_copied", f->c.gc_pages);
	SETU(j, "wl_pages_copied", f->c.wl_pages);
	SETU(j, "flash_pages_written", f->c.host_pages + f->c.gc_pages + f->c.wl_pages);
	SETU(j, "segments_cleaned", f->c.victims);
	SETU(j, "segments_cleaned_empty", f->c.victims_empty);
	SETU(j, "wl_segments_moved", f->c.wl_moves);
	SETU(j, "gc_passes", f->gc_passes);
	json_object_set_new(j, "wa_total", jratio(ftl_wa(&f->c, &zero)));
	json_object_set_new(j, "wa_measured", jratio(f->measuring ? ftl_wa(&f->c, &f->c0) : -1));
	json_object_set_new(j, "write_cost", jratio(f->measuring ? write_cost(f, &f->c, &f->c0) : -1));
	json_object_set_new(j, "victim_utilization_mean",
			    jratio(f->measuring ? util_mean(f, &f->c, &f->c0) : -1));
	json_object_set_new(j, "measured", f->measuring ? j_counts(f, &f->c, &f->c0) : json_null());
	json_object_set_new(j, "streams", j_streams(s));
	json_object_set_new(j, "erase_count", j_erase(f));
	SETU(j, "free_segments", f->nfree);
	SETU(j, "sealed_segments", f->nsealed);
	json_t *m = json_object();
	SETU(m, "model_bytes", f->mem_bytes);
	json_object_set_new(m, "bytes_per_physical_page", json_real((double)f->mem_bytes / f->T));
	json_object_set_new(j, "memory", m);
	json_object_set_new(j, "timing", j_timing(s, elapsed));
	return j;
}

static void print_summary(struct sim *s, int partial)
{
	json_t *j = summary(s, partial, now_s() - s->t0);
	if (json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) ||
	    fputc('\n', stdout) == EOF || fflush(stdout))
		fail("error writing standard output: %s", strerror(errno));
	json_decref(j);
}

/*
 * The run.
 */

static void progress(struct sim *s)
{
	double t = now_s();
	if (t - s->last_progress < 1)
		return;
	s->last_progress = t;
	s->progress_shown = 1;
	double wa = ftl_wa(&s->f->c, &(struct ftl_counts){0});
	fprintf(stderr, "\r%s: %llu events, %llu host pages, WA %.3f ", prog_name,
		(unsigned long long)s->events, (unsigned long long)s->f->c.host_pages, wa < 0 ? 0 : wa);
}

static void build_model(struct sim *s)
{
	char err[1024];
	uint64_t U = s->cfg.logical_pages;
	if (s->phys_kind == PHYS_PAGES)
		s->cfg.physical_pages = s->phys_pages;
	else if (s->phys_kind == PHYS_SF)
		s->cfg.physical_pages = ftl_pages_for_sf(U, s->phys_val);
	else
		s->cfg.physical_pages = ftl_pages_for_op(U, s->phys_val);
	s->f = ftl_new(&s->cfg, err, sizeof(err));
	if (!s->f) {
		/* The model refuses only its parameters (geometry, policy
		 * arguments, watermarks): a usage error, unless memory ran out. */
		if (strstr(err, "out of memory"))
			fail("%s", err);
		usage_error("%s", err);
	}
	struct ftl *f = s->f;
	f->map = s->space == SPACE_FOOTPRINT ? &s->map : NULL;
	f->interval = s->interval_set ? s->interval : (U / 10 ? U / 10 : 1);
	f->snapshot_every = s->snapshot_every;
	f->on_interval = curve_row;
	f->on_snapshot = snapshot;
	f->cb_ctx = s;
	if (ftl_tick(f))
		fail("%s", f->err);
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
	int tty = isatty(2), more = 1;
	while (!interrupted) {
		while (more && n < LOOK) {
			struct ev *e = &ring[(head + n) % LOOK];
			if ((more = next_event(s, e) > 0)) {
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
			fail("%s: event %llu: %s", s->path, (unsigned long long)s->events + 1, s->f->err);
		head = (head + 1) % LOOK;
		n--;
		if ((++s->events & 0xffff) == 0 && tty)
			progress(s);
	}
	if (s->t)
		cli_report_bad(s->t, s->path);
	if (s->progress_shown)
		fputc('\n', stderr);
	if (s->volumes_mixed && !interrupted)
		warn("%s: events of several volumes share one logical space (choose one with --volume)",
		     s->path);
}

int main(int argc, char **argv)
{
	static struct sim s;
	prog_init(argv[0]);
	trace_opts_default(&s.topt);
	ftl_config_default(&s.cfg);
	s.space = SPACE_EXTENT;
	s.phys_kind = PHYS_OP;
	s.phys_val = 0.07;
	parse_args(&s, argc, argv);
	g_sim = &s;
	struct sigaction sa = {.sa_handler = on_sigint};
	sigaction(SIGINT, &sa, NULL);
	s.t0 = now_s();
	if (s.space == SPACE_GIVEN)
		open_trace(&s);
	else
		measure_space(&s);
	if (interrupted) {
		/* Nothing simulated yet: the summary is the input read so far. */
		json_t *j = json_object(), *in = json_object();
		json_object_set_new(j, "program", json_string("ftlsim"));
		json_object_set_new(j, "version", json_string(FTLKIT_VERSION));
		json_object_set_new(j, "partial", json_true());
		json_object_set_new(in, "path", json_string(s.path));
		SETU(in, "events_read", s.events_pass1);
		json_object_set_new(j, "input", in);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(j);
		return EXIT_INTR;
	}
	build_model(&s);
	open_out(&s.curve, s.curve_path,
		 "host_pages_written,interval_wa,cumulative_wa,free_segments,segments_cleaned,"
		 "victim_utilization_mean\n");
	open_out(&s.hist, s.hist_path, "kind,snapshot,host_pages_written,valid_pages,utilization,segments\n");
	open_out(&s.ehist, s.erase_path, "erase_count,segments\n");
	if (ftl_precondition(s.f, s.precond))
		fail("%s", s.f->err);
	replay(&s);
	if (interrupted) {
		abort_outputs(&s);
		print_summary(&s, 1);
		return EXIT_INTR;
	}
	if (s.cfg.warmup_writes && !s.f->measuring)
		warn("warning: the trace ended within the %llu warm-up page writes: wa_measured is null",
		     (unsigned long long)s.cfg.warmup_writes);
	finish_outputs(&s);
	print_summary(&s, 0);
	trace_close(s.t);
	ftl_free(s.f);
	ftl_pagemap_free(&s.map);
	free(s.buf);
	return EXIT_OK;
}
