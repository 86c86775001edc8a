# plots/wa-curve.gp - WA over host writes, several ftlsim runs overlaid
# (ftlsim --curve CSV: host_pages_written, interval_wa, cumulative_wa, ...).
#   gnuplot -e "FORMAT='png'; out='c.png'" -c plots/wa-curve.gp [VARS.gp]
# Variables (lists as in term.gp):
#   curves  "CSV|TITLE[|XDIV];..."  one run each; x = host_pages_written/XDIV
#   xdiv    default XDIV (1): e.g. U, to count host writes in drive fills
#   cumulative  1: also draw cumulative_wa, dotted, in the run's colour
#               (each run its own dots: term.gp's CUMDT); not for one run
#               of a single row, whose cumulative WA is its interval WA
#   stacked "n;y;..."  y: the run is under a host log (--host-lfs), drawn
#               by its stacked WA over the file system's writes
#               (fs_pages_written, stacked_*_wa columns)
#   datfile  also write the points plotted there
#   plus title, xlabel, ylabel, xrange, yrange, logy, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("wa-curve.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("curves")) curves = ""
if (!exists("xdiv")) xdiv = 1
if (!exists("cumulative")) cumulative = 0
if (strlen(xlabel) == 0) { xlabel = xdiv == 1 ? "host writes (pages)" : sprintf("host writes (multiples of %d pages)", xdiv) }
if (strlen(ylabel) == 0) { ylabel = "WA (flash page writes / host page writes)" }
eval APPLY
n = nitems(curves)
if (n == 0) { print "wa-curve.gp: set curves to one or more ftlsim --curve files"; exit status 2 }
# ftlsim ends the file with a partial interval (the writes after the
# last whole --interval); a few writes give a noisy WA, so a row that is
# not at a multiple of the interval (the first row's x) is left out when
# it covers less than half an interval.
array IV[n]
do for [k=1:n] {
	stats field(item(curves, k), 1) using (column("host_pages_written")) nooutput
	if (nstats("STATS_") == 0) { print "wa-curve.gp: " . field(item(curves, k), 1) . ": no rows (no interval of host page writes)"; exit status 1 }
	IV[k] = STATS_min > 0 ? STATS_min : 1
}
whole(k) = (int(column("host_pages_written")) % int(IV[k])) == 0 || 2 * (int(column("host_pages_written")) % int(IV[k])) >= int(IV[k])
set key reverse Left
# Markers on about 12 points of each curve, each run its own marker and
# dash pattern (term.gp), so that curves which coincide stay visible.
array PI[n]
do for [k=1:n] {
	stats field(item(curves, k), 1) using (column("host_pages_written")) nooutput
	PI[k] = nstats("STATS_") > 24 ? int(STATS_records / 12) : 1
	# One run, of one row: its cumulative WA is that row's interval WA, and a
	# line of one point draws nothing (a key entry for no curve): not drawn.
	if (n == 1 && nstats("STATS_") == 1) { cumulative = 0 }
}
# A run under a host log (ftlsim --host-lfs; its stacked_* columns
# hold values): the stacked WA over the file system's writes, which is
# what its host wrote; the device's side is in the CSV.
array XC[n]
array YC[n]
array KC[n]
array ST[n]
if (!exists("stacked")) stacked = ""
do for [k=1:n] {
	lfs = k <= nitems(stacked) ? item(stacked, k) eq "y" : 0
	XC[k] = lfs ? "fs_pages_written" : "host_pages_written"
	YC[k] = lfs ? "stacked_interval_wa" : "interval_wa"
	KC[k] = lfs ? "stacked_cumulative_wa" : "cumulative_wa"
	ST[k] = lfs ? " (stacked: flash over the file system's writes)" : ""
}
# Every row at one x (a run shorter than its --interval: a single row):
# 10% of it either side, not gnuplot's 1% and its empty-range warning.
# (Before the y range is set: stats of one column keeps to it.)
xlo = 1e300; xhi = -1e300
do for [k=1:n] {
	stats field(item(curves, k), 1) using (column(XC[k]) / fnum(item(curves, k), 3, xdiv)) nooutput
	if (nstats("STATS_") > 0) { xlo = STATS_min < xlo ? STATS_min : xlo; xhi = STATS_max > xhi ? STATS_max : xhi }
}
if (strlen(xrange) == 0 && xlo == xhi) {
	xm = xhi == 0 ? 1 : 0.1 * abs(xhi)
	set xrange [xhi - xm : xhi + xm]
}
# The y range: from WA's floor, 1 (or a curve's lowest value, when one
# is below it), to the highest curve, and a margin of 5% of it above and
# below (on a log axis, of its decades), so that a curve at the range's
# edge is drawn off the frame: a run without GC, WA 1 all along, sat on
# the bottom frame, unseen. A flat range (every curve at 1) is 1 - 0.1
# to 1 + 0.1 (a factor of 1.1 on a log axis), not gnuplot's 1%.
ylo = 1; yhi = 1
do for [k=1:n] {
	do for [c=1:(cumulative ? 2 : 1)] {
		stats field(item(curves, k), 1) using (column(c == 1 ? YC[k] : KC[k])) nooutput
		if (nstats("STATS_") > 0) { ylo = STATS_min < ylo ? STATS_min : ylo; yhi = STATS_max > yhi ? STATS_max : yhi }
	}
}
if (logy && ylo > 0) {
	ym = yhi / ylo < 1.21 ? 1.1 : (yhi / ylo) ** 0.05
	set yrange [ylo / ym : yhi * ym]
} else {
	ym = yhi - ylo < 0.2 ? 0.1 : 0.05 * (yhi - ylo)
	set yrange [ylo - ym : yhi + ym]
}
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
C = 'for [k=1:n] field(item(curves, k), 1) using (whole(k) ? column(XC[k]) / fnum(item(curves, k), 3, xdiv) : NaN):(column(YC[k])) with linespoints lt k pi PI[k] ps 0.8 title field(item(curves, k), 2) . ST[k] . (cumulative ? " (per interval)" : "")'
K = 'for [k=1:n] field(item(curves, k), 1) using (column(XC[k]) / fnum(item(curves, k), 3, xdiv)):(column(KC[k])) with lines lt k dt CUMDT(k) lw 1.5 title field(item(curves, k), 2) . " (cumulative)"'
# An empty "for [k=1:0]" clause confuses plot: add K only when asked.
PLOT = C . (cumulative ? ', ' . K : '')
eval DRAW
