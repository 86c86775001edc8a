/*
 * ftlsim_replay.c - the replay: every event of the trace to the models
 * it belongs to (all of them, or with --per-volume its volume's), in
 * trace order.
 *
 * The reader fills batches of BATCH events, each with the range of
 * models it goes to. With -j 1 the same thread then runs the batch
 * through every model. With -j N > 1 the reader, in the main thread,
 * reads (and a thread of src_async decompresses) ahead into a ring of
 * RING batches for N workers, and waits only when the slowest model is
 * a whole ring behind. When every event goes to every model (shared
 * mode), a worker takes any free model with batches to run and runs it
 * through all of them: the load balances itself. With --per-volume each
 * worker owns a contiguous range of the models (balanced by the pages
 * their volumes write) and runs each batch event by event. No model is
 * run by two workers at once and each sees its events in trace order,
 * so the results do not depend on N. A model that meets an error runs
 * no more; the others run every batch the reader had posted, and the
 * reader reports the earliest failure (event, then model), as the
 * serial replay would meet it. Signals are blocked in the workers: they
 * reach the reader, whose read they interrupt. The progress line reads
 * the models' counters with every worker between two runs.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftlsim.h"

enum { BATCH = 4096, LOOK = 32, RING = 8 };

struct batch {
	struct ev e[BATCH];
	unsigned lo[BATCH], hi[BATCH]; /* the models of each event */
	unsigned n;
	int all;	/* every event goes to every model */
	uint64_t first; /* events before e[0] */
};

struct worker {
	pthread_t th;
	struct replay *r;
	unsigned mlo, mhi;    /* its models */
	uint64_t done;	      /* batches it has run (under r->mu) */
	pthread_mutex_t busy; /* held while it runs a batch */
	int failed;
	uint64_t fail_event;
	unsigned fail_model;
};

struct replay {
	struct sim *s, **m;
	unsigned nm;
	struct batch *b; /* RING of them; batch k in b[k % RING] */
	struct worker *w;
	unsigned nw;
	pthread_mutex_t mu;
	pthread_cond_t posted_cv; /* a batch posted, or the end */
	pthread_cond_t freed_cv;  /* a worker finished a batch */
	uint64_t posted;	  /* batches posted */
	int end;		  /* no more will be */
	int failed;		  /* some worker failed */
	/* Shared mode (every event to every model): a worker takes any
	 * model that is free and behind, and runs it through every batch
	 * posted, so that the load balances itself. Per model: */
	int shared;
	uint64_t *mnext;      /* batches it has run */
	unsigned char *mbusy; /* a worker has it */
	unsigned char *mdead; /* it failed: no more runs */
	unsigned scan;	      /* where the next search for a model starts */
};

/* Prefetch hints for an upcoming event, to the model's device (dev.h):
 * stage 1 the map line, 2 the segment record, 3 its neighbours. */
static void hints(struct sim **m, unsigned mlo, unsigned mhi, const struct batch *b, unsigned k, int stage)
{
	unsigned lo = b->lo[k] > mlo ? b->lo[k] : mlo, hi = b->hi[k] < mhi ? b->hi[k] : mhi;
	for (unsigned i = lo; i < hi; i++)
		if (m[i]->cell.dev)
			m[i]->cell.dops->prefetch(m[i]->cell.dev, &b->e[k], stage);
}

/* run_batch of one model that takes every event (a single run, or a
 * grid's worker with one model): the whole batch to its host layer,
 * whose device prefetches ahead itself. */
static int run_one(struct sim *s, unsigned model, const struct batch *b, uint64_t *fail_event,
		   unsigned *fail_model)
{
	size_t done = s->cell.hops->submit(s->cell.host, b->e, b->n);
	if (done == b->n)
		return 0;
	*fail_event = b->first + done;
	*fail_model = model;
	return -1;
}

/* The batch through models mlo..mhi-1: each event is prefetched in the
 * devices of its models LOOK events before they need it (stage 1),
 * LOOK/2 (2) and LOOK/4 (3). 0, or -1 with the failing
 * event and model (the earliest, as a serial run meets it). */
static int run_batch(struct sim **m, unsigned mlo, unsigned mhi, const struct batch *b, uint64_t *fail_event,
		     unsigned *fail_model)
{
	if (b->all) {
		/* Model by model: each keeps its state in cache through the
		 * batch. The earliest failure (event, then model) is the one a
		 * serial run meets first. */
		int failed = 0;
		for (unsigned i = mlo; i < mhi; i++) {
			uint64_t ev = 0;
			unsigned fm = 0;
			if (m[i]->cell.dev && run_one(m[i], i, b, &ev, &fm) && (!failed || ev < *fail_event)) {
				failed = 1;
				*fail_event = ev;
				*fail_model = fm;
			}
		}
		return failed ? -1 : 0;
	}
	for (unsigned k = 0; k < b->n && k < LOOK; k++)
		hints(m, mlo, mhi, b, k, 1);
	for (unsigned k = 0; k < b->n; k++) {
		if (k + LOOK < b->n)
			hints(m, mlo, mhi, b, k + LOOK, 1);
		if (k + LOOK / 2 < b->n)
			hints(m, mlo, mhi, b, k + LOOK / 2, 2);
		if (k + LOOK / 4 < b->n)
			hints(m, mlo, mhi, b, k + LOOK / 4, 3);
		unsigned lo = b->lo[k] > mlo ? b->lo[k] : mlo, hi = b->hi[k] < mhi ? b->hi[k] : mhi;
		for (unsigned i = lo; i < hi; i++)
			if (m[i]->cell.dev && m[i]->cell.hops->submit(m[i]->cell.host, &b->e[k], 1) != 1) {
				*fail_event = b->first + k;
				*fail_model = i;
				return -1;
			}
	}
	return 0;
}

/* The models of an event: all, or its volume's (none for an unselected one). */
static void models_of(struct sim *s, const struct ev *e, unsigned n, unsigned *lo, unsigned *hi)
{
	*lo = 0, *hi = n;
	if (!s->opt.per_volume)
		return;
	struct vol *v = sim_volume_of(s, e->volume);
	*lo = v && v->selected ? v->model0 : 0;
	*hi = v && v->selected ? v->model0 + v->nmodel : 0;
}

/* A batch from the reader; empty at the end or on a signal. */
static void fill(struct replay *r, struct batch *b, uint64_t first)
{
	b->first = first;
	b->all = !r->s->opt.per_volume;
	b->n = (unsigned)sim_next_events(r->s, b->e, BATCH);
	for (unsigned i = 0; i < b->n; i++)
		models_of(r->s, &b->e[i], r->nm, &b->lo[i], &b->hi[i]);
}

/* A failure the worker met: kept if it is its earliest. */
static void note_failure(struct worker *w, uint64_t ev, unsigned model)
{
	if (!w->failed || ev < w->fail_event || (ev == w->fail_event && model < w->fail_model)) {
		w->fail_event = ev;
		w->fail_model = model;
	}
	w->failed = 1;
}

/* Shared mode: a free model with batches to run, or -1. */
static int free_model(struct replay *r)
{
	for (unsigned c = 0; c < r->nm; c++) {
		unsigned k = (r->scan + c) % r->nm;
		if (!r->mbusy[k] && r->mnext[k] < r->posted)
			return (int)k;
	}
	return -1;
}

static void *worker_shared(struct worker *w)
{
	struct replay *r = w->r;
	pthread_mutex_lock(&r->mu);
	for (;;) {
		int i = free_model(r);
		if (i < 0) {
			if (r->end)
				break; /* what is left is another worker's */
			pthread_cond_wait(&r->posted_cv, &r->mu);
			continue;
		}
		r->scan = (unsigned)i + 1;
		r->mbusy[i] = 1;
		uint64_t from = r->mnext[i], to = r->posted;
		pthread_mutex_unlock(&r->mu);
		pthread_mutex_lock(&w->busy);
		struct sim *mi = r->m[i];
		for (uint64_t k = from; k < to && mi->cell.dev && !r->mdead[i]; k++) {
			uint64_t ev = 0;
			unsigned fm = 0;
			if (run_one(mi, (unsigned)i, &r->b[k % RING], &ev, &fm)) {
				note_failure(w, ev, fm);
				r->mdead[i] = 1;
			}
		}
		pthread_mutex_unlock(&w->busy);
		pthread_mutex_lock(&r->mu);
		r->mnext[i] = to;
		r->mbusy[i] = 0;
		if (r->mdead[i])
			r->failed = 1;
		pthread_cond_signal(&r->freed_cv);
		pthread_cond_broadcast(&r->posted_cv); /* the model may be due again */
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct replay *r = w->r;
	if (r->shared)
		return worker_shared(w);
	pthread_mutex_lock(&r->mu);
	for (;;) {
		while (w->done == r->posted && !r->end)
			pthread_cond_wait(&r->posted_cv, &r->mu);
		if (w->done == r->posted)
			break;
		const struct batch *b = &r->b[w->done % RING];
		pthread_mutex_unlock(&r->mu);
		pthread_mutex_lock(&w->busy);
		int bad = !w->failed && run_batch(r->m, w->mlo, w->mhi, b, &w->fail_event, &w->fail_model);
		pthread_mutex_unlock(&w->busy);
		pthread_mutex_lock(&r->mu);
		if (bad)
			w->failed = r->failed = 1;
		w->done++;
		pthread_cond_signal(&r->freed_cv);
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* The most events read again to say where a failed request lies. */
#define LOCATE_MOST (1ull << 26)

static _Noreturn void request_failed(const struct sim *s, const struct sim *m, uint64_t event)
{
	char label[512], at[1200], where[1100];
	if (m->opt.trim.mode != TRIM_ONLINE) /* a discard it held may fail later, at another event */
		snprintf(at, sizeof(at), "%s: at event %llu (--trim-mode sends discards later: a failing discard may be "
				     "an earlier event's)",
			 s->opt.path, (unsigned long long)event + 1);
	else if (!trace_locate(s->opt.paths, s->opt.npaths, &s->opt.topt, event, LOCATE_MOST, where, sizeof(where)))
		snprintf(at, sizeof(at), "%s (event %llu)", where, (unsigned long long)event + 1);
	else
		snprintf(at, sizeof(at), "%s: event %llu", s->opt.path, (unsigned long long)event + 1);
	if (s->opt.grid.naxes || s->opt.per_volume)
		sim_fail("%s: %s: %s", at, sim_conf_label(s, m, label, sizeof(label)), m->cell.hops->error(m->cell.host));
	sim_fail("%s: %s", at, m->cell.hops->error(m->cell.host));
}

/* The models' work, for the split between workers: the pages their
 * volumes write (1 each without --per-volume). */
static double weight(const struct sim *m)
{
	return m->cell.dev ? 1.0 + (m->cell.vol ? (double)m->cell.vol->write_pages : 0) : 0;
}

static void split(struct replay *r)
{
	double total = 0, acc = 0;
	for (unsigned i = 0; i < r->nm; i++)
		total += weight(r->m[i]);
	unsigned i = 0;
	for (unsigned k = 0; k < r->nw; k++) {
		r->w[k].mlo = i;
		double goal = total * (k + 1) / r->nw;
		while (i < r->nm && (k == r->nw - 1 || acc + weight(r->m[i]) / 2 <= goal))
			acc += weight(r->m[i++]);
		r->w[k].mhi = i;
	}
}

static void start_workers(struct replay *r)
{
	sigset_t all, old;
	unsigned want = r->nw;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->posted_cv, NULL);
	pthread_cond_init(&r->freed_cv, NULL);
	for (unsigned k = 0; k < r->nw; k++)
		pthread_mutex_init(&r->w[k].busy, NULL);
	split(r);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned k = 0; k < r->nw; k++) {
		r->w[k].r = r;
		if (pthread_create(&r->w[k].th, NULL, worker_main, &r->w[k])) {
			for (unsigned i = k; i < want; i++)
				pthread_mutex_destroy(&r->w[i].busy);
			r->nw = k; /* run with those that started */
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!r->nw)
		sim_fail("cannot start a thread");
	if (r->nw < want)
		split(r); /* nothing posted yet: the workers read their ranges later */
}

/* The end posted; every worker has run every batch when this returns. */
static void stop_workers(struct replay *r)
{
	pthread_mutex_lock(&r->mu);
	r->end = 1;
	pthread_cond_broadcast(&r->posted_cv);
	pthread_mutex_unlock(&r->mu);
	for (unsigned k = 0; k < r->nw; k++) {
		pthread_join(r->w[k].th, NULL);
		pthread_mutex_destroy(&r->w[k].busy);
	}
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->posted_cv);
	pthread_cond_destroy(&r->freed_cv);
}

/* After the workers stopped: the earliest failure of any, as a serial
 * run meets it. */
static void check_failures(struct replay *r)
{
	struct worker *first = NULL;
	for (unsigned k = 0; k < r->nw; k++)
		if (r->w[k].failed && (!first || r->w[k].fail_event < first->fail_event ||
				       (r->w[k].fail_event == first->fail_event && r->w[k].fail_model < first->fail_model)))
			first = &r->w[k];
	if (first)
		request_failed(r->s, r->m[first->fail_model], first->fail_event);
}

/* The batches a slot can be refilled after: all workers (shared mode:
 * all models) past it. */
static uint64_t slowest(const struct replay *r)
{
	if (r->shared) {
		uint64_t d = r->mnext[0];
		for (unsigned i = 1; i < r->nm; i++)
			d = r->mnext[i] < d ? r->mnext[i] : d;
		return d;
	}
	uint64_t d = r->w[0].done;
	for (unsigned k = 1; k < r->nw; k++)
		d = r->w[k].done < d ? r->w[k].done : d;
	return d;
}

/* The progress line, with every worker between two batches. */
static void progress_paused(struct replay *r)
{
	struct sim *s = r->s;
	if (sim_now() - s->run.last_progress < s->opt.progress_every)
		return;
	for (unsigned k = 0; k < r->nw; k++)
		pthread_mutex_lock(&r->w[k].busy);
	sim_progress(s, 2);
	for (unsigned k = r->nw; k-- > 0;)
		pthread_mutex_unlock(&r->w[k].busy);
}

/* The reader's side of -j N > 1. */
static void replay_threads(struct replay *r)
{
	struct sim *s = r->s;
	start_workers(r);
	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (slowest(r) + RING <= r->posted)
			pthread_cond_wait(&r->freed_cv, &r->mu);
		int failed = r->failed;
		pthread_mutex_unlock(&r->mu);
		if (failed)
			break;
		struct batch *b = &r->b[r->posted % RING];
		fill(r, b, s->in.events);
		if (!b->n)
			break;
		pthread_mutex_lock(&r->mu);
		r->posted++;
		pthread_cond_broadcast(&r->posted_cv);
		pthread_mutex_unlock(&r->mu);
		uint64_t before = s->in.events;
		s->in.events += b->n;
		if (s->opt.progress_every > 0 && (before >> 16) != (s->in.events >> 16))
			progress_paused(r);
	}
	stop_workers(r);
	check_failures(r);
}

static void after_batch(struct replay *r, const struct batch *b)
{
	struct sim *s = r->s;
	uint64_t before = s->in.events;
	s->in.events += b->n;
	if (s->opt.progress_every > 0 && (before >> 16) != (s->in.events >> 16))
		sim_progress(s, 2);
}

void sim_replay(struct sim *s, struct sim **m, unsigned nm)
{
	struct replay r = {.s = s, .m = m, .nm = nm};
	unsigned j = sim_threads(s, nm);
	s->run.pass_t0 = sim_now();
	if (j == 1 || !nm) {
		/* one thread reads and runs every model */
		if (!(r.b = malloc(sizeof(*r.b))))
			sim_fail("out of memory");
		for (;;) {
			fill(&r, &r.b[0], s->in.events);
			if (!r.b[0].n)
				break;
			uint64_t ev;
			unsigned fm;
			if (run_batch(m, 0, nm, &r.b[0], &ev, &fm))
				request_failed(s, m[fm], ev);
			after_batch(&r, &r.b[0]);
		}
	} else {
		r.nw = j < nm ? j : nm;
		r.shared = !s->opt.per_volume;
		if (!(r.b = malloc(RING * sizeof(*r.b))) || !(r.w = calloc(r.nw, sizeof(*r.w))) ||
		    !(r.mnext = calloc(nm, sizeof(*r.mnext))) || !(r.mbusy = calloc(nm, 1)) ||
		    !(r.mdead = calloc(nm, 1)))
			sim_fail("out of memory");
		replay_threads(&r);
		free(r.w);
		free(r.mnext);
		free(r.mbusy);
		free(r.mdead);
	}
	free(r.b);
	if (s->in.t) {
		s->in.bad_skipped = trace_bad_count(s->in.t);
		char err[1200];
		if (!s->in.bad_said)
			cli_report_bad(s->in.t, s->opt.path);
		else if (cli_all_bad(s->in.t, s->opt.path, err, sizeof(err)))
			sim_fail("%s", err);
		/* --volume V of a trace without V (a logical space given: no
		 * first pass to find it empty) */
		if (!sim_interrupted && !s->opt.per_volume && s->opt.topt.volume >= 0 && !s->in.events &&
		    trace_events_read(s->in.t))
			sim_fail_none_kept(s->opt.path, &s->opt.topt, trace_events_read(s->in.t));
	}
	if (s->run.progress_shown)
		fputc('\n', stderr);
	if (s->in.volumes_mixed && !sim_interrupted && !s->opt.per_volume)
		warn("%s: events of several volumes share one logical space (choose one with --volume)",
		     s->opt.path);
}

unsigned sim_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)(n < 256 ? n : 256) : 1;
}
