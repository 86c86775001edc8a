/*
 * bench_model.c - the model's speed benchmark: drive the FTL API
 * directly (no I/O) with uniform random single-page writes after a
 * sequential fill, and report page writes per second and memory.
 * With --emit it writes the same workload as an event stream on stdout
 * instead, to time the whole ftlsim program on it.
 *
 *   bench_model [--logical-pages N] [--pages-per-segment B] [--op X]
 *               [--policy P] [--writes N] [--warmup N] [--seed S] [--emit]
 *
 * Output: one line of "key=value" fields (tests/bench_model.sh makes the
 * table). Rates are per second of this process's CPU time (wall_flash_per_s:
 * per second of wall time).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "event.h"
#include "ftl.h"
#include "ftlkit.h"
#include "rng.h"
#include "registry.h"

/* Prefetch distances, in writes ahead: the map entry L2PD, the segment
 * record SEGD, its neighbours LINKD (-D to experiment; < RING). */
#ifndef L2PD
#define L2PD 32
#endif
#ifndef SEGD
#define SEGD 16
#endif
#ifndef LINKD
#define LINKD 8
#endif
enum { RING = 64, MASK = RING - 1 };

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wall time, and the CPU time this process used: on a shared machine
 * the second is the one that measures the model. */
static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }
static double cpu_s(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

static int emit(uint64_t U, uint64_t writes, uint64_t seed)
{
	struct rng rng;
	struct ev_writer w;
	rng_seed(&rng, seed);
	ev_writer_init(&w, stdout, 1);
	for (uint64_t i = 0; i < writes; i++) {
		struct ev e = {.t_ns = (int64_t)i, .op = EV_WRITE, .length = 4096};
		e.offset = (uint64_t)rng_below32(&rng, (uint32_t)U) * 4096;
		if (ev_write(&w, &e))
			return -1;
	}
	return ev_writer_end(&w);
}

/* The measured loop: lpns are drawn RING writes early so that the
 * model's prefetch hints (ftl.h) can bring in, in three stages, the map
 * entry, the segment record it points into and that record's list
 * neighbours before the write needs them. */
static int run(struct ftl *f, uint64_t writes, uint64_t seed)
{
	struct rng rng;
	uint32_t ring[RING];
	rng_seed(&rng, seed);
	uint32_t U = (uint32_t)f->U;
	for (int i = 0; i < RING; i++) {
		ring[i] = rng_below32(&rng, U);
		if (i < L2PD)
			ftl_prefetch(f, ring[i]);
	}
	for (uint64_t i = 0; i < writes; i++) {
		uint32_t lpn = ring[i & MASK];
		ftl_prefetch(f, ring[(i + L2PD) & MASK]);
		ftl_prefetch_seg(f, ring[(i + SEGD) & MASK]);
		ftl_prefetch_links(f, ring[(i + LINKD) & MASK]);
		ring[i & MASK] = rng_below32(&rng, U);
		if (ftl_write(f, lpn, 0))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"logical-pages", 1, 0, 'U'}, {"pages-per-segment", 1, 0, 'b'},
		{"op", 1, 0, 'o'},	      {"spare-factor", 1, 0, 's'},
		{"policy", 1, 0, 'p'},	      {"placement", 1, 0, 'P'},
		{"writes", 1, 0, 'w'},	      {"warmup", 1, 0, 'W'},
		{"seed", 1, 0, 'S'},	      {"emit", 0, 0, 'e'},
		{"help", 0, 0, 'h'},	      {0, 0, 0, 0},
	};
	struct ftl_config c;
	uint64_t U = 1 << 20, writes = 0, warm = 0;
	double op = 0.1, sf = -1;
	int do_emit = 0, ch;
	prog_init(argv[0]);
	ftl_config_default(&c);
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'U': U = opt_u64("--logical-pages", optarg); break;
		case 'b': c.pages_per_seg = (uint32_t)opt_u64("--pages-per-segment", optarg); break;
		case 'o': op = opt_double("--op", optarg); break;
		case 's': sf = opt_double("--spare-factor", optarg); break;
		case 'p': c.policy = optarg; break;
		case 'P': c.placement = optarg; break;
		case 'w': writes = opt_u64("--writes", optarg); break;
		case 'W': warm = opt_u64("--warmup", optarg); break;
		case 'S': c.seed = opt_u64("--seed", optarg); break;
		case 'e': do_emit = 1; break;
		case 'h':
			printf("usage: %s [--logical-pages N] [--pages-per-segment B] [--op X | --spare-factor S]\n"
			       "       [--policy P] [--placement P] [--writes N] [--warmup N] [--seed S] [--emit]\n",
			       prog_name);
			return 0;
		default: usage_error("unknown option");
		}
	}
	if (!writes)
		writes = 10 * U;
	if (do_emit)
		return emit(U, writes, c.seed) ? EXIT_DATA : 0;
	c.logical_pages = U;
	c.physical_pages = sf >= 0 ? ftl_pages_for_sf(U, sf) : ftl_pages_for_op(U, op);
	c.warmup_writes = warm;
	char err[512];
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f)
		die(EXIT_DATA, "%s", err);
	double t0 = now_s();
	if (ftl_precondition(f, PRECOND_SEQ))
		die(EXIT_DATA, "%s", f->err);
	double t1 = now_s(), c1 = cpu_s();
	if (run(f, writes, c.seed + 1))
		die(EXIT_DATA, "%s", f->err);
	double t2 = now_s(), c2 = cpu_s();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double secs = c2 - c1;
	uint64_t flash = f->c.host_pages + f->c.gc_pages;
	printf("U=%llu b=%u T=%llu policy=%s fill_s=%.3f run_s=%.3f cpu_s=%.3f host_writes=%llu "
	       "flash_writes=%llu host_per_s=%.0f flash_per_s=%.0f wall_flash_per_s=%.0f wa=%.6f "
	       "wa_measured=%.6f model_bytes_per_page=%.3f maxrss_bytes_per_page=%.3f\n",
	       (unsigned long long)f->U, f->b, (unsigned long long)f->T, c.policy, t1 - t0, t2 - t1,
	       secs, (unsigned long long)f->c.host_pages, (unsigned long long)flash,
	       f->c.host_pages / secs, flash / secs, flash / (t2 - t1),
	       ftl_wa(&f->c, &(struct ftl_counts){0}),
	       ftl_wa(&f->c, &f->c0), (double)f->mem_bytes / f->T,
	       ru.ru_maxrss * 1024.0 / f->T);
	ftl_free(f);
	return 0;
}
