/*
 * th.h - the unit-test harness: each CHECK prints "ok N - what" or
 * "not ok N - what (file:line)"; tests/run.sh counts the lines.
 */
#ifndef FTLKIT_TH_H
#define FTLKIT_TH_H

#include <stdio.h>

static int th_n, th_fail;

#define CHECK(cond, ...)                                                          \
	do {                                                                      \
		th_n++;                                                           \
		if (cond) {                                                       \
			printf("ok %d - ", th_n);                                 \
		} else {                                                          \
			th_fail++;                                                \
			printf("not ok %d - (%s:%d: %s) ", th_n, __FILE__, __LINE__, #cond); \
		}                                                                 \
		printf(__VA_ARGS__);                                              \
		putchar('\n');                                                    \
	} while (0)

#define TH_DONE() (fflush(stdout), th_fail ? 1 : 0)

#endif
