/*
 * place_fk.c - future knowledge (FK), the bound SepBIT's paper
 * (Wang et al., FAST'22, section 4) compares against: a pass over the
 * trace before the replay learns, for every host page write, when that
 * version dies (the page's next write or trim), and each write, host or
 * GC copy, goes to the class of its remaining lifespan r = death - now
 * in host page writes: class min(N-1, floor(r / b)), b the segment size
 * in pages (fk:N, N classes, default 6), as the authors' simulator
 * does. A version that never dies goes to the last class.
 * fk:N,R=K (K >= 2) makes the classes geometric instead: class c holds
 * the remaining lifespans below b K^c (and at least b K^(c-1)), so that
 * N classes span lifespans up to b K^(N-2) and separate a workload
 * whose hot pages live longer than N segments' worth of writes (90/10
 * hot/cold: a hot page lives about U/9 writes, for which the linear
 * classes put everything in the last one).
 *
 * Memory: a u32 lifespan per host page write of the trace (4 bytes a
 * write; lifespans of 2^32-1 writes or more count as never), and two u64
 * per logical page (16 bytes a page), side by side so that the pass
 * over the trace misses once a page, not twice. Preconditioning writes
 * die at their page's first event in the trace. Before GC copies a
 * victim's pages, their death times are prefetched.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define FK_NEVER UINT64_MAX

struct fk_page {
	uint64_t death; /* learning: index of the page's live write + 1, 0 none;
			 * replay: death time of the page's version */
	uint64_t first; /* trace page writes before the page's first event */
};

struct fk {
	unsigned n;
	uint32_t *life;	 /* per trace page write: lifespan (UINT32_MAX: never dies) */
	uint64_t nw, cap;
	struct fk_page *pg; /* per logical page */
	uint64_t next;	 /* replay: trace page writes placed so far */
	unsigned ratio;	 /* 1: linear classes; else geometric of this ratio */
	uint64_t bound[FTL_MAX_STREAMS]; /* geometric: class c holds r < bound[c] */
};

static int fk_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct fk *p = st;
	uint64_t U = ftl_logical_pages(f);
	if (!(p->pg = policy_calloc(st, U, sizeof(*p->pg))))
		return policy_fail(st, "out of memory");
	for (uint64_t i = 0; i < U; i++)
		p->pg[i].first = FK_NEVER;
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

/* The version written at index death[lpn] - 1 dies now. */
static void fk_kill(struct fk *p, uint32_t lpn)
{
	uint64_t w = p->pg[lpn].death - 1, l = p->nw - w;
	p->life[w] = l >= UINT32_MAX ? UINT32_MAX : (uint32_t)l;
	p->pg[lpn].death = 0;
}

static int fk_learn(void *st, const struct ftl *f, uint32_t lpn, unsigned op)
{
	struct fk *p = st;
	if (p->pg[lpn].first == FK_NEVER)
		p->pg[lpn].first = p->nw;
	if (p->pg[lpn].death)
		fk_kill(p, lpn);
	if (op != EV_WRITE)
		return 0;
	if (p->nw == p->cap) {
		uint64_t cap = p->cap ? 2 * p->cap : 1 << 16;
		uint32_t *nl = policy_realloc(st, p->life, p->cap * sizeof(uint32_t), cap * sizeof(uint32_t));
		if (!nl)
			return policy_fail(st, "out of memory for the lifespans of %llu page writes",
					   (unsigned long long)cap);
		p->life = nl;
		p->cap = cap;
	}
	p->life[p->nw] = UINT32_MAX;
	p->pg[lpn].death = ++p->nw;
	return 0;
}

static int fk_learn_done(void *st, const struct ftl *f)
{
	struct fk *p = st;
	for (uint64_t i = 0; i < ftl_logical_pages(f); i++)
		p->pg[i].death = FK_NEVER;
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
 * preconditioning write dies at its page's first event in the trace. */
static int fk_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct fk *p = st;
	uint64_t d;
	if (ftl_preconditioning(f)) {
		d = p->pg[w->lpn].first == FK_NEVER ? FK_NEVER : p->pg[w->lpn].first + 1;
	} else {
		uint64_t i = p->next++;
		d = i < p->nw && p->life[i] != UINT32_MAX ? i + 1 + p->life[i] : FK_NEVER;
	}
	p->pg[w->lpn].death = d;
	*s = fk_class(f, p, d);
	return 0;
}

static int fk_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct fk *p = st;
	*s = fk_class(f, p, p->pg[lpn].death);
	return 0;
}

static void fk_prefetch(void *st, const struct ftl *f, uint32_t lpn)
{
	struct fk *p = st;
	ftl_pf(&p->pg[lpn]);
}

static int fk_clean(void *st, const struct ftl *f, uint32_t seg, int wl)
{
	struct fk *p = st;
	place_prefetch_victim(f, seg, p->pg, sizeof(*p->pg), 1);
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
	free(p->life);
	free(p->pg);
}

static const struct policy_arg fk_args[] = {
	{"N", ARG_UINT, 1, FTL_MAX_STREAMS, 6, "classes"},
	{"R", ARG_UINT, 1, 1024, 1, "class width ratio: 1 every class a segment wide, K > 1 geometric (class c below b K^c)"},
};

const struct place_ops place_fk_ops = {
	.info = {.name = "fk",
		 .desc = "future knowledge: classes by remaining lifespan, learnt from the trace ahead (fk:N[,R=K], default 6, linear; R=K geometric classes)",
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
	.stream_name = fk_name,
	.destroy = fk_destroy,
};
