# plots/wa-bars.gp - WA per trace and victim policy as clustered bars,
# one panel per table. Each table is a CSV with a header row: a label
# column, then one column per bar of a cluster (e.g. paper/'s
# real-trace tables: trace, greedy, cb, fifo, ...); an empty cell is a
# bar left out.
#   gnuplot -e "FORMAT='png'; out='b.png'" -c plots/wa-bars.gp [VARS.gp]
# Variables: panels "CSV|TITLE;..." (lists as in term.gp); cols (panel
# layout columns, default 2); ylabel; title; yrange; legend ("top", the
# default: one key for every panel, under the title, legcols entries a
# row (default 8); "right": one column in the right fifth of the
# figure). The k-th bar of a cluster has line type k's colour and
# term.gp's hatching BARPAT(k), so that every bar of a cluster is told
# apart in greyscale too; the panels share the first table's columns.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("wa-bars.gp")]
if (ARGC >= 1) { load ARG1 }
if (!exists("size_w")) size_w = 1600
if (!exists("size_h")) size_h = 1100
load plots_dir . "term.gp"
if (!exists("panels")) panels = ""
if (!exists("cols")) cols = 2
if (!exists("legend")) legend = "top"
if (!exists("legcols")) legcols = 8
if (strlen(ylabel) == 0) { ylabel = "WA (flash page writes / host page writes)" }
if (legend ne "top" && legend ne "right") { print "wa-bars.gp: legend must be top or right, not '" . legend . "'"; exit status 2 }
n = nitems(panels)
if (n == 0) { print "wa-bars.gp: set panels to one or more tables"; exit status 2 }
# The bars' titles: the first table's header, less its label column.
f = field(item(panels, 1), 1)
BK_titles = system("head -n 1 '" . f . "' | tr -d '\\r' | cut -d, -f2- | tr ',' ';'")
nb = nitems(BK_titles)
if (nb == 0) { print "wa-bars.gp: " . f . ": no column of bars"; exit status 1 }
# A cluster of nb bars and a gap of one bar around the whole count.
slot = 1.0 / (nb + 1)
off(j) = (j - (nb + 1) / 2.0) * slot
bw = 0.9 * slot
set style fill solid 0.85 border lc rgb "black"
set xtics rotate by -30 font ",9" nomirror
set ylabel ylabel
set yrange [0:*]
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
set offsets 0, 0, graph 0.05, 0
unset key
rows = ceil(n / (cols + 0.0))
# The key: above the panels in rows of legcols, or in a column at the right.
if (legend eq "top") {
	krows = ceil(nb / (legcols + 0.0))
	BK_cols = legcols; BK_dx = 0.9 / legcols; BK_dy = 0.03; BK_x = 0.06; BK_y = 0.955
	# Room under the key for the first row's panel titles.
	top = BK_y - krows * BK_dy - 0.04
	rmarg = 0.97
} else {
	BK_cols = 1; BK_dx = 0; BK_dy = 0.026; BK_x = 0.815; BK_y = 0.93
	top = 0.93
	rmarg = 0.8
}
BK_h = BK_dy * 0.6
BK_w = 0.022
set multiplot layout rows, cols title title font ",13" margins 0.05, rmarg, 0.1, top spacing 0.06, 0.17
do for [k=1:n] {
	f = field(item(panels, k), 1)
	nc = int(system("head -n 1 '" . f . "' | awk -F, '{ print NF }'"))
	stats f using 0 nooutput
	if (nstats("STATS_") == 0) { print "wa-bars.gp: " . f . ": no rows"; exit status 1 }
	set xrange [-0.6 : STATS_records - 0.4]
	set title field(item(panels, k), 2)
	if (k == n) { eval BARKEY }
	# Each bar twice: filled with its colour, then hatched in black; the
	# labels at the clusters' middles.
	plot f using 0:(NaN):xtic(1) with points notitle, \
	     for [c=2:nc] f using ($0 + off(c - 1)):(column(c)):(bw) with boxes lt (c - 1) lw 1 dt 1 notitle, \
	     for [c=2:nc] f using ($0 + off(c - 1)):(column(c)):(bw) with boxes fc rgb "black" fs transparent pattern BARPAT(c - 1) border lc rgb "black" lw 1 dt 1 notitle
}
unset multiplot
