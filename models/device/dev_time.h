/*
 * dev_time.h - a device in time: the FTL model's flash operations
 * (flash.h) charged to the dies and channels of a flash array and
 * queued there, requests arriving at the trace's times (open loop) or
 * N at a time (closed loop), cleaning in the foreground, in idle time
 * or preemptible, and what each request waited. docs/MODEL.md says how.
 */
#ifndef FTLKIT_DEV_TIME_H
#define FTLKIT_DEV_TIME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lhist.h"

/* How a segment's pages lie on the dies. */
enum time_layout {
	LAYOUT_STRIPE, /* a superblock: page i of every segment on unit i mod units, an erase on every unit */
	LAYOUT_DIE     /* segment s on unit s mod units, all its pages and its erase */
};

/* What the planes of a die do (docs/MODEL.md, "The array"). */
enum time_multiplane {
	MP_ON,	  /* a die runs one command at a time; a read, program or erase may span planes (MQSim's rule) */
	MP_OFF,	  /* a die runs one page operation at a time: its planes add pages, not parallelism */
	MP_IDEAL  /* each plane a unit of its own: no die rule (an upper bound) */
};

/* Page types: at most TIME_TYPES; a page's type by its offset i in its
 * block, i mod types (cyclic), or the TLC order of Yaakobi et al.
 * (ICNC 2012) that MQSim applies: pages 0-5 lower, 6 and 7 centre, then
 * ((i - 8) / 2) mod 3. */
#define TIME_TYPES 4
enum time_order { ORDER_CYCLIC, ORDER_SHADOW };
/* suspend=: a host read suspends the erase or program of work that
 * yields (idle-time or preemptible GC) in progress on its die */
enum time_suspend { SUSPEND_OFF, SUSPEND_ERASE, SUSPEND_PROGRAM, SUSPEND_BOTH };

/* --trim-cost */
enum trim_cost { TRIM_FREE, TRIM_QUEUED, TRIM_UNQUEUED };

struct time_config {
	char profile[32];		/* the named profile it started from, or the file */
	int modified;			/* a key was set on top of the profile */
	uint32_t given;			/* the keys set by name (1 << time_key_index) */
	unsigned channels, dies, planes; /* dies per channel, planes per die */
	uint32_t page_kib;		/* 0: the model's page size */
	double tr_us, tprog_us, tbers_us, xfer_us; /* tR and tPROG: the mean over the page types */
	/* Page types (an MLC's or TLC's lower, centre and upper pages): tR
	 * and tPROG of each, tr_n and tprog_n of them (1: every page alike);
	 * a page's type by its offset in its block (page_order) */
	unsigned tr_n, tprog_n;
	double tr_t[TIME_TYPES], tprog_t[TIME_TYPES];
	int page_order; /* enum time_order */
	int suspend;	/* enum time_suspend: what of yielding GC's a host read suspends */
	double suspend_us; /* the time to suspend it */
	double cache_mib;		/* a write cache of this many MiB (whole pages); 0: none */
	double cache_us;		/* a page into or out of it, on its one memory bus */
	struct time_cmt_config {
		double mib;		/* a cached mapping table of this many MiB (cmt_mib); 0: the whole map cached */
		uint32_t entry_bytes;	/* its entries' size (cmt_entry_bytes; a translation page holds page size / it) */
	} cmt;
	double host_us;			/* a command's fixed time in the controller (its start later by it) */
	double host_mbps;		/* the host link: MB/s each way (full duplex; 0: no transfer time) */
	int layout;			/* enum time_layout */
	int multiplane;			/* enum time_multiplane */
	int timeline_lat;		/* the timeline's rows keep their latencies (mean, p99): --timeline writes them */
	int stream_lat;			/* a write latency histogram per stream (lat_stream) */
	double time_scale;		/* open loop: arrival = trace time x scale */
	unsigned qd;			/* closed loop: requests outstanding; 0 open loop */
	double bg_idle_ms;		/* --bg-gc idle=MS */
	uint32_t bg_high;		/* --bg-gc high=N; 0: no background GC */
	uint32_t preempt_hard;		/* --gc-preempt hard=N; 0: foreground GC blocks */
	int preempt;
	int trim;			/* enum trim_cost */
	double trim_us, trim_us_mib;	/* a TRIM's fixed time, and per MiB */
	uint64_t timeline_ns;		/* interval of the timeline's rows; 0: none kept */
	uint64_t warmup_writes;		/* the latencies count after these host page writes */
	uint64_t mem_max;		/* the timeline may grow to this much memory; 0: no limit */
	uint32_t seg_blocks;		/* erase blocks a model segment is (an FDP reclaim unit of R: R); 0 or 1: one */
};

/* The femu profile (FEMU's defaults). */
void time_config_default(struct time_config *c);
/* The device's keys alone (profile, geometry, times, layout) back to
 * the default's, the rest of c kept: a --device that replaces another. */
void time_config_device_default(struct time_config *c);
/* --device NAME[,key=value...] or FILE (key=value lines, # comments,
 * "profile=NAME" first to start from one; a file when one is there by
 * that name, or when the name has a '/', or a '.' and no '='): 0, or 1
 * for a file; -1 with a message for a bad key; -2 for a file that is missing or
 * unreadable or has a bad line (named, with its line). */
int time_config_parse(struct time_config *c, const char *spec, char *err, size_t n);
/* A device that can run: some operation takes time, its keys agree
 * (0, or -1 with a message). time_config_parse does not check it: a
 * key may need others given after it (--device, then --device-keys);
 * check once every key is in. */
int time_config_check(const struct time_config *c, char *err, size_t n);
/* --bg-gc, --gc-preempt, --trim-cost: 0 or -1 with a message. */
int time_parse_bg(struct time_config *c, const char *spec, char *err, size_t n);
int time_parse_preempt(struct time_config *c, const char *spec, char *err, size_t n);
int time_parse_trim(struct time_config *c, const char *spec, char *err, size_t n);
/* A device key's bit in time_config.given, or -1; its name (NULL past the last). */
int time_key_index(const char *key);
const char *time_key_name(int i);
/* The page types (1: every page alike). */
unsigned time_page_types(const struct time_config *c);
/* --list-devices: the profiles, one a line, with their source. */
void time_list_devices(FILE *out);
/* The units that run operations (a die; a plane under multiplane=ideal),
 * and the places a segment's pages are striped over (every plane). */
unsigned time_units(const struct time_config *c);
unsigned time_slots(const struct time_config *c);
/* The bytes the timeline takes an interval of simulated time (its row
 * and its accumulators). */
#define TIME_IV_ARRAYS 7 /* an interval's accumulators (struct dev_time's iv_*) */
#define TIME_ROW_BYTES (sizeof(struct time_row) + TIME_IV_ARRAYS * sizeof(uint64_t))
/* The bytes a device in time allocates at open (histograms, queues),
 * before rows and backlogs grow. */
uint64_t time_mem_bytes(const struct time_config *c, uint32_t page_size);
/* The write cache's pages (cache_mib of pages of page_size bytes; 0: none). */
uint64_t time_cache_pages(const struct time_config *c, uint32_t page_size);
/* The cached mapping table's entries (cmt_mib of cmt_entry_bytes; 0:
 * none, the whole map cached), and its bytes over `pages` logical pages. */
uint64_t time_cmt_entries(const struct time_config *c);
uint64_t time_cmt_bytes(const struct time_config *c, uint32_t page_size, uint64_t pages);

/* Operation kinds of the latency histograms: TK_ZONE a zoned device's
 * zone commands (reset, open, finish), reported only for one. */
enum { TK_READ, TK_WRITE, TK_TRIM, TK_ZONE, TK_N };

/* A row of the timeline: the requests that arrived in an interval. */
struct time_row {
	uint64_t reqs; /* arrivals */
	double mean_ns, p99_ns; /* kept with cfg.timeline_lat, else 0 */
	uint32_t free_segments;
	double wa; /* so far */
};

/* What the device did in time (dev_ops.time). */
struct dev_time {
	struct time_config cfg;
	unsigned units;
	struct lhist lat[TK_N];	   /* over the measured window */
	unsigned kinds;		   /* the kinds reported: TK_N with a zoned device, else TK_ZONE */
	uint64_t requests;	   /* served, all of them */
	uint64_t t_first, t_last;  /* arrivals (simulated ns) */
	uint64_t t_end;		   /* the last completion (and background work done) */
	uint64_t t_measure;	   /* the first measured request's arrival (after the warm-up) */
	int measuring;
	uint64_t busy_ns, gc_ns, gc_bg_ns; /* unit time: all, GC and wear levelling, of it in idle time */
	double xfer_ns;		   /* channel time */
	uint64_t *unit_busy;	   /* each unit's busy time */
	double gc_wait_ns;	   /* requests' time waiting on GC */
	uint64_t gc_waits;	   /* requests that waited on GC */
	uint64_t reordered;	   /* open loop: arrivals earlier than the one before, served in order */
	uint64_t read_unwritten;   /* pages read that no write mapped, read where they would lie */
	uint64_t behind_max, behind_at; /* open loop: the most the last completion so far ran past an arrival, and when */
	int reset_seen;		   /* a zoned device: a zone reset arrived (its host cleans), the first at reset_at */
	uint64_t reset_at;
	uint64_t tick_ms, tick_s;  /* open loop: trace times in whole milliseconds, whole seconds */
	int rows_noted;		   /* the timeline's rows far outnumbered the requests: said during the run */
	uint64_t same_instant;	   /* open loop: arrivals at the time of the one before */
	uint64_t bg_steps;	   /* victims cleaned in idle time */
	uint64_t backlog_max;	   /* the most background operations queued at once */
	uint64_t mp_joined[3];	   /* operations that joined a multi-plane command, by kind (flash.h) */
	uint64_t bytes;		   /* the bytes of the reads and writes served */
	/* the write cache (cfg.cache_mib): its pages, the host pages read
	 * from it, the writes that waited for room in it and that time */
	uint64_t cache_pages, cache_hits, cache_waits, cache_wait_ns;
	uint64_t suspensions; /* a yielding GC erase or program suspended for a host read */
	/* the cached mapping table (cfg.cmt_mib): its entries; the host
	 * pages that found their entry in it or not; the translation pages
	 * read (for a miss, or before a write-back) and written back */
	struct time_cmt {
		uint64_t entries;
		struct time_cmt_counts {
			uint64_t hits, misses, reads, writes;
		} n, n0; /* so far, and when the measured window began */
	} cmt;
	uint64_t link_ns[2];  /* the host link's busy time: writes' data in, reads' data out */
	uint64_t flushes, flush_max; /* measured flushes (no histogram of their own), their longest latency */
	double flush_ns;	     /* and their latencies summed */
	/* the sums above when the measured window began (all 0 without a
	 * warm-up), and each unit's busy time then */
	struct {
		uint64_t requests, busy_ns, gc_ns, gc_bg_ns, gc_waits, bg_steps, bytes;
		uint64_t cache_hits, cache_waits, cache_wait_ns, suspensions, link_ns[2];
		double gc_wait_ns;
	} m0;
	uint64_t *unit_busy0;
	/* cfg.stream_lat: the measured writes' latencies by the stream their
	 * last page was programmed in (nstreams of them; a stream's made at
	 * its first such write, NULL before) */
	struct lhist **lat_stream;
	unsigned nstreams;
	/* the timeline: nrows rows, and each interval's unit and GC time */
	struct time_row *rows;
	size_t nrows;
	size_t rows_done; /* of them, those to the last completion's interval (the steady-state rounds) */
	uint64_t *iv_busy, *iv_gc, *iv_bg; /* unit time: all, GC, GC in idle time */
	uint64_t *iv_done, *iv_done_bytes; /* requests completed in each interval, and their bytes */
	uint64_t *iv_done_r, *iv_done_w;   /* of them, reads and writes */
	size_t niv;
	uint64_t mem_bytes;
};

#endif
