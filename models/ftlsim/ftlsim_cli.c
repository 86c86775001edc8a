/*
 * ftlsim_cli.c - ftlsim's command line: usage, the option table, and
 * the checks that make a bad command line a usage error (exit 2) before
 * any input is read.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev_time.h"
#include "ftlsim.h"
#include "gc.h"
#include "place.h"
#include "registry.h"

static void usage(void)
{
	printf("usage: %s [options] [TRACE]\n"
	       "Replay a block trace (any format, or - for stdin, the default) through an FTL\n"
	       "model; print a JSON summary on stdout. Rules: docs/MODEL.md.\n\n", prog_name);
	printf(CLI_TRACE_HELP);
	printf("  -q, --quiet          don't say which format was detected, nor the notes\n"
	       "                       (measured window, empty victims, background GC, the\n"
	       "                       models' memory of a grid or --per-volume run)\n\n"
	       "Logical space (one of; default: from the trace, --logical-space extent):\n"
	       "      --logical-pages N     U logical pages (K/M/G suffixes, as tracegen's -n)\n"
	       "      --capacity BYTES      U = BYTES / page size (e.g. 16G)\n"
	       "      --logical-space extent|footprint\n"
	       "                            extent: page 0 to the largest offset touched;\n"
	       "                            footprint: the distinct pages written, renumbered\n"
	       "                            densely in first-write order (reads the trace twice;\n"
	       "                            stdin is buffered in memory, 16 bytes an event,\n"
	       "                            24 with a device in time;\n"
	       "                            once with --footprints)\n"
	       "      --footprints FILE     the first pass's figures from FILE, the table\n"
	       "                            tracestat --per-volume FILE wrote of this trace (CSV\n"
	       "                            or JSON; same trace options and page size): the\n"
	       "                            trace is read once, stdin too, and its footprints\n"
	       "                            checked against the table's\n"
	       "      --page-size BYTES     default 4096\n"
	       "      --out-of-range error|drop|clip\n"
	       "                            requests past U pages (default error)\n\n"
	       "Physical space (one of; default --op 0.07):\n"
	       "      --op X                T = U(1+X)\n"
	       "      --spare-factor S      T = U/(1-S)\n"
	       "      --physical-pages T\n"
	       "      --pages-per-segment B|auto  default 256; T is rounded down to whole\n"
	       "                            segments; auto: the largest power of two <= 256\n"
	       "                            giving the logical space >= 64 segments\n"
	       "      --segment-bytes BYTES the segment size in bytes instead (e.g. 512M)\n\n"
	       "Garbage collection:\n"
	       "      --policy NAME[:ARG]   victim policy (default greedy; --list-policies)\n"
	       "      --placement NAME[:ARG] placement policy (default single; --list-placements)\n"
	       "      --gc-low N            start GC below N free segments (default: the\n"
	       "                            placement's GC streams)\n"
	       "      --gc-high N           clean until N are free (default: the low mark); a\n"
	       "                            pass ends sooner once the stream that asked has room\n"
	       "                            and --gc-low - 1 are free: raise --gc-low with it\n"
	       "      --gc-trigger watermark|gp:P\n"
	       "                            watermark: the free-segment marks above (default);\n"
	       "                            gp:P: GC while garbage exceeds P of the pages written\n"
	       "      --gc-batch K          victims per GC operation under gp:P (default 1)\n"
	       "      --gc-ops N            under gp:P, at most N GC operations per host write\n"
	       "                            request, after its last page (1: SepBIT's\n"
	       "                            simulator); 0 (default): after every page, until\n"
	       "                            the garbage is under P\n"
	       "      --gc-tie oldest|random\n"
	       "                            equally good victims (greedy): the oldest (default),\n"
	       "                            or one drawn at random\n"
	       "      --spare-share shared|opt\n"
	       "                            streams share the spare space (default), or each\n"
	       "                            has its own share, split at the optimum of\n"
	       "                            separated pools from where pages die\n"
	       "      --wear-level none|static:THRESHOLD\n"
	       "      --trim | --no-trim    discards invalidate pages (default) or are ignored\n"
	       "                            (--no-trim: not with the four options below)\n"
	       "      --trim-mode online|batch:SECONDS|delay:SECONDS\n"
	       "                            when the host sends the discards: as they come\n"
	       "                            (default); held and sent every SECONDS of the\n"
	       "                            trace's time and at its end, as fstrim; each\n"
	       "                            SECONDS late (a held page written again is not\n"
	       "                            sent)\n"
	       "      --discard-granularity BYTES\n"
	       "                            a discard's unaligned head and tail dropped\n"
	       "      --discard-max BYTES   discards split in pieces of at most BYTES\n"
	       "      --trim-loss P         a share P of the pieces never reach the device\n"
	       "                            (seeded with --seed)\n"
	       "      --precondition none|seq|random  write every page once first (default none)\n"
	       "      --host-lfs segment=BYTES[,policy=NAME][,placement=NAME][,discard=on|off]\n"
	       "                [,op=X][,offset=BYTES]\n"
	       "                            a log-structured file system on the device: the\n"
	       "                            trace's writes go to a host log of BYTES segments\n"
	       "                            (op X of spare, default 0.07) cleaned by the victim\n"
	       "                            policy (default greedy); its writes, copies and,\n"
	       "                            discard=on (default), each cleaned segment's discard\n"
	       "                            reach the device; host, device and stacked WA; not\n"
	       "                            with --host-placement (its streams are the handles\n"
	       "                            on an FDP device: one each); off: none\n"
	       "      --fdp on|[handles=H][,groups=G][,isolation=initial|persistent][,ru=K]\n"
	       "                            an NVMe FDP device (the placement fdp): each write\n"
	       "                            to the reclaim unit of the handle it carries (the\n"
	       "                            event's stream, group x H + handle; default 8\n"
	       "                            handles, 1 group); GC copies mixed (initial,\n"
	       "                            default) or kept per handle (persistent); a reclaim\n"
	       "                            unit of K segments, the unit GC reclaims (default 1)\n"
	       "      --host-placement NAME[:ARG]  the host chooses each write's handle by this\n"
	       "                            placement (with --fdp); the device sees handles only,\n"
	       "                            one for each stream its host writes go to (refused\n"
	       "                            up front, exit 2, when the device has fewer); off:\n"
	       "                            none\n"
	       "      --zoned size=BYTES[,capacity=BYTES][,max_open=N][,max_active=N][,finish=pad|free]\n"
	       "                            a zoned device: zones written at their pointers,\n"
	       "                            reset by the trace's zone operations, no GC (WA 1,\n"
	       "                            or what finish=pad programs); a write off the\n"
	       "                            pointer is an error (counted with --skip-bad);\n"
	       "                            max_open, max_active 0 (default): no limit; the\n"
	       "                            logical space rounded up to whole zones (said);\n"
	       "                            the options that tune GC or shape discards refused;\n"
	       "                            off: a conventional device\n"
	       "      --precondition-trace FILE  then age the drive with FILE's events (any\n"
	       "                            format; the run's page size): its data stays, its\n"
	       "                            counts do not (the counters restart after it)\n"
	       "      --precondition-format NAME  FILE's format, as -f takes it (csv:SPEC;\n"
	       "                            default: detected; csv alone takes --columns)\n"
	       "      --warmup-writes N     host page writes before measuring (wa_measured; K/M/G)\n"
	       "      --seed S              random policies and fills (default 1)\n\n"
	       "Output:\n"
	       "      --curve FILE.csv      a row every --interval host page writes (default U/10)\n"
	       "      --interval N\n"
	       "      --hist FILE.csv       victim utilization histogram, and sealed-segment\n"
	       "                            snapshots every --snapshot-every N host page writes\n"
	       "                            (default: one at the end)\n"
	       "      --snapshot-every N\n"
	       "      --erase-hist FILE.csv erase counts\n"
	       "      --flash-ops FILE.csv  every flash operation, a row each: program, read,\n"
	       "                            erase; host, gc, wl, host_read, fill\n"
	       "      --check               verify the invariants after every GC pass (slow);\n"
	       "                            in time, copies after reads, programs after erases\n"
	       "      --progress[=SECONDS]  a progress line on stderr every SECONDS (default 1):\n"
	       "                            fraction of the file read, ETA, events/s, host\n"
	       "                            pages, WA; on by default on a terminal, as whole\n"
	       "                            lines elsewhere; 0: none\n"
	       "      --dry-run             print the geometry, the model's memory, the input's\n"
	       "                            size and an estimated run time as JSON; simulate\n"
	       "                            nothing (with extent or footprint, the first pass\n"
	       "                            over the trace is read); with --grid or\n"
	       "                            --per-volume, every model's memory and the total;\n"
	       "                            each model is built and freed, so what the run\n"
	       "                            refuses (too little spare space, ...) is said, in\n"
	       "                            the JSON (refused) and with the run's exit 2\n"
	       "      --help, --version\n\n"
	       "Time (a device in time: every flash operation charged to a die; docs/MODEL.md;\n"
	       "every option of this group turns it on):\n"
	       "      --timing              on, with the femu profile\n"
	       "      --device NAME[,KEY=V...]|FILE\n"
	       "                            a profile (--list-devices) and its keys: channels,\n"
	       "                            dies (per channel), planes, page_kib, tr_us,\n"
	       "                            tprog_us, tbers_us, xfer_us, layout=stripe|die,\n"
	       "                            multiplane=on|off|ideal (planes: a die's commands\n"
	       "                            span planes, or one page a time, or each plane a die),\n"
	       "                            cache_mib (a write cache; default 0, none), cache_us\n"
	       "                            (a page's time on its bus; default 0.5);\n"
	       "                            tr_us and tprog_us one time, or one a page type,\n"
	       "                            T1/T2[/T3[/T4]], page_order=cyclic|shadow;\n"
	       "                            suspend=off|erase|program|both, suspend_us (a read\n"
	       "                            suspends yielding GC's erase or program, a write its\n"
	       "                            erase);\n"
	       "                            host_us (a command's time), host_mbps (the host\n"
	       "                            link, MB/s each way);\n"
	       "                            or a file of KEY=V lines; implies --timing\n"
	       "      --device-keys KEY=V[,KEY=V...]\n"
	       "                            keys on the device the other options give (a grid's\n"
	       "                            device-keys axis: caches, suspension... on one device)\n"
	       "      --time-scale X        open loop: requests arrive at the trace's times x X\n"
	       "                            (default 1; 0.5 replays twice as fast)\n"
	       "      --qd N                closed loop: N requests outstanding, the trace's\n"
	       "                            times ignored\n"
	       "      --bg-gc idle=MS,high=N\n"
	       "                            clean in idle time: after MS without a request\n"
	       "                            (default 1), until N segments are free (needed),\n"
	       "                            yielding to requests\n"
	       "      --gc-preempt hard=N   foreground GC yields to requests while N or more\n"
	       "                            segments are free (below, it blocks)\n"
	       "      --trim-cost queued|unqueued[,us=T][,us_per_mib=M]\n"
	       "                            a TRIM's time; unqueued waits for the queue to\n"
	       "                            drain and holds every request behind it; off\n"
	       "                            (none): a device in time whose TRIMs take no\n"
	       "                            time, --timing's default (--qd, --bg-gc and\n"
	       "                            --gc-preempt off likewise turn the device in time\n"
	       "                            on with their default)\n"
	       "      --timeline FILE.csv   a row per --timeline-interval of simulated time (one\n"
	       "                            model, or FILE.K.csv a --grid's; not --per-volume)\n"
	       "      --timeline-interval MS  (default 1000)\n"
	       "      --latency FILE.csv    the latency distributions (read, write, trim;\n"
	       "                            --per-volume: every volume's together)\n"
	       "      --list-devices        the profiles and their sources\n\n"
	       "Several models from one read of the trace:\n"
	       "      --grid SPEC           every configuration of a grid, e.g.\n"
	       "                            'policy=greedy,cb op=0.07,0.28 trim=on,off' (8 models):\n"
	       "                            an axis is a model option above (logical space,\n"
	       "                            physical space, garbage collection, the device in\n"
	       "                            time) and its values; on/off for --trim/--no-trim;\n"
	       "                            off for --qd, --bg-gc, --gc-preempt, --trim-cost,\n"
	       "                            --zoned, --host-lfs and --host-placement (not --fdp:\n"
	       "                            placement=fdp:H=N varies the handles)\n"
	       "                            (zoned=off,size=1M compares a block device with\n"
	       "                            zones);\n"
	       "                            gc-mode=foreground,idle:idle=MS,high=N,preemptible\n"
	       "                            [:hard=N] compares the ways of cleaning; the last\n"
	       "                            axis varies fastest; --grid may be repeated; a piece KEY=V\n"
	       "                            belongs to the value before it (placement=\n"
	       "                            sepbit,fk:6,R=8 is two values); --curve, --hist,\n"
	       "                            --erase-hist, --flash-ops, --timeline and --latency\n"
	       "                            write FILE.K.csv for configuration K\n"
	       "      --results FILE.csv    a row per model: tag, volume, the grid's axes, then\n"
	       "                            every summary field but the run's own time and\n"
	       "                            speed (a device in time's results are in: timing.\n"
	       "                            latency_us...), named by its JSON path (wa_total,\n"
	       "                            params.op, requests.reads, ...);\n"
	       "                            a field some models lack is an empty cell\n"
	       "      --tag NAME            the results' tag column (default empty)\n"
	       "      --per-volume          a model per volume of the trace (and per grid\n"
	       "                            configuration), each with its own logical space;\n"
	       "                            its results in --results, not --curve, --hist,\n"
	       "                            --erase-hist, --flash-ops nor --timeline\n"
	       "      --volumes LIST|top:N|shard:K/N  only these volumes (a missing one is\n"
	       "                            an error), or the N that write the most pages;\n"
	       "                            shard:K/N (K from 0 to N-1) of those, shard K of N\n"
	       "                            by a hash of the volume id (given with the others)\n"
	       "      --min-pages N         skip volumes whose logical space is below N pages\n"
	       "  -j, --jobs N              worker threads, each running a share of the models\n"
	       "                            while the reader reads ahead (default: the number\n"
	       "                            of cores; one for a small file); the results do\n"
	       "                            not depend on N\n"
	       "      --mem-limit BYTES     refuse a run whose models need more (e.g. 8G;\n"
	       "                            default: the memory available, MemAvailable\n"
	       "                            or less under a cgroup or ulimit), exit 2\n\n"
	       "Models larger than --mem-limit are refused before they start (exit 2).\n"
	       "Exit status: 0 ok, 1 data or runtime error, 2 usage error; stopped by SIGINT,\n"
	       "SIGTERM or SIGHUP: 128 + the signal (130, 143, 129), the partial summary\n"
	       "printed, marked \"partial\": true, no output file left half-written.\n");
}

/* A policy's arguments, NAME: what, range, default (policy.h), on a line
 * of their own under its description. */
static void list_args(const struct policy_info *pi, const char *more)
{
	char buf[1024];
	if (policy_describe_args(pi, buf, sizeof(buf)) || more)
		printf("%-10s %s%s%s\n", "", pi->nargs ? buf : "", pi->nargs && more ? "; " : "", more ? more : "");
}

static void list_policies(void)
{
	for (const struct gc_ops *const *p = gc_table; *p; p++) {
		printf("%-10s %s\n", (*p)->info.name, (*p)->info.desc);
		list_args(&(*p)->info, NULL);
	}
}

/* A small device of these placements, with room to spare: what it
 * refuses of them does not depend on the space. 0 with its streams and
 * GC streams in st (or st NULL), -1 with the reason in err. */
static int probe_device(const char *placement, const char *host_placement, struct dev_stats *st, char *err, size_t n)
{
	struct ftl_config c;
	ftl_config_default(&c);
	c.logical_pages = 1 << 14;
	c.physical_pages = 1 << 15;
	c.pages_per_seg = 16;
	c.placement = placement;
	c.host_placement = host_placement;
	struct dev *d = dev_ftl_ops.open(&(struct dev_config){.ftl = c}, err, n);
	if (!d)
		return -1;
	if (st)
		dev_ftl_ops.stats(d, st);
	dev_ftl_ops.close(d);
	return 0;
}

/* With each placement its streams and GC streams, the default --gc-low,
 * from a small model built with its default arguments. */
static void list_placements(void)
{
	for (const struct place_ops *const *p = place_table; *p; p++) {
		char err[256], more[128] = "";
		struct dev_stats st;
		int ok = !probe_device((*p)->info.name, NULL, &st, err, sizeof(err));
		if (ok)
			snprintf(more, sizeof(more), "%u stream%s, %u for GC copies (the default --gc-low)", st.streams,
				 st.streams > 1 ? "s" : "", st.gc_streams);
		printf("%-10s %s\n", (*p)->info.name, (*p)->info.desc);
		list_args(&(*p)->info, ok ? more : NULL);
	}
}

enum {
	O_LPAGES = 2000, O_CAPACITY, O_SPACE, O_PAGESIZE, O_OOR, O_OP, O_SF, O_PPAGES, O_PPS,
	O_POLICY, O_PLACEMENT, O_GCLOW, O_GCHIGH, O_WEAR, O_TRIM, O_NOTRIM, O_PRECOND, O_WARMUP,
	O_SEED, O_CURVE, O_INTERVAL, O_HIST, O_SNAP, O_EHIST, O_FLASHOPS, O_CHECK, O_LISTPOL, O_LISTPLACE,
	O_HELP, O_VERSION, O_PROGRESS, O_DRYRUN, O_GCTRIG, O_SEGBYTES, O_GCBATCH, O_GCOPS, O_GCTIE, O_SPARESHARE,
	O_GRID, O_RESULTS, O_TAG, O_PERVOL, O_VOLUMES, O_MINPAGES, O_MEMLIMIT, O_FOOTPRINTS,
	O_TIMING, O_DEVICE, O_LISTDEV, O_TIMESCALE, O_QD, O_BGGC, O_PREEMPT, O_TRIMCOST, O_TIMELINE, O_TLINT,
	O_LATENCY, O_AGE, O_AGEFMT, O_HOSTLFS, O_TRIMMODE, O_DGRAN, O_DMAX, O_TRIMLOSS, O_ZONED, O_FDP, O_HOSTPLACE,
	O_DEVKEYS, O_GCMODE /* (a --grid axis only: gc-mode=foreground,idle:...,preemptible:...) */
};

static const struct option longopts[] = {
	CLI_TRACE_LONGOPTS,
	{"quiet", no_argument, NULL, 'q'},
	{"logical-pages", required_argument, NULL, O_LPAGES},
	{"capacity", required_argument, NULL, O_CAPACITY},
	{"logical-space", required_argument, NULL, O_SPACE},
	{"footprints", required_argument, NULL, O_FOOTPRINTS},
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
	{"gc-trigger", required_argument, NULL, O_GCTRIG},
	{"segment-bytes", required_argument, NULL, O_SEGBYTES},
	{"gc-batch", required_argument, NULL, O_GCBATCH},
	{"gc-ops", required_argument, NULL, O_GCOPS},
	{"gc-tie", required_argument, NULL, O_GCTIE},
	{"spare-share", required_argument, NULL, O_SPARESHARE},
	{"wear-level", required_argument, NULL, O_WEAR},
	{"trim", no_argument, NULL, O_TRIM},
	{"no-trim", no_argument, NULL, O_NOTRIM},
	{"trim-mode", required_argument, NULL, O_TRIMMODE},
	{"discard-granularity", required_argument, NULL, O_DGRAN},
	{"discard-max", required_argument, NULL, O_DMAX},
	{"trim-loss", required_argument, NULL, O_TRIMLOSS},
	{"precondition", required_argument, NULL, O_PRECOND},
	{"precondition-trace", required_argument, NULL, O_AGE},
	{"precondition-format", required_argument, NULL, O_AGEFMT},
	{"host-lfs", required_argument, NULL, O_HOSTLFS},
	{"zoned", required_argument, NULL, O_ZONED},
	{"fdp", required_argument, NULL, O_FDP},
	{"host-placement", required_argument, NULL, O_HOSTPLACE},
	{"warmup-writes", required_argument, NULL, O_WARMUP},
	{"seed", required_argument, NULL, O_SEED},
	{"curve", required_argument, NULL, O_CURVE},
	{"interval", required_argument, NULL, O_INTERVAL},
	{"hist", required_argument, NULL, O_HIST},
	{"snapshot-every", required_argument, NULL, O_SNAP},
	{"erase-hist", required_argument, NULL, O_EHIST},
	{"flash-ops", required_argument, NULL, O_FLASHOPS},
	{"check", no_argument, NULL, O_CHECK},
	{"progress", optional_argument, NULL, O_PROGRESS},
	{"dry-run", no_argument, NULL, O_DRYRUN},
	{"list-policies", no_argument, NULL, O_LISTPOL},
	{"list-placements", no_argument, NULL, O_LISTPLACE},
	{"grid", required_argument, NULL, O_GRID},
	{"results", required_argument, NULL, O_RESULTS},
	{"tag", required_argument, NULL, O_TAG},
	{"per-volume", no_argument, NULL, O_PERVOL},
	{"jobs", required_argument, NULL, 'j'},
	{"volumes", required_argument, NULL, O_VOLUMES},
	{"min-pages", required_argument, NULL, O_MINPAGES},
	{"mem-limit", required_argument, NULL, O_MEMLIMIT},
	{"timing", no_argument, NULL, O_TIMING},
	{"device", required_argument, NULL, O_DEVICE},
	{"device-keys", required_argument, NULL, O_DEVKEYS},
	{"list-devices", no_argument, NULL, O_LISTDEV},
	{"time-scale", required_argument, NULL, O_TIMESCALE},
	{"qd", required_argument, NULL, O_QD},
	{"bg-gc", required_argument, NULL, O_BGGC},
	{"gc-preempt", required_argument, NULL, O_PREEMPT},
	{"trim-cost", required_argument, NULL, O_TRIMCOST},
	{"timeline", required_argument, NULL, O_TIMELINE},
	{"timeline-interval", required_argument, NULL, O_TLINT},
	{"latency", required_argument, NULL, O_LATENCY},
	{"help", no_argument, NULL, O_HELP},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

static uint32_t opt_u32(const char *opt, const char *arg, uint32_t lo, uint32_t hi)
{
	uint64_t v;
	if (parse_u64(arg, &v) || v < lo || v > hi)
		sim_fail_usage("option '%s' needs a whole number from %u to %u, not '%s'", opt, lo, hi, arg);
	return (uint32_t)v;
}

static int set_phys(struct sim *s, int kind, const char *opt, const char *arg)
{
	if (s->opt.phys_given++)
		sim_fail_usage(s->opt.phys_kind == kind ? "%s is given twice" : "give only one of --op, --spare-factor, "
			    "--physical-pages (%s and another)", opt);
	s->opt.phys_kind = kind;
	if (kind == PHYS_PAGES) {
		s->opt.phys_pages = opt_u64(opt, arg);
		return 0;
	}
	s->opt.phys_val = opt_double(opt, arg);
	if (kind == PHYS_OP && !(s->opt.phys_val > 0))
		sim_fail_usage("--op must be above 0, not '%s'", arg);
	if (kind == PHYS_SF && !(s->opt.phys_val > 0 && s->opt.phys_val < 1))
		sim_fail_usage("--spare-factor must be between 0 and 1, not '%s'", arg);
	return 0;
}

static int parse_choice(const char *opt, const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	sim_fail_usage("option '%s' does not take '%s'", opt, arg);
}

static void opt_wear(struct sim *s, const char *arg)
{
	s->opt.wear = arg;
	if (!strcmp(arg, "none")) {
		s->opt.cfg.wear_threshold = 0;
		return;
	}
	uint64_t v;
	if (strncmp(arg, "static:", 7) || parse_u64(arg + 7, &v) || v < 1 || v > UINT32_MAX)
		sim_fail_usage("--wear-level takes none or static:THRESHOLD (THRESHOLD >= 1), not '%s'", arg);
	s->opt.cfg.wear_threshold = (uint32_t)v;
}

static void check_policies(struct sim *s)
{
	char err[512];
	if (registry_check(err, sizeof(err)))
		sim_fail("%s", err);
	struct ftl_config c = {.policy = s->opt.cfg.policy, .placement = s->opt.cfg.placement,
			       .host_placement = s->opt.cfg.host_placement};
	if (registry_resolve(&c, err, sizeof(err)))
		sim_fail_usage("%s (see --list-policies, --list-placements)", err);
	/* the host log's too, before any model (per volume, a model that
	 * refuses is only skipped) */
	struct ftl_config l = {.policy = s->opt.lfs.policy, .placement = s->opt.lfs.placement};
	if (s->opt.host_lfs && registry_resolve(&l, err, sizeof(err)))
		sim_fail_usage("--host-lfs: %s (see --list-policies, --list-placements)", err);
	if (s->opt.fdp_given && s->opt.place_given)
		sim_fail_usage("give one of --fdp and --placement (--fdp is the placement fdp)");
	int place_axis = 0;
	for (unsigned i = 0; i < s->opt.grid.naxes; i++)
		place_axis |= s->opt.grid.axis[i].code == O_PLACEMENT;
	/* a grid over placements: each model refuses a host placement on
	 * a placement that takes none, naming it */
	if (c.host_place && !place_axis && !(c.place->info.flags & PLACE_HOSTS))
		sim_fail_usage("--host-placement %s: the device's placement '%s' does not follow the host's handles "
			       "(--fdp, or --placement fdp)", s->opt.cfg.host_placement, c.place->info.name);
	/* What the host chooses must be a handle of the device: a host
	 * placement's streams for host writes (place_fdp.c refuses more), a
	 * host log's streams. Neither depends on the space: a small model
	 * says it before any input is read (per volume, a model refused
	 * would only be skipped). */
	static char passed[256]; /* the last pair that passed: a grid's cells share it */
	char pair[256];
	snprintf(pair, sizeof(pair), "%s %s", c.placement, c.host_placement ? c.host_placement : "");
	if (c.host_place && !place_axis && strcmp(pair, passed)) {
		int rc = probe_device(c.placement, c.host_placement, NULL, err, sizeof(err));
		if (rc && strstr(err, "out of memory"))
			sim_fail("%s", err);
		if (rc)
			sim_fail_usage("%s", err);
		snprintf(passed, sizeof(passed), "%s", pair);
	}
	unsigned h, g, handles = sim_fdp_handles(&s->opt.cfg, &h, &g);
	struct dev_stats st = {0};
	/* each of the host log's streams is a handle (host_lfs.c), its GC
	 * copies' too; a log refused here is the run's to explain */
	if (s->opt.host_lfs && handles && !probe_device(s->opt.lfs.placement, NULL, &st, err, sizeof(err)) &&
	    st.streams > handles)
		sim_fail_usage("--host-lfs placement=%s writes %u streams (its GC copies' among them), each a handle on "
			       "the FDP device, which has %u (%u handle%s x %u reclaim group%s): give more handles, or the "
			       "host log a placement with fewer streams", s->opt.lfs.placement, st.streams, handles, h,
			       h == 1 ? "" : "s", g, g == 1 ? "" : "s");
}

static void one_space(struct sim *s)
{
	if (s->opt.space_given++)
		sim_fail_usage("give only one of --logical-pages, --capacity, --logical-space");
}

/* --fdp [handles=H][,groups=G][,isolation=initial|persistent][,ru=K]:
 * the placement fdp:H=..,G=..,I=..,R=.. (place_fdp.c), which checks the
 * ranges. */
static int fdp_key(void *ctx, const char *k, const char *v, char *err, size_t n)
{
	uint64_t *f = ctx; /* handles, groups, isolation, ru */
	if (!strcmp(k, "isolation")) {
		if (strcmp(v, "initial") && strcmp(v, "persistent"))
			return set_err(err, n, "isolation=%s (initial or persistent)", v);
		f[2] = !strcmp(v, "persistent");
		return 0;
	}
	uint64_t *u = !strcmp(k, "handles") ? &f[0] : !strcmp(k, "groups") ? &f[1] : !strcmp(k, "ru") ? &f[3] : NULL;
	if (!u)
		return set_err(err, n, "'%s=%s' (keys: handles=N, groups=N, isolation=initial|persistent, ru=K)", k, v);
	if (parse_u64(v, u) || *u > UINT32_MAX)
		return set_err(err, n, "%s=%s is not a whole number", k, v);
	return 0;
}

static void fdp_arg(struct sim *s, const char *arg)
{
	uint64_t f[4] = {8, 1, 0, 1};
	char err[512];
	if (strcmp(arg, "on") && kv_parse("--fdp", arg, 0, fdp_key, f, err, sizeof(err))) /* on: the defaults */
		sim_fail_usage("%s", err);
	snprintf(s->opt.fdp_spec, sizeof(s->opt.fdp_spec), "fdp:H=%llu,G=%llu,I=%llu,R=%llu", (unsigned long long)f[0],
		 (unsigned long long)f[1], (unsigned long long)f[2], (unsigned long long)f[3]);
	s->opt.cfg.placement = s->opt.fdp_spec;
	s->opt.fdp_given = 1;
}

/* --zoned size=BYTES[,capacity=BYTES][,max_open=N][,max_active=N][,finish=pad|free];
 * a limit of 0 is none (dev.h). */
static int zoned_key(void *ctx, const char *k, const char *v, char *err, size_t n)
{
	struct zns_config *z = ctx;
	uint64_t u;
	int size = !strcmp(k, "size") || !strcmp(k, "capacity");
	if (size && (parse_size(v, &u) || !u))
		return set_err(err, n, "%s=%s: a size in bytes above 0 (e.g. 1M)", k, v);
	if (!strcmp(k, "size"))
		z->zone_bytes = u;
	else if (!strcmp(k, "capacity"))
		z->capacity_bytes = u;
	else if (!strcmp(k, "max_open") || !strcmp(k, "max_active")) {
		if (parse_u64(v, &u) || u > UINT32_MAX)
			return set_err(err, n, "%s=%s: a number of zones (0: no limit)", k, v);
		*(!strcmp(k, "max_open") ? &z->max_open : &z->max_active) = (uint32_t)u;
	} else if (!strcmp(k, "finish") && (!strcmp(v, "pad") || !strcmp(v, "free")))
		z->finish_pad = !strcmp(v, "pad");
	else
		return set_err(err, n, "'%s=%s' (keys: size=BYTES, capacity=BYTES, max_open=N, max_active=N, "
				       "finish=pad|free)", k, v);
	return 0;
}

static void zoned_arg(struct sim *s, const char *arg)
{
	struct zns_config *z = &s->opt.zns;
	char err[512];
	memset(z, 0, sizeof(*z));
	if (kv_parse("--zoned", arg, 0, zoned_key, z, err, sizeof(err)))
		sim_fail_usage("%s", err);
	if (!z->zone_bytes)
		sim_fail_usage("--zoned %s: size=BYTES (the zone size) is needed", arg);
	/* an open zone is active: a larger max_open would never be reached */
	if (z->max_open && z->max_active && z->max_open > z->max_active)
		sim_fail_usage("--zoned %s: max_open=%u above max_active=%u (an open zone is an active one)", arg,
			       z->max_open, z->max_active);
	s->opt.zoned = 1;
}

/* The options that tune a garbage collector (a zoned device has none). */
static const char *gc_option(int c)
{
	switch (c) {
	case O_GCLOW: return "--gc-low";
	case O_GCHIGH: return "--gc-high";
	case O_GCTRIG: return "--gc-trigger";
	case O_GCBATCH: return "--gc-batch";
	case O_GCOPS: return "--gc-ops";
	case O_GCTIE: return "--gc-tie";
	case O_SPARESHARE: return "--spare-share";
	case O_WEAR: return "--wear-level";
	default: return NULL;
	}
}

/* An option's off (--trim-cost none too, as the summary names it): no
 * host log, a conventional device, no host placement; the open loop,
 * foreground GC, TRIMs of no time (a device in time); on the command
 * line as in a grid. */
static int opt_off(struct sim *s, int c, const char *arg)
{
	if (strcmp(arg, "off") && !(c == O_TRIMCOST && !strcmp(arg, "none")))
		return 0;
	switch (c) {
	case O_HOSTLFS: s->opt.host_lfs = 0; return 1;
	case O_ZONED: s->opt.zoned = 0; return 1;
	case O_HOSTPLACE: s->opt.cfg.host_placement = NULL; return 1;
	case O_QD: s->opt.tc.qd = 0; break;
	case O_BGGC: s->opt.tc.bg_high = 0; break;
	case O_PREEMPT: s->opt.tc.preempt = 0; break;
	case O_TRIMCOST: s->opt.tc.trim = TRIM_FREE, s->opt.tc.trim_us = s->opt.tc.trim_us_mib = 0; break;
	default: return 0;
	}
	s->opt.timing = 1;
	return 1;
}

/* An output file's option, given once: a second would leave the first
 * file unwritten without a word. */
static void file_opt(const char **slot, const char *opt, const char *arg)
{
	if (*slot)
		sim_fail_usage("%s given twice ('%s', then '%s'): a run writes one %s file (a --grid's are FILE.K.csv)",
			       opt, *slot, arg, opt);
	*slot = arg;
}

static int sim_opt(struct sim *s, int c, const char *arg)
{
	if (arg && opt_off(s, c, arg))
		return 1;
	if (!s->opt.gc_opt)
		s->opt.gc_opt = gc_option(c);
	static const char *const spaces[] = {"given", "extent", "footprint", NULL};
	static const char *const oors[] = {"error", "drop", "clip", NULL};
	static const char *const preconds[] = {"none", "seq", "random", NULL};
	static const char *const ties[] = {"oldest", "random", NULL};
	static const char *const shares[] = {"shared", "opt", NULL};
	switch (c) {
	case 'q': s->opt.topt.quiet = s->opt.quiet = 1; break;
	case O_LPAGES:
		one_space(s);
		s->opt.space_opt = c;
		s->opt.cfg.logical_pages = opt_size("--logical-pages", arg);
		s->opt.space = SPACE_GIVEN;
		break;
	case O_CAPACITY:
		one_space(s);
		s->opt.space_opt = c;
		s->opt.capacity = opt_size("--capacity", arg);
		s->opt.space = SPACE_GIVEN;
		break;
	case O_SPACE:
		one_space(s);
		s->opt.space_opt = c;
		s->opt.space = parse_choice("--logical-space", arg, spaces);
		if (s->opt.space == SPACE_GIVEN)
			sim_fail_usage("--logical-space takes extent or footprint; give a size with --logical-pages");
		break;
	case O_PAGESIZE:
	{
		uint64_t ps = opt_size("--page-size", arg); /* 4096 or 4K, as tracestat takes it */
		if (ps < 512 || ps > (1u << 30) || (ps & (ps - 1)))
			sim_fail_usage("--page-size must be a power of two from 512 to 1G, not '%s'", arg);
		s->opt.cfg.page_size = (uint32_t)ps;
		s->opt.page_size_given = 1;
	}
		break;
	case O_OOR: s->opt.cfg.oor = parse_choice("--out-of-range", arg, oors); break;
	case O_OP: set_phys(s, PHYS_OP, "--op", arg); break;
	case O_SF: set_phys(s, PHYS_SF, "--spare-factor", arg); break;
	case O_PPAGES: set_phys(s, PHYS_PAGES, "--physical-pages", arg); break;
	case O_PPS:
		s->opt.cfg.pages_per_seg = strcmp(arg, "auto") ? opt_u32("--pages-per-segment", arg, 2, 1u << 24) : 0;
		s->opt.pps_given = 1;
		break;
	case O_POLICY: s->opt.cfg.policy = arg; break;
	case O_PLACEMENT: s->opt.cfg.placement = arg; s->opt.place_given = 1; break;
	case O_GCLOW: s->opt.cfg.gc_low = opt_u32("--gc-low", arg, 1, UINT32_MAX); break;
	case O_GCHIGH: s->opt.cfg.gc_high = opt_u32("--gc-high", arg, 1, UINT32_MAX); break;
	case O_GCTRIG:
		if (!strcmp(arg, "watermark"))
			s->opt.cfg.gc_gp = 0;
		else if (strncmp(arg, "gp:", 3) ||
			 !((s->opt.cfg.gc_gp = opt_double("--gc-trigger", arg + 3)) > 0 && s->opt.cfg.gc_gp < 1))
			sim_fail_usage("--gc-trigger takes watermark or gp:P (0 < P < 1), not '%s'", arg);
		break;
	case O_SEGBYTES:
		if (!(s->opt.seg_bytes = opt_size("--segment-bytes", arg)))
			sim_fail_usage("--segment-bytes must be above 0, not '%s'", arg);
		break;
	case O_GCBATCH: s->opt.cfg.gc_batch = opt_u32("--gc-batch", arg, 1, 1u << 20); break;
	case O_GCOPS: s->opt.cfg.gc_ops = opt_u32("--gc-ops", arg, 0, UINT32_MAX); break;
	case O_GCTIE: s->opt.cfg.tie_random = parse_choice("--gc-tie", arg, ties); break;
	case O_SPARESHARE: s->opt.cfg.spare_share = parse_choice("--spare-share", arg, shares); break;
	case O_WEAR: opt_wear(s, arg); break;
	case O_TRIM:
	case O_NOTRIM:
		if (s->opt.trim_given && s->opt.cfg.trim != (c == O_TRIM))
			sim_fail_usage("--trim and --no-trim contradict each other: give one");
		s->opt.cfg.trim = c == O_TRIM;
		s->opt.trim_given = 1;
		break;
	case O_TRIMMODE:
	case O_DGRAN:
	case O_DMAX:
	case O_TRIMLOSS: {
		char err[512];
		const char *key = c == O_TRIMMODE ? "trim-mode" : c == O_DGRAN ? "discard-granularity"
				  : c == O_DMAX ? "discard-max" : "trim-loss";
		if (trim_config_set(&s->opt.trim, key, arg, err, sizeof(err)))
			sim_fail_usage("%s", err);
		break;
	}
	case O_PRECOND: s->opt.precond = parse_choice("--precondition", arg, preconds); break;
	case O_AGE: s->opt.age_path = arg; break;
	case O_AGEFMT: {
		/* -f's words (csv:SPEC with its own map), for the ageing trace */
		struct trace_opts a;
		trace_opts_default(&a);
		cli_trace_opt('f', arg, &a);
		s->opt.age_format = a.format;
		s->opt.age_columns = a.rd.columns;
		break;
	}
	case O_ZONED: zoned_arg(s, arg); break;
	case O_FDP: fdp_arg(s, arg); break;
	case O_HOSTPLACE: s->opt.cfg.host_placement = arg; break;
	case O_HOSTLFS: {
		char err[512];
		if (host_lfs_parse(&s->opt.lfs, arg, err, sizeof(err)))
			sim_fail_usage("%s", err);
		s->opt.host_lfs = 1;
		break;
	}
	case O_WARMUP: s->opt.cfg.warmup_writes = opt_size("--warmup-writes", arg); break;
	case O_SEED: s->opt.cfg.seed = opt_u64("--seed", arg); break;
	case O_CURVE: file_opt(&s->opt.curve_path, "--curve", arg); break;
	case O_INTERVAL: s->opt.interval = opt_u64("--interval", arg); s->opt.interval_set = 1;
		if (!s->opt.interval)
			sim_fail_usage("--interval must be at least 1");
		break;
	case O_HIST: file_opt(&s->opt.hist_path, "--hist", arg); break;
	case O_SNAP: s->opt.snapshot_every = opt_u64("--snapshot-every", arg); break;
	case O_EHIST: file_opt(&s->opt.erase_path, "--erase-hist", arg); break;
	case O_FLASHOPS: file_opt(&s->opt.flashops_path, "--flash-ops", arg); break;
	case O_CHECK: s->opt.cfg.check = 1; break;
	case O_PROGRESS:
		s->opt.progress_every = arg ? opt_double("--progress", arg) : 1;
		if (s->opt.progress_every < 0)
			sim_fail_usage("--progress takes seconds >= 0 (0: none), not '%s'", arg);
		s->opt.progress_set = 1;
		break;
	case O_DRYRUN: s->opt.dry_run = 1; break;
	case O_GRID: sim_grid_add(s, arg); break;
	case O_RESULTS: file_opt(&s->opt.results_path, "--results", arg); break;
	case O_TAG: s->opt.tag = arg; break;
	case O_PERVOL: s->opt.per_volume = 1; break;
	case 'j':
		s->opt.jobs = opt_u32("--jobs", arg, 1, 256);
		s->opt.jobs_given = 1;
		break;
	case O_VOLUMES: sim_volumes_arg(s, arg); break;
	case O_MINPAGES: s->opt.min_pages = opt_u64("--min-pages", arg); break;
	case O_MEMLIMIT: s->opt.mem_limit = opt_size("--mem-limit", arg); break;
	case O_FOOTPRINTS: s->opt.fp_path = arg; break;
	case O_TIMING: s->opt.timing = 1; break;
	case O_DEVICE: {
		char err[512];
		if (s->opt.device_given)
			sim_fail_usage("--device given twice: one device, its keys after the profile "
				       "(--device femu,tr_us=50)");
		s->opt.timing = 1;
		int rc = time_config_parse(&s->opt.tc, arg, err, sizeof(err));
		if (rc == -2) /* the device file: bad input */
			sim_fail("%s", err);
		if (rc < 0)
			sim_fail_usage("%s", err);
		s->opt.device_given = 1;
		s->opt.device_spec = arg;
		s->opt.device_file = rc == 1;
		break;
	}
	case O_DEVKEYS: /* applied once the options are read, on whatever device they give */
		if (s->opt.devkeys)
			sim_fail_usage("--device-keys given twice: give every key in one (--device-keys cache_mib=4,suspend=both)");
		if (!strchr(arg, '='))
			sim_fail_usage("--device-keys %s: not KEY=VALUE[,KEY=VALUE...] (--device's keys)", arg);
		s->opt.timing = 1;
		s->opt.devkeys = arg;
		break;
	case O_TIMESCALE:
		s->opt.timing = 1;
		if (!((s->opt.tc.time_scale = opt_double("--time-scale", arg)) > 0))
			sim_fail_usage("--time-scale must be above 0, not '%s'", arg);
		break;
	case O_QD: s->opt.timing = 1; s->opt.tc.qd = opt_u32("--qd", arg, 1, 1u << 20); break;
	case O_BGGC:
	case O_PREEMPT:
	case O_TRIMCOST: {
		char err[512];
		int rc = c == O_BGGC ? time_parse_bg(&s->opt.tc, arg, err, sizeof(err))
			 : c == O_PREEMPT ? time_parse_preempt(&s->opt.tc, arg, err, sizeof(err))
					  : time_parse_trim(&s->opt.tc, arg, err, sizeof(err));
		if (rc)
			sim_fail_usage("%s", err);
		s->opt.timing = 1;
		break;
	}
	case O_TIMELINE: s->opt.timing = 1; file_opt(&s->opt.timeline_path, "--timeline", arg); s->opt.tc.timeline_lat = 1; break;
	case O_TLINT: {
		double ms = opt_double("--timeline-interval", arg);
		if (!(ms >= 0.001 && ms <= 1e9))
			sim_fail_usage("--timeline-interval takes milliseconds from 0.001 to 1e9, not '%s'", arg);
		s->opt.tc.timeline_ns = (uint64_t)(ms * 1e6);
		s->opt.tlint_set = 1;
		s->opt.timing = 1;
		break;
	}
	case O_LATENCY: s->opt.timing = 1; file_opt(&s->opt.latency_path, "--latency", arg); break;
	case O_LISTDEV: time_list_devices(stdout); exit(EXIT_OK);
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

void sim_parse_args(struct sim *s, int argc, char **argv)
{
	int c;
	static unsigned char given[O_GCMODE + 1]; /* the options on the command line */
	list_options(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "f:qhVj:", longopts, NULL)) != -1) {
		if (c == '?')
			sim_fail_usage("%s", bad_option(argv, longopts));
		if (c >= 0 && c <= O_GCMODE)
			given[c] = 1;
		if (!cli_trace_opt(c, optarg, &s->opt.topt) && !sim_opt(s, c, optarg))
			sim_fail_usage("bad option");
	}
	/* an option a grid's axis sets too: the axis would win without a
	 * word (but the device's, whose values are built on the command
	 * line's device: keys replaced or added) */
	for (unsigned i = 0; i < s->opt.grid.naxes; i++) {
		const struct grid_axis *a = &s->opt.grid.axis[i];
		if (a->code == O_DEVICE || a->code == O_DEVKEYS)
			continue;
		if ((a->code >= 0 && a->code <= O_GCMODE && given[a->code]) ||
		    (a->off_code >= 0 && a->off_code <= O_GCMODE && given[a->off_code]))
			sim_fail_usage("--%s is given and is an axis of --grid, which sets it in every configuration: "
				       "give its values in the grid only",
				       a->name);
	}
	/* several files, a directory or @LIST: one trace (a set of files) */
	static const char *const std_in[] = {"-"};
	const char **in = NULL;
	cli_trace_check(&s->opt.topt);
	size_t nin = argc > optind ? cli_trace_inputs(argv + optind, argc - optind, &s->opt.topt, &in, &s->opt.path) : 0;
	s->opt.paths = nin ? in : std_in;
	s->opt.npaths = nin ? nin : 1;
	s->opt.args = argv + optind;
	s->opt.nargs = argc - optind;
	if (!nin)
		s->opt.path = "-";
	if (optind == argc && isatty(0))
		sim_fail_usage("no trace: name a FILE, or pipe one in (- for stdin)");
	/* Progress: every second on a terminal unless told; elsewhere
	 * (a batch job's log) only when asked, as whole lines. */
	s->run.progress_tty = isatty(2);
	if (!s->opt.progress_set)
		s->opt.progress_every = s->run.progress_tty ? 1 : 0;
	for (unsigned k = 0; k < SIM_FILES; k++)
		if (sim_file(&s->opt, k) && !strcmp(sim_file(&s->opt, k), "-"))
			sim_fail_usage("%s -: standard output carries the JSON summary: name a file, not - (/dev/stderr, or "
				       "/dev/fd/3 for a descriptor of your own)", sim_files[k].option);
	if (s->opt.per_volume &&
	    (s->opt.curve_path || s->opt.hist_path || s->opt.erase_path || s->opt.flashops_path || s->opt.timeline_path))
		sim_fail_usage("--curve, --hist, --erase-hist, --flash-ops and --timeline are for one model, or a file "
			    "per configuration of a --grid (FILE.K.csv), not for --per-volume");
	/* the interval sets the timeline's rows and a closed loop's
	 * steady-state rounds: an open loop without --timeline, or a volume
	 * (which keeps no rows), has neither */
	if (s->opt.tlint_set && !s->opt.timeline_path) {
		int closed = s->opt.tc.qd != 0;
		for (unsigned i = 0; i < s->opt.grid.naxes; i++)
			closed |= s->opt.grid.axis[i].code == O_QD;
		if (s->opt.per_volume || !closed)
			warn("warning: --timeline-interval sets the rows of --timeline and the rounds of a closed loop's "
			     "steady-state rule (--qd): %s, so it changes nothing",
			     s->opt.per_volume ? "a volume of --per-volume keeps neither" : "an open loop without --timeline has neither");
	}
	/* the interval sets --curve's rows, and nothing else */
	if (s->opt.interval_set && !s->opt.curve_path)
		warn("warning: --interval sets the rows of --curve, which is not given, so it changes nothing");
	if (s->opt.grid.naxes && s->opt.per_volume && s->opt.latency_path)
		sim_fail_usage("--latency with --per-volume is for one configuration (every volume's requests "
			    "together), not a --grid");
	if (s->opt.age_path && (s->opt.per_volume || s->opt.space == SPACE_FOOTPRINT))
		sim_fail_usage("--precondition-trace ages one logical space: give --logical-pages, --capacity or "
			    "the extent, not --logical-space footprint or --per-volume");
	if (s->opt.tag && !s->opt.results_path)
		sim_fail_usage("--tag names the rows of --results; give --results FILE.csv");
	if (s->opt.age_format && !s->opt.age_path)
		sim_fail_usage("--precondition-format is the format of --precondition-trace's file; give the file");
	if (s->opt.age_format && !strcmp(s->opt.age_format, "csv") && !s->opt.age_columns && !s->opt.topt.rd.columns)
		sim_fail_usage("--precondition-format csv needs a column map: csv:SPEC, or the run's --columns");
	if ((s->opt.vol_top || s->opt.nvol_list || s->opt.min_pages || s->opt.shard_n) && !s->opt.per_volume)
		sim_fail_usage("--volumes and --min-pages select volumes of --per-volume");
	if (s->opt.per_volume && !strcmp(s->opt.path, "-") && !s->opt.fp_path)
		sim_fail_usage("--per-volume reads the trace twice: name a file, not standard input (or give "
			    "its --footprints)");
	if (s->opt.per_volume && s->opt.topt.volume >= 0)
		sim_fail_usage("--per-volume runs every volume; --volumes selects some (not --volume)");
}

/* What the command line says of one model, once the options are read. */
void sim_finish_args(struct sim *s)
{
	/* a grid's command line (its configurations are the models, each
	 * finished with its axes' values): its device is not checked, an
	 * axis may give what it lacks or replace it */
	int grid_line = s->opt.grid.naxes && !s->cell.axis_val[0];
	if (s->opt.devkeys && !grid_line) { /* on the device the options give, a grid's device axis's included */
		char err[512];
		uint32_t had = s->opt.tc.given; /* (the device's own keys, by name) */
		s->opt.tc.given = 0;
		if (time_config_parse(&s->opt.tc, s->opt.devkeys, err, sizeof(err)) < 0)
			sim_fail_usage("--device-keys %s: %s", s->opt.devkeys, err);
		if (s->opt.tc.given >> time_key_index("profile") & 1)
			sim_fail_usage("--device-keys %s: keys on the device the other options give, not a profile "
				       "(name it with --device)", s->opt.devkeys);
		uint32_t both = had & s->opt.tc.given;
		if (both) {
			const char *k = time_key_name(__builtin_ctz(both));
			sim_fail_usage("--device-keys %s: %s is given by --device %s too: give each key once", s->opt.devkeys, k,
				       s->opt.device_given && s->opt.device_spec ? s->opt.device_spec : "");
		}
		s->opt.tc.given |= had;
	}
	if (s->opt.timing && !grid_line) { /* the device whole, its keys from wherever they came */
		char err[400];
		if (time_config_check(&s->opt.tc, err, sizeof(err))) {
			const char *d = s->opt.device_given ? s->opt.device_spec : NULL, *k = s->opt.devkeys;
			if (d && s->opt.device_file && !k)
				sim_fail("%s: %s", d, err);
			sim_fail_usage("%s%s%s%s%s: %s", d ? "--device " : "", d ? d : "", d && k ? " " : "",
				    k ? "--device-keys " : "", k ? k : (d ? "" : "--timing"), err);
		}
	}
	s->opt.devkeys = NULL; /* (once) */
	if (s->opt.timing && s->opt.tc.page_kib) {
		/* the device's flash page is the model's page */
		if (s->opt.page_size_given && s->opt.cfg.page_size != s->opt.tc.page_kib * 1024u)
			sim_fail_usage("the device's pages are %u KiB (its page_kib), --page-size says %u bytes: give "
				    "one, or page_kib=%u in --device", s->opt.tc.page_kib, s->opt.cfg.page_size,
				    s->opt.cfg.page_size / 1024);
		s->opt.cfg.page_size = s->opt.tc.page_kib * 1024u;
	}
	if (s->opt.timing && s->opt.tc.cache_mib > 0) {
		uint64_t nc = time_cache_pages(&s->opt.tc, s->opt.cfg.page_size);
		if (!nc || nc > UINT32_MAX / 4)
			sim_fail_usage("--device cache_mib=%g: %s pages of %u bytes", s->opt.tc.cache_mib,
				       nc ? "more than 2^30" : "less than one of its", s->opt.cfg.page_size);
	}
	if (s->opt.timing && s->opt.tc.bg_high && s->opt.tc.preempt)
		sim_fail_usage("--bg-gc and --gc-preempt: give one way of cleaning in time");
	if (s->opt.tc.qd && s->opt.tc.time_scale != 1)
		sim_fail_usage("--time-scale and --qd: a closed loop (--qd N) ignores the trace's times; give one");
	if (s->opt.tc.qd && s->opt.tc.bg_high)
		sim_fail_usage("--bg-gc and --qd: a closed loop keeps N requests outstanding and is never idle; "
			       "background GC needs the open loop's gaps");
	if (s->opt.capacity) {
		if (s->opt.capacity % s->opt.cfg.page_size)
			sim_fail_usage("--capacity %llu is not a multiple of the page size %u",
				    (unsigned long long)s->opt.capacity, s->opt.cfg.page_size);
		s->opt.cfg.logical_pages = s->opt.capacity / s->opt.cfg.page_size;
	}
	if (s->opt.seg_bytes) {
		if (s->opt.pps_given)
			sim_fail_usage("give only one of --segment-bytes and --pages-per-segment");
		if (s->opt.seg_bytes % s->opt.cfg.page_size)
			sim_fail_usage("--segment-bytes %llu is not a whole number of %u-byte pages",
				    (unsigned long long)s->opt.seg_bytes, s->opt.cfg.page_size);
		if (s->opt.seg_bytes / s->opt.cfg.page_size < 2 || s->opt.seg_bytes / s->opt.cfg.page_size > 1u << 24)
			sim_fail_usage("--segment-bytes %llu holds %llu page%s of %u bytes; a segment has 2..2^24",
				    (unsigned long long)s->opt.seg_bytes,
				    (unsigned long long)(s->opt.seg_bytes / s->opt.cfg.page_size),
				    s->opt.seg_bytes / s->opt.cfg.page_size == 1 ? "" : "s", s->opt.cfg.page_size);
		s->opt.cfg.pages_per_seg = (uint32_t)(s->opt.seg_bytes / s->opt.cfg.page_size);
	}
	/* --gc-batch and --gc-ops shape the garbage-proportion trigger's
	 * operations; the watermarks clean until gc_high segments are free.
	 * A grid that varies the trigger takes them for its gp:P runs. */
	int trig_axis = 0;
	for (unsigned i = 0; i < s->opt.grid.naxes; i++)
		trig_axis |= s->opt.grid.axis[i].code == O_GCTRIG;
	if (!s->opt.cfg.gc_gp && !trig_axis && (s->opt.cfg.gc_batch > 1 || s->opt.cfg.gc_ops))
		sim_fail_usage("%s applies under --gc-trigger gp:P only (the watermarks clean until "
			    "--gc-high segments are free)", s->opt.cfg.gc_ops ? "--gc-ops" : "--gc-batch");
	if (s->opt.space == SPACE_GIVEN && !s->opt.cfg.logical_pages)
		sim_fail_usage("the logical space is empty (0 pages)");
	if (s->opt.snapshot_every && !s->opt.hist_path)
		sim_fail_usage("--snapshot-every needs --hist");
	/* Pairs where one option makes the other mean nothing. */
	int trim_host = s->opt.trim.mode != TRIM_ONLINE || s->opt.trim.granularity || s->opt.trim.max || s->opt.trim.loss > 0;
	if (s->opt.host_lfs && trim_host)
		sim_fail_usage("--host-lfs decides what the device is told of the file system's discards: not with "
			       "--trim-mode, --discard-granularity, --discard-max or --trim-loss");
	if (s->opt.zoned && trim_host)
		sim_fail_usage("--zoned: a zoned device ignores discards (a host log on it resets zones), so "
			       "--trim-mode, --discard-granularity, --discard-max and --trim-loss say nothing");
	if (!s->opt.cfg.trim && s->opt.host_lfs)
		sim_fail_usage("--no-trim with --host-lfs: the host log's discards would be sent and lost; a log that "
			       "sends none is --host-lfs discard=off");
	if (!s->opt.cfg.trim && trim_host)
		sim_fail_usage("--no-trim: the device ignores every discard, so --trim-mode, --discard-granularity, "
			       "--discard-max and --trim-loss, which shape the discards it is sent, say nothing");
	if (!s->opt.cfg.trim && s->opt.timing && s->opt.tc.trim != TRIM_FREE)
		sim_fail_usage("--no-trim: the device never hears a discard, so --trim-cost, the time one takes, says "
			       "nothing");
	if (s->opt.host_lfs && s->opt.cfg.host_placement)
		sim_fail_usage("--host-lfs and --host-placement: the host log places its writes itself (on an FDP "
			       "device its streams are the handles: --host-lfs placement=NAME)");
	if (s->opt.zoned && s->opt.gc_opt)
		sim_fail_usage("--zoned: a zoned device has no garbage collector: not with %s (a host log's cleaner "
			       "takes --host-lfs policy=NAME)", s->opt.gc_opt);
	if (s->opt.zoned && (s->opt.fdp_given || s->opt.place_given || s->opt.cfg.host_placement))
		sim_fail_usage("--zoned: a zoned device has no placement of its own (not with --fdp, --placement or "
			       "--host-placement; a host log on it places its own writes: --host-lfs placement=NAME)");
	if (s->opt.zoned && s->opt.host_lfs && !s->opt.lfs.discard)
		sim_fail_usage("--host-lfs discard=off on a zoned device: the host log resets the zones it cleans "
			       "(a zone is written again only after a reset)");
	if (s->opt.zoned && !s->opt.host_lfs && (s->opt.precond || s->opt.age_path))
		sim_fail_usage("--zoned: a zoned device starts with every zone empty (not with --precondition or "
			       "--precondition-trace; a host log above it, --host-lfs, writes its fill or ageing to the "
			       "zones)");
	if (s->opt.zoned && !s->opt.host_lfs && s->opt.space == SPACE_FOOTPRINT)
		sim_fail_usage("--zoned with --logical-space footprint: the footprint numbers the pages a trace writes "
			       "densely, and a zoned device takes the trace's writes at their own addresses, each zone "
			       "in order: --logical-space extent, --logical-pages N, or a host log (--host-lfs) that "
			       "lays the footprint out in zones");
	if (s->opt.zoned && s->opt.cfg.oor != OOR_ERROR && !s->opt.host_lfs)
		sim_fail_usage("--zoned: a request past the zones is an error of the zoned device (--out-of-range "
			       "drop and clip are the conventional device's)");
	if (s->opt.zoned && (s->opt.tc.bg_high || s->opt.tc.preempt))
		sim_fail_usage("--zoned: a zoned device has no garbage collector to run in idle time or in steps "
			       "(not with --bg-gc or --gc-preempt; its zone resets are the host's commands)");
	s->opt.zns.strict = !s->opt.topt.rd.skip_bad;
	if (s->opt.host_lfs && (s->opt.lfs.segment_bytes % s->opt.cfg.page_size || s->opt.lfs.offset_bytes % s->opt.cfg.page_size))
		sim_fail_usage("--host-lfs: segment=%llu and offset=%llu must be whole %u-byte pages",
			       (unsigned long long)s->opt.lfs.segment_bytes, (unsigned long long)s->opt.lfs.offset_bytes,
			       s->opt.cfg.page_size);
	char err[512];
	if (trim_config_check(&s->opt.trim, err, sizeof(err)))
		sim_fail_usage("%s", err);
	check_policies(s);
}

void sim_defaults(struct sim *s)
{
	trace_opts_default(&s->opt.topt);
	ftl_config_default(&s->opt.cfg);
	s->opt.space = SPACE_EXTENT;
	s->opt.phys_kind = PHYS_OP;
	s->opt.phys_val = 0.07;
	s->opt.jobs = sim_default_jobs();
	time_config_default(&s->opt.tc);
	trim_config_default(&s->opt.trim);
}

/*
 * --grid SPEC: "NAME=V1,V2,... NAME=..." over the model's options.
 */

static const struct option *find_long(const char *name)
{
	for (const struct option *o = longopts; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* The options an axis may vary: those of one model (its logical and
 * physical space, garbage collection, checks, its device in time), not
 * the input or outputs. */
static int model_option(int c)
{
	return (c >= O_LPAGES && c <= O_SEED) || c == O_CHECK || (c >= O_GCTRIG && c <= O_SPARESHARE) ||
	       (c >= O_TRIMMODE && c <= O_TRIMLOSS) || c == O_DEVICE || (c >= O_TIMESCALE && c <= O_TRIMCOST) ||
	       c == O_HOSTLFS || c == O_ZONED || c == O_HOSTPLACE || c == O_DEVKEYS;
}

/* Does p begin with NAME= (letters, digits, '_'), a policy's argument? */
static int arg_piece(const char *p)
{
	const char *q = p;
	while (isalnum((unsigned char)*q) || *q == '_')
		q++;
	return q > p && *q == '=';
}

/* Does the piece p (after the comma at end) continue the value v: a
 * KEY= piece, unless v is off or has that KEY already (hard=1,hard=2
 * is two values, idle=1,high=8,idle=5,high=8 two, off,hard=2 two; a
 * piece NAME:KEY= has KEY). */
static int continues(const char *v, const char *end, const char *p)
{
	if (!arg_piece(p) || ((size_t)(end - v) == 3 && !strncmp(v, "off", 3)))
		return 0;
	size_t k = strcspn(p, "=");
	for (const char *q = v; q < end;) {
		const char *e = memchr(q, ',', (size_t)(end - q));
		if (!e)
			e = end;
		const char *key = q, *colon = memchr(q, ':', (size_t)(e - q)), *eq = memchr(q, '=', (size_t)(e - q));
		if (colon && (!eq || colon < eq))
			key = colon + 1;
		if (eq && (size_t)(eq - key) == k && !strncmp(key, p, k))
			return 0;
		q = e + 1;
	}
	return 1;
}

static void add_axis(struct sim *s, char *tok)
{
	struct grid *g = &s->opt.grid;
	char *eq = strchr(tok, '=');
	if (!eq || eq == tok || !eq[1])
		sim_fail_usage("--grid: '%s' is not NAME=VALUE,VALUE,...", tok);
	*eq = 0;
	/* gc-mode: the way of cleaning in time, one axis (--bg-gc and
	 * --gc-preempt exclude each other) */
	static const struct option gc_mode = {"gc-mode", required_argument, NULL, O_GCMODE};
	const struct option *o = strcmp(tok, "gc-mode") ? find_long(tok) : &gc_mode;
	if (!o || (!model_option(o->val) && o->val != O_GCMODE)) {
		/* the nearest model option (gc-mode among them) */
		static struct option named[sizeof(longopts) / sizeof(longopts[0]) + 1];
		size_t k = 0;
		for (const struct option *x = longopts; x->name; x++)
			if (model_option(x->val))
				named[k++] = *x;
		named[k++] = gc_mode;
		named[k] = (struct option){0};
		const char *near = o ? NULL : nearest_option(tok, strlen(tok), named, "");
		/* options whose values a grid reaches another way */
		const char *how = !strcmp(tok, "fdp") ? "; FDP's handles vary as placement=fdp:H=2,fdp:H=4" : "";
		sim_fail_usage("--grid: '%s' is not a model option (see --help)%s%s%s%s", tok, near ? "; did you mean " : "",
			       near ? near : "", near ? "?" : "", how);
	}
	for (unsigned i = 0; i < g->naxes; i++)
		if (!strcmp(g->axis[i].name, tok))
			sim_fail_usage("--grid: the axis '%s' is given twice", tok);
	if (g->naxes == GRID_MAX_AXES)
		sim_fail_usage("--grid: at most %d axes", GRID_MAX_AXES);
	struct grid_axis *a = &g->axis[g->naxes++];
	*a = (struct grid_axis){.name = tok, .code = o->val, .off_code = -1, .flag = o->has_arg == no_argument};
	if (o->has_arg == no_argument) {
		char no[64];
		snprintf(no, sizeof(no), "no-%s", tok);
		const struct option *off = find_long(no);
		a->off_code = off ? off->val : -1;
	}
	for (char *v = eq + 1, *comma; v; v = comma) {
		/* A piece that begins NAME= continues the value before it: a
		 * policy's own arguments (placement=sepbit,fk:6,R=8 is two
		 * values, sepbit and fk:6,R=8). */
		for (comma = strchr(v, ','); comma && continues(v, comma, comma + 1); comma = strchr(comma + 1, ','))
			;
		if (comma)
			*comma++ = 0;
		if (!*v)
			sim_fail_usage("--grid: an empty value of '%s' (a comma at an end, or two together; an axis's values "
				       "are separated by commas with no space, the axes by spaces: 'op=0.07,0.28 policy=greedy,cb')",
				       tok);
		if (o->has_arg == no_argument && strcmp(v, "on") && (strcmp(v, "off") || a->off_code < 0))
			sim_fail_usage("--grid: '%s' takes %s, not '%s'", tok, a->off_code < 0 ? "on" : "on or off", v);
		for (unsigned i = 0; i < a->nval; i++)
			if (!strcmp(a->val[i], v))
				sim_fail_usage("--grid: the value '%s' of '%s' is given twice (it would be the same model twice)",
					       v, tok);
		char **nv = realloc(a->val, (a->nval + 1) * sizeof(*nv));
		if (!nv)
			sim_fail("out of memory");
		a->val = nv;
		a->val[a->nval++] = v;
	}
}

void sim_grid_add(struct sim *s, const char *spec)
{
	char *copy = strdup(spec), *save = NULL;
	if (!copy)
		sim_fail("out of memory");
	if (s->opt.grid.nspec == GRID_MAX_AXES)
		sim_fail_usage("--grid: at most %d axes", GRID_MAX_AXES);
	s->opt.grid.spec[s->opt.grid.nspec++] = copy;
	unsigned before = s->opt.grid.naxes;
	for (char *tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		add_axis(s, tok);
	if (s->opt.grid.naxes == before)
		sim_fail_usage("--grid: no axis in '%s'", spec);
	int mode = 0, bg = 0, pre = 0;
	for (unsigned i = 0; i < s->opt.grid.naxes; i++) {
		mode |= s->opt.grid.axis[i].code == O_GCMODE;
		bg |= s->opt.grid.axis[i].code == O_BGGC;
		pre |= s->opt.grid.axis[i].code == O_PREEMPT;
	}
	if (mode && (bg || pre))
		sim_fail_usage("--grid: gc-mode sets --bg-gc and --gc-preempt: not with a %s axis", bg ? "bg-gc" : "gc-preempt");
	s->opt.grid.nconf = 1;
	for (unsigned i = 0; i < s->opt.grid.naxes; i++) {
		s->opt.grid.nconf *= s->opt.grid.axis[i].nval;
		if (s->opt.grid.nconf > 1000000)
			sim_fail_usage("--grid: more than 10^6 configurations");
	}
}

static int phys_of(int c)
{
	return c == O_OP ? PHYS_OP : c == O_SF ? PHYS_SF : c == O_PPAGES ? PHYS_PAGES : -1;
}

/* One axis's value on top of the command line: it replaces the same
 * option, and conflicts with another of its group (--op, --spare-factor). */
static void apply_axis(struct sim *m, const struct grid_axis *a, const char *val)
{
	int c = a->code;
	if (a->flag) {
		c = strcmp(val, "on") ? a->off_code : a->code;
		val = NULL;
	}
	if (phys_of(c) >= 0) {
		if (m->opt.phys_given && m->opt.phys_kind != phys_of(c))
			sim_fail_usage("--grid %s: the command line gives another of --op, --spare-factor, "
				    "--physical-pages", a->name);
		m->opt.phys_given = 0;
	}
	if (c == O_LPAGES || c == O_CAPACITY || c == O_SPACE) {
		if (m->opt.space_given && m->opt.space_opt != c)
			sim_fail_usage("--grid %s: the command line gives another of --logical-pages, "
				    "--capacity, --logical-space", a->name);
		m->opt.space_given = 0;
	}
	if (c == O_TRIM || c == O_NOTRIM)
		m->opt.trim_given = 0;
	if (c == O_DEVICE) { /* the axis's device replaces the command line's, keys and all */
		m->opt.device_given = 0;
		time_config_device_default(&m->opt.tc);
	}
	if (c == O_DEVKEYS) /* the axis's keys replace the command line's */
		m->opt.devkeys = NULL;
	if (c == O_GCMODE) { /* foreground, idle[:SPEC], preemptible[:SPEC] */
		const char *colon = strchr(val, ':');
		size_t k = colon ? (size_t)(colon - val) : strlen(val);
		m->opt.tc.bg_high = 0;
		m->opt.tc.preempt = 0;
		m->opt.timing = 1;
		if (k == 10 && !strncmp(val, "foreground", k) && !colon)
			return;
		if (k == 4 && !strncmp(val, "idle", k)) {
			if (!colon)
				sim_fail_usage("--grid gc-mode=idle needs its --bg-gc: idle:idle=MS,high=N");
			sim_opt(m, O_BGGC, colon + 1);
		} else if (k == 11 && !strncmp(val, "preemptible", k)) {
			sim_opt(m, O_PREEMPT, colon ? colon + 1 : "hard=1");
		} else {
			sim_fail_usage("--grid gc-mode: '%s' is not foreground, idle:idle=MS,high=N or "
				       "preemptible[:hard=N]",
				       val);
		}
		return;
	}
	sim_opt(m, c, val);
}

/* Every configuration of the grid, the last axis varying fastest; s is
 * the command line as read, before sim_finish_args(). */
const struct sim_file sim_files[] = {
	{"--curve", "curve", offsetof(struct sim_opts, curve_path)},
	{"--hist", "hist", offsetof(struct sim_opts, hist_path)},
	{"--erase-hist", "erase_hist", offsetof(struct sim_opts, erase_path)},
	{"--flash-ops", "flash_ops", offsetof(struct sim_opts, flashops_path)},
	{"--timeline", "timeline", offsetof(struct sim_opts, timeline_path)},
	{"--latency", "latency", offsetof(struct sim_opts, latency_path)},
	{"--results", "results", offsetof(struct sim_opts, results_path)},
};
_Static_assert(sizeof(sim_files) / sizeof(sim_files[0]) == SIM_FILES, "sim_files has SIM_FILES rows");

/* A grid configuration's output files: FILE.csv of the command line is
 * FILE.K.csv for configuration K (FILE.K without an extension), in one
 * block (cell.paths) freed with the model. */
static void cell_paths(struct sim *m, uint64_t k)
{
	const char **p[SIM_CELL_FILES];
	size_t need = 0;
	for (unsigned i = 0; i < SIM_CELL_FILES; i++)
		if (*(p[i] = sim_file_path(&m->opt, i))) /* (not "-": refused with every file option) */
			need += strlen(*p[i]) + 24;
	if (!need)
		return;
	char *b = m->cell.paths = malloc(need);
	if (!b)
		sim_fail("out of memory");
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		if (!*p[i])
			continue;
		const char *path = *p[i], *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
		if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
			dot = path + strlen(path); /* no extension (or a hidden file's name) */
		int w = sprintf(b, "%.*s.%llu%s", (int)(dot - path), path, (unsigned long long)k, dot);
		*p[i] = b;
		b += w + 1;
	}
}

void sim_check_files(const struct sim *s, struct sim *const *conf, unsigned nconf)
{
	struct file_uses u = {0};
	char err[2600];
	cli_trace_uses(&u, s->opt.args, s->opt.nargs, s->opt.paths, s->opt.npaths);
	if (s->opt.age_path)
		file_uses_add(&u, 0, "--precondition-trace", s->opt.age_path, "the ageing trace being read");
	if (s->opt.fp_path)
		file_uses_add(&u, 0, "--footprints", s->opt.fp_path, "the footprints table being read");
	int grid = s->opt.grid.naxes > 0;
	for (unsigned i = 0; i < (grid ? nconf : 1); i++) {
		const struct sim *m = grid ? conf[i] : s;
		if (m->opt.device_file && m->opt.device_spec) /* (a grid's device axis may name files too) */
			file_uses_add(&u, 0, "--device", m->opt.device_spec, "the device file read");
	}
	/* a grid's configurations write their own FILE.K.csv; --results
	 * is the run's */
	for (unsigned i = 0; grid && i < nconf; i++) {
		char label[64];
		snprintf(label, sizeof(label), "--grid configuration %llu", (unsigned long long)conf[i]->cell.conf);
		for (unsigned k = 0; k < SIM_CELL_FILES; k++)
			if (sim_file(&conf[i]->opt, k))
				file_uses_add(&u, 1, sim_files[k].option, sim_file(&conf[i]->opt, k), label);
	}
	for (unsigned k = grid ? SIM_CELL_FILES : 0; k < SIM_FILES; k++)
		if (sim_file(&s->opt, k))
			file_uses_add(&u, 1, sim_files[k].option, sim_file(&s->opt, k), NULL);
	file_uses_add(&u, 1, NULL, "-", NULL); /* the JSON summary */
	int rc = file_uses_check(&u, err, sizeof(err));
	if (rc > 0)
		sim_fail_usage("%s", err);
	if (rc < 0)
		sim_fail("%s", err);
}

struct sim **sim_grid_models(const struct sim *s, unsigned *n)
{
	const struct grid *g = &s->opt.grid;
	struct sim **m = calloc(g->nconf, sizeof(*m));
	if (!m)
		sim_fail("out of memory for %llu configurations", (unsigned long long)g->nconf);
	for (uint64_t i = 0; i < g->nconf; i++) {
		if (!(m[i] = malloc(sizeof(**m))))
			sim_fail("out of memory for %llu configurations", (unsigned long long)g->nconf);
		*m[i] = *s;
		m[i]->cell.conf = i;
		uint64_t r = i;
		for (unsigned a = g->naxes; a-- > 0;) {
			m[i]->cell.axis_val[a] = g->axis[a].val[r % g->axis[a].nval];
			r /= g->axis[a].nval;
		}
		char label[512];
		sim_conf_label(s, m[i], label, sizeof(label));
		sim_fail_cell(label); /* (a refusal of this configuration names it) */
		for (unsigned a = 0; a < g->naxes; a++)
			apply_axis(m[i], &g->axis[a], m[i]->cell.axis_val[a]);
		cell_paths(m[i], i);
		sim_finish_args(m[i]);
		sim_fail_cell(NULL);
	}
	/* an axis a zoned device does not read (docs/MODEL.md: every
	 * device of a comparison may share them): its zoned configurations
	 * are the same model once per value */
	for (unsigned a = 0; a < g->naxes; a++) {
		int c = g->axis[a].code;
		if ((c != O_POLICY && phys_of(c) < 0 && c != O_PPS && c != O_SEGBYTES) || g->axis[a].nval < 2)
			continue;
		for (uint64_t i = 0; i < g->nconf; i++)
			if (m[i]->opt.zoned) {
				char l[512];
				warn("warning: --grid %s: a zoned device reads no %s (%s): its configurations that differ only in "
				     "%s are the same model%s", g->axis[a].name,
				     c == O_POLICY ? "victim policy" : phys_of(c) < 0 ? "segment size" : "spare space",
				     sim_conf_label(s, m[i], l, sizeof(l)), g->axis[a].name,
				     c == O_POLICY ? " (a host log's cleaner takes --host-lfs policy=NAME)"
				     : phys_of(c) < 0 ? " (its zones are --zoned size=)"
								   : " (a host log's spare is --host-lfs op=X)");
				break;
			}
	}
	/* a space given in pages, of pages of different sizes (a device
	 * axis): drives of different sizes under the same trace */
	for (uint64_t i = 1; i < g->nconf; i++)
		if (m[i]->opt.space == SPACE_GIVEN && !m[i]->opt.capacity &&
		    m[i]->opt.cfg.page_size != m[0]->opt.cfg.page_size &&
		    m[i]->opt.cfg.logical_pages * m[i]->opt.cfg.page_size !=
			    m[0]->opt.cfg.logical_pages * m[0]->opt.cfg.page_size) {
			char a[512], b[512];
			warn("warning: --logical-pages counts pages of %u bytes in %s and of %u in %s: drives of %.4g and %.4g "
			     "GiB under the same trace; --capacity BYTES gives them one size",
			     m[0]->opt.cfg.page_size, sim_conf_label(s, m[0], a, sizeof(a)), m[i]->opt.cfg.page_size,
			     sim_conf_label(s, m[i], b, sizeof(b)),
			     (double)m[0]->opt.cfg.logical_pages * m[0]->opt.cfg.page_size / 1073741824.0,
			     (double)m[i]->opt.cfg.logical_pages * m[i]->opt.cfg.page_size / 1073741824.0);
			break;
		}
	*n = (unsigned)g->nconf;
	return m;
}

/* "policy=cb op=0.28" after prefix k bytes of buf: the axis values. */
static char *axes_label(const struct sim *s, const struct sim *m, char *buf, size_t n, size_t k)
{
	for (unsigned a = 0; a < s->opt.grid.naxes && k < n; a++)
		k += snprintf(buf + k, n - k, "%s%s=%s", k ? " " : "", s->opt.grid.axis[a].name, m->cell.axis_val[a]);
	return buf;
}

char *sim_conf_label(const struct sim *s, const struct sim *m, char *buf, size_t n)
{
	buf[0] = 0;
	return axes_label(s, m, buf, n, m->cell.vol ? (size_t)snprintf(buf, n, "volume %u", m->cell.vol->id) : 0);
}

char *sim_axes_label(const struct sim *s, const struct sim *m, char *buf, size_t n)
{
	buf[0] = 0;
	return axes_label(s, m, buf, n, 0);
}

void sim_free_grid(struct sim *s)
{
	for (unsigned a = 0; a < s->opt.grid.naxes; a++)
		free(s->opt.grid.axis[a].val);
	for (unsigned i = 0; i < s->opt.grid.nspec; i++)
		free(s->opt.grid.spec[i]);
	s->opt.grid = (struct grid){0};
}
