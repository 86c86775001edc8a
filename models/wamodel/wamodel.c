/*
 * wamodel - closed-form and mean-field predictions of write
 * amplification for the parameters ftlsim takes, from the models in
 * models/wamodel/wamath.c (Desnoyers 2012, Van Houdt 2013, Bux & Iliadis 2010,
 * Rosenblum & Ousterhout 1992; docs/WAMODEL.md).
 *
 *   wamodel [--model NAME,...|all] [--spare-factor Sf | --op OP |
 *           --utilization X | --sweep [VAR=]FROM:TO:STEP]
 *           [--pages-per-segment b] [--choices D,...] [--json|--csv]
 *
 * One row per point: the point in all four conventions (sf, op, alpha,
 * rho), then each selected model's columns. JSON by default (stable
 * key order), CSV with a header row for gnuplot. With no point given
 * it prints the nine spare factors of the reference table.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"
#include "sig.h"
#include "wamath.h"

#define MAX_D 8
#define MAX_COLS 48
#define MAX_POINTS 100000
#define MAX_B 65536
#define MAX_B_HC_GREEDY 256 /* b^2 states: 0.3 s a point at 256, 2.5 s at 512 */

struct params {
	unsigned b;
	unsigned nd, d[MAX_D];
	double hot_prob, hot_frac;
};

struct col {
	char name[40];
	double v;
	int integer;
};

struct row {
	int n;
	struct col c[MAX_COLS];
};

static void put(struct row *r, const char *name, double v)
{
	struct col *c = &r->c[r->n++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->v = v;
	c->integer = 0;
}

static void put_int(struct row *r, const char *name, double v)
{
	put(r, name, v);
	r->c[r->n - 1].integer = 1;
}

/* ---- models: each adds its columns for one spare factor ------------ */

static void eval_fifo(const struct params *p, double sf, struct row *r)
{
	put(r, "wa_fifo", wa_fifo(sf));
	put(r, "fifo_victim_valid_frac", wa_fifo_victim_valid(sf));
}

static void eval_greedy_approx(const struct params *p, double sf, struct row *r)
{
	put(r, "wa_greedy_approx", wa_greedy_approx(sf, p->b));
}

static void eval_greedy_mf(const struct params *p, double sf, struct row *r)
{
	struct wa_greedy_level l;
	if (wa_greedy_mf_level(sf, p->b, &l))
		l.wa = l.victim_valid = NAN, l.k = 0;
	put(r, "wa_greedy_mf", l.wa);
	put_int(r, "greedy_mf_level_pages", l.k);
	put(r, "greedy_mf_victim_valid_pages", l.victim_valid);
}

static void eval_random(const struct params *p, double sf, struct row *r)
{
	put(r, "wa_random", wa_random(sf));
}

static void eval_dchoices(const struct params *p, double sf, struct row *r)
{
	for (unsigned i = 0; i < p->nd; i++) {
		char name[40];
		snprintf(name, sizeof(name), "wa_dchoices_%u", p->d[i]);
		put(r, name, wa_dchoices_mf(sf, p->b, p->d[i]));
	}
}

/* LFS's disk utilization is rho. */
static void eval_lfs(const struct params *p, double sf, struct row *r)
{
	put(r, "lfs_cleaned_util", lfs_cleaned_util(1 - sf));
	put(r, "lfs_write_cost", lfs_write_cost(1 - sf));
}

static void eval_worst(const struct params *p, double sf, struct row *r)
{
	unsigned long n = lfs_worst_case_n(1 - sf); /* 0: no N (rho rounds to 1) */
	put_int(r, "worst_case_n", n ? (double)n : NAN);
	put(r, "worst_case_wa", lfs_worst_case_wa(1 - sf));
}

static void eval_hotcold(const struct params *p, double sf, struct row *r)
{
	double hp = p->hot_prob, hf = p->hot_frac;
	struct wa_split fifo, greedy;
	if (wa_hc_separated(sf, hp, hf, WA_POOL_FIFO, p->b, &fifo))
		fifo.wa = fifo.hot_spare = NAN;
	if (wa_hc_separated(sf, hp, hf, WA_POOL_GREEDY_MF, p->b, &greedy))
		greedy.wa = greedy.hot_spare = NAN;
	put(r, "wa_hc_mixed_fifo", wa_hc_mixed_fifo(sf, hp, hf));
	put(r, "wa_hc_mixed_greedy_mf",
	    p->b <= MAX_B_HC_GREEDY ? wa_hc_mixed_greedy_mf(sf, hp, hf, p->b) : NAN);
	put(r, "wa_hc_sep_fifo", fifo.wa);
	put(r, "hc_sep_fifo_hot_spare_frac", fifo.hot_spare);
	put(r, "wa_hc_sep_greedy_mf", greedy.wa);
	put(r, "hc_sep_greedy_mf_hot_spare_frac", greedy.hot_spare);
}

struct model {
	const char *name;
	const char *help;
	void (*eval)(const struct params *p, double sf, struct row *r);
};

static const struct model models[] = {
	{"fifo", "FIFO/LRU cleaning, Desnoyers eq. 4 (Lambert W)", eval_fifo},
	{"greedy-approx", "greedy, Desnoyers eq. 12: WA_FIFO(k alpha)/k, k = 1+1/(2b)",
	 eval_greedy_approx},
	{"greedy-mf", "greedy, mean field (Van Houdt / Bux-Iliadis), exact as N grows",
	 eval_greedy_mf},
	{"random", "random victim: 1/Sf", eval_random},
	{"dchoices", "d-choices, mean field (Van Houdt 2013), one column per --choices",
	 eval_dchoices},
	{"lfs", "LFS greedy, b large: rho = (1-u)/ln(1/u), write cost 2/(1-u)", eval_lfs},
	{"worst-case", "no variance: every segment at X = rho, N = ceil(1/(1-X))", eval_worst},
	{"hotcold", "hot/cold (--hot-prob/--hot-frac): one frontier vs pools, best split",
	 eval_hotcold},
	{NULL, NULL, NULL},
};

#define NMODELS (sizeof(models) / sizeof(models[0]) - 1)

/* ---- the command line ------------------------------------------------ */

struct opts {
	struct params p;
	int use[NMODELS];
	int csv;
	const char *point_opt; /* the option that gave the points, for messages */
	double *sf;
	size_t npoints;
};

static void usage(void)
{
	printf("Usage: %s [options]\n"
	       "Predict write amplification (WA) under uniform random page writes.\n"
	       "\n"
	       "Models (--model, columns after sf, op, alpha, rho):\n",
	       prog_name);
	for (const struct model *m = models; m->name; m++)
		printf("  %-14s %s\n", m->name, m->help);
	printf("\n"
	       "Options:\n"
	       "  -m, --model LIST         models to evaluate, comma-separated, or all (default)\n"
	       "  -s, --spare-factor Sf    Sf = (T-U)/T, 0 < Sf < 1\n"
	       "      --op OP              over-provisioning OP = (T-U)/U > 0\n"
	       "  -u, --utilization X      X = rho = U/T, 0 < X < 1 (LFS's disk utilization)\n"
	       "      --sweep [VAR=]A:B:S  points A, A+S, ... <= B of VAR: sf (default), op, x\n"
	       "  -b, --pages-per-segment b  pages per segment (erase block), default 64\n"
	       "      --choices LIST       d values for dchoices (default 2,10)\n"
	       "      --hot-prob r         hotcold: fraction of writes to hot pages (0.9)\n"
	       "      --hot-frac f         hotcold: fraction of pages that are hot (0.1)\n"
	       "      --json               JSON output (default)\n"
	       "      --csv                CSV output with a header row\n"
	       "  -h, --help               show this help and exit\n"
	       "  -V, --version            show the version and exit\n"
	       "\n"
	       "U logical pages, T physical pages; alpha = T/U = 1+OP; WA = (host page\n"
	       "writes + GC page copies) / host page writes. With no point given, the\n"
	       "spare factors of the reference table: .05 .07 .10 .15 .20 .25 .30 .40 .50.\n"
	       "Exit status: 0 ok, 1 output error, 2 usage error.\n");
}

static void set_models(struct opts *o, const char *arg)
{
	char buf[256];
	if (strlen(arg) >= sizeof(buf))
		usage_error("--model list too long");
	strcpy(buf, arg);
	memset(o->use, 0, sizeof(o->use));
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;
		if (!strcmp(t, "all")) {
			for (i = 0; i < NMODELS; i++)
				o->use[i] = 1;
			continue;
		}
		for (i = 0; i < NMODELS && strcmp(models[i].name, t); i++)
			;
		if (i == NMODELS)
			usage_error("unknown model '%s' (see --help)", t);
		o->use[i] = 1;
	}
}

static void set_choices(struct params *p, const char *arg)
{
	char buf[256];
	if (strlen(arg) >= sizeof(buf))
		usage_error("--choices list too long");
	strcpy(buf, arg);
	p->nd = 0;
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t d = opt_u64("--choices", t);
		if (d < 1 || d > 100000)
			usage_error("--choices: d must be between 1 and 100000, not '%s'", t);
		if (p->nd == MAX_D)
			usage_error("--choices: at most %d values", MAX_D);
		p->d[p->nd++] = (unsigned)d;
	}
	if (!p->nd)
		usage_error("--choices needs at least one d");
}

/* A value of VAR as a spare factor, or a usage error. */
static double to_sf(const char *var, double v, const char *opt)
{
	if (!strcmp(var, "op")) {
		if (!(v > 0))
			usage_error("%s: OP must be > 0, not %g", opt, v);
		return wa_sf_from_op(v);
	}
	if (!(v > 0 && v < 1))
		usage_error("%s: %s must be in (0, 1), not %g", opt, var, v);
	return !strcmp(var, "x") ? 1 - v : v;
}

static void set_point(struct opts *o, const char *opt, const char *var, const char *arg)
{
	if (o->point_opt)
		usage_error("give one of --spare-factor, --op, --utilization, --sweep (%s and %s)",
			    o->point_opt, opt);
	o->point_opt = opt;
	o->sf = malloc(sizeof(double));
	if (!o->sf)
		die(EXIT_DATA, "out of memory");
	o->sf[0] = to_sf(var, opt_double(opt, arg), opt);
	o->npoints = 1;
}

static void set_sweep(struct opts *o, const char *arg)
{
	const char *var = "sf", *eq = strchr(arg, '=');
	char name[8], a[64], b[64], s[64];
	if (o->point_opt)
		usage_error("give one of --spare-factor, --op, --utilization, --sweep (%s and --sweep)",
			    o->point_opt);
	o->point_opt = "--sweep";
	if (eq) {
		size_t n = (size_t)(eq - arg);
		if (n >= sizeof(name))
			usage_error("--sweep: unknown variable in '%s' (sf, op or x)", arg);
		memcpy(name, arg, n);
		name[n] = 0;
		if (strcmp(name, "sf") && strcmp(name, "op") && strcmp(name, "x"))
			usage_error("--sweep: unknown variable '%s' (sf, op or x)", name);
		var = !strcmp(name, "sf") ? "sf" : !strcmp(name, "op") ? "op" : "x";
		arg = eq + 1;
	}
	if (sscanf(arg, "%63[^:]:%63[^:]:%63s", a, b, s) != 3)
		usage_error("--sweep needs FROM:TO:STEP, not '%s'", arg);
	double from = opt_double("--sweep FROM", a), to = opt_double("--sweep TO", b),
	       step = opt_double("--sweep STEP", s);
	if (!(step > 0) || to < from)
		usage_error("--sweep needs STEP > 0 and FROM <= TO");
	double n = floor((to - from) / step + 1e-9) + 1;
	if (n > MAX_POINTS)
		usage_error("--sweep: %.0f points, at most %d", n, MAX_POINTS);
	o->npoints = (size_t)n;
	o->sf = malloc(o->npoints * sizeof(double));
	if (!o->sf)
		die(EXIT_DATA, "out of memory");
	/* from + i*step, not a running sum: no drift over long sweeps. */
	for (size_t i = 0; i < o->npoints; i++)
		o->sf[i] = to_sf(var, from + (double)i * step, "--sweep");
}

static void default_points(struct opts *o)
{
	static const double ref[] = {.05, .07, .10, .15, .20, .25, .30, .40, .50};
	o->npoints = sizeof(ref) / sizeof(ref[0]);
	o->sf = malloc(sizeof(ref));
	if (!o->sf)
		die(EXIT_DATA, "out of memory");
	memcpy(o->sf, ref, sizeof(ref));
}

static double opt_open01(const char *opt, const char *arg)
{
	double v = opt_double(opt, arg);
	if (!(v > 0 && v < 1))
		usage_error("option '%s' needs a value in (0, 1), not '%s'", opt, arg);
	return v;
}

enum { OPT_OP = 1000, OPT_SWEEP, OPT_CHOICES, OPT_HOT_PROB, OPT_HOT_FRAC, OPT_JSON, OPT_CSV };

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"model", required_argument, NULL, 'm'},
		{"spare-factor", required_argument, NULL, 's'},
		{"op", required_argument, NULL, OPT_OP},
		{"utilization", required_argument, NULL, 'u'},
		{"sweep", required_argument, NULL, OPT_SWEEP},
		{"pages-per-segment", required_argument, NULL, 'b'},
		{"choices", required_argument, NULL, OPT_CHOICES},
		{"hot-prob", required_argument, NULL, OPT_HOT_PROB},
		{"hot-frac", required_argument, NULL, OPT_HOT_FRAC},
		{"json", no_argument, NULL, OPT_JSON},
		{"csv", no_argument, NULL, OPT_CSV},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c, out_given = 0; /* OPT_JSON or OPT_CSV, once given */
	list_options(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "m:s:u:b:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': set_models(o, optarg); break;
		case 's': set_point(o, "--spare-factor", "sf", optarg); break;
		case OPT_OP: set_point(o, "--op", "op", optarg); break;
		case 'u': set_point(o, "--utilization", "x", optarg); break;
		case OPT_SWEEP: set_sweep(o, optarg); break;
		case 'b': {
			uint64_t b = opt_u64("--pages-per-segment", optarg);
			if (b < 1 || b > MAX_B)
				usage_error("--pages-per-segment must be between 1 and %d", MAX_B);
			o->p.b = (unsigned)b;
			break;
		}
		case OPT_CHOICES: set_choices(&o->p, optarg); break;
		case OPT_HOT_PROB: o->p.hot_prob = opt_open01("--hot-prob", optarg); break;
		case OPT_HOT_FRAC: o->p.hot_frac = opt_open01("--hot-frac", optarg); break;
		case OPT_JSON:
		case OPT_CSV:
			opt_one_of(&out_given, c, "--json and --csv contradict each other: give one");
			o->csv = c == OPT_CSV;
			break;
		case 'h': usage(); exit(EXIT_OK);
		case 'V': print_version(); exit(EXIT_OK);
		default: usage_error("%s", bad_option(argv, longopts));
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->point_opt)
		default_points(o);
}

/* ---- output ------------------------------------------------------------ */

static void eval_point(const struct opts *o, double sf, struct row *r)
{
	r->n = 0;
	put(r, "sf", sf);
	put(r, "op", wa_op_from_sf(sf));
	put(r, "alpha", 1 / (1 - sf));
	put(r, "rho", 1 - sf);
	/* A closed form that cannot get its memory returns NaN with errno
	 * ENOMEM: not a value to print as "not defined here". */
	for (size_t i = 0; i < NMODELS; i++) {
		if (!o->use[i])
			continue;
		errno = 0;
		models[i].eval(&o->p, sf, r);
		if (errno == ENOMEM)
			die(EXIT_DATA, "out of memory");
	}
}

static int print_csv(const struct opts *o)
{
	/* Plain printf, not libcsv: every field is a number or a
	 * [a-z0-9_] name, and gnuplot reads unquoted numbers. The rows
	 * go to memory first, so an interrupted run prints none. */
	struct row r;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp)
		die(EXIT_DATA, "out of memory");
	for (size_t i = 0; i < o->npoints && !sig_caught; i++) {
		eval_point(o, o->sf[i], &r);
		if (i == 0)
			for (int j = 0; j < r.n; j++)
				fprintf(fp, "%s%s", r.c[j].name, j + 1 < r.n ? "," : "\n");
		for (int j = 0; j < r.n; j++) {
			if (isnan(r.c[j].v))
				fprintf(fp, "nan");
			else
				fprintf(fp, r.c[j].integer ? "%.0f" : "%.10g", r.c[j].v);
			fputc(j + 1 < r.n ? ',' : '\n', fp);
		}
	}
	if (fclose(fp))
		die(EXIT_DATA, "out of memory");
	if (sig_caught)
		sig_exit();
	int rc = fwrite(text, 1, len, stdout) == len ? 0 : -1;
	free(text);
	return rc;
}

static json_t *num(const struct col *c)
{
	if (isnan(c->v) || isinf(c->v))
		return json_null();
	return c->integer ? json_integer((json_int_t)c->v) : json_real(c->v);
}

static json_t *params_json(const struct opts *o)
{
	json_t *p = json_object(), *d = json_array(), *m = json_array();
	for (unsigned i = 0; i < o->p.nd; i++)
		json_array_append_new(d, json_integer(o->p.d[i]));
	for (size_t i = 0; i < NMODELS; i++)
		if (o->use[i])
			json_array_append_new(m, json_string(models[i].name));
	json_object_set_new(p, "models", m);
	json_object_set_new(p, "pages_per_segment", json_integer(o->p.b));
	json_object_set_new(p, "choices", d);
	json_object_set_new(p, "hot_prob", json_real(o->p.hot_prob));
	json_object_set_new(p, "hot_frac", json_real(o->p.hot_frac));
	return p;
}

static json_t *definitions_json(void)
{
	json_t *d = json_object();
	json_object_set_new(d, "sf", json_string("spare factor (T-U)/T"));
	json_object_set_new(d, "op", json_string("over-provisioning (T-U)/U"));
	json_object_set_new(d, "alpha", json_string("T/U"));
	json_object_set_new(d, "rho", json_string("utilization U/T"));
	json_object_set_new(d, "wa", json_string("(host page writes + GC page copies) / host page writes"));
	json_object_set_new(d, "lfs_write_cost", json_string("2/(1-u), u the live fraction of a cleaned segment"));
	return d;
}

static int print_json(const struct opts *o)
{
	json_t *root = json_object(), *pts = json_array();
	struct row r;
	json_object_set_new(root, "program", json_string("wamodel"));
	json_object_set_new(root, "version", json_string(FTLKIT_VERSION));
	json_object_set_new(root, "definitions", definitions_json());
	json_object_set_new(root, "parameters", params_json(o));
	for (size_t i = 0; i < o->npoints && !sig_caught; i++) {
		json_t *pt = json_object();
		eval_point(o, o->sf[i], &r);
		for (int j = 0; j < r.n; j++)
			json_object_set_new(pt, r.c[j].name, num(&r.c[j]));
		json_array_append_new(pts, pt);
	}
	json_object_set_new(root, "points", pts);
	if (sig_caught)
		sig_exit(); /* nothing printed */
	if (json_oom)
		die(EXIT_DATA, "out of memory");
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(root);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = {.p = {.b = 64, .nd = 2, .d = {2, 10}, .hot_prob = 0.9, .hot_frac = 0.1}};
	for (size_t i = 0; i < NMODELS; i++)
		o.use[i] = 1;
	sig_init();
	prog_init(argv[0]);
	parse_args(argc, argv, &o);
	int rc = 0;
	if (o.csv)
		rc = print_csv(&o);
	else
		rc = print_json(&o);
	free(o.sf);
	if (json_oom) /* jansson allocates while dumping too */
		die(EXIT_DATA, "out of memory");
	if (rc || fflush(stdout) || ferror(stdout))
		die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
	return EXIT_OK;
}
