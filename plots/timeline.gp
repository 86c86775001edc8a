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
#           GC took (and the part GC begun in idle time, when there is any);
#           gc: every run's GC share of the units' time (and of the runs
#           that cleaned in idle time, the part begun there);
#           when no interval has a latency above 0 (no requests, or only
#           ones that take no time: TRIMs without --trim-cost), the lat
#           axes are drawn empty and say so; a run without any beside
#           runs with some says so in its key entry
#   steady  "FROM:TO;..." (seconds): the k-th entry the steady state of
#           the k-th run (empty: none), each shaded; with one run, grey
#           and titled "steady state"; with more, in the run's colour and
#           edged in its dashes, the key naming the run
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
if (what ne "iops" && what ne "lat" && what ne "busy" && what ne "gc") { print "timeline.gp: what must be iops, lat, busy or gc, not '" . what . "'"; exit status 2 }
if (strlen(xlabel) == 0) { xlabel = "simulated time (s)" }
if (strlen(ylabel) == 0) {
	ylabel = what eq "iops" ? "IOPS (requests per second)" : \
		what eq "lat" ? (mean ? "latency of the interval's requests, p99 and mean (log scale)" : "p99 latency of the interval's requests (log scale)") : \
		what eq "gc" ? "GC's share of the units' time" : "share of the units' time"
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
	if (nstats("STATS_") == 0) { print "timeline.gp: " . f . ": no rows"; exit status 1 }
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
# The steady-state windows, shaded behind the lines, each with a key
# entry. One run: grey. Several: each run's window in a light tint of
# its colour, edged in its colour and dashes, the key naming the run
# (whose window is which, where they overlap too).
# (The key's texts from an array: a run's label is not code to eval.)
# A window several runs share is shaded once, the key naming them all
# (tints stacked on one another would make a solid block).
SHADE = ''
array STT[n]
array WHO[n]
do for [k=1:(nitems(steady) < n ? nitems(steady) : n)] {
	w = item(steady, k)
	same = 0
	do for [j=1:k-1] { if (same == 0 && strlen(w) && item(steady, j) eq w) { same = j } }
	if (strlen(w)) {
		sa = real(w[1 : strstrt(w, ":") - 1]); sb = real(w[strstrt(w, ":") + 1 : strlen(w)])
		WHO[k] = field(item(files, k), 2)
		if (same > 0) {
			WHO[same] = WHO[same] . ", " . WHO[k]
			STT[same] = sprintf("steady state of %s (%g-%g s)", WHO[same], sa, sb)
		}
		if (same == 0 && n == 1) {
			set object k rect from sa, graph 0 to sb, graph 1 behind fc rgb "#d9d9d9" fs solid 1.0 noborder
			SHADE = SHADE . sprintf('keyentry with boxes fc rgb "#d9d9d9" fs solid 1.0 noborder title "steady state (%g-%g s)", ', sa, sb)
		}
		if (same == 0 && n > 1) {
			set object k rect from sa, graph 0 to sb, graph 1 behind fc lt k fs transparent solid 0.18 border lc lt k dt k lw 1.5
			STT[k] = sprintf("steady state of %s (%g-%g s)", WHO[k], sa, sb)
			SHADE = SHADE . sprintf('keyentry with boxes fc lt %d fs transparent solid 0.18 border lc lt %d dt %d lw 1.5 title STT[%d], ', k, k, k, k)
		}
	}
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
	# The smallest and largest latency above 0 of the runs: every row a
	# valid point for stats (a latency of 0 counts for nothing), so that
	# none above 0 is no empty selection (STATS_min undefined) either.
	# NOLAT[k]: run k has none (its key entry says so, when others have).
	lo = 1e300; hi = 0
	minmax(v) = v > 0 ? (lo = v < lo ? v : lo, hi = v > hi ? v : hi, got = got + 1, 0) : 0
	array NOLAT[n]
	do for [k=1:n] {
		got = 0
		stats field(item(files, k), 1) using (minmax(column("lat_p99_us")) + (mean ? minmax(column("lat_mean_us")) : 0)) nooutput
		NOLAT[k] = got == 0
	}
	anylat = hi > 0
	NOLATT(k) = NOLAT[k] && anylat ? " (no latency recorded)" : ""
	# No interval has a latency above 0 (no requests, or only requests
	# that take no time, e.g. TRIMs without --trim-cost): the axes drawn
	# empty, 1 us to 1 ms, and a note in the middle saying so.
	if (hi == 0) {
		print "timeline.gp: no interval has a latency above 0: the latency axes are drawn empty"
		lo = 1; hi = 1000
		set label 2 "no latency recorded\n(no interval has a request that took time)" at graph 0.5, 0.5 center front
	}
	set logscale y
	d0 = floor(log10(lo) + 1e-9); d1 = ceil(log10(hi) - 1e-9)
	if (d1 <= d0) { d1 = d0 + 1 }
	# (a latency within a quarter of a decade's end drawn off the frame)
	set yrange [(10 ** d0 < lo / 1.25 ? 10 ** d0 : lo / 1.25) * 0.999 : (10 ** d1 > hi * 1.25 ? 10 ** d1 : hi * 1.25) * 1.001]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	set ytics ()
	do for [d=d0:d1] {
		set ytics add (ulab(10 ** d) 10 ** d)
		if (d1 - d0 <= 2 && d < d1) { set ytics add (ulab(2 * 10 ** d) 2 * 10 ** d, ulab(5 * 10 ** d) 5 * 10 ** d) }
	}
	set mytics 10
	P = 'for [k=1:n] field(item(files, k), 1) using (mid(k)):(lat("lat_p99_us")) with linespoints lt k pi PI[k] ps 0.8 title field(item(files, k), 2) . (mean ? ": p99" : "") . NOLATT(k)'
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
	idle = nstats("STATS_") > 0 ? STATS_max > 0 : 0
	set yrange [0:1.05]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	B = 'f using (mid(1)):(column("busy_share")) with linespoints lt 1 pi PI[1] ps 0.8 title "busy (requests and GC)"'
	G = 'f using (mid(1)):(column("busy_share") * column("gc_busy_share")) with linespoints lt 2 pi PI[1] ps 0.8 title "GC (and wear levelling)"'
	I = 'f using (mid(1)):(column("busy_share") * column("gc_idle_busy_share")) with linespoints lt 3 pi PI[1] ps 0.8 title "GC begun in idle time"'
	PLOT = B . ', ' . G . (idle ? ', ' . I : '')
}
if (what eq "gc") {
	# Each run's GC share of the units' time; a run that cleaned in
	# idle time also the part of it begun there, in the next colours.
	array IDLE[n]
	anyidle = 0
	do for [k=1:n] {
		stats field(item(files, k), 1) using (column("gc_idle_busy_share")) nooutput
		IDLE[k] = nstats("STATS_") > 0 ? STATS_max > 0 : 0
		anyidle = anyidle || IDLE[k]
	}
	set yrange [0:*]
	set offsets 0, 0, graph 0.05, 0
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
	G = 'for [k=1:n] field(item(files, k), 1) using (mid(k)):(column("busy_share") * column("gc_busy_share")) with linespoints lt k pi PI[k] ps 0.8 title field(item(files, k), 2) . (anyidle ? ": GC" : "")'
	I = ''
	do for [k=1:n] {
		if (IDLE[k]) {
			I = I . sprintf(', field(item(files, %d), 1) using (mid(%d)):(column("busy_share") * column("gc_idle_busy_share")) with linespoints lt %d pi PI[%d] ps 0.8 title field(item(files, %d), 2) . ": GC begun in idle time"', k, k, n + k, k, k)
		}
	}
	PLOT = G . I
}
# The shading's key entry is drawn, not tabulated.
if (strlen(datfile)) { set table datfile; eval "plot " . PLOT; unset table }
eval "plot " . SHADE . PLOT
