/*
 * ftlkit.c - shared error reporting, strict number parsing, KEY=VALUE
 * lists, atomic output files and the check that no output replaces an
 * input or another output, for every program.
 */
#include "ftlkit.h"
#include "sig.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
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

/* The smallest edit distance from the n bytes of name to a long option
 * (two at most, and at most a third of n, or 3: none near). */
static unsigned nearest_distance(const char *name, size_t n, const struct option *longopts)
{
	unsigned bd = 3;
	for (const struct option *o = longopts; o->name; o++) {
		unsigned e = edits(name, n, o->name, strlen(o->name));
		if (e < bd)
			bd = e;
	}
	return bd * 3 <= n ? bd : 3; /* (two edits of a short name make another word) */
}

const char *nearest_option(const char *name, size_t n, const struct option *longopts, const char *dashes)
{
	static char buf[256];
	unsigned bd = nearest_distance(name, n, longopts), k = 0;
	if (bd == 3)
		return NULL;
	const struct option *near[3];
	for (const struct option *o = longopts; o->name && k < 3; o++)
		if (edits(name, n, o->name, strlen(o->name)) == bd)
			near[k++] = o;
	size_t len = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < k && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%s", !i ? "" : i + 1 < k ? ", " : " or ",
					dashes, near[i]->name);
	return buf;
}

const char *bad_option(char **argv, const struct option *longopts)
{
	static char msg[320];
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	if (!arg || strncmp(arg, "--", 2) || !arg[2])
		return "bad option";
	const char *name = arg + 2;
	size_t n = strcspn(name, "=");
	for (const struct option *o = longopts; o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, name, n))
			return "bad option"; /* known: its argument was what was wrong */
	const char *near = nearest_option(name, n, longopts, "--");
	if (!near)
		return "bad option";
	snprintf(msg, sizeof(msg), "bad option: did you mean %s?", near);
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

void opt_one_of(int *given, int c, const char *msg)
{
	if (*given && *given != c)
		usage_error("%s", msg);
	*given = c;
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

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a descriptor. */
static int is_fd_path(const char *p)
{
	return !strcmp(p, "/dev/stdout") || !strcmp(p, "/dev/stderr") || !strncmp(p, "/dev/fd/", 8) ||
	       !strncmp(p, "/proc/self/fd/", 14);
}

/* Every byte of buf written to fd, a write a signal interrupted (EINTR)
 * started again; what was written, or -1 if nothing. */
static ssize_t write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	return done ? (ssize_t)done : -1;
}

static ssize_t fd_write(void *cookie, const char *buf, size_t len)
{
	return write_all((int)(intptr_t)cookie, buf, len);
}

static int fd_close(void *cookie)
{
	return close((int)(intptr_t)cookie);
}

void *fd_stream(int fd, int close_fd)
{
	cookie_io_functions_t io = {.write = fd_write, .close = close_fd ? fd_close : NULL};
	FILE *fp = fopencookie((void *)(intptr_t)fd, "w", io);
	/* a terminal's lines as they come, as stdio does for one */
	if (fp && isatty(fd))
		setvbuf(fp, NULL, _IOLBF, 0);
	return fp;
}

/* An output written where it is, without a temporary: at its end
 * (append) or from its start. */
static int open_in_place(struct outfile *o, const char *path, int append, char *err, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0666);
	if (fd < 0)
		return set_err(err, n, "cannot write '%s': %s", path, strerror(errno));
	if (!(o->fp = fd_stream(fd, 1))) {
		close(fd);
		return set_err(err, n, "out of memory");
	}
	o->path = strdup(path);
	if (!o->path) {
		fclose(o->fp);
		o->fp = NULL;
		return set_err(err, n, "out of memory");
	}
	return 0;
}

/* Temporaries held open now; past a quarter of the open-file limit an
 * output is lazy: its stream's buffer is appended to the temporary by
 * opening it each time (lazy_write), so it holds no descriptor. */
static unsigned long outs_open;

static ssize_t lazy_write(void *cookie, const char *buf, size_t len)
{
	int fd = open(cookie, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t done = write_all(fd, buf, len);
	int e = errno;
	if (close(fd) && done == (ssize_t)len)
		return -1;
	errno = e;
	return done;
}

static int many_open(void)
{
	struct rlimit rl;
	return !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && outs_open >= rl.rlim_cur / 4;
}

/* The temporary, created empty; a stream on it, held open or lazy. */
static FILE *open_tmp(struct outfile *o)
{
	if (!many_open()) {
		FILE *fp = fopen(o->tmp, "w");
		if (fp)
			outs_open++;
		return fp;
	}
	int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	if (close(fd))
		return NULL;
	cookie_io_functions_t io = { .write = lazy_write };
	FILE *fp = fopencookie(o->tmp, "w", io);
	if (fp)
		o->lazy = 1;
	return fp;
}

/* A stream closed: one descriptor fewer held, unless it was lazy. */
static const char *write_error(int e)
{
	return e ? strerror(e) : "an earlier write failed";
}

static int close_out(struct outfile *o)
{
	if (o->tmp && !o->lazy)
		outs_open--;
	return fclose(o->fp);
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
	char *real = NULL, to[64];
	ssize_t tl = readlink(path, to, sizeof(to) - 1);
	if (tl > 0)
		to[tl] = 0;
	if (is_fd_path(path) || (tl > 0 && is_fd_path(to))) {
		/* A descriptor the caller holds open (/dev/stderr, /dev/fd/3,
		 * /proc/self/fd/N, a link to one): written at its end, as a
		 * write to it would be, never replaced (a file there keeps what
		 * was written to it before, and stays the one it names). */
		return open_in_place(o, path, 1, err, n);
	}
	if (!stat(path, &st) && S_ISREG(st.st_mode) && !lstat(path, &st) && S_ISLNK(st.st_mode)) {
		/* A symbolic link to a regular file (a descriptor's were taken
		 * above): the temporary replaces the file it names, not the link. */
		real = realpath(path, NULL);
		if (real)
			path = real;
	} else if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		return open_in_place(o, path, 0, err, n);
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
	else if (!(o->fp = open_tmp(o))) {
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
	o->lazy = o->closed = 0;
	o->fp = NULL;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}

int out_close(struct outfile *o, char *err, size_t n)
{
	FILE *fp = o->fp;
	int rc = 0;
	if (!fp)
		return 0;
	/* errno is the flush's or the close's; a write that failed before
	 * and left nothing to fail again has its errno long overwritten */
	errno = 0;
	if (fp == stdout) {
		if (fflush(fp) || ferror(fp))
			rc = set_err(err, n, "error writing standard output: %s", write_error(errno));
		o->fp = NULL;
		return rc;
	}
	if (ferror(fp) | close_out(o)) {
		rc = set_err(err, n, "error writing '%s': %s", o->path, write_error(errno));
		if (o->tmp)
			unlink(o->tmp);
		release(o);
		return rc;
	}
	o->fp = NULL;
	if (o->tmp)
		o->closed = 1; /* renamed by out_commit */
	else
		release(o); /* (written in place: done) */
	return 0;
}

int out_commit(struct outfile *o, char *err, size_t n)
{
	int rc = out_close(o, err, n);
	if (rc || !o->closed)
		return rc;
	if (rename(o->tmp, o->path)) {
		rc = set_err(err, n, "cannot rename '%s' to '%s': %s", o->tmp, o->path, strerror(errno));
		unlink(o->tmp);
	}
	release(o);
	return rc;
}

void out_abort(struct outfile *o)
{
	if (o->fp && o->fp != stdout) {
		close_out(o);
		if (o->tmp)
			unlink(o->tmp);
	} else if (o->closed) {
		unlink(o->tmp);
	}
	release(o);
}

void file_uses_add(struct file_uses *l, int output, const char *opt, const char *path, const char *desc)
{
	if (l->oom)
		return;
	if (l->n == l->cap) {
		size_t nc = l->cap ? 2 * l->cap : 16;
		struct file_use *nu = realloc(l->u, nc * sizeof(*nu));
		if (!nu) {
			l->oom = 1;
			return;
		}
		l->u = nu;
		l->cap = nc;
	}
	/* one block: the path, then the option and the description */
	size_t b = strlen(path) + 1, a = opt ? strlen(opt) + 1 : 0, c = desc ? strlen(desc) + 1 : 0;
	char *p = malloc(a + b + c);
	if (!p) {
		l->oom = 1;
		return;
	}
	struct file_use *u = &l->u[l->n++];
	u->path = memcpy(p, path, b);
	u->opt = opt ? memcpy(p + b, opt, a) : NULL;
	u->desc = desc ? memcpy(p + b + a, desc, c) : NULL;
	u->output = output;
}

/* What a use is compared by: the file (device and inode), or the path
 * it would have when it does not exist yet; nothing for a file written
 * in place (not a regular file). */
struct use_key {
	int kind; /* 0 none, 1 device and inode, 2 path */
	dev_t dev;
	ino_t ino;
	char *path;
	size_t i; /* the use's index: the command line's order */
};

/* An absolute path with "." and ".." taken out and each '/' single, by
 * its text alone (a directory that does not exist has no realpath). */
static char *lexical(const char *path)
{
	char *cwd = NULL, *abs;
	if (path[0] != '/' && !(cwd = getcwd(NULL, 0)))
		return NULL;
	int rc = asprintf(&abs, "%s/%s", cwd ? cwd : "", path);
	free(cwd);
	if (rc < 0)
		return NULL;
	size_t len = 0; /* what is kept, at the start of abs: never past what is read */
	for (char *r = abs; *r;) {
		while (*r == '/')
			r++;
		size_t k = strcspn(r, "/");
		if (!k)
			break;
		if (k == 2 && r[0] == '.' && r[1] == '.')
			while (len && abs[--len] != '/')
				;
		else if (k != 1 || r[0] != '.') {
			abs[len++] = '/';
			memmove(abs + len, r, k);
			len += k;
		}
		r += k;
	}
	if (!len)
		abs[len++] = '/';
	abs[len] = 0;
	return abs;
}

/* The path a file that does not exist would have: its directory
 * resolved, its name as given; NULL when out of memory. */
static char *missing_key(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	if (*base && strcmp(base, ".") && strcmp(base, "..")) {
		char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
		if (!dir)
			return NULL;
		char *real = realpath(dir, NULL), *key;
		free(dir);
		if (real) {
			int rc = asprintf(&key, "%s/%s", strcmp(real, "/") ? real : "", base);
			free(real);
			return rc < 0 ? NULL : key;
		}
	}
	return lexical(path);
}

static int use_key(const struct file_use *u, struct use_key *k)
{
	struct stat st;
	int std = !strcmp(u->path, "-");
	k->kind = 0;
	k->path = NULL;
	if (std ? !fstat(u->output ? STDOUT_FILENO : STDIN_FILENO, &st) : !stat(u->path, &st)) {
		if (S_ISREG(st.st_mode)) {
			k->kind = 1;
			k->dev = st.st_dev;
			k->ino = st.st_ino;
		}
		return 0;
	}
	if (std) /* closed */
		return 0;
	if (!(k->path = missing_key(u->path)))
		return -1;
	k->kind = 2;
	return 0;
}

static int cmp_use_key(const void *a, const void *b)
{
	const struct use_key *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == 1 && (x->dev != y->dev || x->ino != y->ino))
		return x->dev != y->dev ? (x->dev < y->dev ? -1 : 1) : (x->ino < y->ino ? -1 : 1);
	int c = x->kind == 2 ? strcmp(x->path, y->path) : 0;
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static int same_file(const struct use_key *x, const struct use_key *y)
{
	return x->kind == y->kind &&
	       (x->kind == 1 ? x->dev == y->dev && x->ino == y->ino : !strcmp(x->path, y->path));
}

/* An output as messages name it (see ftlkit.h). */
static void output_name(char *buf, size_t n, const struct file_use *u)
{
	const char *d = u->desc ? u->desc : "";
	if (!strcmp(u->path, "-"))
		snprintf(buf, n, "standard output%s%s%s", *d ? " (" : "", d, *d ? ")" : "");
	else
		snprintf(buf, n, "%s%s%s%s%s%s", u->opt ? u->opt : "", u->opt ? " " : "", u->path, *d ? " (" : "", d,
			 *d ? ")" : "");
}

/* An input, after the output o that is it. */
static void input_name(char *buf, size_t n, const struct file_use *u, const struct file_use *o)
{
	const char *d = u->desc ? u->desc : "a file being read";
	if (u->opt)
		snprintf(buf, n, "%s (%s %s)", d, u->opt, u->path);
	else if (strcmp(u->path, "-") && strcmp(u->path, o->path))
		snprintf(buf, n, "%s (%s)", d, u->path);
	else
		snprintf(buf, n, "%s", d);
}

static void file_uses_free(struct file_uses *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->u[i].path);
	free(l->u);
	*l = (struct file_uses){0};
}

int file_uses_check(struct file_uses *l, char *err, size_t n)
{
	struct use_key *k = l->oom ? NULL : malloc((l->n + 1) * sizeof(*k));
	size_t m = 0;
	int rc = 0;
	for (size_t i = 0; k && i < l->n; i++) {
		if (use_key(&l->u[i], &k[m])) {
			rc = -1;
			break;
		}
		k[m].i = i;
		if (k[m].kind) /* (a file written in place is no one's to replace) */
			m++;
	}
	if (!k || rc) {
		rc = set_err(err, n, "out of memory");
		goto out;
	}
	qsort(k, m, sizeof(*k), cmp_use_key);
	/* In each group of uses of one file (in the command line's order),
	 * the first output and the first input or the second output; of
	 * the groups with such a pair, the one whose output comes first. */
	size_t out = SIZE_MAX, other = SIZE_MAX;
	for (size_t g = 0, e; g < m; g = e) {
		size_t in1 = SIZE_MAX, out1 = SIZE_MAX, out2 = SIZE_MAX;
		for (e = g; e < m && same_file(&k[g], &k[e]); e++) {
			size_t i = k[e].i;
			if (!l->u[i].output)
				in1 = in1 == SIZE_MAX ? i : in1;
			else if (out1 == SIZE_MAX)
				out1 = i;
			else if (out2 == SIZE_MAX)
				out2 = i;
		}
		if (out1 < out && (in1 != SIZE_MAX || out2 != SIZE_MAX)) {
			out = out1;
			other = in1 != SIZE_MAX ? in1 : out2; /* an input replaced first: its loss is worse */
		}
	}
	if (out != SIZE_MAX) {
		char a[1200], b[1200];
		output_name(a, sizeof(a), &l->u[out]);
		if (l->u[other].output) {
			output_name(b, sizeof(b), &l->u[other]);
			snprintf(err, n, "%s and %s name the same file", a, b);
		} else {
			input_name(b, sizeof(b), &l->u[other], &l->u[out]);
			snprintf(err, n, "%s is %s", a, b);
		}
		rc = 1;
	}
out:
	for (size_t i = 0; k && i < m; i++)
		free(k[i].path);
	free(k);
	file_uses_free(l);
	return rc;
}
