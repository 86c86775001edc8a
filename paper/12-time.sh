#!/bin/sh
# paper/12-time.sh - figure 12: what the cleaner costs in time. IOPS from
# fresh out of the box to steady state (with the SNIA PTS steady-state
# windows), the QD 1 closed form, latency CDFs of a real trace under
# foreground, idle-time and preemptible GC, and Host Idle Recovery.
#   sh paper/12-time.sh OUT 12-time   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
T=$O/traces
run() { awk -F, -v s="$1" 'NR > 1 && $1 == s { print $3; exit }' "$D/index.csv"; }
trun() { awk -F, -v s="$1" 'NR > 1 && $1 == s { print $6; exit }' "$D/tindex.csv"; }
# tj HASH FILTER: a jq filter on a run's summary.
tj() { jq -r "$2 // empty" "$R/$1.json"; }
args_of() { sed -n "s/^$2='\(.*\)'$/\1/p" "$R/$1.args" | tr -s ' '; }

# --- 1. Degradation over time --------------------------------------------
# Each run: its timeline without the last (partial) interval; fresh IOPS
# the first interval's; the steady-state window.
{
	echo "| series | fresh IOPS (first round) | steady state (s) | steady-state IOPS | fresh / steady | IOPS, last 5 rounds | WA after the fill |"
	echo "|---|---|---|---|---|---|---|"
} >"$D/degradation.md"
lines= spans= k=0
: >"$D/ramps.md"
for s in op07 op28 trim notrim; do
	k=$((k + 1))
	h=$(run $s)
	awk -F, -v half="$(calc "$ROUND_MS / 2000")" 'NR == 1 { print "t_mid_s," $0; next } { if (p != "") print p } { p = ($1 + half) "," $0 }' "$R/$h.timeline.csv" >"$D/deg-$s.csv"
	jq -r '.timing.steady_state | [(.found | tostring), (.start_s // ""), (.end_s // ""), (.iops // "")] | @tsv' "$R/$h.json" >"$D/.ss"
	IFS='	' read -r found wst wen ss <"$D/.ss"
	rm -f "$D/.ss"
	fresh=$(awk -F, 'NR == 2 { print $3; exit }' "$D/deg-$s.csv")
	# The end of the run: the mean IOPS of its last five whole rounds.
	endi=$(awk -F, 'NR > 1 { v[NR] = $3 } END { n = 0; for (i = NR; i > 1 && n < 5; i--) { s += v[i]; n++ } print n ? s / n : 0 }' "$D/deg-$s.csv")
	wa=$(tj "$h" .wa_measured)
	eval "found_$s=\$found ss_$s=\${ss:-0} fresh_$s=\$fresh end_$s=\$endi"
	# A window the rule accepts on a slow ramp: the IOPS move on after it.
	if [ "$found" = true ] && awk -v a="$endi" -v b="$ss" 'BEGIN { exit !(a > 1.2 * b || a < b / 1.2) }'; then
		echo "$(title_of $s): after its steady-state window the IOPS move on to $(fmt "$endi" 0) over the last five rounds ($(fmt "$(calc "100 * ($endi / $ss - 1)")" 1)%): the SNIA PTS rule (range within 20% and slope within 10% of the mean, over five rounds) accepts a slow ramp, and this window is not a plateau." >>"$D/ramps.md"
	fi
	check "time.ss-found.$s" yes "\"$found\" == \"true\"" "$(title_of $s): steady state found (SNIA PTS rule, rounds of $ROUND_MS ms): $found, ${wst:-?}-${wen:-?} s at $(fmt "${ss:-0}" 0) IOPS"
	echo "| $(title_of $s) | $(fmt "$fresh" 0) | ${wst:-not found}-${wen:-} | $(fmt "${ss:-}" 0) | $(fmt "$(calc "$fresh / ${ss:-1}")" 2) | $(fmt "$endi" 0) | $(fmt "$wa" 2) |" >>"$D/degradation.md"
	lines="$lines${lines:+;}$D/deg-$s.csv|t_mid_s|iops|$(title_of $s)|$k|linespoints pi $(awk 'END { n = int(NR / 12); print n < 1 ? 1 : n }' "$D/deg-$s.csv")"
	[ "$found" != true ] || spans="$spans${spans:+;}$wst|$wen|$ss|$k"
done
r=$(calc "$fresh_op07 / $ss_op07")
check time.fresh-vs-steady yes "$r >= 3" "$(title_of op07): fresh IOPS $(fmt "$fresh_op07" 0) / steady-state IOPS $(fmt "$ss_op07" 0) = $(fmt "$r" 2) (at least 3)"
check time.op28-above-op07 yes "$ss_op28 > $ss_op07" "steady-state IOPS, $(title_of op28) $(fmt "$ss_op28" 0) > $(title_of op07) $(fmt "$ss_op07" 0)"
check time.trim-above-notrim yes "$ss_trim > $ss_notrim && $end_trim > $end_notrim" "$(calc "$TRIM_Q * 100")% discards, $(title_of op07 | sed 's/^greedy, //'): IOPS with TRIM above without, in the steady-state window ($(fmt "$ss_trim" 0) against $(fmt "$ss_notrim" 0)) and over the last five rounds ($(fmt "$end_trim" 0) against $(fmt "$end_notrim" 0))"
last=$(cat "$D"/deg-*.csv | awk -F, 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m }')
first=$(awk -F, 'NR == 2 { print $1 }' "$D/deg-op07.csv")
gpvars time-degradation <<EOV
title = "From fresh to steady state: random 4 KiB writes, QD $QD, 2 x 2 FEMU dies, b = $B, greedy"
xlabel = "simulated time (s, log scale; one value per round of $(calc "$ROUND_MS / 1000") s, at its middle)"
logx = 1
xtics = "(0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000)"
ylabel = "IOPS (requests / s, discards included; log scale)"
ylog = 1
ytics = "(500, 1000, 2000, 5000, 10000, 20000, 50000)"
yrange = "1000:30000"
xrange = "$(calc "$first * 0.8"):$(calc "$last * 1.1")"
lines = "$lines"
spans = "$spans"
spantitle = "steady-state window (SNIA PTS: 5 rounds), at its mean IOPS"
EOV

# The QD 1 closed form on one die: tPROG + (WA-1)(tR + tPROG) + (WA/b) tBERS.
for s in qd1op07 qd1op28; do
	h=$(run $s)
	jq -r '[.wa_measured, .timing.latency_us.write.mean, .timing.device.tr_us, .timing.device.tprog_us, .timing.device.tbers_us, .params.pages_per_segment] | @tsv' "$R/$h.json" >"$D/.qd1"
	IFS='	' read -r wa lat tr tp tb b <"$D/.qd1"
	rm -f "$D/.qd1"
	cf=$(calc "$tp + ($wa - 1) * ($tr + $tp) + $wa / $b * $tb")
	row "time.$s" "mean write latency (us), $(title_of $s), WA $(fmt "$wa" 3)" "$(fmt "$cf" 2)" \
		"closed form tPROG + (WA-1)(tR+tPROG) + (WA/b)tBERS fed the run's own WA (an accounting check of the timing layer; the next row predicts it), FEMU's times (Li et al., The CASE of FEMU, FAST'18)" "$(fmt "$lat" 2)"
	d=$(relpct "$lat" "$cf")
	check "time.$s" yes "$d <= 1" "$(title_of $s): mean write latency $(fmt "$lat" 2) us vs the closed form $(fmt "$cf" 2) us at WA $(fmt "$wa" 3) ($d%, tolerance 1%)"
	# The same closed form fed by no number of the run: greedy's mean
	# field WA at the run's OP and b (wamodel), a prediction.
	op=$(tj "$h" .params.op)
	wm=$(bin/wamodel --csv -m greedy-mf -b "$b" --op "$op" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wa_greedy_mf") k = i; next } { print $k }')
	pf=$(calc "$tp + ($wm - 1) * ($tr + $tp) + $wm / $b * $tb")
	row "time.$s.model" "mean write latency (us), $(title_of $s), predicted" "$(fmt "$pf" 2)" \
		"closed form at wamodel's greedy mean-field WA $(fmt "$wm" 3) (OP $(fmt "$op" 4), b = $b; Van Houdt, Bux-Iliadis), FEMU's times" "$(fmt "$lat" 2)"
	dm=$(relpct "$lat" "$pf")
	check "time.$s.model" yes "$dm <= 3" "$(title_of $s): mean write latency $(fmt "$lat" 2) us vs $(fmt "$pf" 2) us predicted from the mean-field WA $(fmt "$wm" 3), no number of the run in it ($dm%, tolerance 3%)"
done

# --- 2. Latency CDFs of the real trace ------------------------------------
ms() { fmt "$(calc "$1 / 1000")" 2; }
left= right= k=0
{
	echo "| GC | WA | write p50 | write p90 | write p99 | write p99.9 | read p50 | read p99 | time requests waited on GC | victims cleaned in idle time |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$D/latency.md"
for s in fg bg pre; do
	k=$((k + 1))
	h=$(trun $s)
	for kind in write read; do
		# From 0 at the first bucket: the curve rises from the axis.
		awk -F, -v k="$kind" 'NR == 1 { print "latency_ms,cdf"; next } $1 == k { if (!n++) print $2 / 1000 ",0"; print $2 / 1000 "," $4 }' "$R/$h.latency.csv" >"$D/lat-$s-$kind.csv"
	done
	left="$left${left:+;}$D/lat-$s-write.csv|latency_ms|cdf|$(title_of $s)|$k"
	right="$right${right:+;}$D/lat-$s-read.csv|latency_ms|cdf|$(title_of $s)|$k"
	# The drawn distribution and the summary agree: the write p50, p99
	# and p99.9 read off the CDF (--latency) are the JSON's within the
	# histograms' 1% relative error.
	qs=$(jq -r '.timing.latency_us.write | "\(.p50) \(.p99) \(.p99_9)"' "$R/$h.json")
	cq=$(awk -F, '$1 == "write" { if (a == "" && $4 >= 0.5) a = $2; if (b == "" && $4 >= 0.99) b = $2; if (c == "" && $4 >= 0.999) c = $2 }
		END { print a, b, c }' "$R/$h.latency.csv")
	worst=$(echo "$qs $cq" | awk '{ w = 0; for (i = 1; i <= 3; i++) { d = ($i - $(i + 3)) / $i; d = d < 0 ? -d : d; if (d > w) w = d } printf "%.3f", 100 * w }')
	check "time.cdf-quantiles.$s" yes "\"$(echo $cq | wc -w)\" == 3 && $worst <= 1" "$(title_of $s): write p50, p99, p99.9 from the drawn CDF $cq us against the summary's $qs us: $worst% apart at most (the histograms' bound 1%)"
	jq -r '[.wa_total, .timing.latency_us.write.p50, .timing.latency_us.write.p90, .timing.latency_us.write.p99, .timing.latency_us.write.p99_9, .timing.latency_us.read.p50, .timing.latency_us.read.p99, .timing.gc_wait_s, .timing.bg_victims] | @tsv' "$R/$h.json" >"$D/.lat"
	IFS='	' read -r wa w50 w90 w99 w999 r50 r99 gw bv <"$D/.lat"
	rm -f "$D/.lat"
	eval "w99_$s=\$w99"
	echo "| $(title_of $s) | $(fmt "$wa" 2) | $(ms "$w50") ms | $(ms "$w90") ms | $(ms "$w99") ms | $(ms "$w999") ms | $(ms "$r50") ms | $(ms "$r99") ms | $(fmt "$gw" 2) s | $bv |" >>"$D/latency.md"
done
check time.bg-p99 yes "$w99_bg <= $w99_fg" "rootfs-discard: write p99 with idle-time GC $(fmt "$(calc "$w99_bg / 1000")" 2) ms <= foreground GC's $(fmt "$(calc "$w99_fg / 1000")" 2) ms"
tid=$(awk -F, '$1 == "fg" { print $2 }' "$D/tindex.csv")
# Reads barely wait on GC here: say which curves are one.
same=
if cmp -s "$D/lat-fg-read.csv" "$D/lat-bg-read.csv" && cmp -s "$D/lat-fg-read.csv" "$D/lat-pre-read.csv"; then
	same="; the three distributions are the same"
elif cmp -s "$D/lat-fg-read.csv" "$D/lat-pre-read.csv"; then
	same="; foreground and preemptible the same"
elif cmp -s "$D/lat-fg-read.csv" "$D/lat-bg-read.csv"; then
	same="; foreground and idle-time the same"
fi
info=$T/$tid.info
# The trace's span, and its most bytes written within 50 ms as recorded.
dur=$(bin/tracestat -q --csv "$T/$tid.ev" | awk -F, '$2 == "duration_s" { print $3 }')
wmax=$(bin/tracecat -q -o text "$T/$tid.ev" | awk '$2 == "W" && $4 > m { m = $4 } END { print m + 0 }')
wburst=$(bin/tracecat -q -o text "$T/$tid.ev" | awk -v w=50000000 '$2 == "W" { n++; t[n] = $1; b[n] = $4; s += $4
	while (t[n] - t[lo + 1] > w) { lo++; s -= b[lo] } if (s > m) m = s } END { print m + 0 }')
fg=$(trun fg)
dies=$(($(tj "$fg" .timing.device.channels) * $(tj "$fg" .timing.device.dies_per_channel)))
bpp=$(tj "$fg" .params.pages_per_segment)
gpvars time-latency <<EOV
title = "Latency CDFs, rootfs-discard blktrace sample replayed $TIME_SCALE times slower: $(tj "$fg" .timing.device.profile | tr a-z A-Z) $(tj "$fg" .timing.device.channels) x $(tj "$fg" .timing.device.dies_per_channel) dies, OP $(fmt "$(calc "$(tj "$fg" .params.op) * 100")" 1)%, b = $bpp, $(tj "$fg" .params.policy)"
ltitle = "writes ($(tj "$(trun fg)" .timing.latency_us.write.count) requests)"
rtitle = "reads ($(tj "$(trun fg)" .timing.latency_us.read.count) requests$same)"
xlabel = "latency, arrival to completion (ms; log scale)"
ylabel = "share of requests at or below (CDF; the axis starts at $CDF_FROM)"
xrange = "0.02:3000"
yrange = "$CDF_FROM:1.005"
left = "$left"
right = "$right"
EOV

# --- 3. Host Idle Recovery ---------------------------------------------------
# The foreground GC time of each burst (the units' busy time that is GC
# not begun in idle time: busy_share x (gc_busy_share -
# gc_idle_busy_share) x units x interval, summed over the burst's
# rows), grouped by the idle gap before the burst (rows without a
# request, the nearest wait state), averaged per wait state. A burst
# spans at most burst + 2 rows; the first of each wait state follows a
# baseline (or the preconditioning) without a pause and is left out.
hirgc() { # RUN BURST_S: "wait,mean fg GC seconds" lines
	units=$(tj "$1" .timing.device.units)
	round=$(tj "$1" .timing.steady_state.round_s)
	awk -F, -v units="$units" -v round="$round" -v maxrows=$(($2 + 2)) -v waits="$(echo "$HIR_WAITS" | tr , " ")" '
	function flush(   i, w, best) {
		if (nrun > 0 && nrun <= maxrows && gap > 0) {
			best = 1
			for (i = 2; i <= nw; i++) if ((W[i] - gap) ^ 2 < (W[best] - gap) ^ 2) best = i
			acc[best] += sum; cnt[best]++
		}
	}
	BEGIN { nw = split(waits, W, " ") }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["iops"] > 0 { nrun++; sum += $c["busy_share"] * ($c["gc_busy_share"] - $c["gc_idle_busy_share"]) * units * round; next }
	{ if (nrun > 0) { flush(); nrun = 0; sum = 0; gap = 0 } gap++ }
	END { flush(); for (i = 1; i <= nw; i++) if (cnt[i]) printf "%s,%.6f,%d\n", W[i], acc[i] / cnt[i], cnt[i] }' "$R/$1.timeline.csv"
}
hlines= k=0
for burst in $HIR_BURSTS; do
	for s in hir$burst hir${burst}bg; do
		k=$((k + 1))
		{ echo "wait_s,fg_gc_s,bursts"; hirgc "$(run $s)" "$burst"; } >"$D/$s.csv"
		hlines="$hlines${hlines:+;}$D/$s.csv|wait_s|fg_gc_s|$(title_of $s)|$k|linespoints"
	done
	off=$D/hir$burst.csv on=$D/hir${burst}bg.csv
	n=$(tail -n +2 "$off" | wc -l)
	lo=$(awk -F, 'NR > 1 { if (lo == "" || $2 < lo) lo = $2 } END { print lo }' "$off")
	hi=$(awk -F, 'NR > 1 { if ($2 > hi) hi = $2 } END { print hi + 0 }' "$off")
	check "time.hir$burst.flat" yes "$n == 5 && $lo > 0 && $hi / $lo < 1.1" "HIR, $burst s bursts, foreground GC only: GC time a burst $(tail -n +2 "$off" | cut -d, -f2 | xargs printf '%.2f ' | sed 's/ $//') s at waits $HIR_WAITS s, flat (max/min $(fmt "$(calc "$hi / ($lo > 0 ? $lo : 1)")" 3) < 1.1)"
	vals=$(tail -n +2 "$on" | cut -d, -f2 | xargs printf '%.2f ' | sed 's/ $//')
	inc=$(awk -F, 'NR > 2 && $2 > p + 1e-9 { bad = 1 } NR > 1 { p = $2 } END { print bad + 0 }' "$on")
	lon=$(tail -n 1 "$on" | cut -d, -f2)
	loff=$(tail -n 1 "$off" | cut -d, -f2)
	check "time.hir$burst.bg" yes "$(tail -n +2 "$on" | wc -l) == 5 && $inc == 0 && $lon < 0.1 * $loff" "HIR, $burst s bursts, idle-time GC: foreground GC a burst $vals s at waits $HIR_WAITS s, non-increasing, at ${HIR_WAITS##*,} s $(fmt "$lon" 3) s < a tenth of foreground only's $(fmt "$loff" 2) s"
done
gpvars time-hir <<EOV
title = "Host Idle Recovery (SNIA PTS): one FEMU die, OP $(calc "$HIR_OP * 100")%, bursts of random 4 KiB writes at $HIR_RATE IOPS"
xlabel = "wait state: host idle time before the burst (s)"
ylabel = "foreground GC time in a burst (die-seconds)"
xtics = "(5, 10, 15, 25, 50)"
xrange = "0:53"
yrange = "-0.2:*"
lines = "$hlines"
EOV

# --- 4. Reads in idle time: suspension ---------------------------------------
sleft= sright= k=0
{
	echo "| series | reads | read p50 | read p99 | read p99.9 | read max | write p99 | suspensions | WA | victims cleaned in idle time |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$D/suspend.md"
for s in susoff suserase susboth; do
	k=$((k + 1))
	h=$(run $s)
	for kind in read write; do
		awk -F, -v k="$kind" 'NR == 1 { print "latency_ms,cdf"; next } $1 == k { if (!n++) print $2 / 1000 ",0"; print $2 / 1000 "," $4 }' "$R/$h.latency.csv" >"$D/sus-$s-$kind.csv"
	done
	sleft="$sleft${sleft:+;}$D/sus-$s-read.csv|latency_ms|cdf|$(title_of $s)|$k"
	sright="$sright${sright:+;}$D/sus-$s-write.csv|latency_ms|cdf|$(title_of $s)|$k"
	jq -r '[.timing.latency_us.read.count, .timing.latency_us.read.p50, .timing.latency_us.read.p99, .timing.latency_us.read.p99_9, .timing.latency_us.read.max, .timing.latency_us.write.p99, .timing.suspensions, .wa_total, .timing.bg_victims, .timing.unit_busy_s, .gc_pages_copied, .timing.device.tr_us, .timing.device.tprog_us, .timing.device.tbers_us] | @tsv' "$R/$h.json" >"$D/.sus"
	IFS='	' read -r rc r50 r99 r999 rmax w99 ns wa bv busy cp str stp stb <"$D/.sus"
	rm -f "$D/.sus"
	eval "rmax_$s=\$rmax ns_$s=\$ns busy_$s=\$busy cp_$s=\$cp bv_$s=\$bv"
	echo "| $(title_of $s) | $rc | $(fmt "$r50" 1) us | $(fmt "$r99" 1) us | $(fmt "$r999" 1) us | $(fmt "$rmax" 1) us | $(ms "$w99") ms | $ns | $(fmt "$wa" 3) | $bv |" >>"$D/suspend.md"
done
check time.suspend.off yes "$rmax_susoff > $stb / 2" "reads in idle time, no suspension: the longest read $(fmt "$rmax_susoff" 1) us, behind an erase (tBERS $stb us)"
lim=$(calc "2 * $str + $stp + $SUS_US")
check time.suspend.erase yes "$ns_suserase > 0 && $rmax_suserase <= $lim" "$(title_of suserase): $ns_suserase suspensions, the longest read $(fmt "$rmax_suserase" 1) us <= tR + tPROG + a read ahead + suspend_us = $(fmt "$lim" 1) us"
lim=$(calc "3 * $str + $SUS_US")
check time.suspend.both yes "$ns_susboth > 0 && $rmax_susboth <= $lim" "$(title_of susboth): $ns_susboth suspensions, the longest read $(fmt "$rmax_susboth" 1) us <= a GC read in progress + two reads + suspend_us = $(fmt "$lim" 1) us"
for s in suserase susboth; do
	eval "b=\$busy_$s n=\$ns_$s c=\$cp_$s"
	d=$(calc "$b - $busy_susoff - $n * $SUS_US / 1e6")
	check "time.suspend.busy.$s" yes "($d) * ($d) < 1e-12 && $c == $cp_susoff" "$(title_of $s): the dies' busy time $(fmt "$b" 6) s = no suspension's $(fmt "$busy_susoff" 6) s + $n x $SUS_US us (off by $d s); GC copied $c pages against $cp_susoff"
done
fs=$(run susoff)
gpvars time-suspend <<EOV
title = "Reads during idle-time GC, its erases and programs suspended for them or not: one FEMU die, OP 28%"
ltitle = "reads ($(tj "$fs" .timing.latency_us.read.count) requests, $SUS_READS/s in the $SUS_WAIT s waits)"
rtitle = "writes ($(tj "$fs" .timing.latency_us.write.count) requests, $SUS_ROUNDS bursts of $SUS_BURST s at $SUS_RATE/s)"
xlabel = "latency, arrival to completion (ms; log scale)"
ylabel = "share of requests at or below (CDF; the axis starts at $SUS_CDF_FROM)"
xrange = "0.03:100"
yrange = "$SUS_CDF_FROM:1.0005"
keypos = "inside right center maxcols 1"
left = "$sleft"
right = "$sright"
EOV

# --- Setup and tables ------------------------------------------------------
h1=$(run op07) hq=$(run qd1op07) hh=$(run hir7bg) hb=$(trun bg)
{
	echo "The device in time (ftlsim \`--device\`, docs/MODEL.md) charges every flash operation of the model to a die:"
	echo "FEMU's times (Li et al., FAST'18): page read tR $(tj "$h1" .timing.device.tr_us) us, program tPROG $(tj "$h1" .timing.device.tprog_us) us, block erase tBERS $(calc "$(tj "$h1" .timing.device.tbers_us) / 1000") ms, transfer $(tj "$h1" .timing.device.xfer_us) us a page."
	echo
	echo "**Degradation.** U = $PAGES logical pages of 4 KiB written once in order, then $WRITES U uniform random single-page"
	echo "requests, closed loop with $QD outstanding (\`--qd $QD\`), on 2 channels x 2 dies with segments of b = $B pages striped"
	echo "over the four dies ($((B / 4)) pages of a segment in each die's block), greedy. Series: OP $(fmt "$(calc "$(tj "$h1" .params.op) * 100")" 1)% and $(fmt "$(calc "$(tj "$(run op28)" .params.op) * 100")" 1)%; and with $(calc "$TRIM_Q * 100")% of the"
	echo "requests discards of a written page (tracegen \`--trim-prob $TRIM_Q\`) at OP $(fmt "$(calc "$(tj "$h1" .params.op) * 100")" 1)%, the FTL told of them (\`--trim\`) or not"
	echo "(\`--no-trim\`). IOPS counts every request, the discards too (they take no time: no \`--trim-cost\`). A round is"
	echo "$(calc "$ROUND_MS / 1000") s of simulated time (\`--timeline-interval $ROUND_MS\`); the steady-state window is the SNIA PTS"
	echo "rule ftlsim applies (five rounds whose IOPS lie within 20% of their mean, their least-squares line within 10%),"
	echo "searched from the first round after the warm-up (the fill) in which GC ran, drawn as a bar at its mean IOPS."
	echo "The fresh IOPS is the first round's (a fresh drive: no GC). The rule accepts a window whose IOPS still moves by"
	echo "less than 10%: with TRIM the live pages keep declining toward U(1-2q)/(1-q) (figure 7) for some U/(1-q) requests,"
	echo "and IOPS rises with them past the window (those runs are $TRIM_WRITES U requests long)."
	echo
	cat "$D/degradation.md"
	if [ -s "$D/ramps.md" ]; then echo; cat "$D/ramps.md"; fi
	echo
	echo "One run, as a command line:"
	echo
	echo "    bin/tracegen $(args_of "$h1" gen) -o bin | bin/ftlsim $(args_of "$h1" sim)$(outputs_of "$h1") -"
	echo
	echo "The QD 1 rows of the table: one die, one request at a time, the same writes; the measured window after"
	echo "$WARMUP U host page writes (the fill included). Each write then waits for the GC its own pages need, so its mean"
	echo "latency is tPROG + (WA-1)(tR+tPROG) + (WA/b)tBERS with the window's WA:"
	echo
	echo "    bin/tracegen $(args_of "$hq" gen) -o bin | bin/ftlsim $(args_of "$hq" sim)$(outputs_of "$hq") -"
	echo
	echo "**Latency.** The rootfs-discard blktrace sample ($(sed -n 's/^events=//p' "$info") events, $(sed -n 's/^write_requests=//p' "$info") writes,"
	echo "$(sed -n 's/^discard_requests=//p' "$info") discards over $(fmt "$dur" 1) s: an ext4 root compiling Python, mounted with online discard), chosen over the"
	echo "MSR sample hm_0-head1000 because it has timestamps to the nanosecond, thousands of writes in bursts separated by idle"
	echo "time, and a footprint ($(sed -n 's/^pages_written=//p' "$info") pages) that holds $(($(sed -n 's/^pages_written=//p' "$info") / bpp)) segments of $bpp pages (hm_0's first 1000"
	echo "events write only a few hundred distinct pages). Footprint logical space, filled at random first, OP $(fmt "$(calc "$(tj "$fg" .params.op) * 100")" 1)%, b = $bpp on"
	echo "$(tj "$fg" .timing.device.channels) x $(tj "$fg" .timing.device.dies_per_channel) dies, GC watermarks $(tj "$fg" .params.gc_low_segments) and $(tj "$fg" .params.gc_high_segments) free segments. Replayed $TIME_SCALE times slower than recorded (\`--time-scale $TIME_SCALE\`):"
	echo "as recorded its biggest burst writes $(fmt "$(calc "$wburst / 1e6")" 1) MB within 50 ms ($(fmt "$(calc "$wburst / 0.05 / 1e9")" 2) GB/s, a virtual disk on the host's page cache),"
	echo "and the $dies dies program $(fmt "$(calc "$dies * $(tj "$fg" .timing.device.page_bytes) / $(tj "$fg" .timing.device.tprog_us)")" 1) MB/s. Stretched, the dies are busy $(fmt "$(calc "100 * $(tj "$fg" .timing.unit_busy_share)")" 1)% of the time under foreground GC; the tail is the"
	echo "writes of up to $(fmt "$(calc "$wmax / 1048576")" 1) MiB (the trace's largest; $(fmt "$(calc "$wmax / $(tj "$fg" .timing.device.page_bytes) / $bpp")" 1) segments, so several GC passes) and the writes queued behind them."
	echo "Foreground GC cleans when a write finds no free segment, the request waiting for the pass; idle-time GC"
	echo "(\`--bg-gc idle=100,high=16\`) cleans after 100 ms without a request until 16 segments are free, yielding to"
	echo "requests (it cleans earlier, fuller victims: its WA is higher); preemptible GC (\`--gc-preempt hard=1\`) defers"
	echo "the same passes as foreground GC while a free segment remains."
	echo
	cat "$D/latency.md"
	echo
	echo "    bin/ftlsim $(args_of "$hb" sim)$(outputs_of "$hb") $T/$tid.ev"
	echo
	echo "**Host Idle Recovery** (SNIA Solid State Storage Performance Test Specification Enterprise 1.1, section 11): one die,"
	echo "U = $HIR_PAGES pages, OP $(calc "$HIR_OP * 100")% (b = $(tj "$hh" .params.pages_per_segment)), the drive filled at random (\`--precondition random\`), then"
	echo "$HIR_PRE U random writes at $HIR_RATE IOPS (tracegen \`--precondition-writes\`: the PTS's preconditioning to steady state),"
	echo "then for each wait state W = $(echo "$HIR_WAITS" | sed 's/,/, /g') s: $HIR_ROUNDS rounds of a burst of random writes at $HIR_RATE IOPS"
	echo "(Poisson) followed by W s idle, and $HIR_BASELINE s of writes without a pause (the PTS: 360 rounds, 1800 s). Bursts"
	echo "of $(echo $HIR_BURSTS | sed 's/ / s and of /') s (5 s is the PTS's). The foreground GC time of a burst is the dies' GC time in its rows of the timeline"
	echo "(1 s rows: \`busy_share\` x (\`gc_busy_share\` - \`gc_idle_busy_share\`)), grouped by the idle rows before it; the first"
	echo "burst of each wait state follows writes without a pause and is left out. Idle-time GC (\`--bg-gc $HIR_BG\`) cleans"
	hb_high=$(echo "$HIR_BG" | sed -n 's/.*high=\([0-9]*\).*/\1/p')
	hb_b=$(tj "$hh" .params.pages_per_segment)
	echo "in the waits until $hb_high segments are free ($((hb_high * hb_b)) pages: $(fmt "$(calc "$hb_high * $hb_b / $HIR_RATE")" 1) s of the bursts' writes), as fast as one die copies the"
	echo "victims' live pages: whether a wait restores enough for the burst after it depends on the burst's length."
	echo
	echo "    bin/tracegen $(args_of "$hh" gen) -o bin | bin/ftlsim $(args_of "$hh" sim)$(outputs_of "$hh") -"
	echo
	hs=$(run susboth)
	echo "**Reads in idle time.** Idle-time GC yields to a request at page granularity, but an erase runs whole: a read that"
	echo "comes during one waits up to tBERS. A die can suspend its erase or program for a read (Wu and He, FAST'12; MQSim's"
	echo "erase and program suspension): ftlsim's \`suspend=erase|program|both\` device key, \`suspend_us=$SUS_US\` to suspend (an erase is suspended for a"
	echo "write's program too: the first writes of a burst). One die, U = $SUS_PAGES"
	echo "pages filled at random, OP 28%, $SUS_ROUNDS bursts of random 4 KiB writes at $SUS_RATE IOPS for $SUS_BURST s, each followed by $SUS_WAIT s"
	echo "in which random reads arrive at $SUS_READS a second (tracegen \`--wait-reads\`; the writes are the same with or without"
	echo "them); idle-time GC (\`--bg-gc $SUS_BG\`) cleans in the waits, while the reads come. Here suspension changed no count"
	echo "of the cleaning (the pages copied are checked equal); each suspension adds suspend_us to the die's busy time."
	echo
	cat "$D/suspend.md"
	echo
	echo "    bin/tracegen $(args_of "$hs" gen) -o bin | bin/ftlsim $(args_of "$hs" sim)$(outputs_of "$hs") -"
	echo
} >"$D/setup.md"
{
	echo "Host Idle Recovery: foreground GC time a burst (s), by wait state:"
	echo
	printf '| wait (s) |'; for burst in $HIR_BURSTS; do printf ' %s | %s |' "$(title_of hir$burst)" "$(title_of hir${burst}bg)"; done; echo
	printf '|---|'; for burst in $HIR_BURSTS; do printf -- '---|---|'; done; echo
	for w in 5 10 15 25 50; do
		printf '| %s |' "$w"
		for burst in $HIR_BURSTS; do
			for s in hir$burst hir${burst}bg; do printf ' %s |' "$(fmt "$(awk -F, -v w="$w" '$1 == w { print $2 }' "$D/$s.csv")" 3)"; done
		done
		echo
	done
	echo
} >>"$D/extra.md.new"
rm -f "$D/degradation.md" "$D/latency.md" "$D/suspend.md"
finish
