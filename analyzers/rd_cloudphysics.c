/*
 * rd_cloudphysics.c - CloudPhysics VSCSI traces as CSV (the per-VM
 * VMware vSCSI captures of Waldspurger et al., "Efficient MRC
 * Construction with SHARDS", FAST'15), one command per line, as
 * libCacheSim's data/cloudPhysicsIO.csv has them:
 *
 *   version,time,op,size,lbn
 *   1,5633898,2a,512,42932745
 *
 * The CSV is the binary vscsi trace written out record by record (every
 * one of the 113,872 records of cloudPhysicsIO.csv is the record of
 * cloudPhysicsIO.vscsi at the same place): version is the record
 * version (the vscsi ver field >> 8: 1 or 2), time the vscsi timestamp
 * in whole seconds (the binary's microseconds divided by 10^6, as
 * libCacheSim's vscsi reader divides them; decimals are read when a
 * file has them), op the SCSI command's operation code in hexadecimal,
 * without 0x as printed there ("28", "2a") or with it ("0x2a"), size
 * the transfer in bytes and lbn the 512-byte logical block number
 * (--sector-size overrides). READ(6/10/12/16) (0x08 0x28 0xa8 0x88) are
 * reads, WRITE(6/10/12/16) (0x0a 0x2a 0xaa 0x8a) writes, SYNCHRONIZE
 * CACHE(10/16) (0x35 0x91) a flush (offset 0). Other commands (TEST
 * UNIT READY, INQUIRY, UNMAP, whose range is in its payload and not in
 * these fields) move no data the trace can place: they are skipped and
 * their count said on stderr. A header line with these names is
 * recognised and skipped. One VM's disk per file: volume 0.
 */
#include "csvrec.h"

static const char *const cp_cols[] = {"version", "time", "op", "size", "lbn"};

/* Hexadecimal, one or two digits, with or without 0x ("2a", "0x2A"). */
static int opcode(const struct csvrec *c, unsigned *out)
{
	const char *s = c->f[2];
	size_t n = c->len[2], i = 0;
	unsigned v = 0;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (n == i || n - i > 2)
		return -1;
	for (; i < n; i++) {
		char ch = s[i] | 0x20;
		unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
			     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) : 16u;
		if (d > 15)
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

static int scsi_op(unsigned code)
{
	switch (code) {
	case 0x08: case 0x28: case 0xa8: case 0x88: return EV_READ;
	case 0x0a: case 0x2a: case 0xaa: case 0x8a: return EV_WRITE;
	case 0x35: case 0x91: return EV_FLUSH;
	}
	return -1;
}

static const char *cp_parse(const struct rd_opts *o, struct csvrec *c, struct ev *e)
{
	uint64_t ver, len, off;
	int64_t ts;
	unsigned code;
	const char *w;
	if ((w = cr_field_u64(c, 0, "version", 2, &ver)))
		return w;
	if (ver < 1)
		return cr_why(c, "version %llu unknown (want 1 or 2)", (unsigned long long)ver);
	if ((w = cr_field_sec9(c, 1, "time", &ts)))
		return w;
	if (opcode(c, &code))
		return cr_why(c, "op '%.40s' is not a SCSI operation code (hexadecimal 00-ff, 0x optional)",
			      c->f[2]);
	if ((w = cr_field_u64(c, 3, "size", UINT64_MAX, &len)) ||
	    (w = cr_field_scaled(c, 4, "lbn", cr_sector(o, 512), &off)))
		return w;
	int op = scsi_op(code);
	if (op < 0)
		return csvfmt_skip;
	e->t_ns = ts;
	e->op = (uint8_t)op;
	e->volume = 0;
	if (op == EV_FLUSH) {
		e->offset = 0;
		e->length = 0;
		e->temp = EV_TEMP_NONE;
		return NULL;
	}
	return cr_extent(c, "lbn", off, "size", len, e);
}

/* A record's shape: version 1 or 2, a time of digits (a decimal point
 * allowed), a hexadecimal opcode. */
static int cp_shape(const struct csvrec *c)
{
	unsigned code;
	size_t dots = 0;
	if (c->len[0] != 1 || (c->f[0][0] != '1' && c->f[0][0] != '2') || !c->len[1])
		return 0;
	for (size_t i = 0; i < c->len[1]; i++)
		if (c->f[1][i] == '.')
			dots++;
		else if (c->f[1][i] < '0' || c->f[1][i] > '9')
			return 0;
	return dots <= 1 && c->len[1] > dots && !opcode(c, &code);
}

CSV_READER(cloudphysics, "cloudphysics",
	"CloudPhysics VSCSI CSV: version,time (s),op (SCSI opcode, hex),size (bytes),lbn (512 B)",
	RD_SECTORS,
	.sep = ',',
	.quotes = 1,
	.min_fields = 5,
	.max_fields = 5,
	.header = cp_cols,
	.nheader = 5,
	.header_exact = 1,
	.score = 70,
	.header_score = 95,
	.shape = cp_shape,
	.parse = cp_parse,
	.skip_what = "SCSI commands other than READ, WRITE and SYNCHRONIZE CACHE");
