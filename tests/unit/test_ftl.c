/*
 * test_ftl.c - the FTL model through its API: victim choices of every
 * policy on a hand-built set of segments, exact write amplification of
 * tiny hand-traced runs, the invariants (--check) under every victim
 * and placement policy, wear levelling, and the published steady-state
 * WA of greedy, FIFO and random cleaning (a fast subset: 2^18 pages).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftl.h"
#include "gc.h"
#include "place.h"
#include "rng.h"
#include "th.h"
#include "registry.h"

/* The victim policy's hooks, as the model calls them. */
static uint32_t pick(struct ftl *f)
{
	uint32_t s = FTL_NONE;
	if (f->gc->pick(f->gc_st, f, &s))
		printf("# pick failed: %s\n", policy_error(f->gc_st));
	return s;
}

static int index_check(struct ftl *f, char *err, size_t n)
{
	return f->gc->check ? f->gc->check(f->gc_st, f, err, n) : 0;
}

static struct ftl *make_seeded(uint64_t U, uint64_t T, uint32_t b, const char *policy, const char *place,
			       uint64_t seed)
{
	struct ftl_config c;
	char err[512];
	ftl_config_default(&c);
	c.logical_pages = U;
	c.physical_pages = T;
	c.pages_per_seg = b;
	c.policy = policy;
	c.placement = place;
	c.seed = seed;
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f)
		printf("# ftl_new(%s, %s): %s\n", policy, place, err);
	return f;
}

static struct ftl *make(uint64_t U, uint64_t T, uint32_t b, const char *policy, const char *place)
{
	return make_seeded(U, T, b, policy, place, 1);
}

/*
 * Victim choices. Five sealed segments of b = 4 pages, clock 100:
 *   seg  valid  sealed  erases
 *    0     3      10      0
 *    1     1      20      5
 *    2     2      30      0
 *    4     4      50      0
 *    3     1      95      0     (sealed in this order: 0 1 2 4 3)
 * greedy   1 3 2 0 4  (fewest valid; ties: first into the bucket)
 * fifo     0 1 2 4 3  (seal order)
 * windowed:2  1 2 0 3 4  (windows {0,1} {0,2} {0,4} {4,3} {4})
 * cb  (1-u)age/(1+u): 0: .25*90/1.75=12.9  1: .75*80/1.25=48
 *     2: .5*70/1.5=23.3  3: .75*5/1.25=3  4: 0        -> 1 2 0 3 4
 * cb-sqrt (1-u)/u sqrt(age): 0: 3.16  1: 26.8  2: 8.37  3: 6.71  4: 0
 *                                                      -> 1 2 3 0 4
 * cat u/(1-u)(e+1)/(age+1): 0: 3/91=.033  1: (1/3)6/81=.0247
 *     2: 1/71=.0141  3: (1/3)/6=.0556  4: inf          -> 2 1 0 3 4
 */
static void setup_segments(struct ftl *f)
{
	static const uint32_t order[] = {0, 1, 2, 4, 3};
	static const uint32_t valid[] = {3, 1, 2, 1, 4}, sealed[] = {10, 20, 30, 95, 50};
	f->clock = 100;
	for (int i = 0; i < 5; i++) {
		uint32_t s = order[i];
		f->seg[s].state = SEG_SEALED;
		f->seg[s].valid = valid[s];
		f->seal_time[s] = sealed[s];
		f->erase_count[s] = s == 1 ? 5 : 0;
		f->nsealed++;
		if (f->gc->on_seal(f->gc_st, f, s))
			printf("# on_seal failed: %s\n", policy_error(f->gc_st));
	}
}

static void test_victims(const char *policy, const char *want)
{
	struct ftl *f = make(8, 32, 4, policy, "single");
	if (!f) {
		CHECK(0, "%s: model built", policy);
		return;
	}
	setup_segments(f);
	char err[256] = "", got[16] = "";
	int ok = !index_check(f, err, sizeof(err));
	CHECK(ok, "%s: index consistent after five seals %s", policy, err);
	for (int i = 0; i < 5; i++) {
		uint32_t s = pick(f);
		got[i] = s == FTL_NONE ? '-' : (char)('0' + s);
		f->seg[s].state = SEG_FREE; /* as the model does before erasing */
		f->nsealed--;
	}
	CHECK(!strcmp(got, want), "%s picks %s (got %s)", policy, want, got);
	CHECK(pick(f) == FTL_NONE, "%s: nothing left to pick", policy);
	ftl_free(f);
}

/* An invalidation moves a segment to the front of greedy's order. */
static void test_greedy_invalidate(void)
{
	struct ftl *f = make(8, 32, 4, "greedy", "single");
	setup_segments(f);
	for (uint32_t v = 4; v > 0; v--) {
		f->seg[4].valid = v - 1;
		f->gc->on_invalidate(f->gc_st, f, 4, v);
	}
	char err[256] = "";
	CHECK(!index_check(f, err, sizeof(err)), "greedy index after invalidations %s", err);
	CHECK(pick(f) == 4, "greedy picks the segment emptied by invalidations");
	ftl_free(f);
}

/*
 * Random draws: over 200 seeds, every run picks each sealed segment
 * once (nothing twice, nothing left), and the first pick is spread over
 * the five segments: each is drawn first at least 20 times, half its
 * expectation (a fixed order, as any deterministic policy has, puts one
 * segment first 200 times; a uniform draw falls below 20 with
 * probability about 2e-4 per segment, and the seeds are fixed, so the
 * outcome is fixed, not flaky). The generator is the policy's: the same
 * seed repeats the same picks. d-choices with many draws behaves as
 * greedy.
 */
static int random_spread(const char *policy, char *why, size_t n)
{
	unsigned first[5] = {0};
	char again[8] = "";
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct ftl *f = make_seeded(8, 32, 4, policy, "single", seed);
		if (!f)
			return snprintf(why, n, "no model"), 0;
		setup_segments(f);
		unsigned seen = 0;
		char order[8] = "";
		for (int i = 0; i < 5; i++) {
			uint32_t s = pick(f);
			if (s < 5 && !(seen >> s & 1))
				seen |= 1u << s;
			else
				return snprintf(why, n, "seed %llu pick %d: segment %u", (unsigned long long)seed, i, s), 0;
			order[i] = (char)('0' + s);
			if (i == 0)
				first[s]++;
		}
		ftl_free(f);
		if (seed == 1)
			memcpy(again, order, sizeof(again));
	}
	struct ftl *f = make_seeded(8, 32, 4, policy, "single", 1);
	setup_segments(f);
	char order[8] = "";
	for (int i = 0; i < 5; i++)
		order[i] = (char)('0' + pick(f));
	ftl_free(f);
	snprintf(why, n, "first picks %u %u %u %u %u; seed 1: %s then %s", first[0], first[1], first[2], first[3],
		 first[4], again, order);
	for (int s = 0; s < 5; s++)
		if (first[s] < 20)
			return 0;
	return !strcmp(again, order);
}

static void test_random_policies(void)
{
	char why[128];
	CHECK(random_spread("random", why, sizeof(why)),
	      "random picks each sealed segment once, in seed-dependent order (%s)", why);
	CHECK(!random_spread("greedy", why, sizeof(why)), "the same check fails for greedy (%s)", why);
	CHECK(random_spread("dchoices:1", why, sizeof(why)), "dchoices:1 is random (%s)", why);
	struct ftl *f = make(8, 32, 4, "dchoices:1000", "single");
	setup_segments(f);
	uint32_t s = pick(f);
	CHECK(s == 1 || s == 3, "dchoices:1000 picks a segment with the fewest valid pages");
	ftl_free(f);
}

/*
 * Exact runs. U = 5, b = 4, 4 segments (T = 16), filled in order: seg0
 * holds pages 0-3 (cold), seg1 page 4, then page 4 is rewritten 24
 * times. Each segment the host needs costs a victim:
 *   fifo: at write 12 the queue is seg0..seg3; seg0 (4 valid) is
 *   cleaned, its 4 pages fill the erased seg0 again, so seg1 (empty)
 *   follows in the same pass; writes 16 and 20 clean seg2, seg3 (empty);
 *   write 24 cleans seg0 (4 copies) and seg1 again. 24 host writes, 8
 *   copies, 6 victims of which 4 empty: WA = 32/24.
 *   greedy: writes 12, 16, 20, 24 clean the segment emptied longest
 *   ago; no copies, WA = 1 exactly.
 */
static void test_exact(const char *policy, uint64_t copies, uint64_t victims, uint64_t empty)
{
	struct ftl *f = make(5, 16, 4, policy, "single");
	f->check = 1;
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < 24 && !rc; i++)
		rc = ftl_write(f, 4, 0);
	CHECK(!rc, "%s: tiny run ok %s", policy, rc ? f->err : "");
	CHECK(f->c.host_pages == 24 && f->c.gc_pages == copies && f->c.victims == victims &&
		      f->c.victims_empty == empty,
	      "%s: 24 host writes, %llu copies, %llu victims (%llu empty); got %llu %llu %llu %llu", policy,
	      (unsigned long long)copies, (unsigned long long)victims, (unsigned long long)empty,
	      (unsigned long long)f->c.host_pages, (unsigned long long)f->c.gc_pages,
	      (unsigned long long)f->c.victims, (unsigned long long)f->c.victims_empty);
	ftl_free(f);
}

/* Sequential overwrites leave every victim empty: WA exactly 1. */
static void test_sequential(void)
{
	struct ftl *f = make(11, 20, 4, "greedy", "single");
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < 1100 && !rc; i++)
		rc = ftl_write(f, (uint32_t)(i % 11), 0);
	CHECK(!rc && f->c.gc_pages == 0 && f->c.victims > 200 && f->c.victims == f->c.victims_empty,
	      "sequential overwrite: %llu victims, all empty, no copies",
	      (unsigned long long)f->c.victims);
	ftl_free(f);
}

/* Trim: a trimmed page is not copied, and is unmapped. */
static void test_trim(void)
{
	struct ftl *f = make(8, 32, 4, "greedy", "single");
	CHECK(!ftl_precondition(f, PRECOND_SEQ), "fill of 8 pages %s", f->err);
	CHECK(ftl_trim(f, 3) == 1 && f->l2p[3] == FTL_NONE && f->seg[0].valid == 3, "trim unmaps page 3");
	CHECK(ftl_trim(f, 3) == 0, "a second trim finds nothing");
	struct ev e = {.op = EV_DISCARD, .offset = 2048, .length = 4096 * 3};
	CHECK(!ftl_request(f, &e), "the discard succeeds %s", f->err);
	CHECK(f->r.discard_pages_trimmed == 2 && f->r.discard_partial_pages == 2,
	      "a discard of bytes 2048..14336 trims the 2 pages it covers, leaves 2 partial");
	struct ev far = {.op = EV_DISCARD, .offset = 4096 * 6, .length = 4096 * 4};
	CHECK(ftl_request(f, &far) == -1 && strstr(f->err, "past the logical space"),
	      "a discard past the logical space fails: %s", f->err);
	char err[512] = "";
	CHECK(!ftl_check(f, err, sizeof(err)), "invariants hold after the trims %s", err);
	ftl_free(f);
}

/*
 * Every victim policy under every placement, with --check after every
 * GC pass: hot/cold writes with labels and trims.
 */
/* Under the sanitizers (CI's second pass, a quarter of the speed) half
 * the writes: still hundreds of GC passes checked a run. */
#ifdef __SANITIZE_ADDRESS__
#define STRESS_WRITES 7500
#else
#define STRESS_WRITES 15000
#endif

static void stress(const char *policy, const char *place, int wear)
{
	struct ftl_config c;
	char err[512];
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2600;
	c.pages_per_seg = 16;
	c.policy = policy;
	c.placement = place;
	c.check = 1;
	c.wear_threshold = wear ? 4 : 0;
	c.warmup_writes = 1000;
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f) {
		CHECK(0, "%s/%s: %s", policy, place, err);
		return;
	}
	struct rng rng;
	rng_seed(&rng, 7);
	int rc = ftl_precondition(f, PRECOND_RANDOM);
	for (int i = 0; i < STRESS_WRITES && !rc; i++) {
		int hot = rng_below32(&rng, 10) < 8;
		uint32_t lpn = hot ? rng_below32(&rng, 200) : 200 + rng_below32(&rng, 1800);
		if (rng_below32(&rng, 50) == 0)
			ftl_trim(f, lpn);
		else
			rc = ftl_write(f, lpn, hot ? 1 : 2);
	}
	if (!rc)
		rc = ftl_check(f, f->err, sizeof(f->err));
	double wa = ftl_wa(&f->c, &(struct ftl_counts){0});
	CHECK(!rc && wa >= 1 && f->c.victims > 100, "%s/%s%s: invariants hold over %llu GC passes, WA %.3f %s",
	      policy, place, wear ? " wear" : "", (unsigned long long)f->gc_passes, wa, rc ? f->err : "");
	/* One wear-levelling move a GC pass: the spread may pass the
	 * threshold (4) by the erases of a pass or two; the same cb run
	 * through ftlsim (hot/cold 80/20, trims) ends at 5 or 6, before the
	 * empty-first rule as after it. */
	if (wear)
		CHECK(f->c.wl_moves > 0 && f->ec_max - f->ec_min <= 6,
		      "%s: static wear levelling keeps erase counts within %u..%u (%llu moves)", policy,
		      f->ec_min, f->ec_max, (unsigned long long)f->c.wl_moves);
	ftl_free(f);
}

/* --check stops at the first broken invariant. */
static void test_check_catches(void)
{
	struct ftl *f = make(100, 200, 8, "greedy", "single");
	ftl_precondition(f, PRECOND_SEQ);
	char err[512];
	CHECK(!ftl_check(f, err, sizeof(err)), "check passes on a consistent model");
	f->seg[0].valid++;
	CHECK(ftl_check(f, err, sizeof(err)) && strstr(err, "valid count"),
	      "check names a wrong valid count: %s", err);
	f->seg[0].valid--;
	f->c.gc_pages++;
	CHECK(ftl_check(f, err, sizeof(err)) && strstr(err, "flash writes"),
	      "check counts flash writes apart from the counters: %s", err);
	f->c.gc_pages--;
	f->erase_count[3]++;
	CHECK(ftl_check(f, err, sizeof(err)) && strstr(err, "flash writes"),
	      "check names an erase count that no write explains: %s", err);
	f->erase_count[3]--;
	uint64_t w = f->vmap[0];
	f->vmap[0] ^= 2;
	CHECK(ftl_check(f, err, sizeof(err)) && strstr(err, "live bit"), "check names a wrong live bit: %s", err);
	f->vmap[0] = w;
	err[0] = 0;
	CHECK(!ftl_check(f, err, sizeof(err)), "and passes again once repaired %s", err);
	f->l2p[5] = f->l2p[6];
	CHECK(ftl_check(f, err, sizeof(err)) && strstr(err, "logical page"),
	      "check names a page mapped twice: %s", err);
	ftl_free(f);
}

/* Published values (reference/README.md): uniform random writes after a
 * full fill, 2^18 pages, b = 64, 4U warm-up, 8U measured. */
static double steady_wa(const char *policy, double sf, uint64_t seed)
{
	struct ftl_config c;
	char err[512];
	ftl_config_default(&c);
	c.logical_pages = 1 << 18;
	c.physical_pages = ftl_pages_for_sf(c.logical_pages, sf);
	c.pages_per_seg = 64;
	c.policy = policy;
	c.seed = seed;
	c.warmup_writes = 4 * c.logical_pages;
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f)
		return -1;
	struct rng rng;
	rng_seed(&rng, seed + 100);
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (uint64_t i = 0; i < 12 * c.logical_pages && !rc; i++)
		rc = ftl_write(f, rng_below32(&rng, (uint32_t)c.logical_pages), 0);
	double wa = rc ? -1 : ftl_wa(&f->c, &f->c0);
	ftl_free(f);
	return wa;
}

static void test_reference(void)
{
	static const struct {
		const char *policy;
		double sf, want;
	} ref[] = {
		{"greedy", 0.10, 4.821}, {"greedy", 0.20, 2.599}, {"greedy", 0.30, 1.833},
		{"fifo", 0.10, 5.179},	 {"fifo", 0.20, 2.693},	  {"fifo", 0.30, 1.876},
		{"random", 0.10, 10.0},	 {"random", 0.20, 5.0},	  {"random", 0.30, 3.333},
	};
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double wa = steady_wa(ref[i].policy, ref[i].sf, 1);
		double diff = (wa - ref[i].want) / ref[i].want;
		CHECK(fabs(diff) < 0.02, "%s Sf=%.2f: WA %.4f vs reference %.3f (%+.2f%%, tolerance 2%%)",
		      ref[i].policy, ref[i].sf, wa, ref[i].want, 100 * diff);
	}
}

/* One parser reads every policy's declared arguments. */
static void test_arguments(void)
{
	static const struct {
		const char *spec;
		int ok;
		double want;	  /* first argument's value when ok */
		const char *msg; /* in the error when not */
	} t[] = {
		{"dchoices", 1, 2, NULL},
		{"dchoices:7", 1, 7, NULL},
		{"dchoices:D=9", 1, 9, NULL},
		{"dchoices:0", 0, 0, "dchoices:D needs an integer 1 <= D <= 1000000, not '0'"},
		{"dchoices:1.5", 0, 0, "needs an integer"},
		{"dchoices:X=3", 0, 0, "dchoices has no argument 'X'"},
		{"dchoices:3,4", 0, 0, "takes 1 argument"},
		{"dchoices:D=3,D=4", 0, 0, "given twice"},
		{"greedy:3", 0, 0, "greedy takes no argument"},
		{"windowed:", 0, 0, "not ''"},
		{"nope", 0, 0, "unknown victim policy 'nope'"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct policy_args a;
		char err[256] = "";
		const struct gc_ops *g = gc_find(t[i].spec, &a, err, sizeof(err));
		if (t[i].ok)
			CHECK(g && a.x[0] == t[i].want, "'%s' parses to %g (%s)", t[i].spec, t[i].want, err);
		else
			CHECK(!g && strstr(err, t[i].msg), "'%s' is refused: %s", t[i].spec, err);
	}
	struct policy_args a;
	char err[256] = "";
	CHECK(place_find("hotcold:N=3", &a, err, sizeof(err)) && a.u[0] == 3 && a.given == 1,
	      "placement arguments by name: hotcold:N=3 %s", err);
	CHECK(!place_find("hotcold:9", &a, err, sizeof(err)) && strstr(err, "2 <= N <= 8"),
	      "placement arguments in range: %s", err);
	/* A placement that picks every victim takes no victim policy. */
	struct ftl_config c;
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2600;
	c.pages_per_seg = 16;
	c.placement = "midas";
	c.policy = "cb";
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	CHECK(!f && strstr(err, "--policy has no effect"), "midas with cb is refused: %s", err);
	ftl_free(f);
}

/* --spare-share opt: a victim policy's failure in another stream's room
 * is reported with that room's message, not the first stream's. */
static const struct gc_ops *real_gc;
static int seal_fails_in_stream_1(void *st, const struct ftl *f, uint32_t seg)
{
	if (ftl_seg_stream(f, seg) == 1)
		return policy_fail(st, "segment %u of stream 1 refused", seg);
	return real_gc->on_seal(st, f, seg);
}

static void test_share_failure(void)
{
	struct ftl_config c;
	char err[512];
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2600;
	c.pages_per_seg = 16;
	c.placement = "sepgc";
	c.spare_share = 1;
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f) {
		CHECK(0, "sepgc --spare-share opt: %s", err);
		return;
	}
	static struct gc_ops failing;
	real_gc = f->gc;
	failing = *f->gc;
	failing.on_seal = seal_fails_in_stream_1;
	f->gc = &failing;
	struct rng rng;
	rng_seed(&rng, 3);
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < 100000 && !rc; i++)
		rc = ftl_write(f, rng_below32(&rng, 2000), 0);
	CHECK(rc && strstr(f->err, "victim policy 'greedy': segment") && strstr(f->err, "of stream 1 refused"),
	      "a failure in stream 1's victim-policy room says that room's message: %s", f->err);
	ftl_free(f);
}

/*
 * The victim-selection chain (select.h): a class selector in front of
 * the victim policy's per-stream rooms, and the combinations refused
 * from what the parts declare.
 */
static unsigned fixed_class, class_calls;
static int pick_fixed(void *st, const struct ftl *f, unsigned *cls)
{
	class_calls++;
	*cls = fixed_class;
	return 0;
}
static int pick_fails(void *st, const struct ftl *f, unsigned *cls)
{
	return policy_fail(st, "no class today");
}
static int select_init_ok(void *st, const struct ftl *f, const struct select_init *in) { return 0; }

static struct ftl *chain_model(const struct select_ops *sel, const char *place, char *err, size_t n)
{
	struct ftl_config c;
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2800;
	c.pages_per_seg = 16;
	c.placement = place;
	if (registry_resolve(&c, err, n))
		return NULL;
	c.select = sel;
	return ftl_new(&c, err, n);
}

static int chain_run(struct ftl *f, int writes)
{
	struct rng rng;
	rng_seed(&rng, 5);
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < writes && !rc; i++)
		rc = ftl_write(f, rng_below32(&rng, 2000), 0);
	return rc;
}

static void test_select_chain(void)
{
	char err[512];
	struct select_ops fixed = {.info = {.name = "fixed", .version = SELECT_API_VERSION},
				   .option = "--fixed",
				   .init = select_init_ok,
				   .pick_class = pick_fixed};
	/* sepgc: host writes to stream 0, copies to stream 1; a selector
	 * that always names stream 0 makes every victim one of stream 0's,
	 * until stream 1's copies fill the drive and stream 0 holds nothing
	 * to clean: GC then finds no victim. */
	fixed_class = 0;
	class_calls = 0;
	struct ftl *f = chain_model(&fixed, "sepgc", err, sizeof(err));
	CHECK(f && f->per_class && f->gc_cls[1] && f->gc_cls[1] != f->gc_st, "a class selector gets a room per stream: %s",
	      f ? "" : err);
	if (f) {
		int rc = chain_run(f, 4000);
		CHECK(rc && strstr(f->err, "found no segment to clean") && f->c.victims > 100 &&
			      class_calls == f->c.victims + 1 && ftl_stream_victims(f, 0) == f->c.victims,
		      "the selector's class is the victims' stream: %llu victims, %llu of stream 1, %u calls (%s)",
		      (unsigned long long)f->c.victims, (unsigned long long)ftl_stream_victims(f, 1), class_calls,
		      f->err);
	}
	ftl_free(f);
	/* A class that does not exist, and a failing selector, are named. */
	fixed_class = 7;
	f = chain_model(&fixed, "sepgc", err, sizeof(err));
	CHECK(f && chain_run(f, 4000) && strstr(f->err, "class selector 'fixed' chose class 7 of 2"),
	      "a class out of range is an error: %s", f ? f->err : err);
	ftl_free(f);
	struct select_ops failing = fixed;
	failing.pick_class = pick_fails;
	f = chain_model(&failing, "sepgc", err, sizeof(err));
	CHECK(f && chain_run(f, 4000) && strstr(f->err, "class selector 'fixed': no class today"),
	      "a selector's failure says its message: %s", f ? f->err : err);
	ftl_free(f);
	/* One stream: nothing to choose, no selector set up. */
	f = chain_model(&failing, "single", err, sizeof(err));
	CHECK(f && !f->sel && !f->per_class && !chain_run(f, 4000), "one stream: no selector (%s)", f ? f->err : err);
	ftl_free(f);
	/* A placement that declares PLACE_VICTIM refuses a class selector,
	 * named by how a user asks for it. */
	f = chain_model(&fixed, "midas", err, sizeof(err));
	CHECK(!f && strstr(err, "midas' chooses its own GC victims") && strstr(err, "--fixed has no effect"),
	      "PLACE_VICTIM refuses a class selector: %s", err);
	ftl_free(f);
	/* What is refused is read from the declarations: the same victim
	 * policy passes as the default and is refused as chosen. */
	struct ftl_config c;
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2800;
	c.pages_per_seg = 16;
	c.placement = "midas";
	c.policy = "cb";
	CHECK(!registry_resolve(&c, err, sizeof(err)) && c.gc_chosen, "cb is a chosen victim policy: %s", err);
	c.gc_chosen = 0;
	f = ftl_new(&c, err, sizeof(err));
	CHECK(f != NULL, "midas with a victim policy not chosen is built: %s", err);
	ftl_free(f);
	c.gc_chosen = 1;
	c.policy = "greedy";
	f = ftl_new(&c, err, sizeof(err));
	CHECK(!f && strstr(err, "--policy has no effect"), "midas with a chosen victim policy is refused: %s", err);
	ftl_free(f);
	/* A placement that does not declare PLACE_VICTIM is never asked for
	 * a victim, whatever hooks it has. */
	const struct place_ops *midas = place_find("midas", NULL, err, sizeof(err));
	static struct place_ops undeclared;
	undeclared = *midas;
	undeclared.info.flags &= ~PLACE_VICTIM;
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2800;
	c.pages_per_seg = 16;
	c.placement = "midas";
	c.policy = "fifo";
	CHECK(!registry_resolve(&c, err, sizeof(err)), "resolved: %s", err);
	c.place = &undeclared;
	f = ftl_new(&c, err, sizeof(err));
	CHECK(f && !f->place_victim && !chain_run(f, 4000) && !ftl_check(f, err, sizeof(err)),
	      "an undeclared victim hook is not called: fifo chooses (%s)", f ? (f->err[0] ? f->err : err) : err);
	ftl_free(f);
}

/* gc_passes counts GC operations under gp:P as it counts passes under
 * the watermarks: an operation of --gc-batch K victims is one. */
static void test_gp_passes(uint32_t batch)
{
	struct ftl_config c;
	char err[512];
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2600;
	c.pages_per_seg = 16;
	c.gc_gp = 0.15;
	c.gc_batch = batch;
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f) {
		CHECK(0, "gp:0.15: %s", err);
		return;
	}
	struct rng rng;
	rng_seed(&rng, 5);
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < 40000 && !rc; i++)
		rc = ftl_write(f, rng_below32(&rng, 2000), 0);
	uint64_t ops = f->gc_passes, v = f->c.victims;
	CHECK(!rc && !f->gp_watermark_passes && v > 100 && ops * batch >= v && (batch == 1 ? ops == v : ops < v),
	      "gp:0.15 --gc-batch %u: %llu GC operations cleaned %llu victims %s", batch, (unsigned long long)ops,
	      (unsigned long long)v, rc ? f->err : "");
	ftl_free(f);
}

/* Wear levelling's arrays are the model's memory (mem_bytes, which
 * ftlsim's estimate reads): its lists, 8 bytes a segment, and its
 * per-erase-count levels, counted again as they grow. */
static void test_wear_memory(void)
{
	struct ftl *plain = make(2000, 2600, 16, "greedy", "single");
	struct ftl_config c;
	char err[512];
	ftl_config_default(&c);
	c.logical_pages = 2000;
	c.physical_pages = 2600;
	c.pages_per_seg = 16;
	c.wear_threshold = 4;
	struct ftl *f = registry_ftl_new(&c, err, sizeof(err));
	if (!f || !plain) {
		CHECK(0, "wear levelling: %s", err);
		ftl_free(plain);
		return;
	}
	uint64_t levels = f->wl_cap * sizeof(*f->wl), start = f->mem_bytes;
	CHECK(f->mem_bytes - plain->mem_bytes == 8ull * f->nseg + levels,
	      "wear levelling counts its lists and levels: %llu bytes more (want %llu)",
	      (unsigned long long)(f->mem_bytes - plain->mem_bytes), (unsigned long long)(8ull * f->nseg + levels));
	uint32_t cap0 = f->wl_cap;
	struct rng rng;
	rng_seed(&rng, 9);
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < 400000 && !rc; i++)
		rc = ftl_write(f, rng_below32(&rng, 2000), 0);
	CHECK(!rc && f->wl_cap > cap0 && f->mem_bytes - start == (f->wl_cap - cap0) * sizeof(*f->wl),
	      "and its levels as they grow: %u -> %u levels, %llu bytes more", cap0, f->wl_cap,
	      (unsigned long long)(f->mem_bytes - start));
	ftl_free(f);
	ftl_free(plain);
}

/* The segment size of a configuration: given, or auto from U alone. */
static void test_auto_segments(void)
{
	struct ftl_config c;
	ftl_config_default(&c);
	c.logical_pages = 1 << 14;
	c.pages_per_seg = 0;
	uint32_t big = ftl_config_pages_per_seg(&c);
	c.logical_pages = 1000;
	uint32_t small = ftl_config_pages_per_seg(&c);
	c.logical_pages = 100;
	uint32_t tiny = ftl_config_pages_per_seg(&c);
	c.pages_per_seg = 32;
	CHECK(big == 256 && small == 8 && tiny == 2 && ftl_config_pages_per_seg(&c) == 32,
	      "auto segments: 2^14 pages 256, 1000 pages 8, 100 pages 2 (got %u %u %u); given 32 stays", big, small,
	      tiny);
}

/* ftl_calloc refuses a size whose bytes pass SIZE_MAX, also where the
 * product would wrap to a large allocation (its huge-page branch). */
static void test_calloc_overflow(void)
{
	struct ftl *f = make(100, 200, 8, "greedy", "single");
	if (!f) {
		CHECK(0, "a model to allocate in");
		return;
	}
	uint64_t before = f->mem_bytes;
	size_t n = SIZE_MAX / 16 + 1 + (4u << 20) / 16; /* n * 16 wraps to 4 MiB */
	void *p = ftl_calloc(f, n, 16);
	CHECK(!p && f->mem_bytes == before, "ftl_calloc(%zu, 16) is refused, nothing counted", n);
	free(p);
	p = ftl_calloc(f, SIZE_MAX / 2, 4);
	CHECK(!p && f->mem_bytes == before, "ftl_calloc(SIZE_MAX / 2, 4) is refused");
	free(p);
	ftl_free(f);
}

/* The model keeps a page's last host write time for a policy that asks
 * (agesort sorts by it). */
static void test_write_time(void)
{
	struct ftl *f = make(8, 64, 4, "greedy", "agesort:2");
	int rc = ftl_precondition(f, PRECOND_SEQ);
	for (int i = 0; i < 5 && !rc; i++)
		rc = ftl_write(f, 3, 0);
	CHECK(!rc && f->wtime && ftl_write_time(f, 3) == 13 && ftl_write_time(f, 2) == 3 && ftl_now(f) == 13,
	      "write times: page 3 last written at 13, page 2 at 3 (got %llu, %llu)",
	      (unsigned long long)ftl_write_time(f, 3), (unsigned long long)ftl_write_time(f, 2));
	ftl_free(f);
	f = make(8, 64, 4, "greedy", "single");
	CHECK(f && !f->wtime && !f->open_time, "nothing kept when no policy asks");
	ftl_free(f);
}

int main(void)
{
	char err[256];
	CHECK(!registry_check(err, sizeof(err)),
	      "policy tables are well-formed");
	test_victims("greedy", "13204");
	test_victims("fifo", "01243");
	test_victims("windowed:2", "12034");
	test_victims("cb", "12034");
	test_victims("cb-sqrt", "12304");
	test_victims("cat", "21034");
	test_greedy_invalidate();
	test_random_policies();
	test_arguments();
	test_write_time();
	test_share_failure();
	test_select_chain();
	test_gp_passes(1);
	test_gp_passes(4);
	test_wear_memory();
	test_calloc_overflow();
	test_auto_segments();
	test_exact("fifo", 8, 6, 4);
	test_exact("greedy", 0, 4, 4);
	test_sequential();
	test_trim();
	test_check_catches();
	/* A placement that picks its own victims (PLACE_VICTIM: midas) runs
	 * once: with another victim policy than the default it is refused
	 * (test_arguments). */
	for (const struct gc_ops *const *g = gc_table; *g; g++)
		for (const struct place_ops *const *p = place_table; *p; p++)
			if (!((*p)->info.flags & PLACE_VICTIM) || g == gc_table)
				stress((*g)->info.name, (*p)->info.name, 0);
	stress("greedy", "single", 1);
	stress("cb", "hotcold:3", 1);
	test_reference();
	return TH_DONE();
}
