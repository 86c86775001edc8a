# plots/wa-pairs.gp - values of several sources side by side for each
# category (e.g. the WA of each placement scheme in ftlsim and in
# another simulator), one panel per table: the categories along x, a
# marker per source, so that one sees both which source a point is
# from (the key) and how far apart the sources are.
#   gnuplot -e "FORMAT='png'; out='p.png'" -c plots/wa-pairs.gp [VARS.gp]
# Variables (lists as in term.gp):
#   panels  "CSV|TITLE;..."  one panel each: a CSV with a header row,
#           the categories' labels in its first column
#   series  "COLUMN|TITLE|LT|PS|DX;..."  drawn in every panel: the
#           column's values at each category, shifted by DX (a fraction
#           of the distance between categories), with line type LT's
#           colour and marker (term.gp) at size PS (a reference drawn
#           large and open, the values compared small and filled inside
#           it, show agreement at a glance)
#   cols (panel layout columns, default 2), keyrows (the key's rows,
#   default 2), datfile, plus title, ylabel, yrange.
# The key, one for every panel, is under the panels.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("wa-pairs.gp")]
if (ARGC >= 1) { load ARG1 }
if (!exists("size_w")) size_w = 1400
if (!exists("size_h")) size_h = 1000
load plots_dir . "term.gp"
if (!exists("panels")) panels = ""
if (!exists("series")) series = ""
if (!exists("cols")) cols = 2
if (!exists("keyrows")) keyrows = 2
n = nitems(panels); ns = nitems(series)
if (n == 0 || ns == 0) { print "wa-pairs.gp: set panels and series"; exit status 2 }
if (strlen(ylabel) == 0) { ylabel = "WA (flash page writes / host page writes)" }
set ylabel ylabel
set xtics rotate by -30 font ",10" nomirror
set offsets 0, 0, graph 0.06, graph 0.06
if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
rows = ceil(n / (cols + 0.0))
kb = (40.0 + 22 * keyrows) / size_h
# (room on the left for the y label; at the top for the figure's title
# above the first row's panel titles)
set multiplot layout rows, cols title title font ",13" margins 0.1, 0.98, kb + 0.07, 0.86 spacing 0.07, 0.12
# One panel: P (a table) titled T; the series in the order given.
PLOT = ''
do for [s=1:ns] {
	PLOT = PLOT . sprintf(", f using ($0 + fnum(item(series, %d), 5, 0)):(column(field(item(series, %d), 1))) with points lt fnum(item(series, %d), 3, %d) ps fnum(item(series, %d), 4, 1) lw 1.5 title field(item(series, %d), 2)", s, s, s, s, s, s)
}
PLOT = 'f using 0:(NaN):xtic(1) with points notitle' . PLOT
do for [k=1:n] {
	f = field(item(panels, k), 1)
	stats f using 0 nooutput
	if (nstats("STATS_") == 0) { print "wa-pairs.gp: " . f . ": no rows"; exit status 1 }
	set xrange [-0.6 : STATS_records - 0.4]
	set title field(item(panels, k), 2)
	if (k == n) {
		set key at screen 0.5, 0.01 center bottom vertical maxrows keyrows reverse Left font ",11" samplen 1 spacing 1.4
	} else { unset key }
	if (strlen(datfile)) {
		if (k == 1) { set table datfile } else { set table datfile append }
		eval "plot " . PLOT
		unset table
	}
	eval "plot " . PLOT
}
unset multiplot
