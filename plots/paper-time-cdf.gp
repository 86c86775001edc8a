# plots/paper-time-cdf.gp - distribution functions in two panels side by
# side (the paper's write and read latencies of a device in time),
# drawn as steps over a logarithmic x axis.
#   gnuplot -e "FORMAT='png'; out='f.png'" -c plots/paper-time-cdf.gp [VARS.gp]
# Variables (in VARS.gp or -e; lists as in term.gp):
#   left, right  "CSV|XCOL|YCOL|TITLE[|LT];..."  the panels' series
#   ltitle, rtitle   the panels' titles
#   plus title (above both), xlabel, ylabel, xrange, yrange, keypos
#   (each panel's key; default "inside right bottom", where a CDF leaves room),
#   keyopaque (1, the default: the key's box hides what is behind it; 0:
#   the curves show through, where a CDF's first rise runs under the key).
# With datfile set, both panels' points go there, left then right.
if (!exists("size_w")) size_w = 1200
if (!exists("size_h")) size_h = 560
plots_dir = ARG0[1 : strlen(ARG0) - strlen("paper-time-cdf.gp")]
if (ARGC >= 1) { load ARG1 }
if (!exists("keypos")) keypos = "inside right bottom"
if (!exists("keyopaque")) keyopaque = 1
load plots_dir . "term.gp"
if (!exists("left")) left = ""
if (!exists("right")) right = ""
if (!exists("ltitle")) ltitle = ""
if (!exists("rtitle")) rtitle = ""
if (nitems(left) + nitems(right) == 0) { print "paper-time-cdf.gp: nothing to plot (set left, right)"; exit status 2 }
ptitle = title
title = ""
eval APPLY
set logscale x
set format x "%g"
set key reverse Left box lc rgb "#bbbbbb" width 1
if (keyopaque) { set key opaque } else { set key noopaque }
set style data steps
# One panel: S is the series list, T its title, A "append" after the first.
PANEL = 'set title T; n = nitems(S); ' . \
	'if (strlen(datfile)) { if (strlen(A)) { set table datfile append } else { set table datfile }; ' . \
	'plot for [k=1:n] field(item(S, k), 1) using (column(field(item(S, k), 2))):(column(field(item(S, k), 3))) lt fnum(item(S, k), 5, k) title field(item(S, k), 4); unset table }; ' . \
	'plot for [k=1:n] field(item(S, k), 1) using (column(field(item(S, k), 2))):(column(field(item(S, k), 3))) lt fnum(item(S, k), 5, k) title field(item(S, k), 4)'
set multiplot layout 1, 2 title ptitle font ",13"
S = left; T = ltitle; A = ""
if (nitems(S) > 0) { eval PANEL }
S = right; T = rtitle; A = "append"
if (nitems(S) > 0) { eval PANEL }
unset multiplot
