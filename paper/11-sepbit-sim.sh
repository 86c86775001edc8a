#!/bin/sh
# paper/11-sepbit-sim.sh - figure 11: ftlkit's WA of every placement
# scheme against SepBIT's simulator's on the same workloads.
#   sh paper/11-sepbit-sim.sh OUT 11-sepbit-sim   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
# One row per run: workload, policy, scheme, SepBIT's WA, ftlkit's WA.
echo "workload,policy,scheme,sepbit_sim,ftlkit,diff_pct" >"$D/pairs.csv"
awk -F, 'NR > 1 { print $1, $3 }' "$D/index.csv" | while read -r sid h; do
	wl=${sid%%_*} rest=${sid#*_}
	pol=${rest%%_*} s=${rest#*_}
	p=$(pub "sepbitsim.$wl.$pol.$s")
	f=$(jget "$R/$h.json" wa_total)
	fp=greedy
	[ "$pol" = greedy ] || fp=cb-sqrt
	prow "sepbitsim.$wl.$pol.$s" "WA, $wl, $fp, $s" "$(fmt "$f" 4)"
	echo "$wl,$pol,$s,$p,$f,$(awk -v a="$p" -v b="$f" 'BEGIN { printf "%.3f", 100 * (b - a) / a }')" >>"$D/pairs.csv"
done
# The figure: a panel per workload, the schemes along x; for each, the
# simulator's WA (large open marker) and ftlkit's (small filled marker,
# inside it when the two agree), Greedy left of CostBenefit.
panels=
for wl in $(awk -F, 'NR > 1 { print $1 }' "$D/pairs.csv" | awk '!s[$0]++'); do
	awk -F, -v w="$wl" 'BEGIN { print "scheme,sepbit_greedy,ftlkit_greedy,sepbit_cb,ftlkit_cb" }
		NR > 1 && $1 == w { if (!($3 in seen)) { seen[$3] = 1; o[++n] = $3 } v[$3 "|" $2] = $4 "," $5 }
		END { for (i = 1; i <= n; i++) { g = o[i] "|greedy"; c = o[i] "|cb"
			# (fk as run here: SepBIT'"'"'s classes, not ftlsim'"'"'s default fk)
			printf "%s,%s,%s\n", o[i] == "fk" ? "fk:6 R=1" : o[i], (g in v) ? v[g] : ",", (c in v) ? v[c] : "," } }' "$D/pairs.csv" >"$D/wa-$wl.csv"
	case $wl in
	uniform) t="uniform random writes" ;;
	zipf08) t="Zipf 0.8" ;;
	zipf10) t="Zipf 1.0" ;;
	hc9010) t="90/10 hot/cold" ;;
	*) t=$wl ;;
	esac
	panels="$panels${panels:+;}$D/wa-$wl.csv|$t"
done
ser=
if awk -F, 'NR > 1 && $2 == "greedy" { f = 1 } END { exit !f }' "$D/pairs.csv"; then
	ser="sepbit_greedy|SepBIT's simulator (trace_replay), Greedy|9|2.6|-0.17;ftlkit_greedy|ftlkit (ftlsim), greedy|1|1.1|-0.17"
fi
if awk -F, 'NR > 1 && $2 == "cb" { f = 1 } END { exit !f }' "$D/pairs.csv"; then
	ser="$ser${ser:+;}sepbit_cb|SepBIT's simulator (trace_replay), CostBenefit|10|2.6|0.17;ftlkit_cb|ftlkit (ftlsim), cb-sqrt|2|1.1|0.17"
fi
# One policy alone: its markers on the ticks, not shifted for a partner.
case $ser in *sepbit_cb*) ;; *) ser=$(echo "$ser" | sed 's/|-0\.17;/|0;/; s/|-0\.17$/|0/') ;; esac
npan=$(echo "$panels" | tr ';' '\n' | grep -c .)
gpvars sepbit-sim <<EOV
title = "ftlkit against SepBIT's simulator: WA of each placement scheme (open markers: SepBIT's simulator; filled: ftlkit)"
$([ "$npan" -gt 1 ] || printf 'cols = 1\nsize_w = 1000\nsize_h = 620\n')
panels = "$panels"
series = "$ser"
EOV
n=$(($(wc -l <"$D/pairs.csv") - 1))
n2=$(awk -F, 'NR > 1 && $6 <= 2 && $6 >= -2 { k++ } END { print k + 0 }' "$D/pairs.csv")
n1=$(awk -F, 'NR > 1 && $6 <= 1 && $6 >= -1 { k++ } END { print k + 0 }' "$D/pairs.csv")
worst=$(awk -F, 'NR > 1 { d = $6 < 0 ? -$6 : $6; if (d >= w) { w = d; s = $1 " " $2 " " $3 " " $6 "%" } } END { print s }' "$D/pairs.csv")
nmiss=$(awk -F, 'NR > 1 && ($4 == "" || $5 == "") { k++ } END { print k + 0 }' "$D/pairs.csv")
check sepbit.pairs yes "$nmiss == 0 && $n > 0" "$n pairs, each with both WAs ($nmiss missing)"
check sepbit.within3 yes "$(echo "$worst" | awk '{ d = $4 + 0; print (d < 0 ? -d : d) }') <= 3" "every scheme within 3% of SepBIT's simulator: $n1 of $n within 1%, $n2 within 2%; the worst: $worst"
check sepbit.within2 yes "$n2 >= 0.95 * $n" "at least 95% of the pairs within 2%: $n2 of $n"
{
	echo "**Both WAs, side by side** (diff = ftlkit / SepBIT's - 1):"
	echo
	echo "| workload | scheme | SepBIT sim, Greedy | ftlkit, greedy | diff | SepBIT sim, CostBenefit | ftlkit, cb-sqrt | diff |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { k = $1 "|" $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k "|" $2] = sprintf("%.4f | %.4f | %+.2f%%", $4, $5, $6) }
		END { for (i = 1; i <= n; i++) { split(o[i], a, "|"); printf "| %s | %s | %s | %s |\n", a[1], a[2], (o[i] "|greedy") in v ? v[o[i] "|greedy"] : "- | - | -", (o[i] "|cb") in v ? v[o[i] "|cb"] : "- | - | -" } }' "$D/pairs.csv"
	echo
	echo "Where the two differ, and why (ties, FADaC's thresholds, SFS's quantization, MultiQueue's demotion, MultiLog's unseeded moves, ftlsim's default GC rule): docs/VALIDATION.md."
	echo
} >>"$D/extra.md.new"
{
	echo "The placement schemes that ftlkit and SepBIT's simulator (Wang et al., FAST'22; github.com/fallfish/sepbit,"
	echo "\`trace_replay\`) both implement, on tracegen's uniform, Zipf 0.8, Zipf 1.0 and 90/10 hot/cold writes"
	echo "(U = $PAGES pages, filled once in order, then $WRITES U single-page writes, seed $SEED), GC as that simulator runs"
	h1=$(awk -F, 'NR == 2 { print $3 }' "$D/index.csv")
	echo "it: garbage proportion $(calc "$GP * 100")% (\`--gc-trigger gp:$GP\`), segments of $(calc "$B * $(jget "$R/$h1.json" page_size) / 1048576") MiB (b = $B), one victim a cleaning, at"
	echo "most one cleaning after each request (\`--gc-ops 1\`), six classes, OP $(fmt "$(calc "$(jget "$R/$h1.json" op) * 100")" 0)% (the garbage proportion, not the spare space, bounds GC). Its Greedy is ftlkit's \`greedy\`,"
	echo "its CostBenefit ((1-u)/u sqrt(age)) ftlkit's \`cb-sqrt\`; WA is over every write, the fill included (\`wa_total\`)."
	echo "SepBIT's simulator is not part of ftlkit: its WAs are in paper/published.csv, measured with"
	echo "tests/sepbit_compare.sh (which says how to build it); this figure reruns ftlkit's side."
	[ "$QUICK" != 1 ] || echo "QUICK runs six of the schemes on the 90/10 workload under Greedy only."
	echo
	h=$(awk -F, 'NR == 2 { print $3 }' "$D/index.csv")
	echo "One point, as a command line:"
	echo
	echo "    bin/tracegen $(sed -n "s/^gen='\(.*\)'$/\1/p" "$R/$h.args" | tr -s ' ') -o bin | bin/ftlsim $(sed -n "s/^sim='\(.*\)'$/\1/p" "$R/$h.args" | tr -s ' ') -"
	echo
} >"$D/setup.md"
finish
