#!/bin/sh
# paper/01-lfs-fig3.sh - figure 1 (LFS figure 3): write cost 2/(1-u)
# against the live fraction u of the cleaned segments, FFS's lines,
# and the (u, write cost) of the uniform greedy simulation runs.
#   sh paper/01-lfs-fig3.sh OUT 01-lfs-fig3   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
awk -v m="$U_MAX" -v st="$U_STEP" 'BEGIN { print "u,write_cost"
	for (i = 0; i * st <= m + 1e-9; i++) { u = i * st; printf "%.4f,%.6f\n", u, u == 0 ? 1 : 2 / (1 - u) } }' >"$D/formula.csv"
series_csv uniform-greedy >"$D/uniform-greedy.csv"
gpvars fig3 <<EOV
title = "LFS figure 3: write cost against the utilization of the segments cleaned"
xlabel = "utilization u of the segments cleaned (live fraction)"
ylabel = "write cost (disk page transfers per page of new data)"
xrange = "0:1"
yrange = "0:14"
lines = "$D/formula.csv|u|write_cost|LFS: 2/(1-u), 1 at u = 0"
points = "$D/uniform-greedy.csv|u_mean|write_cost|simulation: uniform, greedy, X = $(echo $XS | sed 's/ /, /g') (mean u of the segments cleaned)|2"
hlines = "10|FFS today (write cost 10);4|FFS improved (write cost 4)"
EOV
# The simulated write cost against 2/(1-u) at the measured mean u.
tail -n +2 "$D/uniform-greedy.csv" | while IFS=, read -r x wa wc u rest; do
	[ -n "$wc" ] || continue
	f=$(awk -v u="$u" 'BEGIN { printf "%.4f", u == 0 ? 1 : 2 / (1 - u) }')
	row "lfs3.sim.x$(calc "$x + 0")" "write cost at X = $x, cleaned u = $(fmt "$u")" "$f" \
		"2/(1-u) at the simulated mean u (LFS formula)" "$(fmt "$wc" 4)"
done
{
	echo "The curve is the formula of LFS section 3.4: cleaning a segment of live fraction u reads"
	echo "the whole segment, writes back its live data and frees 1-u of it for new data, so new data"
	echo "costs 2/(1-u) page transfers per page (1 when the segment is empty and need not be read)."
	echo "FFS's lines at 10 and 4 are where the paper puts FFS today and improved: LFS must clean"
	echo "segments below u = $(calc "1 - 2 / 10") and $(calc "1 - 2 / 4") to beat them."
	echo "The points are the uniform greedy runs (figure 2's setup) at their mean cleaned u."
	echo
	setup_sweep
} >"$D/setup.md"
n=$(awk -F'|' 'NR > 1 && $6 != "" { d = $6 < 0 ? -$6 : $6; if (d > 1) bad++ } END { print bad + 0 }' "$D/table.txt.new")
check lfs3.identity yes "$n == 0" "simulated write cost within 1% of 2/(1-u) at the mean cleaned u: $n of $(($(wc -l <"$D/table.txt.new") - 1)) points outside"
finish
