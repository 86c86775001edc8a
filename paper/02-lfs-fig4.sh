#!/bin/sh
# paper/02-lfs-fig4.sh - figure 2 (LFS figure 4): write cost against
# disk utilization, greedy; the no-variance curve, wamodel's LFS model,
# FFS's lines; the worst-case table printed by wamodel.
#   sh paper/02-lfs-fig4.sh OUT 02-lfs-fig4   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
for s in uniform-greedy hc-greedy hc-greedy-k16; do series_csv $s >"$D/$s.csv"; done
pub_csv lfs4.uniform-greedy >"$D/pub-uniform.csv"
pub_csv lfs4.hc-greedy >"$D/pub-hc.csv"
bin/wamodel --csv -m lfs,worst-case -b "$B" --sweep x=0.05:0.95:0.005 >"$D/model.csv"
gpvars fig4 <<EOV
title = "LFS figure 4: write cost against disk utilization, greedy cleaner"
xlabel = "disk utilization X = U/T (live data / disk space)"
ylabel = "write cost (page transfers per new page)"
xrange = "0:1"
yrange = "0:14"
lines = "$D/model.csv|rho|worst_case_wa|no variance: 2/(1-X), every segment at X (wamodel worst case x 2)|2|7;$D/model.csv|rho|lfs_write_cost|LFS model, uniform, greedy, b large (wamodel lfs)|1|1"
points = "$D/uniform-greedy.csv|x|write_cost|$(title_of uniform-greedy), b = $B|1;$D/hc-greedy.csv|x|write_cost|$(title_of hc-greedy), b = $B|2;$D/hc-greedy-k16.csv|x|write_cost|$(title_of hc-greedy-k16), b = $B|4;$D/pub-uniform.csv|x|published|LFS's figure 4, uniform (read off the plot)|9|2.2;$D/pub-hc.csv|x|published|LFS's figure 4, hot-and-cold|10|2.2"
hlines = "$(pub lfs3.ffs-today)|FFS today (write cost $(pub lfs3.ffs-today));$(pub lfs3.ffs-improved)|FFS improved (write cost $(pub lfs3.ffs-improved))"
EOV
# Published against reproduced.
for s in uniform-greedy hc-greedy hc-greedy-k16; do
	ps=${s%-k16}
	tail -n +2 "$D/$s.csv" | while IFS=, read -r x wa wc rest; do
		id=lfs4.$ps.x$(calc "$x + 0")
		p=$(pub "$id")
		[ -n "$p" ] || continue
		row "lfs4.$s.x$(calc "$x + 0")" "write cost, $(title_of $s), X = $x" "$p" "$(pub_source "$id")" "$(fmt "$wc" 3)" "$(pub "$id" 3)"
	done
done
# The worst-case table, from the code.
{
	echo "**The seed article's worst case**, printed by \`bin/wamodel -m worst-case --csv -u X\`:"
	echo "with every segment at utilization X, one clean segment needs N = ceil(1/(1-X)) segments cleaned."
	echo
	echo "| X | N (wamodel) | N (published) | WA = 1/(1-X) |"
	echo "|---|---|---|---|"
} >>"$D/extra.md.new"
bad=0
for x in $WORST_XS; do
	line=$(bin/wamodel --csv -m worst-case -u "$x" | tail -n 1)
	n=$(echo "$line" | awk -F, '{ print $(NF - 1) }')
	wa=$(echo "$line" | awk -F, '{ printf "%.4f", $NF }')
	p=$(pub "worst.x$x")
	echo "| $x | $n | $p | $wa |" >>"$D/extra.md.new"
	row "worst.x$x" "segments cleaned per free segment N, X = $x" "$p" "$(pub_source "worst.x$x")" "$n"
	[ "$n" = "$p" ] || bad=$((bad + 1))
done
echo >>"$D/extra.md.new"
# Why hot-and-cold greedy costs less than LFS's at low X: the variants.
# The spread of the separated-log variants (the batch K, the threshold)
# at X = 0.4 and 0.5, % of the least.
spread=$(for s in hc-greedy hc-greedy-k16 hc-greedy-k64 hc-greedy-th; do
	for x in 0.40 0.50; do h=$(run_of "$s" "$x"); [ -z "$h" ] || echo "$x $(jget "$R/$h.json" write_cost)"; done
done | awk '{ if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
	END { for (x in lo) { d = 100 * (hi[x] / lo[x] - 1); if (d > m) m = d } printf "%.1f", m }')
# How far the separated variants sit from uniform at X = 0.4-0.5 (%,
# signed extremes), and how far LFS's hot-and-cold curve sits above it.
near=$(for x in 0.40 0.50; do
	u=$(jget "$R/$(run_of uniform-greedy "$x").json" write_cost)
	for s in hc-greedy hc-greedy-k16 hc-greedy-k64 hc-greedy-th; do
		h=$(run_of "$s" "$x"); [ -z "$h" ] || echo "$(jget "$R/$h.json" write_cost) $u"
	done
done | awk '{ d = 100 * ($1 / $2 - 1); if (NR == 1 || d < lo) lo = d; if (NR == 1 || d > hi) hi = d } END { printf "%+.1f%% to %+.1f%%", lo, hi }')
lfsabove=$(awk -v a="$(pub lfs4.hc-greedy.x0.4)" -v b="$(pub lfs4.uniform-greedy.x0.4)" -v c="$(pub lfs4.hc-greedy.x0.5)" -v d="$(pub lfs4.uniform-greedy.x0.5)" \
	'BEGIN { x = 100 * (a / b - 1); y = 100 * (c / d - 1); printf "%.0f%% and %.0f%%", x, y }')
{
	echo "**Hot-and-cold greedy at low utilization, measured.** LFS's figure 4 has hot-and-cold greedy"
	echo "above uniform at every X ($(pub lfs4.hc-greedy.x0.4) against $(pub lfs4.uniform-greedy.x0.4) at X = 0.4). LFS's simulator differs from ours in what"
	echo "the paper leaves open: how many segments a cleaning pass cleans (K), when cleaning starts, and"
	echo "where the copies go. The table gives the write cost (and the mean u of the segments cleaned) of"
	echo "each variant, same workload and seed; the published column is LFS's hot-and-cold greedy:"
	echo
	variant_table lfs4.hc-greedy $VARIANTS
	echo
	echo "With the copies written apart from new data and age-sorted, the batch (K) and the threshold"
	echo "change the write cost at X = 0.4-0.5 by at most $spread%, and it stays near uniform's ($near from it),"
	echo "well below LFS's curve ($lfsabove above its uniform at X = 0.4 and 0.5): the hot segments empty fast and are cleaned nearly empty, the cold"
	echo "ones are left alone. Copies mixed into the log of new data with no sort (the last column) is the variant"
	echo "that costs well above uniform, as LFS's curve does, and it overshoots that curve. So of what"
	echo "the paper leaves open, only where the copies go moves hot-and-cold greedy as far above uniform as"
	echo "LFS's figure 4 has it; LFS's simulator sits between copies kept apart and copies fully mixed,"
	echo "which its description (age-sorted output, section 3.5) does not settle; no setting of K or of"
	echo "the threshold in a separated log reproduces it."
	echo
} >>"$D/extra.md.new"
check worst-case yes "$bad == 0" "wamodel's N = ceil(1/(1-X)) for X = $(echo $WORST_XS | tr ' ' ','): $(for x in $WORST_XS; do bin/wamodel --csv -m worst-case -u "$x" | tail -n 1 | awk -F, '{ printf "%s ", $(NF - 1) }'; done)($bad differ from 2 3 4 4 5 7 10)"
# Uniform greedy against the published readings and the model.
tail -n +2 "$D/uniform-greedy.csv" | while IFS=, read -r x wa wc rest; do
	awk -v x="$x" -v f="$CHECK_FROM" 'BEGIN { exit !(x + 0 >= f - 1e-9) }' || continue
	p=$(pub "lfs4.uniform-greedy.x$(calc "$x + 0")")
	m=$(bin/wamodel --csv -m lfs -u "$x" | tail -n 1 | awk -F, '{ print $NF }')
	dm=$(relpct "$wc" "$m")
	if [ -n "$p" ]; then
		dp=$(relpct "$wc" "$p")
		check "lfs4.uniform.x$x" no "$dp <= $TOL_PCT && $dm <= $TOL_PCT" \
			"uniform greedy X = $x: simulated write cost $(fmt "$wc") vs published $p ($dp%) and model $(fmt "$m") ($dm%), tolerance $TOL_PCT%"
	else
		check "lfs4.uniform.x$x" no "$dm <= $TOL_PCT" \
			"uniform greedy X = $x: simulated write cost $(fmt "$wc") vs model $(fmt "$m") ($dm%; no published reading), tolerance $TOL_PCT%"
	fi
done
{
	echo "Uniform: every file equally likely. Hot-and-cold: $(calc "$(echo "$HC" | sed -n 's/.*--hot-frac \([0-9.]*\).*/\1/p') * 100")% of the files get $(calc "$(echo "$HC" | sed -n 's/.*--hot-prob \([0-9.]*\).*/\1/p') * 100")% of the writes;"
	echo "the cleaner writes the live blocks it copies sorted by age into segments of their own"
	echo "(\`--placement agesort:K\`, K segments freed per pass; K = 1 is the reproduction, K = 16 is shown for comparison: the paper does not give its batch)."
	echo "Write cost = (new pages + pages copied + pages of non-empty segments read) / new pages (ftlsim \`write_cost\`)."
	echo "The no-variance curve is the write cost if every segment were at utilization X:"
	echo "2/(1-X) = 2 x wamodel's worst-case WA 1/(1-X) (N = ceil(1/(1-X)) segments cleaned per segment freed)."
	echo
	setup_sweep
} >"$D/setup.md"
finish
