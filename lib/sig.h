/*
 * sig.h - SIGINT, SIGTERM and SIGHUP handled alike by every program.
 *
 * sig_init() installs one handler for the three. The first signal only
 * records itself in sig_caught: a program checks that flag in its main
 * loop (one load of a volatile, no system call), stops, writes what it
 * promises on an interruption (ftlsim and tracestat a summary marked
 * "partial") and ends through sig_exit(). Programs call sig_init() first
 * in main, so that a signal at any moment after that is a stop with a
 * summary, not a death without one. SIGPIPE (a reader gone) still ends
 * a program by default, once its temporaries are removed (unless it
 * was started with SIGPIPE ignored: then a write fails with EPIPE).
 *
 * The same request often arrives twice: timeout(1) sends its signal to
 * the child and then to its own process group (the child is in it), and
 * Slurm signals a step's processes and their process group. So a later
 * signal (any of the three) is ignored, as a copy of the first, unless a
 * person asked twice:
 *   - it came from the terminal (a second Ctrl-C: the kernel sends one
 *     copy of a keyboard's SIGINT to each process of the foreground
 *     group, never two), or
 *   - it came SIG_GRACE_NS (1 s) or more after the first (a second
 *     kill, timeout's -k, Slurm's KillWait all wait longer).
 * Then the program does not wait: it removes the temporaries, says so on
 * stderr and exits at once, printing nothing more. SIGKILL stops it at
 * once too, with the temporaries left.
 *
 * The handler is installed without SA_RESTART, so a read blocked on a
 * pipe or a terminal returns EINTR and the reader sees the flag (lib/src.c
 * stops retrying when it is set). A write it interrupts goes on:
 * sig_init makes stdout and stderr streams whose writes start again after EINTR,
 * as outputs written in place are (fd_stream in ftlkit.h), so that a
 * summary or a stream blocked on a full pipe loses nothing.
 *
 * Every output file is written under a temporary name and renamed into
 * place when complete (out_open/out_commit in ftlkit.h); each temporary
 * is tracked here while it exists, so that an interrupted program leaves
 * every output file either complete or absent. Exit status 128 + the
 * signal number, as a shell reports a process killed by it.
 */
#ifndef FTLKIT_SIG_H
#define FTLKIT_SIG_H

#include <signal.h>

/* The first of SIGINT, SIGTERM, SIGHUP received; 0 while none. */
extern volatile sig_atomic_t sig_caught;

/* A later signal this long after the first forces an immediate stop. */
#define SIG_GRACE_NS 1000000000LL

/* SIGHUP stays ignored when it was on entry (nohup). */
void sig_init(void);
/* Track a temporary file name (the string must live until untracked);
 * returns its slot, or -1 when the table is full. */
int sig_track(const char *tmp);
void sig_untrack(int slot);
/* Remove every tracked temporary (signal-safe). */
void sig_remove_tmps(void);
/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *sig_name(int sig);
/* 128 + sig_caught. */
int sig_status(void);
/* "PROG: stopped by SIGTERM" on stderr, temporaries removed,
 * exit 128 + the signal. */
_Noreturn void sig_exit(void);

#endif
