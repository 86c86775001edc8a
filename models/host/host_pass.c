/*
 * host_pass.c - the pass-through host: every event to the device as it
 * is. Copy this file to start a host layer: open keeps the device it is
 * stacked on, submit turns the trace's events into the device's (here
 * the same ones), the ledger counts both.
 */
#include <stdlib.h>
#include <string.h>

#include "ftlkit.h"
#include "host.h"

struct host {
	struct dev *d;
	const struct dev_ops *dops;
};

static struct host *pass_open(const char *spec, struct dev *d, const struct dev_ops *dops, char *err, size_t n)
{
	struct host *h = calloc(1, sizeof(*h));
	if (!h) {
		set_err(err, n, "out of memory");
		return NULL;
	}
	h->d = d;
	h->dops = dops;
	return h;
}

static size_t pass_submit(struct host *h, const struct ev *e, size_t n)
{
	return h->dops->submit(h->d, e, n);
}

static int pass_idle(struct host *h, uint64_t until_ns) { return h->dops->idle(h->d, until_ns); }

/* It holds nothing. */
static int pass_end(struct host *h) { return 0; }

/* The ledger: every event went to the device as it came, so both
 * columns are the device's request counts (a device refuses the zone
 * operations it has not, so those stay 0). */
static void pass_stats(const struct host *h, struct host_stats *st)
{
	struct dev_stats d;
	h->dops->stats(h->d, &d);
	memset(st, 0, sizeof(*st));
	st->in[EV_READ] = d.r.reads;
	st->in[EV_WRITE] = d.r.writes;
	st->in[EV_DISCARD] = d.r.discards;
	st->in[EV_FLUSH] = d.r.flushes;
	memcpy(st->out, st->in, sizeof(st->out));
	st->mem_bytes = sizeof(*h);
}

static const char *pass_error(const struct host *h) { return h->dops->error(h->d); }

static void pass_close(struct host *h) { free(h); }

const struct host_ops host_pass_ops = {
	.name = "pass",
	.open = pass_open,
	.submit = pass_submit,
	.idle = pass_idle,
	.end = pass_end,
	.stats = pass_stats,
	.error = pass_error,
	.close = pass_close,
};
