/*
 * place_sepbit.c - SepBIT (Wang, Li, Lee, Chen, Lee, Li, Hu: "Separating
 * Data via Block Invalidation Time Inference for Write Amplification
 * Reduction in Log-Structured Storage", FAST'22, section 3).
 *
 * SepBIT infers a block's lifespan from what the model knows of the
 * past, in six classes:
 *   host writes: class 0 when the write invalidates a block whose
 *     lifespan v (host writes between its write and now) is below the
 *     threshold l, else class 1 (also every write that invalidates
 *     nothing: a new or trimmed page);
 *   GC copies: class 2 when the victim is a class-0 segment; otherwise
 *     by the block's age a (host writes since its last host write):
 *     class 3 for a < 4l, 4 for a < 16l, 5 beyond (sepbit:N: classes 3
 *     .. N-1, each boundary 4 times the one before).
 * l is the mean lifespan (collection time minus open time) of the last
 * 16 class-0 segments GC collected; infinite until 16 were. The model
 * opens a segment at its first write; sepbit:N,C=1 counts a class-0
 * segment's lifespan from when its class's previous segment sealed
 * (from the run's start for the first), as SepBIT's simulator, whose
 * every class always holds an open segment, creates it (8 bytes a
 * segment then; docs/VALIDATION.md measures the difference).
 *
 * As in the authors' simulator (fallfish/sepbit, trace_replay), the
 * short-lived test also keeps v below the length of the FIFO of recent
 * writes that the paper's design keeps, which grows by one per host
 * write up to min(l, valid pages); its length is tracked here without
 * the FIFO itself, since the model keeps every page's last write time
 * (and each segment's open time). No memory of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

#define SEPBIT_WINDOW 16 /* class-0 victims per threshold update */

struct sepbit {
	unsigned n;	    /* classes */
	double ell;	    /* lifespan threshold l, host writes (HUGE_VAL: none yet) */
	double sum;	    /* lifespans of this window's class-0 victims */
	unsigned nsum;
	uint64_t fifo;	    /* length of the recent-writes FIFO */
	int victim_hot;	    /* the segment being cleaned is class 0 */
	uint64_t *created;  /* C=1: each class-0 segment's creation, else NULL */
	uint64_t seal0;	    /* C=1: when the last class-0 segment sealed (0: none yet) */
};

static int sepbit_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct sepbit *p = st;
	p->n = (unsigned)in->args->u[0];
	p->ell = HUGE_VAL;
	out->streams = p->n;
	out->gc_streams = p->n - 2;
	out->host_streams = 2; /* classes 1 and 2: short and long-lived */
	out->keep = FTL_KEEP_WRITE_TIME | FTL_KEEP_OPEN_TIME;
	if (!in->args->u[1]) {
		out->skip |= PLACE_NO_SEALED;
		return 0;
	}
	if (!(p->created = policy_calloc(st, ftl_segments(f), sizeof(*p->created))))
		return -1;
	return 0;
}

/* C=1: a class-0 segment was created when the one before it sealed. */
static int sepbit_sealed(void *st, const struct ftl *f, uint32_t seg)
{
	struct sepbit *p = st;
	if (p->created && ftl_seg_stream(f, seg) == 0) {
		p->created[seg] = p->seal0;
		p->seal0 = ftl_now(f);
	}
	return 0;
}

static void sepbit_destroy(void *st, const struct ftl *f)
{
	(void)f;
	free(((struct sepbit *)st)->created);
}

static int sepbit_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct sepbit *p = st;
	double lim = fmin(p->ell, (double)p->fifo);
	*s = w->prev_seg != FTL_NONE && w->prev_time != FTL_NEVER &&
		     (double)(ftl_now(f) - w->prev_time) < lim ? 0 : 1;
	/* The FIFO takes this write and sheds its oldest entries while it
	 * is longer than min(l, valid pages): at most two a write. */
	p->fifo++;
	if ((double)p->fifo > fmin((double)ftl_mapped(f), p->ell)) {
		p->fifo--;
		if ((double)p->fifo > p->ell)
			p->fifo--;
	}
	return 0;
}

static int sepbit_clean(void *st, const struct ftl *f, uint32_t seg, int wl)
{
	struct sepbit *p = st;
	p->victim_hot = ftl_seg_stream(f, seg) == 0;
	if (!p->victim_hot || wl)
		return 0;
	p->sum += (double)(ftl_now(f) - (p->created ? p->created[seg] : ftl_open_time(f, seg)));
	if (++p->nsum == SEPBIT_WINDOW) {
		p->ell = p->sum / SEPBIT_WINDOW;
		p->sum = 0;
		p->nsum = 0;
	}
	return 0;
}

static int sepbit_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct sepbit *p = st;
	if (p->victim_hot) {
		*s = 2;
		return 0;
	}
	double age = (double)(ftl_now(f) - ftl_write_time(f, lpn)), bound = 4 * p->ell;
	unsigned c = 3;
	while (age >= bound && c < p->n - 1) {
		bound *= 4;
		c++;
	}
	*s = c;
	return 0;
}

static const char *sepbit_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	static const char *const names[] = {"short", "long", "gc-short"};
	if (s < 3)
		return names[s];
	snprintf(buf, n, "gc-age%u", s - 2);
	return buf;
}

static const struct policy_arg sepbit_args[] = {
	{"N", ARG_UINT, 4, 16, 6, "classes"},
	{"C", ARG_UINT, 0, 1, 0, "1: a class-0 segment's lifespan counted from its predecessor's seal (SepBIT's simulator)"},
};

const struct place_ops place_sepbit_ops = {
	.info = {.name = "sepbit",
		 .desc = "SepBIT (FAST'22): classes by the inferred lifespan of invalidated blocks and the age of GC copies (sepbit:N[,C=1], default 6; C=1 lifespans from the predecessor's seal, as SepBIT's simulator)",
		 .version = PLACE_API_VERSION,
		 .args = sepbit_args,
		 .nargs = 2,
		 .state_size = sizeof(struct sepbit)},
	.init = sepbit_init,
	.host = sepbit_host,
	.on_clean = sepbit_clean,
	.gc = sepbit_gc,
	.sealed = sepbit_sealed,
	.stream_name = sepbit_name,
	.destroy = sepbit_destroy,
};
