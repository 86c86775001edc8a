# plots/latency-cdf.gp - latency distributions of a device in time, one
# kind of request (read, write or trim), several runs on one set of
# axes: the distribution function (CDF) or its tail (1 - CDF on a log
# axis, where p99, p99.9 and p99.99 lie a decade apart), latency on a
# log axis. ftlplot makes the data from ftlsim --latency CSV files.
#   gnuplot -e "FORMAT='png'; out='l.png'" -c plots/latency-cdf.gp [VARS.gp]
# Variables:
#   data    a whitespace-separated file: first one block per run (blocks
#           separated by two blank lines, gnuplot's index) of steps
#           "latency_us cdf ccdf": a first row at the first bucket with
#           cdf 0 (ccdf 1), then a row per histogram bucket, its upper
#           bound and the share at or below it (and above it), the last
#           row's ccdf that of the bucket before (a log axis has no 0);
#           then one block per run of percentile markers
#           "latency_us q 1-q NAME", each row alone (one blank line
#           between rows), at the first bucket whose cdf reaches q
#   titles  "TITLE|LT;..." one per run (lists as in term.gp): the key's
#           text and the line type of term.gp (1-8)
#   tail    0 (default): the CDF on a linear axis; 1: 1 - CDF on a log axis
#   zero    when set (a latency), rows of 0 us are drawn there, and the
#           x label says so
#   datfile  also write the points plotted there
#   plus title, xlabel, ylabel, xrange, yrange, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("latency-cdf.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("data")) data = ""
if (!exists("titles")) titles = ""
if (!exists("tail")) tail = 0
if (!exists("zero")) zero = 0
zero = zero + 0
if (strlen(data) == 0) { print "latency-cdf.gp: set data to a data file"; exit status 2 }
n = nitems(titles)
if (n == 0) { print "latency-cdf.gp: set titles, one per run"; exit status 2 }
if (strlen(xlabel) == 0) {
	xlabel = "latency, arrival to completion (log scale)" . (zero > 0 ? sprintf("; 0 us drawn at %g us", zero) : "")
}
if (strlen(ylabel) == 0) {
	ylabel = tail ? "share of requests slower (1 - CDF, log scale)" : "share of requests at or below (CDF)"
}
eval APPLY
set datafile separator whitespace
unset datafile columnheaders
set key reverse Left width 2
# Latency decades labelled in us, ms or s (1, 2, 5 within them when the
# data span two decades or less).
ulab(v) = v < 1e3 ? sprintf("%g us", v) : v < 1e6 ? sprintf("%g ms", v / 1e3) : sprintf("%g s", v / 1e6)
stats data using 1 nooutput
if (nstats("STATS_") == 0) { print "latency-cdf.gp: " . data . ": no rows"; exit status 1 }
d0 = floor(log10(STATS_min) + 1e-9); d1 = ceil(log10(STATS_max) - 1e-9)
# One latency only (e.g. every TRIM at 0 us): a decade either side.
if (STATS_min == STATS_max) { d1 = d0 + 1; d0 = d0 - 1 }
if (d1 <= d0) { d1 = d0 + 1 }
set logscale x
# (a latency within a quarter of a decade's end drawn off the frame)
set xrange [(10 ** d0 < STATS_min / 1.25 ? 10 ** d0 : STATS_min / 1.25) * 0.999 : \
	(10 ** d1 > STATS_max * 1.25 ? 10 ** d1 : STATS_max * 1.25) * 1.001]
if (strlen(xrange)) { eval "set xrange [" . xrange . "]" }
set xtics ()
do for [d=d0:d1] {
	set xtics add (ulab(10 ** d) 10 ** d)
	if (d1 - d0 <= 2 && d < d1) { set xtics add (ulab(2 * 10 ** d) 2 * 10 ** d, ulab(5 * 10 ** d) 5 * 10 ** d) }
}
set mxtics 10
if (tail) {
	# Down to the decade of the smallest share plotted; each decade
	# named by the percentile there (0.01: p99).
	stats data using ($3 > 0 ? $3 : NaN) nooutput
	e = nstats("STATS_") > 0 ? floor(log10(STATS_min) + 1e-9) : -1
	if (e > -1) { e = -1 }
	set logscale y
	set yrange [10 ** e * 0.999 : 1.001]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	set ytics ()
	do for [d=e:0] {
		nines = d == -1 ? "90" : "99"
		do for [j=3:-d] { nines = nines . (j == 3 ? "." : "") . "9" }
		set ytics add ((d == 0 ? "1" : sprintf("%g (p%s)", 10 ** d, nines)) 10 ** d)
	}
	set mytics 10
	col = 3
	ybot = 10 ** e * 0.999 # (the last step, to 0, drawn down to the axis)
} else {
	set yrange [0:1.02]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	set ytics 0.1
	col = 2
	ybot = 0
}
# The steps, then each run's markers (p50, p90, p99, ... as far as the
# run has requests beyond them), whose key entry shows line and marker.
# In datfile, the steps are named (their run) and the markers too.
S = 'for [k=1:n] data index (k - 1) using 1:(column(col) > 0 ? column(col) : ybot) with steps lt fnum(item(titles, k), 2, k) '
M = 'for [k=1:n] data index (n + k - 1) using 1:col with linespoints lt fnum(item(titles, k), 2, k) ps 1.2 title field(item(titles, k), 1)'
# What the markers are: a last key entry (drawn, not tabulated).
NOTE = ', keyentry with lines lc rgb "white" title "markers: p50, p90, p99, p99.9, ..."'
if (strlen(datfile)) { set table datfile; eval "plot " . S . 'title field(item(titles, k), 1), ' . M . ' . ": percentiles"'; unset table }
eval "plot " . S . 'notitle, ' . M . NOTE
