/*
 * btset.c - naming and finding blktrace per-CPU sets (see btset.h).
 */
#include "btset.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ftlkit.h"

#define CPU_TAG ".blktrace."

static const char *const codec_ext[] = {"", ".gz", ".bz2", ".zst", ".xz"};

size_t btset_member_name(const char *name, long *cpu)
{
	const char *tag = NULL;
	for (const char *q = name; (q = strstr(q, CPU_TAG)); q++)
		tag = q;
	if (!tag || tag == name)
		return 0;
	const char *d = tag + strlen(CPU_TAG);
	size_t nd = strspn(d, "0123456789");
	if (!nd || (d[0] == '0' && nd > 1))
		return 0;
	size_t i;
	for (i = 0; i < sizeof(codec_ext) / sizeof(codec_ext[0]); i++)
		if (!strcmp(d + nd, codec_ext[i]))
			break;
	if (i == sizeof(codec_ext) / sizeof(codec_ext[0]))
		return 0;
	*cpu = nd > 5 || strtol(d, NULL, 10) >= BTSET_MAX_CPUS ? -1 : strtol(d, NULL, 10);
	return (size_t)(tag - name);
}

/* Split path into its directory (for opendir; "." when none) and the
 * length of the directory prefix kept in member paths. */
static void split_dir(const char *path, char *dir, size_t n, size_t *prefix)
{
	const char *slash = strrchr(path, '/');
	*prefix = slash ? (size_t)(slash - path + 1) : 0;
	snprintf(dir, n, "%.*s", slash ? (int)*prefix : 1, slash ? path : ".");
}

static int is_dir(const char *path, int *exists)
{
	struct stat st;
	*exists = stat(path, &st) == 0;
	return *exists && S_ISDIR(st.st_mode);
}

/* A directory's one set: 1 with base, -1 for none or several. */
static int dir_base(const char *path, char *base, size_t n, char *err, size_t en)
{
	DIR *dp = opendir(path);
	if (!dp)
		return set_err(err, en, "%s: cannot list the directory: %s", path, strerror(errno));
	char first[256] = "", second[256] = "";
	struct dirent *de;
	while ((de = readdir(dp))) {
		long cpu;
		size_t bl = btset_member_name(de->d_name, &cpu);
		if (!bl || bl >= sizeof(first))
			continue;
		if (!first[0])
			snprintf(first, sizeof(first), "%.*s", (int)bl, de->d_name);
		else if ((strlen(first) != bl || strncmp(first, de->d_name, bl)) && !second[0])
			snprintf(second, sizeof(second), "%.*s", (int)bl, de->d_name);
	}
	closedir(dp);
	if (!first[0])
		return set_err(err, en, "%s: a directory without blktrace per-CPU files (NAME" CPU_TAG "N)",
			       path);
	if (second[0])
		return set_err(err, en, "%s: holds more than one blktrace set ('%s', '%s'): name one",
			       path, first, second);
	size_t pl = strlen(path);
	while (pl > 1 && path[pl - 1] == '/')
		pl--;
	if (pl + 1 + strlen(first) >= n)
		return set_err(err, en, "%s: path too long", path);
	snprintf(base, n, "%.*s/%s", (int)pl, path, first);
	return 1;
}

int btset_base(const char *path, char *base, size_t n, char *err, size_t en)
{
	if (!strcmp(path, "-"))
		return 0;
	if (strlen(path) + 32 >= n || strlen(path) + 32 >= BTSET_PATH)
		return set_err(err, en, "%s: path too long", path);
	int exists;
	if (is_dir(path, &exists))
		return dir_base(path, base, n, err, en);
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	long cpu;
	size_t bl = btset_member_name(name, &cpu);
	if (exists) {
		if (!bl)
			return 0; /* a lone file */
		snprintf(base, n, "%.*s", (int)(name - path + bl), path);
		return 1;
	}
	if (bl)
		return 0; /* a member that is not there: the open says so */
	/* A base name: members in its directory? */
	char dir[BTSET_PATH];
	size_t prefix;
	split_dir(path, dir, sizeof(dir), &prefix);
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	size_t nl = strlen(name);
	int found = 0;
	struct dirent *de;
	while (!found && (de = readdir(dp)))
		found = btset_member_name(de->d_name, &cpu) == nl && !strncmp(de->d_name, name, nl);
	closedir(dp);
	if (found)
		snprintf(base, n, "%s", path);
	return found;
}

void btset_free(struct btset *s)
{
	for (size_t i = 0; s->member && i < s->n; i++)
		free(s->member[i]);
	free(s->member);
	s->member = NULL;
	s->n = 0;
}

/* "a.blktrace.0, a.blktrace.2.gz" (file names, at most 8, then how many
 * in all) into buf. */
static void list_present(const struct btset *s, size_t cap, char *buf, size_t n)
{
	size_t len = 0, shown = 0, all = 0;
	buf[0] = 0;
	for (size_t i = 0; i < cap; i++) {
		if (!s->member[i])
			continue;
		all++;
		if (shown == 8)
			continue;
		const char *nm = strrchr(s->member[i], '/');
		nm = nm ? nm + 1 : s->member[i];
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", shown ? ", " : "", nm);
		shown++;
	}
	if (all > shown && len < n)
		snprintf(buf + len, n - len, " and %zu more", all - shown);
}

int btset_find(const char *base, struct btset *s, char *err, size_t en)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->base, sizeof(s->base), "%s", base);
	char dir[BTSET_PATH];
	size_t prefix;
	split_dir(base, dir, sizeof(dir), &prefix);
	const char *name = base + prefix;
	size_t nl = strlen(name), cap = 0;
	long max = -1;
	DIR *dp = opendir(dir);
	if (!dp)
		return set_err(err, en, "%s: cannot list the directory of the per-CPU files: %s", base,
			       strerror(errno));
	int rc = 0;
	struct dirent *de;
	while (!rc && (de = readdir(dp))) {
		long cpu;
		if (btset_member_name(de->d_name, &cpu) != nl || strncmp(de->d_name, name, nl))
			continue;
		if (cpu < 0) {
			rc = set_err(err, en, "%.*s%s: CPU number too large (at most %d)", (int)prefix, base,
				     de->d_name, BTSET_MAX_CPUS - 1);
			break;
		}
		if ((size_t)cpu >= cap) {
			size_t ncap = cap ? cap : 4;
			while (ncap <= (size_t)cpu)
				ncap *= 2;
			char **nm = realloc(s->member, ncap * sizeof(*nm));
			if (!nm) {
				rc = set_err(err, en, "out of memory");
				break;
			}
			memset(nm + cap, 0, (ncap - cap) * sizeof(*nm));
			s->member = nm;
			cap = ncap;
		}
		char path[BTSET_PATH + 256];
		snprintf(path, sizeof(path), "%.*s%s", (int)prefix, base, de->d_name);
		if (s->member[cpu]) {
			rc = set_err(err, en, "%s: CPU %ld is there twice, also as %s: keep one", path, cpu,
				     s->member[cpu]);
			break;
		}
		if (!(s->member[cpu] = strdup(path))) {
			rc = set_err(err, en, "out of memory");
			break;
		}
		if (cpu > max)
			max = cpu;
	}
	closedir(dp);
	s->n = cap; /* for btset_free until the set is known whole */
	if (!rc && max < 0)
		rc = set_err(err, en, "%s" CPU_TAG "0: no such per-CPU file", base);
	for (long i = 0; !rc && i <= max; i++) {
		if (s->member[i])
			continue;
		char present[320];
		list_present(s, cap, present, sizeof(present));
		const char *hi = strrchr(s->member[max], '/');
		rc = set_err(err, en, "%s" CPU_TAG "%ld: missing per-CPU file (the set goes up to %s; present: %s)",
			     base, i, hi ? hi + 1 : s->member[max], present);
	}
	if (rc) {
		btset_free(s);
		return -1;
	}
	s->n = (size_t)max + 1;
	return 0;
}
