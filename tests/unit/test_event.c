/*
 * test_event.c - the event stream, versions 1 to 3 (docs/FORMATS.md
 * section 5): headers, records and text lines, the version 2 fields
 * (stream, write-lifetime hint, zone operations) round trip in both
 * forms, what each version refuses, and version 3's end record: written
 * by ev_writer_end only, its absence read as a cut, not as an end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "th.h"
#include "trace.h"

static void header_v(unsigned char h[EV_HDR_SIZE], unsigned v)
{
	ev_encode_header(h);
	h[8] = (unsigned char)v;
}

static void test_headers(void)
{
	unsigned char h[EV_HDR_SIZE];
	char err[128] = "";
	ev_encode_header(h);
	CHECK(h[8] == 3 && ev_check_header(h, err, sizeof(err)) == 3, "the writer's header is version 3 %s", err);
	header_v(h, 1);
	CHECK(ev_check_header(h, err, sizeof(err)) == 1, "a version 1 header is read %s", err);
	header_v(h, 2);
	CHECK(ev_check_header(h, err, sizeof(err)) == 2, "a version 2 header is read %s", err);
	header_v(h, 4);
	CHECK(ev_check_header(h, err, sizeof(err)) < 0 && strstr(err, "unsupported event stream version 4"),
	      "version 4 is refused: %s", err);
	header_v(h, 0);
	CHECK(ev_check_header(h, err, sizeof(err)) < 0, "version 0 is refused: %s", err);
}

static int same(const struct ev *a, const struct ev *b)
{
	return a->t_ns == b->t_ns && a->offset == b->offset && a->length == b->length && a->volume == b->volume &&
	       a->op == b->op && a->temp == b->temp && a->stream == b->stream && a->hint == b->hint;
}

static void test_records(void)
{
	const struct ev evs[] = {
		{.t_ns = -5, .offset = 4096, .length = 8192, .volume = 3, .op = EV_WRITE},
		{.t_ns = 7, .offset = 1ull << 40, .length = 4096, .op = EV_WRITE, .temp = 2, .stream = 9, .hint = 4},
		{.t_ns = 8, .offset = 0, .length = 4096, .op = EV_WRITE, .stream = 65535},
		{.t_ns = 9, .offset = 1 << 28, .length = 1 << 28, .op = EV_ZONE_RESET},
		{.t_ns = 10, .offset = 1 << 28, .op = EV_ZONE_OPEN, .hint = 2},
		{.t_ns = 11, .offset = 1 << 28, .op = EV_ZONE_FINISH},
		{.t_ns = 12, .offset = 1 << 28, .length = 65536, .op = EV_ZONE_APPEND, .stream = 1},
		{.t_ns = 13, .offset = 0, .length = 0, .op = EV_FLUSH},
	};
	char err[128] = "";
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		unsigned char rec[EV_REC_SIZE];
		struct ev back;
		ev_encode(&evs[i], rec);
		int ok = !ev_decode(rec, 2, &back, err, sizeof(err)) && same(&evs[i], &back);
		char line[128], line2[128];
		ev_format(&evs[i], line);
		line[strcspn(line, "\n")] = 0;
		ok = ok && !ev_parse(line, &back, err, sizeof(err)) && same(&evs[i], &back);
		ev_format(&back, line2);
		line2[strcspn(line2, "\n")] = 0;
		CHECK(ok && !strcmp(line, line2), "record %zu round trips, binary and text: '%s' %s", i, line, err);
		/* Version 1 knows neither the new fields nor the zone ops. */
		int v1 = evs[i].op < EV_NOPS && !evs[i].stream && !evs[i].hint;
		int dec = ev_decode(rec, 1, &back, err, sizeof(err));
		CHECK(v1 ? !dec && same(&evs[i], &back) : dec < 0,
		      "record %zu as version 1: %s %s", i, v1 ? "read alike" : "refused", v1 ? "" : err);
	}
	unsigned char rec[EV_REC_SIZE];
	struct ev e = {.op = EV_WRITE, .length = 4096}, back;
	ev_encode(&e, rec);
	rec[28] = 6;
	CHECK(ev_decode(rec, 2, &back, err, sizeof(err)) < 0 && strstr(err, "hint 6"), "hint 6 is refused: %s", err);
	rec[28] = 0;
	rec[30] = 1;
	CHECK(ev_decode(rec, 2, &back, err, sizeof(err)) < 0 && strstr(err, "padding"),
	      "a nonzero reserved byte is refused: %s", err);
	rec[30] = 0;
	rec[24] = EV_NOPS_ALL;
	CHECK(ev_decode(rec, 2, &back, err, sizeof(err)) < 0 && strstr(err, "unknown op code 8"),
	      "op code 8 is refused: %s", err);
}

static void test_text(void)
{
	static const struct {
		const char *line;
		int ok;
		const char *msg;
	} t[] = {
		{"0 W 0 4096 0", 1, NULL},
		{"0 W 0 4096 0 1", 1, NULL},
		{"0 W 0 4096 0 0 12", 1, NULL},
		{"0 W 0 4096 0 0 12 5", 1, NULL},
		{"0 ZA 0 4096 0", 1, NULL},
		{"0 W 0 4096 0 0 12 6", 0, "bad write-lifetime hint"},
		{"0 W 0 4096 0 0 65536", 0, "bad stream"},
		{"0 W 0 4096 0 256", 0, "bad temperature label"},
		{"0 W 0 4096 0 0 0 0 0", 0, "too many fields"},
		{"0 ZX 0 4096 0", 0, "bad op"},
		{"0 Z 0 4096 0", 0, "bad op"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct ev e;
		char err[128] = "";
		int rc = ev_parse(t[i].line, &e, err, sizeof(err));
		if (t[i].ok)
			CHECK(!rc, "'%s' parses %s", t[i].line, err);
		else
			CHECK(rc < 0 && strstr(err, t[i].msg), "'%s' is refused: %s", t[i].line, err);
	}
	struct ev e;
	char err[128] = "";
	CHECK(!ev_parse("5 W 8192 4096 2 3 40 2", &e, err, sizeof(err)) && e.temp == 3 && e.stream == 40 &&
		      e.hint == 2 && e.volume == 2,
	      "the optional fields: temp 3, stream 40, hint 2");
	CHECK(!ev_parse("5 W 8192 4096 2", &e, err, sizeof(err)) && !e.temp && !e.stream && !e.hint,
	      "a version 1 line leaves them zero");
}

/* Requests to pages: every page touched, the pages covered whole. */
static void test_pages(void)
{
	struct ev e = {.op = EV_WRITE, .offset = 4096 + 512, .length = 8192};
	uint64_t a, b, c, d;
	ev_pages(&e, 4096, &a, &b);
	ev_whole_pages(&e, 4096, &c, &d);
	CHECK(a == 1 && b == 4 && c == 2 && d == 3, "bytes 4608..12800: pages [1, 4) touched, [2, 3) whole (%llu %llu %llu %llu)",
	      (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, (unsigned long long)d);
	e = (struct ev){.op = EV_DISCARD, .offset = 100, .length = 200};
	ev_pages(&e, 4096, &a, &b);
	ev_whole_pages(&e, 4096, &c, &d);
	CHECK(a == 0 && b == 1 && d <= c, "within one page: touched [0, 1), none whole");
	e = (struct ev){.op = EV_WRITE, .offset = 1ull << 40, .length = 1u << 20};
	ev_pages(&e, 16384, &a, &b);
	CHECK(a == (1ull << 26) && b - a == 64, "16 KiB pages: 1 MiB at 2^40 is 64 pages from 2^26");
	e = (struct ev){.op = EV_WRITE, .offset = UINT64_MAX - 4096, .length = 4096};
	ev_pages(&e, 4096, &a, &b);
	ev_whole_pages(&e, 4096, &c, &d);
	CHECK(a == UINT64_MAX && b == a && c == a && d == a, "an end past 2^64 gives no page");
}

/* Read a stream from memory: the events, trace_next's last status and
 * the cut message (or ""). */
static int read_all(const unsigned char *d, size_t len, int skip_bad, uint64_t *n, char *cut, size_t ncut,
		    char *err, size_t nerr)
{
	struct trace_opts o;
	trace_opts_default(&o);
	o.quiet = 1;
	o.rd.skip_bad = skip_bad;
	struct trace *t = trace_open_mem("s.ev", d, len, &o, err, nerr);
	if (!t)
		return -2;
	struct ev e;
	int rc;
	*n = 0;
	while ((rc = trace_next(t, &e)) > 0)
		(*n)++;
	snprintf(cut, ncut, "%s", trace_cut(t) ? trace_cut(t) : "");
	if (rc < 0)
		snprintf(err, nerr, "%s", trace_error(t));
	trace_close(t);
	return rc;
}

static void test_end(void)
{
	char *buf = NULL, cut[600], err[600];
	size_t len = 0;
	uint64_t n;
	FILE *fp = open_memstream(&buf, &len);
	static struct ev_writer w;
	ev_writer_init(&w, fp, 1);
	for (int i = 0; i < 3; i++) {
		struct ev e = {.t_ns = i, .offset = 4096 * (uint64_t)i, .length = 4096, .op = EV_WRITE};
		ev_write(&w, &e);
	}
	CHECK(!ev_writer_end(&w) && !fclose(fp), "ev_writer_end");
	CHECK(len == EV_HDR_SIZE + 4 * EV_REC_SIZE, "three events and the end record: %zu bytes", len);
	const unsigned char *endr = (unsigned char *)buf + len - EV_REC_SIZE;
	uint64_t count = 0;
	CHECK(ev_is_end(endr, 3, &count, err, sizeof(err)) == 1 && count == 3, "the end record counts 3 events");
	CHECK(ev_is_end(endr, 2, &count, err, sizeof(err)) == 0, "version 2 has no end record");
	unsigned char rec[EV_REC_SIZE];
	memcpy(rec, endr, EV_REC_SIZE);
	rec[30] = 1;
	CHECK(ev_is_end(rec, 3, &count, err, sizeof(err)) < 0 && strstr(err, "bad end record"),
	      "a nonzero byte in the end record: %s", err);

	CHECK(read_all((unsigned char *)buf, len, 0, &n, cut, sizeof(cut), err, sizeof(err)) == 0 && n == 3 &&
		      !cut[0],
	      "a whole stream: 3 events, not cut (%s)", cut);
	/* Without the end record, or ending inside a record: cut. */
	CHECK(read_all((unsigned char *)buf, len - EV_REC_SIZE, 0, &n, cut, sizeof(cut), err, sizeof(err)) == 0 &&
		      n == 3 && strstr(cut, "s.ev: byte 112: the event stream ends after 3 events, without its end record"),
	      "no end record: 3 events, cut: %s", cut);
	CHECK(read_all((unsigned char *)buf, len - EV_REC_SIZE - 5, 1, &n, cut, sizeof(cut), err, sizeof(err)) == 0 &&
		      n == 2 && strstr(cut, "byte 80: the event stream ends inside a record after 2 events"),
	      "a truncated record, even with --skip-bad: 2 events, cut: %s", cut);
	CHECK(read_all((unsigned char *)buf, EV_HDR_SIZE, 0, &n, cut, sizeof(cut), err, sizeof(err)) == 0 && n == 0 &&
		      strstr(cut, "after 0 events"),
	      "a header alone: cut: %s", cut);
	/* The same records under a version 2 header: no end record wanted. */
	unsigned char *v2 = malloc(len);
	memcpy(v2, buf, len);
	v2[8] = 2;
	CHECK(read_all(v2, len - EV_REC_SIZE, 0, &n, cut, sizeof(cut), err, sizeof(err)) == 0 && n == 3 && !cut[0],
	      "version 2 ends at the end of its data, as before");
	CHECK(read_all(v2, len - EV_REC_SIZE - 5, 1, &n, cut, sizeof(cut), err, sizeof(err)) == 0 && n == 2 && !cut[0],
	      "version 2: a truncated record is a bad record (--skip-bad), as before");
	CHECK(read_all(v2, len, 0, &n, cut, sizeof(cut), err, sizeof(err)) < 0 && strstr(err, "unknown op code 255"),
	      "version 2 knows no end record: %s", err);
	/* A wrong count, data after the end: errors. */
	memcpy(v2, buf, len);
	v2[len - EV_REC_SIZE] = 4;
	CHECK(read_all(v2, len, 0, &n, cut, sizeof(cut), err, sizeof(err)) < 0 &&
		      strstr(err, "the end record counts 4 events, the stream holds 3"),
	      "a wrong count: %s", err);
	unsigned char *two = malloc(len + 8);
	memcpy(two, buf, len);
	memset(two + len, 0, 8);
	CHECK(read_all(two, len + 8, 0, &n, cut, sizeof(cut), err, sizeof(err)) < 0 &&
		      strstr(err, "byte 144: data after the end record"),
	      "data after the end: %s", err);
	free(two);
	free(v2);
	free(buf);

	/* The text form has no end record. */
	buf = NULL;
	fp = open_memstream(&buf, &len);
	ev_writer_init(&w, fp, 0);
	struct ev e = {.op = EV_WRITE, .length = 4096};
	ev_write(&w, &e);
	CHECK(!ev_writer_end(&w) && !fclose(fp) && len == strlen("0 W 0 4096 0\n"), "text: no end record");
	free(buf);
}

int main(void)
{
	test_headers();
	test_records();
	test_text();
	test_pages();
	test_end();
	return TH_DONE();
}
