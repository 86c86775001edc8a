/*
 * rd_disksim.c - DiskSim's ASCII trace and the variants the SSD
 * simulators built on it read (MQSim, SSDSim): one request per line,
 * five blank-separated fields,
 *
 *   time device blkno size flags
 *   0.000000 0 3224656 8 1                    DiskSim (time in ms)
 *   938944000 13 93230992 32 0                MQSim, SSDSim (time in ns)
 *
 * DiskSim (disksim_iotrace.c, iotrace_ascii_get_ioreq_event: "%lf %d %d
 * %d %x"): time is decimal milliseconds from the start, blkno and size
 * are 512-byte blocks, flags is hexadecimal with bit 0 READ (set: read,
 * clear: write; the other bits, ASYNCHRONOUS and the like, are timing
 * hints and not kept). MQSim (ASCII_Trace_Definition.h: arrival time,
 * device, start LBA, size in sectors, type 0 write, 1 read) and SSDSim
 * (time, device, lsn, size, ope 1 read, 0 write) keep the layout with
 * integer nanoseconds and 512-byte sectors. MQSim's time unit is set in
 * its workload XML (Time_Unit, nanoseconds in the shipped examples):
 * these readers take the defaults, ms and ns.
 *
 * --sector-size overrides 512 for blkno and size; volume = device. -f
 * auto takes a time with a decimal point as DiskSim's, an integer time
 * as MQSim's: an integer-time DiskSim trace needs -f disksim.
 */
#include <string.h>

#include "csvrec.h"
#include "ftlkit.h"

/* blkno, size and device: the fields both layouts share. */
static const char *blocks(const struct rd_opts *o, struct csvrec *c, struct ev *e, const char *lba)
{
	uint64_t dev, off, len, ss = cr_sector(o, 512);
	const char *w;
	if ((w = cr_field_u64(c, 1, "device", UINT32_MAX, &dev)) ||
	    (w = cr_field_scaled(c, 2, lba, ss, &off)) ||
	    (w = cr_field_scaled(c, 3, "size", ss, &len)))
		return w;
	e->volume = (uint32_t)dev;
	return cr_extent(c, lba, off, "size", len, e);
}

/* Hexadecimal flags ("1", "0x11", as %x reads them). */
static int hex_flags(const struct csvrec *c, uint64_t *out)
{
	const char *s = c->f[4];
	size_t n = c->len[4], i = 0;
	uint64_t v = 0;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == n || n - i > 8)
		return -1;
	for (; i < n; i++) {
		char ch = s[i];
		unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
			     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
			     : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16u;
		if (d > 15)
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

static const char *disksim_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	int64_t t;
	uint64_t flags;
	if (cr_decimal_ns(c->f[0], c->len[0], 1000000, &t))
		return cr_why(c, "time '%.40s' is not a decimal number of milliseconds in range", c->f[0]);
	if (hex_flags(c, &flags))
		return cr_why(c, "flags '%.40s' is not a hexadecimal number", c->f[4]);
	e->t_ns = t;
	e->op = flags & 1 ? EV_READ : EV_WRITE;
	return blocks(o, c, e, "blkno");
}

static const char *mqsim_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t t;
	const char *w = cr_field_u64(c, 0, "time (ns)", INT64_MAX, &t);
	if (w)
		return w;
	if (c->len[4] != 1 || (c->f[4][0] != '0' && c->f[4][0] != '1'))
		return cr_why(c, "unknown type '%.40s' (want 0 write or 1 read)", c->f[4]);
	e->t_ns = (int64_t)t;
	e->op = c->f[4][0] == '1' ? EV_READ : EV_WRITE;
	return blocks(o, c, e, "LBA");
}

static int disksim_shape(const struct csvrec *c)
{
	return memchr(c->f[0], '.', c->len[0]) && cr_digits(c, 1) && cr_digits(c, 2);
}

static int mqsim_shape(const struct csvrec *c)
{
	return cr_digits(c, 0) && cr_digits(c, 1) && cr_digits(c, 2) && c->len[4] == 1 &&
	       (c->f[4][0] == '0' || c->f[4][0] == '1');
}

CSV_READER(disksim, "disksim", "DiskSim ASCII trace: ms, device, 512-byte blkno and size, hex flags (bit 0 read)",
	RD_MULTI_VOL | RD_SECTORS,
	.sep = ' ',
	.min_fields = 5,
	.max_fields = 5,
	.score = 65,
	.shape = disksim_shape,
	.parse = disksim_parse);

CSV_READER(mqsim, "mqsim", "MQSim / SSDSim ASCII trace: ns, device, 512-byte LBA and size, 0 write 1 read",
	RD_MULTI_VOL | RD_SECTORS,
	.sep = ' ',
	.min_fields = 5,
	.max_fields = 5,
	.score = 60,
	.shape = mqsim_shape,
	.parse = mqsim_parse);
