# plots/erase-hist.gp - erase-count distribution (ftlsim --erase-hist
# CSV: erase_count, segments), several runs side by side: a bar per bin
# of erase counts and run. Erase counts are whole numbers: a bin is a
# whole number of counts, one count a bin while the counts span at most
# maxbins, else the smallest of 2, 5, 10, 20, 50, ... counts that keeps
# the bins to maxbins (so a drive whose segments were erased hundreds or
# thousands of times still has bars one can see and count).
#   gnuplot -e "FORMAT='png'; out='e.png'" -c plots/erase-hist.gp [VARS.gp]
# Variables: files "CSV|TITLE;..." (lists as in term.gp); binwidth
# (counts a bin; default 0: chosen as above); maxbins (default 40);
# logy (1: a logarithmic y axis, for the sparse tails of a wide
# distribution); datfile (the bins plotted: one block per run, each row
# lo hi segments fraction); maxbarruns (default 3); plus title, xlabel,
# ylabel, xrange, yrange.
# Up to maxbarruns runs, each run's bars have its colour and term.gp's
# hatching, told apart in greyscale too; the key is under the plot. More
# runs would share a bin in bars too narrow to see (8 runs in 40 bins:
# 2 pixels, their black borders and hatching all one sees): each run is
# drawn as the outline of its histogram, a step over each bin (its
# width, at its height), in its line type's colour and dash pattern, on
# one set of axes, keyed as lines.
plots_dir = ARG0[1 : strlen(ARG0) - strlen("erase-hist.gp")]
if (ARGC >= 1) { load ARG1 }
load plots_dir . "term.gp"
if (!exists("files")) files = ""
if (!exists("binwidth")) binwidth = 0
if (!exists("maxbins")) maxbins = 40
if (!exists("maxbarruns")) maxbarruns = 3
if (binwidth < 0 || binwidth != int(binwidth)) { print sprintf("erase-hist.gp: binwidth must be a whole number (0: automatic), not %g", binwidth); exit status 2 }
if (maxbins < 1) { print "erase-hist.gp: maxbins must be at least 1"; exit status 2 }
n = nitems(files)
if (n == 0) { print "erase-hist.gp: set files to one or more ftlsim --erase-hist files"; exit status 2 }
emin = 1e18; emax = -1
do for [k=1:n] {
	stats field(item(files, k), 1) using (column("erase_count")) nooutput
	if (nstats("STATS_") == 0) { print "erase-hist.gp: " . field(item(files, k), 1) . ": no rows"; exit status 1 }
	emin = STATS_min < emin ? STATS_min : emin
	emax = STATS_max > emax ? STATS_max : emax
}
emin = int(emin); emax = int(emax)
# The bin width: 1, 2, 5, 10, 20, 50, ... counts.
array M[3] = [1, 2, 5]
w = binwidth > 0 ? int(binwidth) : 1
wi = 0
while (binwidth == 0 && (emax - int(emin / w) * w) / w + 1 > maxbins) {
	wi = wi + 1
	w = M[wi % 3 + 1] * 10 ** int(wi / 3)
}
lo0 = int(emin / w) * w
nb = (emax - lo0) / w + 1
if (strlen(xlabel) == 0) { xlabel = "erase count (erases per segment)" . (w > 1 ? sprintf("; bins of %d counts", w) : "") }
if (strlen(ylabel) == 0) { ylabel = "fraction of segments" }
logy_asked = logy
logy = 0
eval APPLY
# $BINS: one block per run, a row per bin with segments in it.
set print $BINS
print "# lo hi segments fraction"
unset print
array S[nb]
fmax = 0 # (the highest bar, for the y range)
do for [k=1:n] {
	do for [j=1:nb] { S[j] = 0 }
	stats field(item(files, k), 1) using (j = (int(column("erase_count")) - lo0) / w + 1, S[j] = S[j] + column("segments"), 0) nooutput
	tot = 0
	do for [j=1:nb] { tot = tot + S[j] }
	if (tot == 0) { tot = 1 }
	set print $BINS append
	if (k > 1) { print ""; print "" }
	print "# " . field(item(files, k), 2) . sprintf(" (%d count%s a bin)", w, w > 1 ? "s" : "")
	do for [j=1:nb] {
		if (S[j] > 0) { print sprintf("%d %d %.0f %.6g", lo0 + (j - 1) * w, lo0 + j * w - 1, S[j], S[j] / tot) }
		fmax = S[j] / tot > fmax ? S[j] / tot : fmax
	}
	unset print
}
if (strlen(datfile)) { set print datfile; print $BINS; unset print }
set datafile separator whitespace
unset datafile columnheaders
outline = n > maxbarruns
# A bin covers counts lo .. lo + w - 1, drawn from lo - 1/2 to lo + w - 1/2;
# the n runs' bars share 0.8 of it, the k-th shifted from its middle.
bw = 0.8 * w / n
mid(lo) = lo + (w - 1) / 2.0
shift(k) = (k - (n + 1) / 2.0) * bw
set boxwidth bw absolute
set style fill solid 0.85 border lc rgb "black"
# The range: the bins, lo0 - 1/2 to the last one's lo + w - 1/2, and a
# tenth of a bin either side.
if (strlen(xrange) == 0) { set xrange [lo0 - 0.5 - 0.1 * w : lo0 + nb * w - 0.5 + 0.1 * w] }
if (w == 1 && nb <= 31) { set xtics 1 }
if (logy_asked) {
	set logscale y
	set format y "%g"
	set yrange [*:1]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
} else {
	# The highest bar 5% below the top, its top edge off the frame (one
	# bin of every segment, at 1, was drawn on it).
	set yrange [0 : (fmax > 0 ? fmax : 1) * 1.05]
	if (strlen(yrange)) { eval "set yrange [" . yrange . "]" }
}
if (outline) {
	# $STEPS: a block per run, its histogram's outline from its first
	# bin's left edge to its last bin's right edge, at 0 there and in
	# its empty bins between.
	set print $STEPS
	do for [k=1:n] {
		do for [j=1:nb] { S[j] = 0 }
		stats $BINS index (k - 1) using (j = ($1 - lo0) / w + 1, S[j] = $4, 0) nooutput
		j0 = 0; j1 = 0
		do for [j=1:nb] { if (S[j] > 0) { j1 = j; if (j0 == 0) { j0 = j } } }
		if (k > 1) { print ""; print "" }
		print "# " . field(item(files, k), 2)
		if (j0 > 0) {
			print sprintf("%g 0", lo0 + (j0 - 1) * w - 0.5)
			do for [j=j0:j1] {
				print sprintf("%g %.6g", lo0 + (j - 1) * w - 0.5, S[j])
				print sprintf("%g %.6g", lo0 + j * w - 0.5, S[j])
			}
			print sprintf("%g 0", lo0 + j1 * w - 0.5)
		}
	}
	unset print
	set key below reverse Left
	plot for [k=1:n] $STEPS index (k - 1) using 1:2 with lines lt k title field(item(files, k), 2)
} else {
	# The key under the plot (BARKEY: the bars' colour and hatching), in
	# rows of three.
	unset key
	BK_titles = ""
	do for [k=1:n] { BK_titles = BK_titles . (k > 1 ? ";" : "") . field(item(files, k), 2) }
	BK_cols = 3; BK_dx = 0.3; BK_dy = 38.0 / size_h; BK_h = 0.6 * BK_dy; BK_w = 0.03
	kb = (100.0 + 38 * ceil(n / 3.0)) / size_h
	set bmargin at screen kb
	BK_x = 0.12; BK_y = kb - 88.0 / size_h
	eval BARKEY
	plot for [k=1:n] $BINS index (k - 1) using (mid($1) + shift(k)):4 with boxes lt k lw 1 dt 1 notitle, \
	     for [k=1:n] $BINS index (k - 1) using (mid($1) + shift(k)):4 with boxes fc rgb "black" fs transparent pattern BARPAT(k) border lc rgb "black" lw 1 dt 1 notitle
}
