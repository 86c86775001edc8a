/*
 * place_fadac.c - FADaC, fading average data classifier (Kremer,
 * Brinkmann: "FADaC: A Self-Adapting Data Classifier for Flash Memory",
 * SYSTOR'19). Each logical page keeps a write count: +1 per host write,
 * -1 per GC copy (a page that keeps surviving cleaning cools down). A
 * fading average A of the request size, A += (n - A) / V per host
 * request of n pages (V: the valid pages), is the unit of heat: a write
 * goes to class k, the number of the thresholds A, 10A, 100A, ... its
 * count reaches, capped at N-1 (fadac:N, default 6), as in SepBIT's
 * simulator (fallfish/sepbit). There A, which is 1 for single-page
 * requests, drifts a hair below 1 by rounding (1 - 1.1e-14 after a 90/10
 * run), so that a count equal to a threshold counts as reaching it: a
 * page written once is class 1, apart from the GC survivors whose count
 * fell to 0 (class 0). Compared strictly, that run's WA is 3.70, not
 * 3.35. 4 bytes a page.
 */
#include <stdio.h>
#include <stdlib.h>

#include "place.h"

struct fadac {
	uint32_t *count;
	double avg;
	unsigned n;
};

static int fadac_init(void *st, const struct ftl *f, const struct place_init *in, struct place_needs *out)
{
	struct fadac *p = st;
	if (!(p->count = policy_calloc(st, ftl_logical_pages(f), sizeof(uint32_t))))
		return policy_fail(st, "out of memory");
	p->n = (unsigned)in->args->u[0];
	out->streams = p->n;
	out->gc_streams = p->n;
	return 0;
}

static int fadac_request(void *st, const struct ftl *f, uint32_t lpn, uint32_t npages)
{
	struct fadac *p = st;
	if (ftl_mapped(f))
		p->avg += ((double)npages - p->avg) / (double)ftl_mapped(f);
	return 0;
}

static unsigned fadac_class(const struct fadac *p, uint32_t c)
{
	unsigned k = 0;
	for (double base = p->avg; base > 0 && c >= base && k < p->n - 1; base *= 10)
		k++;
	return k;
}

static int fadac_host(void *st, const struct ftl *f, const struct place_write *w, unsigned *s)
{
	struct fadac *p = st;
	if (p->count[w->lpn] < UINT32_MAX)
		p->count[w->lpn]++;
	*s = fadac_class(p, p->count[w->lpn]);
	return 0;
}

static int fadac_gc(void *st, const struct ftl *f, uint32_t lpn, unsigned from, unsigned *s)
{
	struct fadac *p = st;
	if (p->count[lpn])
		p->count[lpn]--;
	*s = fadac_class(p, p->count[lpn]);
	return 0;
}

static const char *fadac_name(void *st, const struct ftl *f, unsigned s, char *buf, size_t n)
{
	snprintf(buf, n, "heat%u", s);
	return buf;
}

static void fadac_destroy(void *st, const struct ftl *f) { free(((struct fadac *)st)->count); }

static const struct policy_arg fadac_args[] = {
	{"N", ARG_UINT, 2, FTL_MAX_STREAMS, 6, "classes"},
};

const struct place_ops place_fadac_ops = {
	.info = {.name = "fadac",
		 .desc = "FADaC (SYSTOR'19): per-page write counts against a fading average, powers of 10 apart (fadac:N, default 6)",
		 .version = PLACE_API_VERSION,
		 .args = fadac_args,
		 .nargs = 1,
		 .state_size = sizeof(struct fadac)},
	.init = fadac_init,
	.request = fadac_request,
	.host = fadac_host,
	.gc = fadac_gc,
	.stream_name = fadac_name,
	.destroy = fadac_destroy,
};
