# plots/util-hist.gp - segment-utilization distributions from ftlsim
# --hist CSV (kind, snapshot, host_pages_written, valid_pages,
# utilization, segments): the victims of the measured window, or the
# sealed segments averaged over the snapshots taken after a warm-up.
#   gnuplot -e "FORMAT='png'; out='h.png'" -c plots/util-hist.gp [VARS.gp]
# Variables (lists as in term.gp):
#   hists  "CSV|KIND|AFTER|TITLE;..."  KIND victims or sealed; AFTER: use
#          only snapshots taken after AFTER host page writes (default 0)
#   bins   bins over u in [0, 1] (default 50)
#   plus title, xlabel, ylabel, xrange, yrange, logy, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("util-hist.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("hists")) hists = ""
if (!exists("bins")) bins = 50
if (strlen(xlabel) == 0) { xlabel = "segment utilization u (valid pages / pages per segment)" }
if (strlen(ylabel) == 0) { ylabel = "fraction of segments" }
if (strlen(xrange) == 0) { xrange = "0:1" }
if (keypos eq "top left") { keypos = "top center" }
eval APPLY
n = nitems(hists)
if (n == 0) { print "util-hist.gp: set hists to one or more ftlsim --hist files"; exit status 2 }
# Rows of one histogram: the KIND asked, after the warm-up.
keep(k) = strcol("kind") eq field(item(hists, k), 2) && column("host_pages_written") > fnum(item(hists, k), 3, 0) - (field(item(hists, k), 2) eq "victims" ? 1e18 : 0)
bin(u) = (floor(u * bins) < bins ? floor(u * bins) : bins - 1 + 0) / (bins + 0.0) + 0.5 / bins
array TOT[n]
do for [k=1:n] {
	stats field(item(hists, k), 1) using (keep(k) ? column("segments") : 0) nooutput
	TOT[k] = STATS_sum > 0 ? STATS_sum : 1
}
set key reverse Left
set yrange [0:*]
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
plot for [k=1:n] field(item(hists, k), 1) \
	using (bin(column("utilization"))):(keep(k) ? column("segments") / TOT[k] : 0) \
	smooth frequency with histeps lt k lw 2 title field(item(hists, k), 4)
