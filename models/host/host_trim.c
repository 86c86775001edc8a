/*
 * host_trim.c - the TRIM host (host_trim.h): when and how the trace's
 * discards reach the device, and the leak, pages the host has discarded
 * (and not written again) that the device still holds valid.
 *
 * Events other than discards go to the device as they come, in runs
 * (the device prefetches within a run). A discard ends the run before
 * it: the host marks its whole pages, then sends it (online), or holds
 * it (batch, delay). What is sent passes the block layer's rules:
 * aligned to the granularity, split at the maximum, each piece lost
 * with the seeded probability.
 *
 * The leak is counted, not recounted: a bit per logical page (leak)
 * says the host discarded the page while the device held it valid. It
 * is set when the trace discards a valid page, cleared when the page is
 * written again or when a discard sent to the device unmaps it. Nothing
 * else changes whether a discarded page is valid (GC moves pages; the
 * fill runs before the trace), but a zoned device's reset, which
 * empties its zone: the zone's bits are recounted after it. A write
 * that clears a bit also ends the run before it, so that a curve row
 * written while the device runs a write sees the leak of that moment.
 *
 * Held pages (batch, delay): since[lpn] is the sequence number of the
 * first discard of the page since it was last written or sent (0: not
 * held). A batch sends every held page; a delayed discard X sends the
 * pages it covers whose since[] is at most X's number, that is, not
 * written since X came (a page written and discarded again is the
 * later discard's); a page sent is no longer held.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"
#include "host_trim.h"
#include "rng.h"

/* A held discard: batch, the whole pages [lo, hi); delay, the bytes
 * [lo, hi) and when it is due. */
struct held {
	int64_t due;
	uint64_t lo, hi;
	uint32_t seq;
};

struct host {
	struct dev *d;
	const struct dev_ops *dops;
	struct trim_config c;
	uint32_t P;	   /* page size */
	uint64_t U;	   /* the device's logical pages */
	uint64_t zpages;   /* a zoned device's zone (a reset empties it), else 0 */
	int64_t span_ns;   /* the period or the delay */
	uint64_t cap;	   /* the longest piece: an event's length is 32 bits */
	uint64_t *leak;	   /* a bit per logical page (allocated at the first discard) */
	uint32_t *since;   /* batch, delay: per logical page */
	struct held *q;	   /* batch: a list; delay: a ring, oldest at qh */
	size_t qh, qn, qcap;
	uint32_t seq;	   /* delay: the last discard's number */
	int started;	   /* an event seen */
	int64_t next_flush; /* batch: the next multiple of the period */
	int64_t t_last;	   /* the trace's latest time */
	double area;	   /* the leak each page write found, summed */
	uint64_t wpages;   /* the pages the trace's writes touch */
	uint32_t volume;   /* of the last discard: the volume of what is sent */
	struct rng rng;
	struct host_stats st;
	char err[256];
};

/*
 * The configuration.
 */

void trim_config_default(struct trim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->mode = TRIM_ONLINE;
	c->seed = 1;
}

static int set_mode(struct trim_config *c, const char *val, char *err, size_t n)
{
	double s;
	if (!strcmp(val, "online")) {
		c->mode = TRIM_ONLINE;
		c->seconds = 0;
		return 0;
	}
	int batch = !strncmp(val, "batch:", 6), delay = !strncmp(val, "delay:", 6);
	if ((batch || delay) && !parse_double(val + 6, &s) && (batch ? s > 0 : s >= 0) && s <= 1e9) {
		c->mode = batch ? TRIM_BATCH : TRIM_DELAY;
		c->seconds = s;
		return 0;
	}
	return set_err(err, n, "--trim-mode takes online, batch:SECONDS (SECONDS > 0) or delay:SECONDS "
			       "(SECONDS >= 0), of the trace's time, up to 1e9, not '%s'", val);
}

/* 0 (none), or a multiple of 512 bytes up to hi. */
static int set_bytes(uint64_t *out, const char *opt, const char *val, uint64_t hi, char *err, size_t n)
{
	uint64_t v;
	if (parse_size(val, &v) || (v && (v % 512 || v > hi)))
		return set_err(err, n, "%s takes bytes, a multiple of 512 up to %llu (e.g. 64K; 0: none), not '%s'",
			       opt, (unsigned long long)hi, val);
	*out = v;
	return 0;
}

int trim_config_set(struct trim_config *c, const char *key, const char *val, char *err, size_t n)
{
	if (!strcmp(key, "trim-mode"))
		return set_mode(c, val, err, n);
	if (!strcmp(key, "discard-granularity"))
		return set_bytes(&c->granularity, "--discard-granularity", val, 1ull << 40, err, n);
	if (!strcmp(key, "discard-max"))
		return set_bytes(&c->max, "--discard-max", val, TRIM_MAX_BYTES, err, n);
	if (!strcmp(key, "trim-loss")) {
		double p;
		if (parse_double(val, &p) || !(p >= 0 && p <= 1))
			return set_err(err, n, "--trim-loss takes a share from 0 to 1, not '%s'", val);
		c->loss = p;
		return 0;
	}
	if (!strcmp(key, "seed"))
		return parse_u64(val, &c->seed) ? set_err(err, n, "--seed takes an integer, not '%s'", val) : 0;
	return set_err(err, n, "the TRIM host has no setting '%s'", key);
}

int trim_config_check(const struct trim_config *c, char *err, size_t n)
{
	if (c->granularity && c->max && c->max % c->granularity)
		return set_err(err, n, "--discard-max %llu is not a multiple of --discard-granularity %llu (the "
				       "block layer splits a discard at aligned boundaries)",
			       (unsigned long long)c->max, (unsigned long long)c->granularity);
	return 0;
}

const char *trim_mode_name(const struct trim_config *c, char *buf, size_t n)
{
	if (c->mode == TRIM_ONLINE)
		snprintf(buf, n, "online");
	else
		snprintf(buf, n, "%s:%g", c->mode == TRIM_BATCH ? "batch" : "delay", c->seconds);
	return buf;
}

int trim_config_format(const struct trim_config *c, char *buf, size_t n)
{
	char mode[64];
	if (c->mode == TRIM_ONLINE)
		snprintf(mode, sizeof(mode), "online");
	else
		snprintf(mode, sizeof(mode), "%s:%.17g", c->mode == TRIM_BATCH ? "batch" : "delay", c->seconds);
	int k = snprintf(buf, n, "trim-mode=%s,discard-granularity=%llu,discard-max=%llu,trim-loss=%.17g,seed=%llu",
			 mode, (unsigned long long)c->granularity, (unsigned long long)c->max, c->loss,
			 (unsigned long long)c->seed);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int trim_key(void *ctx, const char *k, const char *v, char *err, size_t n)
{
	return trim_config_set(ctx, k, v, err, n);
}

int trim_config_parse(struct trim_config *c, const char *spec, char *err, size_t n)
{
	trim_config_default(c);
	if (spec && kv_parse("the TRIM host's spec", spec, 0, trim_key, c, err, n))
		return -1;
	return trim_config_check(c, err, n);
}

/*
 * The pages' state.
 */

static inline int bit(const uint64_t *b, uint32_t i) { return (int)(b[i >> 6] >> (i & 63) & 1); }
static inline void bit_set(uint64_t *b, uint32_t i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *b, uint32_t i) { b[i >> 6] &= ~(1ull << (i & 63)); }

/* The whole pages of bytes [a, b). */
static inline void whole(const struct host *h, uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
	*lo = a / h->P + (a % h->P != 0);
	*hi = b / h->P;
	if (*hi < *lo)
		*hi = *lo;
}

static inline uint64_t nwhole(const struct host *h, uint64_t a, uint64_t b)
{
	uint64_t lo, hi;
	whole(h, a, b, &lo, &hi);
	return hi - lo;
}

static int oom(struct host *h)
{
	snprintf(h->err, sizeof(h->err), "out of memory (the TRIM host's page state)");
	return -1;
}

uint64_t trim_host_bytes(const struct trim_config *c, uint64_t U, uint64_t n, int64_t span_ns)
{
	uint64_t b = sizeof(struct host);
	if (!U)
		return b;
	b += (U + 63) / 64 * sizeof(uint64_t);
	if (c->mode == TRIM_ONLINE)
		return b;
	b += U * sizeof(uint32_t);
	/* held at once: those of one period (one delay), the list doubled
	 * from 256 as it fills (hold) */
	double at_once = span_ns > 0 && c->seconds * 1e9 < (double)span_ns ? (double)n * c->seconds * 1e9 / (double)span_ns
									   : (double)n;
	uint64_t cap = 0;
	while ((double)cap < at_once)
		cap = cap ? 2 * cap : 256;
	return b + cap * sizeof(struct held);
}

static int alloc_state(struct host *h)
{
	if (h->leak)
		return 0;
	size_t words = (size_t)((h->U + 63) / 64);
	if (!(h->leak = calloc(words ? words : 1, sizeof(uint64_t))))
		return oom(h);
	h->st.mem_bytes += words * sizeof(uint64_t);
	if (h->c.mode != TRIM_ONLINE) {
		if (!(h->since = calloc(h->U ? h->U : 1, sizeof(uint32_t))))
			return oom(h);
		h->st.mem_bytes += h->U * sizeof(uint32_t);
	}
	return 0;
}

/* The peak: the largest leak an event of the trace finds (what was due
 * before it sent: a discard held for no time, as by delay:0, is not
 * found), or the trace's end (before the end's sending). Counted by
 * events and page writes, not time, so that a replay from standard
 * input's buffer (no times) finds the same (online). */
static void peak(struct host *h)
{
	if (h->st.leak_pages > h->st.leak_peak)
		h->st.leak_peak = h->st.leak_pages;
}

/* The trace's time is t: the first boundary of a batch set, the latest
 * time kept. */
static void advance(struct host *h, int64_t t)
{
	if (!h->started) {
		h->started = 1;
		h->t_last = t;
		if (h->c.mode == TRIM_BATCH) {
			int64_t k = t / h->span_ns - (t % h->span_ns < 0);
			h->next_flush = (k + 1) * h->span_ns;
		}
		return;
	}
	if (t > h->t_last)
		h->t_last = t;
}

/* After a discard of the pages [lo, hi) reached the device: the leaked
 * ones it unmapped leave the leak. */
static void recount(struct host *h, uint64_t lo, uint64_t hi)
{
	for (uint64_t p = lo; p < hi && h->st.leak_pages; p++) {
		uint32_t l;
		if (!h->dops->mapped(h->d, p, &l) && bit(h->leak, l)) {
			bit_clear(h->leak, l);
			h->st.leak_pages--;
		}
	}
}

/* Bytes [a, b) at time t through the block layer: aligned, split, each
 * piece lost or sent. tmpl: the event the pieces copy (op, time and
 * range set here). */
static int send(struct host *h, const struct ev *tmpl, int64_t t, uint64_t a, uint64_t b)
{
	const struct trim_config *c = &h->c;
	struct ev e = *tmpl;
	e.op = EV_DISCARD;
	e.t_ns = t;
	if (!c->granularity && !c->loss && b - a <= h->cap && (!c->max || b - a <= c->max)) {
		/* one piece as it is (a zero length too: the device counts it) */
		e.offset = a;
		e.length = (uint32_t)(b - a);
		h->st.out[EV_DISCARD]++;
		if (h->dops->submit(h->d, &e, 1) != 1)
			return -1;
		uint64_t lo, hi;
		whole(h, a, b, &lo, &hi);
		recount(h, lo, hi);
		return 0;
	}
	if (c->granularity) {
		uint64_t g = c->granularity, a2 = a % g ? (a / g + 1) * g : a, b2 = b / g * g;
		if (a % g && a2 < a) /* past 2^64 */
			a2 = b2;
		if (b2 <= a2) {
			h->st.discards_dropped++;
			h->st.discard_pages_dropped += nwhole(h, a, b);
			return 0;
		}
		h->st.discard_pages_dropped += nwhole(h, a, b) - nwhole(h, a2, b2);
		a = a2, b = b2;
	}
	uint64_t piece = c->max && c->max < h->cap ? c->max : h->cap;
	if (c->max && b - a > c->max)
		h->st.discards_split++;
	uint64_t x = a, y;
	do { /* (an empty range is one empty piece) */
		y = b - x > piece ? x + piece : b;
		if (c->loss > 0 && (c->loss >= 1 || rng_unit(&h->rng) < c->loss)) {
			h->st.discards_lost++;
			h->st.discard_pages_lost += nwhole(h, x, y);
			continue; /* (to the loop's test) */
		}
		e.offset = x;
		e.length = (uint32_t)(y - x);
		h->st.out[EV_DISCARD]++;
		if (h->dops->submit(h->d, &e, 1) != 1)
			return -1;
		uint64_t lo, hi;
		whole(h, x, y, &lo, &hi);
		recount(h, lo, hi);
	} while ((x = y) < b);
	return 0;
}

/* The host discards the whole pages [lo, hi): those the device holds
 * valid join the leak; batch and delay hold them (number seq). */
static void mark(struct host *h, uint64_t lo, uint64_t hi, uint32_t seq)
{
	h->st.discard_pages += hi - lo;
	for (uint64_t p = lo; p < hi; p++) {
		uint32_t l;
		int v = h->dops->mapped(h->d, p, &l);
		if (v < 0)
			continue;
		if (v && !bit(h->leak, l)) {
			bit_set(h->leak, l);
			h->st.leak_pages++;
		}
		if (h->since && !h->since[l]) {
			h->since[l] = seq;
			h->st.discard_pages_pending++;
		}
	}
}

/* Is page p held for a discard numbered seq (0: any)? It is then no
 * longer held. A page outside the device's space has no state: sent. */
static int take(struct host *h, uint64_t p, uint32_t seq)
{
	uint32_t l;
	if (h->dops->mapped(h->d, p, &l) < 0)
		return 1;
	uint32_t s = h->since[l];
	if (!s || (seq && s > seq))
		return 0;
	h->since[l] = 0;
	h->st.discard_pages_pending--;
	return 1;
}

/* The held pages of [lo, hi) (those of discard seq; 0: any) sent in
 * runs at time t; a run at an end of the range reaches the range's own
 * bytes there (a, b: a delayed discard's unaligned head and tail). */
static int send_held(struct host *h, int64_t t, uint64_t lo, uint64_t hi, uint32_t seq, uint64_t a, uint64_t b)
{
	struct ev tmpl = {.volume = h->volume};
	uint64_t r0 = lo;
	for (uint64_t p = lo; p <= hi; p++) {
		if (p < hi && take(h, p, seq))
			continue;
		if (p > r0 && send(h, &tmpl, t, r0 == lo ? a : r0 * h->P, p == hi ? b : p * h->P))
			return -1;
		r0 = p + 1;
	}
	return 0;
}

static int cmp_held(const void *x, const void *y)
{
	const struct held *a = x, *b = y;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Batch: the list sorted and its overlapping ranges merged. */
static void merge(struct host *h)
{
	qsort(h->q, h->qn, sizeof(*h->q), cmp_held);
	size_t k = 0;
	for (size_t i = 0; i < h->qn; i++) {
		if (k && h->q[i].lo <= h->q[k - 1].hi) {
			if (h->q[i].hi > h->q[k - 1].hi)
				h->q[k - 1].hi = h->q[i].hi;
		} else {
			h->q[k++] = h->q[i];
		}
	}
	h->qn = k;
}

/* Batch: every held page goes, at time t. */
static int flush(struct host *h, int64_t t)
{
	if (!h->qn)
		return 0;
	h->st.batches++;
	merge(h);
	for (size_t i = 0; i < h->qn; i++)
		if (send_held(h, t, h->q[i].lo, h->q[i].hi, 0, h->q[i].lo * h->P, h->q[i].hi * h->P))
			return -1;
	h->qn = 0;
	return 0;
}

/* Delay: the oldest held discard goes, at its time, or (at_end) at the
 * trace's end when that comes first. */
static int release(struct host *h, int at_end)
{
	struct held x = h->q[h->qh];
	if (at_end && x.due > h->t_last)
		x.due = h->t_last;
	h->qh = (h->qh + 1) % h->qcap;
	h->qn--;
	uint64_t lo, hi;
	whole(h, x.lo, x.hi, &lo, &hi);
	if (hi == lo) { /* no whole page: as it came */
		struct ev tmpl = {.volume = h->volume};
		return send(h, &tmpl, x.due, x.lo, x.hi);
	}
	return send_held(h, x.due, lo, hi, x.seq, x.lo, x.hi);
}

/* Room for one more held discard (the ring kept in order). */
static int room(struct host *h)
{
	if (h->qn < h->qcap)
		return 0;
	if (h->c.mode == TRIM_BATCH && h->qn) {
		merge(h); /* the list, compacted first */
		if (h->qn <= h->qcap / 2)
			return 0;
	}
	size_t cap = h->qcap ? 2 * h->qcap : 256;
	struct held *q = malloc(cap * sizeof(*q));
	if (!q)
		return oom(h);
	for (size_t i = 0; i < h->qn; i++)
		q[i] = h->q[(h->qh + i) % (h->qcap ? h->qcap : 1)];
	free(h->q);
	h->st.mem_bytes += (cap - h->qcap) * sizeof(*q);
	h->q = q;
	h->qh = 0;
	h->qcap = cap;
	return 0;
}

/* Delay: the numbers renewed before they wrap (the held ones are the
 * discards in the ring, numbered in a row from its oldest). */
static void renumber(struct host *h)
{
	uint32_t base = h->qn ? h->q[h->qh].seq - 1 : h->seq;
	for (uint64_t l = 0; l < h->U; l++)
		if (h->since[l])
			h->since[l] -= base;
	for (size_t i = 0; i < h->qn; i++)
		h->q[(h->qh + i) % h->qcap].seq -= base;
	h->seq -= base;
}

/* A discard of the trace. */
static int discard(struct host *h, const struct ev *e)
{
	if (alloc_state(h))
		return -1;
	h->volume = e->volume;
	uint64_t lo, hi;
	int wraps = e->offset > UINT64_MAX - e->length;
	if (wraps) /* past 2^64: the device's to refuse */
		lo = hi = 0;
	else
		whole(h, e->offset, e->offset + e->length, &lo, &hi);
	if (h->c.mode == TRIM_ONLINE || wraps) {
		mark(h, lo, hi, 0);
		if (wraps) {
			h->st.out[EV_DISCARD]++;
			return h->dops->submit(h->d, e, 1) == 1 ? 0 : -1;
		}
		return send(h, e, e->t_ns, e->offset, e->offset + e->length);
	}
	h->st.discards_held++;
	if (h->c.mode == TRIM_DELAY && h->seq == UINT32_MAX - 1)
		renumber(h);
	uint32_t seq = h->c.mode == TRIM_DELAY ? ++h->seq : 1;
	mark(h, lo, hi, seq);
	if (h->c.mode == TRIM_BATCH && hi == lo)
		return 0; /* nothing a batch would send */
	if (room(h))
		return -1;
	struct held x = {.due = e->t_ns + h->span_ns, .seq = seq};
	if (h->c.mode == TRIM_BATCH)
		x.lo = lo, x.hi = hi;
	else
		x.lo = e->offset, x.hi = e->offset + e->length;
	h->q[(h->qh + h->qn++) % h->qcap] = x;
	return 0;
}

/* Does write e touch a page in the leak or held? */
static int touches(const struct host *h, const struct ev *e)
{
	uint64_t lo, hi;
	ev_pages(e, h->P, &lo, &hi);
	for (uint64_t p = lo; p < hi; p++) {
		uint32_t l;
		if (h->dops->mapped(h->d, p, &l) >= 0 && (bit(h->leak, l) || (h->since && h->since[l])))
			return 1;
	}
	return 0;
}

/* Write e's pages leave the leak, and are no longer held. */
static void rewrite(struct host *h, const struct ev *e)
{
	uint64_t lo, hi;
	ev_pages(e, h->P, &lo, &hi);
	for (uint64_t p = lo; p < hi; p++) {
		uint32_t l;
		if (h->dops->mapped(h->d, p, &l) < 0)
			continue;
		if (bit(h->leak, l)) {
			bit_clear(h->leak, l);
			h->st.leak_pages--;
		}
		if (h->since && h->since[l]) {
			h->since[l] = 0;
			h->st.discard_pages_pending--;
			h->st.discard_pages_rewritten++;
		}
	}
}

/* Events e[from, to) to the device as they are: 0, or -1 with the
 * index of the one that failed in *fail. */
static int run(struct host *h, const struct ev *e, size_t from, size_t to, size_t *fail)
{
	if (to <= from)
		return 0;
	size_t k = h->dops->submit(h->d, e + from, to - from);
	if (k == to - from)
		return 0;
	*fail = from + k;
	return -1;
}

/* What is due before an event at time t: 1 (*at: batch, the
 * boundary), else 0. */
static int due(struct host *h, int64_t t, int64_t *at)
{
	if (h->c.mode == TRIM_DELAY)
		return h->qn && h->q[h->qh].due <= t;
	if (h->c.mode != TRIM_BATCH || !h->started || t < h->next_flush)
		return 0;
	int64_t k = t / h->span_ns - (t % h->span_ns < 0);
	*at = k * h->span_ns;
	h->next_flush = *at + h->span_ns;
	return h->qn > 0;
}

static int send_due(struct host *h, int64_t t, int64_t at)
{
	if (h->c.mode == TRIM_BATCH)
		return flush(h, at);
	while (h->qn && h->q[h->qh].due <= t) {
		if (release(h, 0))
			return -1;
	}
	return 0;
}

/* An event passed on: the trace's time, and a write's pages with the
 * leak it finds (for the mean). */
static inline void passed(struct host *h, const struct ev *x, unsigned op)
{
	advance(h, x->t_ns);
	if (op == EV_WRITE) {
		uint64_t lo, hi;
		ev_pages(x, h->P, &lo, &hi);
		if (h->st.leak_pages) /* (adding 0 leaves the sum as it is) */
			h->area += (double)h->st.leak_pages * (double)(hi - lo);
		h->wpages += hi - lo;
	}
}

static size_t trim_submit(struct host *h, const struct ev *e, size_t n)
{
	size_t from = 0, fail = 0, k = 0;
	int64_t at = 0;
	if (h->c.mode == TRIM_ONLINE && !h->st.leak_pages && !h->st.discard_pages_pending) {
		/* Online with nothing leaked or held (the default): each event
		 * up to the first discard passes as it is, what the loop below
		 * does for it without its tests. */
		for (; k < n; k++) {
			const struct ev *x = &e[k];
			unsigned op = x->op;
			if (op == EV_DISCARD || op >= EV_NOPS_ALL)
				break;
			h->st.in[op]++;
			h->st.out[op]++;
			passed(h, x, op);
		}
		if (k == n)
			return run(h, e, 0, n, &fail) ? fail : n;
	}
	for (; k < n; k++) {
		const struct ev *x = &e[k];
		unsigned op = x->op < EV_NOPS_ALL ? x->op : EV_NOPS_ALL;
		if (op < EV_NOPS_ALL)
			h->st.in[op]++;
		if (due(h, x->t_ns, &at)) {
			if (run(h, e, from, k, &fail))
				return fail;
			from = k;
			if (send_due(h, x->t_ns, at))
				return k;
		}
		passed(h, x, op);
		peak(h);
		if (op == EV_DISCARD) {
			if (run(h, e, from, k, &fail))
				return fail;
			from = k + 1;
			if (discard(h, x))
				return k;
			continue;
		}
		if (op < EV_NOPS_ALL)
			h->st.out[op]++;
		if (op == EV_ZONE_RESET && h->zpages && h->st.leak_pages) {
			/* the zone emptied: its pages leave the leak */
			if (run(h, e, from, k + 1, &fail))
				return fail;
			from = k + 1;
			uint64_t z0 = x->offset / h->P / h->zpages * h->zpages;
			recount(h, z0, z0 + h->zpages < h->U ? z0 + h->zpages : h->U);
			continue;
		}
		if (op == EV_WRITE && (h->st.leak_pages || h->st.discard_pages_pending) && touches(h, x)) {
			if (run(h, e, from, k, &fail))
				return fail;
			from = k;
			rewrite(h, x);
		}
	}
	return run(h, e, from, n, &fail) ? fail : n;
}

/* The end of the trace: a batch's last run (at the trace's last time),
 * the delayed discards still held at that time too (the file system
 * sends what it holds when the trace ends, as a batch's last run: the
 * lag would only add idle time after the trace to the run's). */
static int trim_end(struct host *h)
{
	if (h->c.mode == TRIM_DELAY && send_due(h, h->t_last, 0))
		return -1;
	peak(h);
	if (h->c.mode == TRIM_BATCH)
		return flush(h, h->t_last);
	while (h->qn)
		if (release(h, 1))
			return -1;
	return 0;
}

static int trim_idle(struct host *h, uint64_t until_ns) { return h->dops->idle(h->d, until_ns); }

/* An ageing trace (--precondition-trace) through the layer, as the
 * measured trace goes: its discards held, aligned, split and lost by
 * the same rules, what it still holds at its end sent then, as at a
 * trace's end. Afterwards the counts restart with the device's; the
 * state stays (the leak it left, the pages the device still holds that
 * the host discarded), and the measured trace's time starts afresh (a
 * batch's boundaries from its own first event). */
static int trim_age(struct host *h, int begin)
{
	if (begin) {
		h->started = 0;
		return h->dops->age(h->d, begin);
	}
	if (trim_end(h) || h->dops->age(h->d, 0))
		return -1;
	uint64_t leak = h->st.leak_pages, mem = h->st.mem_bytes;
	memset(&h->st, 0, sizeof(h->st));
	h->st.leak_pages = leak;
	h->st.mem_bytes = mem;
	h->area = 0;
	h->wpages = 0;
	h->started = 0;
	h->t_last = 0;
	h->next_flush = 0;
	return 0;
}

static void trim_stats(const struct host *h, struct host_stats *st)
{
	*st = h->st;
	st->leak_known = 1;
	st->leak_mean = h->wpages ? h->area / (double)h->wpages : -1;
}

static const char *trim_error(const struct host *h) { return h->err[0] ? h->err : h->dops->error(h->d); }

static void trim_close(struct host *h)
{
	if (!h)
		return;
	free(h->leak);
	free(h->since);
	free(h->q);
	free(h);
}

static struct host *trim_open(const char *spec, struct dev *d, const struct dev_ops *dops, char *err, size_t n)
{
	struct trim_config c;
	if (trim_config_parse(&c, spec, err, n))
		return NULL;
	if (!dops->mapped) {
		set_err(err, n, "device '%s' cannot say which pages it holds (dev_ops.mapped): the TRIM host needs it",
			dops->name);
		return NULL;
	}
	struct host *h = calloc(1, sizeof(*h));
	if (!h) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	struct dev_stats st;
	dops->stats(d, &st);
	h->d = d;
	h->dops = dops;
	h->c = c;
	h->P = st.page_size;
	h->U = st.logical_pages;
	if (st.flags & DEV_ZONED)
		h->zpages = st.pages_per_seg;
	h->span_ns = (int64_t)llround(c.seconds * 1e9);
	if (c.mode == TRIM_BATCH && h->span_ns < 1)
		h->span_ns = 1;
	uint64_t unit = c.granularity ? c.granularity : h->P;
	h->cap = UINT32_MAX / unit * unit;
	if (!h->cap)
		h->cap = UINT32_MAX;
	rng_seed(&h->rng, c.seed ^ 0x7472696d6c6f7373ull); /* "trimloss": not the model's stream */
	h->st.mem_bytes = sizeof(*h);
	return h;
}

const struct host_ops host_trim_ops = {
	.name = "trim",
	.open = trim_open,
	.submit = trim_submit,
	.idle = trim_idle,
	.end = trim_end,
	.age = trim_age,
	.stats = trim_stats,
	.error = trim_error,
	.close = trim_close,
};
