#!/bin/sh
# paper/06-meanfield.sh - figure 6: WA against spare factor, FIFO,
# greedy b = 32/64/256, random, d-choices; simulation on wamodel lines.
#   sh paper/06-meanfield.sh OUT 06-meanfield   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
sw="sf=$SF_FROM:$SF_TO:$SF_STEP"
bin/wamodel --csv -m fifo,greedy-mf,random,dchoices --choices 2,10 -b 64 --sweep "$sw" >"$D/model-b64.csv"
bin/wamodel --csv -m greedy-mf -b 32 --sweep "$sw" >"$D/model-b32.csv"
bin/wamodel --csv -m greedy-mf -b 256 --sweep "$sw" >"$D/model-b256.csv"
for s in fifo greedy-b32 greedy-b64 greedy-b256 random dchoices-2 dchoices-10; do series_csv $s >"$D/$s.csv"; done
gpvars meanfield <<EOV
title = "WA against spare factor, uniform random page writes: simulation (points) and models (lines)"
xlabel = "spare factor Sf = (T-U)/T"
ylabel = "WA (flash page writes / host page writes)"
xrange = "0.03:0.53"
yrange = "1:22"
logy = 1
size_h = 700
lines = "$D/model-b64.csv|sf|wa_fifo|FIFO, Desnoyers eq. 4|1|1;$D/model-b32.csv|sf|wa_greedy_mf|greedy mean field, b = 32|1|2;$D/model-b64.csv|sf|wa_greedy_mf|greedy mean field, b = 64|1|3;$D/model-b256.csv|sf|wa_greedy_mf|greedy mean field, b = 256|1|4;$D/model-b64.csv|sf|wa_random|random, 1/Sf|1|5;$D/model-b64.csv|sf|wa_dchoices_2|d-choices mean field, d = 2|1|6;$D/model-b64.csv|sf|wa_dchoices_10|d-choices mean field, d = 10|1|8"
points = "$D/fifo.csv|x|wa|sim. $(title_of fifo)|1;$D/greedy-b32.csv|x|wa|sim. $(title_of greedy-b32)|2;$D/greedy-b64.csv|x|wa|sim. $(title_of greedy-b64)|3;$D/greedy-b256.csv|x|wa|sim. $(title_of greedy-b256)|4;$D/random.csv|x|wa|sim. $(title_of random)|5;$D/dchoices-2.csv|x|wa|sim. $(title_of dchoices-2)|6;$D/dchoices-10.csv|x|wa|sim. $(title_of dchoices-10)|8"
EOV
# model COLUMN FILE SF: the model's value at one spare factor.
model() { bin/wamodel --csv -m "$1" -b "$2" --choices 2,10 -s "$3" | awk -F, -v c="$4" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }'; }
bad=0 n=0
for s in fifo greedy-b64 random greedy-b32 greedy-b256 dchoices-2 dchoices-10; do
	tail -n +2 "$D/$s.csv" | while IFS=, read -r x wa rest; do
		id=mf.$s.sf$x
		case $s in
		fifo | greedy-b64 | random) prow "$id" "WA, $(title_of $s), Sf = $x" "$(fmt "$wa" 3)"
			p=$(pub "$id") d=$(relpct "$wa" "$p")
			check "mf.$s.sf$x" yes "$d <= $TOL_PCT" "$(title_of $s), Sf = $x: simulated WA $(fmt "$wa") vs published $p ($d%, tolerance $TOL_PCT%)" ;;
		*)
			case $s in
			greedy-b32) m=$(model greedy-mf 32 "$x" wa_greedy_mf) ;;
			greedy-b256) m=$(model greedy-mf 256 "$x" wa_greedy_mf) ;;
			dchoices-2) m=$(model dchoices 64 "$x" wa_dchoices_2) ;;
			dchoices-10) m=$(model dchoices 64 "$x" wa_dchoices_10) ;;
			esac
			row "$id" "WA, $(title_of $s), Sf = $x" "$(fmt "$m" 3)" "wamodel mean field (no published value)" "$(fmt "$wa" 3)"
			d=$(relpct "$wa" "$m")
			check "mf.$s.sf$x" yes "$d <= $TOL_PCT" "$(title_of $s), Sf = $x: simulated WA $(fmt "$wa") vs wamodel $(fmt "$m") ($d%, tolerance $TOL_PCT%)" ;;
		esac
	done
done
{
	echo "Uniform random single-page overwrites of a drive filled once in order (tracegen \`--pattern uniform --fill\`);"
	echo "WA = (host page writes + GC copies) / host page writes over the measured window (ftlsim \`wa_measured\`)."
	echo "Lines: \`bin/wamodel\` (FIFO: Desnoyers eq. 4; greedy: mean field; random: 1/Sf; d-choices: mean field)."
	# Lines that lie on one another: each pair of model lines that
	# stays within 3% of each other from some spare factor on.
	paste -d, "$D/model-b64.csv" "$D/model-b32.csv" "$D/model-b256.csv" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
		{ n = 0
		  for (i = 1; i <= NF; i++) {
			nm = ""
			if (h[i] == "wa_fifo") nm = "FIFO"
			else if (h[i] == "wa_dchoices_10") nm = "d-choices d = 10"
			else if (h[i] == "wa_greedy_mf") nm = "greedy b = " (i <= nb64 ? 64 : i <= nb64 + nb32 ? 32 : 256)
			if (nm != "") { n++; name[n] = nm; v[n] = $i }
		  }
		  for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) {
			d = (v[a] - v[b]) / v[b]; d = d < 0 ? -d : d
			k = a "," b
			if (d >= 0.03) from[k] = ""; else if (from[k] == "") from[k] = $1
		  }
		  N = n; last = $1 }
		END { for (a = 1; a <= N; a++) for (b = a + 1; b <= N; b++) { k = a "," b
			if (from[k] != "" && from[k] < last) printf "%s and %s from Sf = %.2f on\n", name[a], name[b], from[k] } }' \
		nb64="$(head -n 1 "$D/model-b64.csv" | tr ',' '\n' | wc -l)" nb32="$(head -n 1 "$D/model-b32.csv" | tr ',' '\n' | wc -l)" >"$D/.overlap"
	if [ -s "$D/.overlap" ]; then
		echo "Lines that lie on one another (within 3% of each other): $(paste -sd';' "$D/.overlap" | sed 's/;/; /g')."
		echo "There their points overlap too; the table gives each value."
	fi
	rm -f "$D/.overlap"
	echo
	setup_sweep
} >"$D/setup.md"
finish
