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
	struct host_stats st;
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
	size_t done = h->dops->submit(h->d, e, n);
	for (size_t k = 0; k < done; k++)
		h->st.in[e[k].op & 7]++;
	return done;
}

static int pass_idle(struct host *h, uint64_t until_ns) { return h->dops->idle(h->d, until_ns); }

static void pass_stats(const struct host *h, struct host_stats *st)
{
	*st = h->st;
	memcpy(st->out, h->st.in, sizeof(st->out)); /* every event, as it came */
}

static const char *pass_error(const struct host *h) { return h->dops->error(h->d); }

static void pass_close(struct host *h) { free(h); }

const struct host_ops host_pass_ops = {
	.name = "pass",
	.open = pass_open,
	.submit = pass_submit,
	.idle = pass_idle,
	.stats = pass_stats,
	.error = pass_error,
	.close = pass_close,
};
