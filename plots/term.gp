# plots/term.gp - the one terminal file every plot script loads first.
# FORMAT (png, svg or pdf; default png) picks the terminal and out the
# file; the rest is what all figures share: fonts, line styles, grid,
# CSV input with a header row, and the helpers that read the series
# lists the scripts take:
#   list  = "ENTRY;ENTRY;..."    entries separated by ';'
#   ENTRY = "FIELD|FIELD|..."    fields separated by '|'
# e.g. points="a.csv|sf|wa_measured|greedy, b = 64;b.csv|sf|wa|FIFO".
if (!exists("FORMAT")) FORMAT = "png"
if (!exists("size_w")) size_w = 900
if (!exists("size_h")) size_h = 600
if (FORMAT eq "png") {
	set terminal pngcairo size size_w, size_h enhanced font "DejaVu Sans,12" linewidth 1.5 background "white"
} else { if (FORMAT eq "svg") {
	set terminal svg size size_w, size_h enhanced font "DejaVu Sans,13" linewidth 1.5 background "white"
} else { if (FORMAT eq "pdf") {
	# (the PNG's font and every size set apart from it, keys', tics',
	# titles', scaled as one: pdfcairo's own fontscale is 0.5)
	set terminal pdfcairo size size_w/150.0, size_h/150.0 enhanced font "DejaVu Sans,12" fontscale 0.6 linewidth 1 pointscale 0.6
} else {
	print "term.gp: FORMAT must be png, svg or pdf, not '" . FORMAT . "'"
	exit status 2
}}}
if (exists("out")) { set output out }

set datafile separator ","
set datafile columnheaders
set grid lc rgb "#dddddd"
set border lw 1
# The key goes below the plot, outside the data (keypos to move it).
set key below nobox samplen 5 spacing 1.15 width 1 font ",11" maxcols 3
set tics out nomirror
set termoption noenhanced

# Sixteen line types, each with its own colour, dash pattern and point
# type, so that every series of a figure is told apart in colour and,
# printed in greyscale, by its dashes or markers: 1-8 the Okabe-Ito
# colours, 9-16 darker and lighter ones beside them (a figure of more
# than sixteen series would repeat them). A figure may give a model line
# the colour of the simulation points it models, and a run's second curve
# the colour of its first (wa-curve's cumulative WA, thinner and dotted):
# the two are told apart by their kind; no two other series share a
# colour, a dash pattern or a point type (tests/figstyles.py checks it),
# but for ftlplot's CDF of --results over volumes, which draws the curves
# of one line of its results figure in that line's colour and marker, a
# dash pattern for each x (lines.gp's lts), and over 8 curves keys the
# lines' colours and markers and the x values' dash patterns (in greys,
# none a line type's colour) apart (lines.gp's keyfactors).
# Dash patterns 1-5 are gnuplot's; 6-16 are defined here (dash and gap
# lengths in units of the line width); 17 and 18 are the reference
# lines' (REF1, REF2) and 19-24, CUMDT(k), those of the k-th run's
# second curve in its colour (wa-curve's cumulative WA).
set dashtype 6 (20, 6)
set dashtype 7 (20, 5, 6, 5)
set dashtype 8 (10, 4, 10, 4, 2, 4)
set dashtype 9 (2, 9)
set dashtype 10 (16, 4, 2, 4, 2, 4, 2, 4)
set dashtype 11 (8, 3)
set dashtype 12 (2, 3, 2, 10)
set dashtype 13 (16, 4, 4, 4, 4, 4)
set dashtype 14 (40, 8)
set dashtype 15 (6, 4, 2, 4, 2, 4, 6, 10)
set dashtype 16 (30, 4, 2, 4, 2, 4)
set dashtype 17 (12, 8)
set dashtype 18 (1, 5)
set dashtype 19 (2, 4)
set dashtype 20 (8, 4, 2, 4)
set dashtype 21 (2, 4, 2, 10)
set dashtype 22 (2, 4, 2, 4, 2, 10)
set dashtype 23 (8, 4, 8, 4, 2, 4)
set dashtype 24 (2, 6, 10, 6)
CUMDT(k) = 19 + (int(k) - 1) % 6
set linetype 1  lc rgb "#0072B2" pt 7  ps 1.0 lw 2 dt 1
set linetype 2  lc rgb "#D55E00" pt 5  ps 1.0 lw 2 dt 2
set linetype 3  lc rgb "#009E73" pt 9  ps 1.1 lw 2 dt 3
set linetype 4  lc rgb "#CC79A7" pt 13 ps 1.1 lw 2 dt 4
set linetype 5  lc rgb "#E69F00" pt 11 ps 1.1 lw 2 dt 5
set linetype 6  lc rgb "#56B4E9" pt 3  ps 1.0 lw 2 dt 6
set linetype 7  lc rgb "#000000" pt 1  ps 1.0 lw 2 dt 7
set linetype 8  lc rgb "#999999" pt 2  ps 1.0 lw 2 dt 8
set linetype 9  lc rgb "#332288" pt 6  ps 1.1 lw 2 dt 9
set linetype 10 lc rgb "#882255" pt 4  ps 1.1 lw 2 dt 10
set linetype 11 lc rgb "#999933" pt 8  ps 1.1 lw 2 dt 11
set linetype 12 lc rgb "#9988DD" pt 12 ps 1.2 lw 2 dt 12
set linetype 13 lc rgb "#117733" pt 10 ps 1.1 lw 2 dt 13
set linetype 14 lc rgb "#AA4499" pt 15 ps 1.1 lw 2 dt 14
set linetype 15 lc rgb "#E31A1C" pt 14 ps 1.1 lw 2 dt 15
set linetype 16 lc rgb "#8C510A" pt 7  ps 0.5 lw 2 dt 16
set linetype cycle 16
# Reference lines that are not series of the data (FFS's write costs, the
# diagonal of no skew): neutral colours and dash patterns of their own.
REF1 = 'lc rgb "#444444" dt 17 lw 1.5'
REF2 = 'lc rgb "#8A8A8A" dt 18 lw 2'
array REFS[2] = [REF1, REF2]
REF(k) = REFS[(int(k) - 1) % 2 + 1]
# Bars: series k filled with its colour, hatched in black with pattern
# BARPAT(k) (0 none, 4 \\, 5 //, 1 crossed, 6 dense \\, 7 dense //, 2
# dense crossed), so that bars keep apart in greyscale: two bars with
# one hatching differ in lightness. gnuplot's key cannot draw both
# layers in one sample: BARKEY (below) draws such a key.
array BARPATS[16] = [0, 4, 5, 1, 6, 7, 2, 0, 4, 5, 2, 5, 6, 7, 1, 2]
BARPAT(k) = BARPATS[(int(k) - 1) % 16 + 1]
# eval BARKEY: a key of bars drawn as objects, in screen coordinates,
# with the next plot: BK_titles ("TITLE;...", lists as below), the
# first entry's top left corner at BK_x, BK_y, BK_cols entries a row,
# BK_dx and BK_dy between entries, samples BK_w by BK_h.
if (!exists("BK_cols")) BK_cols = 1
if (!exists("BK_w")) BK_w = 0.02
if (!exists("BK_h")) BK_h = 0.016
BARKEY = 'do for [k=1:nitems(BK_titles)] { ' . \
	'bkx = BK_x + ((k - 1) % BK_cols) * BK_dx; bky = BK_y - int((k - 1) / BK_cols) * BK_dy; ' . \
	'set object 1000 + 2 * k rectangle from screen bkx, bky - BK_h to screen bkx + BK_w, bky front fc lt k fs solid 0.85 border lc rgb "black" lw 1; ' . \
	'set object 1001 + 2 * k rectangle from screen bkx, bky - BK_h to screen bkx + BK_w, bky front fc rgb "black" fs transparent pattern BARPAT(k) border lc rgb "black" lw 1; ' . \
	'set label 1000 + k item(BK_titles, k) at screen bkx + BK_w + 0.006, bky - BK_h / 2 left front font ",10" }'

# nitems(list), item(list, k), field(entry, k): k from 1; a missing
# field is "".
nitems(s) = strlen(s) == 0 ? 0 : (strstrt(s, ";") == 0 ? 1 : 1 + nitems(s[strstrt(s, ";") + 1 : strlen(s)]))
item(s, k) = k <= 1 ? (strstrt(s, ";") ? s[1 : strstrt(s, ";") - 1] : s) : (strstrt(s, ";") ? item(s[strstrt(s, ";") + 1 : strlen(s)], k - 1) : "")
field(e, k) = k <= 1 ? (strstrt(e, "|") ? e[1 : strstrt(e, "|") - 1] : e) : (strstrt(e, "|") ? field(e[strstrt(e, "|") + 1 : strlen(e)], k - 1) : "")
# A field as a number, or a default when it is empty.
fnum(e, k, dflt) = strlen(field(e, k)) ? field(e, k) + 0 : dflt

# nstats("STATS_"): the records the last stats command (of that prefix)
# found valid. When it found none (an empty file, or every value NaN)
# gnuplot warns and leaves STATS_records, STATS_min, ... undefined: test
# nstats("STATS_") > 0 before reading any of them.
nstats(prefix) = exists(prefix . "records") ? value(prefix . "records") : 0

# Common options every script honours (set them with -e or a vars file):
#   title, xlabel, ylabel, xrange ("A:B"), yrange, logy (1: tics for
#   WA, 1 to 100; 2: a decade each, for latencies), keypos
#   (any "set key" position, e.g. "top right").
if (!exists("title")) title = ""
if (!exists("xlabel")) xlabel = ""
if (!exists("ylabel")) ylabel = ""
if (!exists("xrange")) xrange = ""
if (!exists("yrange")) yrange = ""
if (!exists("logy")) logy = 0
if (!exists("keypos")) keypos = "below"

# eval APPLY: put the common options in force.
APPLY = 'set title title; set xlabel xlabel; set ylabel ylabel; ' . \
	'if (strlen(xrange)) { eval "set xrange [" . xrange . "]" }; ' . \
	'if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }; ' . \
	'if (logy == 1) { set logscale y; set ytics (1, 1.5, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 100) }; ' . \
	'if (logy == 2) { set logscale y; set mytics 10 }; eval "set key " . keypos'

# eval DRAW: plot PLOT (a plot command without the word plot); with
# datfile set, the points plotted are first written there (gnuplot's
# table format, one block per series), so a figure can be redrawn or
# its numbers read without the inputs.
if (!exists("datfile")) datfile = ""
DRAW = 'if (strlen(datfile)) { set table datfile; eval "plot " . PLOT; unset table }; eval "plot " . PLOT'
