/*
 * ftlsim_footprints.c - --footprints FILE: the figures of pass 1 from
 * the table `tracestat --per-volume FILE` wrote of the same trace (CSV
 * with a header row, or JSON, an array of objects), so that the trace
 * is read once: each volume's events, page writes and largest offset
 * touched give the extent and the --per-volume selection, its footprint
 * pages written the footprint's size.
 *
 * The footprint's numbering (page -> logical page in first-write order)
 * is then made by the reader as it reads the trace: each page written
 * is numbered at its first write, before any model sees the event, which
 * is the order pass 1 numbers them in. The maps are made at their final
 * size and never grow, so that the worker threads (-j) read them while
 * the reader numbers (lib/pagemap.h, a table filled by one thread). A
 * discard of a page not yet written may find it unnumbered where pass 1
 * had numbered it; both mean a page without data, unless the logical
 * space was preconditioned: then (a discard in the table's rows, a
 * footprint space and --precondition, or a TRIM host that holds
 * discards) pass 1 runs as before.
 *
 * The reader checks the trace against the table as it goes (a volume
 * without a row, a footprint larger than the row's) and at the trace's
 * end (each volume's events, each footprint's size): a table of another
 * trace, of other trace options or of another page size is an error.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftlsim.h"
#include "pagemap.h"
#include "place.h"
#include "registry.h"

/* The columns read, by their names in tracestat's header. */
enum { C_VOLUME, C_EVENTS, C_READS, C_WRITES, C_DISCARDS, C_FLUSHES, C_FP, C_PW, C_END, C_PSIZE, NCOL };
static const char *const colname[NCOL] = {
	"volume", "events", "reads", "writes", "discards", "flushes", "footprint_pages_written", "page_writes",
	"max_offset_bytes", "page_size_bytes"};

static void set_col(struct fprow *r, uint64_t *psize, int c, uint64_t v)
{
	switch (c) {
	case C_VOLUME: r->id = (uint32_t)v; break;
	case C_EVENTS: r->events = v; break;
	case C_READS: r->reads = v; break;
	case C_WRITES: r->writes = v; break;
	case C_DISCARDS: r->discards = v; break;
	case C_FLUSHES: r->flushes = v; break;
	case C_FP: r->fp_pages = v; break;
	case C_PW: r->page_writes = v; break;
	case C_END: r->end_bytes = v; break;
	case C_PSIZE: *psize = v; break;
	}
}

static struct fprow *add_row(struct sim *in, size_t *cap)
{
	if (in->in.fp_nrows == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		struct fprow *nr = realloc(in->in.fp_rows, *cap * sizeof(*nr));
		if (!nr)
			sim_fail("%s: out of memory", in->opt.fp_path);
		in->in.fp_rows = nr;
	}
	struct fprow *r = &in->in.fp_rows[in->in.fp_nrows++];
	*r = (struct fprow){0};
	return r;
}

/* The page size of the rows: every row's the same; tracestat's default
 * when the table does not say (a table of an older tracestat). */
static void row_page_size(struct sim *in, uint64_t ps, unsigned long line)
{
	if (!ps || ps > UINT32_MAX || (ps & (ps - 1)))
		sim_fail("%s:%lu: page_size_bytes %llu is not a power of two", in->opt.fp_path, line,
			 (unsigned long long)ps);
	if (in->in.fp_page_size && in->in.fp_page_size != ps)
		sim_fail("%s:%lu: page_size_bytes %llu, the rows before say %u", in->opt.fp_path, line,
			 (unsigned long long)ps, in->in.fp_page_size);
	in->in.fp_page_size = (uint32_t)ps;
}

static void check_row(struct sim *in, const struct fprow *r, uint64_t vol)
{
	if (vol > UINT32_MAX)
		sim_fail("%s:%lu: volume %llu is past 2^32", in->opt.fp_path, r->line, (unsigned long long)vol);
	if (r->fp_pages > r->page_writes || r->reads + r->writes + r->discards + r->flushes > r->events)
		sim_fail("%s:%lu: volume %u: %llu footprint pages of %llu page writes, %llu requests of %llu "
			 "events: not a tracestat --per-volume row", in->opt.fp_path, r->line, r->id,
			 (unsigned long long)r->fp_pages, (unsigned long long)r->page_writes,
			 (unsigned long long)(r->reads + r->writes + r->discards + r->flushes),
			 (unsigned long long)r->events);
	if (r->fp_pages >= UINT32_MAX - 1)
		sim_fail("%s:%lu: volume %u writes %llu distinct pages, more than 2^32", in->opt.fp_path, r->line, r->id,
			 (unsigned long long)r->fp_pages);
}

static char *next_field(char **p)
{
	char *f = *p, *c = strchr(f, ',');
	if (c) {
		*c = 0;
		*p = c + 1;
	} else {
		*p = NULL;
	}
	return f;
}

static void load_csv(struct sim *in, FILE *fp)
{
	char *line = NULL;
	size_t len = 0, cap = 0;
	unsigned long ln = 0;
	int col[64]; /* the column each field of a row is, -1 unread */
	unsigned nf = 0;
	ssize_t got;
	while ((got = getline(&line, &len, fp)) >= 0) {
		ln++;
		line[strcspn(line, "\r\n")] = 0;
		if (!*line && ln > 1)
			continue;
		char *p = line;
		if (ln == 1) {
			int have[NCOL] = {0};
			while (p) {
				char *f = next_field(&p);
				if (nf == sizeof(col) / sizeof(col[0]))
					sim_fail("%s:1: more than %zu columns: not a tracestat --per-volume table",
						 in->opt.fp_path, sizeof(col) / sizeof(col[0]));
				col[nf] = -1;
				for (int c = 0; c < NCOL; c++)
					if (!strcmp(f, colname[c])) {
						if (have[c]++)
							sim_fail("%s:1: the column %s twice", in->opt.fp_path, f);
						col[nf] = c;
					}
				nf++;
			}
			for (int c = 0; c < C_PSIZE; c++)
				if (!have[c])
					sim_fail("%s:1: no column %s: not a tracestat --per-volume table (its header "
						 "row names the columns)", in->opt.fp_path, colname[c]);
			continue;
		}
		struct fprow *r = add_row(in, &cap);
		uint64_t vol = 0, ps = 0;
		r->line = ln;
		unsigned k = 0;
		for (; p; k++) {
			char *f = next_field(&p);
			uint64_t v;
			if (k >= nf || col[k] < 0)
				continue;
			if (parse_u64(f, &v))
				sim_fail("%s:%lu: %s is '%s', not a count", in->opt.fp_path, ln, colname[col[k]], f);
			set_col(r, &ps, col[k], v);
			if (col[k] == C_VOLUME)
				vol = v;
		}
		if (k != nf)
			sim_fail("%s:%lu: %u fields, the header has %u", in->opt.fp_path, ln, k, nf);
		if (ps)
			row_page_size(in, ps, ln);
		check_row(in, r, vol);
	}
	int err = ferror(fp);
	free(line);
	if (err)
		sim_fail("%s: %s", in->opt.fp_path, strerror(errno));
	if (!ln)
		sim_fail("%s: empty: not a tracestat --per-volume table", in->opt.fp_path);
}

static void load_json(struct sim *in, FILE *fp)
{
	json_error_t je;
	json_t *a = json_loadf(fp, 0, &je);
	size_t cap = 0;
	if (!a)
		sim_fail("%s:%d: %s", in->opt.fp_path, je.line, je.text);
	if (!json_is_array(a)) {
		json_decref(a);
		sim_fail("%s: not a JSON array of rows: not a tracestat --per-volume table", in->opt.fp_path);
	}
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *o = json_array_get(a, i);
		struct fprow *r = add_row(in, &cap);
		uint64_t vol = 0, ps = 0;
		r->line = i + 1;
		if (!json_is_object(o))
			sim_fail("%s: row %zu is not an object", in->opt.fp_path, i + 1);
		for (int c = 0; c < NCOL; c++) {
			json_t *x = json_object_get(o, colname[c]);
			if (!x && c == C_PSIZE)
				continue;
			if (!json_is_integer(x) || json_integer_value(x) < 0)
				sim_fail("%s: row %zu: %s %s", in->opt.fp_path, i + 1, colname[c],
					 x ? "is not a count" : "is missing");
			uint64_t v = (uint64_t)json_integer_value(x);
			set_col(r, &ps, c, v);
			if (c == C_VOLUME)
				vol = v;
		}
		if (ps)
			row_page_size(in, ps, i + 1);
		check_row(in, r, vol);
	}
	json_decref(a);
}

static int by_volume(const void *a, const void *b)
{
	const struct fprow *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void load_table(struct sim *in)
{
	FILE *fp = fopen(in->opt.fp_path, "r");
	if (!fp)
		sim_fail("%s: %s", in->opt.fp_path, strerror(errno));
	int c;
	while ((c = getc(fp)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		;
	if (c != EOF)
		ungetc(c, fp);
	rewind(fp);
	if (c == '[')
		load_json(in, fp);
	else
		load_csv(in, fp);
	fclose(fp);
	if (!in->in.fp_page_size)
		in->in.fp_page_size = 4096; /* tracestat's default */
	qsort(in->in.fp_rows, in->in.fp_nrows, sizeof(*in->in.fp_rows), by_volume);
	for (size_t i = 1; i < in->in.fp_nrows; i++)
		if (in->in.fp_rows[i].id == in->in.fp_rows[i - 1].id)
			sim_fail("%s:%lu: volume %u again (row %lu has it)", in->opt.fp_path, in->in.fp_rows[i].line,
				 in->in.fp_rows[i].id, in->in.fp_rows[i - 1].line);
	for (size_t i = 0; i < in->in.fp_nrows; i++)
		in->in.fp_total_events += in->in.fp_rows[i].events;
}

/* The rows a single run's trace holds: --volume V's, or all (summed). */
static void want_rows(struct sim *in, struct sim **m, unsigned n)
{
	struct fprow *w = &in->in.fp_want;
	if (in->opt.topt.volume >= 0) {
		for (size_t i = 0; i < in->in.fp_nrows; i++)
			if (in->in.fp_rows[i].id == in->opt.topt.volume)
				*w = in->in.fp_rows[i];
		if (w->id != in->opt.topt.volume || !in->in.fp_nrows)
			sim_fail("%s: no row of volume %lld (--volume)", in->opt.fp_path, (long long)in->opt.topt.volume);
		return;
	}
	if (!in->in.fp_nrows)
		sim_fail("%s: no row: the table is of an empty trace", in->opt.fp_path);
	for (unsigned i = 0; i < n && in->in.fp_nrows > 1; i++)
		if (m[i]->opt.space == SPACE_FOOTPRINT)
			sim_fail_usage("--footprints %s: the trace has %zu volumes, whose pages a run without --volume "
				    "numbers in one footprint that the table's footprints per volume do not give: "
				    "choose one with --volume V, run --per-volume, or leave out --footprints",
				    in->opt.fp_path, in->in.fp_nrows);
	*w = in->in.fp_rows[0];
	for (size_t i = 1; i < in->in.fp_nrows; i++) {
		const struct fprow *r = &in->in.fp_rows[i];
		w->events += r->events;
		w->reads += r->reads;
		w->writes += r->writes;
		w->discards += r->discards;
		w->flushes += r->flushes;
		w->page_writes += r->page_writes;
		w->end_bytes = r->end_bytes > w->end_bytes ? r->end_bytes : w->end_bytes;
	}
}

uint64_t sim_table_discards(const struct sim *in)
{
	uint64_t discards = 0;
	if (in->opt.per_volume)
		for (size_t i = 0; i < in->in.fp_nrows; i++)
			discards += in->in.fp_rows[i].discards;
	else
		discards = in->in.fp_want.discards;
	return discards;
}

/* A preconditioned footprint space, and discards in the trace: a
 * discard of a page before its first write trims the data the fill put
 * there (with trim off, the TRIM host counts it in its leak), which only
 * pass 1's numbering knows where to find. Likewise a TRIM host that
 * holds discards (batch, delay): it holds such a page by its number. */
static int needs_pass1(const struct sim *in, struct sim **m, unsigned n)
{
	uint64_t discards = sim_table_discards(in);
	for (unsigned i = 0; i < n && discards; i++)
		if (m[i]->opt.space == SPACE_FOOTPRINT && (m[i]->opt.precond || m[i]->opt.trim.mode != TRIM_ONLINE))
			return 1;
	return 0;
}

static uint64_t pages_of(uint64_t bytes, uint32_t P)
{
	return bytes / P + (bytes % P != 0);
}

int sim_footprints_space(struct sim *in, struct sim **m, unsigned n)
{
	load_table(in);
	for (unsigned i = 0; i < n; i++)
		if ((in->opt.per_volume || m[i]->opt.space != SPACE_GIVEN) && m[i]->opt.cfg.page_size != in->in.fp_page_size)
			sim_fail_usage("--footprints %s counts pages of %u bytes, this run's are %u: make the table "
				    "with tracestat --page-size %u", in->opt.fp_path, in->in.fp_page_size, m[i]->opt.cfg.page_size,
				    m[i]->opt.cfg.page_size);
	if (!in->opt.per_volume)
		want_rows(in, m, n);
	for (unsigned i = 0; i < n && in->opt.per_volume && !strcmp(in->opt.path, "-"); i++) {
		char err[256];
		const struct place_ops *p = place_find(m[i]->opt.cfg.placement, NULL, err, sizeof(err));
		if (p && (p->info.flags & PLACE_FUTURE))
			sim_fail_usage("--per-volume with placement '%s', which learns the trace in a pass of its own, "
				    "reads the trace twice: name a file, not standard input", p->info.name);
	}
	if (needs_pass1(in, m, n)) {
		if (in->opt.per_volume && !strcmp(in->opt.path, "-"))
			sim_fail_usage("--footprints %s: the trace discards, and a discard before a page's first write "
				    "in a preconditioned footprint (or held by --trim-mode) needs pass 1, which "
				    "--per-volume cannot make of standard input: name a file", in->opt.fp_path);
		warn("the trace discards, and a discard before a page's first write in a preconditioned "
		     "footprint (or held by --trim-mode) needs the numbering of pass 1: reading the trace twice, "
		     "--footprints %s unused", in->opt.fp_path);
		sim_footprints_free(in);
		return 0;
	}
	in->in.fp_live = 1;
	if (in->opt.per_volume) {
		for (size_t i = 0; i < in->in.fp_nrows; i++) {
			const struct fprow *r = &in->in.fp_rows[i];
			struct vol *v = sim_volume_add(in, r->id);
			v->events = r->events;
			v->write_pages = r->page_writes;
			v->discards = r->discards;
			v->max_end = pages_of(r->end_bytes, in->opt.cfg.page_size);
			v->end_bytes = r->end_bytes;
			v->fp_n = in->opt.space == SPACE_FOOTPRINT ? r->fp_pages : 0;
		}
	} else {
		/* the models that own a space, one per (kind, page size) as pass 1 measures them */
		if (!(in->in.fp_own = malloc(n * sizeof(*in->in.fp_own))))
			sim_fail("out of memory");
		for (unsigned i = 0; i < n; i++) {
			if (m[i]->opt.space == SPACE_GIVEN)
				continue;
			unsigned j = 0;
			while (j < in->in.fp_nown && !(in->in.fp_own[j]->opt.space == m[i]->opt.space &&
						    in->in.fp_own[j]->opt.cfg.page_size == m[i]->opt.cfg.page_size))
				j++;
			m[i]->cell.space_owner = j < in->in.fp_nown ? in->in.fp_own[j] : m[i];
			if (j == in->in.fp_nown)
				in->in.fp_own[in->in.fp_nown++] = m[i];
			struct sim *o = m[i]->cell.space_owner;
			int fp = o->opt.space == SPACE_FOOTPRINT;
			m[i]->opt.cfg.logical_pages = fp ? in->in.fp_want.fp_pages : pages_of(in->in.fp_want.end_bytes, o->opt.cfg.page_size);
			if (!m[i]->opt.cfg.logical_pages)
				sim_fail("%s: the trace %s no page (%s)", in->opt.path, fp ? "writes" : "touches", in->opt.fp_path);
			if (o == m[i] && fp && !in->opt.dry_run && ftl_pagemap_init_for(&o->cell.map, o->opt.cfg.logical_pages))
				sim_fail("out of memory for a footprint of %llu pages",
					 (unsigned long long)o->opt.cfg.logical_pages);
		}
	}
	sim_open_trace(in);
	return 1;
}

static _Noreturn void mismatch(const struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static _Noreturn void mismatch(const struct sim *s, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	sim_fail("%s: %s: the table is not of this trace (tracestat --per-volume of the trace, with the same "
		 "trace options, makes it)", s->opt.fp_path, what);
}

/* Pages [first, end) written: each numbered at its first write. */
static void number(const struct sim *s, struct ftl_pagemap *map, uint64_t first, uint64_t end, uint64_t n,
		   const struct vol *v)
{
	for (uint64_t p = first; p < end; p++) {
		if (map->t.n >= n && !pagemap_find(&map->t, 0, p)) {
			if (v)
				mismatch(s, "volume %u writes more pages than the %llu of its footprint", v->id,
					 (unsigned long long)n);
			mismatch(s, "the trace writes more pages than the %llu of its footprint", (unsigned long long)n);
		}
		if (ftl_pagemap_add_shared(map, p))
			sim_fail("out of memory, or more than 2^32 distinct pages, in the footprint");
	}
}

void sim_footprints_event(struct sim *s, const struct ev *e)
{
	struct vol *v = NULL;
	s->in.fp_seen++;
	if (s->opt.per_volume) {
		if (!s->in.fp_last || s->in.fp_last->id != e->volume)
			s->in.fp_last = sim_volume_of(s, e->volume);
		if (!(v = s->in.fp_last))
			mismatch(s, "volume %u, at event %llu, has no row", e->volume, (unsigned long long)s->in.fp_seen);
		v->seen++;
	} else if (s->opt.topt.volume < 0 && s->in.fp_nrows == 1 && e->volume != s->in.fp_want.id) {
		mismatch(s, "volume %u, at event %llu, has no row", e->volume, (unsigned long long)s->in.fp_seen);
	}
	if (!e->length || e->op == EV_FLUSH)
		return;
	uint64_t P = s->opt.cfg.page_size, end = e->offset + e->length;
	if (e->offset > UINT64_MAX - e->length - P)
		sim_fail("%s: a request at byte %llu, length %u, ends past 2^64", s->opt.path,
			 (unsigned long long)e->offset, e->length);
	uint64_t *seen_end = v ? &v->seen_end : &s->in.fp_seen_end, table_end = v ? v->end_bytes : s->in.fp_want.end_bytes;
	if (end > table_end && v)
		mismatch(s, "volume %u: event %llu ends at byte %llu, past the largest offset touched there, %llu",
			 v->id, (unsigned long long)s->in.fp_seen, (unsigned long long)end, (unsigned long long)table_end);
	if (end > table_end)
		mismatch(s, "event %llu ends at byte %llu, past the largest offset touched there, %llu",
			 (unsigned long long)s->in.fp_seen, (unsigned long long)end, (unsigned long long)table_end);
	if (end > *seen_end)
		*seen_end = end;
	if (e->op != EV_WRITE)
		return;
	uint64_t first, last;
	if (v) {
		ev_pages(e, P, &first, &last);
		if (v->map.t.cap)
			number(s, &v->map, first, last, v->fp_n, v);
		return;
	}
	for (unsigned i = 0; i < s->in.fp_nown; i++) {
		struct sim *o = s->in.fp_own[i];
		ev_pages(e, o->opt.cfg.page_size, &first, &last);
		if (o->opt.space == SPACE_FOOTPRINT && o->cell.map.t.cap)
			number(s, &o->cell.map, first, last, o->opt.cfg.logical_pages, NULL);
	}
}

/* The trace read once: every count as the table has it. */
void sim_footprints_end(struct sim *s)
{
	s->in.fp_live = 0;
	if (s->opt.per_volume) {
		for (size_t i = 0; i < s->in.vols.n; i++) {
			const struct vol *v = &s->in.vols.v[i];
			if (v->seen != v->events)
				mismatch(s, "volume %u has %llu events in the trace, %llu in the table", v->id,
					 (unsigned long long)v->seen, (unsigned long long)v->events);
			if (v->seen_end != v->end_bytes)
				mismatch(s, "volume %u touches bytes up to %llu, the table says %llu", v->id,
					 (unsigned long long)v->seen_end, (unsigned long long)v->end_bytes);
			if (v->map.t.cap && v->map.t.n != v->fp_n)
				mismatch(s, "volume %u writes %llu pages, its footprint in the table %llu", v->id,
					 (unsigned long long)v->map.t.n, (unsigned long long)v->fp_n);
		}
		return;
	}
	if (s->in.fp_seen != s->in.fp_want.events)
		mismatch(s, "the trace has %llu events%s, the table %llu", (unsigned long long)s->in.fp_seen,
			 s->opt.topt.volume >= 0 ? " of the volume" : "", (unsigned long long)s->in.fp_want.events);
	if (s->in.fp_seen_end != s->in.fp_want.end_bytes)
		mismatch(s, "the trace touches bytes up to %llu, the table says %llu", (unsigned long long)s->in.fp_seen_end,
			 (unsigned long long)s->in.fp_want.end_bytes);
	for (unsigned i = 0; i < s->in.fp_nown; i++) {
		const struct sim *o = s->in.fp_own[i];
		if (o->opt.space == SPACE_FOOTPRINT && o->cell.map.t.cap && o->cell.map.t.n != o->opt.cfg.logical_pages)
			mismatch(s, "the trace writes %llu pages, its footprint in the table %llu",
				 (unsigned long long)o->cell.map.t.n, (unsigned long long)o->opt.cfg.logical_pages);
	}
}

uint64_t sim_footprint_map_bytes(const struct ftl_pagemap *map, uint64_t n)
{
	uint64_t cap = map->t.cap ? map->t.cap : pagemap_cap_for((size_t)n);
	return cap * (sizeof(*map->t.page) + sizeof(*map->t.vol) + sizeof(uint32_t));
}

void sim_footprints_free(struct sim *s)
{
	free(s->in.fp_rows);
	s->in.fp_rows = NULL;
	s->in.fp_nrows = 0;
	free(s->in.fp_own);
	s->in.fp_own = NULL;
	s->in.fp_nown = 0;
}
