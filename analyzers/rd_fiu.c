/*
 * rd_fiu.c - FIU IODedup (homes, mail, web-vm) and SRCMap block traces
 * (SNIA IOTTA 390/391).
 *
 *   ts pid process lba size op major minor md5
 *   89968195792462 20782 gzip 283193184 8 R 6 0 56f11b711d91a065a2b6458eca924523
 *
 * Blank separated (runs of spaces or tabs), no quoting; a header with
 * these names is recognised and skipped. ts is nanoseconds; lba is in
 * 512-byte sectors and size in 512-byte blocks (--sector-size
 * overrides both); op W or R (any case); volume = major << 20 | minor,
 * the kernel dev_t encoding (major < 4096, minor < 2^20). Process
 * names may hold any character but a blank: a name with a blank gives
 * a wrong field count, a bad record. pid, process and md5 are not used.
 */
#include "csvrec.h"

static const char *const fiu_cols[] = {"ts", "pid", "process", "lba", "size",
				       "op", "major", "minor", "md5"};

static const char *fiu_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t ts, off, len, maj, min;
	uint64_t ss = cr_sector(o, 512);
	const char *w;
	if ((w = cr_field_u64(c, 0, "ts", INT64_MAX, &ts)) ||
	    (w = cr_field_scaled(c, 3, "lba", ss, &off)) ||
	    (w = cr_field_scaled(c, 4, "size", ss, &len)))
		return w;
	int op = cr_rw(c, 5);
	if (op < 0)
		return cr_why(c, "unknown op '%.40s' (want W or R)", c->f[5]);
	e->op = (uint8_t)op;
	if ((w = cr_field_u64(c, 6, "major", 0xfff, &maj)) ||
	    (w = cr_field_u64(c, 7, "minor", 0xfffff, &min)))
		return w;
	e->t_ns = (int64_t)ts;
	e->volume = (uint32_t)(maj << 20 | min);
	return cr_extent(c, "lba", off, "size", len, e);
}

static int fiu_shape(const struct csvrec *c)
{
	return cr_digits(c, 0) && cr_rw(c, 5) >= 0;
}

CSV_READER(fiu, "fiu", "FIU IODedup / SRCMap text (SNIA IOTTA 390/391), 512-byte sectors",
	RD_MULTI_VOL | RD_SECTORS,
	.sep = ' ',
	.quotes = 0,
	.min_fields = 9,
	.max_fields = 9,
	.header = fiu_cols,
	.nheader = 9,
	.header_exact = 1,
	.score = 85,
	.header_score = 90,
	.shape = fiu_shape,
	.parse = fiu_parse);
