/*
 * sig.c - one handler for SIGINT, SIGTERM and SIGHUP, and the table of
 * temporary output files it removes (see sig.h).
 */
#include "sig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftlkit.h"

volatile sig_atomic_t sig_caught;

/* Outputs open at once: a handful per program, more with many models
 * writing their own files. The handler reads the table, so a slot is
 * filled before the file exists and emptied after it is renamed. */
enum { MAX_TMP = 1024 };
static const char *volatile tmps[MAX_TMP];

void sig_remove_tmps(void)
{
	for (int i = 0; i < MAX_TMP; i++) {
		const char *p = tmps[i];
		if (p)
			unlink(p);
	}
}

static void on_signal(int sig)
{
	if (sig_caught) {
		/* Asked twice: do not wait for the program to notice. */
		sig_remove_tmps();
		_exit(128 + sig_caught);
	}
	sig_caught = sig;
}

void sig_init(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked read returns EINTR */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* SIGHUP ignored by whoever started us (nohup) stays ignored;
		 * SIGINT is caught even where a non-interactive shell ignored it
		 * for a background job, so that kill -INT stops one. */
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int sig_track(const char *tmp)
{
	for (int i = 0; i < MAX_TMP; i++)
		if (!tmps[i]) {
			tmps[i] = tmp;
			return i;
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
	fprintf(stderr, "%s: stopped by %s\n", prog_name,
		sig_caught == SIGTERM ? "SIGTERM" : sig_caught == SIGHUP ? "SIGHUP" : "SIGINT");
	_exit(sig_status());
}
