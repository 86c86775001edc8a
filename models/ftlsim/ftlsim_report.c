/*
 * ftlsim_report.c - ftlsim's reports: the CSV files (--curve, --hist,
 * --erase-hist), written under a temporary name and renamed into place
 * at the end, and the JSON summary on stdout.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ftlsim.h"
#include "place.h"

void sim_abort_outputs(struct sim *s)
{
	out_abort(&s->out.curve);
	out_abort(&s->out.hist);
	out_abort(&s->out.ehist);
	out_abort(&s->out.flashops);
	out_abort(&s->out.timeline);
	out_abort(&s->out.latency);
}

static FILE *fp_of(struct outfile *o) { return o->fp; }

/* Flash page writes of counts c, and of a device so far. */
static uint64_t flash_of(const struct ftl_counts *c) { return c->host_pages + c->gc_pages + c->wl_pages; }
static uint64_t flash_pages(const struct dev_stats *f) { return flash_of(&f->c); }

static void open_out(struct outfile *o, const char *path, const char *header)
{
	char err[512];
	if (!path)
		return;
	if (out_open(o, path, err, sizeof(err)))
		sim_fail("%s", err);
	fputs(header, fp_of(o));
}

void sim_open_outputs(struct sim *s)
{
	open_out(&s->out.curve, s->opt.curve_path,
		 "host_pages_written,interval_wa,cumulative_wa,free_segments,segments_cleaned,"
		 "victim_utilization_mean,t_ns,trim_leak_pages,fs_pages_written,stacked_interval_wa,"
		 "stacked_cumulative_wa\n");
	open_out(&s->out.hist, s->opt.hist_path, "kind,snapshot,host_pages_written,valid_pages,utilization,segments\n");
	open_out(&s->out.ehist, s->opt.erase_path, "erase_count,segments\n");
	open_out(&s->out.flashops, s->opt.flashops_path, "kind,cause,segment,ppn,lpn,stream,t_ns\n");
	if (!s->opt.per_volume) /* (a volume's model: --latency is the run's, all volumes together) */
		sim_time_open_outputs(s);
}

/* One row per flash operation (docs/OUTPUTS.md): a debugging view. */
int sim_flash_op(void *ctx, const struct ftl *f, const struct flash_op *op)
{
	struct sim *s = ctx;
	FILE *fp = fp_of(&s->out.flashops);
	if (op->kind == FLASH_ERASE)
		fprintf(fp, "erase,%s,%u,,,%u,%llu\n", flash_cause_name(op->cause), op->seg, op->stream,
			(unsigned long long)op->t_ns);
	else
		fprintf(fp, "%s,%s,%u,%u,%u,%u,%llu\n", flash_kind_name(op->kind), flash_cause_name(op->cause),
			op->seg, op->ppn, op->lpn, op->stream, (unsigned long long)op->t_ns);
	return 0;
}

static void print_ratio(FILE *fp, double x)
{
	if (x >= 0)
		fprintf(fp, "%.6f", x);
}

int sim_curve_row(void *ctx)
{
	struct sim *s = ctx;
	FILE *fp = fp_of(&s->out.curve);
	if (!fp)
		return 0;
	struct dev_stats st;
	sim_stats(s, &st);
	const struct dev_stats *f = &st;
	uint64_t nv = f->c.victims - f->ci.victims;
	fprintf(fp, "%llu,", (unsigned long long)f->c.host_pages);
	print_ratio(fp, ftl_wa(&f->c, &f->ci));
	fputc(',', fp);
	print_ratio(fp, ftl_wa(&f->c, &(struct ftl_counts){0}));
	fprintf(fp, ",%u,%llu,", f->free_segments, (unsigned long long)nv);
	if (nv)
		print_ratio(fp, (double)(f->c.victim_valid - f->ci.victim_valid) / nv / f->pages_per_seg);
	fprintf(fp, ",%lld", (long long)f->now_ns);
	struct host_stats hs;
	s->cell.hops->stats(s->cell.host, &hs);
	fputc(',', fp);
	if (hs.leak_known)
		fprintf(fp, "%llu", (unsigned long long)hs.leak_pages);
	if (hs.is_log) { /* a host log: the file system's writes, and flash's over them */
		uint64_t fl = flash_of(&f->c), fs = hs.log_host_pages;
		fprintf(fp, ",%llu,", (unsigned long long)fs);
		print_ratio(fp, fs > s->run.curve_fs ? (double)(fl - flash_of(&f->ci)) / (double)(fs - s->run.curve_fs) : -1);
		fputc(',', fp);
		print_ratio(fp, fs ? (double)fl / (double)fs : -1);
		s->run.curve_fs = fs;
	} else {
		fputs(",,,", fp);
	}
	fputc('\n', fp);
	return 0;
}

static void hist_rows(struct sim *s, const char *kind, uint64_t snap, const uint64_t *bins)
{
	FILE *fp = fp_of(&s->out.hist);
	struct dev_stats st;
	sim_stats(s, &st);
	for (uint32_t v = 0; v <= st.pages_per_seg; v++)
		fprintf(fp, "%s,%llu,%llu,%u,%.6f,%llu\n", kind, (unsigned long long)snap,
			(unsigned long long)st.c.host_pages, v, (double)v / st.pages_per_seg,
			(unsigned long long)bins[v]);
}

/* A histogram of the device's (enum dev_hist), allocated (NULL when out
 * of memory), with *nbins bins. */
static uint64_t *dev_hist_of(const struct sim *s, int kind, size_t *nbins)
{
	struct dev_stats st;
	sim_stats(s, &st);
	size_t n = kind == DEV_HIST_ERASE ? (size_t)st.erase_max + 1 : (size_t)st.pages_per_seg + 1;
	uint64_t *bins = malloc(n * sizeof(uint64_t));
	if (!bins)
		return NULL;
	if (s->cell.dops->hist(s->cell.dev, kind, bins, n)) {
		free(bins);
		sim_fail("device '%s' has no histogram of kind %d in %zu bins", s->cell.dops->name, kind, n);
	}
	*nbins = n;
	return bins;
}

int sim_snapshot(void *ctx)
{
	struct sim *s = ctx;
	size_t n;
	uint64_t *bins = dev_hist_of(s, DEV_HIST_SEALED, &n);
	if (!bins)
		return -1;
	hist_rows(s, "sealed", ++s->out.snapshots, bins);
	free(bins);
	struct dev_stats st;
	sim_stats(s, &st);
	s->out.snap_host = st.c.host_pages;
	return 0;
}

static void erase_rows(struct sim *s)
{
	size_t n;
	uint64_t *cnt = dev_hist_of(s, DEV_HIST_ERASE, &n);
	if (!cnt)
		sim_fail("out of memory");
	for (size_t e = 0; e < n; e++)
		if (cnt[e])
			fprintf(fp_of(&s->out.ehist), "%zu,%llu\n", e, (unsigned long long)cnt[e]);
	free(cnt);
}

/* Final rows (sim_commit_outputs renames the files into place). */
void sim_finish_outputs(struct sim *s)
{
	struct dev_stats st;
	sim_stats(s, &st);
	if (s->out.curve.fp && st.c.host_pages != st.ci.host_pages)
		sim_curve_row(s);
	if (s->out.hist.fp) {
		size_t n;
		uint64_t *victims;
		/* the end's snapshot, unless --snapshot-every took it there */
		if ((s->out.snapshots && s->out.snap_host == st.c.host_pages ? 0 : sim_snapshot(s)) ||
		    !(victims = dev_hist_of(s, DEV_HIST_VICTIMS, &n)))
			sim_fail("out of memory");
		hist_rows(s, "victims", 0, victims);
		free(victims);
	}
	if (s->out.ehist.fp)
		erase_rows(s);
	sim_time_finish_outputs(s);
}

/* Every output file renamed into place, once every one is written (a
 * signal before then leaves none: sim_abort_all). */
/* fn (out_close or out_commit) on each of a model's files, in order;
 * the first to fail fails the run. */
static void each_output(struct sim *s, int (*fn)(struct outfile *, char *, size_t))
{
	char err[512];
	struct outfile *o[] = {&s->out.curve,	 &s->out.hist,	  &s->out.ehist,  &s->out.flashops,
			       &s->out.timeline, &s->out.latency, &s->out.results};
	for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++)
		if (fn(o[i], err, sizeof(err)))
			sim_fail("%s", err);
}

void sim_close_outputs(struct sim *s) { each_output(s, out_close); }

void sim_commit_outputs(struct sim *s) { each_output(s, out_commit); }

/*
 * The JSON summary.
 */

static json_t *jratio(double x) { return x >= 0 ? json_real(x) : json_null(); }

static json_t *j_params(const struct sim *s)
{
	static const char *const spaces[] = {"given", "extent", "footprint"};
	static const char *const oors[] = {"error", "drop", "clip"};
	static const char *const preconds[] = {"none", "seq", "random"};
	struct dev_stats st;
	sim_stats(s, &st);
	const struct dev_stats *f = &st;
	json_t *p = json_object();
	SETU(p, "seed", s->opt.cfg.seed);
	SETU(p, "page_size", f->page_size);
	json_object_set_new(p, "logical_space", json_string(spaces[s->opt.space]));
	SETU(p, "logical_pages", f->logical_pages);
	SETU(p, "pages_per_segment", f->pages_per_seg);
	json_object_set_new(p, "pages_per_segment_auto", json_boolean(!s->opt.cfg.pages_per_seg));
	uint64_t dU, dT; /* under a host log the device's request: the log's pages and their spare */
	sim_device_space(s, &dU, &dT);
	SETU(p, "physical_pages_requested", dT);
	SETU(p, "physical_pages", f->physical_pages);
	SETU(p, "segments", f->segments);
	json_object_set_new(p, "segment_rounding", json_string("down"));
	json_object_set_new(p, "op", json_real((double)(f->physical_pages - f->logical_pages) / f->logical_pages));
	json_object_set_new(p, "spare_factor", json_real((double)(f->physical_pages - f->logical_pages) / f->physical_pages));
	json_object_set_new(p, "policy", json_string(s->opt.cfg.policy));
	json_object_set_new(p, "placement", json_string(s->opt.cfg.placement));
	SETU(p, "streams", f->streams);
	SETU(p, "gc_low_segments", f->gc_low);
	SETU(p, "gc_high_segments", f->gc_high);
	char trig[64] = "watermark";
	if (s->opt.cfg.gc_gp > 0)
		snprintf(trig, sizeof(trig), "gp:%g", s->opt.cfg.gc_gp);
	json_object_set_new(p, "gc_trigger", json_string(trig));
	SETU(p, "gc_batch", f->gc_batch);
	SETU(p, "gc_ops", f->gc_ops);
	json_object_set_new(p, "gc_tie", json_string(s->opt.cfg.tie_random ? "random" : "oldest"));
	json_object_set_new(p, "spare_share", json_string(s->opt.cfg.spare_share ? "opt" : "shared"));
	json_object_set_new(p, "trim", json_boolean(s->opt.cfg.trim));
	char mode[64];
	json_object_set_new(p, "trim_mode", json_string(trim_mode_name(&s->opt.trim, mode, sizeof(mode))));
	SETU(p, "discard_granularity", s->opt.trim.granularity);
	SETU(p, "discard_max", s->opt.trim.max);
	json_object_set_new(p, "trim_loss", json_real(s->opt.trim.loss));
	json_object_set_new(p, "out_of_range", json_string(oors[s->opt.cfg.oor]));
	json_object_set_new(p, "precondition", json_string(preconds[s->opt.precond]));
	SETU(p, "warmup_writes", s->opt.cfg.warmup_writes);
	json_object_set_new(p, "wear_level", json_string(s->opt.wear ? s->opt.wear : "none"));
	json_object_set_new(p, "check", json_boolean(s->opt.cfg.check));
	SETU(p, "interval", f->interval);
	SETU(p, "snapshot_every", s->opt.snapshot_every);
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

/* The host layer's ledger (host.h): events in and out by operation,
 * what it did to the discards, the leak. */
static json_t *j_host_ops(const uint64_t *n)
{
	json_t *o = json_object();
	SETU(o, "reads", n[EV_READ]);
	SETU(o, "writes", n[EV_WRITE]);
	SETU(o, "discards", n[EV_DISCARD]);
	SETU(o, "flushes", n[EV_FLUSH]);
	SETU(o, "zone_ops", n[EV_ZONE_RESET] + n[EV_ZONE_OPEN] + n[EV_ZONE_FINISH] + n[EV_ZONE_APPEND]);
	return o;
}

static json_t *j_host(const struct sim *s)
{
	struct host_stats h;
	s->cell.hops->stats(s->cell.host, &h);
	json_t *o = json_object();
	json_object_set_new(o, "layer", json_string(s->cell.hops->name));
	json_object_set_new(o, "in", j_host_ops(h.in));
	json_object_set_new(o, "out", j_host_ops(h.out));
	SETU(o, "discard_pages", h.discard_pages);
	SETU(o, "discards_held", h.discards_held);
	SETU(o, "batches", h.batches);
	SETU(o, "discards_dropped", h.discards_dropped);
	SETU(o, "discard_pages_dropped", h.discard_pages_dropped);
	SETU(o, "discards_split", h.discards_split);
	SETU(o, "discards_lost", h.discards_lost);
	SETU(o, "discard_pages_lost", h.discard_pages_lost);
	SETU(o, "discard_pages_rewritten", h.discard_pages_rewritten);
	SETU(o, "discard_pages_pending", h.discard_pages_pending);
	json_object_set_new(o, "trim_leak_pages", h.leak_known ? json_integer((json_int_t)h.leak_pages) : json_null());
	json_object_set_new(o, "trim_leak_pages_peak", h.leak_known ? json_integer((json_int_t)h.leak_peak) : json_null());
	json_object_set_new(o, "trim_leak_pages_mean", h.leak_known && h.leak_mean >= 0 ? json_real(h.leak_mean) : json_null());
	SETU(o, "memory_bytes", h.mem_bytes);
	return o;
}

/* LFS write cost of a window: (new data + copies + whole segments read)
 * / new data; a non-empty victim is read whole, an empty one not at all. */
static double write_cost(const struct dev_stats *f, const struct ftl_counts *a, const struct ftl_counts *z)
{
	uint64_t h = a->host_pages - z->host_pages;
	if (!h)
		return -1;
	uint64_t copies = (a->gc_pages - z->gc_pages) + (a->wl_pages - z->wl_pages);
	uint64_t reads = (a->victims - z->victims) - (a->victims_empty - z->victims_empty) +
			 (a->wl_moves - z->wl_moves);
	return (double)(h + copies + reads * f->pages_per_seg) / h;
}

static double util_mean(const struct dev_stats *f, const struct ftl_counts *a, const struct ftl_counts *z)
{
	uint64_t n = a->victims - z->victims;
	return n ? (double)(a->victim_valid - z->victim_valid) / n / f->pages_per_seg : -1;
}

static json_t *j_counts(const struct dev_stats *f, const struct ftl_counts *a, const struct ftl_counts *z)
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
	struct dev_stats f;
	sim_stats(s, &f);
	const struct dev_time *t = sim_time(s);
	json_t *a = json_array();
	for (unsigned i = 0; i < f.streams; i++) {
		struct dev_stream st;
		s->cell.dops->stream(s->cell.dev, i, &st);
		json_t *o = json_object();
		SETU(o, "stream", i);
		json_object_set_new(o, "name", json_string(st.name));
		SETU(o, "host_pages_written", st.host_pages);
		SETU(o, "gc_pages_copied", st.gc_pages);
		SETU(o, "segments_sealed", st.sealed);
		SETU(o, "segments_cleaned", st.victims);
		json_object_set_new(o, "victim_utilization_mean",
				    jratio(st.victims ? (double)st.victim_valid / st.victims / f.pages_per_seg : -1));
		if (st.origin_gc_pages != UINT64_MAX) /* the copies its writes caused, wherever they went */
			SETU(o, "gc_pages_of_its_writes", st.origin_gc_pages);
		if (t && t->nstreams) { /* a device in time: the latencies of the writes it took */
			static const struct lhist none; /* empty (lhist_init zeroes) */
			json_object_set_new(o, "write_latency_us",
					    sim_j_lat(i < t->nstreams && t->lat_stream[i] ? t->lat_stream[i] : &none));
		}
		json_array_append_new(a, o);
	}
	return a;
}

/* Erase counts: min, mean and max over every segment, from the device's
 * histogram. */
static json_t *j_erase(const struct sim *s)
{
	size_t n;
	uint64_t *cnt = dev_hist_of(s, DEV_HIST_ERASE, &n), sum = 0, segs = 0;
	if (!cnt)
		sim_fail("out of memory");
	uint32_t lo = UINT32_MAX, hi = 0;
	for (size_t e = 0; e < n; e++)
		if (cnt[e]) {
			sum += (uint64_t)e * cnt[e];
			segs += cnt[e];
			lo = (uint32_t)e < lo ? (uint32_t)e : lo;
			hi = (uint32_t)e;
		}
	free(cnt);
	json_t *o = json_object();
	SETU(o, "min", lo);
	json_object_set_new(o, "mean", json_real((double)sum / segs));
	SETU(o, "max", hi);
	return o;
}

static json_t *j_timing(double elapsed, uint64_t host, uint64_t flash)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	json_t *o = json_object();
	json_object_set_new(o, "elapsed_s", json_real(elapsed));
	json_object_set_new(o, "page_writes_per_s", json_real(elapsed > 0 ? host / elapsed : 0));
	json_object_set_new(o, "flash_page_writes_per_s", json_real(elapsed > 0 ? flash / elapsed : 0));
	json_object_set_new(o, "cpu_s", json_real(ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
						  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6));
	SETU(o, "max_rss_kb", ru.ru_maxrss);
	return o;
}


/* Host and flash page writes of model m (0 without a device). */
static void pages_of(const struct sim *m, uint64_t *host, uint64_t *flash)
{
	struct dev_stats st;
	*host = *flash = 0;
	if (!m->cell.dev)
		return;
	sim_stats(m, &st);
	*host = st.c.host_pages;
	*flash = flash_pages(&st);
}

/* The input of model m (NULL: of the run): with --per-volume, its volume's events. */
static json_t *j_input_of(const struct sim *in, const struct sim *m)
{
	json_t *o = json_object();
	json_object_set_new(o, "path", json_string(in->opt.path));
	json_object_set_new(o, "format", in->in.format ? json_string(in->in.format) : json_null());
	SETU(o, "events", m && m->cell.vol ? m->cell.vol->events : in->in.events);
	SETU(o, "bad_records_skipped", in->in.bad_skipped); /* (the input's: a volume's too) */
	json_object_set_new(o, "volumes_mixed", json_boolean(m && m->cell.vol ? 0 : in->in.volumes_mixed));
	if (in->opt.age_path) {
		json_t *a = json_object();
		json_object_set_new(a, "path", json_string(in->opt.age_path));
		json_object_set_new(a, "format", in->in.age_format ? json_string(in->in.age_format) : json_null());
		SETU(a, "events", in->in.age_events);
		SETU(a, "bad_records_skipped", in->in.age_bad_skipped);
		json_object_set_new(o, "ageing", a);
	}
	return o;
}

static json_t *j_input(const struct sim *in)
{
	return j_input_of(in, NULL);
}

/* One model's fields of the summary: its parameters, what it did. */
static void add_model(json_t *j, const struct sim *s)
{
	struct dev_stats st;
	sim_stats(s, &st);
	const struct dev_stats *f = &st;
	static const struct ftl_counts zero;
	json_object_set_new(j, "params", j_params(s));
	json_object_set_new(j, "requests", j_requests(&f->r));
	json_object_set_new(j, "host", j_host(s));
	SETU(j, "precondition_pages_written", f->precond_pages);
	if (s->opt.age_path)
		SETU(j, "ageing_pages_written", f->aged_pages);
	SETU(j, "host_pages_written", f->c.host_pages);
	SETU(j, "gc_pages_copied", f->c.gc_pages);
	SETU(j, "wl_pages_copied", f->c.wl_pages);
	SETU(j, "flash_pages_written", flash_pages(f));
	SETU(j, "segments_cleaned", f->c.victims);
	SETU(j, "segments_cleaned_empty", f->c.victims_empty);
	SETU(j, "wl_segments_moved", f->c.wl_moves);
	SETU(j, "gc_passes", f->gc_passes);
	if (f->gp_max > 0)
		SETU(j, "gp_watermark_passes", f->gp_watermark_passes);
	json_object_set_new(j, "wa_total", jratio(ftl_wa(&f->c, &zero)));
	json_object_set_new(j, "wa_measured", jratio(f->measuring ? ftl_wa(&f->c, &f->c0) : -1));
	json_object_set_new(j, "write_cost", jratio(f->measuring ? write_cost(f, &f->c, &f->c0) : -1));
	json_object_set_new(j, "victim_utilization_mean",
			    jratio(f->measuring ? util_mean(f, &f->c, &f->c0) : -1));
	json_t *meas = json_null();
	if (f->measuring) {
		/* The window in host page writes: after the first
		 * host_pages_before (the warm-up; a tracegen --fill stream's
		 * writes are host writes too), up to host_pages_total. */
		meas = j_counts(f, &f->c, &f->c0);
		SETU(meas, "host_pages_before", f->c0.host_pages);
		SETU(meas, "host_pages_total", f->c.host_pages);
	}
	json_object_set_new(j, "measured", meas);
	json_object_set_new(j, "streams", j_streams(s));
	json_object_set_new(j, "erase_count", j_erase(s));
	SETU(j, "free_segments", f->free_segments);
	SETU(j, "sealed_segments", f->sealed_segments);
	json_t *m = json_object();
	SETU(m, "model_bytes", f->mem_bytes);
	json_object_set_new(m, "bytes_per_physical_page", json_real((double)f->mem_bytes / f->physical_pages));
	json_object_set_new(j, "memory", m);
	json_t *fdp = sim_fdp_json(s, f);
	if (fdp)
		json_object_set_new(j, "fdp", fdp);
	if (f->flags & DEV_ZONED) {
		json_t *z = json_object();
		SETU(z, "zone_pages", f->pages_per_seg);
		SETU(z, "zone_capacity_pages", f->zone_capacity_pages);
		SETU(z, "zones", f->segments);
		SETU(z, "resets", f->zone_resets);
		SETU(z, "finishes", f->zone_finishes);
		SETU(z, "finish_pad_pages", f->zone_pad_pages);
		SETU(z, "write_errors_skipped", f->zone_errors);
		SETU(z, "reads_unwritten_pages", f->zone_reads_unwritten);
		SETU(z, "open", f->zones_open);
		SETU(z, "active", f->zones_active);
		json_object_set_new(j, "zoned", z);
	}
	if (s->opt.host_lfs && s->cell.host) {
		struct host_stats hs;
		s->cell.hops->stats(s->cell.host, &hs);
		json_t *h = json_object();
		json_object_set_new(h, "policy", json_string(s->opt.lfs.policy));
		json_object_set_new(h, "placement", json_string(s->opt.lfs.placement));
		json_object_set_new(h, "discard", json_boolean(s->opt.lfs.discard));
		SETU(h, "segment_bytes", s->opt.lfs.segment_bytes);
		SETU(h, "segment_pages", hs.log_segment_pages);
		SETU(h, "offset_bytes", s->opt.lfs.offset_bytes);
		SETU(h, "fs_pages", s->opt.cfg.logical_pages);
		SETU(h, "log_pages", hs.log_pages);
		SETU(h, "fs_pages_written", hs.log_host_pages);
		SETU(h, "gc_pages_copied", hs.log_gc_pages);
		SETU(h, "segments_cleaned", hs.log_segments_cleaned);
		SETU(h, "discards_sent", hs.log_discards);
		SETU(h, "device_writes_sent", hs.out[EV_WRITE]);
		SETU(h, "device_reads_sent", hs.out[EV_READ]);
		SETU(h, "requests_out_of_range", hs.log_out_of_range);
		SETU(h, "read_pages", hs.log_read_pages);
		SETU(h, "read_pages_holes", hs.log_read_holes);
		json_object_set_new(h, "wa_host", jratio(hs.log_wa));
		json_object_set_new(h, "wa_device", jratio(ftl_wa(&f->c, &zero)));
		json_object_set_new(h, "wa_stacked",
				    hs.log_host_pages ? json_real((double)flash_pages(f) / (double)hs.log_host_pages) : json_null());
		/* over the device's measured window (after --warmup-writes):
		 * the file system's writes then, and the log's and flash's */
		uint64_t fsm = hs.log_measuring ? hs.log_host_pages - hs.log_host_pages0 : 0,
			 logm = fsm + (hs.log_measuring ? hs.log_gc_pages - hs.log_gc_pages0 : 0),
			 flm = f->measuring ? flash_pages(f) - flash_of(&f->c0) : 0;
		json_object_set_new(h, "wa_host_measured", fsm ? json_real((double)logm / (double)fsm) : json_null());
		json_object_set_new(h, "wa_stacked_measured",
				    fsm && f->measuring ? json_real((double)flm / (double)fsm) : json_null());
		SETU(h, "log_bytes", hs.log_mem_bytes);
		json_object_set_new(j, "host_lfs", h);
	}
	json_t *t = sim_j_time(s);
	if (t)
		json_object_set_new(j, "timing", t);
}

/* Why a summary is partial: the input cut short, or a signal. */
static json_t *j_reason(const struct sim *in)
{
	return in->in.cut[0] ? json_string(in->in.cut) : json_sprintf("stopped by %s", sig_name(sim_interrupted));
}

static json_t *j_head(const struct sim *in, int partial)
{
	json_t *j = json_object();
	json_object_set_new(j, "program", json_string("ftlsim"));
	json_object_set_new(j, "version", json_string(FTLKIT_VERSION));
	json_object_set_new(j, "partial", json_boolean(partial));
	if (partial)
		json_object_set_new(j, "partial_reason", j_reason(in));
	return j;
}

static void print_json(json_t *j)
{
	int bad = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) ||
		  fputc('\n', stdout) == EOF || fflush(stdout);
	int e = errno;
	json_decref(j); /* before a failure exits, so that nothing is left allocated */
	if (json_oom) /* jansson allocates while dumping too */
		sim_fail("out of memory");
	if (bad)
		sim_fail("error writing standard output: %s", strerror(e));
}

void sim_print_summary(struct sim *s, int partial)
{
	json_t *j = j_head(s, partial);
	json_object_set_new(j, "input", j_input(s));
	add_model(j, s);
	uint64_t host, flash;
	pages_of(s, &host, &flash);
	json_t *run = j_timing(sim_now() - s->run.t0, host, flash), *t = json_object_get(j, "timing");
	if (t) { /* the device's simulated figures, then the run's own */
		json_object_update(t, run);
		json_decref(run);
	} else {
		json_object_set_new(j, "timing", run);
	}
	print_json(j);
}

/* The memory said before the replay, and the limit it was held to. */
static json_t *j_mem(const struct sim *in)
{
	json_t *o = json_object();
	SETU(o, "estimate_bytes", in->in.mem_estimate);
	SETU(o, "limit_bytes", in->in.mem_limit_used);
	return o;
}

static json_t *j_axes(const struct sim *in, const struct sim *m)
{
	json_t *o = json_object();
	for (unsigned a = 0; a < in->opt.grid.naxes; a++)
		json_object_set_new(o, in->opt.grid.axis[a].name, json_string(m->cell.axis_val[a]));
	return o;
}

static json_t *j_grid(const struct sim *in)
{
	json_t *g = json_object(), *axes = json_object();
	for (unsigned a = 0; a < in->opt.grid.naxes; a++) {
		json_t *v = json_array();
		for (unsigned k = 0; k < in->opt.grid.axis[a].nval; k++)
			json_array_append_new(v, json_string(in->opt.grid.axis[a].val[k]));
		json_object_set_new(axes, in->opt.grid.axis[a].name, v);
	}
	json_object_set_new(g, "axes", axes);
	SETU(g, "configurations", in->opt.grid.nconf);
	return g;
}

/* A grid: the input once, then per configuration its axis values and
 * the fields of a single run's summary. */
void sim_print_grid_summary(struct sim *in, struct sim **m, unsigned n, int partial)
{
	json_t *j = j_head(in, partial), *confs = json_array();
	uint64_t host = 0, flash = 0;
	json_object_set_new(j, "input", j_input(in));
	json_object_set_new(j, "grid", j_grid(in));
	for (unsigned i = 0; i < n; i++) {
		json_t *c = json_object();
		SETU(c, "configuration", m[i]->cell.conf);
		json_object_set_new(c, "axes", j_axes(in, m[i]));
		if (m[i]->cell.paths && !partial) { /* its own output files (FILE.K.csv; a partial run writes none) */
			json_t *f = json_object();
			for (unsigned k = 0; k < SIM_CELL_FILES; k++)
				if (sim_file(&m[i]->opt, k))
					json_object_set_new(f, sim_files[k].json, json_string(sim_file(&m[i]->opt, k)));
			json_object_set_new(c, "files", f);
		}
		add_model(c, m[i]);
		json_array_append_new(confs, c);
		uint64_t h, fl;
		pages_of(m[i], &h, &fl);
		host += h;
		flash += fl;
	}
	json_object_set_new(j, "configurations", confs);
	json_object_set_new(j, "memory", j_mem(in));
	json_object_set_new(j, "timing", j_timing(sim_now() - in->run.t0, host, flash));
	print_json(j);
}

/*
 * --results FILE.csv: a row per model, the summary's fields flattened.
 */

void sim_open_results(struct sim *in)
{
	open_out(&in->out.results, in->opt.results_path, "");
	if (in->opt.per_volume) /* --latency: every volume's requests together */
		sim_time_open_outputs(in);
}

static void csv_cell(FILE *fp, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: csv_str(fp, json_string_value(v)); break;
	case JSON_INTEGER: fprintf(fp, "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: fprintf(fp, "%.10g", json_real_value(v)); break;
	case JSON_TRUE: fputs("true", fp); break;
	case JSON_FALSE: fputs("false", fp); break;
	default: break; /* null: an empty cell */
	}
}

/* Every scalar of o, depth first, into row: its column named by its
 * path joined with '.'; arrays (the streams) are left out. empty: the
 * values of a group that is null in this row (measured before the
 * warm-up ended), as nulls (empty cells). */
static void flatten(json_t *row, const char *prefix, json_t *o, int empty)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		char name[256];
		snprintf(name, sizeof(name), "%s%s", prefix, key);
		if (json_is_array(v))
			continue;
		if (json_is_object(v) || (json_is_null(v) && !strcmp(name, "measured"))) {
			char sub[300];
			snprintf(sub, sizeof(sub), "%s.", name);
			static const struct ftl_counts zero;
			json_t *t = json_is_object(v) ? json_incref(v) : j_counts(NULL, &zero, &zero);
			if (!json_is_object(v)) { /* the keys a measured group adds to its counts */
				SETU(t, "host_pages_before", 0);
				SETU(t, "host_pages_total", 0);
			}
			flatten(row, sub, t, empty || !json_is_object(v));
			json_decref(t);
			continue;
		}
		json_object_set(row, name, empty ? json_null() : v);
	}
}

/* One model's row: its columns in order, name -> value. */
static json_t *results_cells(const struct sim *in, const struct sim *m)
{
	json_t *j = json_object(), *row = json_object();
	json_object_set_new(j, "input", j_input_of(in, m));
	add_model(j, m);
	flatten(row, "", j, 0);
	json_decref(j);
	if (json_oom)
		sim_fail("out of memory");
	return row;
}

/* The columns: every row's, in the order they come (a row's new column
 * right after the one before it in that row), so that models with
 * objects others lack (an FDP device's fdp.*, a zoned device's zoned.*)
 * keep their figures, in their own columns, empty in the other rows. */
static void add_columns(json_t *cols, json_t *seen, json_t *row)
{
	const char *key;
	json_t *v;
	size_t at = 0; /* where the next new column goes */
	json_object_foreach(row, key, v) {
		json_t *p = json_object_get(seen, key);
		if (p) {
			/* the position of a seen column: found from where we are */
			size_t n = json_array_size(cols);
			for (size_t k = 0; k < n; k++)
				if (!strcmp(json_string_value(json_array_get(cols, k)), key)) {
					at = k + 1;
					break;
				}
			continue;
		}
		json_array_insert_new(cols, at++, json_string(key));
		json_object_set_new(seen, key, json_true());
	}
}

static void results_head(FILE *fp, const struct sim *in, json_t *cols)
{
	fputs("tag,volume", fp);
	for (unsigned a = 0; a < in->opt.grid.naxes; a++) {
		fputc(',', fp);
		csv_str(fp, in->opt.grid.axis[a].name);
	}
	size_t k;
	json_t *c;
	json_array_foreach(cols, k, c) {
		fputc(',', fp);
		csv_str(fp, json_string_value(c));
	}
	fputc('\n', fp);
}

static void results_row(FILE *fp, const struct sim *in, const struct sim *m, json_t *cols, json_t *row)
{
	csv_str(fp, in->opt.tag ? in->opt.tag : "");
	fputc(',', fp);
	if (m->cell.vol)
		fprintf(fp, "%u", m->cell.vol->id);
	else if (in->opt.topt.volume >= 0)
		fprintf(fp, "%lld", (long long)in->opt.topt.volume);
	for (unsigned a = 0; a < in->opt.grid.naxes; a++) {
		fputc(',', fp);
		csv_str(fp, m->cell.axis_val[a]);
	}
	size_t k;
	json_t *c;
	json_array_foreach(cols, k, c) {
		fputc(',', fp);
		json_t *v = json_object_get(row, json_string_value(c));
		if (v)
			csv_cell(fp, v);
	}
	fputc('\n', fp);
}

void sim_write_results(struct sim *in, struct sim **m, unsigned n)
{
	FILE *fp = fp_of(&in->out.results);
	if (!fp)
		return;
	/* Two passes: the columns of every row first (a row's columns
	 * change only with its device: the common case finds each seen),
	 * then the rows, made again rather than all kept. */
	json_t *cols = json_array(), *seen = json_object();
	for (unsigned i = 0; i < n; i++) {
		if (!m[i]->cell.dev)
			continue; /* skipped: listed in the JSON summary */
		json_t *row = results_cells(in, m[i]);
		const char *key;
		json_t *v;
		int fresh = 0;
		json_object_foreach(row, key, v) if (!json_object_get(seen, key)) fresh = 1;
		if (fresh)
			add_columns(cols, seen, row);
		json_decref(row);
	}
	if (json_oom)
		sim_fail("out of memory");
	int any = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!m[i]->cell.dev)
			continue;
		if (!any++)
			results_head(fp, in, cols);
		json_t *row = results_cells(in, m[i]);
		results_row(fp, in, m[i], cols, row);
		json_decref(row);
	}
	json_decref(cols);
	json_decref(seen);
}

/* Interrupted before the model was built: the summary is the input read so far. */
void sim_print_unstarted(const struct sim *s)
{
	json_t *j = json_object(), *in = json_object();
	json_object_set_new(j, "program", json_string("ftlsim"));
	json_object_set_new(j, "version", json_string(FTLKIT_VERSION));
	json_object_set_new(j, "partial", json_true());
	json_object_set_new(j, "partial_reason", j_reason(s));
	json_object_set_new(in, "path", json_string(s->opt.path));
	SETU(in, "events_read", s->in.events_pass1);
	json_object_set_new(j, "input", in);
	if (json_oom)
		sim_fail("out of memory");
	json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(j);
}

/*
 * --per-volume: per configuration, the WA over all its volumes and the
 * distribution of per-volume WA.
 */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least p% of them at or below it. */
static double pctl(const double *x, size_t n, double p)
{
	size_t r = (size_t)(p / 100 * n + 0.999999999);
	return x[r ? r - 1 : 0];
}

static json_t *j_wa_dist(double *wa, size_t k)
{
	json_t *d = json_object();
	SETU(d, "volumes", k);
	qsort(wa, k, sizeof(*wa), cmp_double);
	static const double ps[] = {10, 50, 90, 99};
	static const char *const names[] = {"p10", "p50", "p90", "p99"};
	for (int i = 0; i < 4; i++)
		json_object_set_new(d, names[i], k ? json_real(pctl(wa, k, ps[i])) : json_null());
	json_object_set_new(d, "max", k ? json_real(wa[k - 1]) : json_null());
	return d;
}

static json_t *j_volume_conf(const struct sim *in, struct sim **m, unsigned n, unsigned c, double *wa)
{
	static const struct ftl_counts zero;
	uint64_t host = 0, flash = 0, run = 0, skipped = 0, fs = 0;
	size_t k = 0, ks = 0;
	int log = 0;
	json_t *o = json_object();
	double *stacked = wa + n; /* (the caller's array holds 2n) */
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.conf != c)
			continue;
		if (!m[i]->cell.dev) {
			skipped++;
			continue;
		}
		run++;
		struct dev_stats st;
		sim_stats(m[i], &st);
		host += st.c.host_pages;
		flash += flash_pages(&st);
		if (st.c.host_pages)
			wa[k++] = ftl_wa(&st.c, &zero);
		if (m[i]->opt.host_lfs) { /* the file system's own writes under its log */
			struct host_stats hs;
			m[i]->cell.hops->stats(m[i]->cell.host, &hs);
			log = 1;
			fs += hs.log_host_pages;
			if (hs.log_host_pages)
				stacked[ks++] = (double)flash_pages(&st) / (double)hs.log_host_pages;
		}
	}
	SETU(o, "configuration", c);
	if (in->opt.grid.naxes) {
		for (unsigned i = 0; i < n; i++)
			if (m[i]->cell.conf == c) {
				json_object_set_new(o, "axes", j_axes(in, m[i]));
				break;
			}
	}
	SETU(o, "volumes_run", run);
	SETU(o, "volumes_skipped", skipped);
	SETU(o, "host_pages_written", host);
	SETU(o, "flash_pages_written", flash);
	json_object_set_new(o, "wa_overall", host ? json_real((double)flash / host) : json_null());
	json_object_set_new(o, "wa_per_volume", j_wa_dist(wa, k));
	if (log) { /* a host log: the device's WA above, the file system's to flash here */
		json_t *h = json_object();
		SETU(h, "fs_pages_written", fs);
		json_object_set_new(h, "wa_stacked_overall", fs ? json_real((double)flash / fs) : json_null());
		json_object_set_new(h, "wa_stacked_per_volume", j_wa_dist(stacked, ks));
		json_object_set_new(o, "host_lfs", h);
	}
	json_t *t = sim_j_time_volumes(m, n, c);
	if (t)
		json_object_set_new(o, "timing", t);
	return o;
}

void sim_print_volume_summary(struct sim *in, struct sim **m, unsigned n, unsigned nconf, int partial)
{
	json_t *j = j_head(in, partial), *pv = json_object(), *confs = json_array(), *skip = json_array();
	uint64_t host = 0, flash = 0, selected = 0;
	for (size_t i = 0; i < in->in.vols.n; i++)
		selected += in->in.vols.v[i].selected;
	json_object_set_new(j, "input", j_input(in));
	SETU(pv, "volumes_in_trace", in->in.vols.n);
	SETU(pv, "volumes_selected", selected);
	json_object_set_new(pv, "selection", json_string(in->opt.vol_top ? "top" : in->opt.nvol_list ? "list" : "all"));
	SETU(pv, "top", in->opt.vol_top);
	SETU(pv, "min_pages", in->opt.min_pages);
	if (in->opt.shard_n)
		json_object_set_new(pv, "shard", json_sprintf("%u/%u", in->opt.shard_k, in->opt.shard_n));
	json_object_set_new(j, "per_volume", pv);
	if (in->opt.grid.naxes)
		json_object_set_new(j, "grid", j_grid(in));
	double *wa = malloc(2 * (n ? n : 1) * sizeof(*wa)); /* a configuration's WAs, and its stacked WAs */
	if (!wa)
		sim_fail("out of memory");
	for (unsigned c = 0; c < nconf; c++)
		json_array_append_new(confs, j_volume_conf(in, m, n, c, wa));
	free(wa);
	json_object_set_new(j, "configurations", confs);
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.dev) {
			uint64_t h, fl;
			pages_of(m[i], &h, &fl);
			host += h;
			flash += fl;
			continue;
		}
		json_t *o = json_object();
		SETU(o, "volume", m[i]->cell.vol->id);
		SETU(o, "configuration", m[i]->cell.conf);
		SETU(o, "logical_pages", m[i]->opt.cfg.logical_pages);
		json_object_set_new(o, "reason", json_string(m[i]->cell.skip ? m[i]->cell.skip : m[i]->cell.vol->skip));
		json_array_append_new(skip, o);
	}
	json_object_set_new(j, "skipped", skip);
	json_object_set_new(j, "memory", j_mem(in));
	json_object_set_new(j, "timing", j_timing(sim_now() - in->run.t0, host, flash));
	print_json(j);
}
