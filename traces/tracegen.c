/*
 * tracegen - the synthetic workloads of the flash and LFS literature as
 * an ftlkit event stream.
 *
 *   tracegen --pattern NAME [--pages N] [--page-size B] [--writes N]
 *            [--fill] [--seed S] [--trim-prob q] [--read-prob r] [--rate IOPS] [-o text|bin]
 *
 * Every request touches one page: offset = page * page_size, length =
 * page_size, volume 0, t_ns = 1000 ns per request, or Poisson arrivals
 * at --rate IOPS. Writes carry a temperature label (1 = hottest) for the
 * oracle placement policy; those of flashcache and warp carry the
 * host's stream too (struct ev's stream: the placement handle + 1), and
 * a label equal to it.
 * The same seed always gives byte-identical output: the generator is
 * xoshiro256** seeded through splitmix64, and nothing else (time, pid,
 * iteration order of a hash) enters the stream.
 *
 * Patterns are found by name in a table; adding one is one entry.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "event.h"
#include "ftlkit.h"
#include "rng.h"
#include "sig.h"

#define T_STEP_NS 1000 /* the running clock: one request per microsecond */
#define DEFAULT_PAGES 262144 /* 1 GiB of 4 KiB pages */
#define DEFAULT_SEED 1
#define MAX_WAITS 16 /* hir: wait states */

/* ---- random numbers ---------------------------------------------- */

/* The generator: lib/rng.h (xoshiro256** seeded through splitmix64). */

/* ---- Zipf ranks: rejection-inversion ------------------------------ */

/*
 * Hörmann & Derflinger, "Rejection-inversion to generate variates from
 * monotone discrete distributions" (ACM TOMACS 1996): O(1) expected
 * time and memory for any exponent s > 0 and any n, where a CDF table
 * would cost O(n) memory and a scan O(n) time per sample. The helpers
 * keep (x^(1-s) - 1)/(1-s) accurate near s = 1, where it tends to ln x.
 */
struct zipf {
	double s, h_x1, h_n, s_div;
	uint64_t n;
};

static double helper1(double x) /* log1p(x)/x */
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x) /* expm1(x)/x */
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double zipf_h(const struct zipf *z, double x)
{
	return exp(-z->s * log(x));
}

/* The integral of h from 1 to x. */
static double zipf_hint(const struct zipf *z, double x)
{
	double lx = log(x);
	return helper2((1 - z->s) * lx) * lx;
}

static double zipf_hint_inv(const struct zipf *z, double x)
{
	double t = x * (1 - z->s);
	if (t < -1)
		t = -1; /* rounding: keep log1p's argument in its domain */
	return exp(helper1(t) * x);
}

static void zipf_init(struct zipf *z, uint64_t n, double s)
{
	z->n = n;
	z->s = s;
	z->h_x1 = zipf_hint(z, 1.5) - 1;
	z->h_n = zipf_hint(z, (double)n + 0.5);
	z->s_div = 2 - zipf_hint_inv(z, zipf_hint(z, 2.5) - zipf_h(z, 2));
}

/* A rank in 1..n, P(k) proportional to k^-s. */
static uint64_t zipf_rank(const struct zipf *z, struct rng *r)
{
	for (;;) {
		double u = z->h_n + rng_unit(r) * (z->h_x1 - z->h_n);
		double x = zipf_hint_inv(z, u);
		double kf = floor(x + 0.5);
		uint64_t k = kf < 1 ? 1 : kf > (double)z->n ? z->n : (uint64_t)kf;
		if ((double)k - x <= z->s_div || u >= zipf_hint(z, (double)k + 0.5) - zipf_h(z, (double)k))
			return k;
	}
}

/* ---- a seeded permutation of [0, n) in O(1) memory ---------------- */

/*
 * A 4-round balanced Feistel network on the smallest even number of
 * bits covering n, walked until it lands inside [0, n) (cycle walking:
 * still a bijection on [0, n); at most 4 tries on average). It spreads
 * the Zipf ranks over the address space without an n-entry table.
 */
struct perm {
	uint64_t n, mask;
	unsigned half;
	uint64_t key[4];
};

static void perm_init(struct perm *p, uint64_t n, struct rng *r)
{
	unsigned bits = 1;
	while (bits < 64 && (1ull << bits) < n)
		bits++;
	p->n = n;
	p->half = (bits + 1) / 2;
	p->mask = (1ull << p->half) - 1;
	for (int i = 0; i < 4; i++)
		p->key[i] = rng_next(r);
}

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t feistel(const struct perm *p, uint64_t x, int inverse)
{
	uint64_t l = x >> p->half, r = x & p->mask, t;
	if (!inverse) {
		for (int i = 0; i < 4; i++) {
			t = l ^ (mix64(r + p->key[i]) & p->mask);
			l = r;
			r = t;
		}
	} else {
		for (int i = 3; i >= 0; i--) {
			t = r ^ (mix64(l + p->key[i]) & p->mask);
			r = l;
			l = t;
		}
	}
	return l << p->half | r;
}

static uint64_t perm_apply(const struct perm *p, uint64_t x, int inverse)
{
	do
		x = feistel(p, x, inverse);
	while (x >= p->n);
	return x;
}

/* ---- the set of written pages, for TRIM ---------------------------- */

/* An array of members plus each page's position: insert, delete and a
 * uniform pick are all O(1). A bitmap answers "is it written?" first:
 * at 1/32 the size of the position index it stays in cache, so the
 * common case (rewriting a written page) costs no cache miss. */
struct pageset {
	uint32_t *member, *pos;
	uint64_t *bits;
	uint64_t n;
};

static int pageset_init(struct pageset *s, uint64_t pages)
{
	s->n = 0;
	s->member = malloc(pages * sizeof(*s->member));
	s->pos = malloc(pages * sizeof(*s->pos));
	s->bits = calloc((pages + 63) / 64, sizeof(*s->bits));
	return s->member && s->pos && s->bits ? 0 : -1;
}

static void pageset_free(struct pageset *s)
{
	free(s->member);
	free(s->pos);
	free(s->bits);
}

static inline int pageset_has(const struct pageset *s, uint64_t page)
{
	return s->bits[page / 64] >> (page % 64) & 1;
}

static inline void pageset_add(struct pageset *s, uint64_t page)
{
	if (pageset_has(s, page))
		return;
	s->bits[page / 64] |= 1ull << (page % 64);
	s->pos[page] = (uint32_t)s->n;
	s->member[s->n++] = (uint32_t)page;
}

static inline void pageset_del(struct pageset *s, uint64_t page)
{
	uint32_t i = s->pos[page], last = s->member[--s->n];
	s->member[i] = last;
	s->pos[last] = i;
	s->bits[page / 64] &= ~(1ull << (page % 64));
}

/* ---- patterns ------------------------------------------------------ */

struct gen {
	struct rng rng;
	uint64_t pages;
	uint64_t seq;	      /* seq, warp: the next sequential page; flashcache: the LOC's */
	uint64_t nhot;	      /* hotcold/lfs: pages [0, nhot) are hot */
	double hot_prob;      /* hotcold/lfs: fraction of writes to them */
	int hotcold;	      /* lfs: 1 when --hot-prob/--hot-frac given */
	struct zipf zipf;     /* zipf; warp:zipf over [0, nseq) */
	struct perm perm;
	/* flashcache: the LOC is pages [0, nloc), whole regions; the SOC is
	 * [soc0, pages); soc_writes of the writes go to the SOC */
	uint64_t nloc, soc0;
	double soc_writes;
	/* warp: the sequential region is [0, nseq), the random one
	 * [nseq, pages); the overwrite stream's zones [0, zone1), [zone1,
	 * zone2), [zone2, nseq) */
	uint64_t nseq, zone1, zone2;
	double seq_writes, rand_writes;
	int warp_dist;
};

struct pattern {
	const char *name;
	const char *help;
	int hot_opts;	/* takes --hot-prob and --hot-frac */
	int fill;	/* implies --fill */
	int takes_arg;	/* NAME:ARG: 1 needs it, 2 may have it */
	/* The page of the next write; *temp gets its label, *stream its
	 * stream (left 0 by the patterns without streams). */
	uint64_t (*next)(struct gen *g, uint8_t *temp, uint16_t *stream);
	/* The label of any page (for the fill and discards). */
	uint8_t (*label)(const struct gen *g, uint64_t page);
	/* The stream of a page of the fill; NULL: 0, none. */
	uint16_t (*fill_stream)(const struct gen *g, uint64_t page);
};

static uint8_t label_one(const struct gen *g, uint64_t page)
{
	return 1;
}

static uint64_t next_uniform(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	*temp = 1;
	return rng_below(&g->rng, g->pages);
}

static uint8_t label_hotcold(const struct gen *g, uint64_t page)
{
	return page < g->nhot ? 1 : 2;
}

/* LFS's "hot-and-cold": a fraction r of writes to the nhot hot pages,
 * uniform inside each group. */
static uint64_t next_hotcold(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	if (rng_unit(&g->rng) < g->hot_prob) {
		*temp = 1;
		return rng_below(&g->rng, g->nhot);
	}
	*temp = 2;
	return g->nhot + rng_below(&g->rng, g->pages - g->nhot);
}

static uint64_t next_lfs(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	return g->hotcold ? next_hotcold(g, temp, stream) : next_uniform(g, temp, stream);
}

static uint8_t label_lfs(const struct gen *g, uint64_t page)
{
	return g->hotcold ? label_hotcold(g, page) : 1;
}

/* Popularity decile of a rank in 1..n: 1 for the top tenth ... 10. */
static uint8_t rank_decile(uint64_t rank, uint64_t n)
{
	return (uint8_t)(1 + (unsigned __int128)(rank - 1) * 10 / n);
}

static uint64_t next_zipf(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	uint64_t rank = g->zipf.s > 0 ? zipf_rank(&g->zipf, &g->rng)
				      : 1 + rng_below(&g->rng, g->pages);
	*temp = rank_decile(rank, g->pages);
	return perm_apply(&g->perm, rank - 1, 0);
}

static uint8_t label_zipf(const struct gen *g, uint64_t page)
{
	return rank_decile(perm_apply(&g->perm, page, 1) + 1, g->pages);
}

static uint64_t next_seq(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	uint64_t p = g->seq;
	g->seq = p + 1 == g->pages ? 0 : p + 1;
	*temp = 1;
	return p;
}

/*
 * flashcache: the flash cache of CacheLib's Navy engine as Allison et
 * al. study it on NVMe Flexible Data Placement SSDs ("Towards Efficient
 * Flash Caches with Emerging NVMe Flexible Data Placement SSDs",
 * EuroSys 2025). Navy lays out its two engines on the device
 * (cachelib/allocator/nvmcache/NavySetup.cpp): the large-object cache
 * (LOC, BlockCache) from the start, whole regions, and the small-object
 * cache (SOC, BigHash) at the end. An SOC insert rewrites one bucket
 * (a page here; 4 KiB by default in CacheLib) that a hash of the key
 * picks: a uniform random page of the SOC. The LOC is a log: it fills
 * a region in order, region after region, and under FIFO eviction
 * reuses the oldest, so that its writes run through its regions in
 * turn and wrap around. Each write goes to the SOC with probability
 * soc_writes, else to the LOC's next page: the two are interleaved
 * page by page, as a device sees the writes of concurrent threads.
 * Streams and labels: 1 SOC, 2 LOC, in the order Navy allocates their
 * placement handles (BigHash's first). Pages between the LOC's last
 * whole region and the SOC stay unused, as in Navy; --fill writes them
 * unlabelled.
 */
#define FC_SOC 1
#define FC_LOC 2

static uint64_t next_flashcache(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	if (rng_unit(&g->rng) < g->soc_writes) {
		*temp = *stream = FC_SOC;
		return g->soc0 + rng_below(&g->rng, g->pages - g->soc0);
	}
	uint64_t p = g->seq;
	g->seq = p + 1 == g->nloc ? 0 : p + 1;
	*temp = *stream = FC_LOC;
	return p;
}

static uint16_t stream_flashcache(const struct gen *g, uint64_t page)
{
	return page < g->nloc ? FC_LOC : page >= g->soc0 ? FC_SOC : 0;
}

static uint8_t label_flashcache(const struct gen *g, uint64_t page)
{
	return (uint8_t)stream_flashcache(g, page);
}

/*
 * warp: the three-stream workload of WARP (Song et al., "Characterizing
 * and Emulating FDP SSDs with WARP", FAST 2026), as its artifact's fio
 * jobs write it (MoatLab/WARP-FAST26-AE, FIO-scripts/3stream): after a
 * fill, three concurrent streams, each on its own placement handle:
 *   1 (RUH 0) sequential writes over [0, nseq), 90% of the space,
 *     wrapping;
 *   2 (RUH 1) uniform random writes over [nseq, pages), the last 10%;
 *   3 (RUH 2) random overwrites of the sequential stream's pages
 *     [0, nseq): fio's zoned:80/20:10/20:10/60 by default (80% of them
 *     to the first 20% of the range, 10% to the next 20%, 10% to the
 *     last 60%), or uniform, or Zipf (the artifact's 1.2 and 2.2).
 * The third stream is the adversary: it invalidates pages of the first
 * stream's placement units from another handle, so that a device that
 * keeps the handles apart still finds live and dead data mixed in the
 * first stream's units. Each write picks its stream by the shares
 * seq_writes, rand_writes and the rest; labels equal the streams.
 */
enum { WARP_ZONED, WARP_UNIFORM, WARP_ZIPF };

static uint64_t next_warp(struct gen *g, uint8_t *temp, uint16_t *stream)
{
	double u = rng_unit(&g->rng);
	uint64_t p;
	if (u < g->seq_writes) {
		p = g->seq;
		g->seq = p + 1 == g->nseq ? 0 : p + 1;
		*temp = *stream = 1;
		return p;
	}
	if (u < g->seq_writes + g->rand_writes) {
		*temp = *stream = 2;
		return g->nseq + rng_below(&g->rng, g->pages - g->nseq);
	}
	*temp = *stream = 3;
	if (g->warp_dist == WARP_UNIFORM || (g->warp_dist == WARP_ZIPF && g->zipf.s == 0))
		return rng_below(&g->rng, g->nseq);
	if (g->warp_dist == WARP_ZIPF)
		return perm_apply(&g->perm, zipf_rank(&g->zipf, &g->rng) - 1, 0);
	double z = rng_unit(&g->rng);
	if (z < 0.8)
		return rng_below(&g->rng, g->zone1);
	if (z < 0.9)
		return g->zone1 + rng_below(&g->rng, g->zone2 - g->zone1);
	return g->zone2 + rng_below(&g->rng, g->nseq - g->zone2);
}

static uint16_t stream_warp(const struct gen *g, uint64_t page)
{
	return page < g->nseq ? 1 : 2;
}

static uint8_t label_warp(const struct gen *g, uint64_t page)
{
	return (uint8_t)stream_warp(g, page);
}

static const struct pattern patterns[] = {
	{"uniform", "every page equally likely (label 1)", 0, 0, 0, next_uniform, label_one, NULL},
	{"hotcold", "fraction r of writes to fraction f of the pages (labels 1 hot, 2 cold)", 1, 0,
	 0, next_hotcold, label_hotcold, NULL},
	{"zipf", "zipf:S, P(rank k) ~ k^-S over shuffled pages (labels: rank decile 1..10)", 0, 0,
	 1, next_zipf, label_zipf, NULL},
	{"seq", "sequential from page 0, wrapping (label 1)", 0, 0, 0, next_seq, label_one, NULL},
	{"lfs", "LFS 3.5: one-page files, filled first; uniform, or hot-and-cold with --hot-*", 1,
	 1, 0, next_lfs, label_lfs, NULL},
	{"hir", "SNIA PTS host idle recovery: bursts of uniform writes, idle waits (needs --rate)", 0,
	 0, 0, next_uniform, label_one, NULL},
	{"flashcache", "CacheLib's flash cache: random bucket (page) writes to the SOC, a\n"
		       "              FIFO log of regions in the LOC (streams and labels 1 SOC, 2 LOC)",
	 0, 0, 0, next_flashcache, label_flashcache, stream_flashcache},
	{"warp", "warp[:zoned|uniform|zipf:S], WARP's three streams (filled first): sequential\n"
		 "              (1), random in the last 10% (2), overwrites of stream 1's pages (3)",
	 0, 1, 2, next_warp, label_warp, stream_warp},
	{NULL, NULL, 0, 0, 0, NULL, NULL, NULL},
};

static const struct pattern *pattern_find(const char *name, size_t len)
{
	for (const struct pattern *p = patterns; p->name; p++)
		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return p;
	return NULL;
}

/* ---- the program ---------------------------------------------------- */

struct opts {
	const struct pattern *pat;
	const char *pat_arg;
	uint64_t pages, page_size, writes, seed;
	int quiet; /* -q: no seed line on stderr */
	int writes_set, fill, binary, stats;
	double trim_prob, read_prob, hot_prob, hot_frac, zipf_s;
	int hot_prob_set, hot_frac_set;
	uint64_t volumes; /* --volumes N; 0: one volume, volume 0 */
	double rate;	  /* --rate IOPS; 0: one request per T_STEP_NS */
	/* hir: the wait states, the burst before each wait, the rounds of
	 * (burst, wait) per wait state and the baseline after them, in ns */
	int64_t waits_ns[MAX_WAITS], burst_ns, baseline_ns;
	int nwaits, hir_opts, baseline_set;
	uint64_t rounds;
	uint64_t precond_writes; /* hir: uniform writes before the first burst */
	double wait_reads;	 /* hir: reads a second (Poisson) in each wait; 0: none */
	/* flashcache: the SOC's share of the pages and of the writes, the
	 * LOC's region in bytes */
	double soc_frac, soc_writes;
	uint64_t region_size;
	int fc_opts;
	/* warp: the random stream's share of the pages, the sequential and
	 * random streams' shares of the writes, the overwrites' distribution */
	double rand_frac, seq_writes, rand_writes;
	int warp_dist, warp_opts;
};

static void usage(void)
{
	printf("Usage: %s --pattern NAME [options]\n"
	       "Write a synthetic workload of single-page requests as an ftlkit event stream.\n"
	       "\n"
	       "Patterns:\n",
	       prog_name);
	for (const struct pattern *p = patterns; p->name; p++)
		printf("  %-11s %s\n", p->name, p->help);
	printf("\n"
	       "Options:\n"
	       "  -p, --pattern NAME     the workload (see above)\n"
	       "  -n, --pages N          logical pages (default %d); K/M/G suffixes accepted\n"
	       "  -b, --page-size B      bytes per page (default 4096; e.g. 4K)\n"
	       "  -w, --writes N         requests after the fill, writes, reads and discards\n"
	       "                         (default: --pages)\n"
	       "      --fill             first write every page once, in order (lfs, warp: always)\n"
	       "  -s, --seed S           random seed (default %d); echoed on stderr\n"
	       "  -q, --quiet            no seed line on stderr (errors still)\n"
	       "      --trim-prob q      each request is, with probability q, a discard of a\n"
	       "                         random written page (default 0)\n"
	       "      --read-prob r      uniform, hotcold, zipf: each request not a discard\n"
	       "                         is, with probability r, a read of a page drawn as a\n"
	       "                         write's (the same popularity; default 0)\n"
	       "      --hot-prob r       hotcold, lfs: fraction of writes to hot pages (0.9)\n"
	       "      --hot-frac f       hotcold, lfs: fraction of pages that are hot (0.1);\n"
	       "                         pages [0, round(f*N)) are the hot ones\n"
	       "  -o, --output text|bin  text: \"t_ns op offset length volume temp [stream]\" a line;\n"
	       "                         bin: binary stream (default when stdout is not a tty)\n"
	       "      --volumes N        N volumes (0..N-1) sharing --pages and --writes:\n"
	       "                         sizes and write rates lognormal (seeded), each\n"
	       "                         volume its own seed and pattern parameters\n"
	       "                         (hotcold: hot fraction 0.05-0.3, hot writes\n"
	       "                         0.7-0.95; zipf: exponent S x 0.8-1.2)\n"
	       "  -r, --rate IOPS        Poisson arrivals: t_ns gaps exponential, mean 1/IOPS s\n"
	       "                         (drawn from --seed; the requests stay those without it)\n"
	       "      --burst S          hir: seconds of writes before each wait (default 5)\n"
	       "      --waits LIST       hir: the wait states, seconds, comma-separated\n"
	       "                         (default 5,10,15,25,50)\n"
	       "      --rounds N         hir: (burst, wait) rounds per wait state (default 360)\n"
	       "      --baseline S       hir: seconds of writes without a wait after each wait\n"
	       "                         state's rounds (default rounds x burst, 1800)\n"
	       "      --precondition-writes N\n"
	       "                         hir: N uniform writes at --rate before the first\n"
	       "                         burst, the PTS's preconditioning (default 0)\n"
	       "      --wait-reads IOPS  hir: uniform random reads at IOPS (Poisson, seeded)\n"
	       "                         within each wait, the writes unchanged (default none)\n"
	       "      --soc-frac f       flashcache: the SOC's share of the pages, at the end\n"
	       "                         (default 0.04)\n"
	       "      --soc-writes w     flashcache: the SOC's share of the writes (default 0.65)\n"
	       "      --region-size B    flashcache: the LOC's region, whole pages (default 16M);\n"
	       "                         the LOC is the whole regions before the SOC\n"
	       "      --rand-frac f      warp: the random stream's share of the pages, at the\n"
	       "                         end (default 0.1)\n"
	       "      --seq-writes s     warp: the sequential stream's share of the writes (0.58)\n"
	       "      --rand-writes r    warp: the random stream's share of the writes (0.21);\n"
	       "                         the overwrite stream has the rest\n"
	       "      --stats            report events and events/s on stderr\n"
	       "  -h, --help             show this help and exit\n"
	       "  -V, --version          show the version and exit\n"
	       "\n"
	       "Each request: offset = page * page_size, length = page_size, volume 0,\n"
	       "t_ns advancing %d ns per request (without --rate). lfs is uniform unless\n"
	       "--hot-prob or --hot-frac is given, then hot-and-cold (a missing one\n"
	       "defaults to 90/10). hir (SNIA SSS PTS-E 1.1, section 11): for each wait\n"
	       "state W, --rounds times a burst of --burst s of writes then W s idle from\n"
	       "its last write, then --baseline s of writes; --writes does not apply.\n"
	       "flashcache and warp write the host's stream (the event's stream field) and a\n"
	       "label equal to it; warp's overwrites are zoned 80/20:10/20:10/60 by default.\n"
	       "Exit status: 0 ok, 1 I/O or memory error, 2 usage error.\n",
	       DEFAULT_PAGES, DEFAULT_SEED, T_STEP_NS);
}

/* A duration in seconds up to 10^6, as whole ns: above 0, or 0 too. */
static int64_t opt_seconds_ns(const char *opt, const char *arg, int zero_ok)
{
	double v = opt_double(opt, arg);
	long long ns = v >= 0 && v <= 1e6 ? llround(v * 1e9) : -1;
	if (ns < !zero_ok)
		usage_error("option '%s' needs seconds in %s0, 10^6], not '%s'", opt, zero_ok ? "[" : "(",
			    arg);
	return ns;
}

static double opt_prob(const char *opt, const char *arg)
{
	double v = opt_double(opt, arg);
	if (v < 0 || v > 1)
		usage_error("option '%s' needs a probability in [0, 1], not '%s'", opt, arg);
	return v;
}

static void set_pattern(struct opts *o, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	o->pat = pattern_find(arg, len);
	if (!o->pat)
		usage_error("unknown pattern '%s' (uniform, hotcold, zipf:S, seq, lfs, hir, flashcache, "
			    "warp)",
			    arg);
	o->pat_arg = colon ? colon + 1 : NULL;
	if (o->pat->takes_arg == 1 && !o->pat_arg)
		usage_error("pattern '%s' needs an exponent, e.g. %s:0.99", o->pat->name,
			    o->pat->name);
	if (!o->pat->takes_arg && o->pat_arg)
		usage_error("pattern '%s' takes no ':' argument", o->pat->name);
	const char *sarg = o->pat_arg;
	o->warp_dist = WARP_ZONED;
	if (o->pat_arg && !strcmp(o->pat->name, "warp")) {
		sarg = NULL;
		if (!strncmp(o->pat_arg, "zipf:", 5)) {
			o->warp_dist = WARP_ZIPF;
			sarg = o->pat_arg + 5;
		} else if (!strcmp(o->pat_arg, "uniform")) {
			o->warp_dist = WARP_UNIFORM;
		} else if (strcmp(o->pat_arg, "zoned")) {
			usage_error("warp takes zoned, uniform or zipf:S, not '%s'", o->pat_arg);
		}
	}
	if (sarg) {
		o->zipf_s = opt_double("--pattern zipf:S", sarg);
		if (o->zipf_s < 0 || o->zipf_s > 100)
			usage_error("zipf exponent must be in [0, 100], not '%s'", sarg);
	}
}

/* hir --waits: seconds, comma-separated, each above 0. */
static void set_waits(struct opts *o, const char *arg)
{
	char buf[512];
	if (strlen(arg) >= sizeof(buf))
		usage_error("--waits '%.20s...' is too long", arg);
	strcpy(buf, arg);
	o->nwaits = 0;
	/* (an empty element, ",," or a comma at either end, is a mistake:
	 * strtok_r would pass over it) */
	if (buf[0] == ',' || (buf[0] && buf[strlen(buf) - 1] == ',') || strstr(buf, ",,"))
		usage_error("--waits '%s' has an empty wait state: seconds, comma-separated, e.g. 5,10,15,25,50", arg);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->nwaits == MAX_WAITS)
			usage_error("--waits takes at most %d wait states", MAX_WAITS);
		o->waits_ns[o->nwaits++] = opt_seconds_ns("--waits", t, 0);
	}
	if (!o->nwaits)
		usage_error("--waits needs a wait state, e.g. 5,10,15,25,50");
}

enum {
	OPT_FILL = 1000,
	OPT_TRIM,
	OPT_READ,
	OPT_HOT_PROB,
	OPT_HOT_FRAC,
	OPT_STATS,
	OPT_VOLUMES,
	OPT_BURST,
	OPT_WAITS,
	OPT_ROUNDS,
	OPT_BASELINE,
	OPT_PRECOND,
	OPT_WAIT_READS,
	OPT_SOC_FRAC,
	OPT_SOC_WRITES,
	OPT_REGION,
	OPT_RAND_FRAC,
	OPT_SEQ_WRITES,
	OPT_RAND_WRITES
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"pattern", required_argument, NULL, 'p'},
		{"pages", required_argument, NULL, 'n'},
		{"page-size", required_argument, NULL, 'b'},
		{"writes", required_argument, NULL, 'w'},
		{"fill", no_argument, NULL, OPT_FILL},
		{"seed", required_argument, NULL, 's'},
		{"trim-prob", required_argument, NULL, OPT_TRIM},
		{"read-prob", required_argument, NULL, OPT_READ},
		{"hot-prob", required_argument, NULL, OPT_HOT_PROB},
		{"hot-frac", required_argument, NULL, OPT_HOT_FRAC},
		{"output", required_argument, NULL, 'o'},
		{"stats", no_argument, NULL, OPT_STATS},
		{"volumes", required_argument, NULL, OPT_VOLUMES},
		{"rate", required_argument, NULL, 'r'},
		{"burst", required_argument, NULL, OPT_BURST},
		{"waits", required_argument, NULL, OPT_WAITS},
		{"rounds", required_argument, NULL, OPT_ROUNDS},
		{"baseline", required_argument, NULL, OPT_BASELINE},
		{"precondition-writes", required_argument, NULL, OPT_PRECOND},
		{"wait-reads", required_argument, NULL, OPT_WAIT_READS},
		{"soc-frac", required_argument, NULL, OPT_SOC_FRAC},
		{"soc-writes", required_argument, NULL, OPT_SOC_WRITES},
		{"region-size", required_argument, NULL, OPT_REGION},
		{"rand-frac", required_argument, NULL, OPT_RAND_FRAC},
		{"seq-writes", required_argument, NULL, OPT_SEQ_WRITES},
		{"rand-writes", required_argument, NULL, OPT_RAND_WRITES},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;
	list_options(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "p:n:b:w:s:o:r:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': set_pattern(o, optarg); break;
		case 'n': o->pages = opt_size("--pages", optarg); break;
		case 'b': o->page_size = opt_size("--page-size", optarg); break;
		case 'w':
			o->writes = opt_size("--writes", optarg);
			o->writes_set = 1;
			break;
		case OPT_FILL: o->fill = 1; break;
		case 'q': o->quiet = 1; break;
		case 's': o->seed = opt_u64("--seed", optarg); break;
		case OPT_TRIM: o->trim_prob = opt_prob("--trim-prob", optarg); break;
		case OPT_READ: o->read_prob = opt_prob("--read-prob", optarg); break;
		case OPT_HOT_PROB:
			o->hot_prob = opt_prob("--hot-prob", optarg);
			o->hot_prob_set = 1;
			break;
		case OPT_HOT_FRAC:
			o->hot_frac = opt_prob("--hot-frac", optarg);
			o->hot_frac_set = 1;
			break;
		case 'o':
			if (!strcmp(optarg, "text"))
				o->binary = 0;
			else if (!strcmp(optarg, "bin"))
				o->binary = 1;
			else
				usage_error("--output takes text or bin, not '%s'", optarg);
			break;
		case OPT_STATS: o->stats = 1; break;
		case OPT_VOLUMES:
			o->volumes = opt_u64("--volumes", optarg);
			if (!o->volumes || o->volumes > 1000000)
				usage_error("--volumes takes 1 to 10^6, not '%s'", optarg);
			break;
		case 'r':
			o->rate = opt_double("--rate", optarg);
			if (!(o->rate >= 1e-6 && o->rate <= 1e9))
				usage_error("--rate takes 10^-6 to 10^9 requests a second, not '%s'", optarg);
			break;
		case OPT_BURST:
			o->burst_ns = opt_seconds_ns("--burst", optarg, 0);
			o->hir_opts = 1;
			break;
		case OPT_WAITS:
			set_waits(o, optarg);
			o->hir_opts = 1;
			break;
		case OPT_ROUNDS:
			o->rounds = opt_u64("--rounds", optarg);
			if (!o->rounds || o->rounds > 1000000000)
				usage_error("--rounds takes 1 to 10^9, not '%s'", optarg);
			o->hir_opts = 1;
			break;
		case OPT_BASELINE:
			o->baseline_ns = opt_seconds_ns("--baseline", optarg, 1);
			o->baseline_set = o->hir_opts = 1;
			break;
		case OPT_PRECOND:
			o->precond_writes = opt_size("--precondition-writes", optarg);
			o->hir_opts = 1;
			break;
		case OPT_WAIT_READS:
			o->wait_reads = opt_double("--wait-reads", optarg);
			if (!(o->wait_reads >= 1e-6 && o->wait_reads <= 1e9))
				usage_error("--wait-reads takes 10^-6 to 10^9 reads a second, not '%s'", optarg);
			o->hir_opts = 1;
			break;
		case OPT_SOC_FRAC:
			o->soc_frac = opt_prob("--soc-frac", optarg);
			o->fc_opts = 1;
			break;
		case OPT_SOC_WRITES:
			o->soc_writes = opt_prob("--soc-writes", optarg);
			o->fc_opts = 1;
			break;
		case OPT_REGION:
			o->region_size = opt_size("--region-size", optarg);
			o->fc_opts = 1;
			break;
		case OPT_RAND_FRAC:
			o->rand_frac = opt_prob("--rand-frac", optarg);
			o->warp_opts = 1;
			break;
		case OPT_SEQ_WRITES:
			o->seq_writes = opt_prob("--seq-writes", optarg);
			o->warp_opts = 1;
			break;
		case OPT_RAND_WRITES:
			o->rand_writes = opt_prob("--rand-writes", optarg);
			o->warp_opts = 1;
			break;
		case 'h': usage(); exit(EXIT_OK);
		case 'V': print_version(); exit(EXIT_OK);
		default: usage_error("%s", bad_option(argv, longopts));
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/* Checks that need all options at once. */
static void check_opts(struct opts *o)
{
	if (!o->pat)
		usage_error("no workload: give --pattern NAME");
	if (o->pages == 0)
		usage_error("--pages must be at least 1");
	if (o->page_size == 0 || o->page_size > UINT32_MAX)
		usage_error("--page-size must be between 1 and 4G-1 bytes");
	if (o->pages > (uint64_t)INT64_MAX / o->page_size)
		usage_error("--pages times --page-size exceeds 2^63 bytes");
	if ((o->hot_prob_set || o->hot_frac_set) && !o->pat->hot_opts)
		usage_error("--hot-prob and --hot-frac apply to hotcold and lfs only");
	if (o->volumes && o->pages < 64 * o->volumes)
		usage_error("--volumes %" PRIu64 " needs --pages of at least 64 a volume", o->volumes);
	if (o->trim_prob > 0 && o->pages >= UINT32_MAX)
		usage_error("--trim-prob needs --pages below 2^32");
	int hir = !strcmp(o->pat->name, "hir");
	if (o->hir_opts && !hir)
		usage_error("--burst, --waits, --rounds, --baseline, --precondition-writes and --wait-reads apply to hir "
			    "only");
	if (hir && !o->rate)
		usage_error("hir needs --rate IOPS: the rate of the bursts' writes");
	if (hir && o->writes_set)
		usage_error("--writes does not apply to hir: --waits, --rounds, --burst and --baseline set its length");
	if (hir && o->volumes)
		usage_error("--volumes does not apply to hir");
	int fc = !strcmp(o->pat->name, "flashcache"), warp = !strcmp(o->pat->name, "warp");
	if (o->fc_opts && !fc)
		usage_error("--soc-frac, --soc-writes and --region-size apply to flashcache only");
	if (o->warp_opts && !warp)
		usage_error("--rand-frac, --seq-writes and --rand-writes apply to warp only");
	if (o->read_prob > 0 && strcmp(o->pat->name, "uniform") && strcmp(o->pat->name, "hotcold") &&
	    strncmp(o->pat->name, "zipf", 4))
		usage_error("--read-prob applies to uniform, hotcold and zipf: %s", !strcmp(o->pat->name, "hir")
											     ? "hir is the PTS's write test"
											     : "this pattern's next page is its writes' own");
	if ((fc || warp) && o->trim_prob > 0)
		usage_error("--trim-prob does not apply to %s: its cache or jobs send no discards",
			    o->pat->name);
	if (fc && (o->region_size % o->page_size || o->region_size == 0))
		usage_error("--region-size %" PRIu64 " is not whole pages of %" PRIu64 " bytes",
			    o->region_size, o->page_size);
	if (warp && o->seq_writes + o->rand_writes > 1 + 1e-9)
		usage_error("--seq-writes %g and --rand-writes %g add up to more than 1", o->seq_writes,
			    o->rand_writes);
	if (!o->baseline_set) {
		if ((uint64_t)o->burst_ns > (uint64_t)INT64_MAX / 4 / o->rounds)
			usage_error("--rounds %" PRIu64 " of --burst %g s is past 2^61 ns", o->rounds,
				    (double)o->burst_ns / 1e9);
		o->baseline_ns = (int64_t)o->rounds * o->burst_ns;
	}
	/* hir's span, its precondition writes' expected span and the bursts,
	 * waits and baselines it sets, past half of 2^63 ns would stop
	 * partway: refused before any is written, as --rate's are. */
	if (hir) {
		double span = (double)o->precond_writes / o->rate * 1e9;
		for (int k = 0; k < o->nwaits; k++)
			span += (double)o->rounds * ((double)o->burst_ns + (double)o->waits_ns[k]) + (double)o->baseline_ns;
		if (span > 0.5 * (double)INT64_MAX)
			usage_error("hir: the trace would last about %.3g years (%d wait state%s of %" PRIu64 " rounds, "
				    "their bursts and a baseline each), past %.0f, half the 292 years a time in ns can hold",
				    span / 1e9 / 31557600, o->nwaits, o->nwaits == 1 ? "" : "s", o->rounds, 0.5 * (double)INT64_MAX / 1e9 / 31557600);
	}
	if (!o->writes_set)
		o->writes = o->pages;
	if (o->pat->fill)
		o->fill = 1;
	/* Poisson arrivals whose expected span is past half of 2^63 ns
	 * (146 years) would stop partway: refused before any is written. */
	double n = (double)o->writes + (o->fill ? (double)o->pages : 0), most_s = 0.5 * ((double)INT64_MAX / 1e9);
	if (o->rate && !hir && n / o->rate > most_s)
		usage_error("--rate %g with %.0f requests: the trace would last about %.3g years, past %.0f, half the 292 "
			    "years a time in ns can hold, kept for the arrivals' random spread (at most %.0f requests at this rate)",
			    o->rate, n, n / o->rate / 31557600, most_s / 31557600, floor(most_s * o->rate));
}

/* The hot set of hotcold/lfs; needs both groups unless all writes go
 * to one of them. */
static void setup_hot(const struct opts *o, struct gen *g)
{
	double n = round(o->hot_frac * (double)o->pages);
	g->nhot = (uint64_t)n;
	g->hot_prob = o->hot_prob;
	if (g->nhot == 0 && o->hot_prob > 0)
		usage_error("--hot-frac %g of %" PRIu64 " pages leaves no hot page", o->hot_frac,
			    o->pages);
	if (g->nhot == o->pages && o->hot_prob < 1)
		usage_error("--hot-frac %g of %" PRIu64 " pages leaves no cold page", o->hot_frac,
			    o->pages);
}

/* flashcache: the SOC, round(f N) pages at the end; the LOC, the whole
 * regions before it (NavySetup.cpp: BigHash from the device's end,
 * BlockCache aligned down to regions). */
static void setup_flashcache(const struct opts *o, struct gen *g)
{
	uint64_t nsoc = (uint64_t)round(o->soc_frac * (double)o->pages);
	uint64_t region = o->region_size / o->page_size;
	g->soc0 = o->pages - nsoc;
	g->nloc = g->soc0 / region * region;
	g->soc_writes = o->soc_writes;
	if (nsoc == 0 && o->soc_writes > 0)
		usage_error("--soc-frac %g of %" PRIu64 " pages leaves no SOC page", o->soc_frac,
			    o->pages);
	if (g->nloc == 0 && o->soc_writes < 1)
		usage_error("the LOC has no whole region of %" PRIu64 " pages in the %" PRIu64
			    " pages before the SOC",
			    region, g->soc0);
}

/* warp: the random stream's region, round(f N) pages at the end; the
 * sequential region before it, its zones at 20% and 40%. */
static void setup_warp(const struct opts *o, struct gen *g, struct rng *r)
{
	uint64_t nrand = (uint64_t)round(o->rand_frac * (double)o->pages);
	g->nseq = o->pages - nrand;
	g->seq_writes = o->seq_writes;
	g->rand_writes = o->rand_writes;
	g->warp_dist = o->warp_dist;
	if (nrand == 0 || g->nseq < 5)
		usage_error("warp needs a random region of a page at least and a sequential one of 5: "
			    "--rand-frac %g of %" PRIu64 " pages",
			    o->rand_frac, o->pages);
	g->zone1 = (uint64_t)round(0.2 * (double)g->nseq);
	g->zone2 = (uint64_t)round(0.4 * (double)g->nseq);
	if (g->warp_dist == WARP_ZIPF) {
		zipf_init(&g->zipf, g->nseq, o->zipf_s);
		perm_init(&g->perm, g->nseq, r);
	}
}

static void gen_init(const struct opts *o, struct gen *g)
{
	memset(g, 0, sizeof(*g));
	rng_seed(&g->rng, o->seed);
	g->pages = o->pages;
	g->hotcold = !strcmp(o->pat->name, "hotcold") || o->hot_prob_set || o->hot_frac_set;
	if (g->hotcold)
		setup_hot(o, g);
	if (!strcmp(o->pat->name, "zipf")) {
		zipf_init(&g->zipf, o->pages, o->zipf_s);
		perm_init(&g->perm, o->pages, &g->rng);
	}
	if (!strcmp(o->pat->name, "flashcache"))
		setup_flashcache(o, g);
	if (!strcmp(o->pat->name, "warp"))
		setup_warp(o, g, &g->rng);
}

/* ---- arrival times -------------------------------------------------- */

/*
 * Without --rate, request i is at i * T_STEP_NS. With --rate the
 * arrivals are a Poisson process: the first request at 0, each next one
 * an exponential gap of mean 1/IOPS s later (inversion; the sum of the
 * gaps rounded to whole ns). The gaps come from a generator of their
 * own seeded from --seed, so that the requests (pages, ops, labels,
 * volumes) are those the same command without --rate writes: only
 * their times differ, and a replay of both compares the device's
 * timing on the same requests.
 */
struct clock {
	double mean_ns; /* 0: the fixed step */
	struct rng rng;
	double carry;	 /* the exact time less the rounded one, in ns */
	int64_t last;	 /* the time of the last request written */
	uint64_t events; /* requests written */
	int past_end;	 /* the next time would pass 2^63 ns */
};

static struct clock clk;

static void clock_init(const struct opts *o)
{
	if (!o->rate)
		return;
	clk.mean_ns = 1e9 / o->rate;
	rng_seed(&clk.rng, o->seed ^ 0x6172726976616c73ULL); /* "arrivals" */
}

/* t + d, for the times hir sets: the trace ends before 2^63 ns. */
static int64_t clock_add(int64_t t, int64_t d)
{
	if (t > INT64_MAX - d)
		die(EXIT_DATA, "the trace's time would pass 2^63 ns after %" PRIu64 " requests", clk.events);
	return t + d;
}

static void emit(struct ev_writer *w, struct ev *e)
{
	if (clk.past_end)
		die(EXIT_DATA, "the trace's time would pass 2^63 ns after %" PRIu64 " requests", clk.events);
	if (ev_write(w, e))
		die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
	clk.last = e->t_ns;
	clk.events++;
	if (!clk.mean_ns) {
		e->t_ns += T_STEP_NS;
		return;
	}
	/* A time past 2^63 ns is an error only if a request is written at it.
	 * Each time is the exact sum of the gaps, rounded: rounding each gap
	 * instead biases the mean gap when it is a few ns (4.5% short at
	 * 10^9 IOPS). */
	double x = -log1p(-rng_unit(&clk.rng)) * clk.mean_ns + clk.carry;
	int64_t gap = llround(x);
	clk.carry = x - (double)gap;
	clk.past_end = e->t_ns > INT64_MAX - gap;
	e->t_ns = clk.past_end ? INT64_MAX : e->t_ns + gap;
}

static void run_fill(const struct opts *o, struct gen *g, struct ev_writer *w, struct ev *e,
		     struct pageset *set)
{
	e->op = EV_WRITE;
	for (uint64_t p = 0; p < o->pages && !sig_caught; p++) {
		e->offset = p * o->page_size;
		e->temp = o->pat->label(g, p);
		e->stream = o->pat->fill_stream ? o->pat->fill_stream(g, p) : 0;
		if (set)
			pageset_add(set, p);
		emit(w, e);
	}
}

/* One request of the main phase: a discard of a random written page
 * with probability trim_prob (if any page is written), else a read with
 * probability read_prob (a page drawn as a write's: the pattern's
 * popularity), else a write. */
static void run_request(const struct opts *o, struct gen *g, struct ev_writer *w,
			struct ev *e, struct pageset *set)
{
	uint64_t p;
	if (set && set->n && rng_unit(&g->rng) < o->trim_prob) {
		p = set->member[rng_below(&g->rng, set->n)];
		pageset_del(set, p);
		e->op = EV_DISCARD;
		e->temp = o->pat->label(g, p);
		e->stream = 0;
	} else if (o->read_prob > 0 && rng_unit(&g->rng) < o->read_prob) {
		p = o->pat->next(g, &e->temp, &e->stream);
		e->stream = 0;
		e->op = EV_READ;
	} else {
		e->stream = 0;
		p = o->pat->next(g, &e->temp, &e->stream);
		if (set)
			pageset_add(set, p);
		e->op = EV_WRITE;
	}
	e->offset = p * o->page_size;
	emit(w, e);
}

/*
 * hir: the Host Idle Recovery test of the SNIA Solid State Storage
 * Performance Test Specification Enterprise, version 1.1 (2013),
 * section 11. After the device is preconditioned with random 4 KiB
 * writes, for each wait state W (5, 10, 15, 25 and 50 s) the host
 * repeats 360 times: 5 s of random 4 KiB writes (access A), then W s
 * idle (access B); then it returns to a baseline of 360 x 5 s of writes
 * without a pause (access C) before the next wait state. The writes of
 * a burst arrive at --rate (Poisson) from its first at the burst's
 * start to the last before its end; the idle time runs from that last
 * write, so that every pause between two requests of the trace longer
 * than the bursts' gaps is exactly a wait state. The preconditioning is
 * the replay's (ftlsim --precondition random), --fill's, or
 * --precondition-writes N: N uniform writes at --rate (after the fill,
 * if any), as the PTS drives the device to steady state before the
 * test; the first burst starts at the arrival after the last of them.
 * --wait-reads R (not the PTS's): uniform random reads at R a second,
 * Poisson, within each wait (from its start, the last write, to its
 * end), from a generator of their own: the writes and their times are
 * those without them.
 */
static void wait_reads(const struct opts *o, struct rng *rr, struct ev_writer *w, struct ev *e, int64_t from,
		       int64_t end)
{
	struct ev r = *e;
	r.op = EV_READ;
	r.stream = 0;
	r.temp = 1;
	/* Each time is the exact sum of the gaps, rounded, as the clock's:
	 * rounding each gap biases the mean when it is a few ns (4% more
	 * reads at 10^9 a second). */
	double carry = 0;
	for (int64_t t = from; !sig_caught;) {
		double x = -log1p(-rng_unit(rr)) * 1e9 / o->wait_reads + carry;
		if (x >= (double)(end - t))
			break;
		int64_t gap = llround(x);
		carry = x - (double)gap;
		if (gap >= end - t)
			break;
		t += gap;
		r.t_ns = t;
		r.offset = rng_below(rr, o->pages) * o->page_size;
		if (ev_write(w, &r))
			die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
		clk.events++;
	}
}

static void run_hir(const struct opts *o, struct gen *g, struct ev_writer *w, struct ev *e,
		    struct pageset *set)
{
	struct rng rr;
	rng_seed(&rr, o->seed ^ 0x7761697472656164ULL); /* "waitread" */
	for (uint64_t i = 0; i < o->precond_writes && !sig_caught; i++) {
		uint64_t p = o->pat->next(g, &e->temp, &e->stream);
		if (set)
			pageset_add(set, p);
		e->op = EV_WRITE;
		e->offset = p * o->page_size;
		emit(w, e);
	}
	for (int k = 0; k < o->nwaits && !sig_caught; k++) {
		for (uint64_t r = 0; r < o->rounds && !sig_caught; r++) {
			int64_t end = clock_add(e->t_ns, o->burst_ns);
			while (e->t_ns < end && !sig_caught)
				run_request(o, g, w, e, set);
			int64_t from = clk.last;
			e->t_ns = clock_add(clk.last, o->waits_ns[k]);
			clk.past_end = 0; /* the arrival after the burst's end is not written */
			if (o->wait_reads > 0)
				wait_reads(o, &rr, w, e, from, e->t_ns);
		}
		int64_t end = clock_add(e->t_ns, o->baseline_ns);
		while (e->t_ns < end && !sig_caught)
			run_request(o, g, w, e, set);
	}
}

/*
 * --volumes N: N volumes, each a workload of its own. Sizes and write
 * rates are lognormal (sigma 1.5 and 1, so that a few volumes hold most
 * pages and take most writes, as in cloud block traces), drawn from
 * the seed; a volume's rate is per page of it times its size. Each
 * volume has its own generator seeded from the seed and its number,
 * and its own pattern parameters. The fill writes each volume in turn;
 * each later request picks its volume by rate.
 */
struct vgen {
	struct opts o;
	struct gen g;
	struct pageset set;
	int has_set;
};

static double normal(struct rng *r)
{
	double u = rng_unit(r), v = rng_unit(r);
	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static struct vgen *volumes_init(const struct opts *o, double **cum_out)
{
	uint64_t n = o->volumes;
	struct rng r;
	rng_seed(&r, o->seed ^ 0x766f6c756d6573ULL); /* "volumes" */
	struct vgen *v = calloc(n, sizeof(*v));
	double *size = calloc(n, sizeof(*size)), *cum = calloc(n, sizeof(*cum)), total = 0;
	if (!v || !size || !cum)
		die(EXIT_DATA, "out of memory for %" PRIu64 " volumes", n);
	for (uint64_t i = 0; i < n; i++)
		total += size[i] = exp(1.5 * normal(&r));
	uint64_t spare = o->pages - 64 * n, given = 0; /* every volume has 64 pages at least */
	for (uint64_t i = 0; i < n; i++) {
		struct opts *vo = &v[i].o;
		*vo = *o;
		/* its share, cut to whole pages; the last takes what the cuts
		 * left, so that the volumes add up to --pages */
		uint64_t share = (uint64_t)((double)spare * size[i] / total);
		share = i + 1 == n || given + share > spare ? spare - given : share;
		given += share;
		vo->pages = 64 + share;
		uint64_t x = o->seed + i;
		vo->seed = rng_splitmix(&x);
		vo->hot_frac = 0.05 + 0.25 * rng_unit(&r);
		vo->hot_prob = 0.7 + 0.25 * rng_unit(&r);
		vo->zipf_s = o->zipf_s * (0.8 + 0.4 * rng_unit(&r));
		double rate = exp(normal(&r)) * (double)vo->pages;
		cum[i] = (i ? cum[i - 1] : 0) + rate;
		gen_init(vo, &v[i].g);
		if (o->trim_prob > 0) {
			if (pageset_init(&v[i].set, vo->pages))
				die(EXIT_DATA, "out of memory for the written pages of volume %" PRIu64, i);
			v[i].has_set = 1;
		}
	}
	free(size);
	*cum_out = cum;
	return v;
}

static void run_volumes(const struct opts *o, struct ev_writer *w, struct ev *e)
{
	double *cum;
	struct vgen *v = volumes_init(o, &cum);
	struct rng r;
	uint64_t n = o->volumes;
	rng_seed(&r, o->seed ^ 0x7069636b73ULL); /* "picks" */
	for (uint64_t i = 0; o->fill && i < n && !sig_caught; i++) {
		e->volume = (uint32_t)i;
		run_fill(&v[i].o, &v[i].g, w, e, v[i].has_set ? &v[i].set : NULL);
	}
	for (uint64_t k = 0; k < o->writes && !sig_caught; k++) {
		double x = rng_unit(&r) * cum[n - 1];
		uint64_t lo = 0, hi = n - 1;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (cum[mid] > x)
				hi = mid;
			else
				lo = mid + 1;
		}
		e->volume = (uint32_t)lo;
		run_request(&v[lo].o, &v[lo].g, w, e, v[lo].has_set ? &v[lo].set : NULL);
	}
	for (uint64_t i = 0; i < n; i++)
		if (v[i].has_set)
			pageset_free(&v[i].set);
	free(v);
	free(cum);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.pages = DEFAULT_PAGES,
		.page_size = 4096,
		.seed = DEFAULT_SEED,
		.binary = !isatty(STDOUT_FILENO),
		.hot_prob = 0.9,
		.hot_frac = 0.1,
		.waits_ns = {5000000000, 10000000000, 15000000000, 25000000000, 50000000000},
		.nwaits = 5,
		.burst_ns = 5000000000,
		.rounds = 360,
		.soc_frac = 0.04,
		.soc_writes = 0.65,
		.region_size = 16 << 20,
		.rand_frac = 0.1,
		.seq_writes = 0.58,
		.rand_writes = 0.21,
	};
	static struct gen g;
	static struct ev_writer w;
	struct pageset set, *setp = NULL;

	sig_init();
	prog_init(argv[0]);
	parse_args(argc, argv, &o);
	check_opts(&o);
	gen_init(&o, &g);
	clock_init(&o);
	if (o.trim_prob > 0 && !o.volumes) {
		if (pageset_init(&set, o.pages)) {
			pageset_free(&set);
			die(EXIT_DATA, "out of memory for the set of %" PRIu64 " written pages",
			    o.pages);
		}
		setp = &set;
	}
	if (!o.quiet)
		fprintf(stderr, "%s: seed %" PRIu64 "\n", prog_name, o.seed);

	double t0 = now_s();
	struct ev e = {.length = (uint32_t)o.page_size};
	ev_writer_init(&w, stdout, o.binary);
	if (o.volumes) {
		run_volumes(&o, &w, &e);
	} else {
		if (o.fill)
			run_fill(&o, &g, &w, &e, setp);
		if (!strcmp(o.pat->name, "hir"))
			run_hir(&o, &g, &w, &e, setp);
		else
			for (uint64_t i = 0; i < o.writes && !sig_caught; i++)
				run_request(&o, &g, &w, &e, setp);
	}
	/* Interrupted: the stream written so far ends on a whole event,
	 * without the end record (a reader reports it cut). */
	if (sig_caught ? ev_writer_flush(&w) : ev_writer_end(&w))
		die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
	if (sig_caught)
		sig_exit();
	if (o.stats) {
		double dt = now_s() - t0, n = (double)clk.events;
		fprintf(stderr, "%s: %.0f events in %.3f s, %.3g events/s\n", prog_name, n, dt,
			dt > 0 ? n / dt : 0.0);
	}
	if (setp)
		pageset_free(&set);
	return EXIT_OK;
}
