#!/bin/sh
# paper/09-hotcold.sh - figure 9: hot/cold separation against wamodel's
# one-log and separated-pools models.
#   sh paper/09-hotcold.sh OUT 09-hotcold   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
bin/wamodel --csv -m greedy-mf,hotcold -b "$B" --hot-prob "$HOT_PROB" --hot-frac "$HOT_FRAC" \
	--sweep "sf=$SF_FROM:$SF_TO:$SF_STEP" >"$D/model.csv"
for s in single sepgc hotcold2 hotcold4 oracle2 oracle2opt; do series_csv $s >"$D/$s.csv"; done
gpvars hotcold <<EOV
title = "Hot/cold ($(calc "$HOT_PROB * 100")% of writes to $(calc "$HOT_FRAC * 100")% of pages), greedy, b = $B: placements against the models"
xlabel = "spare factor Sf = (T-U)/T"
ylabel = "WA (flash page writes / host page writes)"
xrange = "0.03:0.53"
yrange = "0.9:20"
logy = 1
lines = "$D/model.csv|sf|wa_hc_mixed_greedy_mf|model: one log, greedy mean field (wamodel)|1|1;$D/model.csv|sf|wa_greedy_mf|model: uniform traffic, greedy mean field|1|8;$D/model.csv|sf|wa_hc_sep_greedy_mf|model: separated pools, best spare split (wamodel)|1|5"
points = "$D/single.csv|x|wa|$(title_of single)|1;$D/sepgc.csv|x|wa|$(title_of sepgc)|2;$D/hotcold2.csv|x|wa|$(title_of hotcold2)|3;$D/hotcold4.csv|x|wa|$(title_of hotcold4)|4;$D/oracle2.csv|x|wa|$(title_of oracle2)|6;$D/oracle2opt.csv|x|wa|$(title_of oracle2opt)|5"
EOV
mcol() { awk -F, -v x="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } ($1 - x < 1e-9 && x - $1 < 1e-9) { print $k }' "$D/model.csv"; }
for s in single oracle2 oracle2opt; do
	tail -n +2 "$D/$s.csv" | while IFS=, read -r x wa rest; do
		m=$(bin/wamodel --csv -m hotcold -b "$B" --hot-prob "$HOT_PROB" --hot-frac "$HOT_FRAC" -s "$x" | tail -n 1 | awk -F, -v s="$s" '{ print s == "single" ? $6 : $9 }')
		case $s in
		single) src="wamodel one log, greedy mean field (no published value)" ;;
		*) src="wamodel separated pools, best split (no published value)" ;;
		esac
		row "hc.$s.sf$x" "WA, $(title_of $s), Sf = $x" "$(fmt "$m" 3)" "$src" "$(fmt "$wa" 3)"
		if [ $s = oracle2opt ]; then
			d=$(relpct "$wa" "$m")
			check "hc.oracle2opt.sf$x" no "$d <= 5" "labels with a spare share each, Sf = $x: simulated WA $(fmt "$wa") vs wamodel separated pools $(fmt "$m") ($d%, tolerance 5%)"
		fi
		[ $s = single ] || continue
		d=$(relpct "$wa" "$m")
		check "hc.single.sf$x" no "$d <= 3" "single log, Sf = $x: simulated WA $(fmt "$wa") vs wamodel one-log model $(fmt "$m") ($d%, tolerance 3%)"
	done
done
{
	echo "| Sf | $(for s in single sepgc hotcold2 hotcold4 oracle2 oracle2opt; do printf '%s | ' "$s"; done)model one log | model pools, best split |"
	echo "|---|---|---|---|---|---|---|---|---|"
	tail -n +2 "$D/single.csv" | cut -d, -f1 | while read -r x; do
		printf '| %s |' "$x"
		for s in single sepgc hotcold2 hotcold4 oracle2 oracle2opt; do printf ' %s |' "$(fmt "$(awk -F, -v x="$x" '$1 == x { print $2 }' "$D/$s.csv")")"; done
		m=$(bin/wamodel --csv -m hotcold -b "$B" --hot-prob "$HOT_PROB" --hot-frac "$HOT_FRAC" -s "$x" | tail -n 1)
		echo " $(fmt "$(echo "$m" | cut -d, -f6)") | $(fmt "$(echo "$m" | cut -d, -f9)") |"
	done
	echo
	# Series whose points lie on one another (within 1% at every Sf).
	for a in single sepgc hotcold2 hotcold4 oracle2 oracle2opt; do
		for b in single sepgc hotcold2 hotcold4 oracle2 oracle2opt; do
			[ "$a" \< "$b" ] || continue
			awk -F, 'NR == FNR { if (FNR > 1) v[$1] = $2; next } FNR > 1 && ($1 in v) { n++; d = ($2 - v[$1]) / v[$1]; d = d < 0 ? -d : d; if (d > m) m = d }
				END { exit !(n > 0 && m < 0.01) }' "$D/$a.csv" "$D/$b.csv" && echo "$(title_of "$a") and $(title_of "$b")"
		done
	done >"$D/.same"
	if [ -s "$D/.same" ]; then
		echo "Series whose points lie on one another (within 1% at every Sf; the table tells them apart): $(paste -sd';' "$D/.same" | sed 's/;/; /g')."
		echo
	fi
	rm -f "$D/.same"
} >>"$D/extra.md.new"
{
	echo "Hot/cold traffic over a drive filled once (tracegen \`--pattern hotcold --fill\`, r = $HOT_PROB of writes to f = $HOT_FRAC of pages), greedy victims."
	echo "Placements: one log; host and GC writes apart; two or four streams chosen by a decaying per-page write counter;"
	echo "two streams chosen by the generator's labels (an oracle). These streams share one free pool and one greedy victim choice,"
	echo "unlike the pools of the model, whose spare space is split between hot and cold at the optimum; the last series gives"
	echo "each labelled stream its own share of the spare space (\`--spare-share opt\`: split at the pools' optimum from the"
	echo "measured shares of the pages dying in each stream, the host writes it took in steady state, GC cleaning the stream furthest over its share), the model's pools in the simulator."
	echo
	setup_sweep
} >"$D/setup.md"
finish
