# plots/lines.gp - lines from one whitespace-separated data file, a
# block per line (blocks separated by two blank lines, gnuplot's index),
# two columns x y: ftlplot's summaries of --results runs (a value
# against a parameter, one line per value of another column; the
# distribution function of per-volume WA).
#   gnuplot -e "FORMAT='png'; out='r.png'" -c plots/lines.gp [VARS.gp]
# Variables: data (the file), titles "TITLE;..." (one per block, lists
# as in term.gp), style (linespoints, default, or steps), logx (1, or a base: 2, 10),
# plus title, xlabel, ylabel, xrange, yrange, logy (2: latencies in us,
# decades labelled in us, ms, s), keypos, xwords (the x values 1, 2, ...
# named: "A;B;..."), lts "L|D;..." (block k in line type L, its colour
# and marker, with dash pattern D; default: line type k), marks (1: the
# n blocks are followed by n more, of one point each, marked with their
# line's marker: a CDF's median), keyfactors "TITLE|LT|DT;..." (a key of
# these entries in place of one per block, for many blocks told apart by
# two things, colour and marker (LT) and dash pattern (DT): an entry of
# LT 0 is a line of dash pattern DT in a grey (the k-th of them lighter
# than the (k-1)-th, none a line type's colour), one of DT 0 line type
# LT's colour and marker on a solid line; the blocks untitled in the
# image, titled in datfile).
plots_dir = ARG0[1 : strlen(ARG0) - strlen("lines.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("data")) data = ""
if (!exists("titles")) titles = ""
if (!exists("style")) style = "linespoints"
if (!exists("logx")) logx = 0
if (strlen(data) == 0) { print "lines.gp: set data to a data file"; exit status 2 }
set datafile separator whitespace
unset datafile columnheaders
# The data's x and y (before any range is set: one column's stats keep
# to the y range), for the linear axes' ranges below.
stats data using 1 prefix "X" nooutput
stats data using 2 prefix "Y" nooutput
eval APPLY
n = nitems(titles)
if (n == 0) { n = 1 }
if (!exists("xwords")) xwords = ""
# Margins (offsets, a fraction of the plot) at the sides (xoff) and
# above and below (yoff) of a range that comes from the data, so that a
# point or line at its edge is not drawn on the frame.
xoff = 0; yoff = 0
# logx 1: a log axis; 2 or 10 (ftlplot --results, a geometric sweep):
# of that base, its range the data's with a margin (2: a tic a power of 2)
if (logx == 1) { set logscale x }
if (logx > 1) {
	eval sprintf("set logscale x %d", logx)
	set autoscale xfix
	xoff = 0.04
	if (logx == 2) { set xtics 2 }
}
# xwords "A;B;...": the x values 1, 2, ... are these words (a grid axis
# of names: policies, devices, host-lfs specs)
if (strlen(xwords)) {
	set xtics () rotate by -20 left
	do for [k=1:nitems(xwords)] { set xtics add (item(xwords, k) k) }
	set xrange [0.5 : nitems(xwords) + 0.5]
	set mxtics 1
	yoff = 0.04 # (a point at the range's edge, off the border)
}
# A linear x axis of numbers: the data's range and 4% of it at either
# side (a line's last point, a CDF's last step, off the right frame).
if (logx == 0 && !strlen(xwords) && !strlen(xrange)) {
	set autoscale xfix
	xoff = 0.04
	if (nstats("X_") > 0 && X_max == X_min) { # (one x: 10% of it either side)
		xm = X_max == 0 ? 1 : 0.1 * abs(X_max)
		set xrange [X_max - xm : X_max + xm]
	}
}
# A linear y axis: the data's range and 5% of it above and below (a line
# at its lowest value, WA 1, off the bottom frame, the highest off the
# top one); every value alike (a flat line: WA 1 at every point, no GC)
# 10% of it either side (1 about 0), not gnuplot's 1% and its warning.
if (logy == 0 && !strlen(yrange)) {
	if (nstats("Y_") > 0) {
		if (Y_max > Y_min) {
			set autoscale yfix
			yoff = 0.05
		} else {
			ym = Y_max == 0 ? 1 : 0.1 * abs(Y_max)
			set yrange [Y_max - ym : Y_max + ym]
		}
	}
}
set offsets graph xoff, graph xoff, graph yoff, graph yoff
set key reverse Left
# logy 2, latencies in us: decades labelled in us, ms or s.
if (logy == 2) {
	ulab(v) = v < 1e3 ? sprintf("%g us", v) : v < 1e6 ? sprintf("%g ms", v / 1e3) : sprintf("%g s", v / 1e6)
	stats data using ($2 > 0 ? $2 : NaN) nooutput # (a 0, drawn at no height: not in the range)
	d0 = floor(log10(STATS_min) + 1e-9); d1 = ceil(log10(STATS_max) - 1e-9)
	if (d1 <= d0) { d1 = d0 + 1 }
	# (a latency within a quarter of a decade's end drawn off the frame)
	set yrange [(10 ** d0 < STATS_min / 1.25 ? 10 ** d0 : STATS_min / 1.25) * 0.999 : \
		(10 ** d1 > STATS_max * 1.25 ? 10 ** d1 : STATS_max * 1.25) * 1.001]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	set ytics ()
	do for [d=d0:d1] { set ytics add (ulab(10 ** d) 10 ** d) }
}
if (!exists("lts")) lts = ""
if (!exists("marks")) marks = 0
LT(k) = nitems(lts) >= k ? fnum(item(lts, k), 1, k) : k
DT(k) = nitems(lts) >= k ? (fnum(item(lts, k), 2, k) - 1) % 16 + 1 : (k - 1) % 16 + 1
TITLE(k) = nitems(titles) ? item(titles, k) : ""
if (marks) {
	# the lines untitled; each one's mark (a point drawn as linespoints)
	# carries its key entry, a sample of the line with its marker
	PLOT = 'for [k=1:n] data index (k - 1) using 1:2 with ' . style . ' lt LT(k) dt DT(k) notitle, ' . \
		'for [k=1:n] data index (n + k - 1) using 1:2 with linespoints lt LT(k) dt DT(k) title TITLE(k)'
} else {
	PLOT = 'for [k=1:n] data index (k - 1) using 1:2 with ' . style . ' lt LT(k) dt DT(k) title TITLE(k)'
}
if (!exists("keyfactors")) keyfactors = ""
if (strlen(keyfactors)) {
	KF(k) = field(item(keyfactors, k), 1)
	KL(k) = fnum(item(keyfactors, k), 2, 0)
	KD(k) = fnum(item(keyfactors, k), 3, 0)
	if (strlen(datfile)) { set table datfile; eval "plot " . PLOT; unset table }
	PLOT = 'for [k=1:n] data index (k - 1) using 1:2 with ' . style . ' lt LT(k) dt DT(k) notitle' . \
		(marks ? ', for [k=1:n] data index (n + k - 1) using 1:2 with points lt LT(k) notitle' : '')
	# The dash patterns' entries in greys, darker to lighter in their
	# order (KGREY: #555555 to #808080), all between black (line type
	# 7's colour) and line type 8's grey (#999999) and neither: a dash
	# pattern's entry is not taken for a line of the key's in black or
	# grey (those have markers too).
	nkd = 0
	do for [k=1:nitems(keyfactors)] { if (KL(k) == 0) { nkd = nkd + 1 } }
	KGREY(j) = nkd > 1 ? int(0x55 + (j - 1) * (0x80 - 0x55) / (nkd - 1.0) + 0.5) : 0x66
	jd = 0
	do for [k=1:nitems(keyfactors)] {
		if (KL(k) == 0) { jd = jd + 1 }
		PLOT = PLOT . sprintf(', keyentry with %s title KF(%d)', \
			KL(k) == 0 ? sprintf('lines lc rgb "#%02X%02X%02X" dt %d lw 2', KGREY(jd), KGREY(jd), KGREY(jd), KD(k)) : sprintf('linespoints lt %d dt 1', KL(k)), k)
	}
	eval "plot " . PLOT
} else {
	eval DRAW
}
