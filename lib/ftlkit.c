/*
 * ftlkit.c - shared error reporting, strict number parsing, KEY=VALUE
 * lists and atomic output files for every program.
 */
#include "ftlkit.h"
#include "sig.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *prog_name = "ftlkit";
int json_oom;

static void *json_malloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		json_oom = 1;
	return p;
}

void prog_init(const char *argv0)
{
	const char *s = strrchr(argv0, '/');
	prog_name = s ? s + 1 : argv0;
	json_set_alloc_funcs(json_malloc, free);
}

static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	/* An error after a signal (a read or write it interrupted) ends
	 * as the signal does; either way no temporary stays behind. */
	if (sig_caught)
		sig_exit();
	sig_remove_tmps();
	exit(code);
}

void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

const char *usage_context;

void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (usage_context) {
		char m[1024];
		vsnprintf(m, sizeof(m), fmt, ap);
		fprintf(stderr, "%s: %s%s\n", prog_name, usage_context, m);
	} else {
		vmsg(fmt, ap);
	}
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", prog_name);
	exit(EXIT_USAGE);
}

void print_version(void)
{
	printf("%s (ftlkit) %s\n", prog_name, FTLKIT_VERSION);
}

void list_options(int argc, char **argv, const struct option *longopts)
{
	if (argc > 0)
		argv[0] = (char *)prog_name; /* getopt's messages name the program, not its path */
	if (argc != 2 || strcmp(argv[1], "--list-options"))
		return;
	for (const struct option *o = longopts; o->name; o++)
		printf("--%s%s\n", o->name,
		       o->has_arg == required_argument   ? "="
		       : o->has_arg == optional_argument ? "[=]"
							 : "");
	exit(fflush(stdout) || ferror(stdout) ? EXIT_DATA : EXIT_OK);
}

/* The edit distance of a and b (lengths under 64), at most 63. */
static unsigned edits(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned row[64];
	if (la > 63 || lb > 63)
		return 63;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j], v = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
		}
	}
	return row[lb];
}

const char *nearest_option(const char *name, size_t n, const struct option *longopts)
{
	const char *best = NULL;
	unsigned bd = 3;
	for (const struct option *o = longopts; o->name; o++) {
		unsigned e = edits(name, n, o->name, strlen(o->name));
		if (e < bd) {
			bd = e;
			best = o->name;
		}
	}
	return best && bd * 3 <= n ? best : NULL; /* (two edits of a short name make another word) */
}

const char *bad_option(char **argv, const struct option *longopts)
{
	static char msg[160];
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	if (!arg || strncmp(arg, "--", 2) || !arg[2])
		return "bad option";
	const char *name = arg + 2;
	size_t n = strcspn(name, "=");
	for (const struct option *o = longopts; o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, name, n))
			return "bad option"; /* known: its argument was what was wrong */
	const char *best = nearest_option(name, n, longopts);
	if (!best)
		return "bad option";
	snprintf(msg, sizeof(msg), "bad option: did you mean --%s?", best);
	return msg;
}

int set_err(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return -1;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_i64(const char *s, int64_t *out)
{
	char *end;
	if (!s || !*s || *s == ' ')
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 0: break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	case 'p': case 'P': shift = 50; break;
	default: return -1;
	}
	if (*end && end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B"))
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int parse_fixed9(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	int64_t ip = 0, fp = 0;
	int nd = 0, nf = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
		if (ip > (INT64_MAX / 1000000000 - 9) / 10)
			return -1;
		ip = ip * 10 + (s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (nf < 9) {
				fp = fp * 10 + (s[i] - '0');
				nf++;
			}
		}
	}
	if (i != len || (nd == 0 && nf == 0))
		return -1;
	while (nf++ < 9)
		fp *= 10;
	*out = ip * 1000000000 + fp;
	return 0;
}

/* The list's own fault, "WHAT SPEC: why" (or "why"). */
static int kv_fail(const char *what, const char *spec, char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int kv_fail(const char *what, const char *spec, char *err, size_t n, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return what ? set_err(err, n, "%s %s: %s", what, spec, why) : set_err(err, n, "%s", why);
}

int kv_parse(const char *what, const char *spec, unsigned flags, kv_fn fn, void *ctx, char *err, size_t n)
{
	if (!*spec)
		return 0;
	char buf[KV_MAX_LEN + 1]; /* no allocation: a usage error stays one when memory is short */
	if (strlen(spec) > KV_MAX_LEN) {
		char head[48];
		snprintf(head, sizeof(head), "%.40s...", spec);
		return kv_fail(what, head, err, n, "longer than %d characters", KV_MAX_LEN);
	}
	strcpy(buf, spec);
	const char *seen[KV_MAX_FIELDS];
	unsigned nseen = 0;
	int rc = 0;
	/* by hand: strtok would pass over an empty field */
	for (char *f = buf, *next; f && !rc; f = next) {
		if ((next = strchr(f, ',')))
			*next++ = 0;
		char *eq = strchr(f, '='), msg[512];
		const char *key = NULL;
		if (!*f) {
			rc = kv_fail(what, spec, err, n, "an empty field");
			continue;
		}
		if (eq && eq > f) {
			*eq = 0;
			key = f;
			for (unsigned i = 0; i < nseen && !rc; i++)
				if (!strcmp(seen[i], key))
					rc = kv_fail(what, spec, err, n, "%s given twice", key);
			if (!rc && nseen == KV_MAX_FIELDS)
				rc = kv_fail(what, spec, err, n, "more than %d fields", KV_MAX_FIELDS);
			if (!rc)
				seen[nseen++] = key;
		} else if (!(flags & KV_BARE_FIRST) || f != buf || eq) {
			rc = kv_fail(what, spec, err, n, "'%s' is not KEY=VALUE", f);
		}
		if (!rc && fn(ctx, key, key ? eq + 1 : f, msg, sizeof(msg)))
			rc = what ? set_err(err, n, "%s: %s", what, msg) : set_err(err, n, "%s", msg);
	}
	return rc;
}

uint64_t opt_u64(const char *opt, const char *arg)
{
	uint64_t v;
	if (parse_u64(arg, &v))
		usage_error("option '%s' needs a non-negative integer, not '%s'", opt, arg);
	return v;
}

uint64_t opt_size(const char *opt, const char *arg)
{
	uint64_t v;
	if (parse_size(arg, &v))
		usage_error("option '%s' needs a size (e.g. 4096, 4K, 16G), not '%s'", opt, arg);
	return v;
}

double opt_double(const char *opt, const char *arg)
{
	double v;
	if (parse_double(arg, &v))
		usage_error("option '%s' needs a number, not '%s'", opt, arg);
	return v;
}

void csv_str(void *f, const char *v)
{
	FILE *fp = f;
	if (!v[strcspn(v, ",\"\r\n")]) {
		fputs(v, fp);
		return;
	}
	fputc('"', fp);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', fp);
		fputc(*v, fp);
	}
	fputc('"', fp);
}

int out_open(struct outfile *o, const char *path, char *err, size_t n)
{
	memset(o, 0, sizeof(*o));
	o->slot = -1;
	if (!strcmp(path, "-")) {
		o->fp = stdout;
		return 0;
	}
	struct stat st;
	char *real = NULL;
	if (!stat(path, &st) && S_ISREG(st.st_mode) && !lstat(path, &st) && S_ISLNK(st.st_mode)) {
		/* A symbolic link to a regular file (/dev/stdout onto a file):
		 * the temporary replaces the file it names, not the link. */
		real = realpath(path, NULL);
		if (real)
			path = real;
	} else if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		o->fp = fopen(path, "w");
		if (!o->fp)
			return set_err(err, n, "cannot write '%s': %s", path, strerror(errno));
		o->path = strdup(path);
		if (!o->path) {
			fclose(o->fp);
			o->fp = NULL;
			return set_err(err, n, "out of memory");
		}
		return 0;
	}
	size_t len = strlen(path) + 32;
	o->path = strdup(path);
	o->tmp = malloc(len);
	free(real);
	if (!o->path || !o->tmp) {
		free(o->path);
		free(o->tmp);
		o->path = o->tmp = NULL;
		return set_err(err, n, "out of memory");
	}
	snprintf(o->tmp, len, "%s.tmp.%ld", o->path, (long)getpid());
	/* Tracked before it exists, so a signal never misses it. */
	int e = 0;
	if ((o->slot = sig_track(o->tmp)) < 0)
		set_err(err, n, "cannot write '%s': too many output files", o->path);
	else if (!(o->fp = fopen(o->tmp, "w"))) {
		e = errno;
		set_err(err, n, "cannot write '%s': %s", o->path, strerror(e));
		sig_untrack(o->slot);
		o->slot = -1;
	}
	if (o->fp)
		return 0;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return -1;
}

/* The end of an output: untracked, its names freed. */
static void release(struct outfile *o)
{
	if (o->tmp)
		sig_untrack(o->slot);
	o->slot = -1;
	o->fp = NULL;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}

int out_commit(struct outfile *o, char *err, size_t n)
{
	FILE *fp = o->fp;
	int rc = 0;
	if (!fp)
		return 0;
	if (fp == stdout) {
		if (fflush(fp) || ferror(fp))
			rc = set_err(err, n, "error writing standard output: %s", strerror(errno));
		o->fp = NULL;
		return rc;
	}
	if (ferror(fp) | fclose(fp)) {
		rc = set_err(err, n, "error writing '%s': %s", o->path, strerror(errno));
		if (o->tmp)
			unlink(o->tmp);
	} else if (o->tmp && rename(o->tmp, o->path)) {
		rc = set_err(err, n, "cannot rename '%s' to '%s': %s", o->tmp, o->path, strerror(errno));
		unlink(o->tmp);
	}
	release(o);
	return rc;
}

void out_abort(struct outfile *o)
{
	if (o->fp && o->fp != stdout) {
		fclose(o->fp);
		if (o->tmp)
			unlink(o->tmp);
	}
	release(o);
}
