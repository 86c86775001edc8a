# plots/trace-sizes.gp - request-size distributions of traces (tracestat
# --size-hist CSV: file, op, bucket, max_bytes, requests), one panel per
# operation, one line per trace.
#   gnuplot -e "FORMAT='png'; out='s.png'" -c plots/trace-sizes.gp [VARS.gp]
# Variables: files "CSV|TITLE;..." (lists as in term.gp); ops (default
# "read write discard"); keycols (the key's entries a row, default 4);
# plus title. One key, under the panels, names every trace.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("trace-sizes.gp")]
if (ARGC >= 1) { load ARG1 }
if (!exists("size_w")) size_w = 1400
if (!exists("size_h")) size_h = 520
load plots_dir . "term.gp"
if (!exists("files")) files = ""
if (!exists("ops")) ops = "read write discard"
n = nitems(files)
if (n == 0) { print "trace-sizes.gp: set files to one or more tracestat --size-hist files"; exit status 2 }
# x: log2 of the bucket's upper bound; the open bucket ">1M" (max_bytes 0) last.
bx(m) = m > 0 ? log(m) / log(2) : 21
# TOT: each trace's requests of each op; HAS[o]: some trace has op o
# (a panel without any is drawn empty, saying so: no points at all
# would leave gnuplot no y range).
array TOT[n * words(ops)]
array HAS[words(ops)]
do for [o=1:words(ops)] { HAS[o] = 0 }
do for [k=1:n] { do for [o=1:words(ops)] {
	stats field(item(files, k), 1) using (strcol("op") eq word(ops, o) ? column("requests") : 0) nooutput
	TOT[(k - 1) * words(ops) + o] = nstats("STATS_") > 0 ? (STATS_sum > 0 ? STATS_sum : 1) : 1
	if (nstats("STATS_") > 0) { if (STATS_sum > 0) { HAS[o] = 1 } }
}}
# One key for the panels, under them: keycols entries a row.
if (!exists("keycols")) keycols = 4
krows = ceil(n / (keycols + 0.0))
kb = (95.0 + 19 * krows) / size_h
set multiplot layout 1, words(ops) title title margins 0.07, 0.98, kb, 0.86 spacing 0.08
set xlabel "request size (bytes, bucket upper bound)"
set ylabel "fraction of the op's requests"
set yrange [0:*]
set xtics rotate by -45 font ",9" ("512" 9, "1K" 10, "2K" 11, "4K" 12, "8K" 13, "16K" 14, "32K" 15, \
	"64K" 16, "128K" 17, "256K" 18, "512K" 19, "1M" 20, ">1M" 21)
set xrange [8.5:21.5]
do for [o=1:words(ops)] {
	set title word(ops, o) . "s"
	if (HAS[o]) {
		set yrange [0:*]; unset label 1
	} else {
		set yrange [0:1]; set label 1 "no " . word(ops, o) . "s in the traces" at graph 0.5, 0.5 center front
	}
	if (o == words(ops)) {
		set key at screen 0.5, 0.01 center bottom vertical maxrows krows reverse Left font ",10" samplen 5
	} else { unset key }
	plot for [k=1:n] field(item(files, k), 1) \
		using (strcol("op") eq word(ops, o) ? bx(column("max_bytes")) : NaN):(column("requests") / TOT[(k - 1) * words(ops) + o]) \
		with linespoints lt k ps 0.8 title field(item(files, k), 2)
}
unset multiplot
