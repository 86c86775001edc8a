/*
 * ftlsim_input.c - ftlsim's input passes. With a given logical space
 * the trace is read once; with --logical-space extent or footprint a
 * first pass measures the space and a second replays the trace (standard
 * input is buffered in memory for the second pass, 16 bytes an event),
 * unless --footprints FILE gives the first pass's figures
 * (ftlsim_footprints.c): then the trace is read once, stdin too.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ftlsim.h"
#include "place.h"

void sim_open_trace(struct sim *s)
{
	char err[1024];
	s->topt.async = sim_threads(s, 1) > 1; /* with threads, decompression in its own */
	s->t = trace_open_set(s->paths, s->npaths, &s->topt, err, sizeof(err));
	if (!s->t && sim_interrupted)
		return; /* a signal stopped the opening read: no event, the caller stops */
	if (!s->t)
		sim_fail("%s", err);
	s->format = trace_format(s->t);
	s->topt.quiet = 1; /* a second opening says nothing */
	s->topt.reopen = 1;
}

/* Threads cost a few milliseconds of CPU a run (and a few MiB): by
 * default (no -j) a file whose size times the models is under
 * SMALL_INPUT bytes runs in one thread. */
#define SMALL_INPUT (4u << 20)

unsigned sim_threads(const struct sim *s, unsigned nm)
{
	struct stat st;
	uint64_t bytes;
	if (s->jobs <= 1 || s->jobs_given)
		return s->jobs ? s->jobs : 1;
	if (s->from_buf)
		bytes = (uint64_t)s->nbuf * sizeof(*s->buf);
	else if (strcmp(s->path, "-") && !stat(s->path, &st) && S_ISREG(st.st_mode))
		bytes = (uint64_t)st.st_size;
	else
		return s->jobs; /* a pipe, a blktrace set: size unknown */
	return bytes * (nm ? nm : 1) < SMALL_INPUT ? 1 : s->jobs;
}

/* Pass 1 keeps standard input for pass 2. */
static int buffered(const struct sim *s)
{
	return !strcmp(s->path, "-");
}

/* 1 event, 0 end. Errors end the program. */
int sim_next_event(struct sim *s, struct ev *e)
{
	if (s->from_buf) {
		if (s->next >= s->nbuf)
			return 0;
		const struct cev *c = &s->buf[s->next];
		*e = (struct ev){.t_ns = s->buf_t ? s->buf_t[s->next] : 0,
				 .offset = c->offset,
				 .length = c->length,
				 .op = c->op,
				 .temp = c->temp,
				 .stream = c->stream,
				 .hint = c->hint};
		s->next++;
		return 1;
	}
	if (!s->t)
		return 0; /* its opening stopped by a signal */
	int rc = trace_next(s->t, e);
	if (rc < 0 && sim_interrupted)
		return 0; /* a signal stopped a blocked read: the caller stops */
	if (rc < 0)
		sim_fail("%s", trace_error(s->t));
	if (!rc && !s->cut[0] && trace_cut(s->t)) /* the summary is partial, the exit 1 */
		snprintf(s->cut, sizeof(s->cut), "%s", trace_cut(s->t));
	if (s->fp_live && rc)
		sim_footprints_event(s, e);
	else if (s->fp_live && !sim_interrupted && !s->cut[0]) /* a cut input is said so, not compared */
		sim_footprints_end(s);
	if (rc && !s->have_volume0) {
		s->volume0 = e->volume;
		s->have_volume0 = 1;
	} else if (rc && e->volume != s->volume0) {
		s->volumes_mixed = 1;
	}
	return rc;
}

static void buffer_event(struct sim *s, const struct ev *e)
{
	if (s->nbuf == s->capbuf) {
		s->capbuf = s->capbuf ? 2 * s->capbuf : 1 << 16;
		struct cev *nb = realloc(s->buf, s->capbuf * sizeof(*nb));
		if (!nb)
			sim_fail("out of memory buffering %zu events from standard input", s->nbuf);
		s->buf = nb;
		if (s->timing) { /* a device in time replays the times too */
			int64_t *nt = realloc(s->buf_t, s->capbuf * sizeof(*nt));
			if (!nt)
				sim_fail("out of memory buffering %zu events from standard input", s->nbuf);
			s->buf_t = nt;
		}
	}
	if (s->buf_t)
		s->buf_t[s->nbuf] = e->t_ns;
	s->buf[s->nbuf++] = (struct cev){.offset = e->offset,
					      .length = e->length,
					      .op = e->op,
					      .hint = e->hint,
					      .temp = e->temp,
					      .stream = e->stream};
}

int sim_needs_pass1(struct sim *const *m, unsigned n)
{
	if (m[0]->per_volume)
		return 1;
	for (unsigned i = 0; i < n; i++)
		if (m[i]->space != SPACE_GIVEN)
			return 1;
	return 0;
}

/* The models that measure a space in pass 1: the first of each distinct
 * (kind, page size); the others share its result (and footprint map). */
static unsigned space_owners(struct sim **m, unsigned n, struct sim **own)
{
	unsigned no = 0;
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->space == SPACE_GIVEN)
			continue;
		unsigned j = 0;
		while (j < no && !(own[j]->space == m[i]->space && own[j]->cfg.page_size == m[i]->cfg.page_size))
			j++;
		m[i]->space_owner = own[j];
		if (j < no)
			continue;
		own[no++] = m[i]->space_owner = m[i];
		m[i]->max_end = 0;
		if (m[i]->space == SPACE_FOOTPRINT && ftl_pagemap_init(&m[i]->map))
			sim_fail("out of memory");
	}
	return no;
}

static void measure_event(struct sim *o, const struct ev *e)
{
	uint64_t first, end;
	ev_pages(e, o->cfg.page_size, &first, &end);
	if (end > o->max_end)
		o->max_end = end;
	if (o->space == SPACE_FOOTPRINT && e->op == EV_WRITE)
		for (uint64_t p = first; p < end; p++)
			if (ftl_pagemap_add(&o->map, p))
				sim_fail("out of memory, or more than 2^32 distinct pages, in the footprint");
}

/* Pass 1: the logical space of every model that takes it from the trace. */
void sim_measure_space(struct sim *in, struct sim **m, unsigned n)
{
	if (in->fp_path && sim_footprints_space(in, m, n))
		return;
	struct sim **own = malloc(n * sizeof(*own));
	if (!own)
		sim_fail("out of memory");
	unsigned no = in->per_volume ? 0 : space_owners(m, n, own);
	uint64_t P = in->cfg.page_size;
	for (unsigned i = 0; i < no; i++)
		P = own[i]->cfg.page_size > P ? own[i]->cfg.page_size : P;
	struct ev e;
	sim_open_trace(in);
	in->pass_t0 = sim_now();
	while (sim_next_event(in, &e) > 0) {
		if (sim_interrupted)
			goto out;
		if ((++in->events_pass1 & 0xffff) == 0 && in->progress_every > 0)
			sim_progress(in, 1);
		if (buffered(in))
			buffer_event(in, &e);
		if (in->per_volume)
			sim_volume_count(in, &e);
		if (!e.length || e.op == EV_FLUSH)
			continue;
		if (e.offset > UINT64_MAX - e.length - P)
			sim_fail("%s: a request at byte %llu, length %u, ends past 2^64", in->path,
				 (unsigned long long)e.offset, e.length);
		if (e.op == EV_WRITE)
			in->pw_pass1 += sim_ev_pages(&e, in->cfg.page_size);
		else if (e.op == EV_DISCARD)
			in->pt_pass1 += sim_ev_pages(&e, in->cfg.page_size);
		for (unsigned i = 0; i < no; i++)
			measure_event(own[i], &e);
	}
	if (sim_interrupted)
		goto out;
	cli_report_bad(in->t, in->path);
	trace_close(in->t);
	in->t = NULL;
	for (unsigned i = 0; i < no; i++) {
		struct sim *o = own[i];
		o->cfg.logical_pages = o->space == SPACE_FOOTPRINT ? o->map.t.n : o->max_end;
		if (!o->cfg.logical_pages)
			sim_fail("%s: the trace %s no page%s%s", in->path,
				 o->space == SPACE_FOOTPRINT ? "writes" : "touches", in->cut[0] ? "; " : "", in->cut);
	}
	for (unsigned i = 0; i < n && !in->per_volume; i++)
		if (m[i]->space != SPACE_GIVEN)
			m[i]->cfg.logical_pages = m[i]->space_owner->cfg.logical_pages;
	if (buffered(in))
		in->from_buf = 1;
	else
		sim_open_trace(in);
out:
	free(own);
}

/*
 * A placement that knows the future (PLACE_FUTURE) learns the trace in
 * a pass of its own before the replay: a file is read again, standard
 * input is kept in the buffer (16 bytes an event) on the way.
 */
static int learns(const struct sim *m)
{
	return m->dev && m->learns;
}

/* The models of an event: all, or with --per-volume its volume's. */
static void learners(struct sim *s, const struct ev *e, unsigned n, unsigned *lo, unsigned *hi)
{
	*lo = 0, *hi = n;
	if (!s->per_volume)
		return;
	const struct vol *v = sim_volume_of(s, e->volume);
	*lo = v && v->selected ? v->model0 : 0;
	*hi = v && v->selected ? v->model0 + v->nmodel : 0;
}

/* What learning adds (the learners' arrays, standard input's buffer)
 * counts against the memory limit the run was checked against before
 * it began: over it, the run stops as that check would have. */
static void learn_limit(struct sim *s, struct sim **m, unsigned n, uint64_t base, uint64_t seen)
{
	uint64_t now = 0;
	for (unsigned i = 0; i < n; i++)
		now += sim_mem_bytes(m[i]);
	uint64_t need = s->mem_estimate - s->mem_learn + (now > base ? now - base : 0) + s->capbuf * (sizeof(*s->buf) + (s->buf_t ? sizeof(int64_t) : 0));
	if (s->mem_limit_used && need > s->mem_limit_used)
		sim_fail_usage("%s: learning the trace for the placement's future knowledge, the run needs "
			       "%.1f MiB after %llu events, over the limit of %.1f MiB (%s); the learner "
			       "keeps 4 bytes a page write and a page trim (docs/MODEL.md)",
			       s->path, need / 1048576.0, (unsigned long long)seen, s->mem_limit_used / 1048576.0,
			       s->mem_limit ? "--mem-limit" : "the memory available");
}

void sim_learn_pass(struct sim *s, struct sim **m, unsigned n)
{
	struct ev e;
	unsigned lo, hi;
	int stdin_live = !s->from_buf && !strcmp(s->path, "-");
	if (stdin_live && s->per_volume)
		usage_error("--per-volume with a placement that learns the trace first reads it twice: name a "
			    "file, not standard input");
	uint64_t base = 0, seen = 0;
	for (unsigned i = 0; i < n; i++) {
		if (learns(m[i]) && m[i]->dops->learn_begin(m[i]->dev))
			sim_fail("%s", m[i]->dops->error(m[i]->dev));
		base += sim_mem_bytes(m[i]);
	}
	/* In trace order; a learner only records (fk appends each page to
	 * an array), so nothing is worth prefetching. */
	while (!sim_interrupted && sim_next_event(s, &e) > 0) {
		if (stdin_live)
			buffer_event(s, &e);
		if ((++seen & 0xffff) == 0)
			learn_limit(s, m, n, base, seen);
		learners(s, &e, n, &lo, &hi);
		for (unsigned i = lo; i < hi; i++)
			if (learns(m[i]) && m[i]->dops->learn(m[i]->dev, &e))
				sim_fail("%s: learning the trace: %s", s->path, m[i]->dops->error(m[i]->dev));
	}
	learn_limit(s, m, n, base, seen);
	for (unsigned i = 0; i < n; i++)
		if (learns(m[i]) && m[i]->dops->learn_end(m[i]->dev))
			sim_fail("%s", m[i]->dops->error(m[i]->dev));
	if (s->from_buf || stdin_live) {
		s->from_buf = 1;
		s->next = 0;
	} else {
		cli_report_bad(s->t, s->path);
		trace_close(s->t);
		sim_open_trace(s);
	}
}

void sim_close_input(struct sim *s)
{
	sim_footprints_free(s);
	trace_close(s->t);
	s->t = NULL;
	ftl_pagemap_free(&s->map);
	free(s->buf);
	s->buf = NULL;
	free(s->buf_t);
	s->buf_t = NULL;
}

void sim_age_pass(struct sim *s, struct sim **m, unsigned n)
{
	char err[1024];
	struct trace_opts o;
	trace_opts_default(&o);
	o.rd = s->topt.rd; /* the page size and sector rules of the run */
	o.quiet = s->quiet;
	struct trace *t = trace_open(s->age_path, &o, err, sizeof(err));
	if (!t) {
		if (sim_interrupted)
			return;
		sim_fail("%s", err);
	}
	for (unsigned i = 0; i < n; i++)
		if (m[i]->dev && m[i]->dops->age(m[i]->dev, 1))
			sim_fail("%s", m[i]->dops->error(m[i]->dev));
	enum { BATCH = 1024 };
	static struct ev b[BATCH];
	size_t k = 0;
	int rc;
	do {
		rc = trace_next(t, &b[k]);
		if (rc < 0 && !sim_interrupted)
			sim_fail("%s", trace_error(t));
		if (rc > 0 && ++k < BATCH)
			continue;
		for (unsigned i = 0; i < n && k; i++)
			if (m[i]->dev && m[i]->dops->submit(m[i]->dev, b, k) != k)
				sim_fail("%s: ageing the device: %s", s->age_path, m[i]->dops->error(m[i]->dev));
		k = 0;
	} while (rc > 0 && !sim_interrupted);
	if (!sim_interrupted && trace_cut(t))
		sim_fail("%s: %s", s->age_path, trace_cut(t));
	trace_close(t);
	for (unsigned i = 0; i < n; i++)
		if (m[i]->dev && m[i]->dops->age(m[i]->dev, 0))
			sim_fail("%s", m[i]->dops->error(m[i]->dev));
}
