/*
 * rd_spc.c - UMass Trace Repository / SPC traces (Financial1-2,
 * WebSearch1-3), SPC Trace File Format.
 *
 *   ASU,LBA,Size,Opcode,Timestamp[,optional fields...]
 *   0,303567,3584,w,0.000000
 *
 * No header (one starting with these column names is recognised and
 * skipped). LBA is in 512-byte blocks within the ASU (--sector-size
 * overrides); Size is bytes; Opcode r or w (any case); Timestamp is
 * decimal seconds from the trace start (converted exactly, up to 9
 * decimals); volume = ASU. Optional fields after the fifth are ignored.
 */
#include "csvrec.h"

static const char *const spc_cols[] = {"ASU", "LBA", "Size", "Opcode", "Timestamp"};

static const char *spc_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t asu, off, len;
	const char *w;
	if ((w = cr_field_u64(c, 0, "ASU", UINT32_MAX, &asu)) ||
	    (w = cr_field_scaled(c, 1, "LBA", cr_sector(o, 512), &off)) ||
	    (w = cr_field_u64(c, 2, "Size", UINT64_MAX, &len)))
		return w;
	int op = cr_rw(c, 3);
	if (op < 0)
		return cr_why(c, "unknown Opcode '%.40s' (want r or w)", c->f[3]);
	e->op = (uint8_t)op;
	if ((w = cr_field_sec9(c, 4, "Timestamp", &e->t_ns)))
		return w;
	e->volume = (uint32_t)asu;
	return cr_extent(c, "LBA", off, "Size", len, e);
}

static int spc_shape(const struct csvrec *c)
{
	return cr_digits(c, 0) && cr_rw(c, 3) >= 0;
}

CSV_READER(spc, "spc", "UMass/SPC trace CSV (Financial, WebSearch), 512-byte blocks",
	RD_MULTI_VOL | RD_SECTORS,
	.sep = ',',
	.quotes = 1,
	.min_fields = 5,
	.max_fields = 0,
	.header = spc_cols,
	.nheader = 5,
	.header_exact = 0,
	.score = 70,
	.header_score = 90,
	.shape = spc_shape,
	.parse = spc_parse);
