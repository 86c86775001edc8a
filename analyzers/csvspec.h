/*
 * csvspec.h - the column map of -f csv --columns SPEC (rd_csvspec.c
 * says the syntax), parsed once on the command line.
 */
#ifndef FTLKIT_CSVSPEC_H
#define FTLKIT_CSVSPEC_H

#include <stddef.h>

#define CSVSPEC_MAX_OPS 16

struct csvspec {
	int t, op, off, len, vol; /* 0-based columns, -1 absent */
	long t_scale;		  /* ns per time unit */
	int off_sectors, len_sectors;
	unsigned char sep;
	int header;
	int min_fields;
	int nmap;
	struct {
		char text[32];
		int op;
	} map[CSVSPEC_MAX_OPS];
};

/* 0, or -1 with a message naming what is wrong. */
int csvspec_parse(const char *spec, struct csvspec *s, char *err, size_t n);

#endif
