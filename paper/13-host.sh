#!/bin/sh
# paper/13-host.sh - figure 13: the host joins the log. WA of three
# workloads on a block SSD (no TRIM, TRIM, batched and lossy TRIM), an
# FDP SSD (both isolation modes), a ZNS SSD under a host log and a
# block SSD under the same host log; and a host log in time on zones and
# on block SSDs of its own and of twice its segment size.
#   sh paper/13-host.sh OUT 13-host   (from make paper)
O=$1 FIG=$2
. ./paper/lib.sh
load_params
run() { awk -F, -v s="$1" 'NR > 1 && $1 == s { print $3; exit }' "$D/index.csv"; }
tj() { jq -r "$2 // empty" "$R/$1.json"; }
args_of() { sed -n "s/^$2='\(.*\)'$/\1/p" "$R/$1.args" | tr -s ' '; }
# 256K -> 256 KiB, 1M -> 1 MiB (a size, not a count)
size_h() { echo "$1" | sed 's/\([0-9]\)\([KMG]\)$/\1 \2iB/'; }
# what the runs were given, from a block SSD's summary and the device's
h_op=$(tj "$(run fc_trim)" .params.op)
OPPC=$(fmt "$(calc "$h_op * 100")" 1)
h_dev=$(tj "$(run t_zns)" .timing.device.channels)" x "$(tj "$(run t_zns)" .timing.device.dies_per_channel)" $(tj "$(run t_zns)" .timing.device.profile | tr a-z A-Z) dies"

WLS="fc warp hc"
CFS="notrim trim batch lossy fdpi fdpp zns lfs"
wl_title() { case $1 in fc) echo "flash cache (CacheLib)" ;; warp) echo "WARP's three streams" ;; hc) echo "hot/cold + $(calc "$TRIM_Q * 100")% discards" ;; esac; }
cf_title() { title_of "fc_$1" | sed 's/^[^:]*: //'; }
# What the flash writes per application write: a host log's stacked WA
# (its own copies times the device's), else the device's.
wa_of() {
	h=$(run "$1")
	s=$(tj "$h" .host_lfs.wa_stacked)
	[ -n "$s" ] && echo "$s" || tj "$h" .wa_measured
}
for w in $WLS; do for c in $CFS; do eval "wa_${w}_$c=\$(wa_of ${w}_$c)"; done; done
get() { eval "echo \$wa_$1_$2"; }

{
	printf 'workload'
	for c in $CFS; do printf ',%s' "$(cf_title "$c")"; done
	echo
	for w in $WLS; do
		printf '%s' "$(wl_title "$w")"
		for c in $CFS; do printf ',%s' "$(get "$w" "$c")"; done
		echo
	done
} >"$D/host.csv"

# --- checks --------------------------------------------------------------
fc_b=$(get fc trim) fc_f=$(get fc fdpp) fc_i=$(get fc fdpi)
check host.fdp-flashcache yes "$fc_f < 1.15 && $fc_i < 1.15 && $fc_b > 2" \
	"flash cache: FDP keeps the log's regions apart from the buckets: WA $(fmt "$fc_f" 3) persistently, $(fmt "$fc_i" 3) initially isolated, against $(fmt "$fc_b" 2) on the block SSD"
ok=1 msg=
for w in $WLS; do
	b=$(get "$w" trim) f=$(get "$w" fdpi)
	awk "BEGIN { exit !($f < $b) }" || ok=0
	msg="$msg${msg:+; }$(wl_title "$w") $(fmt "$f" 2) < $(fmt "$b" 2)"
done
check host.fdp-below-block yes "$ok == 1" "FDP (initially isolated) below the block SSD with TRIM on every workload: $msg"
w_gain=$(calc "$(get warp trim) / $(get warp fdpi)") f_gain=$(calc "$fc_b / $fc_i")
check host.warp-adversary yes "$w_gain < $f_gain / 2" \
	"WARP's adversary overwrites the sequential stream's data under its own handle: FDP gains $(fmt "$w_gain" 2)x there against $(fmt "$f_gain" 2)x on the flash cache"
t=$(get hc trim) n=$(get hc notrim) bt=$(get hc batch) l=$(get hc lossy)
check host.trim-order yes "$t <= $bt && $bt < $n && $t < $l && $l < $n && $n > 2 * $t" \
	"hot/cold with discards: TRIM $(fmt "$t" 2) <= batched $(fmt "$bt" 2) and lossy ($(calc "$LOSS * 100")% lost) $(fmt "$l" 2) < no TRIM $(fmt "$n" 2)"
for w in fc warp; do
	a=$(get "$w" notrim) b=$(get "$w" trim)
	check "host.no-discards.$w" yes "$a == $b" "$(wl_title "$w") sends no discard: no TRIM and TRIM give the same WA, $(fmt "$a" 3)"
done
ok=1 msg=
for w in $WLS; do
	for c in zns lfs; do
		h=$(run "${w}_$c")
		dw=$(tj "$h" .host_lfs.wa_device) hw=$(tj "$h" .host_lfs.wa_host) st=$(tj "$h" .host_lfs.wa_stacked)
		awk "BEGIN { exit !($dw == 1 && $st == $hw) }" || ok=0
		msg="$msg${msg:+; }$(wl_title "$w") $c $(fmt "$dw" 3)"
	done
done
check host.log-on-log yes "$ok == 1" "a host log of aligned segments, cleaned segments reset (ZNS) or discarded (block): the device's WA is 1.000 and the stacked WA the host's: $msg"

# --- in time: the host log's write latencies on three devices -------------
# Each device's write latency percentiles (us) at -log10(1 - q) (zones drawn
# over the aligned block SSD, whose line it covers): p50 at
# 0.30, p90 at 1, p99 at 2, p99.9 at 3, p99.99 at 4.
TCS="blk zns half"
lines=
k=0
for c in $TCS; do
	k=$((k + 1))
	h=$(run "t_$c")
	jq -r '.timing.latency_us.write | "nines,latency_ms",
		"0.30103,\(.p50 / 1000)", "1,\(.p90 / 1000)", "2,\(.p99 / 1000)", "3,\(.p99_9 / 1000)", "4,\(.p99_99 / 1000)"' \
		"$R/$h.json" >"$D/tlat-$c.csv"
	lines="$lines${lines:+;}$D/tlat-$c.csv|nines|latency_ms|$(title_of "t_$c" | sed 's/^[^:]*: //')|$k|linespoints"
	eval "tw99_$c=\$(tj \"\$h\" .timing.latency_us.write.p99) tmean_$c=\$(tj \"\$h\" .timing.latency_us.write.mean)"
	eval "tdw_$c=\$(tj \"\$h\" .host_lfs.wa_device) tn_$c=\$(tj \"\$h\" .timing.latency_us.write.count)"
	eval "tin_$c=\$(jq '.host.in.writes' \"\$R/\$h.json\") treq_$c=\$(tj \"\$h\" .timing.requests)"
done
check host.time-aligned yes "$tdw_zns == 1 && $tdw_blk == 1 && ($tmean_zns - $tmean_blk) ^ 2 <= (0.01 * $tmean_blk) ^ 2" \
	"in time, a host log on zones and on a block SSD of its own segment size: device WA $(fmt "$tdw_zns" 3) and $(fmt "$tdw_blk" 3), mean write latency $(fmt "$(calc "$tmean_zns / 1000")" 3) and $(fmt "$(calc "$tmean_blk / 1000")" 3) ms (within 1%)"
check host.time-misaligned yes "$tdw_half > 1.2 && $tw99_half > 1.3 * $tw99_zns && $tmean_half > 1.3 * $tmean_zns" \
	"in time, host segments half the block SSD's: device WA $(fmt "$tdw_half" 2), write p99 $(fmt "$(calc "$tw99_half / 1000")" 2) ms against $(fmt "$(calc "$tw99_zns / 1000")" 2) ms on zones"
check host.time-requests yes "$treq_zns == $tin_zns && $tn_zns <= $tin_zns && $tn_zns > 0.5 * $tin_zns" \
	"in time, each file-system write one request (its cleaning within it): $treq_zns requests for the trace's $tin_zns writes, $tn_zns measured"
gpvars host-latency <<EOV
title = "A host log in time: write latency percentiles, uniform 4 KiB writes at $T_RATE/s, U = $T_PAGES, $h_dev\\n(zones and the aligned block SSD coincide; the lines only join the percentiles)"
xlabel = "percentile"
ylabel = "write latency (ms; log scale)"
xtics = '("p50" 0.30103, "p90" 1, "p99" 2, "p99.9" 3, "p99.99" 4)'
ylog = 1
xrange = "0:4.2"
keypos = "inside left top"
lines = "$lines"
EOV

gpvars host <<EOV
title = "The host joins the log: WA (flash writes per application write; host log x device under a host log), greedy, OP $OPPC%, U = $PAGES pages, b = $B"
cols = 1
size_w = 1700
size_h = 950
legend = "top"
legcols = 4
panels = "$D/host.csv|three workloads, eight devices"
EOV

{
	echo "WA (flash page writes per application page write, over the measured window; under a host log the host's WA"
	echo "times the device's):"
	echo
	md_table "$D/host.csv" | awk -F'|' 'NR <= 2 { print; next } { s = "|" $2 "|"; for (i = 3; i < NF; i++) s = s sprintf(" %.3f |", $i); print s }'
	echo
	echo "Under a host log (host WA x device WA = stacked):"
	echo
	echo "| workload | device | host WA | device WA | stacked |"
	echo "|---|---|---|---|---|"
	for w in $WLS; do
		for c in zns lfs; do
			h=$(run "${w}_$c")
			echo "| $(wl_title "$w") | $(cf_title "$c") | $(fmt "$(tj "$h" .host_lfs.wa_host)" 3) | $(fmt "$(tj "$h" .host_lfs.wa_device)" 3) | $(fmt "$(tj "$h" .host_lfs.wa_stacked)" 3) |"
		done
	done
	echo
	echo "FDP, per handle (initially isolated): each handle's WA, (its host writes + the copies they caused) / its host"
	echo "writes, over the whole run (the fill included, so beside the run's whole-run WA, not the measured one above):"
	echo
	echo "| workload | handle 0 | handle 1 | handle 2 | all, whole run |"
	echo "|---|---|---|---|---|"
	for w in $WLS; do
		h=$(run "${w}_fdpi")
		echo "| $(wl_title "$w") | $(jq -r '[.fdp.per_handle[0:3][] | (.wa // "-") | if type == "number" then (. * 1000 | round / 1000 | tostring) else . end] | join(" | ")' "$R/$h.json") | $(fmt "$(tj "$h" .wa_total)" 3) |"
	done
	echo
} >>"$D/extra.md.new"

{
	echo "In time (the second image): a host log of $(size_h "$T_SEG") segments under uniform 4 KiB writes at $T_RATE a second after"
	echo "a fill, U = $T_PAGES, on $h_dev (\`--device $T_DEV\`); each file-system write is one request, the"
	echo "cleaning it sets off (the log's reads, its copies, a reset or discard) within it; latencies once the fill's"
	echo "writes have reached the device."
	echo
	echo "| device | device WA | write mean | p50 | p99 | p99.9 |"
	echo "|---|---|---|---|---|---|"
	for c in $TCS; do
		h=$(run "t_$c")
		jq -r --arg t "$(title_of "t_$c" | sed 's/^[^:]*: //')" '"| \($t) | \(.host_lfs.wa_device * 1000 | round / 1000) | \(.timing.latency_us.write | (.mean / 10 | round / 100)) ms | \(.timing.latency_us.write | (.p50 / 10 | round / 100)) ms | \(.timing.latency_us.write | (.p99 / 10 | round / 100)) ms | \(.timing.latency_us.write | (.p99_9 / 10 | round / 100)) ms |"' "$R/$h.json"
	done
	echo
} >>"$D/extra.md.new"

h=$(run fc_fdpp)
{
	echo "Three workloads from tracegen, each on eight devices; greedy victims, OP $OPPC% (T = $(fmt "$(calc "1 + $h_op")" 3) U), b = $B pages,"
	echo "U = $PAGES pages, $WRITES U requests after the fill (WARP fills itself), WA over the requests after the first"
	echo "$WARMUP U host page writes. The workloads: CacheLib's flash cache (\`-p flashcache\`: a small-object region of"
	echo "random bucket writes beside a FIFO log of 16 MiB regions; Allison et al., EuroSys'25), WARP's three streams"
	echo "(\`-p warp\`: sequential, random, and an adversary overwriting the sequential stream's pages; Song et al.,"
	echo "FAST'26), and hot/cold 90/10 with $(calc "$TRIM_Q * 100")% of the requests discards. The devices: a block SSD"
	echo "without TRIM, with TRIM (online), with the discards batched as a periodic fstrim (every $BATCH_S s of trace time:"
	echo "$(calc "$BATCH_S * 1e6") requests, tracegen's being 1 us apart) and with $(calc "$LOSS * 100")% of them lost; an NVMe FDP SSD with $(tj "$(run fc_fdpi)" .fdp.handles) handles (\`--fdp\`), each"
	echo "write tagged by the host with its stream or temperature label (\`--host-placement oracle:4\`), GC copies mixed"
	echo "(initially isolated) or kept per handle (persistently isolated); a ZNS SSD of $(size_h "$SEG") zones under a host log of"
	echo "$(size_h "$SEG") segments (\`--zoned\`, \`--host-lfs\`: greedy, $(fmt "$(calc "100 * ($(tj "$(run fc_zns)" .host_lfs.log_pages) - $(tj "$(run fc_zns)" .host_lfs.fs_pages)) / $(tj "$(run fc_zns)" .host_lfs.fs_pages)")" 1)% of its own spare, zones reset when cleaned), and a block"
	echo "SSD under the same host log (its segments aligned to the device's, discarded when cleaned)."
	echo
	echo "    bin/tracegen $(args_of "$h" gen) -o bin | bin/ftlsim $(args_of "$h" sim)$(outputs_of "$h") -"
	echo
} >"$D/setup.md"
finish
