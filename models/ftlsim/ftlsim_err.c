/*
 * ftlsim_err.c - how ftlsim ends on an error, in one place: every output
 * file of every model aborted (nothing half-written stays), the progress
 * line ended, the message said, exit 1 (a data or runtime error) or 2 (a
 * usage error, with the pointer to --help). The parts of ftlsim call
 * sim_fail and sim_fail_usage, never exit or die themselves.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ftlsim.h"

/* What an error must clean up: every model's files and the results. */
static struct sim *w_in, **w_models;
static unsigned w_n;

void sim_watch(struct sim *in, struct sim **m, unsigned n)
{
	w_in = in;
	w_models = m;
	w_n = n;
}

/* Every watched output file aborted (also a partial run's end). */
void sim_abort_all(void)
{
	for (unsigned i = 0; i < w_n; i++)
		sim_abort_outputs(w_models[i]);
	if (w_in) {
		out_abort(&w_in->out.results);
		out_abort(&w_in->out.latency); /* (--per-volume's) */
	}
}

/* The grid configuration whose options are being checked, or NULL. */
static const char *w_cell;

void sim_fail_cell(const char *label)
{
	static char ctx[600];
	w_cell = label;
	/* the option parsers' own usage errors (lib/ftlkit.c) name it too */
	snprintf(ctx, sizeof(ctx), "--grid %s: ", label ? label : "");
	usage_context = label ? ctx : NULL;
}

static _Noreturn void fail_v(int code, const char *fmt, va_list ap)
{
	char msg[1024];
	size_t k = w_cell ? (size_t)snprintf(msg, sizeof(msg), "--grid %s: ", w_cell) : 0;
	vsnprintf(msg + (k < sizeof(msg) ? k : sizeof(msg) - 1), sizeof(msg) - (k < sizeof(msg) ? k : sizeof(msg) - 1), fmt, ap);
	sim_abort_all();
	if (w_in && w_in->run.progress_shown)
		fputc('\n', stderr);
	if (code == EXIT_USAGE)
		die(code, "%s\nTry '%s --help'.", msg, prog_name);
	die(code, "%s", msg);
}

_Noreturn void sim_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(EXIT_DATA, fmt, ap);
}

_Noreturn void sim_fail_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(EXIT_USAGE, fmt, ap);
}
