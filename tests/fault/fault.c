/*
 * fault.c - the test-only fault injector. It is never in bin/: the
 * Makefile links the programs' own objects once more with this file and
 * -Wl,--wrap=SYMBOL for each function below (build/fault/PROG), so a
 * call to malloc in ftlkit's code reaches __wrap_malloc here, which
 * counts it and fails the Nth, as SQLite's test harness fails its Nth
 * allocation. Nothing is recompiled and the normal build has no hook.
 *
 *   FTLKIT_FAULT=alloc:N   the Nth allocation (malloc, calloc, realloc,
 *                          aligned_alloc, strdup, strndup; jansson's too,
 *                          since prog_init() routes them through malloc)
 *                          returns NULL
 *   FTLKIT_FAULT=read:N    the Nth read(2) fails with EIO
 *   FTLKIT_FAULT=write:N   at the Nth call that writes to a stream other
 *                          than stderr, the disk fills: the stream's
 *                          descriptor becomes /dev/full, so this write
 *                          and every later one fail with ENOSPC (at the
 *                          write or at the flush, as on a real disk)
 *   FTLKIT_FAULT_COUNT=FILE  at exit, append "alloc A read R write W"
 *                          (the calls counted) to FILE, to bound N
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
ssize_t __real_read(int fd, void *buf, size_t n);
size_t __real_fwrite(const void *p, size_t k, size_t n, FILE *fp);
int __real_fputs(const char *s, FILE *fp);
int __real_fputc(int c, FILE *fp);
int __real_putc(int c, FILE *fp);
int __real_puts(const char *s);
int __real_vfprintf(FILE *fp, const char *fmt, va_list ap);
int __real_fflush(FILE *fp);
int __real_fclose(FILE *fp);
int __real_json_dumpf(const json_t *j, FILE *fp, size_t flags);

enum { K_ALLOC, K_READ, K_WRITE, K_N };
static const char *const kind_name[K_N] = {"alloc", "read", "write"};
static unsigned long count[K_N];
static int fail_kind = -1;
static unsigned long fail_at;
static const char *count_file;

static void report(void)
{
	FILE *fp = fopen(count_file, "a");
	if (!fp)
		return;
	fprintf(fp, "alloc %lu read %lu write %lu\n", count[K_ALLOC], count[K_READ], count[K_WRITE]);
	__real_fclose(fp);
}

__attribute__((constructor)) static void fault_init(void)
{
	const char *s = getenv("FTLKIT_FAULT");
	if (s && *s) {
		const char *colon = strchr(s, ':');
		for (int k = 0; k < K_N && colon; k++)
			if ((size_t)(colon - s) == strlen(kind_name[k]) && !strncmp(s, kind_name[k], colon - s))
				fail_kind = k;
		char *end;
		fail_at = colon ? strtoul(colon + 1, &end, 10) : 0;
		if (fail_kind < 0 || !fail_at || *end) {
			fprintf(stderr, "fault: FTLKIT_FAULT='%s': want alloc:N, read:N or write:N\n", s);
			_exit(99);
		}
	}
	count_file = getenv("FTLKIT_FAULT_COUNT");
	if (count_file && *count_file)
		atexit(report);
}

/* One more call of this kind: 1 if it is the one to fail. */
static int hit(int k)
{
	return ++count[k] == fail_at && fail_kind == k;
}

void *__wrap_malloc(size_t n)
{
	if (hit(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n)
{
	if (hit(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n)
{
	if (hit(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_realloc(p, n);
}

void *__wrap_aligned_alloc(size_t a, size_t n)
{
	if (hit(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_aligned_alloc(a, n);
}

char *__wrap_strdup(const char *s)
{
	if (hit(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	if (hit(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strndup(s, n);
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	if (hit(K_READ)) {
		errno = EIO;
		return -1;
	}
	return __real_read(fd, buf, n);
}

/* A write to fp: at the Nth, the disk under fp fills up. */
static void writing(FILE *fp)
{
	if (fp == stderr || !hit(K_WRITE))
		return;
	int full = open("/dev/full", O_WRONLY);
	if (full >= 0) {
		dup2(full, fileno(fp));
		close(full);
	}
}

size_t __wrap_fwrite(const void *p, size_t k, size_t n, FILE *fp)
{
	writing(fp);
	return __real_fwrite(p, k, n, fp);
}

int __wrap_fputs(const char *s, FILE *fp)
{
	writing(fp);
	return __real_fputs(s, fp);
}

int __wrap_fputc(int c, FILE *fp)
{
	writing(fp);
	return __real_fputc(c, fp);
}

int __wrap_putc(int c, FILE *fp)
{
	writing(fp);
	return __real_putc(c, fp);
}

int __wrap_putchar(int c)
{
	writing(stdout);
	return __real_putc(c, stdout);
}

int __wrap_puts(const char *s)
{
	writing(stdout);
	return __real_puts(s);
}

int __wrap_vfprintf(FILE *fp, const char *fmt, va_list ap)
{
	writing(fp);
	return __real_vfprintf(fp, fmt, ap);
}

int __wrap_fprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	writing(fp);
	int r = __real_vfprintf(fp, fmt, ap);
	va_end(ap);
	return r;
}

int __wrap_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	writing(stdout);
	int r = __real_vfprintf(stdout, fmt, ap);
	va_end(ap);
	return r;
}

int __wrap_fflush(FILE *fp)
{
	if (fp)
		writing(fp);
	return __real_fflush(fp);
}

int __wrap_fclose(FILE *fp)
{
	writing(fp);
	return __real_fclose(fp);
}

int __wrap_json_dumpf(const json_t *j, FILE *fp, size_t flags)
{
	writing(fp);
	return __real_json_dumpf(j, fp, flags);
}
