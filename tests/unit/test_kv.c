/*
 * test_kv.c - kv_parse, the KEY=VALUE lists of the options (--fdp,
 * --zoned, --host-lfs): fields in order, an empty value passed on, and
 * each fault refused with its message: an empty field, a missing '=',
 * an empty key, a key given twice, too many fields, too long a spec,
 * the callback's own.
 */
#include <stdio.h>
#include <string.h>

#include "ftlkit.h"
#include "th.h"

/* Each field appended to the context as "key=value;" (bare: "[value];");
 * a value "bad" refused. */
static int collect(void *ctx, const char *key, const char *val, char *err, size_t n)
{
	char *out = ctx;
	if (!strcmp(val, "bad"))
		return set_err(err, n, "%s=%s: not good", key ? key : "", val);
	size_t k = strlen(out);
	snprintf(out + k, 512 - k, key ? "%s=%s;" : "[%s%s];", key ? key : "", val);
	return 0;
}

static int run(const char *what, const char *spec, unsigned flags, char *out, char *err)
{
	out[0] = err[0] = 0;
	return kv_parse(what, spec, flags, collect, out, err, 256);
}

int main(void)
{
	char out[512], err[256];
	CHECK(!run("--x", "a=1,b=,c=x=y", 0, out, err) && !strcmp(out, "a=1;b=;c=x=y;"),
	      "fields in order; an empty value passed on; a value keeps its own '=': %s", out);
	CHECK(!run("--x", "", 0, out, err) && !out[0], "an empty spec has no field");
	CHECK(run("--x", "a=1,,b=2", 0, out, err) && !strcmp(err, "--x a=1,,b=2: an empty field"), "',,': %s", err);
	CHECK(run("--x", ",a=1", 0, out, err) && strstr(err, "an empty field") && !out[0],
	      "a leading ',', before any field is passed on: %s", err);
	CHECK(run("--x", "a=1,", 0, out, err) && strstr(err, "an empty field"), "a trailing ',': %s", err);
	CHECK(run("--x", ",", 0, out, err) && strstr(err, "an empty field"), "',' alone: %s", err);
	CHECK(run("--x", "a=1,b", 0, out, err) && !strcmp(err, "--x a=1,b: 'b' is not KEY=VALUE"), "no '=': %s", err);
	CHECK(run("--x", "=1", 0, out, err) && !strcmp(err, "--x =1: '=1' is not KEY=VALUE"), "an empty key: %s", err);
	CHECK(run("--x", "a=1,b=2,a=3", 0, out, err) && !strcmp(err, "--x a=1,b=2,a=3: a given twice") &&
		      !strcmp(out, "a=1;b=2;"),
	      "a key given twice, refused when it comes: %s", err);
	CHECK(run("--x", "a=1,b=bad,c=3", 0, out, err) && !strcmp(err, "--x: b=bad: not good") && !strcmp(out, "a=1;"),
	      "the callback's refusal, prefixed, and the fields after it not read: %s", err);
	CHECK(run(NULL, "a=1,b", 0, out, err) && !strcmp(err, "'b' is not KEY=VALUE"), "no WHAT: the message alone: %s",
	      err);
	CHECK(run(NULL, "b=bad", 0, out, err) && !strcmp(err, "b=bad: not good"), "no WHAT, the callback's: %s", err);
	CHECK(!run("--x", "femu,a=1", KV_BARE_FIRST, out, err) && !strcmp(out, "[femu];a=1;"),
	      "KV_BARE_FIRST: a first field without '=' passed with no key: %s", out);
	CHECK(run("--x", "a=1,femu", KV_BARE_FIRST, out, err) && strstr(err, "'femu' is not KEY=VALUE"),
	      "KV_BARE_FIRST: only the first: %s", err);
	CHECK(run("--x", "femu", 0, out, err) && strstr(err, "'femu' is not KEY=VALUE"), "without it, refused: %s", err);
	char many[KV_MAX_FIELDS * 8 + 16];
	size_t k = 0;
	for (int i = 0; i <= KV_MAX_FIELDS; i++)
		k += (size_t)snprintf(many + k, sizeof(many) - k, "%sk%d=1", i ? "," : "", i);
	char big[1024];
	out[0] = 0;
	CHECK(kv_parse("--x", many, 0, collect, out, big, sizeof(big)) && strstr(big, ": more than 64 fields"),
	      "more than KV_MAX_FIELDS fields");
	many[strrchr(many, ',') - many] = 0;
	out[0] = 0;
	CHECK(!kv_parse("--x", many, 0, collect, out, big, sizeof(big)), "KV_MAX_FIELDS fields");
	char longer[KV_MAX_LEN + 8];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[0] = 'k', longer[1] = '=', longer[sizeof(longer) - 1] = 0;
	CHECK(run("--x", longer, 0, out, err) && !strncmp(err, "--x k=aaa", 9) &&
		      strstr(err, "...: longer than 1024 characters"),
	      "a spec longer than KV_MAX_LEN: %s", err);
	return TH_DONE();
}
