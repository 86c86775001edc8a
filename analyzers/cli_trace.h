/*
 * cli_trace.h - the trace-reading options every program shares
 * (-f, --action, --ops, --start, --end, --volume, --sort, --unordered,
 * --sector-size, --skip-bad), parsed in one place, and what the FILE
 * arguments name: one trace, of one file or a set of them.
 */
#ifndef FTLKIT_CLI_TRACE_H
#define FTLKIT_CLI_TRACE_H

#include <getopt.h>

#include "trace.h"

enum {
	OPT_TRACE_BASE = 1000,
	OPT_ACTION = OPT_TRACE_BASE,
	OPT_OPS,
	OPT_START,
	OPT_END,
	OPT_VOLUME,
	OPT_SORT,
	OPT_SECTOR_SIZE,
	OPT_SKIP_BAD,
	OPT_LIST_FORMATS,
	OPT_COLUMNS,
	OPT_UNORDERED,
	OPT_TRACE_END
};

#define CLI_TRACE_LONGOPTS                                            \
	{"format", required_argument, NULL, 'f'},                     \
	{"action", required_argument, NULL, OPT_ACTION},              \
	{"ops", required_argument, NULL, OPT_OPS},                    \
	{"start", required_argument, NULL, OPT_START},                \
	{"end", required_argument, NULL, OPT_END},                    \
	{"volume", required_argument, NULL, OPT_VOLUME},              \
	{"sort", no_argument, NULL, OPT_SORT},                        \
	{"sector-size", required_argument, NULL, OPT_SECTOR_SIZE},    \
	{"skip-bad", no_argument, NULL, OPT_SKIP_BAD},                \
	{"list-formats", no_argument, NULL, OPT_LIST_FORMATS},        \
	{"columns", required_argument, NULL, OPT_COLUMNS},              \
	{"unordered", no_argument, NULL, OPT_UNORDERED}

#define CLI_TRACE_HELP                                                                  \
	"Trace input (FILE or - for stdin; compressed .gz .bz2 .zst .xz read as is;\n"   \
	"several FILEs, a DIR (its files in name order) or @LIST (a file of paths,\n"    \
	"one a line) are one trace, its files read one after another in time order):\n"  \
	"  -f, --format NAME    trace format (default auto: detected from the content;\n" \
	"                       --list-formats shows the names)\n"                        \
	"      --action D|Q|C   blktrace/blkparse: the event per I/O (issue D, queue Q,\n" \
	"                       complete C; default D)\n"                                 \
	"      --ops LIST       keep only these ops, e.g. W,D (R read, W write,\n"        \
	"                       D discard, F flush)\n"                                    \
	"      --start SEC      drop events before SEC seconds from the first event\n"   \
	"      --end SEC        drop events at or after SEC seconds\n"                   \
	"      --volume ID      keep one volume (multi-volume traces)\n"                 \
	"      --sort           emit in time order (buffers the whole trace)\n"          \
	"      --unordered      a set's files may go back in time where one ends and\n"  \
	"                       the next begins (default: an error naming both)\n"      \
	"      --sector-size N  bytes per sector for sector-based formats\n"             \
	"      --skip-bad       skip bad records and count them\n"                         \
	"      --columns SPEC   -f csv: the column map, e.g. 't=1:us op=2:r=R,w=W\n"      \
	"                       offset=3:sectors length=4 volume=5' (-f csv:SPEC too)\n"

/* Handle one of the shared options; returns 1 if c was one of them. */
int cli_trace_opt(int c, const char *arg, struct trace_opts *o);
void cli_list_formats(void);
/*
 * The trace that the FILE arguments name: the files of one trace set
 * (trace_open_set), in order. An argument is
 *   - a FILE, or - for standard input (alone);
 *   - a blktrace per-CPU set (btset.h): a member, its base or its
 *     directory; its members named again (as a glob like NAME.blktrace.*
 *     gives them) are read once, with a note on stderr when named twice;
 *   - a directory without per-CPU files: its files in name order
 *     (numbers in names compared as numbers, x.2 before x.10), not its
 *     hidden files or subdirectories;
 *   - @LIST: the paths LIST holds, one a line (blank lines and lines
 *     starting with # skipped; a relative path is from LIST's directory),
 *     each a FILE, a per-CPU set or a directory; a list names no list.
 * Returns the count of files; *out their paths, kept for the program's
 * life; *name (if not NULL) the trace's name in messages: the file's
 * path, the one argument naming a directory or list, or "FIRST and N
 * more files". Dies on an error (exit 1).
 */
size_t cli_trace_inputs(char *const *args, int n, const struct trace_opts *o, const char ***out,
			const char **name);
/*
 * After a trace ends: -1, with a message naming the file in err, when
 * --skip-bad skipped every record the reader found (it gave no event):
 * nothing read is not a success. Else 0.
 */
/* After the options: -f csv without --columns, or --columns with
 * another format, is a usage error (exit 2); -f auto with --columns
 * reads csv. */
void cli_trace_check(struct trace_opts *o);
/* file_uses_check, its clash a usage error (exit 2), no memory exit 1. */
struct file_uses;
void cli_uses_check(struct file_uses *u);
int cli_all_bad(struct trace *t, const char *path, char *err, size_t n);
/*
 * After a trace of nread events (nread > 0) whose filters kept none: the
 * message in buf (returned), "PATH: volume V is not in the trace (none
 * of its N events; --volume)" when --volume is the only filter, else
 * "PATH: none of the trace's N events is kept by --volume V, --ops,
 * --start, --end" (the filters given). ftlsim fails with it; tracestat
 * and tracecat say it and go on (a summary, a stream, of no event).
 */
const char *cli_none_kept(const char *path, const struct trace_opts *o, uint64_t nread, char *buf, size_t n);
/* After a trace ends: report skipped records on stderr. */
void cli_report_bad(struct trace *t, const char *path);
/*
 * The trace's files as the inputs of a file_uses check (ftlkit.h): the
 * files cli_trace_inputs gave (in, nin), the members of each per-CPU
 * set among them, each @LIST of args, standard input for "-".
 */
struct file_uses;
void cli_trace_uses(struct file_uses *l, char *const *args, int nargs, const char *const *in, size_t nin);
/* A path as messages name it: "-" is "<stdin>". */
const char *cli_display_name(const char *path);

#endif
