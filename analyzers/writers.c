/*
 * writers.c - fio iolog v3, DiskSim and MQSim ASCII, CSV (writers.h).
 *
 * fio (iolog.c read_iolog, version 3): "TIME FILE ACTION [OFFSET
 * LENGTH]", TIME in microseconds from the run's start; a file is added
 * and opened before its first request, closed at the end. R W D F are
 * read, write, trim and sync (fio has all four; times are cut to whole
 * microseconds, and counted). Volume N goes to file
 * --target with %u replaced by N (default "volume%u": replay onto a
 * device with fio --replay_redirect=DEVICE).
 *
 * MQSim (ASCII_Trace_Definition.h): "NS DEVICE LBA SECTORS TYPE", type
 * 0 write, 1 read, 512-byte sectors. DiskSim (iotrace_ascii_get_
 * ioreq_event): "MS DEVICE BLKNO BLOCKS FLAGS", time in decimal
 * milliseconds, flags hexadecimal with bit 0 READ. Neither has a
 * discard or a flush: those are counted, not written. A request off the
 * 512-byte grid is widened to the sectors it touches, and counted.
 * Both want times in order: an event earlier than the one before it is
 * written at the earlier event's time, and counted.
 *
 * CSV: a header "t_ns,op,offset,length,volume" and one row per event,
 * op as R W D F; a time before the first event's (an unsorted trace)
 * is written as it is, negative, and counted. No format here holds an
 * event's temperature, stream or hint: events that carry one are
 * counted.
 */
#include "writers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"

static int64_t in_order(struct trace_writer *w, int64_t t)
{
	if (w->written && t < w->last_t) {
		w->count[TW_REORDERED]++;
		return w->last_t;
	}
	return w->last_t = t < 0 ? 0 : t; /* times before the first event's */
}

/* --- fio ---------------------------------------------------------- */

static void fio_name(const struct trace_writer *w, uint32_t vol, char *buf, size_t n)
{
	const char *pct = strstr(w->target, "%u");
	if (pct)
		snprintf(buf, n, "%.*s%u%s", (int)(pct - w->target), w->target, vol, pct + 2);
	else
		snprintf(buf, n, "%s", w->target);
}

static int fio_begin(struct trace_writer *w)
{
	fputs("fio version 3 iolog\n", w->fp);
	return 0;
}

static int fio_write(struct trace_writer *w, const struct ev *e)
{
	static const char *const act[] = {"read", "write", "trim", "sync"};
	int64_t t = in_order(w, e->t_ns);
	uint64_t us = (uint64_t)t / 1000;
	w->count[TW_ROUNDED] += t % 1000 != 0;
	char name[1024];
	size_t byte = e->volume / 8;
	if (byte >= w->nopened) {
		size_t n = byte + 1 > 2 * w->nopened ? byte + 1 : 2 * w->nopened;
		uint8_t *o = realloc(w->opened, n);
		if (!o)
			return -1;
		memset(o + w->nopened, 0, n - w->nopened);
		w->opened = o;
		w->nopened = n;
	}
	fio_name(w, e->volume, name, sizeof(name));
	if (!(w->opened[byte] & (1u << (e->volume % 8)))) {
		w->opened[byte] |= (uint8_t)(1u << (e->volume % 8));
		fprintf(w->fp, "%" PRIu64 " %s add\n%" PRIu64 " %s open\n", us, name, us, name);
	}
	fprintf(w->fp, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu32 "\n", us, name, act[e->op],
		e->op == EV_FLUSH ? 0 : e->offset, e->op == EV_FLUSH ? 0 : e->length);
	return 0;
}

static int fio_end(struct trace_writer *w)
{
	char name[1024];
	uint64_t us = (uint64_t)(w->last_t < 0 ? 0 : w->last_t) / 1000;
	for (size_t i = 0; i < w->nopened * 8; i++)
		if (w->opened[i / 8] & (1u << (i % 8))) {
			fio_name(w, (uint32_t)i, name, sizeof(name));
			fprintf(w->fp, "%" PRIu64 " %s close\n", us, name);
		}
	return 0;
}

/* --- DiskSim and MQSim -------------------------------------------- */

/* The sectors an event touches, or 0 (counted) if the format cannot
 * say it. */
static int sectors(struct trace_writer *w, const struct ev *e, uint64_t *lba, uint64_t *n)
{
	if (e->op != EV_READ && e->op != EV_WRITE) {
		w->count[TW_DROPPED_OP + e->op]++;
		return 0;
	}
	uint64_t end = e->offset + e->length;
	*lba = e->offset / 512;
	*n = (end + 511) / 512 - *lba;
	if (e->offset % 512 || e->length % 512)
		w->count[TW_WIDENED]++;
	return 1;
}

static int mqsim_write(struct trace_writer *w, const struct ev *e)
{
	uint64_t lba, n;
	if (!sectors(w, e, &lba, &n))
		return 0;
	int64_t t = in_order(w, e->t_ns);
	fprintf(w->fp, "%" PRId64 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %d\n", t, e->volume, lba, n,
		e->op == EV_READ);
	return 0;
}

static int disksim_write(struct trace_writer *w, const struct ev *e)
{
	uint64_t lba, n;
	if (!sectors(w, e, &lba, &n))
		return 0;
	int64_t t = in_order(w, e->t_ns);
	fprintf(w->fp, "%" PRId64 ".%06" PRId64 " %" PRIu32 " %" PRIu64 " %" PRIu64 " %x\n",
		t / 1000000, t % 1000000, e->volume, lba, n, e->op == EV_READ);
	return 0;
}

/* --- CSV ---------------------------------------------------------- */

static int csv_begin(struct trace_writer *w)
{
	fputs("t_ns,op,offset,length,volume\n", w->fp);
	return 0;
}

static int csv_write(struct trace_writer *w, const struct ev *e)
{
	w->count[TW_NEGATIVE] += e->t_ns < 0;
	fprintf(w->fp, "%" PRId64 ",%c,%" PRIu64 ",%" PRIu32 ",%" PRIu32 "\n", e->t_ns,
		ev_op_char[e->op], e->offset, e->length, e->volume);
	return 0;
}

static const struct tw_ops writers[] = {
	{"fio", "fio iolog version 3 (fio --read_iolog), volume N to file --target", fio_begin,
	 fio_write, fio_end},
	{"mqsim", "MQSim ASCII trace: ns, device, 512-byte LBA and size, 0 write 1 read", NULL,
	 mqsim_write, NULL},
	{"disksim", "DiskSim ASCII trace: ms, device, 512-byte blkno and size, flags (1 read)", NULL,
	 disksim_write, NULL},
	{"csv", "CSV with a header: t_ns,op,offset,length,volume", csv_begin, csv_write, NULL},
};

const struct tw_ops *tw_find(const char *name)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (!strcmp(writers[i].name, name))
			return &writers[i];
	return NULL;
}

int tw_begin(struct trace_writer *w, const struct tw_ops *ops, FILE *fp, const char *target)
{
	memset(w, 0, sizeof(*w));
	w->ops = ops;
	w->fp = fp;
	w->target = target ? target : "volume%u";
	return ops->begin ? ops->begin(w) : 0;
}

int tw_write(struct trace_writer *w, const struct ev *e)
{
	if (e->op >= EV_NOPS) {
		w->count[TW_ZONE]++;
		return 0;
	}
	if (e->temp != EV_TEMP_NONE || e->stream || e->hint)
		w->count[TW_LABELS]++; /* (no writer here has a field for them) */
	if (w->ops->write(w, e))
		return -1;
	w->written++;
	return 0;
}

int tw_end(struct trace_writer *w)
{
	int rc = w->ops->end ? w->ops->end(w) : 0;
	free(w->opened);
	w->opened = NULL;
	return rc;
}

void tw_report(const struct trace_writer *w)
{
	static const char *const what[] = {"reads", "writes", "discards", "flushes"};
	for (int op = 0; op < EV_NOPS; op++)
		if (w->count[TW_DROPPED_OP + op])
			warn("-o %s: %" PRIu64 " %s not written: the format has no such request",
			     w->ops->name, w->count[TW_DROPPED_OP + op], what[op]);
	if (w->count[TW_ZONE])
		warn("-o %s: %" PRIu64 " zone operations not written: the format has none", w->ops->name,
		     w->count[TW_ZONE]);
	if (w->count[TW_LABELS])
		warn("-o %s: %" PRIu64 " events' temperature, stream or hint not written: the format has no field "
		     "for them (-o bin or text keeps them)",
		     w->ops->name, w->count[TW_LABELS]);
	if (w->count[TW_WIDENED])
		warn("-o %s: %" PRIu64 " requests off the 512-byte sector grid, widened to the sectors they touch",
		     w->ops->name, w->count[TW_WIDENED]);
	if (w->count[TW_ROUNDED])
		warn("-o %s: %" PRIu64 " event times cut to whole microseconds (the format's unit)",
		     w->ops->name, w->count[TW_ROUNDED]);
	if (w->count[TW_REORDERED])
		warn("-o %s: %" PRIu64 " events earlier than the one before them, written at that one's time "
		     "(--sort orders the trace)",
		     w->ops->name, w->count[TW_REORDERED]);
	if (w->count[TW_NEGATIVE])
		warn("-o %s: %" PRIu64 " events before the first event, written with a negative t_ns, which a "
		     "reader of times from 0 (ftlkit's csv: spec among them) refuses (--sort orders the trace)",
		     w->ops->name, w->count[TW_NEGATIVE]);
}
