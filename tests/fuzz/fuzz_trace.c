/*
 * fuzz_trace.c - libFuzzer harness for every trace reader and the
 * event-stream decoder. The format comes from FUZZ_FORMAT ("auto"
 * runs detection too); the input is read through the same streaming,
 * decompressing source as files are, with and without --skip-bad.
 * Every event must be well-formed and survive an encode-decode round
 * trip through the event stream.
 *
 *   FUZZ_FORMAT=msr build/fuzz/fuzz_trace corpus/ -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static const char *format;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	format = getenv("FUZZ_FORMAT");
	if (!format)
		format = "auto";
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int skip = 0; skip < 2; skip++) {
		struct trace_opts o;
		char err[1024];
		trace_opts_default(&o);
		o.format = format;
		o.quiet = 1;
		o.rd.skip_bad = skip;
		o.rd.action = size && (data[0] & 1) ? 'Q' : 'D';
		struct trace *t = trace_open_mem("fuzz", data, size, &o, err, sizeof(err));
		if (!t)
			continue;
		struct ev e;
		unsigned long n = 0;
		while (trace_next(t, &e) > 0) {
			/* Every event must be well-formed whatever the input. */
			if (e.op >= EV_NOPS_ALL || e.hint > EV_HINT_MAX)
				abort();
			/* ... and survive the event stream: encoded and decoded
			 * back, it is the same event. */
			unsigned char rec[EV_REC_SIZE];
			struct ev back;
			ev_encode(&e, rec);
			if (ev_decode(rec, EV_VERSION, &back, err, sizeof(err)) || back.t_ns != e.t_ns ||
			    back.op != e.op || back.offset != e.offset || back.length != e.length ||
			    back.volume != e.volume || back.temp != e.temp || back.stream != e.stream ||
			    back.hint != e.hint)
				abort();
			if (++n > 50000000)
				abort(); /* a reader that never ends */
		}
		trace_close(t);
	}
	return 0;
}
