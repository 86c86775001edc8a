/*
 * test_event.c - the event stream, versions 1 and 2 (docs/FORMATS.md
 * section 5): headers, records and text lines of both, the version 2
 * fields (stream, write-lifetime hint, zone operations) round trip in
 * both forms, and what each version refuses.
 */
#include <stdio.h>
#include <string.h>

#include "event.h"
#include "th.h"

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
	CHECK(h[8] == 2 && ev_check_header(h, err, sizeof(err)) == 2, "the writer's header is version 2 %s", err);
	header_v(h, 1);
	CHECK(ev_check_header(h, err, sizeof(err)) == 1, "a version 1 header is read %s", err);
	header_v(h, 3);
	CHECK(ev_check_header(h, err, sizeof(err)) < 0 && strstr(err, "unsupported event stream version 3"),
	      "version 3 is refused: %s", err);
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

int main(void)
{
	test_headers();
	test_records();
	test_text();
	test_pages();
	return TH_DONE();
}
