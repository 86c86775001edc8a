/*
 * rd_msr.c - MSR Cambridge block traces (SNIA IOTTA 388).
 *
 *   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 *   128166385295514663,hm,0,Write,9056014336,2048,2833
 *
 * No header (one with these column names is recognised and skipped).
 * Timestamp is a Windows FILETIME (100 ns ticks since 1601-01-01); it
 * becomes Unix-epoch nanoseconds, so FILETIMEs outside the years
 * 1677-2262 (the range of a signed 64-bit ns clock) are bad records.
 * Type is Read or Write (any case); Offset and Size are bytes.
 *
 * Volume: DiskNumber. The host name is not numeric and is not kept;
 * every MSR file holds one host (hm_0 is host "hm", disk 0), so volume
 * ids only tell apart the disks of one host: when merging files of
 * several hosts, select with --volume per file or keep them apart.
 * ResponseTime and Hostname are not used and only need to be present.
 */
#include <string.h>
#include <strings.h>

#include "csvrec.h"

/* FILETIME ticks at the Unix epoch (1970-01-01). */
#define FILETIME_UNIX_EPOCH INT64_C(116444736000000000)

static const char *const msr_cols[] = {"Timestamp", "Hostname",	"DiskNumber",  "Type",
				       "Offset",    "Size",	"ResponseTime"};

static const char *msr_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t ts, disk, off, len;
	const char *w;
	if ((w = cr_field_u64(c, 0, "Timestamp", INT64_MAX, &ts)))
		return w;
	if ((w = cr_field_u64(c, 2, "DiskNumber", UINT32_MAX, &disk)))
		return w;
	const char *t = c->f[3];
	if (c->len[3] == 5 && (!memcmp(t, "Write", 5) || !strcasecmp(t, "write")))
		e->op = EV_WRITE;
	else if (c->len[3] == 4 && (!memcmp(t, "Read", 4) || !strcasecmp(t, "read")))
		e->op = EV_READ;
	else
		return cr_why(c, "unknown Type '%.40s' (want Read or Write)", t);
	if ((w = cr_field_u64(c, 4, "Offset", UINT64_MAX, &off)) ||
	    (w = cr_field_u64(c, 5, "Size", UINT64_MAX, &len)))
		return w;
	int64_t d = (int64_t)ts - FILETIME_UNIX_EPOCH;
	if (d > INT64_MAX / 100 || d < INT64_MIN / 100)
		return cr_why(c, "Timestamp %llu is a FILETIME outside the years 1677-2262",
			      (unsigned long long)ts);
	e->t_ns = d * 100;
	e->volume = (uint32_t)disk;
	return cr_extent(c, "Offset", off, "Size", len, e);
}

static int msr_shape(const struct csvrec *c)
{
	return cr_digits(c, 0) && (!strcasecmp(c->f[3], "Read") || !strcasecmp(c->f[3], "Write"));
}

CSV_READER(msr, "msr", "MSR Cambridge CSV (SNIA IOTTA 388)",
	RD_MULTI_VOL,
	.sep = ',',
	.quotes = 1,
	.min_fields = 7,
	.max_fields = 7,
	.header = msr_cols,
	.nheader = 7,
	.header_exact = 1,
	.score = 85,
	.header_score = 90,
	.shape = msr_shape,
	.parse = msr_parse);
