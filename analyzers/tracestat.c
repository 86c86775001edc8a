/*
 * tracestat - what is in a trace: per-op counts and bytes, footprint,
 * request sizes, how much written data is later discarded, write skew,
 * overwrite ratio, duration, idle time (the gaps between arrivals).
 *
 *   tracestat [-f FORMAT] [--json|--csv] [options] FILE...
 *
 * One pass, streaming; memory grows with the footprint (distinct pages
 * touched), not with the trace's length.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_trace.h"
#include "ftlkit.h"
#include "pagemap.h"
#include "sig.h"

enum { PG_WRITTEN = 1, PG_READ = 2, PG_WRITE_THEN_DISCARD = 4 };

/* A page's history, the value of a table keyed by (volume, page). */
struct page {
	uint32_t writes;
	uint8_t flags;
};

#define NSIZE 13 /* request-size buckets: <=512 B, 1K, ... 1M, >1M */
/* The ops with a request size, those the size histogram counts: read,
 * write, discard. A flush moves no data: it has no size bucket (its
 * count is in ops.flush). */
#define NSIZED EV_FLUSH
_Static_assert(EV_READ < NSIZED && EV_WRITE < NSIZED && EV_DISCARD < NSIZED && EV_FLUSH == EV_NOPS - 1,
	       "the sized ops come before flush, the last block op");
#define NGAP 56	 /* gap buckets: [0, 1) us, then [2^(k-1), 2^k) us: 2^64 ns < 2^55 us */

/*
 * Idle time: the gaps between consecutive arrivals (of any op), in the
 * order the trace gives them. A gap of at least the threshold is idle;
 * the runs of requests between idle gaps are the busy periods, each as
 * long as its first request to its last. So idle + busy time is the
 * span from the first arrival to the last, the duration of a trace in
 * time order. An event earlier than one before it (a trace not sorted:
 * --sort sorts it) counts as out of order, with a gap of 0.
 */
struct idle {
	int64_t prev; /* the latest arrival so far */
	uint64_t gaps, out_of_order, idle_gaps, idle_ns, busy_ns, busy_cur_ns, busy_max_ns;
	uint64_t min_gap; /* the smallest step above 0 between events, either way: the timestamps' resolution, at best (0: none) */
};

static int gap_bucket(uint64_t gap_ns)
{
	uint64_t us = gap_ns / 1000;
	return us ? 64 - __builtin_clzll(us) : 0;
}

/* The arrival at t of the n-th event (from 1) of the trace. */
static inline void idle_account(struct idle *d, int64_t thr_ns, int64_t t, uint64_t n,
				uint64_t *hist)
{
	if (n == 1) {
		d->prev = t;
		return;
	}
	uint64_t gap = 0;
	if (t < d->prev) {
		d->out_of_order++;
		/* a step back tells the resolution too (a trace whose later
		 * events go back to an earlier second has no gap above 0) */
		uint64_t back = (uint64_t)d->prev - (uint64_t)t;
		if (!d->min_gap || back < d->min_gap)
			d->min_gap = back;
	} else {
		gap = (uint64_t)t - (uint64_t)d->prev;
		d->prev = t;
		if (gap && (!d->min_gap || gap < d->min_gap))
			d->min_gap = gap;
	}
	d->gaps++;
	hist[gap_bucket(gap)]++;
	if (gap >= (uint64_t)thr_ns) {
		d->idle_gaps++;
		d->idle_ns += gap;
		d->busy_cur_ns = 0;
	} else {
		d->busy_ns += gap;
		d->busy_cur_ns += gap;
		if (d->busy_cur_ns > d->busy_max_ns)
			d->busy_max_ns = d->busy_cur_ns;
	}
}

/* A discard's fully covered pages [first, last) of one volume. Kept as
 * extents, not pages: one 4 TiB discard (mkfs) must not cost a billion
 * table entries. */
struct extent {
	uint32_t volume;
	uint64_t first, last;
};

struct stats {
	uint64_t events;
	uint64_t count[EV_NOPS], bytes[EV_NOPS];
	uint64_t size_hist[NSIZED][NSIZE];
	uint64_t zero_length; /* reads, writes and discards of length 0: no size bucket */
	uint64_t page_writes; /* page-granular writes */
	int64_t t_min, t_max;
	int64_t idle_thr_ns; /* --idle-threshold */
	struct idle idle;
	uint64_t gap_hist[NGAP];
	struct pagemap pages;
	struct extent *disc;
	size_t ndisc, disc_cap;
	/* --per-volume: a row per volume, found by an open-addressing hash */
	int per_volume;
	struct vstat *vol;
	size_t nvol, capvol;
	uint32_t *vslot; /* index + 1, 0 empty */
	size_t nvslot;
};

struct vstat {
	uint32_t id;
	uint64_t events, count[EV_NOPS], bytes[EV_NOPS], page_writes, max_end;
	int64_t t_min, t_max;
	uint64_t fp_written, hot_writes; /* pages written; writes to its hottest 10% */
};

static size_t vhash(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	return x ^ (x >> 16);
}

static int vrehash(struct stats *s, size_t ns)
{
	uint32_t *slot = calloc(ns, sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < s->nvol; i++) {
		size_t h = vhash(s->vol[i].id) & (ns - 1);
		while (slot[h])
			h = (h + 1) & (ns - 1);
		slot[h] = (uint32_t)i + 1;
	}
	free(s->vslot);
	s->vslot = slot;
	s->nvslot = ns;
	return 0;
}

/* The row of volume id, added if new; NULL when out of memory. */
static struct vstat *vstat_of(struct stats *s, uint32_t id)
{
	if (2 * (s->nvol + 1) > s->nvslot && vrehash(s, s->nvslot ? 2 * s->nvslot : 256))
		return NULL;
	size_t h = vhash(id) & (s->nvslot - 1);
	for (; s->vslot[h]; h = (h + 1) & (s->nvslot - 1))
		if (s->vol[s->vslot[h] - 1].id == id)
			return &s->vol[s->vslot[h] - 1];
	if (s->nvol == s->capvol) {
		size_t nc = s->capvol ? 2 * s->capvol : 64;
		struct vstat *nv = realloc(s->vol, nc * sizeof(*nv));
		if (!nv)
			return NULL;
		s->vol = nv;
		s->capvol = nc;
	}
	struct vstat *v = &s->vol[s->nvol];
	*v = (struct vstat){.id = id, .t_min = INT64_MAX, .t_max = INT64_MIN};
	s->vslot[h] = (uint32_t)++s->nvol;
	return v;
}

static int account_volume(struct stats *s, const struct ev *e, uint64_t psize)
{
	struct vstat *v = vstat_of(s, e->volume);
	if (!v)
		return -1;
	v->events++;
	v->count[e->op]++;
	v->bytes[e->op] += e->length;
	v->t_min = e->t_ns < v->t_min ? e->t_ns : v->t_min;
	v->t_max = e->t_ns > v->t_max ? e->t_ns : v->t_max;
	if (e->op == EV_FLUSH || !e->length)
		return 0;
	if (e->offset + e->length > v->max_end)
		v->max_end = e->offset + e->length;
	if (e->op == EV_WRITE) {
		uint64_t first, end;
		ev_pages(e, psize, &first, &end);
		v->page_writes += end - first;
	}
	return 0;
}

/* Mark the pages written so far that a discard of [first, last) covers,
 * walking whichever is smaller: the range or the table. */
static void mark_discarded(struct pagemap *t, uint32_t vol, uint64_t first, uint64_t last)
{
	if (last - first <= t->cap) {
		for (uint64_t p = first; p < last; p++) {
			struct page *pg = pagemap_find(t, vol, p);
			if (pg && (pg->flags & PG_WRITTEN))
				pg->flags |= PG_WRITE_THEN_DISCARD;
		}
		return;
	}
	for (size_t i = 0; i < t->cap; i++) {
		struct page *pg = pagemap_val(t, i);
		uint64_t p = pagemap_page(t, i);
		if (pagemap_used(t, i) && t->vol[i] == vol && p >= first && p < last && (pg->flags & PG_WRITTEN))
			pg->flags |= PG_WRITE_THEN_DISCARD;
	}
}

static int add_extent(struct stats *s, uint32_t vol, uint64_t first, uint64_t last)
{
	if (s->ndisc == s->disc_cap) {
		size_t cap = s->disc_cap ? s->disc_cap * 2 : 1024;
		struct extent *n = realloc(s->disc, cap * sizeof(*n));
		if (!n)
			return -1;
		s->disc = n;
		s->disc_cap = cap;
	}
	s->disc[s->ndisc++] = (struct extent){vol, first, last};
	return 0;
}

static int cmp_extent(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;
	if (x->volume != y->volume)
		return x->volume < y->volume ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Distinct pages covered by all discards: the union of the extents. */
static uint64_t discarded_pages(struct stats *s)
{
	uint64_t n = 0;
	if (!s->ndisc)
		return 0;
	qsort(s->disc, s->ndisc, sizeof(*s->disc), cmp_extent);
	for (size_t i = 0; i < s->ndisc;) {
		struct extent cur = s->disc[i++];
		while (i < s->ndisc && s->disc[i].volume == cur.volume && s->disc[i].first <= cur.last) {
			if (s->disc[i].last > cur.last)
				cur.last = s->disc[i].last;
			i++;
		}
		n += cur.last - cur.first;
	}
	return n;
}

static int size_bucket(uint32_t len)
{
	int b = 0;
	uint64_t lim = 512;
	while (b < NSIZE - 1 && len > lim) {
		lim <<= 1;
		b++;
	}
	return b;
}

static const char *size_label(int b, char *buf)
{
	if (b == NSIZE - 1)
		return ">1M";
	uint64_t lim = 512ull << b;
	if (lim < 1024)
		sprintf(buf, "<=%" PRIu64, lim);
	else if (lim < 1 << 20)
		sprintf(buf, "<=%" PRIu64 "K", lim >> 10);
	else
		sprintf(buf, "<=%" PRIu64 "M", lim >> 20);
	return buf;
}

static int account(struct stats *s, const struct ev *e, uint64_t psize)
{
	if (s->per_volume && account_volume(s, e, psize))
		return -1;
	s->events++;
	s->count[e->op]++;
	s->bytes[e->op] += e->length;
	if (e->op < NSIZED && e->length)
		s->size_hist[e->op][size_bucket(e->length)]++;
	else if (e->op < NSIZED)
		s->zero_length++;
	idle_account(&s->idle, s->idle_thr_ns, e->t_ns, s->events, s->gap_hist);
	if (s->events == 1 || e->t_ns < s->t_min)
		s->t_min = e->t_ns;
	if (s->events == 1 || e->t_ns > s->t_max)
		s->t_max = e->t_ns;
	if (e->op == EV_FLUSH || e->length == 0)
		return 0;
	uint64_t first, last;
	if (e->op == EV_DISCARD) /* only pages fully covered */
		ev_whole_pages(e, psize, &first, &last);
	else
		ev_pages(e, psize, &first, &last);
	if (e->op == EV_DISCARD) {
		if (first >= last)
			return 0;
		mark_discarded(&s->pages, e->volume, first, last);
		return add_extent(s, e->volume, first, last);
	}
	for (uint64_t p = first; p < last; p++) {
		int added;
		struct page *pg = pagemap_get(&s->pages, e->volume, p, &added);
		if (!pg)
			return -1;
		switch (e->op) {
		case EV_WRITE:
			pg->flags |= PG_WRITTEN;
			pg->writes++;
			s->page_writes++;
			break;
		case EV_READ:
			pg->flags |= PG_READ;
			break;
		}
	}
	return 0;
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

struct summary {
	uint64_t fp_written, fp_read, fp_discarded, written_then_discarded;
	double skew[3]; /* share of page writes to hottest 1%, 10%, 20% of written pages */
	uint32_t *wcounts; /* descending write counts of written pages */
	uint64_t nw;
};

static const double skew_frac[3] = {0.01, 0.10, 0.20};

static int summarise(struct stats *s, struct summary *m)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < s->pages.cap; i++) {
		const struct page *p = pagemap_val(&s->pages, i);
		if (!pagemap_used(&s->pages, i))
			continue;
		m->fp_written += !!(p->flags & PG_WRITTEN);
		m->fp_read += !!(p->flags & PG_READ);
		m->written_then_discarded += !!(p->flags & PG_WRITE_THEN_DISCARD);
	}
	m->fp_discarded = discarded_pages(s);
	m->wcounts = malloc((m->fp_written + 1) * sizeof(uint32_t));
	if (!m->wcounts)
		return -1;
	for (size_t i = 0; i < s->pages.cap; i++)
		if (pagemap_used(&s->pages, i) && ((const struct page *)pagemap_val(&s->pages, i))->writes)
			m->wcounts[m->nw++] = ((const struct page *)pagemap_val(&s->pages, i))->writes;
	qsort(m->wcounts, m->nw, sizeof(uint32_t), cmp_desc);
	for (int k = 0; k < 3; k++) {
		uint64_t top = (uint64_t)(skew_frac[k] * (double)m->nw + 0.999999), sum = 0;
		for (uint64_t i = 0; i < top && i < m->nw; i++)
			sum += m->wcounts[i];
		m->skew[k] = s->page_writes ? (double)sum / (double)s->page_writes : 0;
	}
	return 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* The idle-time object: the gaps, idle and busy time, busy periods and
 * the gap histogram; or, without timestamps, a note that says so. */
static json_t *idle_json(const struct stats *s)
{
	const struct idle *d = &s->idle;
	json_t *j = json_object();
	json_object_set_new(j, "threshold_ms", json_real((double)s->idle_thr_ns / 1e6));
	if (s->events < 2 || s->t_min == s->t_max) {
		json_object_set_new(j, "timestamps", json_false());
		json_object_set_new(j, "note", s->events < 2 ? json_string("fewer than two events: no gaps")
					       : s->t_min ? json_sprintf("every event at the same time, t_ns %lld: "
									 "no gaps to measure", (long long)s->t_min)
							  : json_string("every event at t_ns 0: the trace has no "
									"timestamps, no idle time to measure"));
		return j;
	}
	json_object_set_new(j, "timestamps", json_true());
	char note[600] = "";
	if (d->out_of_order)
		snprintf(note, sizeof(note), "%llu events earlier than one before them (gap 0): idle and busy time are "
			 "of the trace's order; --sort puts it in time order", (unsigned long long)d->out_of_order);
	if (d->min_gap >= (uint64_t)s->idle_thr_ns) { /* coarse times: the threshold cannot tell idle from busy */
		size_t k = strlen(note);
		snprintf(note + k, sizeof(note) - k, "%sarrivals are at the same time or at least %g ms apart, at or "
			 "above the threshold: the timestamps are too coarse to tell idle from busy (every gap that is "
			 "not 0 counts as idle%s)", k ? "; " : "", (double)d->min_gap / 1e6,
			 d->idle_gaps ? "" : "; here every gap is 0");
	}
	if (note[0])
		json_object_set_new(j, "note", json_string(note));
	json_object_set_new(j, "resolution_ms", d->min_gap ? json_real((double)d->min_gap / 1e6) : json_null());
	json_object_set_new(j, "gaps", json_integer((json_int_t)d->gaps));
	json_object_set_new(j, "gaps_out_of_order", json_integer((json_int_t)d->out_of_order));
	json_object_set_new(j, "idle_gaps", json_integer((json_int_t)d->idle_gaps));
	json_object_set_new(j, "idle_s", json_real((double)d->idle_ns / 1e9));
	json_object_set_new(j, "busy_s", json_real((double)d->busy_ns / 1e9));
	/* no time between the first arrival and the last, in the trace's
	 * order (every later event earlier than the first): no share */
	json_object_set_new(j, "idle_share", d->idle_ns + d->busy_ns ? json_real(ratio(d->idle_ns, d->idle_ns + d->busy_ns))
								    : json_null());
	json_t *b = json_object();
	uint64_t nbusy = d->idle_gaps + 1;
	json_object_set_new(b, "count", json_integer((json_int_t)nbusy));
	json_object_set_new(b, "mean_s", json_real((double)d->busy_ns / 1e9 / (double)nbusy));
	json_object_set_new(b, "max_s", json_real((double)d->busy_max_ns / 1e9));
	json_object_set_new(j, "busy_periods", b);
	json_t *h = json_array();
	int lo = 0, hi = NGAP - 1;
	while (lo < hi && !s->gap_hist[lo])
		lo++;
	while (hi > lo && !s->gap_hist[hi])
		hi--;
	for (int k = lo; k <= hi; k++) {
		json_t *o = json_object();
		json_object_set_new(o, "min_us", json_integer(k ? (json_int_t)1 << (k - 1) : 0));
		json_object_set_new(o, "max_us", json_integer((json_int_t)1 << k));
		json_object_set_new(o, "gaps", json_integer((json_int_t)s->gap_hist[k]));
		json_array_append_new(h, o);
	}
	json_object_set_new(j, "gap_hist", h);
	return j;
}

static json_t *to_json(const char *path, const char *format, uint64_t bad, uint64_t psize,
		       struct stats *s, struct summary *m)
{
	static const char *opname[EV_NOPS] = {"read", "write", "discard", "flush"};
	json_t *j = json_object();
	json_object_set_new(j, "file", json_string(path));
	json_object_set_new(j, "format", json_string(format));
	json_object_set_new(j, "events", json_integer((json_int_t)s->events));
	json_object_set_new(j, "bad_records_skipped", json_integer((json_int_t)bad));
	/* (t_max >= t_min: their difference as unsigned, which holds it however far apart they are) */
	json_object_set_new(j, "duration_s",
			    json_real(s->events ? (double)((uint64_t)s->t_max - (uint64_t)s->t_min) / 1e9 : 0));
	json_t *ops = json_object();
	for (int op = 0; op < EV_NOPS; op++) {
		json_t *o = json_object();
		json_object_set_new(o, "requests", json_integer((json_int_t)s->count[op]));
		json_object_set_new(o, "bytes", json_integer((json_int_t)s->bytes[op]));
		json_object_set_new(ops, opname[op], o);
	}
	json_object_set_new(j, "ops", ops);
	json_t *fp = json_object();
	json_object_set_new(fp, "page_size_bytes", json_integer((json_int_t)psize));
	json_object_set_new(fp, "pages_written", json_integer((json_int_t)m->fp_written));
	json_object_set_new(fp, "pages_read", json_integer((json_int_t)m->fp_read));
	json_object_set_new(fp, "pages_discarded", json_integer((json_int_t)m->fp_discarded));
	json_object_set_new(fp, "pages_read_or_written", json_integer((json_int_t)s->pages.n));
	json_object_set_new(j, "footprint", fp);
	json_object_set_new(j, "page_writes", json_integer((json_int_t)s->page_writes));
	json_object_set_new(j, "written_pages_later_discarded_share",
			    json_real(ratio(m->written_then_discarded, m->fp_written)));
	json_object_set_new(j, "overwrite_ratio",
			    json_real(ratio(s->page_writes - m->fp_written, s->page_writes)));
	json_t *sk = json_object();
	json_object_set_new(sk, "hottest_1pct", json_real(m->skew[0]));
	json_object_set_new(sk, "hottest_10pct", json_real(m->skew[1]));
	json_object_set_new(sk, "hottest_20pct", json_real(m->skew[2]));
	json_object_set_new(j, "write_skew", sk);
	json_t *h = json_object();
	char lb[32];
	for (int op = 0; op < NSIZED; op++) {
		if (!s->count[op])
			continue;
		json_t *ho = json_object();
		for (int b = 0; b < NSIZE; b++)
			json_object_set_new(ho, size_label(b, lb), json_integer((json_int_t)s->size_hist[op][b]));
		json_object_set_new(h, opname[op], ho);
	}
	json_object_set_new(j, "request_size_hist", h);
	json_object_set_new(j, "zero_length_requests", json_integer((json_int_t)s->zero_length));
	json_object_set_new(j, "idle", idle_json(s));
	return j;
}

/* A value as the JSON prints it: integers whole, reals to 10
 * significant digits (JSON_REAL_PRECISION(10)), true and false, text
 * quoted as a CSV field needs, null an empty field. */
static void csv_row(FILE *fp, const char *file, const char *key, const json_t *v)
{
	csv_str(fp, file);
	fprintf(fp, ",%s,", key);
	if (json_is_integer(v))
		fprintf(fp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		fprintf(fp, "%.10g", json_real_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", fp);
	else if (json_is_string(v))
		csv_str(fp, json_string_value(v));
	putc('\n', fp);
}

/* The row that marks a trace's summary partial. */
static void csv_partial(FILE *fp, const char *file)
{
	csv_str(fp, file);
	fputs(",partial,1\n", fp);
}

static void print_csv(FILE *fp, json_t *j, const char *prefix, const char *file)
{
	const char *k;
	json_t *v;
	char key[256];
	json_object_foreach(j, k, v) {
		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_is_object(v))
			print_csv(fp, v, key, file);
		else if (!json_is_array(v) && strcmp(key, "file")) /* the first column */
			csv_row(fp, file, key, v);
	}
}

/* Skew CDF: x = fraction of written pages (hottest first), y = share of page writes. */
static int write_skew_cdf(struct outfile *o, const char *file, struct stats *s, struct summary *m,
			  char *err, size_t n)
{
	FILE *fp = o->fp;
	fprintf(fp, "file,pages_frac,writes_frac\n");
	uint64_t sum = 0, step = m->nw / 1000 ? m->nw / 1000 : 1;
	csv_str(fp, file);
	fputs(",0,0\n", fp);
	for (uint64_t i = 0; i < m->nw; i++) {
		sum += m->wcounts[i];
		if ((i + 1) % step == 0 || i + 1 == m->nw) {
			csv_str(fp, file);
			fprintf(fp, ",%.6f,%.6f\n", (double)(i + 1) / (double)m->nw, ratio(sum, s->page_writes));
		}
	}
	return out_commit(o, err, n);
}

static int write_size_hist(struct outfile *o, const char *file, struct stats *s, char *err, size_t n)
{
	static const char *opname[EV_NOPS] = {"read", "write", "discard", "flush"};
	char lb[32];
	fprintf(o->fp, "file,op,bucket,max_bytes,requests\n");
	for (int op = 0; op < NSIZED; op++)
		for (int b = 0; b < NSIZE && s->count[op]; b++) {
			csv_str(o->fp, file);
			fprintf(o->fp, ",%s,%s,%llu,%llu\n", opname[op], size_label(b, lb),
				b == NSIZE - 1 ? 0ull : 512ull << b, (unsigned long long)s->size_hist[op][b]);
		}
	return out_commit(o, err, n);
}

/* A written page of a volume, for its footprint and skew. */
struct vw {
	uint32_t vol, writes;
};

static int cmp_vw(const void *a, const void *b)
{
	const struct vw *x = a, *y = b;
	if (x->vol != y->vol)
		return x->vol < y->vol ? -1 : 1;
	return x->writes < y->writes ? 1 : x->writes > y->writes ? -1 : 0;
}

static int cmp_vstat(const void *a, const void *b)
{
	const struct vstat *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Each volume's footprint and the share of its page writes that go to
 * its hottest 10% of written pages; the rows sorted by volume. */
static int summarise_volumes(struct stats *s)
{
	struct vw *w = malloc((s->pages.n + 1) * sizeof(*w));
	size_t n = 0;
	if (!w)
		return -1;
	for (size_t i = 0; i < s->pages.cap; i++) {
		const struct page *p = pagemap_val(&s->pages, i);
		if (pagemap_used(&s->pages, i) && p->writes)
			w[n++] = (struct vw){s->pages.vol[i], p->writes};
	}
	qsort(w, n, sizeof(*w), cmp_vw);
	qsort(s->vol, s->nvol, sizeof(*s->vol), cmp_vstat);
	size_t k = 0;
	for (size_t i = 0; i < s->nvol; i++) {
		struct vstat *v = &s->vol[i];
		while (k < n && w[k].vol < v->id)
			k++;
		size_t j = k;
		while (j < n && w[j].vol == v->id)
			j++;
		v->fp_written = j - k;
		uint64_t top = (uint64_t)(0.10 * (double)v->fp_written + 0.999999);
		for (size_t q = k; q < k + top; q++)
			v->hot_writes += w[q].writes;
		k = j;
	}
	free(w);
	return 0;
}

static const char *const vol_cols[] = {
	"volume", "events", "reads", "writes", "discards", "flushes", "read_bytes", "write_bytes",
	"discard_bytes", "footprint_pages_written", "page_writes", "max_offset_bytes", "duration_s",
	"write_skew_hottest_10pct", "page_size_bytes", NULL};

/* --per-volume FILE: a row per volume, CSV, or JSON when FILE ends in .json. */
static int write_volumes(struct outfile *o, const char *path, struct stats *s, uint64_t psize, char *err,
			 size_t n)
{
	size_t len = strlen(path);
	int json = len > 5 && !strcmp(path + len - 5, ".json");
	if (!json)
		for (int c = 0; vol_cols[c]; c++)
			fprintf(o->fp, "%s%s", c ? "," : "", vol_cols[c]);
	fputs(json ? "[" : "\n", o->fp);
	for (size_t i = 0; i < s->nvol; i++) {
		const struct vstat *v = &s->vol[i];
		double dur = v->events ? (double)((uint64_t)v->t_max - (uint64_t)v->t_min) / 1e9 : 0;
		double skew = ratio(v->hot_writes, v->page_writes);
		unsigned long long x[] = {v->id, v->events, v->count[EV_READ], v->count[EV_WRITE],
					  v->count[EV_DISCARD], v->count[EV_FLUSH], v->bytes[EV_READ],
					  v->bytes[EV_WRITE], v->bytes[EV_DISCARD], v->fp_written,
					  v->page_writes, v->max_end};
		if (json) {
			fprintf(o->fp, "%s\n  {", i ? "," : "");
			for (int c = 0; c < 12; c++)
				fprintf(o->fp, "\"%s\": %llu, ", vol_cols[c], x[c]);
			fprintf(o->fp, "\"%s\": %.9g, \"%s\": %.9g, \"%s\": %llu}", vol_cols[12], dur, vol_cols[13],
				skew, vol_cols[14], (unsigned long long)psize);
		} else {
			for (int c = 0; c < 12; c++)
				fprintf(o->fp, "%llu,", x[c]);
			fprintf(o->fp, "%.9g,%.9g,%llu\n", dur, skew, (unsigned long long)psize);
		}
	}
	if (json)
		fputs(s->nvol ? "\n]\n" : "]\n", o->fp);
	return out_commit(o, err, n);
}

static void usage(void)
{
	printf("Usage: %s [-f FORMAT] [--json|--csv] [options] FILE...\n"
	       "Characterise block traces: per-op requests and bytes, footprint in pages,\n"
	       "request sizes, share of written pages later discarded, write skew,\n"
	       "overwrite ratio, duration, idle time and busy periods, the gaps between\n"
	       "arrivals (of the whole trace, all volumes together). Several FILEs, a\n"
	       "directory or @LIST are one trace (a set of files in time order): one result.\n"
	       "\n"
	       "Output:\n"
	       "      --json             JSON on stdout (default)\n"
	       "      --csv              CSV on stdout: file,metric,value\n"
	       "      --page-size BYTES  page size for footprint and skew (default 4096)\n"
	       "      --size-hist FILE   request-size histogram as CSV\n"
	       "      --skew-cdf FILE    write-skew CDF (pages hottest first) as CSV\n"
	       "      --per-volume FILE  a row per volume: events, requests and bytes per op,\n"
	       "                         footprint pages written, page writes, largest offset,\n"
	       "                         duration, share of writes to its hottest 10%% pages,\n"
	       "                         the page size; CSV, or JSON when FILE ends in .json\n"
	       "                         (ftlsim reads it instead of its first pass)\n"
	       "      --idle-threshold MS  a gap between arrivals of at least MS milliseconds\n"
	       "                         is idle time (default 10); shorter gaps make the\n"
	       "                         busy periods (of the whole trace: --volume V for\n"
	       "                         one volume's)\n"
	       "\n" CLI_TRACE_HELP "\n"
	       "      --list-formats     list the trace formats and exit\n"
	       "  -q, --quiet            do not report the detected format\n"
	       "  -h, --help             show this help and exit\n"
	       "  -V, --version          show the version and exit\n"
	       "\n"
	       "Exit status: 0 ok, 1 bad input or I/O error, 2 usage error.\n",
	       prog_name);
}

int main(int argc, char **argv)
{
	enum { OPT_JSON = 1, OPT_CSV, OPT_PAGE_SIZE, OPT_SIZE_HIST, OPT_SKEW_CDF, OPT_PER_VOLUME, OPT_IDLE_THR };
	static const struct option longopts[] = {
		CLI_TRACE_LONGOPTS,
		{"json", no_argument, NULL, OPT_JSON},
		{"csv", no_argument, NULL, OPT_CSV},
		{"page-size", required_argument, NULL, OPT_PAGE_SIZE},
		{"size-hist", required_argument, NULL, OPT_SIZE_HIST},
		{"skew-cdf", required_argument, NULL, OPT_SKEW_CDF},
		{"per-volume", required_argument, NULL, OPT_PER_VOLUME},
		{"idle-threshold", required_argument, NULL, OPT_IDLE_THR},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct trace_opts o;
	int csv = 0, c;
	uint64_t psize = 4096;
	int64_t idle_thr_ns = 10000000; /* 10 ms */
	int out_given = 0; /* OPT_JSON or OPT_CSV, once given */
	double ms;
	const char *size_hist = NULL, *skew_cdf = NULL, *per_volume = NULL;

	sig_init();
	prog_init(argv[0]);
	trace_opts_default(&o);
	list_options(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "f:qhV", longopts, NULL)) != -1) {
		if (cli_trace_opt(c, optarg, &o))
			continue;
		switch (c) {
		case OPT_JSON:
		case OPT_CSV:
			opt_one_of(&out_given, c, "--json and --csv contradict each other: give one");
			csv = c == OPT_CSV;
			break;
		case OPT_PAGE_SIZE:
			psize = opt_size("--page-size", optarg);
			if (psize < 512 || (psize & (psize - 1)))
				usage_error("--page-size must be a power of two >= 512");
			break;
		case OPT_SIZE_HIST: size_hist = optarg; break;
		case OPT_SKEW_CDF: skew_cdf = optarg; break;
		case OPT_PER_VOLUME: per_volume = optarg; break;
		case OPT_IDLE_THR:
			ms = opt_double("--idle-threshold", optarg);
			if (!(ms > 0 && ms <= 1e12) || llround(ms * 1e6) < 1)
				usage_error("--idle-threshold takes milliseconds above 0 (down to 10^-6) and up to "
					    "10^12, not '%s'", optarg);
			idle_thr_ns = llround(ms * 1e6);
			break;
		case 'q': o.quiet = 1; break;
		case 'h': usage(); return EXIT_OK;
		case 'V': print_version(); return EXIT_OK;
		default: usage_error("%s", bad_option(argv, longopts));
		}
	}
	if (optind == argc)
		usage_error("no input: name a trace FILE, or - for stdin");
	const char *side[] = {"--size-hist", "--skew-cdf", "--per-volume"}, *sp[] = {size_hist, skew_cdf, per_volume};
	for (unsigned k = 0; k < 3; k++)
		if (sp[k] && !strcmp(sp[k], "-"))
			usage_error("%s -: standard output carries the summary: name a file, not - (/dev/stderr, or /dev/fd/3 "
				    "for a descriptor of your own)", side[k]);
	const char **in, *name;
	cli_trace_check(&o);
	size_t nin = cli_trace_inputs(argv + optind, argc - optind, &o, &in, &name);
	char err[2600];
	/* no side file (nor the summary) replaces the trace or another */
	struct file_uses uses = {0};
	cli_trace_uses(&uses, argv + optind, argc - optind, in, nin);
	for (unsigned k = 0; k < 3; k++)
		if (sp[k])
			file_uses_add(&uses, 1, side[k], sp[k], NULL);
	file_uses_add(&uses, 1, NULL, "-", NULL);
	cli_uses_check(&uses);
	json_t *all = json_array();
	struct outfile out, so[3];
	/* The side files are opened before the trace is read, so that one
	 * that cannot be written is said at once, not after the whole
	 * trace; each is committed when written, removed if not. */
	for (unsigned k = 0; k < 3; k++)
		if (sp[k] && out_open(&so[k], sp[k], err, sizeof(err)))
			die(EXIT_DATA, "%s", err);
	if (out_open(&out, "-", err, sizeof(err)))
		die(EXIT_DATA, "%s", err);
	if (csv)
		fprintf(out.fp, "file,metric,value\n");
	int ncut = 0; /* inputs cut short (an event stream without its end) */
	/* Stopped by a signal: taken once, where the trace's summary is
	 * made; one that comes after (the side files, the summary being
	 * written) is too late to make whole results partial. */
	int stopped = 0;
	char first_cut[600] = "";
	do { /* the one trace (a set of files is one): a block a signal breaks out of */
		const char *path = name;
		struct stats *s = calloc(1, sizeof(*s));
		struct summary m;
		if (!s || pagemap_init(&s->pages, sizeof(struct page)))
			die(EXIT_DATA, "out of memory");
		s->per_volume = per_volume != NULL;
		s->idle_thr_ns = idle_thr_ns;
		struct trace *t = trace_open_set(in, nin, &o, err, sizeof(err));
		if (!t && sig_caught) {
			/* Stopped before its first event: nothing to summarise. */
			stopped = 1;
			if (csv)
				csv_partial(out.fp, path);
			pagemap_free(&s->pages);
			free(s);
			break;
		}
		if (!t)
			die(EXIT_DATA, "%s", err);
		struct ev e;
		int rc = 0;
		while (!sig_caught && (rc = trace_next(t, &e)) > 0) {
			if (e.op >= EV_NOPS)
				die(EXIT_DATA, "%s: zone operation %s at byte %llu: tracestat characterises block "
					       "traces only", trace_member(t), ev_op_name(e.op), (unsigned long long)e.offset);
			if (account(s, &e, psize))
				die(EXIT_DATA, "out of memory counting pages of '%s'", path);
		}
		/* A signal (or the read error it caused) ends the input here:
		 * the summary is of the events counted, marked partial. */
		if (rc < 0 && !sig_caught)
			die(EXIT_DATA, "%s", trace_error(t));
		/* Cut short: the summary of the events read, partial, and
		 * exit 1 at the end. */
		const char *cut = sig_caught ? NULL : trace_cut(t);
		if (cut) {
			warn("%s", cut);
			if (!ncut++)
				snprintf(first_cut, sizeof(first_cut), "%s", cut);
		}
		cli_report_bad(t, path);
		if (!s->events && trace_events_read(t) && !sig_caught)
			warn("%s: the summary is of no event",
			     cli_none_kept(path, &o, trace_events_read(t), err, sizeof(err)));
		if (summarise(s, &m))
			die(EXIT_DATA, "out of memory");
		stopped = sig_caught != 0;
		json_t *j = to_json(path, trace_format(t), trace_bad_count(t), psize, s, &m);
		if (stopped || cut) {
			json_object_set_new(j, "partial", json_true());
			json_object_set_new(j, "partial_reason",
					    cut ? json_string(cut) : json_sprintf("stopped by %s", sig_name(sig_caught)));
		}
		if (csv)
			print_csv(out.fp, j, "", path);
		if (csv && (stopped || cut))
			csv_partial(out.fp, path);
		json_array_append_new(all, j);
		/* The side files describe a whole trace: none when interrupted
		 * or cut short. */
		if (stopped || cut) {
			for (unsigned k = 0; k < 3; k++)
				if (sp[k])
					out_abort(&so[k]);
			size_hist = skew_cdf = per_volume = NULL;
		}
		if (size_hist && write_size_hist(&so[0], path, s, err, sizeof(err)))
			die(EXIT_DATA, "%s", err);
		if (skew_cdf && write_skew_cdf(&so[1], path, s, &m, err, sizeof(err)))
			die(EXIT_DATA, "%s", err);
		if (per_volume && summarise_volumes(s))
			die(EXIT_DATA, "out of memory");
		if (per_volume && write_volumes(&so[2], per_volume, s, psize, err, sizeof(err)))
			die(EXIT_DATA, "%s", err);
		trace_close(t);
		free(m.wcounts);
		pagemap_free(&s->pages);
		free(s->disc);
		free(s->vol);
		free(s->vslot);
		free(s);
	} while (0);
	for (unsigned k = 0; k < 3; k++) /* not written: stopped, or cut short */
		if (sp[k])
			out_abort(&so[k]);
	if (!csv) {
		json_t *root = json_object();
		json_object_set_new(root, "tracestat_version", json_string(FTLKIT_VERSION));
		if (stopped || ncut) {
			json_object_set_new(root, "partial", json_true());
			json_object_set_new(root, "partial_reason",
					    stopped ? json_sprintf("stopped by %s", sig_name(sig_caught))
						       : json_string(first_cut));
		}
		json_object_set_new(root, "traces", all);
		all = NULL;
		/* jansson allocates while dumping too */
		int bad = json_oom || json_dumpf(root, out.fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
							       JSON_REAL_PRECISION(10));
		if (json_oom)
			die(EXIT_DATA, "out of memory");
		if (bad)
			die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
		fputc('\n', out.fp);
		json_decref(root);
	}
	json_decref(all);
	if (out_commit(&out, err, sizeof(err)))
		die(EXIT_DATA, "%s", err);
	if (stopped)
		sig_exit();
	return ncut ? EXIT_DATA : EXIT_OK;
}
