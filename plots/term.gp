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
	set terminal pdfcairo size size_w/150.0, size_h/150.0 enhanced font "DejaVu Sans,7" linewidth 1
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
set key below nobox samplen 3.5 spacing 1.15 font ",11" maxcols 3
set tics out nomirror
set termoption noenhanced

# Eight distinguishable colours (Okabe-Ito), each with its own point and
# dash pattern, so that curves which coincide stay visible.
set linetype 1 lc rgb "#0072B2" pt 7  ps 1.0 lw 2 dt 1
set linetype 2 lc rgb "#D55E00" pt 5  ps 1.0 lw 2 dt 2
set linetype 3 lc rgb "#009E73" pt 9  ps 1.1 lw 2 dt 3
set linetype 4 lc rgb "#CC79A7" pt 13 ps 1.1 lw 2 dt 4
set linetype 5 lc rgb "#E69F00" pt 11 ps 1.1 lw 2 dt 5
set linetype 6 lc rgb "#56B4E9" pt 3  ps 1.0 lw 2 dt (12,4,2,4)
set linetype 7 lc rgb "#000000" pt 1  ps 1.0 lw 2 dt (4,4)
set linetype 8 lc rgb "#999999" pt 2  ps 1.0 lw 2 dt (20,6)
set linetype cycle 8

# nitems(list), item(list, k), field(entry, k): k from 1; a missing
# field is "".
nitems(s) = strlen(s) == 0 ? 0 : (strstrt(s, ";") == 0 ? 1 : 1 + nitems(s[strstrt(s, ";") + 1 : strlen(s)]))
item(s, k) = k <= 1 ? (strstrt(s, ";") ? s[1 : strstrt(s, ";") - 1] : s) : (strstrt(s, ";") ? item(s[strstrt(s, ";") + 1 : strlen(s)], k - 1) : "")
field(e, k) = k <= 1 ? (strstrt(e, "|") ? e[1 : strstrt(e, "|") - 1] : e) : (strstrt(e, "|") ? field(e[strstrt(e, "|") + 1 : strlen(e)], k - 1) : "")
# A field as a number, or a default when it is empty.
fnum(e, k, dflt) = strlen(field(e, k)) ? field(e, k) + 0 : dflt

# Common options every script honours (set them with -e or a vars file):
#   title, xlabel, ylabel, xrange ("A:B"), yrange, logy (1), keypos
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
	'if (logy) { set logscale y; set ytics (1, 1.5, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 100) }; eval "set key " . keypos'

# eval DRAW: plot PLOT (a plot command without the word plot); with
# datfile set, the points plotted are first written there (gnuplot's
# table format, one block per series), so a figure can be redrawn or
# its numbers read without the inputs.
if (!exists("datfile")) datfile = ""
DRAW = 'if (strlen(datfile)) { set table datfile; eval "plot " . PLOT; unset table }; eval "plot " . PLOT'
