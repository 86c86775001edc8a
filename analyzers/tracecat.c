/*
 * tracecat - any trace in, the ftlkit event stream out.
 *
 *   tracecat [-f FORMAT] [-o text|bin|fio|mqsim|disksim|csv] [options] FILE...
 *
 * Reads the trace (a FILE or stdin, or several FILEs, a directory or
 * @LIST as one trace set, its files one after another in time order)
 * through the format's reader and writes one event per physical I/O:
 * the binary stream when stdout is not a terminal, text ("t_ns op
 * offset length volume") when it is or with -o text. Times are relative
 * to the trace's first event.
 * -o fio, mqsim, disksim and csv write a trace for another tool
 * (writers.h), saying on stderr what the format could not hold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_trace.h"
#include "ftlkit.h"
#include "sig.h"
#include "writers.h"

static void usage(void)
{
	printf("Usage: %s [-f FORMAT] [-o text|bin|fio|mqsim|disksim|csv] [options] FILE...\n"
	       "Read a block trace in any supported format and write the ftlkit event stream.\n"
	       "\n"
	       "Output:\n"
	       "  -o, --output text|bin|fio|mqsim|disksim|csv\n"
	       "                         text: one event per line \"t_ns op offset length volume\"\n"
	       "                         (op R W D F, zone ops ZR ZO ZF ZA; offset, length in\n"
	       "                         bytes); bin: the compact\n"
	       "                         binary stream (default when stdout is not a terminal);\n"
	       "                         fio: an iolog (version 3) that fio replays, with\n"
	       "                         trims and syncs; mqsim, disksim: their ASCII traces\n"
	       "                         (reads, writes); csv: t_ns,op,offset,length,volume\n"
	       "                         with a header. What a format cannot hold is counted\n"
	       "                         on stderr\n"
	       "      --target NAME      -o fio: the file or device of volume N (%%u is N;\n"
	       "                         default volume%%u; fio's replay_redirect option sends\n"
	       "                         every volume to one device)\n"
	       "  -q, --quiet            do not report the detected format\n"
	       "\n" CLI_TRACE_HELP "\n"
	       "      --list-formats     list the trace formats and exit\n"
	       "  -h, --help             show this help and exit\n"
	       "  -V, --version          show the version and exit\n"
	       "\n"
	       "Exit status: 0 ok, 1 bad input or I/O error, 2 usage error.\n",
	       prog_name);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_TRACE_LONGOPTS,
		{"output", required_argument, NULL, 'o'},
		{"quiet", no_argument, NULL, 'q'},
		{"target", required_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct trace_opts o;
	int binary = !isatty(STDOUT_FILENO);
	const struct tw_ops *wops = NULL;
	const char *target = NULL;
	int c;

	sig_init();
	prog_init(argv[0]);
	trace_opts_default(&o);
	list_options(argc, argv, longopts);
	while ((c = getopt_long(argc, argv, "f:o:qhV", longopts, NULL)) != -1) {
		if (cli_trace_opt(c, optarg, &o))
			continue;
		switch (c) {
		case 'o':
			wops = NULL;
			if (!strcmp(optarg, "text"))
				binary = 0;
			else if (!strcmp(optarg, "bin"))
				binary = 1;
			else if (!(wops = tw_find(optarg)))
				usage_error("--output takes text, bin, fio, mqsim, disksim or csv, not '%s'",
					    optarg);
			break;
		case 'T': target = optarg; break;
		case 'q': o.quiet = 1; break;
		case 'h': usage(); return EXIT_OK;
		case 'V': print_version(); return EXIT_OK;
		default: usage_error("%s", bad_option(argv, longopts));
		}
	}
	if (optind == argc)
		usage_error("no input: name a trace FILE, or - for stdin");
	if (target && (!wops || strcmp(wops->name, "fio")))
		usage_error("--target goes with -o fio");

	char err[1024];
	if (reader_table_check(err, sizeof(err)))
		die(EXIT_DATA, "%s", err);

	const char **in, *name;
	cli_trace_check(&o);
	size_t nin = cli_trace_inputs(argv + optind, argc - optind, &o, &in, &name);
	/* standard output, a regular file, is not one the trace is read from */
	struct file_uses uses = {0};
	cli_trace_uses(&uses, argv + optind, argc - optind, in, nin);
	file_uses_add(&uses, 1, NULL, "-", NULL);
	cli_uses_check(&uses);
	static struct ev_writer w;
	static struct trace_writer tw;
	if (wops && tw_begin(&tw, wops, stdout, target))
		die(EXIT_DATA, "out of memory");
	ev_writer_init(&w, stdout, binary);
	struct trace *t = trace_open_set(in, nin, &o, err, sizeof(err));
	if (!t)
		die(EXIT_DATA, "%s", err);
	struct ev e;
	int rc = 0;
	uint64_t kept = 0;
	while (!sig_caught && (rc = trace_next(t, &e)) > 0) {
		kept++;
		if (wops ? tw_write(&tw, &e) : ev_write(&w, &e)) {
			if (wops)
				die(EXIT_DATA, "out of memory");
			die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
		}
	}
	if (sig_caught) {
		/* What was converted goes out, ending on a whole event,
		 * without the event stream's end record. */
		if (wops ? fflush(stdout) || ferror(stdout) : ev_writer_flush(&w))
			die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
		if (wops)
			tw_report(&tw);
		sig_exit();
	}
	if (rc < 0 || trace_cut(t)) {
		/* The events converted go out; an input cut short (or
		 * bad) leaves the output without its end record. */
		if (wops)
			fflush(stdout);
		else
			ev_writer_flush(&w);
		die(EXIT_DATA, "%s", rc < 0 ? trace_error(t) : trace_cut(t));
	}
	char bad[1200];
	if (cli_all_bad(t, name, bad, sizeof(bad))) {
		/* nothing read: the output ends without its end record */
		if (wops)
			fflush(stdout);
		else
			ev_writer_flush(&w);
		die(EXIT_DATA, "%s", bad);
	}
	cli_report_bad(t, name);
	/* the filters kept nothing: said, as tracestat says it; the stream
	 * of no event is still one (exit 0) */
	if (!kept && trace_events_read(t))
		warn("%s: the output has no event", cli_none_kept(name, &o, trace_events_read(t), bad, sizeof(bad)));
	trace_close(t);
	if (wops) {
		if (tw_end(&tw) || fflush(stdout) || ferror(stdout))
			die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
		tw_report(&tw);
		return EXIT_OK;
	}
	/* Every input read whole: the stream is complete. */
	if (ev_writer_end(&w))
		die(EXIT_DATA, "error writing standard output: %s", strerror(errno));
	return EXIT_OK;
}
