/*
 * rd_systor17.c - SYSTOR'17 block traces (SNIA IOTTA 4964).
 *
 *   Timestamp,Response,IOType,LUN,Offset,Size
 *   1455591804.310701000,0.006475000,R,0,203468398592,32768
 *
 * The header line is normally there (and skipped); files without it
 * are read too. Timestamp is Unix seconds with 9 decimals, converted
 * exactly (parse_fixed9). IOType R or W (any case); Offset and Size are
 * bytes; volume = LUN. Response is not used and only needs to be
 * present. The traces are not time-sorted (tracecat --sort).
 */
#include "csvrec.h"

static const char *const systor_cols[] = {"Timestamp", "Response", "IOType",
					  "LUN",       "Offset",   "Size"};

static const char *systor_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t lun, off, len;
	const char *w;
	if ((w = cr_field_sec9(c, 0, "Timestamp", &e->t_ns)))
		return w;
	int op = cr_rw(c, 2);
	if (op < 0)
		return cr_why(c, "unknown IOType '%.40s' (want R or W)", c->f[2]);
	e->op = (uint8_t)op;
	if ((w = cr_field_u64(c, 3, "LUN", UINT32_MAX, &lun)) ||
	    (w = cr_field_u64(c, 4, "Offset", UINT64_MAX, &off)) ||
	    (w = cr_field_u64(c, 5, "Size", UINT64_MAX, &len)))
		return w;
	e->volume = (uint32_t)lun;
	return cr_extent(c, "Offset", off, "Size", len, e);
}

static int systor_shape(const struct csvrec *c)
{
	return c->len[0] && c->f[0][0] >= '0' && c->f[0][0] <= '9' && cr_rw(c, 2) >= 0;
}

CSV_READER(systor17, "systor17", "SYSTOR'17 CSV (SNIA IOTTA 4964)",
	RD_MULTI_VOL,
	.sep = ',',
	.quotes = 1,
	.min_fields = 6,
	.max_fields = 6,
	.header = systor_cols,
	.nheader = 6,
	.header_exact = 1,
	.score = 75,
	.header_score = 95,
	.shape = systor_shape,
	.parse = systor_parse);
