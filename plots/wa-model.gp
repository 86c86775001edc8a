# plots/wa-model.gp - WA or write cost against utilization or spare
# factor: simulation as points, models as lines.
#   gnuplot -e "FORMAT='png'; out='f.png'" -c plots/wa-model.gp [VARS.gp]
# Variables (in VARS.gp or -e; lists as in term.gp):
#   points  "CSV|XCOL|YCOL|TITLE[|LT[|PS]];..."    one point series each
#           (PS the point size, default 1.3: a published series' open
#           markers drawn larger ring the measured points they agree with)
#   lines   "CSV|XCOL|YCOL|TITLE[|SCALE|LT];..."   one model line each (Y*SCALE)
# LT (a line type of term.gp, 1-8) pairs a simulation with its model;
# by default the k-th series of each kind has line type k.
#   hlines  "Y|TITLE;..."                     constant lines (e.g. FFS),
#           in term.gp's reference styles (REF1, REF2)
#   plus title, xlabel, ylabel, xrange, yrange, logy, keypos.
# Columns are named by the CSV header (ftlsim, wamodel --csv, paper/).
plots_dir = ARG0[1 : strlen(ARG0) - strlen("wa-model.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("points")) points = ""
if (!exists("lines")) lines = ""
if (!exists("hlines")) hlines = ""
eval APPLY
np = nitems(points); nl = nitems(lines); nh = nitems(hlines)
if (np + nl + nh == 0) { print "wa-model.gp: nothing to plot (set points, lines or hlines)"; exit status 2 }
set samples 2
set key reverse Left
# An empty "for [k=1:0]" clause confuses plot: join only the ones in use.
L = 'for [k=1:nl] field(item(lines, k), 1) using (column(field(item(lines, k), 2))):(column(field(item(lines, k), 3)) * fnum(item(lines, k), 5, 1)) with lines lt fnum(item(lines, k), 6, k) lw 2 title field(item(lines, k), 4)'
P = 'for [k=1:np] field(item(points, k), 1) using (column(field(item(points, k), 2))):(column(field(item(points, k), 3))) with points lt fnum(item(points, k), 5, k) ps fnum(item(points, k), 6, 1.3) title field(item(points, k), 4)'
H = ''
do for [k=1:nh] { H = H . (k > 1 ? ', ' : '') . sprintf("(field(item(hlines, %d), 1) + 0) with lines %s title field(item(hlines, %d), 2)", k, REF(k), k) }
cmd = ''
if (nl > 0) { cmd = L }
if (np > 0) { cmd = cmd . (strlen(cmd) ? ', ' : '') . P }
if (nh > 0) { cmd = cmd . (strlen(cmd) ? ', ' : '') . H }
PLOT = cmd
eval DRAW
