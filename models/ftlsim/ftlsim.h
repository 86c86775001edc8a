/*
 * ftlsim.h - the parts of the ftlsim program: its command line
 * (ftlsim_cli.c), its input passes (ftlsim_input.c), the replay
 * (ftlsim_replay.c) and its reports, the CSV files and the JSON summary
 * (ftlsim_report.c, a device in time's in ftlsim_time.c); main() builds
 * the models (ftlsim.c). Each model is a device (dev.h) under a host
 * layer (host.h), read through their stats. A model is a struct sim of
 * four concerns: what the command line says of it (sim_opts), its cell
 * (device, host layer, volume, place in a grid: sim_cell), its output
 * files (sim_outputs), and, in the first model, the input (sim_input);
 * every error leaves through ftlsim_err.c (sim_fail, sim_fail_usage).
 */
#ifndef FTLSIM_H
#define FTLSIM_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_trace.h"
#include "dev.h"
#include "dev_time.h"
#include "ftlkit.h"
#include "host.h"
#include "host_trim.h"
#include "sig.h"

enum space { SPACE_GIVEN, SPACE_EXTENT, SPACE_FOOTPRINT };
enum phys { PHYS_OP, PHYS_SF, PHYS_PAGES };

/* A buffered event (stdin read twice): 16 bytes, what the model reads
 * of an event. */
struct cev {
	uint64_t offset;
	uint32_t length;
	uint8_t op : 4, hint : 4;
	uint8_t temp;
	uint16_t stream;
};
_Static_assert(sizeof(struct cev) == 16, "a buffered event is 16 bytes");

/* --grid: axes of model options, each with its values. */
#define GRID_MAX_AXES 16
struct grid_axis {
	const char *name; /* the long option, e.g. "op" */
	int code, off_code; /* its getopt code; for on/off flags, the code of off */
	int flag;	    /* takes no argument: the values are on and off */
	unsigned nval;
	char **val;
};
struct grid {
	unsigned naxes;
	struct grid_axis axis[GRID_MAX_AXES];
	uint64_t nconf;
	unsigned nspec;
	char *spec[GRID_MAX_AXES]; /* the copies the axes' names and values point into */
};

/* --footprints FILE: a row of tracestat's --per-volume table, what
 * pass 1 would count of a volume. */
struct fprow {
	uint32_t id;
	uint64_t events, reads, writes, discards, flushes;
	uint64_t fp_pages, page_writes; /* in the table's pages */
	uint64_t end_bytes;		/* largest offset + length touched */
	unsigned long line;
};

/* --per-volume: a volume of the trace, counted in pass 1 (or taken from
 * the --footprints table). */
struct vol {
	uint32_t id;
	uint64_t events, write_pages, max_end;
	uint64_t discards; /* its discard requests (a TRIM host's held list) */
	/* --footprints: the table's largest offset + length; its events
	 * read and the largest offset + length they touch */
	uint64_t end_bytes, seen, seen_end;
	uint64_t fp_n;		/* its footprint: distinct pages written */
	struct ftl_pagemap map; /* its footprint's numbering, once selected */
	int selected;
	const char *skip;	  /* why it is not run (all its models) */
	unsigned model0, nmodel; /* its models in the model array */
};
struct vols {
	struct vol *v;
	size_t n, cap;
	uint32_t *slot; /* open addressing: index + 1, 0 empty */
	size_t nslot;
	struct pagemap all; /* pass 1: (volume, page) -> its number in the volume */
};

/* What the command line says of a model (each model of a grid a copy,
 * its axes' values applied). */
struct sim_opts {
	struct trace_opts topt;
	const char *path;	   /* the trace's name (of a set of files: cli_trace_inputs) */
	const char *const *paths; /* its files, read one after another as one trace */
	size_t npaths;
	char *const *args; /* the arguments that named them (@LIST among them) */
	int nargs;
	struct ftl_config cfg;
	int space;
	uint64_t capacity;
	int phys_kind;
	double phys_val;
	uint64_t phys_pages;
	uint64_t seg_bytes; /* --segment-bytes, 0: not given */
	int pps_given;	    /* --pages-per-segment given */
	int page_size_given;
	/* a device in time (--timing, --device and the options after them) */
	int timing, device_given;
	const char *device_spec; /* --device (or a grid's device): checked with its keys once the options are read */
	int device_file;	 /* ... a file of keys: its check fails as bad input */
	const char *devkeys; /* --device-keys: keys on the device, applied once the options are read */
	struct time_config tc;
	const char *timeline_path, *latency_path;
	int precond;
	const char *age_path; /* --precondition-trace */
	const char *age_format;	 /* --precondition-format: NULL detects it */
	const char *age_columns; /* its csv:SPEC, else the run's --columns */
	int host_lfs; /* --host-lfs: a log-structured file system on the device */
	int zoned;    /* --zoned: a zoned device */
	int fdp_given, place_given;
	const char *gc_opt; /* the first option given that tunes the garbage collector, or NULL */
	char fdp_spec[96]; /* --fdp: the placement it stands for ("fdp:H=8,G=1,I=0,R=1") */
	struct zns_config zns;
	struct host_lfs_config lfs;
	const char *wear;
	uint64_t interval, snapshot_every;
	int interval_set;
	int tlint_set; /* --timeline-interval given */
	const char *curve_path, *hist_path, *erase_path, *flashops_path;
	int phys_given, space_given, space_opt, trim_given; /* the group's options given */
	struct trim_config trim; /* the TRIM host: --trim-mode, --discard-*, --trim-loss */
	struct grid grid;
	const char *results_path, *tag;
	int per_volume;
	unsigned jobs;	/* -j: worker threads */
	int jobs_given; /* -j on the command line (else small inputs run in one thread) */
	uint64_t mem_limit;
	uint64_t vol_top, min_pages;
	uint32_t *vol_list;
	size_t nvol_list;
	uint32_t shard_k, shard_n; /* --volumes shard:K/N (shard_n 0: none) */
	const char *fp_path; /* --footprints */
	double progress_every; /* seconds between progress reports; 0 none */
	int progress_set;
	int quiet; /* -q: no notes on stderr (warnings still) */
	int dry_run;
};

/* The files a run writes beside its JSON summary, in one table: the
 * option that names each (none may be -: standard output carries the
 * JSON), its name in a grid's configurations[].files, and where its
 * path is kept. The first SIM_CELL_FILES are a model's own (a grid's
 * FILE.K.csv, configuration K's); --results, the last, is the run's. */
struct sim_file {
	const char *option, *json;
	size_t at; /* offsetof(struct sim_opts, ...) */
};
enum { SIM_CELL_FILES = 6, SIM_FILES = 7 };
extern const struct sim_file sim_files[SIM_FILES];
static inline const char **sim_file_path(struct sim_opts *o, unsigned k)
{
	return (const char **)(void *)((char *)o + sim_files[k].at);
}
static inline const char *sim_file(const struct sim_opts *o, unsigned k)
{
	return *(const char *const *)(const void *)((const char *)o + sim_files[k].at);
}

/* One model cell: its device under a host layer (the replay and the
 * reports talk to these only: dev.h, host.h), its place in a grid, its
 * volume, its logical space. */
struct sim_cell {
	const struct dev_ops *dops;
	struct dev *dev;
	const struct host_ops *hops;
	struct host *host;
	int learns; /* its device learns the trace first (DEV_LEARNS) */
	/* this model's volume in a --per-volume run, and why it did not run */
	struct vol *vol;
	char *skip;
	/* this model's place in a grid: its index and values, one per axis */
	uint64_t conf;
	const char *axis_val[GRID_MAX_AXES];
	char *paths; /* a grid configuration's own output files (FILE.K.csv), one block */
	struct sim *space_owner; /* the model whose first pass measured this space */
	uint64_t max_end;
	struct ftl_pagemap map; /* the footprint's numbering (its space owner's) */
};

/* Its output files. */
struct sim_outputs {
	struct outfile curve, hist, ehist, flashops, results, timeline, latency;
	uint64_t snapshots;
	uint64_t snap_host; /* host page writes at the last snapshot */
};

/* The input (the first model holds it): the trace, its passes, what
 * they counted, the memory they measured. */
struct sim_input {
	struct trace *t;
	const char *format;
	struct cev *buf;
	int64_t *buf_t; /* the buffered events' times, for a device in time */
	size_t nbuf, capbuf, next;
	int from_buf; /* pass 2 replays the buffer */
	/* --footprints FILE: the table instead of pass 1; while fp_live the
	 * reader numbers the footprints (fp_own's maps, or the volumes')
	 * and checks the trace against the table until its end */
	struct fprow *fp_rows;
	size_t fp_nrows;
	uint32_t fp_page_size;
	int fp_live;
	struct fprow fp_want; /* one model's space: its row, or the sum of the rows */
	uint64_t fp_seen, fp_seen_end, fp_total_events;
	struct sim **fp_own;
	unsigned fp_nown;
	struct vol *fp_last;
	uint64_t events, events_pass1;
	uint64_t bad_skipped; /* --skip-bad: the bad records the reader skipped */
	int bad_said;	      /* the first pass said them (the replay's are the same) */
	/* --precondition-trace: its format, events read, bad records skipped */
	const char *age_format;
	uint64_t age_events, age_bad_skipped;
	uint64_t pw_pass1, pt_pass1; /* page writes and whole pages discarded, pass 1 (--dry-run) */
	uint64_t td_pass1;	     /* discard requests, pass 1 */
	double pass1_s;		     /* pass 1's seconds (--dry-run's estimate) */
	int64_t t_max_pass1;	     /* the latest event time (from the first), pass 1 (--dry-run) */
	uint32_t volume0;
	int volumes_mixed, have_volume0;
	char cut[600]; /* the input cut short (trace_cut): why; "" while whole */
	struct vols vols;
	uint64_t mem_limit_used, mem_estimate;
	uint64_t mem_learn; /* the part of mem_estimate learning will take (fk) */
};

/* The progress line. */
struct sim_run {
	double t0;
	double last_progress;
	int progress_shown;
	int progress_tty; /* rewrite one line (stderr a terminal) */
	double pass_t0;	  /* when the current pass started */
	uint64_t curve_fs; /* --curve under a host log: the file system's page writes at the last row */
};

/* A model of the run, by concern. */
struct sim {
	struct sim_opts opt;
	struct sim_cell cell;
	struct sim_outputs out;
	struct sim_input in;
	struct sim_run run;
};

/* What model s's device did so far. */
static inline void sim_stats(const struct sim *s, struct dev_stats *st)
{
	s->cell.dops->stats(s->cell.dev, st);
}

/* The bytes model s's device allocated (0 when it has none). */
static inline uint64_t sim_mem_bytes(const struct sim *s)
{
	struct dev_stats st;
	if (!s->cell.dev)
		return 0;
	sim_stats(s, &st);
	return st.mem_bytes;
}

/* SIGINT, SIGTERM or SIGHUP (sig.h): every loop stops at its next event. */
#define sim_interrupted sig_caught

/* A data or runtime error: abort the output files (no half-written file
 * stays behind), say why, exit 1. */
/* The pages a request writes (every page it touches) or, a discard,
 * trims (its whole pages only, as the model trims). */
static inline uint64_t sim_ev_pages(const struct ev *e, uint64_t P)
{
	uint64_t lo, hi;
	if (e->op == EV_DISCARD)
		ev_whole_pages(e, P, &lo, &hi);
	else
		ev_pages(e, P, &lo, &hi);
	return hi > lo ? hi - lo : 0;
}

_Noreturn void sim_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ftlsim_err.c: the models whose files an error aborts (and the input,
 * whose --results it aborts too). */
void sim_watch(struct sim *in, struct sim **m, unsigned n);
void sim_abort_all(void);
/* The same for a usage error (exit 2, with the pointer to --help). */
_Noreturn void sim_fail_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The trace's nread events (nread > 0) all left out by --volume (and
 * --ops, --start, --end when given): fails, naming what left them out. */
_Noreturn void sim_fail_none_kept(const char *path, const struct trace_opts *o, uint64_t nread);
/* The grid configuration (its axes' values) a failure is about, named
 * before the message; NULL: none. */
void sim_fail_cell(const char *label);
double sim_now(void);

/* ftlsim_cli.c */
void sim_defaults(struct sim *s);
void sim_parse_args(struct sim *s, int argc, char **argv);
void sim_finish_args(struct sim *s);
void sim_grid_add(struct sim *s, const char *spec);
struct sim **sim_grid_models(const struct sim *s, unsigned *n);
/* No output file is an input (the trace, the ageing trace, the
 * footprints, a device file) or another output, a grid's FILE.K.csv
 * among them: else a usage error, before any input is read. */
void sim_check_files(const struct sim *s, struct sim *const *conf, unsigned nconf);
/* For messages: "volume 7 policy=cb op=0.28" (a model's volume, if any,
 * and its axis values), or the axis values alone. */
char *sim_conf_label(const struct sim *s, const struct sim *m, char *buf, size_t n);
char *sim_axes_label(const struct sim *s, const struct sim *m, char *buf, size_t n);
void sim_free_grid(struct sim *s);

/* ftlsim_volumes.c */
void sim_volumes_arg(struct sim *s, const char *arg);
void sim_volume_count(struct sim *in, const struct ev *e);
uint32_t sim_volume_shard(uint32_t id, uint32_t n);
struct vol *sim_volume_of(struct sim *in, uint32_t id);
struct sim **sim_volume_models(struct sim *in, struct sim **conf, unsigned nconf, unsigned *n);
void sim_volumes_free(struct sim *in);

struct vol *sim_volume_add(struct sim *in, uint32_t id);

/* ftlsim_footprints.c: --footprints FILE. sim_footprints_space: the
 * spaces (or the volumes) from the table and the trace opened for the
 * replay, 1; 0 when the table cannot stand for pass 1 (which then runs).
 * Then every event read goes through sim_footprints_event, and the end of
 * the trace through sim_footprints_end, until the trace has been read once. */
int sim_footprints_space(struct sim *in, struct sim **m, unsigned n);
void sim_footprints_event(struct sim *s, const struct ev *e);
void sim_footprints_end(struct sim *s);
/* The bytes of a footprint map of n pages, allocated or to be. */
uint64_t sim_footprint_map_bytes(const struct ftl_pagemap *map, uint64_t n);
void sim_footprints_free(struct sim *s);
/* The table's discards: the rows' of a run per volume, else the rows' it wants. */
uint64_t sim_table_discards(const struct sim *in);

/* ftlsim_replay.c: every event to its models; -j workers. */
void sim_replay(struct sim *s, struct sim **m, unsigned nm);
unsigned sim_default_jobs(void);
/* The threads a pass over the input uses for nm models (1: no threads). */
unsigned sim_threads(const struct sim *s, unsigned nm);

/* ftlsim_input.c */
void sim_open_trace(struct sim *s);
int sim_next_event(struct sim *s, struct ev *e);
/* Up to n events as sim_next_event gives them (runs of them at once
 * from a reader that has them at hand): how many; fewer at the end or
 * on a signal. */
size_t sim_next_events(struct sim *s, struct ev *e, size_t n);
int sim_needs_pass1(struct sim *const *m, unsigned n);
void sim_measure_space(struct sim *in, struct sim **m, unsigned n);
void sim_close_input(struct sim *s);
/* A placement that knows the future learns the trace first (a file is
 * read again, stdin kept in the buffer). */
void sim_learn_pass(struct sim *s, struct sim **m, unsigned n);
/* --precondition-trace: every model aged by that trace (read once), its
 * counts then restarted. */
void sim_age_pass(struct sim *s, struct sim **m, unsigned n);

/* ftlsim.c: a progress line on stderr when one is due (pass 1 or 2). */
void sim_progress(struct sim *s, int pass);

/* ftlsim_estimate.c */
uint64_t sim_physical_pages(const struct sim *s);
/* FDP (ftlsim_fdp.c): the segments of a reclaim unit of the placement
 * fdp in c (1 for any other); the summary's fdp object, or NULL. */
uint32_t sim_fdp_ru(const struct ftl_config *c);
/* Its placement identifiers, H x G (0: not fdp), and H and G. */
unsigned sim_fdp_handles(const struct ftl_config *c, unsigned *h, unsigned *g);
/* A refusal of the model of c (U logical pages) in err, its advice made
 * right for reclaim units of several segments. */
void sim_fdp_refusal(const struct ftl_config *c, uint64_t U, char *err, size_t n);
json_t *sim_fdp_json(const struct sim *s, const struct dev_stats *f);
/* The physical pages the options give a logical space of U pages. */
uint64_t sim_physical_for(const struct sim *s, uint64_t U);
/* The device's logical and physical pages as asked: the run's, or under
 * a host log the log's pages and their spare (open_model builds it so). */
void sim_device_space(const struct sim *s, uint64_t *U, uint64_t *T);
int sim_memory_estimate(const struct sim *s, uint64_t *bytes);
/* The transient bytes of a --precondition random fill. */
uint64_t sim_fill_bytes(const struct sim *s);
uint64_t sim_memory_available(void);
/* Models larger together than --mem-limit (default the memory available):
 * a usage error, up front; the estimate said on stderr for several. */
void sim_check_memory(struct sim *in, struct sim *const *m, unsigned n, unsigned nconf);
/* ftlsim.c: model m built as the run would build it, then freed (what
 * --dry-run checks): 0, -1 refused (a usage error), -2 another error;
 * the reason in err. */
int sim_try_model(const struct sim *in, struct sim *m, char *err, size_t n);
/* What the run refuses of the input and the configurations before any
 * model is built: temperature labels, trace times. */
void sim_check_input(const struct sim *in, struct sim *const *conf, unsigned nconf);
/* --dry-run: the JSON estimate on stdout; nothing simulated. */
void sim_dry_run(struct sim *s);
/* --dry-run with --grid or --per-volume: each model's memory and the total. */
void sim_dry_run_models(struct sim *in, struct sim *const *m, unsigned n, unsigned nconf);

/* ftlsim_report.c */
void sim_open_outputs(struct sim *s);
/* --flash-ops: a flash-operation observer (flash.h) writing a row each. */
int sim_flash_op(void *ctx, const struct ftl *f, const struct flash_op *op);
void sim_abort_outputs(struct sim *s);
int sim_curve_row(void *ctx);
int sim_snapshot(void *ctx);
void sim_finish_outputs(struct sim *s);
/* Its files flushed and closed (their temporaries kept), then renamed
 * into place: every model's closed before any is renamed. */
void sim_close_outputs(struct sim *s);
void sim_commit_outputs(struct sim *s);
/* A closed loop's steady-state window, found: its IOPS, the last five
 * rounds' and the round (1); else 0. */
int sim_time_steady(const struct sim *s, double *window_iops, double *last_iops, double *round_s);
void sim_print_summary(struct sim *s, int partial);
void sim_print_unstarted(const struct sim *s);
void sim_print_grid_summary(struct sim *in, struct sim **m, unsigned n, int partial);
void sim_print_volume_summary(struct sim *in, struct sim **m, unsigned n, unsigned nconf, int partial);
void sim_open_results(struct sim *in);
void sim_write_results(struct sim *in, struct sim **m, unsigned n);

/* An unsigned figure into a JSON object (the reports'). */
#define SETU(o, k, v) json_object_set_new(o, k, json_integer((json_int_t)(v)))

/* ftlsim_time.c: a device in time's reports (NULL, nothing: untimed). */
const struct dev_time *sim_time(const struct sim *s);
/* A latency histogram's count, mean, percentiles and max in us. */
json_t *sim_j_lat(const struct lhist *h);
json_t *sim_j_time(const struct sim *s);
void sim_time_open_outputs(struct sim *s);
void sim_time_finish_outputs(struct sim *s);
json_t *sim_j_time_volumes(struct sim **m, unsigned n, unsigned c);
/* --per-volume --latency: the merged distributions' rows. */
void sim_time_volumes_latency(struct sim *in, struct sim **m, unsigned n);

#endif
