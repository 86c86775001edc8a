/*
 * ftlkit.h - what every ftlkit program shares: version, exit codes,
 * error reporting, strict number parsing and KEY=VALUE lists.
 *
 * Library code returns errors (a negative value and a message in a
 * caller's buffer); only a program's main() prints and exits.
 */
#ifndef FTLKIT_H
#define FTLKIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define FTLKIT_VERSION "0.1.0"

enum {
	EXIT_OK = 0,
	EXIT_DATA = 1,	/* bad input, runtime error */
	EXIT_USAGE = 2, /* bad command line */
	EXIT_INTR = 130 /* interrupted by SIGINT */
};

/* Program name for messages, set by main() through prog_init(), which
 * also routes jansson's allocations through a check: json_oom is set
 * when one failed, so a JSON value may lack a member, and a program
 * must then not print it. */
extern const char *prog_name;
extern int json_oom;
void prog_init(const char *argv0);

/* "PROG: message\n" on stderr, then exit(code). */
_Noreturn void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "PROG: message\n" on stderr. */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: message\nTry 'PROG --help'.\n", exit 2; the message after
 * usage_context when set (what it is about: "--grid op=0.1: "). */
_Noreturn void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
extern const char *usage_context;
void print_version(void);
/*
 * The hidden --list-options: when it is the only argument, print the
 * long options of a getopt_long table, one a line ("--name", "--name="
 * when it takes an argument, "--name[=]" when the argument is optional)
 * and exit 0. The man pages' test and the bash completion read it.
 */
struct option;
void list_options(int argc, char **argv, const struct option *longopts);
/* After getopt_long returned '?' (it said why): "bad option", or with
 * the long option nearest the unknown one (two edits at most). */
const char *bad_option(char **argv, const struct option *longopts);
/* The long options nearest the n bytes of name (two edits at most, and
 * at most a third of its length), each after dashes ("--" or ""): one,
 * or those equally near ("--op or --ops", three at most); or NULL. The
 * text is in a static buffer. */
const char *nearest_option(const char *name, size_t n, const struct option *longopts, const char *dashes);

/* snprintf into a fixed error buffer; returns -1 so callers can
 * 'return set_err(...)'. */
int set_err(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Strict parsers: the whole string must be a number in range.
 * Return 0 on success, -1 otherwise (value untouched).
 */
int parse_u64(const char *s, uint64_t *out);
int parse_i64(const char *s, int64_t *out);
int parse_double(const char *s, double *out);
/* Integer with optional K/M/G/T/P (binary) suffix, e.g. "4K", "16G". */
int parse_size(const char *s, uint64_t *out);
/*
 * Decimal number with up to 9 fractional digits scaled by 10^9,
 * exactly (no floating point): "1456095145.133076000" -> ns.
 * Negative values rejected.
 */
int parse_fixed9(const char *s, size_t len, int64_t *out);

/*
 * KEY=VALUE lists ("size=1M,max_open=4"), as options take them: spec
 * split at each ',' into fields and each field at its first '=', then
 * fn called on each field in order, its key and value NUL-terminated
 * (a value may be empty; fn judges it). An empty spec has no field.
 * Refused: an empty field (a ',' first, last or doubled), a field
 * without '=' or with an empty key, a key given twice, more than
 * KV_MAX_FIELDS fields or KV_MAX_LEN characters, and whatever fn
 * refuses (it returns -1 with its message in its own err). With
 * KV_BARE_FIRST the first field may lack '=': fn gets it as the value,
 * key NULL (a profile name before its keys, "femu,channels=8").
 * Messages: "WHAT SPEC: ..." for the list's faults, "WHAT: " and fn's
 * message for a field's; what NULL: the message alone. 0 or -1; no
 * allocation.
 */
#define KV_BARE_FIRST 0x1
#define KV_MAX_FIELDS 64
#define KV_MAX_LEN 1024 /* characters of a spec */
typedef int (*kv_fn)(void *ctx, const char *key, const char *val, char *err, size_t n);
int kv_parse(const char *what, const char *spec, unsigned flags, kv_fn fn, void *ctx, char *err, size_t n);

/* Option helpers for main(): die with a usage error naming the option. */
uint64_t opt_u64(const char *opt, const char *arg);
uint64_t opt_size(const char *opt, const char *arg);
double opt_double(const char *opt, const char *arg);
/* Options that exclude each other (--json, --csv): c, the one given now;
 * *given, the one given before (0: none). The same one again is fine;
 * another is a usage error saying msg. */
void opt_one_of(int *given, int c, const char *msg);

/* Output to a temporary name, renamed into place by out_commit(), so an
 * interrupted run never leaves a truncated file that looks complete; the
 * temporary is removed by out_abort(), die() or a signal (sig.h).
 * A path that names something other than a regular file (/dev/null,
 * /dev/stdout, a FIFO) is written directly: renaming a temporary over
 * it would replace the device. Past a quarter of the open-file limit
 * (a grid's hundreds of files), an output's temporary holds no
 * descriptor: each buffer of it is appended by opening and closing the
 * file, so any number of outputs can be written at once. */
struct outfile {
	char *path;
	char *tmp;
	void *fp; /* FILE * */
	int slot; /* in the table of temporaries a signal removes (sig.h) */
	int lazy; /* holds no descriptor between writes (out_open) */
	int closed; /* written whole (out_close), its temporary not yet renamed */
};
int out_open(struct outfile *o, const char *path, char *err, size_t n);
/* A stream (FILE *) writing to descriptor fd whose writes go on where a
 * signal interrupts them: the first SIGINT, SIGTERM or SIGHUP interrupts
 * a blocked call (sig.h), and a write to a pipe, a FIFO or a terminal
 * that stdio saw fail with EINTR would drop what it held. fclose closes
 * fd when close_fd is set. sig_init makes stdout one; an output written
 * in place is one. NULL when out of memory. */
void *fd_stream(int fd, int close_fd);
/* A CSV field (FILE * fp): as it is, or quoted (RFC 4180) when it holds
 * a comma, a double quote or a line break. */
void csv_str(void *fp, const char *v);
int out_commit(struct outfile *o, char *err, size_t n);
/* The first half of out_commit: the stream flushed and closed, its
 * errors said (the temporary then removed), the temporary kept for
 * out_commit to rename (out_abort removes it). A run of many files
 * closes them all before it renames any, so that a full disk leaves
 * none of them, not those renamed before the one that failed. */
int out_close(struct outfile *o, char *err, size_t n);
void out_abort(struct outfile *o);

/*
 * The files a command line names, checked before any is read: an output
 * that is one of the inputs would replace it (out_open renames its
 * temporary over the path), and two outputs that are one file would
 * replace each other. Each use is an output or an input; path "-" is
 * standard output or standard input. One file is found as one however
 * it is named: by device and inode when it exists (a symbolic link, a
 * hard link, another spelling), else by its path made absolute with its
 * directory resolved (realpath). What is not a regular file (/dev/null,
 * a terminal, a pipe, a FIFO) is written in place, replacing nothing:
 * any number of outputs may name it. /dev/stdout or /dev/fd/N that
 * stands for a regular file is that file.
 *
 * In messages an output is "OPT PATH" ("standard output" for "-"), its
 * desc after it in parentheses when given ("--grid configuration 3");
 * an input is its desc ("the trace being read"), then "(OPT PATH)" when
 * it has an option, or "(PATH)" when the output names it otherwise.
 */
struct file_use {
	char *opt, *path, *desc; /* one block, owned by the list */
	int output;
};
struct file_uses {
	struct file_use *u;
	size_t n, cap;
	int oom; /* an add failed: file_uses_check says out of memory */
};
/* Add a use (the strings are copied; opt and desc may be NULL). */
void file_uses_add(struct file_uses *l, int output, const char *opt, const char *path, const char *desc);
/* 0 when no output is an input or another output; 1 with the first
 * such pair said in err ("--curve t.csv is the trace being read",
 * "--curve x.csv and --hist x.csv name the same file"); -1 out of
 * memory. The list is emptied and freed either way. */
int file_uses_check(struct file_uses *l, char *err, size_t n);

#endif
