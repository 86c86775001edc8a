# plots/wa-bars.gp - WA per trace and victim policy as clustered bars,
# one panel per table. Each table is a CSV with a header row: a label
# column, then one column per bar of a cluster (e.g. paper/'s
# real-trace tables: trace, greedy, cb, fifo, ...).
#   gnuplot -e "FORMAT='png'; out='b.png'" -c plots/wa-bars.gp [VARS.gp]
# Variables: panels "CSV|TITLE;..." (lists as in term.gp); cols (panel
# layout columns, default 2); ylabel; title; yrange; keyspec (a "set
# key" specification replacing the default key above the bars, e.g.
# "outside right top vertical": the panels then leave the right fifth of
# the figure to it, and only the first panel, whose bars the others
# share, has a key). Clusters of more than eight bars take
# the colours of line types 9-16 defined here.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("wa-bars.gp")]
if (ARGC >= 1) { load ARG1 }
if (!exists("size_w")) size_w = 1600
if (!exists("size_h")) size_h = 1100
load plots_dir . "term.gp"
if (!exists("panels")) panels = ""
if (!exists("cols")) cols = 2
if (strlen(ylabel) == 0) { ylabel = "WA (flash page writes / host page writes)" }
n = nitems(panels)
if (n == 0) { print "wa-bars.gp: set panels to one or more tables"; exit status 2 }
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -30 font ",9" nomirror
set ylabel ylabel
set yrange [0:*]
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
# Headroom above the bars for the key.
set offsets 0, 0, graph 0.25, 0
set key inside top center horizontal maxrows 2 font ",10" samplen 1.5 opaque
rmarg = 0.99
if (exists("keyspec")) { eval "set key " . keyspec; set offsets 0, 0, graph 0.05, 0; rmarg = 0.8 }
# Bars 9-16 of a cluster (Tol's palette, dark to light).
set linetype 9 lc rgb "#332288"
set linetype 10 lc rgb "#88CCEE"
set linetype 11 lc rgb "#117733"
set linetype 12 lc rgb "#882255"
set linetype 13 lc rgb "#EE3333"
set linetype 14 lc rgb "#777777"
set linetype 15 lc rgb "#BBBBBB"
set linetype 16 lc rgb "#DDCC77"
unset datafile columnheaders
set multiplot layout ceil(n / (cols + 0.0)), cols title title font ",13" margins 0.05, rmarg, 0.1, 0.93 spacing 0.06, 0.17
do for [k=1:n] {
	f = field(item(panels, k), 1)
	nc = int(system("head -n 1 '" . f . "' | awk -F, '{ print NF }'"))
	set title field(item(panels, k), 2)
	if (exists("keyspec") && k > 1) { unset key }
	plot for [c=2:nc] f using c:xtic(1) title columnhead lt (c - 1) lw 1 dt 1
}
unset multiplot
