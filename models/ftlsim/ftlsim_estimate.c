/*
 * ftlsim_estimate.c - what a run will need before it starts: the model's
 * memory (refused up front when it exceeds what is available), and for
 * --dry-run the geometry, the input's size and an estimated run time.
 *
 * Memory: the model's arrays are linear in the logical pages U and the
 * physical pages T (maps, per-segment records and the policies' state,
 * T/b segments of them), plus a constant. Three small models built with
 * the same configuration give the three coefficients, so the estimate
 * follows whatever the model and its policies allocate (ftl_calloc
 * counts it in mem_bytes) without a second copy of its layout; the
 * tests check it against the full model's own count.
 *
 * Time: the input is read for up to SAMPLE_S seconds (or to its end),
 * giving the bytes per event, the page writes per event and the
 * reader's speed on this input; the model's speed is the one measured
 * by tests/bench_model.sh (README, "Performance"): 16.5 M host page
 * writes a second through ftlsim at U = 2^20, 1.93 times slower per
 * write at U = 2^26 as the maps leave the caches (interpolated in
 * log2 U between the two, flat outside); building the model costs its
 * memory at BUILD_BYTES_PER_S.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ftlsim.h"
#include "place.h"
#include "registry.h"
#include "wamath.h"

#define RATE_SMALL 16.5e6 /* host page writes/s, U = 2^20 (README, Performance) */
#define SLOWDOWN_LARGE 1.93 /* cost per write at U = 2^26 against 2^20 (same table) */
/* Building the model zeroes its arrays: a 855 MB model (U = 10^8) took
 * 0.8 to 1.1 s of wall time here, so 1 GB/s. */
#define BUILD_BYTES_PER_S 1e9
/* A device in time adds its own cost to every host page write: 9.4 M
 * writes (a fill and 8 M uniform ones, U = 2^20, as tracegen makes
 * them) took 1.0 to 1.4 s more with --timing than without, open loop
 * or --qd 8, OP 0.3 to 0.1 (more GC, more flash operations to time). */
#define TIME_PAGE_WRITES_PER_S 6.7e6
/* A timeline row, kept and written: 1.27 M rows of a 1000-request MSR
 * sample replayed 100 times slower took 2.4 s more than without them. */
#define TIMELINE_ROW_S 1.9e-6
#define SAMPLE_S 1.0
#define SAMPLE_EVENTS (1u << 22)

uint64_t sim_physical_pages(const struct sim *s) { return sim_physical_for(s, s->opt.cfg.logical_pages); }

uint64_t sim_physical_for(const struct sim *s, uint64_t U)
{
	if (s->opt.phys_kind == PHYS_PAGES)
		return s->opt.phys_pages;
	if (s->opt.phys_kind == PHYS_SF)
		return ftl_pages_for_sf(U, s->opt.phys_val);
	return ftl_pages_for_op(U, s->opt.phys_val);
}

void sim_device_space(const struct sim *s, uint64_t *U, uint64_t *T)
{
	*U = s->opt.cfg.logical_pages;
	if (s->opt.host_lfs)
		*U = host_lfs_device_pages(&s->opt.lfs, *U, s->opt.cfg.page_size);
	*T = sim_physical_for(s, *U);
}

/* mem_bytes of a model of U logical and T physical pages, -1 if refused. */
static double model_bytes(const struct ftl_config *c0, uint64_t U, uint64_t T)
{
	struct ftl_config c = *c0;
	char err[512];
	c.logical_pages = U;
	c.physical_pages = T;
	c.check = 0;
	c.probe = 1; /* counted, not filled */
	struct dev *d = dev_ftl_ops.open(&(struct dev_config){.ftl = c}, err, sizeof(err));
	if (!d)
		return -1;
	struct dev_stats st;
	dev_ftl_ops.stats(d, &st);
	dev_ftl_ops.close(d);
	return (double)st.mem_bytes;
}

/* The probes' logical pages: U/16 rounded down to a power of two (so
 * that --per-volume's volumes of about one size share their
 * coefficients), at least 256 segments' worth and at most 2^21 pages
 * (about 20 MB a probe). A placement's state need not be linear in U
 * below some size (midas: its update-interval bins stop at 2^15, its
 * samples start at 8192 pages), so the probes are taken as near the
 * model's size as is cheap. */
static uint64_t probe_u(uint64_t b, uint64_t U)
{
	uint64_t u = 1;
	while (u * 2 <= U / 16 && u < (1u << 21))
		u *= 2;
	u = u / b * b;
	return u < 256 * b ? 256 * b : u;
}

/* The three coefficients of mem_bytes = alpha U + beta T + gamma for a
 * configuration, from three small models of about U0 logical pages;
 * -1 if they are refused. */
static int coefficients(const struct ftl_config *c, uint64_t U0, double k[3])
{
	/* Small enough to build in milliseconds, large enough for every
	 * policy's and watermark's minimum number of segments. */
	uint64_t u = U0, t = 2 * u;
	double m1 = model_bytes(c, u, t), m2 = model_bytes(c, u, 2 * t), m3 = model_bytes(c, 2 * u, 4 * t);
	if (m1 < 0 || m2 < 0 || m3 < 0)
		return -1;
	k[1] = (m2 - m1) / (double)t;
	k[0] = (m3 - m1 - 3 * k[1] * (double)t) / (double)u;
	k[2] = m1 - k[0] * (double)u - k[1] * (double)t;
	return 0;
}

static uint64_t linear(const double k[3], uint64_t U, uint64_t T)
{
	double m = k[0] * (double)U + k[1] * (double)T + k[2];
	return m > 0 ? (uint64_t)llround(m) : 0;
}

/* The configuration of a model with its segment size resolved
 * (--pages-per-segment auto: from its U). */
static struct ftl_config resolved(const struct sim *s)
{
	struct ftl_config c = s->opt.cfg;
	c.pages_per_seg = ftl_config_pages_per_seg(&c) * sim_fdp_ru(&c); /* an FDP reclaim unit of R segments */
	return c;
}

/* A device in time: its queues and histograms at open (the timeline
 * grows by TIME_ROW_BYTES an interval of simulated time: timeline_bytes). */
static uint64_t time_bytes(const struct sim *s)
{
	uint64_t b = s->opt.timing ? time_mem_bytes(&s->opt.tc, s->opt.cfg.page_size) : 0;
	if (s->opt.timing && s->opt.tc.cmt.mib > 0) { /* the mapping table's cache: over the device's logical pages */
		uint64_t U, T;
		sim_device_space(s, &U, &T);
		b += time_cmt_bytes(&s->opt.tc, s->opt.cfg.page_size, U);
	}
	if (s->opt.host_lfs) { /* the host log: a model of the file system's pages */
		struct ftl_config c = s->opt.cfg;
		c.pages_per_seg = (uint32_t)(s->opt.lfs.segment_bytes / c.page_size);
		c.policy = s->opt.lfs.policy;
		c.placement = s->opt.lfs.placement;
		uint64_t U = s->opt.cfg.logical_pages,
			 T = host_lfs_device_pages(&s->opt.lfs, U, c.page_size) - s->opt.lfs.offset_bytes / c.page_size;
		double m = registry_resolve(&c, NULL, 0) ? -1 : model_bytes(&c, U, T);
		b += m > 0 ? (uint64_t)m : 0;
	}
	return b;
}

/* A zoned device's memory: its zones (no map; the FTL's geometry is not
 * read) over the run's logical pages, or under a host log the log's
 * (the device rounds them up to whole zones), and its time's. */
static uint64_t zoned_bytes(const struct sim *s)
{
	uint64_t U, T;
	sim_device_space(s, &U, &T);
	return zns_mem_bytes(&s->opt.zns, U, s->opt.cfg.page_size) + time_bytes(s);
}

/* A model's geometry as the run builds it: the device's logical pages,
 * its physical pages asked (T) and built (whole segments; a zoned
 * device's whole zones over its logical pages), its segment. */
static void geometry(const struct sim *s, uint64_t *U, uint64_t *T, uint64_t *built, uint64_t *b)
{
	sim_device_space(s, U, T);
	if (s->opt.zoned) {
		*b = s->opt.zns.zone_bytes / s->opt.cfg.page_size;
		*built = *b ? (*U + *b - 1) / *b * *b : 0;
		return;
	}
	*b = ftl_config_pages_per_seg(&s->opt.cfg) * sim_fdp_ru(&s->opt.cfg);
	*built = *T / *b * *b;
}

/* GC that yields (idle-time, preemptible) defers each segment's erases
 * and programs (dev_time.c): two words a segment. */
static uint64_t pend_bytes(const struct sim *s, uint64_t T, uint64_t pages_per_seg)
{
	return s->opt.timing && (s->opt.tc.bg_high || s->opt.tc.preempt) && pages_per_seg
		       ? T / pages_per_seg * 2 * sizeof(uint32_t)
		       : 0;
}

/* What is known of the trace's discards: whether it may have any, and
 * how many requests over how long a span (0: not known). */
struct discards {
	int may;
	uint64_t n;
	int64_t span_ns;
};

/* From the first pass when there was one, or the --footprints table
 * (its discards; not their span). */
static struct discards pass1_discards(const struct sim *in)
{
	if (in->in.fp_live) {
		uint64_t n = sim_table_discards(in);
		return (struct discards){n > 0, n, 0};
	}
	if (!in->in.events_pass1)
		return (struct discards){1, 0, 0};
	return (struct discards){in->in.td_pass1 > 0, in->in.td_pass1, in->in.t_max_pass1};
}

/* A model's: per volume, its volume's discards (each volume's TRIM
 * host holds its own), else the trace's. */
static struct discards model_discards(const struct sim *in, const struct sim *m)
{
	struct discards d = pass1_discards(in);
	const struct vol *v = m->cell.vol;
	if (in->opt.per_volume && v && (in->in.fp_live || in->in.events_pass1)) {
		d.may = v->discards > 0;
		d.n = v->discards;
	}
	return d;
}

/* The host above the device: the TRIM host, its page state on the
 * device's logical pages unless the trace is known to discard nothing,
 * and the discards it holds back (a host log is in the model's own
 * count). */
static uint64_t host_bytes(const struct sim *s, struct discards d)
{
	uint64_t U, T;
	sim_device_space(s, &U, &T);
	return s->opt.host_lfs ? 0 : trim_host_bytes(&s->opt.trim, d.may ? U : 0, d.n, d.span_ns);
}

/* A model's memory from its cached coefficients (a volume's, a cell's). */
static uint64_t coef_bytes(const struct sim *s, const double k[3], uint64_t U, uint64_t T)
{
	return s->opt.zoned ? zoned_bytes(s)
			    : linear(k, U, T) + time_bytes(s) + pend_bytes(s, T, resolved(s).pages_per_seg);
}

int sim_memory_estimate(const struct sim *s, uint64_t *bytes)
{
	uint64_t U, T;
	sim_device_space(s, &U, &T);
	struct ftl_config c = resolved(s);
	double k[3];
	if (s->opt.zoned) {
		*bytes = zoned_bytes(s);
		return 0;
	}
	uint64_t pend = pend_bytes(s, T, c.pages_per_seg);
	if (T <= 8 * 512 * (uint64_t)c.pages_per_seg) {
		double m = model_bytes(&c, U, T);
		if (m < 0)
			return -1;
		*bytes = (uint64_t)m + time_bytes(s) + pend;
		return 0;
	}
	if (coefficients(&c, probe_u(c.pages_per_seg, U), k))
		return -1;
	*bytes = linear(k, U, T) + time_bytes(s) + pend;
	return 0;
}

/* The "KEY: N kB" line of a /proc file (meminfo, self/status) in bytes,
 * or dflt when it has none. */
static uint64_t proc_kb(const char *path, const char *key, uint64_t dflt)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return dflt;
	char line[256];
	unsigned long long kb;
	size_t n = strlen(key);
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, key, n) && line[n] == ':' && sscanf(line + n + 1, "%llu kB", &kb) == 1)
			dflt = kb * 1024;
	fclose(fp);
	return dflt;
}

/* Memory this process may still take: MemAvailable, or less under an
 * address-space limit or a cgroup (v2) memory limit (Slurm's --mem). */
uint64_t sim_memory_available(void)
{
	uint64_t avail = proc_kb("/proc/meminfo", "MemAvailable", UINT64_MAX);
	FILE *fp;
	struct rlimit rl, st;
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < avail) {
		/* An address-space limit (ulimit -v) counts what the process
		 * maps already (the program, its libraries, the reader's
		 * buffers) and each worker thread's stack, reserved whole. */
		uint64_t used = proc_kb("/proc/self/status", "VmSize", 0), stack = 8 << 20;
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		if (!getrlimit(RLIMIT_STACK, &st) && st.rlim_cur != RLIM_INFINITY)
			stack = st.rlim_cur;
		used += (uint64_t)(cpus > 0 ? cpus : 1) * stack;
		avail = rl.rlim_cur > used ? rl.rlim_cur - used : 0;
	}
	fp = fopen("/proc/self/cgroup", "r");
	if (fp) {
		char line[4096], path[4200];
		while (fgets(line, sizeof(line), fp)) {
			if (strncmp(line, "0::", 3))
				continue;
			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", line + 3);
			FILE *m = fopen(path, "r");
			unsigned long long lim;
			if (m && fscanf(m, "%llu", &lim) == 1 && lim < avail)
				avail = lim; /* "max" (no limit) does not scan */
			if (m)
				fclose(m);
		}
		fclose(fp);
	}
	return avail;
}

/* The footprint maps: as pass 1 allocated them, or with --footprints
 * (not yet allocated by --dry-run) the size they are made at. */
static uint64_t maps_bytes(const struct sim *in, struct sim *const *m, unsigned n)
{
	uint64_t maps = 0;
	for (size_t i = 0; i < in->in.vols.n; i++) {
		const struct vol *v = &in->in.vols.v[i];
		if (v->map.t.cap || (in->in.fp_live && v->selected && !v->skip && v->fp_n))
			maps += sim_footprint_map_bytes(&v->map, v->fp_n);
	}
	for (unsigned i = 0; i < n && !in->opt.per_volume; i++)
		if (m[i]->cell.space_owner == m[i] && m[i]->opt.space == SPACE_FOOTPRINT &&
		    (m[i]->cell.map.t.cap || in->in.fp_live))
			maps += sim_footprint_map_bytes(&m[i]->cell.map, m[i]->opt.cfg.logical_pages);
	return maps;
}

/*
 * The memory of every model of the run before any is built: a single
 * model or a grid's from its geometry (above); per volume, each volume's
 * from its configuration's coefficients (three small models per
 * configuration, not three per volume), the volumes too small for the
 * geometry left out (they get no model). The footprint maps are already
 * allocated by the first pass and counted as they are.
 */
/* Per volume: the coefficients of each configuration and segment size
 * (auto sizes differ between volumes), computed once each. */
struct coef {
	uint64_t conf, u0;
	uint32_t b;
	int ok;
	double k[3];
};

static const struct coef *coef_of(struct coef **tab, size_t *n, const struct sim *m)
{
	struct ftl_config c = resolved(m);
	uint64_t u0 = probe_u(c.pages_per_seg, c.logical_pages);
	for (size_t i = 0; i < *n; i++)
		if ((*tab)[i].conf == m->cell.conf && (*tab)[i].b == c.pages_per_seg && (*tab)[i].u0 == u0)
			return &(*tab)[i];
	struct coef *nt = realloc(*tab, (*n + 1) * sizeof(*nt));
	if (!nt)
		sim_fail("out of memory");
	*tab = nt;
	struct coef *e = &nt[(*n)++];
	e->conf = m->cell.conf;
	e->b = c.pages_per_seg;
	e->u0 = u0;
	e->ok = !coefficients(&c, u0, e->k);
	return e;
}

/* The placement of m if it learns the trace first (fk), else NULL. */
static const struct place_ops *learner(const struct sim *m)
{
	char err[256];
	const struct place_ops *p = place_find(m->opt.cfg.placement, NULL, err, sizeof(err));
	return p && (p->info.flags & PLACE_FUTURE) && p->learn_bytes ? p : NULL;
}

/* Its peak while learning, when a first pass has counted the trace's
 * page events (else the learning pass checks as it grows:
 * sim_learn_pass). */
static uint64_t learn_peak(const struct sim *in, const struct sim *m)
{
	const struct place_ops *p = learner(m);
	uint64_t peak = 0;
	if (p && in->in.events_pass1)
		p->learn_bytes(in->in.pw_pass1 + in->in.pt_pass1, in->in.pw_pass1, &peak);
	return peak;
}

/* --precondition random shuffles the logical pages in an array of its
 * own, freed once the fill is written: 4 bytes a logical page, one
 * model at a time. */
uint64_t sim_fill_bytes(const struct sim *s)
{
	return s->opt.precond == PRECOND_RANDOM ? s->opt.cfg.logical_pages * sizeof(uint32_t) : 0;
}

void sim_check_memory(struct sim *in, struct sim *const *m, unsigned n, unsigned nconf)
{
	uint64_t need = 0, one, maps = 0, built = 0, fill = 0,
		 avail = in->opt.mem_limit ? in->opt.mem_limit : sim_memory_available();
	struct coef *k = NULL;
	in->in.mem_learn = 0;
	size_t nk = 0;
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.vol && m[i]->cell.vol->skip)
			continue;
		if (in->opt.per_volume) {
			const struct coef *e = coef_of(&k, &nk, m[i]);
			if (!e->ok)
				continue; /* the model will refuse it: skipped, with its reason */
			uint64_t U, T, b = resolved(m[i]).pages_per_seg;
			sim_device_space(m[i], &U, &T);
			/* fewer segments than its data fills: refused when built
			 * (too little spare space, whatever its streams), so no
			 * memory (a trace's small volumes, with a device in time's
			 * fixed cost each, would count hundreds of MiB) */
			if (!m[i]->opt.zoned && b && T / b < ftl_data_segments(U, b))
				continue;
			one = coef_bytes(m[i], e->k, U, T) + host_bytes(m[i], model_discards(in, m[i]));
		} else if (sim_memory_estimate(m[i], &one)) {
			goto refused; /* the model refuses the parameters: ftl_new says why */
		} else {
			uint64_t l = learn_peak(in, m[i]);
			one += l + host_bytes(m[i], model_discards(in, m[i]));
			in->in.mem_learn += l;
		}
		need += one;
		built++;
		if (sim_fill_bytes(m[i]) > fill)
			fill = sim_fill_bytes(m[i]);
	}
	need += fill; /* the fills run one after another */
	need += (uint64_t)n * sizeof(struct sim); /* each model's run state, per volume too (skipped or not) */
	free(k);
	k = NULL;
	maps = maps_bytes(in, m, n);
	in->in.mem_estimate = need + maps;
	in->in.mem_limit_used = avail;
	/* A device in time's timeline grows with simulated time: into what
	 * the models leave, in equal shares. */
	unsigned timed = 0;
	for (unsigned i = 0; i < n; i++)
		timed += m[i]->opt.timing;
	for (unsigned i = 0; i < n; i++)
		if (m[i]->opt.timing)
			m[i]->opt.tc.mem_max = avail == UINT64_MAX ? 0 : need + maps < avail ? (avail - need - maps) / timed : 1;
	unsigned long long nvol = in->opt.per_volume ? built / nconf : 1;
	if ((n > 1 || in->opt.per_volume) && !in->opt.quiet)
		fprintf(stderr, "%s: %llu model%s (%llu volume%s x %u configuration%s): about %.1f MiB of model "
			"memory, %.1f MiB of footprint maps (limit %.1f MiB%s)\n",
			prog_name, (unsigned long long)built, built == 1 ? "" : "s", nvol, nvol == 1 ? "" : "s", nconf,
			nconf == 1 ? "" : "s", need / 1048576.0, maps / 1048576.0, avail / 1048576.0,
			in->opt.mem_limit ? "" : ", the memory available");
	if (need + maps <= avail)
		return;
	if (n == 1)
		sim_fail_usage("the model needs %.1f MiB (U = %llu logical, T = %llu physical pages), more "
			    "than the %.1f MiB %s; ftlsim --dry-run shows the estimate",
			    need / 1048576.0, (unsigned long long)m[0]->opt.cfg.logical_pages,
			    (unsigned long long)sim_physical_pages(m[0]), avail / 1048576.0,
			    in->opt.mem_limit ? "of --mem-limit" : "available");
	sim_fail_usage("the models need about %.1f MiB (%llu models, %.1f MiB of footprint maps), over the "
		    "limit of %.1f MiB (%s); select fewer volumes (--volumes top:N, --min-pages), fewer "
		    "configurations, or raise --mem-limit",
		    (need + maps) / 1048576.0, (unsigned long long)built, maps / 1048576.0, avail / 1048576.0,
		    in->opt.mem_limit ? "--mem-limit" : "the memory available");
refused:
	free(k);
}

/* Read the input for up to SAMPLE_S seconds: events, bytes, page writes. */
struct sample {
	uint64_t events, page_writes, page_trims, trims, bytes;
	int64_t t_max; /* the latest event time, from the first */
	double seconds;
	int whole; /* the input ended within the sample */
};

static void sample_input(struct sim *s, struct sample *m)
{
	memset(m, 0, sizeof(*m));
	struct ev e;
	uint64_t P = s->opt.cfg.page_size, done, total;
	double t0 = sim_now();
	int rc = 1;
	while (m->events < SAMPLE_EVENTS && !sig_caught && (rc = sim_next_event(s, &e)) > 0) {
		m->events++;
		if (e.t_ns > m->t_max)
			m->t_max = e.t_ns;
		if (e.op == EV_WRITE)
			m->page_writes += sim_ev_pages(&e, P);
		else if (e.op == EV_DISCARD && e.length) {
			m->page_trims += sim_ev_pages(&e, P);
			m->trims++;
		}
		if ((m->events & 0xfff) == 0 && sim_now() - t0 > SAMPLE_S)
			break;
	}
	m->seconds = sim_now() - t0;
	m->whole = rc == 0;
	if (s->in.t && !trace_position(s->in.t, &done, &total))
		m->bytes = done;
}

/* The bytes a timeline of rows takes: its arrays grow by doubling from
 * 256 rows, as the run allocates them. */
static uint64_t timeline_bytes(double rows)
{
	double cap = 256;
	while (cap < rows)
		cap *= 2;
	return (uint64_t)(cap * TIME_ROW_BYTES);
}

/* The simulated time a device in time takes for pw host page writes (T
 * physical pages), busy the units the host keeps busy (a closed loop's
 * queue depth, at most the units): the host writes at greedy's
 * mean-field WA for this spare space and segment (a uniform workload's;
 * most traces clean less), but for the first T of a drive not
 * preconditioned, which find erased pages; their programs over the
 * units kept busy, the cleaning's copies and erases over every unit (a
 * pass runs on all the dies its segments stripe over). -1 when not
 * known (a zoned device, a host log). */
static double device_span_ns(const struct sim *s, uint64_t T, double pw, unsigned busy)
{
	const struct time_config *tc = &s->opt.tc;
	uint64_t U = s->opt.cfg.logical_pages;
	if (s->opt.zoned || s->opt.host_lfs || T <= U)
		return -1;
	struct ftl_config rc = resolved(s);
	unsigned pps = rc.pages_per_seg, units = time_units(tc);
	double wa = wa_greedy_mf((double)(T - U) / (double)T, pps), er = pps < time_slots(tc) ? pps : time_slots(tc);
	double host = tc->tprog_us + tc->xfer_us,
	       gc = (wa - 1) * (tc->tr_us + tc->tprog_us + 2 * tc->xfer_us) + wa / pps * er * tc->tbers_us;
	if (busy > units)
		busy = units;
	if (wa < 1 || !busy)
		return -1;
	/* A drive not preconditioned cleans nothing until its T pages have
	 * been written once: those writes at WA 1, the rest at the mean field */
	double fresh = s->opt.precond ? 0 : fmin(pw, (double)T);
	return pw * 1e3 * host / busy + (pw - fresh) * 1e3 * gc / units;
}

/* A device in time's timeline, an interval of simulated time a row:
 * its rows for a run of pw host page writes over a trace spanning
 * span_ns (T physical pages); *span_out becomes the run's span. An open
 * loop's span is the trace's, times --time-scale, or the device's work
 * (device_span_ns, every unit busy) when that is longer: it falls
 * behind; it keeps rows only for --timeline. A closed loop's span is
 * the device's own, and it keeps them for the steady-state search.
 * 1 rows kept, 0 none, -1 not known (a zoned device's or a host log's
 * closed loop). */
static int timeline_estimate(const struct sim *s, uint64_t T, double span_ns, double pw, double *rows,
			     double *span_out)
{
	const struct time_config *tc = &s->opt.tc;
	*rows = 0;
	if (!tc->qd) {
		double dev = device_span_ns(s, T, pw, time_units(tc));
		*span_out = fmax(span_ns * tc->time_scale, dev);
		if (!s->opt.timeline_path)
			return 0;
		*rows = *span_out / (double)tc->timeline_ns + 1;
		return 1;
	}
	if (!tc->timeline_ns)
		return -1;
	double dev = device_span_ns(s, T, pw, tc->qd);
	if (dev < 0)
		return -1;
	*span_out = dev;
	*rows = *span_out / (double)tc->timeline_ns + 1;
	return 1;
}

static double model_rate(uint64_t U)
{
	double x = (log2((double)(U ? U : 1)) - 20) / 6;
	x = x < 0 ? 0 : x > 1 ? 1 : x;
	return RATE_SMALL / (1 + (SLOWDOWN_LARGE - 1) * x);
}


void sim_dry_run(struct sim *s)
{
	json_t *j = json_object(), *in = json_object(), *p = json_object(), *mem = json_object(),
	       *est = json_object();
	uint64_t U = s->opt.cfg.logical_pages, T = sim_physical_pages(s), need = 0, done = 0, total = 0;
	int sized = 0;
	struct sample m = {0};
	int table = 0;
	if (s->opt.space != SPACE_GIVEN) {
		/* The space comes from a first pass over the trace, or from
		 * --footprints: take it. */
		double t0 = sim_now();
		sim_measure_space(s, &s, 1);
		U = s->opt.cfg.logical_pages;
		T = sim_physical_pages(s);
		table = s->in.fp_live;
		m = (struct sample){.events = s->in.events_pass1,
				    .page_writes = s->in.pw_pass1,
				    .page_trims = s->in.pt_pass1,
				    .trims = s->in.td_pass1,
				    .t_max = s->in.t_max_pass1,
				    .seconds = sim_now() - t0,
				    .whole = 1};
		if (s->in.from_buf)
			m.bytes = 0;
	} else {
		sim_open_trace(s);
	}
	sim_check_input(s, &s, 1); /* what the run refuses before any model */
	if (s->opt.space == SPACE_GIVEN || table)
		sample_input(s, &m);
	if (s->in.t && !trace_position(s->in.t, &done, &total))
		sized = 1;
	json_object_set_new(j, "program", json_string("ftlsim"));
	json_object_set_new(j, "version", json_string(FTLKIT_VERSION));
	json_object_set_new(j, "dry_run", json_true());
	json_object_set_new(in, "path", json_string(s->opt.path));
	json_object_set_new(in, "format", json_string(s->in.format ? s->in.format : ""));
	json_object_set_new(in, "size_bytes", sized ? json_integer((json_int_t)total) : json_null());
	SETU(in, "events_sampled", m.events);
	json_object_set_new(in, "sample_whole", json_boolean(m.whole));
	double events = (double)m.events;
	if (table)
		events = (double)s->in.fp_want.events; /* the table's count */
	else if (!m.whole && sized && m.bytes)
		events = (double)m.events * ((double)total / (double)m.bytes);
	int known = table || m.whole || (sized && m.bytes);
	json_object_set_new(in, "events_estimated", known ? json_integer((json_int_t)llround(events)) : json_null());
	if (table)
		json_object_set_new(in, "footprints", json_string(s->opt.fp_path));
	json_object_set_new(j, "input", in);
	SETU(p, "page_size", s->opt.cfg.page_size);
	if (s->opt.host_lfs) { /* the device's, under the file system's log */
		SETU(p, "fs_pages", U);
		sim_device_space(s, &U, &T);
	}
	SETU(p, "logical_pages", U);
	SETU(p, "physical_pages_requested", T);
	uint64_t Ud, Td, built, b; /* (the zones are the segments, the logical space rounded up to them) */
	geometry(s, &Ud, &Td, &built, &b);
	SETU(p, "pages_per_segment", b);
	json_object_set_new(p, "pages_per_segment_auto", json_boolean(!s->opt.cfg.pages_per_seg && !s->opt.zoned));
	SETU(p, "segments", b ? built / b : 0);
	SETU(p, "physical_pages", built);
	json_object_set_new(p, "policy", json_string(s->opt.cfg.policy));
	json_object_set_new(p, "placement", json_string(s->opt.cfg.placement));
	json_object_set_new(j, "params", p);
	uint64_t avail = s->opt.mem_limit ? s->opt.mem_limit : sim_memory_available(), tl = 0;
	double tl_rows = 0; /* the timeline's rows, when known (open loop, --timeline) */
	int ok = !sim_memory_estimate(s, &need);
	/* A placement that learns the trace first (fk) keeps what it learnt
	 * of the host page writes, and holds more while learning: the peak. */
	double pw = table ? (double)s->in.fp_want.page_writes
		    : m.events ? (double)m.page_writes / (double)m.events * events : 0;
	double pt = m.events ? (double)m.page_trims / (double)m.events * events : 0;
	const struct place_ops *po = learner(s);
	need += sim_fill_bytes(s); /* the fill's shuffle, freed once it is written */
	/* A device in time's timeline (the sample's span stretched to the
	 * events estimated). */
	if (s->opt.timing) {
		double span = m.events ? (double)m.t_max * events / (double)m.events : 0, rows = 0,
		       trace = span * s->opt.tc.time_scale;
		int kept = timeline_estimate(s, T, span, pw, &rows, &span);
		if (!s->opt.tc.qd && known && span > 1.1 * trace && span > 1e6)
			warn("the device would fall behind the trace: its work at a uniform workload's WA "
			     "(greedy's mean field) takes about %.3g s against the arrivals' %.3g s; "
			     "the latencies would be mostly the backlog's (slow the trace with --time-scale, "
			     "give the device more dies, or give --qd N for a closed loop)",
			     span / 1e9, trace / 1e9);
		if (kept > 0 && !(ok && known))
			kept = -1;
		if (kept < 0) {
			json_object_set_new(mem, "timeline_bytes", json_null());
		} else {
			tl = kept ? timeline_bytes(rows) : 0;
			if (s->opt.timeline_path)
				tl_rows = rows;
			json_object_set_new(mem, "timeline_bytes", json_integer((json_int_t)tl));
			if ((s->opt.tc.qd && kept) || (!s->opt.tc.qd && known))
				json_object_set_new(mem, "timeline_span_s", json_real(span / 1e9));
			need += tl;
		}
	}
	uint64_t peak = need;
	if (ok && po) {
		if (!known)
			ok = 0; /* the trace's size is needed, and not known */
		uint64_t lp;
		need += po->learn_bytes((uint64_t)llround(pw + pt), (uint64_t)llround(pw), &lp);
		peak += lp;
	}
	json_object_set_new(mem, "model_bytes", ok ? json_integer((json_int_t)need) : json_null());
	if (po)
		json_object_set_new(mem, "learn_peak_bytes", ok ? json_integer((json_int_t)peak) : json_null());
	/* the host above the device (the TRIM host's page state) */
	double scale = m.events ? events / (double)m.events : 1; /* the sample to the whole */
	uint64_t hb = host_bytes(s, (struct discards){!(m.whole && !m.trims), (uint64_t)llround((double)m.trims * scale),
						     (int64_t)((double)m.t_max * scale)});
	SETU(mem, "host_bytes", hb);
	/* a footprint's numbering, from the first pass */
	uint64_t maps = s->opt.space == SPACE_FOOTPRINT ? maps_bytes(s, &s, 1) : 0;
	if (s->opt.space == SPACE_FOOTPRINT)
		SETU(mem, "footprint_map_bytes", maps);
	json_object_set_new(mem, "total_bytes", ok ? json_integer((json_int_t)(peak + hb + maps)) : json_null());
	peak += hb + maps;
	/* What is available, whatever --mem-limit says (limit_bytes has it,
	 * and fits is checked against it). */
	uint64_t sys = s->opt.mem_limit ? sim_memory_available() : avail;
	json_object_set_new(mem, "available_bytes", sys == UINT64_MAX ? json_null() : json_integer((json_int_t)sys));
	if (s->opt.mem_limit)
		SETU(mem, "limit_bytes", s->opt.mem_limit);
	json_object_set_new(mem, "fits", json_boolean(ok && peak <= avail));
	json_object_set_new(j, "memory", mem);
	/* The model built as the run builds it, and freed: what it refuses
	 * (too little spare space, a placement's streams) the run would.
	 * Not when the run would refuse its memory first. */
	char why[1024];
	int refused = !ok || peak <= avail ? sim_try_model(s, s, why, sizeof(why)) : 0;
	json_object_set_new(j, "refused", refused ? json_string(why) : json_null());
	/* Time: reading at the sampled speed, and the model at its measured
	 * rate for every host page write plus the preconditioning fill. */
	double read_rate = m.seconds > 0 ? (double)m.events / m.seconds : 0;
	double pages = pw;
	if (s->opt.precond)
		pages += (double)U;
	double run = (read_rate > 0 ? events / read_rate : 0) + pages / model_rate(U) +
		     (s->opt.timing ? pages / TIME_PAGE_WRITES_PER_S : 0) + tl_rows * TIMELINE_ROW_S +
		     (ok ? (double)need / BUILD_BYTES_PER_S : 0);
	json_object_set_new(est, "read_events_per_s", json_real(read_rate));
	json_object_set_new(est, "model_page_writes_per_s", json_real(model_rate(U)));
	if (s->opt.timing)
		json_object_set_new(est, "time_page_writes_per_s", json_real(TIME_PAGE_WRITES_PER_S));
	json_object_set_new(est, "host_pages_estimated", known ? json_integer((json_int_t)llround(pages)) : json_null());
	json_object_set_new(est, "run_s", known ? json_real(run) : json_null());
	json_object_set_new(j, "estimate", est);
	json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	putchar('\n');
	json_decref(j);
	if (fflush(stdout) || ferror(stdout))
		sim_fail("error writing standard output");
	if (refused == -2)
		sim_fail("%s", why);
	if (refused)
		sim_fail_usage("%s", why);
	if (ok && peak > avail)
		sim_fail_usage("the model needs %.1f MiB, more than the %.1f MiB %s%s", peak / 1048576.0,
			       avail / 1048576.0, s->opt.mem_limit ? "of --mem-limit" : "available",
			       tl > peak / 2 ? "; most of it the timeline (timeline_bytes): raise --timeline-interval" : "");
}

/* A model's host page writes in its page size, from the first pass (a
 * volume's own). */
static double host_pw(const struct sim *in, const struct sim *x)
{
	return x->cell.vol ? (double)x->cell.vol->write_pages
			   : (double)in->in.pw_pass1 * in->opt.cfg.page_size / x->opt.cfg.page_size;
}

/*
 * --dry-run of several models (--grid, --per-volume): after the first
 * pass (footprints, volumes) the memory of every model, as the run
 * would count it before it starts, and their total against the limit.
 */
void sim_dry_run_models(struct sim *in, struct sim *const *m, unsigned n, unsigned nconf)
{
	json_t *j = json_object(), *inp = json_object(), *arr = json_array(), *mem = json_object();
	uint64_t need = 0, hosts = 0, maps = 0, fill = 0,
		 avail = in->opt.mem_limit ? in->opt.mem_limit : sim_memory_available();
	unsigned built = 0, skipped = 0, refused = 0, behind = 0;
	char first_behind[700] = "";
	double model_s = 0;
	int learns = 0;
	struct coef *k = NULL;
	size_t nk = 0;
	char why[1024], last[1600] = "", label[512];
	for (unsigned i = 0; i < n; i++) {
		struct sim *x = m[i];
		x->opt.cfg.physical_pages = sim_physical_pages(x);
		json_t *o = json_object();
		if (in->opt.per_volume && x->cell.vol)
			SETU(o, "volume", x->cell.vol->id);
		if (in->opt.grid.naxes) {
			json_t *ax = json_object();
			for (unsigned a = 0; a < in->opt.grid.naxes; a++)
				json_object_set_new(ax, in->opt.grid.axis[a].name, json_string(x->cell.axis_val[a]));
			json_object_set_new(o, "axes", ax);
		}
		uint64_t U, T, phys, b;
		geometry(x, &U, &T, &phys, &b);
		SETU(o, "logical_pages", U);
		SETU(o, "physical_pages", phys);
		if (x->opt.host_lfs)
			SETU(o, "fs_pages", x->opt.cfg.logical_pages);
		SETU(o, "pages_per_segment", b);
		uint64_t one = 0;
		int ok = 0, rc = 0, vskip = x->cell.vol && x->cell.vol->skip;
		if (vskip) {
			json_object_set_new(o, "skipped", json_string(x->cell.vol->skip));
		} else {
			const struct coef *e = coef_of(&k, &nk, x);
			ok = e->ok;
			if (ok)
				one = coef_bytes(x, e->k, U, T);
			if (ok && !in->opt.per_volume) /* fk's learning, as the run counts it */
				one += learn_peak(in, x);
			if (ok && x->opt.timing && in->opt.per_volume) { /* a volume keeps no timeline */
				json_object_set_new(o, "timeline_bytes", json_integer(0));
			} else if (ok && x->opt.timing) { /* its timeline, from the first pass */
				double rows = 0, span = (double)in->in.t_max_pass1;
				int kept = timeline_estimate(x, T, span, host_pw(in, x), &rows, &span);
				double trace = (double)in->in.t_max_pass1 * x->opt.tc.time_scale;
				if (!x->opt.tc.qd && in->in.events_pass1 && span > 1.1 * trace && span > 1e6 &&
				    !behind++)
					snprintf(first_behind, sizeof(first_behind), "%s: about %.3g s against %.3g s",
						 sim_conf_label(in, x, label, sizeof(label)), span / 1e9, trace / 1e9);
				if (kept > 0 && !in->in.events_pass1)
					kept = -1; /* no first pass: the trace's size is not known */
				uint64_t tl = kept > 0 ? timeline_bytes(rows) : 0;
				json_object_set_new(o, "timeline_bytes", kept < 0 ? json_null() : json_integer((json_int_t)tl));
				one += tl;
			}
			/* built and freed as the run would build it, one at a
			 * time: per volume a refused one is skipped, in a grid
			 * it stops the run */
			if ((!ok || one <= avail) && (rc = sim_try_model(in, x, why, sizeof(why))) == -2)
				sim_fail("%s: %s", sim_conf_label(in, x, label, sizeof(label)), why);
			if (rc)
				json_object_set_new(o, in->opt.per_volume ? "skipped" : "refused", json_string(why));
			if (rc && !in->opt.per_volume) {
				if (last[0]) /* each said as it comes, the last at the end */
					warn("%s", last);
				snprintf(last, sizeof(last), "%s: %s", sim_conf_label(in, x, label, sizeof(label)), why);
			}
			/* its time: its host page writes (and fill) in the
			 * model and a device in time, and building its map
			 * (a device in time's histograms are touched as used) */
			double pages = host_pw(in, x) + (x->opt.precond ? (double)U : 0);
			if (ok && !rc) {
				model_s += pages / model_rate(U) + (x->opt.timing ? pages / TIME_PAGE_WRITES_PER_S : 0) +
					   (double)linear(e->k, U, T) / BUILD_BYTES_PER_S;
				learns |= learner(x) != NULL;
			}
		}
		/* the memory the run checks: every model its estimate covers
		 * (per volume, not one refused when built: it is skipped) */
		if (rc && in->opt.per_volume)
			one = 0;
		uint64_t hb = ok && one ? host_bytes(x, model_discards(in, x)) : 0;
		json_object_set_new(o, "model_bytes", ok ? json_integer((json_int_t)one) : json_null());
		json_object_set_new(o, "host_bytes", ok ? json_integer((json_int_t)hb) : json_null());
		json_array_append_new(arr, o);
		need += one;
		hosts += hb;
		if (ok && sim_fill_bytes(m[i]) > fill)
			fill = sim_fill_bytes(m[i]);
		built += !vskip && !rc;
		skipped += vskip || (rc && in->opt.per_volume);
		refused += rc && !in->opt.per_volume;
	}
	free(k);
	if (behind)
		warn("the device would fall behind the trace in %u of %u configurations (the first, %s): its work "
		     "at a uniform workload's WA (greedy's mean field) outlasts the arrivals, and the latencies would "
		     "be mostly the backlog's (slow the trace with --time-scale, give the device more dies, or give "
		     "--qd N for a closed loop)",
		     behind, n, first_behind);
	need += (uint64_t)n * sizeof(struct sim); /* each model's run state, as the run counts it */
	maps = maps_bytes(in, m, n);
	json_object_set_new(j, "program", json_string("ftlsim"));
	json_object_set_new(j, "version", json_string(FTLKIT_VERSION));
	json_object_set_new(j, "dry_run", json_true());
	json_object_set_new(inp, "path", json_string(in->opt.path));
	json_object_set_new(inp, "format", json_string(in->in.format ? in->in.format : ""));
	json_object_set_new(inp, "events", in->in.fp_live ? json_integer((json_int_t)in->in.fp_total_events)
					   : sim_needs_pass1(m, n) || in->opt.per_volume
						   ? json_integer((json_int_t)in->in.events_pass1) : json_null());
	json_object_set_new(j, "input", inp);
	SETU(j, "configurations", nconf);
	SETU(j, "models", built);
	SETU(j, "models_skipped", skipped);
	if (!in->opt.per_volume)
		SETU(j, "models_refused", refused);
	json_object_set_new(j, "per_model", arr);
	need += fill;
	SETU(mem, "model_bytes", need);
	SETU(mem, "host_bytes", hosts);
	SETU(mem, "footprint_map_bytes", maps);
	need += hosts;
	SETU(mem, "total_bytes", need + maps);
	json_object_set_new(mem, "limit_bytes", avail == UINT64_MAX ? json_null() : json_integer((json_int_t)avail));
	json_object_set_new(mem, "fits", json_boolean(need + maps <= avail));
	json_object_set_new(j, "memory", mem);
	/* Time, known only after a first pass: that pass, once more for a
	 * model that learns the trace first, and the replay: the trace read
	 * again while the workers (--jobs) share the models' work. */
	json_t *est = json_object();
	int timed = in->in.events_pass1 > 0;
	unsigned jobs = built ? sim_threads(in, built) : 1;
	double rd = in->in.pass1_s, replay = jobs > 1 ? fmax(rd, model_s / jobs) : rd + model_s;
	json_object_set_new(est, "read_s", timed ? json_real(rd) : json_null());
	json_object_set_new(est, "models_s", timed ? json_real(model_s) : json_null());
	SETU(est, "jobs", jobs);
	json_object_set_new(est, "run_s", timed ? json_real(rd * (1 + learns) + replay) : json_null());
	json_object_set_new(j, "estimate", est);
	json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	putchar('\n');
	json_decref(j);
	if (fflush(stdout) || ferror(stdout))
		sim_fail("error writing standard output");
	if (need + maps > avail) {
		if (last[0])
			warn("%s", last);
		sim_fail_usage("the models need about %.1f MiB (%u models, %.1f MiB of footprint maps), over the limit of %.1f MiB",
		    (need + maps) / 1048576.0, built, maps / 1048576.0, avail / 1048576.0);
	}
	if (refused == 1)
		sim_fail_usage("%s", last);
	if (refused) {
		warn("%s", last);
		sim_fail_usage("%u of the %u configurations are refused (each said above); the run stops at the first",
			       refused, n);
	}
}
