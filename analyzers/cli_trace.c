/*
 * cli_trace.c - shared trace options for the programs (see cli_trace.h).
 */
#include "cli_trace.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "btset.h"
#include "csvspec.h"
#include "ftlkit.h"

static int64_t opt_seconds(const char *opt, const char *arg)
{
	int64_t ns;
	if (parse_fixed9(arg, strlen(arg), &ns))
		usage_error("option '%s' needs seconds (e.g. 1.5), not '%s'", opt, arg);
	return ns;
}

int cli_trace_opt(int c, const char *arg, struct trace_opts *o)
{
	switch (c) {
	case 'f':
		if (!strncmp(arg, "csv:", 4)) {
			cli_trace_opt(OPT_COLUMNS, arg + 4, o);
			arg = "csv";
		}
		if (strcmp(arg, "auto") && !reader_find(arg))
			usage_error("unknown format '%s' (see --list-formats)", arg);
		o->format = arg;
		return 1;
	case OPT_ACTION:
		if (strlen(arg) != 1 || !strchr("DQC", arg[0]))
			usage_error("--action takes D, Q or C, not '%s'", arg);
		o->rd.action = arg[0];
		o->action_given = 1;
		return 1;
	case OPT_OPS:
		if ((o->ops_mask = ev_ops_mask(arg)) <= 0)
			usage_error("--ops takes letters from R, W, D, F (e.g. W,D), not '%s'", arg);
		return 1;
	case OPT_START:
	case OPT_END:
		if (c == OPT_START)
			o->start_ns = opt_seconds("--start", arg);
		else
			o->end_ns = opt_seconds("--end", arg);
		/* both given (in either order): the window must hold something */
		if (o->start_ns != INT64_MIN && o->end_ns != INT64_MAX && o->end_ns <= o->start_ns)
			usage_error("--end must be after --start (the window [--start, --end) is empty)");
		return 1;
	case OPT_VOLUME: {
		uint64_t v = opt_u64("--volume", arg);
		if (v > UINT32_MAX)
			usage_error("--volume %s is out of range", arg);
		o->volume = (int64_t)v;
		return 1;
	}
	case OPT_SORT:
		o->sort = 1;
		return 1;
	case OPT_UNORDERED:
		o->unordered = 1;
		return 1;
	case OPT_SECTOR_SIZE: {
		uint64_t v = opt_size("--sector-size", arg);
		if (v == 0 || v > (1u << 20) || (v & (v - 1)))
			usage_error("--sector-size must be a power of two up to 1M, not '%s'", arg);
		o->rd.sector_size = (unsigned)v;
		return 1;
	}
	case OPT_COLUMNS: {
		struct csvspec sp;
		char err[300];
		if (csvspec_parse(arg, &sp, err, sizeof(err)))
			usage_error("%s", err);
		o->rd.columns = arg;
		if (!o->format)
			o->format = "csv";
		return 1;
	}
	case OPT_SKIP_BAD:
		o->rd.skip_bad = 1;
		return 1;
	case OPT_LIST_FORMATS:
		cli_list_formats();
		exit(EXIT_OK);
	}
	return 0;
}

void cli_uses_check(struct file_uses *u)
{
	char err[2600];
	int rc = file_uses_check(u, err, sizeof(err));
	if (rc > 0)
		usage_error("%s", err);
	if (rc < 0)
		die(EXIT_DATA, "%s", err);
}

void cli_trace_check(struct trace_opts *o)
{
	if (o->rd.columns && o->format && !strcmp(o->format, "auto"))
		o->format = "csv";
	if (o->rd.columns && o->format && strcmp(o->format, "csv"))
		usage_error("--columns maps the columns of a -f csv file; -f %s reads its own", o->format);
	if (o->format && !strcmp(o->format, "csv") && !o->rd.columns)
		usage_error("-f csv needs --columns SPEC (the column map); ftlkit's own CSV (tracecat -o csv, its header "
			    "t_ns,op,offset,length,volume) is read without -f, its format detected");
}

void cli_list_formats(void)
{
	for (const struct reader_ops *const *p = reader_table; *p; p++)
		printf("%-10s %s\n", (*p)->name, (*p)->desc);
}

const char *cli_display_name(const char *path) { return strcmp(path, "-") ? path : "<stdin>"; }

int cli_all_bad(struct trace *t, const char *path, char *err, size_t len)
{
	uint64_t n = trace_bad_count(t);
	if (!n || trace_events_read(t))
		return 0;
	snprintf(err, len,
		 "%s: no event read: --skip-bad skipped %llu bad records, and nothing read is not a "
		 "success (first: %s)",
		 cli_display_name(path), (unsigned long long)n, trace_first_bad(t));
	return -1;
}

const char *cli_none_kept(const char *path, const struct trace_opts *o, uint64_t nread, char *buf, size_t n)
{
	int vol = o->volume >= 0, ops = o->ops_mask != 0, start = o->start_ns != INT64_MIN, end = o->end_ns != INT64_MAX;
	const char *name = cli_display_name(path);
	if (vol && !ops && !start && !end) {
		snprintf(buf, n, "%s: volume %lld is not in the trace (none of its %llu events; --volume)", name,
			 (long long)o->volume, (unsigned long long)nread);
		return buf;
	}
	char by[96] = ""; /* ", --volume V, --ops, ...": the filters given */
	size_t k = 0;
	if (vol)
		k += (size_t)snprintf(by + k, sizeof(by) - k, ", --volume %lld", (long long)o->volume);
	if (ops)
		k += (size_t)snprintf(by + k, sizeof(by) - k, ", --ops");
	if (start)
		k += (size_t)snprintf(by + k, sizeof(by) - k, ", --start");
	if (end)
		k += (size_t)snprintf(by + k, sizeof(by) - k, ", --end");
	snprintf(buf, n, "%s: none of the trace's %llu events is kept%s%s", name, (unsigned long long)nread,
		 k ? " by " : "", k ? by + 2 : "");
	return buf;
}

void cli_report_bad(struct trace *t, const char *path)
{
	uint64_t n = trace_bad_count(t);
	char err[1200];
	if (cli_all_bad(t, path, err, sizeof(err)))
		die(EXIT_DATA, "%s", err);
	if (n)
		warn("%s: %llu bad records skipped (first: %s)", cli_display_name(path),
		     (unsigned long long)n, trace_first_bad(t));
}

/* The set's base with its directory made canonical, so that "d/x" and
 * "./d/x" are one set. */
static char *set_key(const char *base)
{
	const char *slash = strrchr(base, '/');
	char dir[BTSET_PATH], *real, *key;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - base + 1) : 1, slash ? base : ".");
	if (!(real = realpath(dir, NULL)))
		return strdup(base);
	if (asprintf(&key, "%s/%s", real, slash ? slash + 1 : base) < 0)
		key = NULL;
	free(real);
	return key;
}

/* The paths named, before the per-CPU sets are made one: each with where
 * it was named (for messages) and whether it came from a list or a
 * directory (then it must exist). */
struct names {
	char **path;
	size_t n, cap;
};

static void names_add(struct names *l, const char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		if (!(l->path = realloc(l->path, l->cap * sizeof(*l->path))))
			die(EXIT_DATA, "out of memory");
	}
	if (!(l->path[l->n++] = strdup(path)))
		die(EXIT_DATA, "out of memory");
}

static int not_hidden(const struct dirent *d) { return d->d_name[0] != '.'; }
static int by_version(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* A directory without per-CPU blktrace files: its files in name order
 * (numbers compared as numbers), no hidden file, no subdirectory. 0 when
 * it holds a per-CPU set (the set reader takes it whole). */
static int dir_files(const char *dir, struct names *l)
{
	struct dirent **de;
	int n = scandir(dir, &de, not_hidden, by_version);
	if (n < 0)
		die(EXIT_DATA, "%s: cannot list the directory: %s", dir, strerror(errno));
	int set = 0;
	for (int i = 0; i < n; i++) {
		long cpu;
		set |= btset_member_name(de[i]->d_name, &cpu) != 0;
	}
	size_t before = l->n, dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	for (int i = 0; i < n; i++) {
		char *p;
		struct stat st;
		if (!set && asprintf(&p, "%.*s/%s", (int)dl, dir, de[i]->d_name) >= 0) {
			if (!stat(p, &st) && S_ISREG(st.st_mode))
				names_add(l, p);
			free(p);
		}
		free(de[i]);
	}
	free(de);
	if (set)
		return 0;
	if (l->n == before)
		die(EXIT_DATA, "%s: a directory without a trace file (its files are read in name order; hidden "
			       "files and subdirectories are not)", dir);
	return 1;
}

static int is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* One argument (or a list's line, at where): a directory's files, a
 * list's paths, or itself. */
static void expand(const char *arg, const char *where, struct names *l)
{
	if (arg[0] == '@') {
		const char *list = arg + 1;
		if (where)
			die(EXIT_DATA, "%s: @%s: a list cannot name another list", where, list);
		FILE *fp = fopen(list, "r");
		if (!fp)
			die(EXIT_DATA, "%s: cannot read the list of trace files: %s", list, strerror(errno));
		const char *slash = strrchr(list, '/');
		int dl = slash ? (int)(slash - list + 1) : 0;
		char *line = NULL, at[4200];
		size_t cap = 0, before = l->n;
		unsigned long lineno = 0;
		ssize_t len;
		while ((len = getline(&line, &cap, fp)) >= 0) {
			lineno++;
			while (len > 0 && strchr(" \t\r\n", line[len - 1]))
				line[--len] = 0;
			char *p = line + strspn(line, " \t");
			if (!*p || *p == '#')
				continue;
			snprintf(at, sizeof(at), "%s:%lu", list, lineno);
			if (!strcmp(p, "-"))
				die(EXIT_DATA, "%s: standard input (-) cannot be in a list", at);
			if (*p == '@')
				die(EXIT_DATA, "%s: %s: a list cannot name another list", at, p);
			char *full;
			if (asprintf(&full, "%.*s%s", *p == '/' ? 0 : dl, list, p) < 0)
				die(EXIT_DATA, "out of memory");
			char base[BTSET_PATH], err[600];
			struct stat st;
			if (stat(full, &st) && btset_base(full, base, sizeof(base), err, sizeof(err)) <= 0)
				die(EXIT_DATA, "%s: %s: %s", at, full, strerror(ENOENT));
			expand(full, at, l);
			free(full);
		}
		int bad = ferror(fp);
		free(line);
		fclose(fp);
		if (bad)
			die(EXIT_DATA, "%s: cannot read the list of trace files: %s", list, strerror(errno));
		if (l->n == before)
			die(EXIT_DATA, "%s: the list names no trace file (one path a line)", list);
		return;
	}
	if (strcmp(arg, "-") && is_dir(arg) && dir_files(arg, l))
		return;
	names_add(l, arg);
}

/* Where the inputs are kept for the program's life. */
static struct names g_in;

size_t cli_trace_inputs(char *const *args, int n, const struct trace_opts *o, const char ***out,
			const char **name)
{
	struct names all = {0};
	for (int i = 0; i < n; i++)
		expand(args[i], NULL, &all);
	int sets = !o->format || !strcmp(o->format, "auto") || !strcmp(o->format, "blktrace");
	char **key = calloc(all.n + 1, sizeof(*key));
	long *cpu = calloc(all.n + 1, sizeof(*cpu)); /* member named, -1: whole set, -2: a file */
	size_t nout = 0;
	if (!key || !cpu)
		die(EXIT_DATA, "out of memory");
	for (size_t i = 0; i < all.n; i++) {
		const char *path = all.path[i];
		char base[BTSET_PATH], err[600];
		int is_set = sets ? btset_base(path, base, sizeof(base), err, sizeof(err)) : 0;
		if (is_set < 0)
			die(EXIT_DATA, "%s", err);
		if (!strcmp(path, "-") && all.n > 1)
			die(EXIT_DATA, "standard input (-) cannot be one file of a trace set: name files only");
		if (!is_set) {
			struct stat st;
			if (all.n > 1 && stat(path, &st))
				die(EXIT_DATA, "%s: %s", path, strerror(errno));
			/* the same file named twice (overlapping globs) is read once */
			if (all.n > 1 && !(key[i] = realpath(path, NULL)))
				die(EXIT_DATA, "%s: %s", path, strerror(errno));
			cpu[i] = -2;
			int seen = 0;
			for (size_t j = 0; j < i && !seen; j++)
				seen = key[j] && cpu[j] == -2 && !strcmp(key[j], key[i]);
			if (seen) {
				warn("%s: named more than once: read once", path);
				free(all.path[i]);
				continue;
			}
			all.path[nout++] = all.path[i];
			continue;
		}
		const char *slash = strrchr(path, '/');
		long c;
		if (!btset_member_name(slash ? slash + 1 : path, &c) || is_dir(path))
			c = -1;
		char *k = set_key(base);
		if (!k)
			die(EXIT_DATA, "out of memory");
		int seen = 0, twice = 0;
		for (size_t j = 0; j < i; j++) {
			if (!key[j] || cpu[j] == -2 || strcmp(key[j], k))
				continue;
			seen = 1;
			twice |= cpu[j] == c || cpu[j] < 0 || c < 0;
		}
		if (twice)
			warn("%s: the per-CPU set %s is named more than once: each CPU is read once", path, base);
		key[i] = k;
		cpu[i] = c;
		if (!seen)
			all.path[nout++] = all.path[i];
		else
			free(all.path[i]);
	}
	for (size_t i = 0; i < all.n; i++)
		free(key[i]);
	free(key);
	free(cpu);
	g_in = all;
	g_in.n = nout;
	*out = (const char **)g_in.path;
	if (name) {
		static char *set_name;
		if (nout == 1 || !n)
			*name = nout ? g_in.path[0] : "-";
		else if (n == 1)
			*name = args[0];
		else {
			if (asprintf(&set_name, "%s and %zu more files", g_in.path[0], nout - 1) < 0)
				die(EXIT_DATA, "out of memory");
			*name = set_name;
		}
	}
	return nout;
}

void cli_trace_uses(struct file_uses *l, char *const *args, int nargs, const char *const *in, size_t nin)
{
	for (int i = 0; i < nargs; i++)
		if (args[i][0] == '@')
			file_uses_add(l, 0, NULL, args[i] + 1, "the list of the trace's files being read");
	for (size_t i = 0; i < nin; i++) {
		char base[BTSET_PATH], err[600];
		struct btset set;
		if (!strcmp(in[i], "-")) {
			file_uses_add(l, 0, NULL, "-", "the trace being read (standard input)");
			continue;
		}
		file_uses_add(l, 0, NULL, in[i], nin == 1 ? "the trace being read" : "a file of the trace being read");
		if (btset_base(in[i], base, sizeof(base), err, sizeof(err)) <= 0 || btset_find(base, &set, err, sizeof(err)))
			continue; /* (a set that is not whole: its reading says so) */
		for (size_t c = 0; c < set.n; c++)
			file_uses_add(l, 0, NULL, set.member[c], "a file of the trace being read");
		btset_free(&set);
	}
}
