/*
 * test_csv.c - the delimited-text layer under the SNIA / cloud readers
 * (analyzers/csvrec.c): the hand tokenizer against libcsv, quoting,
 * strict integers, and how the probes tell the formats apart.
 */
#include <stdint.h>
#include <string.h>

#include "csvrec.h"
#include "th.h"
#include "trace.h"

/* Split line with the tokenizer chosen by force, into "f1|f2|..." */
static const char *split(const char *line, unsigned char sep, int force, char *out, size_t n)
{
	static char buf[1024];
	struct csvrec c;
	csvrec_init(&c, NULL, sep, 1);
	c.force_libcsv = force;
	snprintf(buf, sizeof(buf), "%s", line);
	if (csvrec_split(&c, buf, strlen(buf))) {
		snprintf(out, n, "<oom>");
	} else if (c.bad) {
		snprintf(out, n, "<bad>");
	} else {
		size_t k = 0;
		out[0] = 0;
		for (int i = 0; i < c.nf && i < CSVREC_MAX_FIELDS; i++)
			k += (size_t)snprintf(out + k, n - k, "%s%.*s", i ? "|" : "", (int)c.len[i], c.f[i]);
		if (c.nf > CSVREC_MAX_FIELDS)
			snprintf(out + k, n - k, "|+%d", c.nf - CSVREC_MAX_FIELDS);
	}
	csvrec_free(&c);
	return out;
}

static void check_split(const char *line, const char *want)
{
	char a[1024], b[1024];
	split(line, ',', 0, a, sizeof(a));
	split(line, ',', 1, b, sizeof(b));
	CHECK(!strcmp(a, want), "split '%s' -> '%s' (want '%s')", line, a, want);
	if (!strchr(line, '"'))
		CHECK(!strcmp(a, b), "tokenizer and libcsv agree on '%s' ('%s' vs '%s')", line, a, b);
}

static const char *detect(const char *text)
{
	const struct reader_ops *o = trace_detect((const unsigned char *)text, strlen(text));
	return o ? o->name : "none";
}

static int score(const char *name, const char *text)
{
	const struct reader_ops *o = reader_find(name);
	return o ? o->probe((const unsigned char *)text, strlen(text)) : -1;
}

int main(void)
{
	/* tokenizer: plain lines, the same through libcsv */
	check_split("128166385295514663,hm,0,Write,9056014336,2048,2833",
		    "128166385295514663|hm|0|Write|9056014336|2048|2833");
	check_split("a,,b,", "a||b|");
	check_split(",", "|");
	check_split(" 1, 2", " 1| 2"); /* no trimming: " 1" is not a number */
	check_split("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18",
		    "1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|+2");
	/* quoted fields go through libcsv */
	check_split("\"1,5\",\"a\"\"b\",c", "1,5|a\"b|c");
	check_split("\"\",x", "|x");
	check_split("\"128\",\"hm\"", "128|hm");
	check_split("\"unterminated,1", "<bad>");
	check_split("\"a\"b,1", "<bad>");
	check_split("a\"b,1", "<bad>");
	check_split("\"a\"\r\"b\"", "<bad>"); /* a CR inside a line ends a libcsv record */

	/* blanks: runs of spaces and tabs, no quoting */
	{
		char out[256];
		split("  1 2\t\t3 a,b\"c  ", ' ', 0, out, sizeof(out));
		CHECK(!strcmp(out, "1|2|3|a,b\"c"), "blank split '%s'", out);
	}

	/* strict integers */
	uint64_t v = 7;
	CHECK(cr_u64("0", 1, &v) == CR_OK && v == 0, "0");
	CHECK(cr_u64("18446744073709551615", 20, &v) == CR_OK && v == UINT64_MAX, "UINT64_MAX");
	CHECK(cr_u64("18446744073709551616", 20, &v) == CR_RANGE, "UINT64_MAX + 1");
	CHECK(cr_u64("000000000000000000000042", 24, &v) == CR_OK && v == 42, "leading zeros");
	CHECK(cr_u64("99999999999999999999x", 21, &v) == CR_NAN, "long and not a number");
	CHECK(cr_u64("", 0, &v) == CR_EMPTY, "empty");
	CHECK(cr_u64("-1", 2, &v) == CR_NEG, "negative");
	CHECK(cr_u64("+1", 2, &v) == CR_NAN, "plus sign");
	CHECK(cr_u64("1 ", 2, &v) == CR_NAN, "trailing blank");
	CHECK(cr_u64("12a", 3, &v) == CR_NAN, "trailing letter");

	/* detection: each format's lines go to that format only */
	static const struct {
		const char *fmt, *text;
	} cases[] = {
		{"msr", "128166385295514663,hm,0,Write,9056014336,2048,2833\n"
			"128166385295514878,hm,0,Read,11855351808,512,2617\n"},
		{"systor17", "Timestamp,Response,IOType,LUN,Offset,Size\n"
			     "1455591804.310701000,0.006475000,R,0,203468398592,32768\n"},
		{"systor17", "1455591804.310701000,0.006475000,R,0,203468398592,32768\n"
			     "1455591804.318699000,0.005276000,W,0,4590576115200,4096\n"},
		{"tencent", "1538323200,4247200,128,1,1058\n1538323199,13896880,128,0,1063\n"},
		{"alibaba", "245,W,41187762176,8192,1577808000000476\n3,R,0,1,1577808000003232\n"},
		{"spc", "9,28626733,4096,w,0.000000\n9,7215245,3584,r,0.001447\n"},
		{"spc", "0,1010440,8192,R,0.000000,Alpha/NT\n0,1010456,8192,R,0.002199\n"},
		{"fiu", "89968195792462 20782 gzip 283193184 8 R 6 0 56f11b711d91a065a2b6458eca924523\n"},
		{"fiu", "ts pid process lba size op major minor md5\n"},
		{"tencent", "\xef\xbb\xbf" "1538323200,4247200,128,1,1058\r\n"},
		/* a bad value among good lines does not change the verdict */
		{"msr", "128166385295514663,hm,0,Write,9056014336,2048,2833\n"
			"128166385295514878,hm,0,Read,-5,512,2617\n"
			"128166385295514878,hm,0,Read,5,512,2617\n"},
		{"none", "hello, world\n"},
		{"none", "1,2,3\n"},
		{"ev", "0 W 0 4096 0\n1000 R 4096 512 3\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = detect(cases[i].text);
		CHECK(!strcmp(got, cases[i].fmt), "case %zu detected as %s (want %s)", i, got,
		      cases[i].fmt);
	}
	CHECK(score("systor17", cases[1].text) > score("systor17", cases[2].text),
	      "a SYSTOR header line raises the score");
	CHECK(score("msr", "128166385295514663,hm,0,Write,9056014336,2048,2833") == 85,
	      "an unterminated only line is judged");
	CHECK(score("msr", "128166385295514663,hm,0,Write,9056014336,2048,2833\n128166385295514") ==
		      score("msr", cases[0].text),
	      "an unterminated last line (cut by the window) is ignored");
	CHECK(score("fiu", "89968195792462 20782 my proc 283193184 8 R 6 0 56f1\n") == 0,
	      "a process name with a blank is not FIU");
	return TH_DONE();
}
