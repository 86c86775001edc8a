/*
 * trace.c - format detection, common filters and sorting over the
 * readers (see trace.h).
 */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "btset.h"
#include "ftlkit.h"
#include "sig.h"

struct trace {
	struct reader r;    /* the member being read */
	struct src src;
	int have_src;
	struct trace_opts o;
	int64_t last_ns; /* the last time kept (o.end_ns - 1, or INT64_MAX for no end) */
	/* A trace set: its members, read one after another (one member for
	 * a lone file). */
	char **path;
	size_t npath, cur;
	int64_t *size;	     /* each member's size, -1 unknown */
	int64_t size_total;  /* theirs together, -1 unknown */
	const struct reader_ops *ops; /* the set's format, from its first member */
	int boundary;	     /* the next event is its member's first */
	int opened;	     /* a member's reader was opened */
	int empty_end;	     /* the set ended on an empty file: no reader open */
	int have_raw_last;
	int64_t raw_last;    /* raw time of the last event read, of member raw_last_member */
	size_t raw_last_member;
	uint64_t nbad_before; /* bad records skipped in the members before */
	char first_bad[512];
	int have_t0;
	int64_t t0;
	int64_t last_t;	    /* raw time of the kept event before (unsorted mode) */
	int have_last;
	uint64_t nraw;	    /* events read (unsorted mode) */
	int told_unsorted;
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

/* Options the format cannot honour (its capability flags): said, not
 * refused, as the trace is still read. */
static void warn_options(const struct trace *t, const char *name, const struct reader_ops *ops)
{
	if (t->o.rd.sector_size && !(ops->flags & RD_SECTORS))
		warn("%s: --sector-size has no effect on format '%s' (%s)", name, ops->name,
		     ops->flags & RD_ACTION ? "its sectors are the kernel's 512 bytes"
					    : "its offsets and sizes are bytes");
	if (t->o.action_given && !(ops->flags & RD_ACTION))
		warn("%s: --action has no effect on format '%s' (one event per I/O; only blktrace and blkparse "
		     "record its queue, issue and completion)",
		     name, ops->name);
	if (t->o.volume > 0 && !(ops->flags & RD_MULTI_VOL))
		warn("%s: --volume %lld: format '%s' has no volume field, every event is volume 0 (none is kept)",
		     name, (long long)t->o.volume, ops->name);
}

/* With t->src open (or not, for a per-CPU blktrace set): detect the
 * format if asked, and open the reader. */
static int trace_start(struct trace *t, const char *path, const struct reader_ops *ops,
		       int own_files_ok, char *err, size_t n)
{
	if (t->have_src && !ops) {
		size_t avail;
		const unsigned char *d = src_peek_start(&t->src, 65536, &avail);
		if (!d)
			return set_err(err, n, "%s", t->src.err);
		if (avail == 0)
			return set_err(err, n, "%s: empty file, no format to detect", t->src.name);
		ops = trace_detect(d, avail);
		if (!ops)
			return set_err(err, n,
				       "%s: cannot detect the trace format; name it with %s (see --list-formats)",
				       t->src.name, t->o.format_opt ? t->o.format_opt : "-f");
		if (!t->o.quiet && t->npath > 1)
			warn("%s: detected format '%s'%s%s (a set of %zu files, read as one trace)", t->src.name,
			     ops->name, t->src.codec ? ", " : "", t->src.codec ? src_codec_name(t->src.codec) : "",
			     t->npath);
		else if (!t->o.quiet)
			warn("%s: detected format '%s'%s%s", t->src.name, ops->name,
			     t->src.codec ? ", " : "", t->src.codec ? src_codec_name(t->src.codec) : "");
	}
	/* A per-CPU reader opens every file of the set itself. */
	if (t->have_src && (ops->flags & RD_OWN_FILES) && own_files_ok) {
		src_close(&t->src);
		t->have_src = 0;
	}
	if (!t->o.reopen && !t->ops)
		warn_options(t, t->have_src ? t->src.name : path, ops);
	t->ops = ops;
	t->r.ops = ops;
	t->r.path = path;
	t->r.src = t->have_src ? &t->src : NULL;
	t->r.opt = t->o.rd;
	t->r.opt.again = t->o.reopen;
	t->opened = 1;
	if (ops->open && ops->open(&t->r))
		return set_err(err, n, "%s", t->r.err);
	return 0;
}

static struct trace *trace_new(const struct trace_opts *o, const struct reader_ops **ops,
			       char *err, size_t n)
{
	*ops = NULL;
	if (o->format && strcmp(o->format, "auto") && !(*ops = reader_find(o->format))) {
		set_err(err, n, "unknown format '%s' (see --list-formats)", o->format);
		return NULL;
	}
	struct trace *t = calloc(1, sizeof(*t));
	if (!t)
		set_err(err, n, "out of memory");
	else {
		t->o = *o;
		/* the last time kept: INT64_MAX (no end) keeps every time */
		t->last_ns = o->end_ns == INT64_MAX ? INT64_MAX : o->end_ns - 1;
	}
	return t;
}

static void close_member(struct trace *t)
{
	/* A text trace's last line without a newline: read as it is, and
	 * said (a file cut short ends so, its last number perhaps cut) */
	if (t->have_src && t->src.unterminated && !t->o.reopen)
		warn("warning: %s:%llu: the last line has no newline after it: read as it is (a copy cut short "
		     "ends so, its last field perhaps cut)", t->src.name, (unsigned long long)t->src.unterminated);
	if (t->r.ops && t->r.ops->close && t->r.priv)
		t->r.ops->close(&t->r);
	t->r.priv = NULL;
	if (t->have_src)
		src_close(&t->src);
	t->have_src = 0;
}

static void free_paths(struct trace *t)
{
	for (size_t i = 0; i < t->npath; i++)
		free(t->path[i]);
	free(t->path);
	free(t->size);
}

static struct trace *trace_fail(struct trace *t)
{
	close_member(t);
	free_paths(t);
	free(t);
	return NULL;
}

/* Open member i of the set with the set's format (detected on the
 * first member when not given). */
static int open_member(struct trace *t, size_t i, char *err, size_t n)
{
	const char *path = t->path[i];
	const struct reader_ops *ops = t->ops;
	char base[BTSET_PATH];
	int is_set = 0;
	t->cur = i;
	if (!ops || (ops->flags & RD_OWN_FILES)) {
		is_set = btset_base(path, base, sizeof(base), err, n);
		if (is_set < 0)
			return -1;
	}
	if (is_set) {
		if (!ops) {
			ops = reader_find("blktrace");
			if (!t->o.quiet) /* (named by its base: no file of it to detect) */
				warn("%s: detected format 'blktrace' (the per-CPU files %s.blktrace.N)", path, base);
		}
	} else {
		t->have_src = 1;
		if (src_open(&t->src, path) || (t->o.async && src_async(&t->src)))
			return set_err(err, n, "%s", t->src.err);
		/* A file of a set with no data at all (a time slice without
		 * I/O, plain or compressed) holds no event and says no format:
		 * passed over, wherever it is in the set, when another file
		 * follows or one was read before; an empty set is still an
		 * error at its last file when the format is to be detected
		 * (with -f, an empty trace). */
		size_t avail;
		if (t->npath > 1 && (i + 1 < t->npath || t->opened) &&
		    src_peek_start(&t->src, 1, &avail) && !avail) {
			if (!t->o.reopen)
				warn("%s: empty file, no events (a file of the set: passed over)", path);
			src_close(&t->src);
			t->have_src = 0;
			if (i + 1 < t->npath)
				return open_member(t, i + 1, err, n);
			t->empty_end = 1; /* the set ends here */
			return 0;
		}
	}
	/* Auto-detected: every file of a set is of the format of its first. */
	if (t->ops && t->have_src && i && (!t->o.format || !strcmp(t->o.format, "auto"))) {
		size_t avail;
		const unsigned char *d = src_peek_start(&t->src, 65536, &avail);
		if (!d)
			return set_err(err, n, "%s", t->src.err);
		const struct reader_ops *got = avail ? trace_detect(d, avail) : NULL;
		if (avail && got != t->ops)
			return set_err(err, n, "%s: %s%s%s, but the set's first file %s is '%s': a trace set is of one "
				       "format", path, got ? "format '" : "not of a known format", got ? got->name : "",
				       got ? "'" : "", t->path[0], t->ops->name);
	}
	/* What the reader counts starts again; the skipped records add up. */
	t->nbad_before += t->r.nbad;
	if (!t->first_bad[0] && t->r.first_bad[0])
		snprintf(t->first_bad, sizeof(t->first_bad), "%s", t->r.first_bad);
	memset(&t->r, 0, sizeof(t->r));
	return trace_start(t, path, ops, strcmp(path, "-") != 0, err, n);
}

struct trace *trace_open_set(const char *const *paths, size_t np, const struct trace_opts *o, char *err,
			     size_t n)
{
	const struct reader_ops *ops;
	if (!np) {
		set_err(err, n, "no trace file");
		return NULL;
	}
	struct trace *t = trace_new(o, &ops, err, n);
	if (!t)
		return NULL;
	t->ops = ops;
	t->path = calloc(np, sizeof(*t->path));
	t->size = calloc(np, sizeof(*t->size));
	if (!t->path || !t->size) {
		set_err(err, n, "out of memory");
		return trace_fail(t);
	}
	t->npath = np;
	for (size_t i = 0; i < np; i++) {
		struct stat st;
		if (!(t->path[i] = strdup(paths[i]))) {
			set_err(err, n, "out of memory");
			return trace_fail(t);
		}
		if (np > 1 && !strcmp(paths[i], "-")) {
			set_err(err, n, "standard input (-) cannot be one file of a set of several");
			return trace_fail(t);
		}
		t->size[i] = !stat(paths[i], &st) && S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
		if (t->size[i] < 0 || (i && t->size_total < 0))
			t->size_total = -1;
		else
			t->size_total += t->size[i];
	}
	/* The first member that is not empty says the format (open_member
	 * passes over empty files). */
	if (open_member(t, 0, err, n))
		return trace_fail(t);
	return t;
}

struct trace *trace_open(const char *path, const struct trace_opts *o, char *err, size_t n)
{
	return trace_open_set(&path, 1, o, err, n);
}

struct trace *trace_open_mem(const char *name, const void *data, size_t len,
			     const struct trace_opts *o, char *err, size_t n)
{
	const struct reader_ops *ops;
	struct trace *t = trace_new(o, &ops, err, n);
	if (!t)
		return NULL;
	if (!(t->path = calloc(1, sizeof(*t->path))) || !(t->path[0] = strdup(name))) {
		set_err(err, n, "out of memory");
		return trace_fail(t);
	}
	t->npath = 1;
	t->size_total = -1;
	t->have_src = 1;
	if (src_open_mem(&t->src, name, data, len)) {
		set_err(err, n, "%s", t->src.err);
		return trace_fail(t);
	}
	if (trace_start(t, "-", ops, 0, err, n))
		return trace_fail(t);
	return t;
}

static int keep(const struct trace *t, const struct ev *e)
{
	if (t->o.ops_mask && !(t->o.ops_mask & (1 << e->op)))
		return 0;
	if (t->o.volume >= 0 && e->volume != (uint64_t)t->o.volume)
		return 0;
	return e->t_ns >= t->o.start_ns && e->t_ns <= t->last_ns;
}

static const char *member_name(const struct trace *t, size_t i)
{
	return strcmp(t->path[i], "-") ? t->path[i] : "<stdin>";
}

/* The seconds from b to a, a - b, exactly however far apart the two
 * times are ("-1.500000000"). */
static const char *secs(char *buf, size_t n, int64_t a, int64_t b)
{
	uint64_t d = a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
	snprintf(buf, n, "%s%llu.%09llu", a < b ? "-" : "", (unsigned long long)(d / 1000000000),
		 (unsigned long long)(d % 1000000000));
	return buf;
}

/* Where the record just read lies: "FILE:LINE" (a text format), "FILE:
 * byte OFFSET" (the event stream), else "FILE: event N" (N from 1, of
 * the events read). */
static const char *here(const struct trace *t, uint64_t n_read, char *buf, size_t n)
{
	const char *name = t->r.src ? t->r.src->name : member_name(t, t->cur);
	if (t->have_src && t->src.lineno > 0)
		snprintf(buf, n, "%s:%llu", name, (unsigned long long)t->src.lineno);
	else if (t->have_src && t->ops && !strcmp(t->ops->name, "ev") && t->src.offset >= EV_REC_SIZE)
		snprintf(buf, n, "%s: byte %llu%s", name, (unsigned long long)(t->src.offset - EV_REC_SIZE),
			 t->src.codec != SRC_PLAIN ? " (decompressed)" : "");
	else
		snprintf(buf, n, "%s: event %llu", name, (unsigned long long)n_read);
	return buf;
}

/* An event whose time is more than 2^63 - 1 ns from the time ref (the
 * first event's, or the earliest or latest of a trace being sorted):
 * its time relative to the trace's start cannot be held. A bad record,
 * at where it lies; 0 to go on without it (--skip-bad), -1 with t->err. */
static int time_out_of_range(struct trace *t, int64_t tn, int64_t ref, const char *what, uint64_t n_read)
{
	char at[700], d[48];
	here(t, n_read, at, sizeof(at));
	if (!rd_bad(&t->r, "%s: event time %lld ns out of range: %s s from %s (at %lld ns), 2^63 ns (292 years) or more",
		    at, (long long)tn, secs(d, sizeof(d), tn, ref), what, (long long)ref))
		return 0;
	snprintf(t->err, sizeof(t->err), "%s", t->r.err);
	return -1;
}

/* Member cur has ended: on to the next, 0, or -1 with t->err. */
static int next_member(struct trace *t)
{
	char err[600];
	close_member(t);
	if (open_member(t, t->cur + 1, err, sizeof(err))) {
		snprintf(t->err, sizeof(t->err), "%s", err);
		return -1;
	}
	t->boundary = 1;
	return 0;
}

/* The first event of a member, at raw time tn: in a set in time order,
 * no earlier than the last event of the members before. */
static int check_boundary(struct trace *t, int64_t tn)
{
	t->boundary = 0;
	if (!t->have_raw_last || tn >= t->raw_last || t->o.sort || t->o.unordered)
		return 0;
	int64_t t0 = t->have_t0 ? t->t0 : 0;
	char a[48], b[48];
	snprintf(t->err, sizeof(t->err),
		 "%s: its first event (at %s s) is before the last event of %s (at %s s): the files of a "
		 "trace set are read one after another and must follow in time; name them in time order, or "
		 "give --sort (the whole set read, then sorted, in memory) or --unordered (taken as they come)",
		 member_name(t, t->cur), secs(a, sizeof(a), tn, t0), member_name(t, t->raw_last_member),
		 secs(b, sizeof(b), t->raw_last, t0));
	return -1;
}

/* The raw time of an event read (after its member's boundary check). */
static inline void raw_seen(struct trace *t, int64_t tn)
{
	if (!t->have_raw_last || t->raw_last_member != t->cur) {
		t->raw_last_member = t->cur;
		t->have_raw_last = 1;
	}
	t->raw_last = tn;
}

static int raw_next(struct trace *t, struct ev *e)
{
	for (;;) {
		if (t->empty_end)
			return 0;
		/* What only the event stream carries; the other readers leave it. */
		e->stream = 0;
		e->hint = 0;
		int rc = t->r.ops->next(&t->r, e);
		if (rc > 0) {
			if (t->boundary && check_boundary(t, e->t_ns))
				return -1;
			raw_seen(t, e->t_ns);
			return 1;
		}
		if (rc < 0) {
			snprintf(t->err, sizeof(t->err), "%s", t->r.err);
			return -1;
		}
		/* A member cut short ends the set there. */
		if (t->cur + 1 >= t->npath || t->r.cut[0])
			return 0;
		if (next_member(t))
			return -1;
	}
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
	int64_t lo = 0, hi = 0; /* the times of the events kept so far */
	uint64_t nread = 0;
	while ((rc = raw_next(t, &e)) > 0) {
		/* every time within 2^63 - 1 ns of the earliest, the start:
		 * said where the event lies (sorted, it would not be known) */
		nread++;
		if (t->nev && (e.t_ns < lo || e.t_ns > hi)) {
			int early = e.t_ns < lo;
			int64_t ref = early ? hi : lo, d; /* the time kept farthest from it */
			if (__builtin_sub_overflow(early ? ref : e.t_ns, early ? e.t_ns : ref, &d)) {
				if (time_out_of_range(t, e.t_ns, ref,
						      early ? "the latest event before it" : "the earliest event before it", nread))
					return -1;
				continue;
			}
		}
		lo = !t->nev || e.t_ns < lo ? e.t_ns : lo;
		hi = !t->nev || e.t_ns > hi ? e.t_ns : hi;
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

/* An event read in file order (unsorted mode): the first time kept. */
static inline void unsorted_seen(struct trace *t, const struct ev *e)
{
	if (!t->have_t0) {
		t->t0 = e->t_ns;
		t->have_t0 = 1;
	}
	t->nraw++;
}

/* A kept event (raw time t_raw) in file order: the order of those the
 * run takes checked (a --volume of a file of many is in order or not on
 * its own). */
static inline void order_seen(struct trace *t, int64_t t_raw)
{
	if (t->have_last && t_raw < t->last_t && !t->told_unsorted++ && !t->o.reopen) {
		char vol[48] = "";
		if (t->o.volume >= 0)
			snprintf(vol, sizeof(vol), " (volume %lld)", (long long)t->o.volume);
		char d[48];
		warn("%s: not in time order%s (event %llu is %s s before the one before it): "
		     "events are taken in file order, times before the first event come out "
		     "negative; --sort orders them",
		     t->r.src ? t->r.src->name : t->r.path, vol, (unsigned long long)t->nraw,
		     secs(d, sizeof(d), t->last_t, t_raw));
	}
	t->last_t = t_raw;
	t->have_last = 1;
}

int trace_has_many(const struct trace *t) { return !t->o.sort && t->r.ops->next_many; }

size_t trace_next_many(struct trace *t, struct ev *e, size_t n)
{
	/* times within 2^62 ns of 0 (next_many's) and a first one as
	 * well: the relative times cannot overflow */
	if (t->o.sort || t->boundary || t->empty_end || !t->r.ops->next_many ||
	    (t->have_t0 && (uint64_t)t->t0 + (UINT64_C(1) << 62) >= UINT64_C(1) << 63))
		return 0;
	size_t got = t->r.ops->next_many(&t->r, e, n), k = 0;
	for (size_t i = 0; i < got; i++) {
		raw_seen(t, e[i].t_ns);
		unsorted_seen(t, &e[i]);
		e[i].t_ns -= t->t0;
		if (!keep(t, &e[i]))
			continue;
		order_seen(t, e[i].t_ns + t->t0);
		if (k++ < i)
			e[k - 1] = e[i];
	}
	return k;
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
			unsorted_seen(t, e);
		}
		int64_t raw = e->t_ns;
		if (__builtin_sub_overflow(raw, t->t0, &e->t_ns)) {
			/* Not representable relative to the first event: a
			 * corrupt time, reported like any bad record (a
			 * sorted trace's were, as it was read). */
			if (time_out_of_range(t, raw, t->t0, "the first event", t->nraw))
				return -1;
			continue;
		}
		if (keep(t, e)) {
			if (!t->o.sort)
				order_seen(t, e->t_ns + t->t0);
			return 1;
		}
	}
}

const char *trace_error(const struct trace *t) { return t->err; }
const char *trace_cut(const struct trace *t) { return t->r.cut[0] ? t->r.cut : NULL; }
int trace_position(const struct trace *t, uint64_t *done, uint64_t *total)
{
	if (t->npath > 1) {
		/* A set: the members before whole, this one as far as read. */
		if (t->size_total < 0 || !t->have_src)
			return -1;
		uint64_t d = t->src.raw_read;
		for (size_t i = 0; i < t->cur; i++)
			d += (uint64_t)t->size[i];
		*done = d;
		*total = (uint64_t)t->size_total;
		return 0;
	}
	int64_t size = t->have_src ? src_size(&t->src) : -1;
	if (size < 0)
		return -1;
	*done = t->src.raw_read;
	*total = (uint64_t)size;
	return 0;
}

const char *trace_format(const struct trace *t) { return t->r.ops->name; }
uint64_t trace_bad_count(const struct trace *t) { return t->nbad_before + t->r.nbad; }
uint64_t trace_events_read(const struct trace *t) { return t->o.sort ? t->nev : t->nraw; }
const char *trace_first_bad(const struct trace *t) { return t->first_bad[0] ? t->first_bad : t->r.first_bad; }
const char *trace_member(const struct trace *t) { return member_name(t, t->cur); }

int trace_locate(const char *const *paths, size_t np, const struct trace_opts *o, uint64_t index, uint64_t most,
		 char *buf, size_t n)
{
	if (o->sort || index >= most)
		return -1; /* (in time order, not the file's; too far to read again) */
	for (size_t i = 0; i < np; i++) { /* regular files only: a pipe or FIFO is read once */
		struct stat st;
		if (stat(paths[i], &st) || !S_ISREG(st.st_mode))
			return -1;
	}
	struct trace_opts q = *o;
	q.quiet = q.reopen = 1;
	q.async = 0;
	q.rd.skip_bad = 1; /* (the run skipped them, or stopped before) */
	char err[600];
	struct trace *t = trace_open_set(paths, np, &q, err, sizeof(err));
	if (!t)
		return -1;
	struct ev e;
	int rc = 0;
	for (uint64_t i = 0; i <= index && !sig_caught && (rc = trace_next(t, &e)) > 0; i++)
		;
	int ok = rc > 0 && t->have_src && !t->o.sort && !sig_caught;
	if (ok && t->src.lineno > 0) /* a line of text (of its decompressed text) */
		snprintf(buf, n, "%s:%llu", member_name(t, t->cur), (unsigned long long)t->src.lineno);
	else if (ok && t->ops && !strcmp(t->ops->name, "ev") && t->src.offset >= EV_REC_SIZE)
		snprintf(buf, n, "%s: byte %llu%s", member_name(t, t->cur),
			 (unsigned long long)(t->src.offset - EV_REC_SIZE), /* (a record of the event stream) */
			 t->src.codec != SRC_PLAIN ? " (decompressed)" : "");
	else
		ok = 0;
	trace_close(t);
	return ok ? 0 : -1;
}

void trace_close(struct trace *t)
{
	if (!t)
		return;
	close_member(t);
	free_paths(t);
	free(t->evs);
	free(t);
}
