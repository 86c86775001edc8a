# plots/util-hist.gp - segment-utilization distributions from ftlsim
# --hist CSV (kind, snapshot, host_pages_written, valid_pages,
# utilization, segments): the victims of the measured window, or the
# sealed segments summed over the snapshots taken after a warm-up.
#   gnuplot -e "FORMAT='png'; out='h.png'" -c plots/util-hist.gp [VARS.gp]
# Variables (lists as in term.gp):
#   hists  "CSV|KIND|AFTER|TITLE;..."  KIND victims or sealed; AFTER: use
#          only snapshots taken after AFTER host page writes (default 0)
#   group  valid counts per bin (default 1: one bin per valid count
#          0..b). A segment holds a whole number of valid pages, so a bin
#          is always a whole number of counts: counts k*group ..
#          k*group+group-1, drawn over u in [(lo - 1/2)/b, (hi + 1/2)/b];
#          the last bin may hold fewer counts (it is drawn narrower).
#   datfile  also write the bins plotted there (one block per histogram)
#   plus title, xlabel, ylabel, xrange, yrange, logy, keypos.
# The y axis is a density over u (fraction of the segments in the bin
# divided by its width in u): it does not depend on the bin width, so
# runs with different b or group compare on one set of axes, and a
# smooth distribution gives a smooth histogram.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("util-hist.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("hists")) hists = ""
if (!exists("group")) group = 1
if (exists("bins")) { print "util-hist.gp: bins is gone: bins are whole numbers of valid counts, set group (counts per bin)"; exit status 2 }
if (group < 1 || group != int(group)) { print sprintf("util-hist.gp: group must be a whole number >= 1, not %g", group); exit status 2 }
group = int(group)
if (strlen(xlabel) == 0) { xlabel = "segment utilization u (valid pages / pages per segment)" }
if (strlen(ylabel) == 0) { ylabel = "density (fraction of segments per unit of u)" }
eval APPLY
n = nitems(hists)
if (n == 0) { print "util-hist.gp: set hists to one or more ftlsim --hist files"; exit status 2 }
# Rows of one histogram: the KIND asked, after the warm-up.
keep(k) = strcol("kind") eq field(item(hists, k), 2) && (field(item(hists, k), 2) eq "victims" || column("host_pages_written") > fnum(item(hists, k), 3, 0))
# $BINS: one block per histogram, a row per bin; $STEPS: its outline.
umin = 0; umax = 1
empty = 0 # histograms without a segment (victims of a run whose GC cleaned none)
set print $BINS
print "# u_lo u_hi density valid_lo valid_hi segments fraction"
set print $STEPS
unset print
do for [k=1:n] {
	f = field(item(hists, k), 1)
	stats f using (keep(k) ? column("valid_pages") : NaN) nooutput
	if (nstats("STATS_") == 0) { print "util-hist.gp: " . f . ": no " . field(item(hists, k), 2) . " rows" . (field(item(hists, k), 2) eq "sealed" ? sprintf(" after %d host page writes", fnum(item(hists, k), 3, 0)) : ""); exit status 1 }
	b = int(STATS_max)
	if (b < 1) { print "util-hist.gp: " . f . ": no valid count above 0 (pages per segment unknown)"; exit status 1 }
	nb = int(b / group) + 1
	array S[nb]
	do for [j=1:nb] { S[j] = 0 }
	j = 0
	stats f using (keep(k) ? (j = int(column("valid_pages")) / group + 1, S[j] = S[j] + column("segments"), 0) : 0) nooutput
	tot = 0
	do for [j=1:nb] { tot = tot + S[j] }
	if (tot == 0) { tot = 1; empty = empty + 1 }
	set print $BINS append
	if (k > 1) { print ""; print "" }
	print "# " . field(item(hists, k), 4) . sprintf(" (b = %d, %d valid count%s per bin)", b, group, group > 1 ? "s" : "")
	set print $STEPS append
	if (k > 1) { print ""; print "" }
	do for [j=1:nb] {
		lo = (j - 1) * group
		hi = lo + group - 1 < b ? lo + group - 1 : b
		ulo = (lo - 0.5) / b
		uhi = (hi + 0.5) / b
		umin = ulo < umin ? ulo : umin
		umax = uhi > umax ? uhi : umax
		dens = S[j] / tot / (uhi - ulo)
		set print $BINS append
		print sprintf("%.6f %.6f %.6g %d %d %.0f %.6g", ulo, uhi, dens, lo, hi, S[j], S[j] / tot)
		set print $STEPS append
		if (j == 1) { print sprintf("%.6f 0", ulo) }
		print sprintf("%.6f %.6g", ulo, dens)
		if (j == nb) { print sprintf("%.6f %.6g", uhi, dens); print sprintf("%.6f 0", uhi) }
	}
	unset print
}
if (exists("datfile") && strlen(datfile)) { set print datfile; print $BINS; unset print }
set datafile separator whitespace
set key reverse Left
# The bins' span and 2% of it either side: the outline's first and last
# edges (the last bin's, at u = 1, often tall) off the frame.
if (strlen(xrange) == 0) { set xrange [umin - 0.02 * (umax - umin) : umax + 0.02 * (umax - umin)] }
set yrange [0:*]
# No segment in any histogram: said on the figure (not blank axes), on a
# range of its own (gnuplot cannot autoscale a range of zeros).
if (empty == n) {
	set yrange [0:1]
	set label 3 "no segment counted\n(for the segments cleaned: GC cleaned none in the window)" at graph 0.5, 0.5 center front
}
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
plot for [k=1:n] $STEPS index (k - 1) using 1:2 with steps lt k title field(item(hists, k), 4)
