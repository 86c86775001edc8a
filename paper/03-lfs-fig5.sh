#!/bin/sh
# paper/03-lfs-fig5.sh - figure 3 (LFS figure 5): segment-utilization
# distributions under greedy at X = 0.75, uniform and hot-and-cold.
#   sh paper/03-lfs-fig5.sh OUT 03-lfs-fig5   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
x=$XS
after=$(calc "$WARMUP * $PAGES")
hu=$R/$(run_of uniform-greedy "$x").hist.csv
hh=$R/$(run_of hc-greedy "$x").hist.csv
gpvars fig5 <<EOV
title = "LFS figure 5: segment utilization distribution, greedy, X = $x (segments on disk)"
group = $GROUP
hists = "$hu|sealed|$after|$(title_of uniform-greedy): sealed segments;$hh|sealed|$after|$(title_of hc-greedy): sealed segments"
EOV
gpvars fig5v <<EOV
title = "Greedy, X = $x: utilization of the segments cleaned (measured window)"
group = $GROUP
hists = "$hu|victims|0|$(title_of uniform-greedy): segments cleaned;$hh|victims|0|$(title_of hc-greedy): segments cleaned"
EOV
ju=$R/$(run_of uniform-greedy "$x").json
jh=$R/$(run_of hc-greedy "$x").json
uu=$(jget "$ju" victim_utilization_mean)
prow lfs5.uniform-greedy.cleaned-u "mean utilization of the segments cleaned, uniform greedy, X = $x" "$(fmt "$uu")"
row lfs5.hc-greedy.cleaned-u "mean utilization of the segments cleaned, hot-and-cold greedy, X = $x" "" "(not stated)" "$(fmt "$(jget "$jh" victim_utilization_mean)")"
m=$(bin/wamodel --csv -m lfs -u "$x" | tail -n 1 | awk -F, '{ print $(NF - 1) }')
row lfs5.uniform-greedy.model-u "cleaned u*, uniform greedy, X = $x: wamodel lfs (b large) vs simulation" "$(fmt "$m")" "wamodel lfs: rho = (1-u*)/ln(1/u*)" "$(fmt "$uu")"
check lfs5.cleaned-u no "$(relpct "$uu" "$(pub lfs5.uniform-greedy.cleaned-u)") <= 5" "uniform greedy at X = $x cleans segments at mean u = $(fmt "$uu") (published about $(pub lfs5.uniform-greedy.cleaned-u); model $(fmt "$m"))"
for s in uniform-greedy hc-greedy; do
	h=$R/$(run_of $s "$x").hist.csv
	b=$(bimodality "$h" sealed "$after" "$GROUP" 3)
	echo "- $(title_of $s), sealed segments after the warm-up: $b" >>"$D/extra.md.new"
done
{
	echo "Distributions of the segments on disk (sealed segments, summed over the snapshots taken every"
	echo "$SNAPSHOT U host writes after the warm-up) and of the segments cleaned in the measured window,"
	echo "in bins of $GROUP valid counts ($(calc "$GROUP / $B") in u), as densities over u. Greedy lets cold segments linger just above the cleaning point, so the"
	echo "hot-and-cold distribution piles up there (LFS section 3.5)."
	echo
	setup_sweep
} >"$D/setup.md"
{
	echo
	echo "Shape of the distributions (Sarle's bimodality coefficient bc, skewness, excess kurtosis, local maxima u:density of the histogram in bins of $GROUP valid counts, smoothed over 3 bins):"
	echo
} | cat - "$D/extra.md.new" >"$D/extra.md.tmp" && mv "$D/extra.md.tmp" "$D/extra.md.new"
finish
