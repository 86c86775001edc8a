# plots/timeline.gp - a device in time against simulated time (ftlsim
# --timeline CSV: t_s, iops, mb_per_s, lat_mean_us, lat_p99_us,
# busy_share, gc_busy_share, gc_idle_busy_share, free_segments, wa),
# several runs overlaid. Each row is an interval of simulated time; its
# value is drawn at the interval's middle.
#   gnuplot -e "FORMAT='png'; out='t.png'" -c plots/timeline.gp [VARS.gp]
# Variables (lists as in term.gp):
#   files   "CSV|TITLE;..."  one run each
#   what    iops (default): requests per second; lat: the p99 latency of
#           each interval's requests on a log axis (with mean = 1, the
#           mean too; intervals without requests are left out); busy: the
#           first run's busy share of the units' time, and the part of it
#           GC took (and the part GC begun in idle time, when there is any)
#   steady  "FROM:TO" (seconds): shade that window (the steady state)
#   datfile  also write the points plotted there (one block per line)
#   plus title, xlabel, ylabel, xrange, yrange, keypos.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("timeline.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("files")) files = ""
if (!exists("what")) what = "iops"
if (!exists("steady")) steady = ""
if (!exists("mean")) mean = 0
n = nitems(files)
if (n == 0) { print "timeline.gp: set files to one or more ftlsim --timeline files"; exit status 2 }
if (what ne "iops" && what ne "lat" && what ne "busy") { print "timeline.gp: what must be iops, lat or busy, not '" . what . "'"; exit status 2 }
if (strlen(xlabel) == 0) { xlabel = "simulated time (s)" }
if (strlen(ylabel) == 0) {
	ylabel = what eq "iops" ? "IOPS (requests per second)" : \
		what eq "lat" ? (mean ? "latency of the interval's requests, p99 and mean (log scale)" : "p99 latency of the interval's requests (log scale)") : "share of the units' time"
}
eval APPLY
# Each run: its interval (the step of t_s; 1 s for a single row) and a
# marker every PI rows (about 12 on a line).
array DT[n]
array PI[n]
tmax = 0
do for [k=1:n] {
	f = field(item(files, k), 1)
	stats f using (column("t_s")) nooutput
	if (STATS_records == 0) { print "timeline.gp: " . f . ": no rows"; exit status 1 }
	rows = STATS_records; t0 = STATS_min; tl = STATS_max
	DT[k] = 1
	if (rows > 1) {
		t1 = -1
		stats f using (column("t_s") > t0 && (t1 < 0 || column("t_s") < t1) ? (t1 = column("t_s")) : 0) nooutput
		DT[k] = t1 - t0
	}
	PI[k] = rows > 50 ? int(rows / 12) : 1
	tmax = tl + DT[k] > tmax ? tl + DT[k] : tmax
}
mid(k) = column("t_s") + DT[k] / 2.0
if (strlen(xrange) == 0) { set xrange [0:tmax] }
set key reverse Left width 2
# The steady-state window, shaded behind the lines, with a key entry.
SHADE = ''
if (strlen(steady)) {
	sa = real(steady[1 : strstrt(steady, ":") - 1]); sb = real(steady[strstrt(steady, ":") + 1 : strlen(steady)])
	set object 1 rect from sa, graph 0 to sb, graph 1 behind fc rgb "#d9d9d9" fs solid 1.0 noborder
	SHADE = sprintf('keyentry with boxes fc rgb "#d9d9d9" fs solid 1.0 noborder title "steady state (%g-%g s)", ', sa, sb)
}
# A latency axis: decades labelled in us, ms or s (1, 2, 5 within
# them when the data span two decades or less).
ulab(v) = v < 1e3 ? sprintf("%g us", v) : v < 1e6 ? sprintf("%g ms", v / 1e3) : sprintf("%g s", v / 1e6)
if (what eq "iops") {
	set yrange [0:*]
	set offsets 0, 0, graph 0.05, 0
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	PLOT = 'for [k=1:n] field(item(files, k), 1) using (mid(k)):(column("iops")) with linespoints lt k pi PI[k] ps 0.8 title field(item(files, k), 2)'
}
if (what eq "lat") {
	# No request arrived in an interval: no latency (the CSV says 0).
	lat(c) = column(c) > 0 ? column(c) : NaN
	lo = 1e300; hi = 0
	do for [k=1:n] {
		stats field(item(files, k), 1) using (lat("lat_p99_us")) nooutput
		if (STATS_records > 0) { lo = STATS_min < lo ? STATS_min : lo; hi = STATS_max > hi ? STATS_max : hi }
		if (mean) {
			stats field(item(files, k), 1) using (lat("lat_mean_us")) nooutput
			if (STATS_records > 0) { lo = STATS_min < lo ? STATS_min : lo; hi = STATS_max > hi ? STATS_max : hi }
		}
	}
	if (hi == 0) { print "timeline.gp: no interval has requests"; exit status 1 }
	set logscale y
	d0 = floor(log10(lo) + 1e-9); d1 = ceil(log10(hi) - 1e-9)
	if (d1 <= d0) { d1 = d0 + 1 }
	set yrange [10 ** d0 * 0.999 : 10 ** d1 * 1.001]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	set ytics ()
	do for [d=d0:d1] {
		set ytics add (ulab(10 ** d) 10 ** d)
		if (d1 - d0 <= 2 && d < d1) { set ytics add (ulab(2 * 10 ** d) 2 * 10 ** d, ulab(5 * 10 ** d) 5 * 10 ** d) }
	}
	set mytics 10
	P = 'for [k=1:n] field(item(files, k), 1) using (mid(k)):(lat("lat_p99_us")) with linespoints lt k pi PI[k] ps 0.8 title field(item(files, k), 2) . (mean ? ": p99" : "")'
	M = 'for [k=1:n] field(item(files, k), 1) using (mid(k)):(lat("lat_mean_us")) with linespoints lt (n + k) pi PI[k] ps 0.8 title field(item(files, k), 2) . ": mean"'
	# every interval's point too, small: one between intervals without
	# requests has no line to it
	D = ', for [k=1:n] field(item(files, k), 1) using (mid(k)):(lat("lat_p99_us")) with points lt k pt 7 ps 0.3 notitle'
	DM = ', for [k=1:n] field(item(files, k), 1) using (mid(k)):(lat("lat_mean_us")) with points lt (n + k) pt 7 ps 0.3 notitle'
	PLOT = P . (mean ? ', ' . M : '') . D . (mean ? DM : '')
}
if (what eq "busy") {
	f = field(item(files, 1), 1)
	stats f using (column("gc_idle_busy_share")) nooutput
	idle = STATS_max > 0
	set yrange [0:1.05]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	B = 'f using (mid(1)):(column("busy_share")) with linespoints lt 1 pi PI[1] ps 0.8 title "busy (requests and GC)"'
	G = 'f using (mid(1)):(column("busy_share") * column("gc_busy_share")) with linespoints lt 2 pi PI[1] ps 0.8 title "GC (and wear levelling)"'
	I = 'f using (mid(1)):(column("busy_share") * column("gc_idle_busy_share")) with linespoints lt 3 pi PI[1] ps 0.8 title "GC begun in idle time"'
	PLOT = B . ', ' . G . (idle ? ', ' . I : '')
}
# The shading's key entry is drawn, not tabulated.
if (strlen(datfile)) { set table datfile; eval "plot " . PLOT; unset table }
eval "plot " . SHADE . PLOT
