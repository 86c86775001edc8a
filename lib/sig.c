/*
 * sig.c - one handler for SIGINT, SIGTERM and SIGHUP, and the table of
 * temporary output files it removes (see sig.h).
 */
#include "sig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ftlkit.h"

volatile sig_atomic_t sig_caught;

/* Outputs open at once: a handful per program, thousands with a grid's
 * models each writing its own files. The handler reads the table up to
 * top, so a slot is filled before the file exists and emptied after it
 * is renamed; a free slot is looked for from the one after the last
 * taken, so that filling the table costs a step a file. */
enum { MAX_TMP = 1 << 16 };
static const char *volatile tmps[MAX_TMP];
static volatile int top; /* the slots in use lie below it */
static int hint;

/* When the first signal came (CLOCK_MONOTONIC, ns); written by the
 * handler only, with the three signals blocked while it runs. */
static volatile long long first_ns;

static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
enum { NSIGS = sizeof(sigs) / sizeof(sigs[0]) };
static int handled[NSIGS]; /* not SIGHUP under nohup */
static struct sigaction after_first;

void sig_remove_tmps(void)
{
	for (int i = 0, n = top; i < n; i++) {
		const char *p = tmps[i];
		if (p)
			unlink(p);
	}
}

static long long now_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

const char *sig_name(int sig)
{
	return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

/* write(2) of a string: what a handler may call. */
static void say(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* A later signal forces the stop when a person asked twice: it came
 * from the terminal (the kernel sends a keyboard's SIGINT once to each
 * process of the foreground group, so a second one is a second key
 * press), or SIG_GRACE_NS or more after the first. A copy from another
 * process within the grace is the same request delivered twice
 * (timeout(1) signals the child and then its process group; Slurm
 * signals the step's processes and their group): it is ignored. */
static int forced(const siginfo_t *si)
{
#ifdef SI_KERNEL
	if (si && si->si_code == SI_KERNEL)
		return 1;
#else
	(void)si;
#endif
	/* first_ns not yet seen (another thread is in the handler of the
	 * first, this is its copy), or no clock: not forced by time. */
	long long t = now_ns(), t0 = first_ns;
	return t0 && t && t - t0 >= SIG_GRACE_NS;
}

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (!sig_caught) {
		first_ns = now_ns();
		sig_caught = sig;
		/* This signal interrupts a blocked read (no SA_RESTART); a
		 * copy that follows must not interrupt the writes of the
		 * summary. */
		for (int i = 0; i < NSIGS; i++)
			if (handled[i])
				sigaction(sigs[i], &after_first, NULL);
		return;
	}
	if (!forced(si))
		return;
	/* Asked twice: do not wait for the program to notice. */
	sig_remove_tmps();
	say(prog_name ? prog_name : "ftlkit");
	say(": stopped at once by a second ");
	say(sig_name(sig));
	say(" (no summary)\n");
	_exit(128 + sig_caught);
}

/* SIGPIPE (a reader of our output gone: `| head`): the program ends as
 * by default, without a summary, and without leaving a temporary. */
static void on_sigpipe(int sig)
{
	struct sigaction dfl;
	sig_remove_tmps();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig); /* delivered as the handler returns */
}

void sig_init(void)
{
	struct sigaction sa, pipe_sa, old_pipe;
	/* Many outputs open at once (a grid's files) pass the usual soft
	 * limit of 1024 open files: it is raised to the hard limit, as far
	 * as the table of temporaries goes. */
	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max && rl.rlim_cur < 4 * MAX_TMP) {
		rl.rlim_cur = rl.rlim_max < 4 * MAX_TMP ? rl.rlim_max : 4 * MAX_TMP;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	/* The first signal interrupts a blocked call (below): a summary or a
	 * stream blocked on a full pipe would lose what stdio held (a hole
	 * in the JSON, exit 0). Standard output's writes go on instead, and
	 * standard error's. */
	FILE *out = fd_stream(STDOUT_FILENO, 0);
	if (out)
		stdout = out;
	/* and the diagnostics' (unbuffered, as stderr is: a message one
	 * write, in its order with the others') */
	FILE *diag = fd_stream(STDERR_FILENO, 0);
	if (diag && !setvbuf(diag, NULL, _IONBF, 0))
		stderr = diag;
	/* Left ignored when whoever started us ignores it: writes then fail
	 * with EPIPE, an I/O error each program reports (exit 1). */
	memset(&pipe_sa, 0, sizeof(pipe_sa));
	pipe_sa.sa_handler = on_sigpipe;
	sigemptyset(&pipe_sa.sa_mask);
	if (sigaction(SIGPIPE, NULL, &old_pipe) == 0 && old_pipe.sa_handler != SIG_IGN)
		sigaction(SIGPIPE, &pipe_sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NSIGS; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	after_first = sa;
	after_first.sa_flags = SA_SIGINFO | SA_RESTART;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: a blocked read returns EINTR */
	for (int i = 0; i < NSIGS; i++) {
		struct sigaction old;
		/* SIGHUP ignored by whoever started us (nohup) stays ignored;
		 * SIGINT is caught even where a non-interactive shell ignored it
		 * for a background job, so that kill -INT stops one. */
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		handled[i] = sigaction(sigs[i], &sa, NULL) == 0;
	}
}

int sig_track(const char *tmp)
{
	for (int k = 0; k < MAX_TMP; k++) {
		int i = (hint + k) % MAX_TMP;
		if (!tmps[i]) {
			tmps[i] = tmp;
			if (i >= top)
				top = i + 1;
			hint = i + 1;
			return i;
		}
	}
	return -1;
}

void sig_untrack(int slot)
{
	if (slot >= 0 && slot < MAX_TMP)
		tmps[slot] = NULL;
}

int sig_status(void)
{
	return 128 + (sig_caught ? sig_caught : SIGINT);
}

void sig_exit(void)
{
	sig_remove_tmps();
	fflush(stdout);
	fprintf(stderr, "%s: stopped by %s\n", prog_name, sig_name(sig_caught));
	_exit(sig_status());
}
