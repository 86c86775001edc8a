# plots/erase-hist.gp - erase-count distribution (ftlsim --erase-hist
# CSV: erase_count, segments), several runs overlaid.
#   gnuplot -e "FORMAT='png'; out='e.png'" -c plots/erase-hist.gp [VARS.gp]
# Variables: files "CSV|TITLE;..." (lists as in term.gp), plus title,
# xlabel, ylabel, xrange, yrange, logy, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("erase-hist.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("files")) files = ""
if (strlen(xlabel) == 0) { xlabel = "erase count (erases per segment)" }
if (strlen(ylabel) == 0) { ylabel = "fraction of segments" }
if (keypos eq "top left") { keypos = "top right" }
eval APPLY
n = nitems(files)
if (n == 0) { print "erase-hist.gp: set files to one or more ftlsim --erase-hist files"; exit status 2 }
array TOT[n]
do for [k=1:n] {
	stats field(item(files, k), 1) using (column("segments")) nooutput
	TOT[k] = STATS_sum > 0 ? STATS_sum : 1
}
set key reverse Left
set yrange [0:*]
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
plot for [k=1:n] field(item(files, k), 1) using (column("erase_count")):(column("segments") / TOT[k]) \
	with linespoints lt k ps 0.7 title field(item(files, k), 2)
