/*
 * rd_blktrace.c - blktrace binary traces: the per-CPU files
 * NAME.blktrace.N that blktrace(8) writes, read as one stream merged by
 * time, the way blkparse does (docs/FORMATS.md section 1).
 *
 * Each record is a 48-byte struct blk_io_trace (version 7) or a 64-byte
 * struct blk_io_trace2 (version 8, 64-bit action), in the tracing
 * host's byte order (told by the magic, per file), followed by pdu_len
 * bytes of payload that we skip. One event per physical I/O: only the
 * records of the chosen action (issue D, queue Q or complete C) count,
 * so a request is never counted twice through its remaps, merges,
 * splits, inserts, plugs and the like.
 *
 * Records kept at that action, and why the others are dropped:
 *   - notify records (process names, wall-clock stamps, messages) are
 *     not I/O;
 *   - SCSI passthrough (BLK_TC_PC) requests are driver commands (SMART,
 *     INQUIRY...) whose sector field means nothing;
 *   - zero-length records without FLUSH: 'N' records (no data, no
 *     flush) and the zero-length write completion that ends a flush
 *     sequence. They move no data and are not a flush command, so an
 *     FTL has nothing to replay for them;
 *   - a zero-length FLUSH (preflush, "FN") becomes EV_FLUSH with offset
 *     0: a flush has no address;
 *   - with data: DISCARD -> EV_DISCARD, WRITE -> EV_WRITE, otherwise
 *     EV_READ; a record with data and FLUSH (a write with a preflush,
 *     "FWS", "FWFS") is two events at its time, the flush (EV_FLUSH,
 *     offset 0) and then the data, as the kernel's flush machinery
 *     issues it; FUA is a property of the write, not an event;
 *   - version 8 zone categories (bits 32 and up) change nothing: a zone
 *     append is a write with data, zone management moves no data.
 * This is blkparse's own RWBS rule (fill_rwbs: F prefix, then D, W, R
 * when bytes > 0, else N), so tests compare against blkparse's output
 * (a leading F with data: "F 0 0" and the data).
 *
 * Framing: a record is taken as whole only when the next one starts
 * where its pdu_len says (a known magic and version in the file's byte
 * order), or the file ends there and its pdu_len is that of a real
 * payload (BT_PDU_MAX). So a wrong pdu_len is reported at its own
 * record, with the file and its byte offset, not at the bytes it leads
 * to. When no record starts there but the rest of that next header
 * frames it (whole, a real pdu_len, and a record or the end right after
 * it), the fault is that record's first bytes: it is reported at its own
 * offset, and under --skip-bad it alone is skipped. Under --skip-bad a
 * record that breaks the framing (a wrong pdu_len, a first record that
 * is not one) is one bad record, and the reader looks for the next
 * plausible record start after it (a magic, and a header that frames
 * its record, as above): it goes on there, or the rest of the file is
 * not read; the message says how many bytes were passed over, and a note
 * at the end of the trace their sum. Those bytes are counted, not the
 * records they may have held. A header cut short by the end of the file
 * is one bad record, the end of that file. A record of no known action
 * (0, or above TA_MAX) is framed: one bad record.
 *
 * Memory is constant: one struct src per CPU file and a small heap;
 * nothing is allocated per record.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btset.h"
#include "ftlkit.h"
#include "reader.h"

#define BT_MAGIC 0x65617400u
#define BT_HDR7 48 /* struct blk_io_trace */
#define BT_HDR8 64 /* struct blk_io_trace2 */
/*
 * The longest payload the kernel writes after a record
 * (kernel/trace/blktrace.c): a remap's 16 bytes; a split's, an unplug's
 * and a zone unplug's 8; a process name's 16, a wall-clock stamp's 8, a
 * message's text at most 127 (BLK_TN_MAX_MSG 128, less its NUL); 8 more
 * with the cgroup id (kernels 4.14 on); and, before 4.11, a SCSI
 * passthrough request's command, up to 260 bytes (a variable-length
 * CDB, SCSI_MAX_VARLEN_CDB_SIZE). A longer pdu_len is believed only when
 * the record after it starts where it says.
 */
#define BT_PDU_MAX 260
/* bytes enough to tell whether a record is framed (framed below) */
#define BT_JUDGE (BT_HDR8 + BT_PDU_MAX + 4)

/* __BLK_TA_* (low 16 bits of action) */
enum { TA_QUEUE = 1, TA_ISSUE = 7, TA_COMPLETE = 8, TA_CGROUP = 1 << 8 };
/* the largest action taken as one (the kernel's run to about 20: zone
 * plugs and the like came late; room left for more) */
#define TA_MAX 31
/* BLK_TC_* (bits 16..31 of action, in both versions) */
enum {
	TC_WRITE = 1 << 1,
	TC_FLUSH = 1 << 2,
	TC_PC = 1 << 9,
	TC_NOTIFY = 1 << 10,
	TC_DISCARD = 1 << 13,
};

struct bt_rec {
	uint64_t time, sector, action;
	uint32_t bytes, device;
	uint16_t pdu_len;
};

struct bt_file {
	struct src *src;   /* own (files) or r->src (stdin) */
	int own;
	int order;	   /* -1 not yet known, 0 little-endian, 1 big-endian */
	unsigned version;  /* of the last good record (7 or 8), 0 before */
	int done;
	struct bt_rec head; /* next kept record, valid when queued */
	int head_op;
	int head_preflush; /* head has data and FLUSH: a flush event first */
};

struct bt_priv {
	struct bt_file *f;
	size_t n;
	size_t *heap; /* file indexes ordered by (head.time, index) */
	size_t nheap;
	int primed;
	int pending;  /* the root file's head was returned, not yet replaced */
	struct rd_held held; /* the data of the head whose preflush went out first */
	unsigned want; /* __BLK_TA_* of the chosen action */
	uint64_t seen[3]; /* records of action Q, D, C (for rd_action_hint) */
	int hinted;
	uint64_t breaks, break_bytes; /* framing breaks passed over (--skip-bad), bytes passed over */
	unsigned char scratch[4096];
};

static uint32_t get32(const unsigned char *p, int be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint16_t get16(const unsigned char *p, int be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint64_t get64(const unsigned char *p, int be)
{
	uint64_t a = get32(p, be), b = get32(p + 4, be);
	return be ? a << 32 | b : b << 32 | a;
}

/* Byte order of a record from its magic: 0 little, 1 big, -1 neither. */
static int magic_order(const unsigned char *p)
{
	if ((get32(p, 0) & 0xffffff00u) == BT_MAGIC)
		return 0;
	if ((get32(p, 1) & 0xffffff00u) == BT_MAGIC)
		return 1;
	return -1;
}

static int bt_probe(const unsigned char *d, size_t len)
{
	if (len < 4)
		return 0;
	int be = magic_order(d);
	if (be < 0)
		return 0;
	unsigned v = get32(d, be) & 0xff;
	return v == 7 || v == 8 ? 100 : 0;
}

static void decode(const unsigned char *h, unsigned version, int be, struct bt_rec *rec)
{
	rec->time = get64(h + 8, be);
	rec->sector = get64(h + 16, be);
	rec->bytes = get32(h + 24, be);
	if (version == 7) {
		rec->action = get32(h + 28, be);
		rec->device = get32(h + 36, be);
		rec->pdu_len = get16(h + 46, be);
	} else {
		rec->action = get64(h + 32, be);
		rec->device = get32(h + 40, be);
		rec->pdu_len = get16(h + 50, be);
	}
}

/* The event op for a record of the chosen action, or -1 to drop it
 * (see the header comment for why). */
static int record_op(const struct bt_rec *rec, unsigned want)
{
	unsigned cat = (unsigned)(rec->action >> 16) & 0xffff;
	if (cat & TC_NOTIFY)
		return -1;
	if ((rec->action & 0xffff & ~(uint64_t)TA_CGROUP) != want)
		return -1;
	if (cat & TC_PC)
		return -1;
	if (!rec->bytes)
		return cat & TC_FLUSH ? EV_FLUSH : -1;
	if (cat & TC_DISCARD)
		return EV_DISCARD;
	return cat & TC_WRITE ? EV_WRITE : EV_READ;
}

/* Skip n bytes; returns how many were there. */
static ssize_t skip_bytes(struct bt_priv *p, struct src *s, size_t n)
{
	size_t done = 0;
	while (done < n) {
		size_t k = n - done < sizeof(p->scratch) ? n - done : sizeof(p->scratch);
		ssize_t got = src_read(s, p->scratch, k);
		if (got < 0)
			return -1;
		done += (size_t)got;
		if ((size_t)got < k)
			break;
	}
	return (ssize_t)done;
}

static int src_fail(struct reader *r, struct src *s)
{
	return set_err(r->err, sizeof(r->err), "%s", s->err);
}

static size_t hdr_size(unsigned version)
{
	return version == 7 ? BT_HDR7 : BT_HDR8;
}

static uint16_t pdu_of(const unsigned char *h, unsigned version, int be)
{
	return get16(h + (version == 7 ? 46 : 50), be);
}

/* Whether the n bytes at p start a record in byte order be: its magic
 * and a known version. */
static int starts_record(const unsigned char *p, size_t n, int be)
{
	if (n < 4 || magic_order(p) != be)
		return 0;
	unsigned v = get32(p, be) & 0xff;
	return v == 7 || v == 8;
}

/*
 * Whether a record of version v in byte order be at p, whose first bytes
 * need not be right, is framed by the rest of its header: whole, its
 * pdu_len that of a real payload, and the data ending right after it or
 * starting a record there. p has n bytes on: at least BT_JUDGE, or all
 * that is left of the file.
 */
static int framed(const unsigned char *p, size_t n, int be, unsigned v)
{
	size_t hsize = hdr_size(v);
	if (n < hsize)
		return 0;
	size_t pdu = pdu_of(p, v, be), end = hsize + pdu;
	if (pdu > BT_PDU_MAX || n < end)
		return 0;
	return n == end || starts_record(p + end, n - end, be);
}

/* Whether p (n bytes on, as for framed) is a place to take up reading
 * again after a break: a record start, in the file's byte order when
 * it is known, that is framed. */
static int plausible(const unsigned char *p, size_t n, int order)
{
	int be = n < 4 ? -1 : magic_order(p);
	if (be < 0 || (order >= 0 && be != order) || !starts_record(p, n, be))
		return 0;
	return framed(p, n, be, get32(p, be) & 0xff);
}

/*
 * Pass over the bytes up to the next plausible record start (1) or the
 * end of the file (0), or -1 on a read error.
 */
static int resync(struct reader *r, struct bt_file *f)
{
	struct src *s = f->src;
	enum { WINDOW = 64 * 1024 };
	for (;;) {
		size_t avail;
		const unsigned char *b = src_peek(s, WINDOW, &avail);
		if (!b)
			return src_fail(r, s);
		/* fewer than asked only at the end of the data: then every
		 * byte is judged on what is left */
		int last = avail < WINDOW;
		size_t stop = last ? avail : avail - BT_JUDGE, i = 0;
		while (i < stop && !plausible(b + i, avail - i, f->order))
			i++;
		src_take(s, i);
		if (i < stop)
			return 1;
		if (last)
			return 0;
	}
}

/*
 * The record at off breaks the framing (why says how). Without
 * --skip-bad that is the error. With it, the record is one bad record
 * and the bytes from byte from on are passed over up to the next
 * plausible record start, where the file goes on (2), or to the end of
 * the file (0); the message says how many bytes that was, and the
 * reader's note at the end their sum.
 */
static int broke(struct reader *r, struct bt_priv *p, struct bt_file *f, uint64_t off,
		 uint64_t from, const char *why)
{
	struct src *s = f->src;
	if (!r->opt.skip_bad)
		return rd_bad(r, "%s: byte %" PRIu64 ": %s", s->name, off, why);
	ssize_t got = skip_bytes(p, s, from - off);
	int found = got < 0 ? -1 : (uint64_t)got < from - off ? 0 : resync(r, f);
	if (found < 0)
		return src_fail(r, s);
	uint64_t n = s->offset - off;
	p->breaks++;
	p->break_bytes += n;
	if (found) {
		rd_bad(r, "%s: byte %" PRIu64 ": %s; the next record found starts at byte %" PRIu64
			  ": the %" PRIu64 " bytes from byte %" PRIu64 " on are passed over",
		       s->name, off, why, s->offset, n, off);
		return 2;
	}
	f->done = 1;
	return rd_bad(r, "%s: byte %" PRIu64 ": %s; no record start is found after it: the rest of the file, %" PRIu64
			 " bytes from byte %" PRIu64 " on, is not read",
		      s->name, off, why, n, off);
}

/* What the bytes at p are, that do not start a record in order be. */
static const char *not_a_record(const unsigned char *p, int be, char *buf, size_t n)
{
	int o = magic_order(p);
	if (o < 0)
		snprintf(buf, n, "bad magic 0x%08" PRIx32, get32(p, 0));
	else if (o != be)
		snprintf(buf, n, "a record in the other byte order");
	else
		snprintf(buf, n, "unknown version %u", (unsigned)(get32(p, o) & 0xff));
	return buf;
}

/*
 * The record at the file's offset does not start as one (bad magic,
 * other byte order, unknown version). After a good record, which has
 * checked that the rest of this one's header frames it, it is one bad
 * record and the file goes on after it (2); otherwise (the first
 * record) the framing is lost (broke).
 */
static int bad_start(struct reader *r, struct bt_priv *p, struct bt_file *f, int be,
		     unsigned version)
{
	struct src *s = f->src;
	uint64_t off = s->offset;
	size_t avail;
	const unsigned char *h = src_peek(s, BT_JUDGE, &avail);
	if (!h)
		return src_fail(r, s);
	char why[128];
	if (be < 0)
		snprintf(why, sizeof(why), "bad magic 0x%08" PRIx32 " (not a blktrace record)", get32(h, 0));
	else if (f->order >= 0 && be != f->order)
		snprintf(why, sizeof(why), "record in the other byte order from the rest of the file");
	else
		snprintf(why, sizeof(why), "unknown blktrace version %u (known: 7, 8)", version);
	if (!r->opt.skip_bad)
		return rd_bad(r, "%s: byte %" PRIu64 ": %s", s->name, off, why);
	if (f->order >= 0 && framed(h, avail, f->order, f->version)) {
		size_t len = hdr_size(f->version) + pdu_of(h, f->version, f->order);
		rd_bad(r, "%s: byte %" PRIu64 ": %s; the rest of its header frames it (the next record starts where its pdu_len says): this record alone is skipped",
		       s->name, off, why);
		src_take(s, len);
		return 2;
	}
	return broke(r, p, f, off, off + 1, why);
}

/*
 * Read the next record's header and skip its payload. 1 read, 0 end of
 * file, 2 a bad record skipped (the file goes on), -1 error. A record
 * is whole only when the next one starts where its pdu_len says (or
 * the file ends there, its pdu_len that of a real payload): so a wrong
 * pdu_len is reported at its own record, not at the bytes it leads to.
 */
static int read_record(struct reader *r, struct bt_priv *p, struct bt_file *f,
		       struct bt_rec *rec)
{
	struct src *s = f->src;
	uint64_t off = s->offset;
	size_t avail;
	const unsigned char *h = src_peek(s, BT_HDR8, &avail);
	if (!h)
		return src_fail(r, s);
	if (!avail)
		return 0;
	if (avail < 4) {
		f->done = 1;
		return rd_bad(r, "%s: byte %" PRIu64 ": truncated record header (%zu bytes)", s->name,
			      off, avail);
	}
	int be = magic_order(h);
	unsigned version = be < 0 ? 0 : get32(h, be) & 0xff;
	if (be < 0 || (f->order >= 0 && be != f->order) || (version != 7 && version != 8))
		return bad_start(r, p, f, be, version);
	size_t hsize = hdr_size(version);
	if (avail < hsize) {
		f->done = 1;
		return rd_bad(r, "%s: byte %" PRIu64 ": truncated record header (%zu of %zu bytes)",
			      s->name, off, avail, hsize);
	}
	decode(h, version, be, rec);
	f->order = be;
	f->version = version;
	/* the record, and the start of the next one */
	size_t len = hsize + rec->pdu_len;
	if (avail < len + 4 && !(h = src_peek(s, len + 4, &avail)))
		return src_fail(r, s);
	char why[200], big[64] = "";
	if (rec->pdu_len > BT_PDU_MAX)
		snprintf(big, sizeof(big), ", more than any blktrace payload (at most %d bytes),", BT_PDU_MAX);
	if (avail < len) {
		snprintf(why, sizeof(why), "pdu_len %u%s runs past the end of the file (%zu bytes left)",
			 (unsigned)rec->pdu_len, big, avail - hsize);
		return broke(r, p, f, off, off + hsize, why);
	}
	if (avail >= len + 4 && !starts_record(h + len, avail - len, be)) {
		/* No record where this pdu_len says: it is wrong, unless the
		 * rest of the next record's header frames it (then that
		 * record's first bytes are damaged, reported there). */
		if (!(h = src_peek(s, len + BT_JUDGE, &avail)))
			return src_fail(r, s);
		if (rec->pdu_len > BT_PDU_MAX || !framed(h + len, avail - len, be, version)) {
			char what[64];
			snprintf(why, sizeof(why), "pdu_len %u%s leads to byte %" PRIu64 ", where no record starts (%s)",
				 (unsigned)rec->pdu_len, big, off + len, not_a_record(h + len, be, what, sizeof(what)));
			return broke(r, p, f, off, off + hsize, why);
		}
	} else if (rec->pdu_len > BT_PDU_MAX && avail < len + 4) {
		snprintf(why, sizeof(why), "pdu_len %u is more than any blktrace payload (at most %d bytes), and no record after it confirms it",
			 (unsigned)rec->pdu_len, BT_PDU_MAX);
		return broke(r, p, f, off, off + hsize, why);
	}
	src_take(s, len);
	return 1;
}

/* Check a kept record's fields: 0 good, 1 bad and skipped, -1 bad. */
static int check_record(struct reader *r, struct src *s, uint64_t off, const struct bt_rec *rec,
			int op)
{
	int rc;
	if (rec->time > INT64_MAX)
		rc = rd_bad(r, "%s: byte %" PRIu64 ": time %" PRIu64 " ns out of range", s->name, off,
			    rec->time);
	else if (op != EV_FLUSH && !rd_sectors_ok(rec->sector, rec->bytes, 512))
		rc = rd_bad(r, "%s: byte %" PRIu64 ": sector %" PRIu64 " out of range (the request ends past 2^63 bytes)",
			    s->name, off, rec->sector);
	else if (rec->bytes % 512)
		rc = rd_bad(r, "%s: byte %" PRIu64 ": length %" PRIu32 " bytes is not a multiple of 512",
			    s->name, off, rec->bytes);
	else
		return 0;
	return rc < 0 ? -1 : 1;
}

/* Move file f to its next kept record: 1 queued, 0 file ended, -1 error. */
static int advance(struct reader *r, struct bt_priv *p, struct bt_file *f)
{
	while (!f->done) {
		uint64_t off = f->src->offset;
		int rc = read_record(r, p, f, &f->head);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		if (rc == 2)
			continue;
		if (!((f->head.action >> 16) & TC_NOTIFY)) {
			unsigned ta = (unsigned)(f->head.action & 0xffff & ~(uint64_t)TA_CGROUP);
			if (!ta || ta > TA_MAX) { /* no __BLK_TA_* (blkparse: "Bad fs action"); framed: one record */
				if (rd_bad(r, "%s: byte %" PRIu64 ": unknown action %u (__BLK_TA_* are 1 to %u)",
					   f->src->name, off, ta, TA_MAX))
					return -1;
				continue;
			}
			p->seen[0] += ta == TA_QUEUE;
			p->seen[1] += ta == TA_ISSUE;
			p->seen[2] += ta == TA_COMPLETE;
		}
		int op = record_op(&f->head, p->want);
		if (op < 0)
			continue;
		rc = check_record(r, f->src, off, &f->head, op);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			f->head_op = op;
			f->head_preflush = op != EV_FLUSH && ((f->head.action >> 16) & TC_FLUSH);
			return 1;
		}
	}
	f->done = 1;
	return 0;
}

/* The merge heap: file indexes by (head time, index), so that equal
 * times keep CPU order and the output is deterministic. */
static int before(const struct bt_priv *p, size_t a, size_t b)
{
	uint64_t ta = p->f[a].head.time, tb = p->f[b].head.time;
	return ta != tb ? ta < tb : a < b;
}

static void sift_down(struct bt_priv *p, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < p->nheap && before(p, p->heap[l], p->heap[m]))
			m = l;
		if (l + 1 < p->nheap && before(p, p->heap[l + 1], p->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t t = p->heap[i];
		p->heap[i] = p->heap[m];
		p->heap[m] = t;
		i = m;
	}
}

static void heap_push(struct bt_priv *p, size_t fi)
{
	size_t i = p->nheap++;
	p->heap[i] = fi;
	while (i && before(p, p->heap[i], p->heap[(i - 1) / 2])) {
		size_t up = (i - 1) / 2, t = p->heap[i];
		p->heap[i] = p->heap[up];
		p->heap[up] = t;
		i = up;
	}
}

static int priv_new(struct reader *r, size_t n)
{
	struct bt_priv *p = calloc(1, sizeof(*p));
	r->priv = p;
	if (!p || !(p->f = calloc(n, sizeof(*p->f))) || !(p->heap = calloc(n, sizeof(*p->heap))))
		return set_err(r->err, sizeof(r->err), "out of memory");
	p->n = n;
	for (size_t i = 0; i < n; i++)
		p->f[i].order = -1;
	return 0;
}

static int open_one(struct reader *r, struct bt_file *f, const char *path)
{
	if (!(f->src = calloc(1, sizeof(*f->src))))
		return set_err(r->err, sizeof(r->err), "out of memory");
	f->own = 1;
	return src_open(f->src, path) ? src_fail(r, f->src) : 0;
}

/* Open every member of the set named by BASE (btset.h), CPU by CPU:
 * btset_find has checked that none is missing. */
static int open_set(struct reader *r, const char *base)
{
	struct btset set;
	if (btset_find(base, &set, r->err, sizeof(r->err)))
		return -1;
	int rc = priv_new(r, set.n);
	for (size_t i = 0; !rc && i < set.n; i++)
		rc = open_one(r, &((struct bt_priv *)r->priv)->f[i], set.member[i]);
	btset_free(&set);
	return rc;
}

/* An empty per-CPU file is normal (an idle CPU); a set with no bytes
 * at all is a failed capture, not an empty trace. */
static int check_not_empty(struct reader *r, struct bt_priv *p)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t avail;
		if (!src_peek(p->f[i].src, 1, &avail))
			return src_fail(r, p->f[i].src);
		if (avail)
			return 0;
	}
	if (p->n > 1)
		return set_err(r->err, sizeof(r->err), "%s: all %zu per-CPU files are empty (no blktrace records)",
			       r->path, p->n);
	return set_err(r->err, sizeof(r->err), "%s: empty file (no blktrace records)",
		       p->f[0].src->name);
}

/* Open what r names: stdin, a per-CPU set (by NAME, one of its
 * files or its directory) or a lone file under another name. */
static int open_input(struct reader *r)
{
	if (r->src) {
		if (priv_new(r, 1))
			return -1;
		((struct bt_priv *)r->priv)->f[0].src = r->src;
		return 0;
	}
	char base[BTSET_PATH];
	int is_set = btset_base(r->path, base, sizeof(base), r->err, sizeof(r->err));
	if (is_set < 0)
		return -1;
	if (is_set)
		return open_set(r, base);
	if (priv_new(r, 1))
		return -1;
	return open_one(r, &((struct bt_priv *)r->priv)->f[0], r->path);
}

static void bt_close(struct reader *r);

static int bt_open(struct reader *r)
{
	if (open_input(r) || check_not_empty(r, r->priv)) {
		bt_close(r); /* leave nothing behind, whoever cleans up after us */
		return -1;
	}
	struct bt_priv *p = r->priv;
	p->want = r->opt.action == 'Q' ? TA_QUEUE : r->opt.action == 'C' ? TA_COMPLETE : TA_ISSUE;
	return 0;
}

static int bt_next(struct reader *r, struct ev *e)
{
	struct bt_priv *p = r->priv;
	if (rd_take_held(&p->held, e))
		return 1;
	if (!p->primed) {
		for (size_t i = 0; i < p->n; i++) {
			int rc = advance(r, p, &p->f[i]);
			if (rc < 0)
				return -1;
			if (rc > 0)
				heap_push(p, i);
		}
		p->primed = 1;
	} else if (p->pending) {
		/* The file whose record we returned last moves on only now,
		 * so that its errors come after that record. */
		p->pending = 0;
		int rc = advance(r, p, &p->f[p->heap[0]]);
		if (rc < 0)
			return -1;
		if (rc == 0)
			p->heap[0] = p->heap[--p->nheap];
		sift_down(p, 0);
	}
	if (!p->nheap) {
		if (!p->hinted++ && !r->opt.again) {
			rd_action_hint(r->path, p->want == TA_QUEUE ? 'Q' : p->want == TA_COMPLETE ? 'C' : 'D',
				       p->seen);
			if (p->breaks)
				warn("%s: the records' framing broke %" PRIu64 " time%s: %" PRIu64
				     " bytes passed over in all (--skip-bad), from each bad record on to the next record found or the end of its file",
				     r->path, p->breaks, p->breaks == 1 ? "" : "s", p->break_bytes);
		}
		return 0;
	}
	const struct bt_file *f = &p->f[p->heap[0]];
	p->pending = 1;
	e->t_ns = (int64_t)f->head.time;
	e->op = (uint8_t)f->head_op;
	e->offset = e->op == EV_FLUSH ? 0 : f->head.sector * 512;
	e->length = f->head.bytes;
	e->volume = f->head.device;
	e->temp = EV_TEMP_NONE;
	if (f->head_preflush) /* the flush now, the data at the next call */
		rd_hold_data(&p->held, e);
	return 1;
}

static void bt_close(struct reader *r)
{
	struct bt_priv *p = r->priv;
	if (!p)
		return;
	for (size_t i = 0; p->f && i < p->n; i++) {
		if (p->f[i].own && p->f[i].src) {
			src_close(p->f[i].src);
			free(p->f[i].src);
		}
	}
	free(p->f);
	free(p->heap);
	free(p);
	r->priv = NULL;
}

const struct reader_ops rd_blktrace_ops = {
	.name = "blktrace",
	.desc = "blktrace binary per-CPU files NAME.blktrace.N (v7, v8; either byte order)",
	.version = READER_API_VERSION,
	.flags = RD_OWN_FILES | RD_ACTION,
	.probe = bt_probe,
	.open = bt_open,
	.next = bt_next,
	.close = bt_close,
};
