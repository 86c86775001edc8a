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
	s->opt.topt.async = sim_threads(s, 1) > 1; /* with threads, decompression in its own */
	s->in.t = trace_open_set(s->opt.paths, s->opt.npaths, &s->opt.topt, err, sizeof(err));
	if (!s->in.t && sim_interrupted)
		return; /* a signal stopped the opening read: no event, the caller stops */
	if (!s->in.t)
		sim_fail("%s", err);
	s->in.format = trace_format(s->in.t);
	s->opt.topt.quiet = 1; /* a second opening says nothing */
	s->opt.topt.reopen = 1;
}

/* Threads cost a few milliseconds of CPU a run (and a few MiB): by
 * default (no -j) a file whose size times the models is under
 * SMALL_INPUT bytes runs in one thread. */
#define SMALL_INPUT (4u << 20)

unsigned sim_threads(const struct sim *s, unsigned nm)
{
	struct stat st;
	uint64_t bytes;
	if (s->opt.jobs <= 1 || s->opt.jobs_given)
		return s->opt.jobs ? s->opt.jobs : 1;
	if (s->in.from_buf)
		bytes = (uint64_t)s->in.nbuf * sizeof(*s->in.buf);
	else if (strcmp(s->opt.path, "-") && !stat(s->opt.path, &st) && S_ISREG(st.st_mode))
		bytes = (uint64_t)st.st_size;
	else
		return s->opt.jobs; /* a pipe, a blktrace set: size unknown */
	return bytes * (nm ? nm : 1) < SMALL_INPUT ? 1 : s->opt.jobs;
}

/* Pass 1 keeps standard input for pass 2. */
static int buffered(const struct sim *s)
{
	return !strcmp(s->opt.path, "-");
}

/* 1 event, 0 end. Errors end the program. */
int sim_next_event(struct sim *s, struct ev *e)
{
	if (s->in.from_buf) {
		if (s->in.next >= s->in.nbuf)
			return 0;
		const struct cev *c = &s->in.buf[s->in.next];
		*e = (struct ev){.t_ns = s->in.buf_t ? s->in.buf_t[s->in.next] : 0,
				 .offset = c->offset,
				 .length = c->length,
				 .op = c->op,
				 .temp = c->temp,
				 .stream = c->stream,
				 .hint = c->hint};
		s->in.next++;
		return 1;
	}
	if (!s->in.t)
		return 0; /* its opening stopped by a signal */
	int rc = trace_next(s->in.t, e);
	if (rc < 0 && sim_interrupted)
		return 0; /* a signal stopped a blocked read: the caller stops */
	if (rc < 0)
		sim_fail("%s", trace_error(s->in.t));
	if (!rc && !s->in.cut[0] && trace_cut(s->in.t)) /* the summary is partial, the exit 1 */
		snprintf(s->in.cut, sizeof(s->in.cut), "%s", trace_cut(s->in.t));
	if (s->in.fp_live && rc)
		sim_footprints_event(s, e);
	else if (s->in.fp_live && !sim_interrupted && !s->in.cut[0]) /* a cut input is said so, not compared */
		sim_footprints_end(s);
	if (rc && !s->in.have_volume0) {
		s->in.volume0 = e->volume;
		s->in.have_volume0 = 1;
	} else if (rc && e->volume != s->in.volume0) {
		s->in.volumes_mixed = 1;
	}
	return rc;
}

size_t sim_next_events(struct sim *s, struct ev *e, size_t n)
{
	int many = !s->in.from_buf && s->in.t && !s->in.fp_live && trace_has_many(s->in.t);
	size_t k = 0;
	while (k < n && !sim_interrupted) {
		size_t got = many ? trace_next_many(s->in.t, e + k, n - k) : 0;
		for (size_t i = k; i < k + got; i++) /* sim_next_event's, event by event */
			if (!s->in.have_volume0) {
				s->in.volume0 = e[i].volume;
				s->in.have_volume0 = 1;
			} else if (e[i].volume != s->in.volume0) {
				s->in.volumes_mixed = 1;
			}
		if (got)
			k += got;
		else if (sim_next_event(s, e + k) > 0) /* what the run cannot take: the end, an error, a bad record */
			k++;
		else
			break;
	}
	return k;
}

static void buffer_event(struct sim *s, const struct ev *e)
{
	if (s->in.nbuf == s->in.capbuf) {
		s->in.capbuf = s->in.capbuf ? 2 * s->in.capbuf : 1 << 16;
		struct cev *nb = realloc(s->in.buf, s->in.capbuf * sizeof(*nb));
		if (!nb)
			sim_fail("out of memory buffering %zu events from standard input", s->in.nbuf);
		s->in.buf = nb;
		if (s->opt.timing) { /* a device in time replays the times too */
			int64_t *nt = realloc(s->in.buf_t, s->in.capbuf * sizeof(*nt));
			if (!nt)
				sim_fail("out of memory buffering %zu events from standard input", s->in.nbuf);
			s->in.buf_t = nt;
		}
	}
	if (s->in.buf_t)
		s->in.buf_t[s->in.nbuf] = e->t_ns;
	s->in.buf[s->in.nbuf++] = (struct cev){.offset = e->offset,
					      .length = e->length,
					      .op = e->op,
					      .hint = e->hint,
					      .temp = e->temp,
					      .stream = e->stream};
}

int sim_needs_pass1(struct sim *const *m, unsigned n)
{
	if (m[0]->opt.per_volume)
		return 1;
	for (unsigned i = 0; i < n; i++)
		if (m[i]->opt.space != SPACE_GIVEN)
			return 1;
	return 0;
}

/* The models that measure a space in pass 1: the first of each distinct
 * (kind, page size); the others share its result (and footprint map). */
static unsigned space_owners(struct sim **m, unsigned n, struct sim **own)
{
	unsigned no = 0;
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->opt.space == SPACE_GIVEN)
			continue;
		unsigned j = 0;
		while (j < no && !(own[j]->opt.space == m[i]->opt.space && own[j]->opt.cfg.page_size == m[i]->opt.cfg.page_size))
			j++;
		m[i]->cell.space_owner = own[j];
		if (j < no)
			continue;
		own[no++] = m[i]->cell.space_owner = m[i];
		m[i]->cell.max_end = 0;
		if (m[i]->opt.space == SPACE_FOOTPRINT && ftl_pagemap_init(&m[i]->cell.map))
			sim_fail("out of memory");
	}
	return no;
}

static void measure_event(struct sim *o, const struct ev *e)
{
	uint64_t first, end;
	ev_pages(e, o->opt.cfg.page_size, &first, &end);
	if (end > o->cell.max_end)
		o->cell.max_end = end;
	if (o->opt.space == SPACE_FOOTPRINT && e->op == EV_WRITE)
		for (uint64_t p = first; p < end; p++)
			if (ftl_pagemap_add(&o->cell.map, p))
				sim_fail("out of memory, or more than 2^32 distinct pages, in the footprint");
}

/* Pass 1: the logical space of every model that takes it from the trace. */
void sim_measure_space(struct sim *in, struct sim **m, unsigned n)
{
	if (in->opt.fp_path && sim_footprints_space(in, m, n))
		return;
	struct sim **own = malloc(n * sizeof(*own));
	if (!own)
		sim_fail("out of memory");
	unsigned no = in->opt.per_volume ? 0 : space_owners(m, n, own);
	uint64_t P = in->opt.cfg.page_size;
	for (unsigned i = 0; i < no; i++)
		P = own[i]->opt.cfg.page_size > P ? own[i]->opt.cfg.page_size : P;
	struct ev e;
	sim_open_trace(in);
	in->run.pass_t0 = sim_now();
	while (sim_next_event(in, &e) > 0) {
		if (sim_interrupted)
			goto out;
		if ((++in->in.events_pass1 & 0xffff) == 0 && in->opt.progress_every > 0)
			sim_progress(in, 1);
		if (buffered(in))
			buffer_event(in, &e);
		if (in->opt.per_volume)
			sim_volume_count(in, &e);
		if (e.t_ns > in->in.t_max_pass1)
			in->in.t_max_pass1 = e.t_ns;
		if (!e.length || e.op == EV_FLUSH)
			continue;
		if (e.offset > UINT64_MAX - e.length - P)
			sim_fail("%s: a request at byte %llu, length %u, ends past 2^64", in->opt.path,
				 (unsigned long long)e.offset, e.length);
		if (e.op == EV_WRITE)
			in->in.pw_pass1 += sim_ev_pages(&e, in->opt.cfg.page_size);
		else if (e.op == EV_DISCARD) {
			in->in.pt_pass1 += sim_ev_pages(&e, in->opt.cfg.page_size);
			in->in.td_pass1++;
		}
		for (unsigned i = 0; i < no; i++)
			measure_event(own[i], &e);
	}
	if (sim_interrupted)
		goto out;
	in->in.bad_skipped = trace_bad_count(in->in.t);
	cli_report_bad(in->in.t, in->opt.path);
	in->in.bad_said = 1;
	uint64_t nread = trace_events_read(in->in.t); /* before --volume and the other filters */
	trace_close(in->in.t);
	in->in.t = NULL;
	in->in.pass1_s = sim_now() - in->run.pass_t0;
	for (unsigned i = 0; i < no; i++) {
		struct sim *o = own[i];
		o->opt.cfg.logical_pages = o->opt.space == SPACE_FOOTPRINT ? o->cell.map.t.n : o->cell.max_end;
		if (!o->opt.cfg.logical_pages && in->opt.topt.volume >= 0 && !in->in.events_pass1 && nread)
			sim_fail_none_kept(in->opt.path, &in->opt.topt, nread);
		if (!o->opt.cfg.logical_pages)
			sim_fail("%s: the trace %s no page%s%s", in->opt.path,
				 o->opt.space == SPACE_FOOTPRINT ? "writes" : "touches", in->in.cut[0] ? "; " : "", in->in.cut);
	}
	for (unsigned i = 0; i < n && !in->opt.per_volume; i++)
		if (m[i]->opt.space != SPACE_GIVEN)
			m[i]->opt.cfg.logical_pages = m[i]->cell.space_owner->opt.cfg.logical_pages;
	if (buffered(in))
		in->in.from_buf = 1;
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
	return m->cell.dev && m->cell.learns;
}

/* The models of an event: all, or with --per-volume its volume's. */
static void learners(struct sim *s, const struct ev *e, unsigned n, unsigned *lo, unsigned *hi)
{
	*lo = 0, *hi = n;
	if (!s->opt.per_volume)
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
	uint64_t need = s->in.mem_estimate - s->in.mem_learn + (now > base ? now - base : 0) + s->in.capbuf * (sizeof(*s->in.buf) + (s->in.buf_t ? sizeof(int64_t) : 0));
	if (s->in.mem_limit_used && need > s->in.mem_limit_used)
		sim_fail_usage("%s: learning the trace for the placement's future knowledge, the run needs "
			       "%.1f MiB after %llu events, over the limit of %.1f MiB (%s); the learner "
			       "keeps 4 bytes a page write and a page trim (docs/MODEL.md)",
			       s->opt.path, need / 1048576.0, (unsigned long long)seen, s->in.mem_limit_used / 1048576.0,
			       s->opt.mem_limit ? "--mem-limit" : "the memory available");
}

void sim_learn_pass(struct sim *s, struct sim **m, unsigned n)
{
	struct ev e;
	unsigned lo, hi;
	int stdin_live = !s->in.from_buf && !strcmp(s->opt.path, "-");
	if (stdin_live && s->opt.per_volume)
		sim_fail_usage("--per-volume with a placement that learns the trace first reads it twice: name a "
			    "file, not standard input");
	uint64_t base = 0, seen = 0;
	for (unsigned i = 0; i < n; i++) {
		if (learns(m[i]) && m[i]->cell.dops->learn_begin(m[i]->cell.dev))
			sim_fail("%s", m[i]->cell.dops->error(m[i]->cell.dev));
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
			if (learns(m[i]) && m[i]->cell.dops->learn(m[i]->cell.dev, &e))
				sim_fail("%s: learning the trace: %s", s->opt.path, m[i]->cell.dops->error(m[i]->cell.dev));
	}
	learn_limit(s, m, n, base, seen);
	for (unsigned i = 0; i < n; i++)
		if (learns(m[i]) && m[i]->cell.dops->learn_end(m[i]->cell.dev))
			sim_fail("%s", m[i]->cell.dops->error(m[i]->cell.dev));
	if (s->in.from_buf || stdin_live) {
		s->in.from_buf = 1;
		s->in.next = 0;
	} else {
		s->in.bad_skipped = trace_bad_count(s->in.t);
		cli_report_bad(s->in.t, s->opt.path);
		trace_close(s->in.t);
		sim_open_trace(s);
	}
}

void sim_close_input(struct sim *s)
{
	sim_footprints_free(s);
	trace_close(s->in.t);
	s->in.t = NULL;
	ftl_pagemap_free(&s->cell.map);
	free(s->in.buf);
	s->in.buf = NULL;
	free(s->in.buf_t);
	s->in.buf_t = NULL;
}

/* --precondition-trace: through a host layer that ages with the device
 * (a host log), else straight to the device. */
static int age(struct sim *x, int begin)
{
	return x->cell.hops->age ? x->cell.hops->age(x->cell.host, begin) : x->cell.dops->age(x->cell.dev, begin);
}

static const char *age_error(const struct sim *x)
{
	return x->cell.hops->age ? x->cell.hops->error(x->cell.host) : x->cell.dops->error(x->cell.dev);
}

void sim_age_pass(struct sim *s, struct sim **m, unsigned n)
{
	char err[1024];
	struct trace_opts o;
	trace_opts_default(&o);
	o.rd = s->opt.topt.rd; /* the page size and sector rules of the run */
	o.format = s->opt.age_format;
	o.format_opt = "--precondition-format";
	if (s->opt.age_columns)
		o.rd.columns = s->opt.age_columns;
	o.quiet = s->opt.quiet;
	struct trace *t = trace_open(s->opt.age_path, &o, err, sizeof(err));
	if (!t) {
		if (sim_interrupted)
			return;
		sim_fail("%s", err);
	}
	for (unsigned i = 0; i < n; i++)
		if (m[i]->cell.dev && age(m[i], 1))
			sim_fail("%s", age_error(m[i]));
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
		for (unsigned i = 0; i < n && k; i++) {
			const struct sim *x = m[i];
			if (x->cell.dev && (x->cell.hops->age ? x->cell.hops->submit(x->cell.host, b, k)
							     : x->cell.dops->submit(x->cell.dev, b, k)) != k)
				sim_fail("%s: ageing the device: %s", s->opt.age_path, age_error(x));
		}
		k = 0;
	} while (rc > 0 && !sim_interrupted);
	/* its bad records said as the trace's are (the messages name the
	 * file already), and counted in the summary's input.ageing */
	s->in.age_format = trace_format(t);
	s->in.age_events = trace_events_read(t);
	s->in.age_bad_skipped = trace_bad_count(t);
	if (!sim_interrupted && trace_cut(t))
		sim_fail("--precondition-trace %s", trace_cut(t));
	if (!sim_interrupted) {
		if (cli_all_bad(t, s->opt.age_path, err, sizeof(err)))
			sim_fail("--precondition-trace %s", err);
		cli_report_bad(t, s->opt.age_path);
	}
	trace_close(t);
	for (unsigned i = 0; i < n; i++) {
		if (m[i]->cell.dev && age(m[i], 0))
			sim_fail("%s", age_error(m[i]));
		m[i]->run.curve_fs = 0; /* (a host log's counts restart too) */
	}
}

void sim_fail_none_kept(const char *path, const struct trace_opts *o, uint64_t nread)
{
	char msg[1200];
	sim_fail("%s", cli_none_kept(path, o, nread, msg, sizeof(msg)));
}
