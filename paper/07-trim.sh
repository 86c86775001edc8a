#!/bin/sh
# paper/07-trim.sh - figure 7: the TRIM argument. WA over time, and WA
# against the discard share q, with and without TRIM: synthetic mix and
# the rootfs-discard blktrace sample.
#   sh paper/07-trim.sh OUT 07-trim   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
for s in trim notrim; do series_csv $s >"$D/$s.csv"; done
rho=$(calc "1 - $SF")
# Models: without TRIM every page ever written stays live (utilization
# rho whatever q); with TRIM the live pages settle at U(1-2q)/(1-q)
# (a write revives a dead page with probability 1 - L/U, a discard kills
# one live page), so greedy runs at the effective utilization
# rho (1-2q)/(1-q).
m0=$(bin/wamodel --csv -m greedy-mf -b "$B" -s "$SF" | tail -n 1 | cut -d, -f5)
{
	echo "q,wa_notrim_model,rho_eff,wa_trim_model"
	for i in $(seq 0 45); do
		q=$(calc "$i / 100")
		re=$(calc "$rho * (1 - 2 * $q) / (1 - $q)")
		w=$(bin/wamodel --csv -m greedy-mf -b "$B" -u "$re" | tail -n 1 | cut -d, -f5)
		echo "$q,$m0,$re,$w"
	done
} >"$D/model.csv"
# The real trace: its discard share of page operations, from the TRIM run.
rt=$(awk -F, '$1 == "rootfs-trim" { print $6 }' "$D/tindex.csv")
rn=$(awk -F, '$1 == "rootfs-notrim" { print $6 }' "$D/tindex.csv")
tid=$(awk -F, '$1 == "rootfs-trim" { print $2 }' "$D/tindex.csv")
info=$O/traces/$tid.info
U=$(jget "$R/$rt.json" logical_pages)
hw=$(jget "$R/$rt.json" host_pages_written)
dp=$(( $(jget "$R/$rt.json" discard_pages_trimmed) + $(jget "$R/$rt.json" discard_pages_unmapped) ))
qr=$(calc "$dp / ($hw + $dp)")
wt=$(jget "$R/$rt.json" wa_total)
wn=$(jget "$R/$rn.json" wa_total)
# Where the two real runs part: the first curve row whose interval WA
# differs (before it, TRIM has had nothing to act on yet).
apart=$(awk -F, 'NR == FNR { if (FNR > 1) w[$1] = $2; next }
	FNR > 1 && ($1 in w) && (w[$1] - $2) ^ 2 > 1e-12 { print $1; exit }' "$R/$rn.curve.csv" "$R/$rt.curve.csv")
rop=$(fmt "$(calc "$(jget "$R/$rt.json" op) * 100")" 1)
rb=$(sed -n 's/^b=//p' "$info")
ct=$R/$(run_of trim "$CURVE_Q").curve.csv
cn=$R/$(run_of notrim "$CURVE_Q").curve.csv
gpvars trim-curve <<EOV
title = "WA over time, uniform writes with discards (q = $CURVE_Q), greedy, Sf = $SF, b = $B"
xdiv = $PAGES
xlabel = "host page writes (multiples of U = $PAGES pages; the fill first)"
cumulative = 1
curves = "$ct|TRIM;$cn|no TRIM"
EOV
gpvars trim-real-curve <<EOV
title = "WA over time, rootfs-discard blktrace sample (ext4, online discard), greedy, OP $rop%, b = $rb"
xdiv = $U
xlabel = "host page writes (multiples of the footprint U = $U pages; the drive filled first at random)"
cumulative = 1
curves = "$R/$rt.curve.csv|TRIM;$R/$rn.curve.csv|no TRIM"
EOV
gpvars trim-q <<EOV
title = "WA against the discard share q, greedy, Sf = $SF, b = $B"
xlabel = "discard share q (discarded pages / (written + discarded pages))"
ylabel = "WA (flash page writes / host page writes)"
xrange = "-0.01:0.46"
yrange = "0:$(tail -q -n +2 "$D/notrim.csv" "$D/trim.csv" | awk -F, '$2 > m { m = $2 } END { printf "%d", int(m * 1.2) + 1 }')"
lines = "$D/model.csv|q|wa_notrim_model|model, no TRIM: greedy mean field at Sf = $SF (all pages live)|1|2;$D/model.csv|q|wa_trim_model|model, TRIM: greedy mean field at utilization (1-Sf)(1-2q)/(1-q)|1|1"
points = "$D/notrim.csv|x|wa|$(title_of notrim)|2;$D/trim.csv|x|wa|$(title_of trim)|1"
EOV
for s in trim notrim; do
	tail -n +2 "$D/$s.csv" | while IFS=, read -r x wa rest; do
		if [ $s = notrim ]; then m=$m0 src="wamodel greedy mean field at Sf = $SF: without TRIM the drive stays full (the worst-case argument)"
		else m=$(awk -F, -v q="$x" 'NR > 1 && ($1 - q) ^ 2 < 1e-12 { print $4 }' "$D/model.csv") src="wamodel greedy mean field at the effective utilization (1-Sf)(1-2q)/(1-q)"; fi
		row "trim.$s.q$x" "WA, $(title_of $s), q = $x" "$(fmt "$m" 3)" "$src" "$(fmt "$wa" 3)"
		if [ $s = notrim ]; then
			d=$(relpct "$wa" "$m")
			check "trim.notrim.q$x" yes "$d <= 3" "no TRIM, q = $x: WA $(fmt "$wa") vs the full-drive model $(fmt "$m") ($d%, tolerance 3%)"
		else
			wn2=$(awk -F, -v x="$x" '$1 == x { print $2 }' "$D/notrim.csv")
			[ "$x" = 0 ] || check "trim.lower.q$x" yes "$wa < $wn2" "q = $x: WA with TRIM $(fmt "$wa") < without $(fmt "$wn2")"
		fi
	done
done
check trim.real yes "$wt < $wn" "rootfs-discard (discard share q = $(fmt "$qr")): WA with TRIM $(fmt "$wt") < without $(fmt "$wn")"
{
	echo "Synthetic: each request, with probability q, discards a page drawn from the written ones, else"
	echo "writes a uniformly chosen page (tracegen \`--trim-prob q\`); ftlsim \`--trim\` hands the discards to"
	echo "the FTL, \`--no-trim\` drops them as a drive that never hears them would."
	echo "Without TRIM every page once written stays live, so the drive cleans as if full whatever q:"
	echo "WA stays at the full-drive value. With TRIM the live pages settle at U(1-2q)/(1-q), and"
	echo "the model line is greedy's mean field at that effective utilization."
	echo
	echo "Real: the rootfs-discard sample ($(sed -n 's/^events=//p' "$info") events, $(sed -n 's/^discard_requests=//p' "$info") discards,"
	echo "$(sed -n 's/^pages_written=//p' "$info") distinct pages written); footprint logical space, the drive filled once in random"
	echo "order first (an aged drive), OP $rop%, b = $rb pages (paper/traces.params), greedy; WA over the whole trace (\`wa_total\`)."
	echo "Its discard share q is discarded pages / (written + discarded pages) = $(fmt "$qr"). Its OP and segment size"
	echo "are not the synthetic runs', so it is not drawn against their model lines: its own curves show it."
	if [ -n "$apart" ]; then
		echo "The two runs have the same interval WA until host page write $apart of $hw ($(fmt "$(calc "$apart / $U")" 2) U):"
		echo "TRIM's lower WA over the whole trace comes from its last $(fmt "$(calc "100 * ($hw - $apart) / $hw")" 0)% of writes."
	else
		echo "The two runs' curves do not part: TRIM changed no interval's WA."
	fi
	echo
	setup_sweep
} >"$D/setup.md"
finish
