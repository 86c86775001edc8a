/*
 * rd_tencent.c - Tencent CBS block traces (SNIA IOTTA 27917).
 *
 *   Timestamp,Offset,Size,IOType,VolumeID
 *   1538323200,4247200,128,1,1058
 *
 * No header (one with these column names is recognised and skipped).
 * Timestamp is Unix seconds (integer); Offset and Size are 512-byte
 * sectors (--sector-size overrides); IOType 0 is a read, 1 a write;
 * volume = VolumeID. The traces are not time-sorted.
 */
#include "csvrec.h"

static const char *const tencent_cols[] = {"Timestamp", "Offset", "Size", "IOType", "VolumeID"};

static const char *tencent_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t ts, off, len, vol;
	uint64_t ss = cr_sector(o, 512);
	const char *w;
	if ((w = cr_field_u64(c, 0, "Timestamp", INT64_MAX / 1000000000, &ts)) ||
	    (w = cr_field_scaled(c, 1, "Offset", ss, &off)) ||
	    (w = cr_field_scaled(c, 2, "Size", ss, &len)))
		return w;
	if (c->len[3] != 1 || (c->f[3][0] != '0' && c->f[3][0] != '1'))
		return cr_why(c, "unknown IOType '%.40s' (want 0 or 1)", c->f[3]);
	e->op = c->f[3][0] == '1' ? EV_WRITE : EV_READ;
	if ((w = cr_field_u64(c, 4, "VolumeID", UINT32_MAX, &vol)))
		return w;
	e->t_ns = (int64_t)ts * 1000000000;
	e->volume = (uint32_t)vol;
	return cr_extent(c, "Offset", off, "Size", len, e);
}

static int tencent_shape(const struct csvrec *c)
{
	return cr_digits(c, 0) && c->len[3] == 1 && (c->f[3][0] == '0' || c->f[3][0] == '1');
}

CSV_READER(tencent, "tencent", "Tencent CBS CSV (SNIA IOTTA 27917), 512-byte sectors",
	RD_MULTI_VOL | RD_SECTORS,
	.sep = ',',
	.quotes = 1,
	.min_fields = 5,
	.max_fields = 5,
	.header = tencent_cols,
	.nheader = 5,
	.header_exact = 1,
	.score = 70,
	.header_score = 90,
	.shape = tencent_shape,
	.parse = tencent_parse);
