/*
 * cli_trace.c - shared trace options for the programs (see cli_trace.h).
 */
#include "cli_trace.h"

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

void cli_list_formats(void)
{
	for (const struct reader_ops *const *p = reader_table; *p; p++)
		printf("%-10s %s\n", (*p)->name, (*p)->desc);
}

static const char *display_name(const char *path) { return strcmp(path, "-") ? path : "<stdin>"; }

int cli_all_bad(struct trace *t, const char *path, char *err, size_t len)
{
	uint64_t n = trace_bad_count(t);
	if (!n || trace_events_read(t))
		return 0;
	snprintf(err, len,
		 "%s: no event read: --skip-bad skipped %llu bad records, and nothing read is not a "
		 "success (first: %s)",
		 display_name(path), (unsigned long long)n, trace_first_bad(t));
	return -1;
}

void cli_report_bad(struct trace *t, const char *path)
{
	uint64_t n = trace_bad_count(t);
	char err[1200];
	if (cli_all_bad(t, path, err, sizeof(err)))
		die(EXIT_DATA, "%s", err);
	if (n)
		warn("%s: %llu bad records skipped (first: %s)", display_name(path),
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

int cli_trace_inputs(char *const *paths, int n, const struct trace_opts *o, const char **out)
{
	int sets = !o->format || !strcmp(o->format, "auto") || !strcmp(o->format, "blktrace");
	char **key = calloc((size_t)n + 1, sizeof(*key));
	long *cpu = calloc((size_t)n + 1, sizeof(*cpu)); /* member named, -1: whole set */
	int nout = 0;
	if (!key || !cpu)
		die(EXIT_DATA, "out of memory");
	for (int i = 0; i < n; i++) {
		char base[BTSET_PATH], err[600];
		int is_set = sets ? btset_base(paths[i], base, sizeof(base), err, sizeof(err)) : 0;
		if (is_set < 0)
			die(EXIT_DATA, "%s", err);
		if (!is_set) {
			out[nout++] = paths[i];
			continue;
		}
		const char *slash = strrchr(paths[i], '/');
		long c;
		struct stat st;
		if (!btset_member_name(slash ? slash + 1 : paths[i], &c) ||
		    (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)))
			c = -1;
		char *k = set_key(base);
		if (!k)
			die(EXIT_DATA, "out of memory");
		int seen = 0, twice = 0;
		for (int j = 0; j < i; j++) {
			if (!key[j] || strcmp(key[j], k))
				continue;
			seen = 1;
			twice |= cpu[j] == c || cpu[j] < 0 || c < 0;
		}
		if (twice)
			warn("%s: the per-CPU set %s is named more than once: each CPU is read once",
			     paths[i], base);
		if (!seen)
			out[nout++] = paths[i];
		key[i] = k;
		cpu[i] = c;
	}
	for (int i = 0; i < n; i++)
		free(key[i]);
	free(key);
	free(cpu);
	return nout;
}
