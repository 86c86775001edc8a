/*
 * host_trim.h - the TRIM host (host_trim.c): when and how the trace's
 * discards reach the device, as a Linux host decides it, and the leak
 * this leaves, pages the host has discarded that the device still holds
 * valid (docs/MODEL.md, "The TRIM host").
 *
 *   online        every discard as the trace has it (the default)
 *   batch:S       held, and sent as fstrim would every S seconds of the
 *                 trace's time (at each multiple of S) and at its end
 *   delay:S       each discard sent S seconds of trace time late
 *
 * A held page written again before it is sent is not sent. Then, as the
 * block layer does with a device's discard_granularity and
 * max_discard_sectors, a discard's unaligned head and tail are dropped
 * and the rest split in pieces of at most the maximum; a seeded share of
 * the pieces is lost on the way.
 */
#ifndef FTLKIT_HOST_TRIM_H
#define FTLKIT_HOST_TRIM_H

#include <stddef.h>
#include <stdint.h>

#include "host.h"

enum trim_mode { TRIM_ONLINE, TRIM_BATCH, TRIM_DELAY };

/* The largest --discard-max: an event's length is 32 bits. */
#define TRIM_MAX_BYTES 0xfffffe00ull

struct trim_config {
	int mode;	      /* enum trim_mode */
	double seconds;	      /* batch: the period; delay: the delay */
	uint64_t granularity; /* bytes; 0: none */
	uint64_t max;	      /* bytes; 0: no limit */
	double loss;	      /* the share of pieces lost, 0..1 */
	uint64_t seed;
};

void trim_config_default(struct trim_config *c);
/* One setting, its key the long option's name: "trim-mode",
 * "discard-granularity", "discard-max", "trim-loss" or "seed". 0, or
 * -1 with a message that names the option. */
int trim_config_set(struct trim_config *c, const char *key, const char *val, char *err, size_t n);
/* The settings together (the maximum a multiple of the granularity):
 * 0, or -1 with a message. */
int trim_config_check(const struct trim_config *c, char *err, size_t n);
/* The spec host_trim_ops.open takes, "KEY=VALUE,...": what
 * trim_config_parse reads back unchanged. -1 when buf is too small. */
int trim_config_format(const struct trim_config *c, char *buf, size_t n);
int trim_config_parse(struct trim_config *c, const char *spec, char *err, size_t n);
/* What the host allocates on a device of U logical pages (0: a trace
 * that discards nothing): itself, its page state (from the trace's
 * first discard), and for batch: and delay: the list of the discards it
 * holds back, for a trace of n discard requests over span_ns of its
 * time (0: all at once), spread evenly. */
uint64_t trim_host_bytes(const struct trim_config *c, uint64_t U, uint64_t n, int64_t span_ns);
/* "online", "batch:60", "delay:0.5" */
const char *trim_mode_name(const struct trim_config *c, char *buf, size_t n);

#endif
