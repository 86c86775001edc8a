/*
 * host.h - the host interface: a layer between the trace and a device
 * (dev.h) that turns each event into zero or more device events and
 * keeps its own ledger of what it did: a TRIM policy, a host-side
 * placement, a file system's log. It owns no device: it is stacked on
 * one that the program opened, and forwards idle time to it.
 *
 * The pass-through host (host_pass.c) hands every event on as it is:
 * the layer a program uses when the trace is what the device sees.
 */
#ifndef FTLKIT_HOST_H
#define FTLKIT_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

struct host;

/* The host's ledger: events in (from the trace) and out (to the
 * device), by operation (enum ev_op, zone operations included). */
struct host_stats {
	uint64_t in[EV_NOPS_ALL], out[EV_NOPS_ALL];
};

struct host_ops {
	const char *name;
	/* A layer on device d (ops dops): NULL with a message in err. */
	struct host *(*open)(const char *spec, struct dev *d, const struct dev_ops *dops, char *err, size_t n);
	/* Events e[0..n) in order: n when all were served, else the index
	 * of the one that failed (its message from error()). */
	size_t (*submit)(struct host *h, const struct ev *e, size_t n);
	/* The trace is idle until until_ns: the layer's own idle work, then
	 * the device's. 0 or -1. */
	int (*idle)(struct host *h, uint64_t until_ns);
	void (*stats)(const struct host *h, struct host_stats *st);
	const char *(*error)(const struct host *h);
	void (*close)(struct host *h);
};

extern const struct host_ops host_pass_ops;

#endif
