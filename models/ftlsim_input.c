/*
 * ftlsim_input.c - ftlsim's input passes. With a given logical space
 * the trace is read once; with --logical-space extent or footprint a
 * first pass measures the space and a second replays the trace (standard
 * input is buffered in memory for the second pass, 16 bytes an event).
 */
#include <stdlib.h>
#include <string.h>

#include "ftlsim.h"

void sim_open_trace(struct sim *s)
{
	char err[1024];
	s->t = trace_open(s->path, &s->topt, err, sizeof(err));
	if (!s->t)
		sim_fail("%s", err);
	s->format = trace_format(s->t);
	s->topt.quiet = 1; /* a second opening says nothing */
}

static int buffered(const struct sim *s)
{
	return s->space != SPACE_GIVEN && !strcmp(s->path, "-");
}

/* 1 event, 0 end. Errors end the program. */
int sim_next_event(struct sim *s, struct ev *e)
{
	if (s->from_buf) {
		if (s->next >= s->nbuf)
			return 0;
		const struct cev *c = &s->buf[s->next++];
		*e = (struct ev){.offset = c->offset, .length = c->length, .op = c->op, .temp = c->temp};
		return 1;
	}
	int rc = trace_next(s->t, e);
	if (rc < 0 && sim_interrupted)
		return 0; /* a signal stopped a blocked read: the caller stops */
	if (rc < 0)
		sim_fail("%s", trace_error(s->t));
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
	}
	s->buf[s->nbuf++] = (struct cev){e->offset, e->length, e->op, e->temp};
}

/* Pass 1: the logical space from the trace. */
void sim_measure_space(struct sim *s)
{
	uint64_t P = s->cfg.page_size, max_end = 0;
	struct ev e;
	if (s->space == SPACE_FOOTPRINT && ftl_pagemap_init(&s->map))
		sim_fail("out of memory");
	sim_open_trace(s);
	s->pass_t0 = sim_now();
	while (sim_next_event(s, &e) > 0) {
		if (sim_interrupted)
			return;
		if ((++s->events_pass1 & 0xffff) == 0 && s->progress_every > 0)
			sim_progress(s, 1);
		if (buffered(s))
			buffer_event(s, &e);
		if (!e.length || e.op == EV_FLUSH)
			continue;
		if (e.offset > UINT64_MAX - e.length - P)
			sim_fail("%s: a request at byte %llu, length %u, ends past 2^64", s->path,
			     (unsigned long long)e.offset, e.length);
		uint64_t first = e.offset / P, end = (e.offset + e.length + P - 1) / P;
		if (end > max_end)
			max_end = end;
		if (s->space == SPACE_FOOTPRINT && e.op == EV_WRITE)
			for (uint64_t p = first; p < end; p++)
				if (ftl_pagemap_add(&s->map, p))
					sim_fail("out of memory, or more than 2^32 distinct pages, in the footprint");
	}
	if (sim_interrupted)
		return;
	cli_report_bad(s->t, s->path);
	trace_close(s->t);
	s->t = NULL;
	s->cfg.logical_pages = s->space == SPACE_FOOTPRINT ? s->map.t.n : max_end;
	if (!s->cfg.logical_pages)
		sim_fail("%s: the trace %s no page", s->path,
		     s->space == SPACE_FOOTPRINT ? "writes" : "touches");
	if (buffered(s))
		s->from_buf = 1;
	else
		sim_open_trace(s);
}

/*
 * A placement that knows the future (PLACE_FUTURE) learns the trace in
 * a pass of its own before the replay: a file is read again, standard
 * input is kept in the buffer (16 bytes an event) on the way.
 */
void sim_learn_pass(struct sim *s)
{
	struct ftl *f = s->f;
	struct ev e;
	int stdin_live = !s->from_buf && !strcmp(s->path, "-");
	ftl_learn_begin(f);
	while (!sim_interrupted && sim_next_event(s, &e) > 0) {
		if (stdin_live)
			buffer_event(s, &e);
		if (ftl_request(f, &e))
			sim_fail("%s: learning the trace: %s", s->path, f->err);
	}
	if (ftl_learn_end(f))
		sim_fail("%s", f->err);
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
	trace_close(s->t);
	s->t = NULL;
	ftl_pagemap_free(&s->map);
	free(s->buf);
	s->buf = NULL;
}
