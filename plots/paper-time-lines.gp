# plots/paper-time-lines.gp - lines from CSV files against a common x,
# with windows marked on them: the paper's figures of the device in
# time (IOPS against simulated time with each series' steady-state
# window; foreground GC time against the wait state).
#   gnuplot -e "FORMAT='png'; out='f.png'" -c plots/paper-time-lines.gp [VARS.gp]
# Variables (in VARS.gp or -e; lists as in term.gp):
#   lines  "CSV|XCOL|YCOL|TITLE[|LT[|WITH]];..."  one line each; WITH a
#          plot style (default: style, itself "lines"), e.g.
#          "linespoints pi 10"
#   spans  "X0|X1|Y|LT;..."  a bar from (X0, Y) to (X1, Y) with end
#          ticks, in line type LT (a window on its series)
#   spantitle  the key's entry for the bars (none when empty)
#   logx, ylog (1: logarithmic), xtics, ytics ("set xtics" arguments),
#   yformat, plus title, xlabel, ylabel, xrange, yrange, keypos.
# Columns are named by the CSV header.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("paper-time-lines.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("lines")) lines = ""
if (!exists("spans")) spans = ""
if (!exists("spantitle")) spantitle = ""
if (!exists("style")) style = "lines"
if (!exists("logx")) logx = 0
if (!exists("ylog")) ylog = 0
if (!exists("xtics")) xtics = ""
if (!exists("ytics")) ytics = ""
if (!exists("yformat")) yformat = ""
eval APPLY
nl = nitems(lines); ns = nitems(spans)
if (nl == 0) { print "paper-time-lines.gp: nothing to plot (set lines)"; exit status 2 }
if (logx) { set logscale x }
if (ylog) { set logscale y }
if (strlen(xtics)) { eval "set xtics " . xtics }
if (strlen(ytics)) { eval "set ytics " . ytics }
if (strlen(yformat)) { set format y yformat }
set key reverse Left
do for [k=1:ns] {
	e = item(spans, k)
	set arrow k from field(e, 1) + 0, field(e, 3) + 0 to field(e, 2) + 0, field(e, 3) + 0 \
		heads size screen 0.015,90 lt fnum(e, 4, k) lw 3 dt 1 back
}
# The plot command, entry by entry (each its own style): the fields are
# read by item() when plotting, so no file name or title is quoted here.
PLOT = ''
do for [k=1:nl] {
	w = strlen(field(item(lines, k), 6)) ? field(item(lines, k), 6) : style
	PLOT = PLOT . (k > 1 ? ', ' : '') . \
		sprintf("field(item(lines, %d), 1) using (column(field(item(lines, %d), 2))):(column(field(item(lines, %d), 3))) with %s lt fnum(item(lines, %d), 5, %d) title field(item(lines, %d), 4)", k, k, k, w, k, k, k)
}
if (ns > 0 && strlen(spantitle)) { PLOT = PLOT . ', keyentry with lines lt 7 lw 5 dt 1 title spantitle' }
eval DRAW
