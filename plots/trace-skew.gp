# plots/trace-skew.gp - write skew: the share of page writes that go to
# the hottest fraction of the written pages (tracestat --skew-cdf CSV:
# file, pages_frac, writes_frac), one line per trace; the diagonal is
# a workload without skew.
#   gnuplot -e "FORMAT='png'; out='k.png'" -c plots/trace-skew.gp [VARS.gp]
# Variables: files "CSV|TITLE;..." (lists as in term.gp), plus title,
# xlabel, ylabel, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("trace-skew.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("files")) files = ""
if (strlen(xlabel) == 0) { xlabel = "fraction of written pages, hottest first" }
if (strlen(ylabel) == 0) { ylabel = "fraction of page writes" }
if (strlen(xrange) == 0) { xrange = "0:1" }
if (strlen(yrange) == 0) { yrange = "0:1" }
eval APPLY
n = nitems(files)
if (n == 0) { print "trace-skew.gp: set files to one or more tracestat --skew-cdf files"; exit status 2 }
set key reverse Left
set samples 2
eval 'plot x with lines ' . REF2 . ' title "no skew (every page equally written)", \
	for [k=1:n] field(item(files, k), 1) using (column("pages_frac")):(column("writes_frac")) \
		with lines lt k title field(item(files, k), 2)'
