#!/bin/sh
# paper/04-lfs-fig6.sh - figure 4 (LFS figure 6): the bimodal segment
# distribution of cost-benefit, hot-and-cold at X = 0.75; bimodality
# measured (Sarle's coefficient and the smoothed histogram's peaks).
#   sh paper/04-lfs-fig6.sh OUT 04-lfs-fig6   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
x=$XS
after=$(calc "$WARMUP * $PAGES")
hc=$R/$(run_of hc-cb "$x").hist.csv
hg=$R/$(run_of hc-greedy "$x").hist.csv
gpvars fig6 <<EOV
title = "LFS figure 6: segment utilization distribution, hot-and-cold, X = $x (segments on disk)"
group = $GROUP
hists = "$hc|sealed|$after|$(title_of hc-cb): sealed segments;$hg|sealed|$after|$(title_of hc-greedy): sealed segments"
EOV
gpvars fig6v <<EOV
title = "Hot-and-cold, X = $x: utilization of the segments cleaned (measured window)"
group = $GROUP
hists = "$hc|victims|0|$(title_of hc-cb): segments cleaned;$hg|victims|0|$(title_of hc-greedy): segments cleaned"
EOV
b=$(bimodality "$hc" sealed "$after" "$GROUP" "$SMOOTH" "$PEAK_LOW_MAX" "$PEAK_HIGH_MIN")
bv=$(bimodality "$hc" victims 0 "$GROUP" "$SMOOTH" "$PEAK_LOW_MAX" "$PEAK_HIGH_MIN")
bg=$(bimodality "$hg" sealed "$after" "$GROUP" "$SMOOTH" "$PEAK_LOW_MAX" "$PEAK_HIGH_MIN")
get() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
bc=$(get "$b" bc)
peaks=$(get "$b" peaks)
low=$(echo "$peaks" | tr ',' '\n' | awk -F: -v m="$PEAK_LOW_MAX" '$1 < m { if ($2 > best) { best = $2; u = $1 } } END { print u }')
high=$(echo "$peaks" | tr ',' '\n' | awk -F: -v m="$PEAK_HIGH_MIN" '$1 > m { if ($2 > best) { best = $2; u = $1 } } END { print u }')
dip=$(get "$b" dip)
dipg=$(get "$bg" dip)
check lfs6.bimodal yes "\"$bc\" != \"\" && $bc > $BC_MIN && \"$low\" != \"\" && \"$high\" != \"\" && \"$dip\" != \"\" && $dip < $DIP_MAX" \
	"cost-benefit, hot-and-cold, X = $x, sealed segments: Sarle's bimodality coefficient $bc (> $(fmt "$BC_MIN" 4) is bimodal); peaks of the histogram in bins of $GROUP valid counts smoothed over $SMOOTH bins at u = $peaks (u:density); below $PEAK_LOW_MAX: ${low:-none}, above $PEAK_HIGH_MIN: ${high:-none}; the trough between them ${dip:-none} of the lower peak (< $DIP_MAX; greedy's ${dipg:-none})"
prow lfs6.cb.peak-low "lower peak of the distribution, cost-benefit (bin centre)" "$low"
prow lfs6.cb.peak-high "upper peak of the distribution, cost-benefit (bin centre)" "$high"
# Hot and cold cleaned segments: the victims below and above u = 0.5.
jc=$R/$(run_of hc-cb "$x").json
eval "$(awk -F, 'NR > 1 && $1 == "victims" { if ($5 < 0.5) { hn += $6; hs += $5 * $6 } else { cn += $6; cs += $5 * $6 } }
	END { printf "hot=%s cold=%s hotn=%d coldn=%d\n", hn ? hs / hn : "", cn ? cs / cn : "", hn, cn }' "$hc")"
prow lfs6.cb.hot-cleaned-u "mean u of the cleaned segments below u = 0.5 (hot; $hotn segments)" "$(fmt "$hot")"
prow lfs6.cb.cold-cleaned-u "mean u of the cleaned segments at u >= 0.5 (cold; $coldn segments)" "$(fmt "$cold")"
{
	echo "Bimodality, measured: Sarle's coefficient BC = (g^2 + 1) / (k + 3(n-1)^2 / ((n-2)(n-3)))"
	echo "(g skewness, k excess kurtosis of u over the n segments counted; a uniform distribution has 5/9,"
	echo "BC > 5/9 suggests two modes), and the local maxima of the histogram in bins of $GROUP whole valid"
	echo "counts ($(calc "$GROUP / $B") in u), as densities over u, smoothed by a centred moving average of $SMOOTH bins (a bin at least as high as every bin within $SMOOTH bins"
	echo "on either side, above a quarter of the uniform height). The trough is the least smoothed density"
	echo "between the highest bin below u = $PEAK_LOW_MAX and the highest above u = $PEAK_HIGH_MIN, as a share of the lower"
	echo "of the two (1: no dip between them; bimodal here means below $DIP_MAX)."
	echo
	echo "| distribution | BC | skewness | excess kurtosis | peaks (u:density) | trough |"
	echo "|---|---|---|---|---|---|"
	b16=$(bimodality "$R/$(run_of hc-cb-k16 "$x").hist.csv" sealed "$after" "$GROUP" "$SMOOTH" "$PEAK_LOW_MAX" "$PEAK_HIGH_MIN")
	b64=$(bimodality "$R/$(run_of hc-cb-k64 "$x").hist.csv" sealed "$after" "$GROUP" "$SMOOTH" "$PEAK_LOW_MAX" "$PEAK_HIGH_MIN")
	v16=$(bimodality "$R/$(run_of hc-cb-k16 "$x").hist.csv" victims 0 "$GROUP" "$SMOOTH" "$PEAK_LOW_MAX" "$PEAK_HIGH_MIN")
	for v in "cost-benefit, sealed segments|$b" "cost-benefit, segments cleaned|$bv" "greedy, sealed segments|$bg" \
		"cost-benefit, K = 16, sealed segments|$b16" "cost-benefit, K = 16, segments cleaned|$v16" "cost-benefit, K = 64, sealed segments|$b64"; do
		name=${v%%|*} m=${v#*|}
		echo "| $name | $(get "$m" bc) | $(get "$m" skew) | $(get "$m" kurt) | $(get "$m" peaks | sed 's/,/, /g') | $(get "$m" dip | sed "s/^$/-/") |"
	done
	echo
	lowpk() { get "$1" peaks | tr ',' '\n' | awk -F: 'NR == 1 { print $1 }'; }
	echo "The lower peak of the segments on disk sits just above the utilization at which hot segments"
	echo "are cleaned (the lower peak of the segments cleaned): the segments stay on disk until they"
	echo "empty to that point (K = 1: $(lowpk "$b") on disk, $(lowpk "$bv") cleaned; K = 16: $(lowpk "$b16") and $(lowpk "$v16")). The lower"
	echo "peak follows the hot segments' cleaning point, which the age definition of cost-benefit sets"
	echo "(an older score for a segment cleans it fuller), more than the batch K. LFS's $(pub lfs6.cb.peak-low) is read off its figure 6, whose"
	echo "bin width is not stated; the peak here is the centre of a bin $(calc "$GROUP / $B") wide."
	echo
} >>"$D/extra.md.new"
{
	echo "Cost-benefit (\`--policy cb\`) cleans the segment with the largest (1-u)·age/(1+u), age the time since"
	echo "the segment was sealed; copies are age-sorted as in figure 2. Cold segments are cleaned at a high"
	echo "utilization, hot ones at a low one, and the segments on disk split into two groups."
	echo
	setup_sweep
} >"$D/setup.md"
finish
