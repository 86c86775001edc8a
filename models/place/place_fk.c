/*
 * place_fk.c - future knowledge (FK), after the bound SepBIT's paper
 * (Wang et al., FAST'22, section 4) compares against: a pass over the
 * trace before the replay learns, for every host page write, when that
 * version dies (the page's next write or trim), and each write, host or
 * GC copy, goes to the class of its remaining lifespan r = death - now
 * in host page writes. A version that never dies goes to the last
 * class. fk:N,R=K: N classes (default 6), geometric of ratio K (default
 * 8): class c holds the remaining lifespans below b K^c (and at least
 * b K^(c-1)), b the segment size in pages, so that N classes span
 * lifespans up to b K^(N-2). R=1 gives the linear classes of the
 * authors' simulator, class min(N-1, floor(r / b)): classes a segment
 * wide put every version that lives longer than N segments' worth of
 * writes in the last one, which separates nothing on most workloads
 * (90/10 hot/cold: a hot page lives about U/9 writes). Measured (greedy;
 * docs/MODEL.md): the linear classes give a higher WA than sepbit on
 * every bundled trace and every synthetic workload tried, the single
 * log's or more on some; R=8 is below sepbit on all of them, hence the
 * default.
 *
 * The learning pass only appends each event's page to an array (4 bytes
 * a page write or trimmed page, and a bit an event marking the trims),
 * in trace order: no random access. learn_done walks that array
 * backwards with the next event's time of every page (4 bytes a logical
 * page, 8 for traces of 2^32-2 page writes or more) and turns each
 * write's entry into its lifespan, in place (lifespans of 2^32-1 writes
 * or more count as never); the trims' entries are squeezed out. What is
 * left in the per-page array is each page's first event, the death of
 * its preconditioning write; the replay keeps there the death time of
 * the page's live version. Before GC copies a victim's pages, their
 * death times are prefetched.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define FK_NEVER UINT64_MAX
#define FK_NEVER32 UINT32_MAX

struct fk {
	unsigned n;
	uint32_t *ev;	  /* learning: per event, its page; then per write, its lifespan */
	uint64_t *trim;	  /* learning: bit per event, set for a trim */
	uint64_t nev, cap;
	uint64_t nw;	  /* host page writes of the trace */
	int wide;	  /* the per-page times need 64 bits */
	uint32_t *d32;	  /* per logical page: next event (learning), death (replay) */
	uint64_t *d64;	  /* the same, wide */
	uint64_t next;	  /* replay: trace page writes placed so far */
	unsigned ratio;	  /* 1: linear classes; else geometric of this ratio */
	uint64_t bound[FTL_MAX_STREAMS]; /* geometric: class c holds r < bound[c] */
};

static int fk_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct fk *p = st;
	uint64_t U = ftl_logical_pages(f);
	/* Allocated here, so that a model replayed without the learning
	 * pass (a unit test's writes) sees versions that never die. */
	if (!(p->d32 = policy_calloc(st, U, sizeof(*p->d32))))
		return policy_fail(st, "out of memory");
	for (uint64_t i = 0; i < U; i++)
		p->d32[i] = FK_NEVER32;
	p->n = (unsigned)in->args->u[0];
	p->ratio = (unsigned)in->args->u[1];
	uint64_t lim = ftl_seg_pages(f);
	for (unsigned c = 0; c < p->n; c++) {
		p->bound[c] = lim;
		lim = lim > UINT64_MAX / p->ratio ? UINT64_MAX : lim * p->ratio;
	}
	out->streams = p->n;
	out->gc_streams = p->n;
	return 0;
}

#define FK_CAP0 (1u << 16)  /* events the learning arrays start with */
#define FK_CAP_SLOW (1u << 24) /* from here they grow by a quarter, not double */

/* The learning arrays' next capacity: doubled while small, then a
 * quarter more (realloc of a large block remaps it, copying nothing), so
 * that what is reserved stays within a quarter of what is used. */
static uint64_t fk_grow(uint64_t cap)
{
	return !cap ? FK_CAP0 : cap < FK_CAP_SLOW ? 2 * cap : (cap + cap / 4 + 63) / 64 * 64;
}

/* Learning: a page (4 bytes) and a trim bit an event, in arrays grown
 * by fk_grow as they fill; kept: the lifespan (4 bytes) of each page
 * write. */
static uint64_t fk_learn_bytes(uint64_t events, uint64_t writes, uint64_t *peak)
{
	uint64_t cap = fk_grow(0);
	while (cap < events)
		cap = fk_grow(cap);
	*peak = cap * sizeof(uint32_t) + cap / 8;
	return writes * sizeof(uint32_t);
}

static int fk_learn(void *st, const struct ftl *f, uint32_t lpn, unsigned op)
{
	struct fk *p = st;
	if (p->nev == p->cap) {
		uint64_t cap = fk_grow(p->cap);
		uint32_t *ne = policy_realloc(st, p->ev, p->cap * sizeof(uint32_t), cap * sizeof(uint32_t));
		if (!ne)
			return policy_fail(st, "out of memory for the pages of %llu events", (unsigned long long)cap);
		p->ev = ne;
		uint64_t *nt = policy_realloc(st, p->trim, p->cap / 8, cap / 8);
		if (!nt)
			return policy_fail(st, "out of memory for the pages of %llu events", (unsigned long long)cap);
		p->trim = nt;
		for (uint64_t i = p->cap / 64; i < cap / 64; i++)
			nt[i] = 0;
		p->cap = cap;
	}
	if (op != EV_WRITE)
		p->trim[p->nev / 64] |= 1ull << (p->nev % 64);
	else
		p->nw++;
	p->ev[p->nev++] = lpn;
	return 0;
}

/* Per-page time t of page lpn; FK_NEVER for none. */
static inline uint64_t fk_get(const struct fk *p, uint32_t lpn)
{
	if (p->wide)
		return p->d64[lpn];
	uint32_t v = p->d32[lpn];
	return v == FK_NEVER32 ? FK_NEVER : v;
}

static inline void fk_set(struct fk *p, uint32_t lpn, uint64_t t)
{
	if (p->wide)
		p->d64[lpn] = t;
	else
		p->d32[lpn] = t == FK_NEVER ? FK_NEVER32 : (uint32_t)t;
}

static inline const void *fk_slot(const struct fk *p, uint32_t lpn)
{
	return p->wide ? (const void *)&p->d64[lpn] : (const void *)&p->d32[lpn];
}

static int fk_learn_done(void *st, const struct ftl *f)
{
	struct fk *p = st;
	uint64_t U = ftl_logical_pages(f);
	/* Times up to nw + 1 are kept, and FK_NEVER32 means none. */
	if (p->nw + 1 >= FK_NEVER32) {
		if (!(p->d64 = policy_calloc(st, U, sizeof(*p->d64))))
			return policy_fail(st, "out of memory");
		uint32_t *n32 = policy_realloc(st, p->d32, U * sizeof(*p->d32), 0);
		if (n32)
			p->d32 = n32;
		p->wide = 1;
		for (uint64_t i = 0; i < U; i++)
			p->d64[i] = FK_NEVER;
	}
	/* Backwards: the page's next event is at the writes before it (wc);
	 * a write at index wc lives until then. */
	enum { AHEAD = 16 };
	uint64_t wc = p->nw, trims = 0;
	for (uint64_t e = p->nev; e-- > 0;) {
		if (e >= AHEAD)
			ftl_pf(fk_slot(p, p->ev[e - AHEAD]));
		uint32_t lpn = p->ev[e];
		if (p->trim[e / 64] >> (e % 64) & 1) {
			trims++;
			fk_set(p, lpn, wc);
			continue;
		}
		wc--;
		uint64_t nx = fk_get(p, lpn), l = nx == FK_NEVER ? FK_NEVER : nx - wc;
		p->ev[e] = l >= FK_NEVER32 ? FK_NEVER32 : (uint32_t)l;
		fk_set(p, lpn, wc);
	}
	if (trims) {
		uint64_t w = 0;
		for (uint64_t e = 0; e < p->nev; e++)
			if (!(p->trim[e / 64] >> (e % 64) & 1))
				p->ev[w++] = p->ev[e];
	}
	uint64_t *nt = policy_realloc(st, p->trim, p->cap / 8, 0); /* the bits are done with */
	if (nt)
		p->trim = nt;
	/* Keep the lifespans only (a shrink: realloc moves nothing). */
	if (p->nw) {
		uint32_t *ne = policy_realloc(st, p->ev, p->cap * sizeof(uint32_t), p->nw * sizeof(uint32_t));
		if (ne) {
			p->ev = ne;
			p->cap = p->nw;
		}
	}
	/* The per-page array now holds each page's first event: its
	 * preconditioning write dies there. */
	for (uint64_t i = 0; i < U; i++) {
		uint64_t t = fk_get(p, (uint32_t)i);
		if (t != FK_NEVER)
			fk_set(p, (uint32_t)i, t + 1);
	}
	return 0;
}

static unsigned fk_class(const struct ftl *f, const struct fk *p, uint64_t death)
{
	uint64_t now = p->next, r = death > now ? death - now : 0;
	if (death == FK_NEVER)
		return p->n - 1;
	if (p->ratio > 1) {
		unsigned c = 0;
		while (c < p->n - 1 && r >= p->bound[c])
			c++;
		return c;
	}
	uint64_t c = r / ftl_seg_pages(f);
	return c < p->n - 1 ? (unsigned)c : p->n - 1;
}

/* Times count trace page writes, the one being placed included; a
 * preconditioning write dies at its page's first event in the trace
 * (the time learn_done left in the page's entry). */
static int fk_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct fk *p = st;
	uint64_t d;
	if (ftl_preconditioning(f)) {
		d = fk_get(p, w->lpn);
	} else {
		uint64_t i = p->next++;
		d = i < p->nw && p->ev[i] != FK_NEVER32 ? i + 1 + p->ev[i] : FK_NEVER;
		fk_set(p, w->lpn, d);
	}
	*s = fk_class(f, p, d);
	return 0;
}

static int fk_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct fk *p = st;
	*s = fk_class(f, p, fk_get(p, lpn));
	return 0;
}

static void fk_prefetch(void *st, const struct ftl *f, uint32_t lpn)
{
	struct fk *p = st;
	if (!ftl_learning(f)) /* learning appends: nothing to fetch */
		ftl_pf(fk_slot(p, lpn));
}

static int fk_clean(void *st, const struct ftl *f, uint32_t seg, int wl)
{
	struct fk *p = st;
	place_prefetch_victim(f, seg, p->wide ? (const void *)p->d64 : (const void *)p->d32,
			      p->wide ? sizeof(*p->d64) : sizeof(*p->d32), 1);
	return 0;
}

static const char *fk_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "life%u", s);
	return buf;
}

static void fk_destroy(void *st, const struct ftl *f)
{
	struct fk *p = st;
	free(p->ev);
	free(p->trim);
	free(p->d32);
	free(p->d64);
}
static const struct policy_arg fk_args[] = {
	{"N", ARG_UINT, 1, FTL_MAX_STREAMS, 6, "classes"},
	{"R", ARG_UINT, 1, 1024, 8, "class width ratio: K > 1 geometric (class c below b K^c), 1 every class a segment wide (SepBIT's simulator)"},
};

const struct place_ops place_fk_ops = {
	.info = {.name = "fk",
		 .desc = "future knowledge: classes by remaining lifespan, learnt from the trace ahead (fk:N[,R=K], default 6 geometric classes of ratio 8; R=1 SepBIT's linear classes)",
		 .version = PLACE_API_VERSION,
		 .flags = PLACE_FUTURE,
		 .args = fk_args,
		 .nargs = 2,
		 .state_size = sizeof(struct fk)},
	.init = fk_init,
	.host = fk_host,
	.gc = fk_gc,
	.on_clean = fk_clean,
	.prefetch = fk_prefetch,
	.learn = fk_learn,
	.learn_done = fk_learn_done,
	.learn_bytes = fk_learn_bytes,
	.stream_name = fk_name,
	.destroy = fk_destroy,
};
