# plots/erase-hist.gp - erase-count distribution (ftlsim --erase-hist
# CSV: erase_count, segments), several runs side by side: a bar per
# erase count and run (erase counts are whole numbers; nothing lies
# between them).
#   gnuplot -e "FORMAT='png'; out='e.png'" -c plots/erase-hist.gp [VARS.gp]
# Variables: files "CSV|TITLE;..." (lists as in term.gp), datfile, plus
# title, xlabel, ylabel, xrange, yrange, logy, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("erase-hist.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("files")) files = ""
if (strlen(xlabel) == 0) { xlabel = "erase count (erases per segment)" }
if (strlen(ylabel) == 0) { ylabel = "fraction of segments" }
eval APPLY
n = nitems(files)
if (n == 0) { print "erase-hist.gp: set files to one or more ftlsim --erase-hist files"; exit status 2 }
array TOT[n]
emin = 1e18; emax = -1
do for [k=1:n] {
	stats field(item(files, k), 1) using (column("segments")) nooutput
	TOT[k] = STATS_sum > 0 ? STATS_sum : 1
	stats field(item(files, k), 1) using (column("erase_count")) nooutput
	emin = STATS_min < emin ? STATS_min : emin
	emax = STATS_max > emax ? STATS_max : emax
}
# n bars share one unit of x; the k-th is shifted from the count.
w = 0.8 / n
shift(k) = (k - (n + 1) / 2.0) * w
set boxwidth w absolute
set style fill solid 0.8 noborder
if (strlen(xrange) == 0) { set xrange [emin - 0.6 : emax + 0.6] }
if (emax - emin <= 30) { set xtics 1 }
set key reverse Left
set yrange [0:*]
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
PLOT = 'for [k=1:n] field(item(files, k), 1) using (column("erase_count") + shift(k)):(column("segments") / TOT[k]) with boxes lt k title field(item(files, k), 2)'
eval DRAW
