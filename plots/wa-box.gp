# plots/wa-box.gp - the distribution of per-volume WA, one box per
# configuration: the box from p25 to p75, whiskers p10 and p90, a bar at
# the median, a diamond at the overall WA (flash over host page writes
# summed over the volumes).
#   gnuplot -e "FORMAT='png'; out='v.png'" -c plots/wa-box.gp VARS.gp
# Variables: data (CSV with a header: label,p10,p25,p50,p75,p90,overall),
# title, ylabel, bound (the label of a box drawn apart: red and hatched,
# where the others are blue and solid), boundtitle (its key: default
# "the reference").
plots_dir = ARG0[1 : strlen(ARG0) - strlen("wa-box.gp")]
if (ARGC >= 1) { load ARG1 }
if (!exists("size_w")) size_w = 1600
if (!exists("size_h")) size_h = 800
load plots_dir . "term.gp"
if (!exists("data")) { print "wa-box.gp: set data to a CSV of quantiles"; exit status 2 }
if (!exists("bound")) bound = ""
if (!exists("boundtitle")) boundtitle = "the reference"
if (strlen(ylabel) == 0) { ylabel = "per-volume WA (flash page writes / host page writes)" }
set datafile separator ","
set datafile columnheaders
set title title font ",13"
set ylabel ylabel
set xtics rotate by -30 font ",11" nomirror
set ytics nomirror
set grid ytics lc rgb "#dddddd"
set xrange [-0.7:*]
set offsets 0, 0.7, graph 0.05, 0
set boxwidth 0.55
set style fill solid 0.5 border -1
set key inside top left font ",11" samplen 1.5 opaque
nb(c) = (strcol(1) eq bound) ? NaN : column(c)
ib(c) = (strcol(1) eq bound) ? column(c) : NaN
plot data using 0:(nb(3)):(nb(2)):(nb(6)):(nb(5)):xtic(1) with candlesticks whiskerbars 0.5 lw 1 dt 1 \
	lc rgb "#0072B2" title "p10, p25, p75, p90 of the volumes", \
     '' using 0:(ib(3)):(ib(2)):(ib(6)):(ib(5)) with candlesticks whiskerbars 0.5 lw 1 dt 1 \
	lc rgb "#E31A1C" fs pattern 5 border lc rgb "black" title boundtitle." (".bound.")", \
     '' using 0:4:4:4:4 with candlesticks lw 2 dt 1 lc rgb "black" title "median", \
     '' using 0:7 with points pt 13 ps 1.6 lc rgb "#E69F00" title "overall"
# The numbers plotted are the table itself.
if (strlen(datfile)) { system("cp '" . data . "' '" . datfile . "'") }
