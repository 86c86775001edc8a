/*
 * trace.c - format detection, common filters and sorting over the
 * readers (see trace.h).
 */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ftlkit.h"

struct trace {
	struct reader r;
	struct src src;
	int have_src;
	struct trace_opts o;
	int have_t0;
	int64_t t0;
	/* sorted mode */
	struct ev *evs;
	size_t nev, next;
	int sorted_ready;
	char err[600];
};

void trace_opts_default(struct trace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rd.action = 'D';
	o->start_ns = INT64_MIN;
	o->end_ns = INT64_MAX;
	o->volume = -1;
}

const struct reader_ops *trace_detect(const unsigned char *data, size_t len)
{
	const struct reader_ops *best = NULL;
	int best_score = 0;
	for (const struct reader_ops *const *p = reader_table; *p; p++) {
		int sc = (*p)->probe(data, len);
		if (sc > best_score) {
			best_score = sc;
			best = *p;
		}
	}
	return best;
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* "NAME" that names a blktrace per-CPU set, not a file. */
static int is_blktrace_base(const char *path)
{
	char buf[4096];
	if (file_exists(path))
		return 0;
	snprintf(buf, sizeof(buf), "%s.blktrace.0", path);
	return file_exists(buf);
}

struct trace *trace_open(const char *path, const struct trace_opts *o, char *err, size_t n)
{
	struct trace *t = calloc(1, sizeof(*t));
	if (!t) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	t->o = *o;
	const struct reader_ops *ops = NULL;
	int is_auto = !o->format || !strcmp(o->format, "auto");
	if (!is_auto && !(ops = reader_find(o->format))) {
		set_err(err, n, "unknown format '%s' (see --list-formats)", o->format);
		free(t);
		return NULL;
	}
	if (is_blktrace_base(path)) {
		if (is_auto)
			ops = reader_find("blktrace");
	} else {
		if (src_open(&t->src, path)) {
			set_err(err, n, "%s", t->src.err);
			src_close(&t->src);
			free(t);
			return NULL;
		}
		t->have_src = 1;
		if (is_auto) {
			size_t avail;
			const unsigned char *d = src_peek(&t->src, 65536, &avail);
			if (!d) {
				set_err(err, n, "%s", t->src.err);
				goto fail;
			}
			if (avail == 0) {
				set_err(err, n, "%s: empty file, no format to detect",
					t->src.name);
				goto fail;
			}
			ops = trace_detect(d, avail);
			if (!ops) {
				set_err(err, n,
					"%s: cannot detect the trace format; name it with -f (see --list-formats)",
					t->src.name);
				goto fail;
			}
			if (!o->quiet)
				warn("%s: detected format '%s'%s%s", t->src.name, ops->name,
				     t->src.codec ? ", " : "",
				     t->src.codec ? src_codec_name(t->src.codec) : "");
		}
		/* A per-CPU reader opens every file of the set itself. */
		if ((ops->flags & RD_OWN_FILES) && strcmp(path, "-")) {
			src_close(&t->src);
			t->have_src = 0;
		}
	}
	t->r.ops = ops;
	t->r.path = path;
	t->r.src = t->have_src ? &t->src : NULL;
	t->r.opt = o->rd;
	if (ops->open && ops->open(&t->r)) {
		set_err(err, n, "%s", t->r.err);
		goto fail;
	}
	return t;
fail:
	if (t->have_src)
		src_close(&t->src);
	free(t);
	return NULL;
}

static int keep(const struct trace *t, const struct ev *e)
{
	if (t->o.ops_mask && !(t->o.ops_mask & (1 << e->op)))
		return 0;
	if (t->o.volume >= 0 && e->volume != (uint64_t)t->o.volume)
		return 0;
	return e->t_ns >= t->o.start_ns && e->t_ns < t->o.end_ns;
}

static int raw_next(struct trace *t, struct ev *e)
{
	int rc = t->r.ops->next(&t->r, e);
	if (rc < 0)
		snprintf(t->err, sizeof(t->err), "%s", t->r.err);
	return rc;
}

/* qsort is not stable: sort (time, file position) keys so that events
 * with equal times keep their order. */
struct sort_key {
	int64_t t;
	size_t i;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int load_sorted(struct trace *t)
{
	size_t cap = 0;
	struct ev e;
	int rc;
	while ((rc = raw_next(t, &e)) > 0) {
		if (t->nev == cap) {
			cap = cap ? cap * 2 : 65536;
			struct ev *ne = realloc(t->evs, cap * sizeof(*ne));
			if (!ne) {
				snprintf(t->err, sizeof(t->err), "out of memory sorting %zu events",
					 t->nev);
				return -1;
			}
			t->evs = ne;
		}
		t->evs[t->nev++] = e;
	}
	if (rc < 0)
		return -1;
	struct sort_key *k = malloc(t->nev * sizeof(*k) + 1);
	struct ev *out = malloc(t->nev * sizeof(*out) + 1);
	if (!k || !out) {
		free(k);
		free(out);
		snprintf(t->err, sizeof(t->err), "out of memory sorting %zu events", t->nev);
		return -1;
	}
	for (size_t i = 0; i < t->nev; i++)
		k[i] = (struct sort_key){t->evs[i].t_ns, i};
	qsort(k, t->nev, sizeof(*k), cmp_key);
	for (size_t i = 0; i < t->nev; i++)
		out[i] = t->evs[k[i].i];
	free(k);
	free(t->evs);
	t->evs = out;
	if (t->nev) {
		t->t0 = t->evs[0].t_ns;
		t->have_t0 = 1;
	}
	return 0;
}

int trace_next(struct trace *t, struct ev *e)
{
	if (t->o.sort && !t->sorted_ready) {
		if (load_sorted(t))
			return -1;
		t->sorted_ready = 1;
	}
	for (;;) {
		if (t->o.sort) {
			if (t->next >= t->nev)
				return 0;
			*e = t->evs[t->next++];
		} else {
			int rc = raw_next(t, e);
			if (rc <= 0)
				return rc;
			if (!t->have_t0) {
				t->t0 = e->t_ns;
				t->have_t0 = 1;
			}
		}
		e->t_ns -= t->t0;
		if (keep(t, e))
			return 1;
	}
}

const char *trace_error(const struct trace *t) { return t->err; }
const char *trace_format(const struct trace *t) { return t->r.ops->name; }
uint64_t trace_bad_count(const struct trace *t) { return t->r.nbad; }
const char *trace_first_bad(const struct trace *t) { return t->r.first_bad; }

void trace_close(struct trace *t)
{
	if (!t)
		return;
	if (t->r.ops->close)
		t->r.ops->close(&t->r);
	if (t->have_src)
		src_close(&t->src);
	free(t->evs);
	free(t);
}
