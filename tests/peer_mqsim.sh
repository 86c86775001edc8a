#!/bin/sh
# peer_mqsim.sh: request latencies of the same timestamped workloads in
# MQSim (Tavakkol et al., "MQSim: A Framework for Enabling Realistic
# Studies of Modern Multi-Queue SSD Devices", FAST'18;
# github.com/CMU-SAFARI/MQSim) and in ftlsim's timing model, on FEMU's
# flash times (tR 40 us, tPROG 200 us, tBERS 2 ms, no transfer time;
# Li et al., "The CASE of FEMU", FAST'18). MQSim is not part of ftlkit
# nor of make check: build it yourself (g++, make) and name the binary:
#   git clone https://github.com/CMU-SAFARI/MQSim && make -C MQSim
#   MQSIM=$PWD/MQSim/MQSim sh tests/peer_mqsim.sh [CASE...]
# Without MQSIM it says so and exits 0.
#
# Cases (default: all six), each replayed open loop at its timestamps:
#   w1    Poisson arrivals of 4 KiB random writes over 16384 pages,
#         1 channel x 1 die, every die at load RHO, no GC
#   r1    the same footprint written once (paced), then Poisson 4 KiB
#         random reads of it; only the reads are measured
#   msr1  the MSR Cambridge hm_0 sample (traces/samples/msr), its
#         timestamps divided by SPEEDUP, addresses folded into the drive
#   w32 r32 msr32  the same on 8 channels x 4 dies (65536 pages)
#   g1    GC: a drive of GC_BLOCKS blocks of 256 pages per die, its whole
#         logical space U written once in order (paced), then
#         max(N, GC_DW x U) Poisson 4 KiB writes uniformly over all of
#         it at a rate that loads each die to RHO at the steady-state WA
#         (greedy's mean field, bin/wamodel, at the spare left after the
#         blocks both simulators keep free); WA over the random writes,
#         latencies over those after the first GC_WARM x U of them.
#         1 channel x 1 die. ftlkit's rows: its GC copies in a stream of
#         their own (--placement sepgc), as MQSim's; ftl-1log: one log
#   g32   the same on 8 channels x 4 dies
#   p1    w1 on a die of 2 planes (multi-plane commands): ftlkit with
#         multiplane=on (ftlkit) and off (ftl-mpoff)
#   c1    r1 with a cached mapping table of CMT_ENTRIES entries on both
#         sides (MQSim: Ideal_Mapping_Table false, the whole trace in one
#         flow, so the reads read the fill's pages; ftlsim: cmt_mib and
#         cmt_entry_bytes of the same entries and translation page);
#         the notes give both sides' read hits and mapping reads and
#         writes. Stock MQSim never programs a translation page it
#         writes back, so its misses read nothing once every page has
#         been written back (docs/peer-mqsim-notes.md)
# Environment: N (Poisson requests per case, default 200000), RHO (load of
# each die, default 0.5), SEED (default 1), SPEEDUP (default 1),
# PCIE_GBPS (MQSim's PCIe lane bandwidth, GB/s; default 1000000, i.e. no
# host-interface time; 1.0 is MQSim's example), GC_BLOCKS (blocks per
# die in the GC cases, default 256), GC_DW (least random writes of the GC
# cases in drive writes, default 5), GC_WARM (drive writes of random
# writes before the GC cases' latencies count, default 2), MQSIM_SPEED (a second MQSim binary,
# e.g. the stock build, run once more per case for its CPU time alone),
# SPEED_REPS (ftlsim runs per form for its CPU time, the least kept;
# default 3), KEEP=DIR (keep the traces, configurations and MQSim's
# outputs there), FTLSIM_DEVICE (see ftlkit_side), CMT_ENTRIES (mapping
# entries cached in c1, default 8192).
#
# The device files are tests/peer/mqsim-ssd.xml and mqsim-flow.xml;
# docs/peer-mqsim-notes.md says what they match, what MQSim adds to a
# request's latency and what cannot be matched.
#
# Output: one row per case, side and request type: count, mean,
# percentiles (nearest rank) and max in us; for the Poisson cases the
# M/D/1 (Pollaczek-Khinchine) mean of one die, with flash time only
# (mdl1) and with MQSim's fixed per-command cycles (mdl1+); WA over the
# measured requests' window (flash programs / host page writes); each
# side's run time (wall, CPU s) and requests simulated per CPU second
# (the requests of the whole trace, fill included). Then a speed table:
# requests per CPU second of MQSim (and of MQSIM_SPEED), of ftlsim on
# the trace file and on its ftlkit event stream (tracecat -o bin), and
# the ratios.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$TOP/bin}
PEER=$TOP/tests/peer
if [ -z "${MQSIM:-}" ]; then
	echo "peer_mqsim: MQSIM is not set: nothing to compare (build MQSim, then MQSIM=/path/to/MQSim sh $0)"
	exit 0
fi
[ -x "$MQSIM" ] || { echo "peer_mqsim: MQSIM=$MQSIM is not an executable" >&2; exit 2; }
[ -x "$BIN/tracecat" ] || { echo "peer_mqsim: no $BIN/tracecat: run make first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "peer_mqsim: no /usr/bin/time (Debian: time)" >&2; exit 2; }
N=${N:-200000}
RHO=${RHO:-0.5}
SEED=${SEED:-1}
SPEEDUP=${SPEEDUP:-1}
PCIE_GBPS=${PCIE_GBPS:-1000000}
GC_BLOCKS=${GC_BLOCKS:-256}
GC_DW=${GC_DW:-5}
GC_WARM=${GC_WARM:-2}
SPEED_REPS=${SPEED_REPS:-3}
CMT_ENTRIES=${CMT_ENTRIES:-8192}
if [ -n "${MQSIM_SPEED:-}" ] && [ ! -x "$MQSIM_SPEED" ]; then
	echo "peer_mqsim: MQSIM_SPEED=$MQSIM_SPEED is not an executable" >&2
	exit 2
fi
for v in "N=$N" "SEED=$SEED" "GC_BLOCKS=$GC_BLOCKS" "GC_DW=$GC_DW" "GC_WARM=$GC_WARM" \
	"SPEED_REPS=$SPEED_REPS" "CMT_ENTRIES=$CMT_ENTRIES"; do
	case ${v#*=} in '' | *[!0-9]*) echo "peer_mqsim: ${v%%=*} must be a whole number" >&2; exit 2 ;; esac
done
awk -v r="$RHO" -v s="$SPEEDUP" 'BEGIN { exit !(r > 0 && r < 1 && s > 0) }' ||
	{ echo "peer_mqsim: RHO must be in (0,1) and SPEEDUP > 0" >&2; exit 2; }
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	W=$(cd "$KEEP" && pwd)
else
	W=$(mktemp -d "${TMPDIR:-/tmp}/peer_mqsim.XXXXXX")
	trap 'rm -rf "$W"' EXIT
fi
[ "$GC_BLOCKS" -ge 64 ] && [ "$SPEED_REPS" -ge 1 ] && [ "$GC_WARM" -lt "$GC_DW" ] || {
	echo "peer_mqsim: GC_BLOCKS must be at least 64, SPEED_REPS at least 1, GC_WARM below GC_DW" >&2
	exit 2
}
CASES=${*:-w1 r1 msr1 w32 r32 msr32 g1 g32 p1 c1}
for c in $CASES; do
	case $c in w1 | r1 | msr1 | w32 | r32 | msr32 | g1 | g32 | p1 | c1) ;;
	*) echo "peer_mqsim: unknown case $c (w1 r1 msr1 w32 r32 msr32 g1 g32 p1 c1)" >&2; exit 2 ;; esac
done

# FEMU's flash times (ns); MQSim's fixed ONFI cycles in front of each
# command (ONFI_Channel_NVDDR2's defaults: read tCS + 6 tWC + tWB + tRR
# = 290 ns plus the chip's 20 ns ready/busy delay, program tCS + 6 tWC
# + tADL + tWPST + tWPSTH + tWB = 361 ns).
TR_NS=40000 TPROG_NS=200000 TBERS_NS=2000000
RD_CMD_NS=310 WR_CMD_NS=361
# Any rate above 1000 MT/s makes MQSim's data transfer 0 ns.
CHANNEL_MTS=1000000
SPARE=0.25
PAGES_PER_BLOCK=256
# MQSim's GC_Exec_Threshold (tests/peer/mqsim-ssd.xml)
GC_EXEC=0.05

# ---- workloads: MQSim ASCII traces "t_ns device lba sectors type" ----
# (type 0 write, 1 read; 512-byte sectors; ftlsim reads them with
# -f mqsim, so both sides replay the same file.)

# Poisson arrivals of single-page requests at random pages of a
# footprint, from a Park-Miller generator (exact in doubles, so gawk and
# mawk give the same file). T0 ns start, TYPE 0 or 1.
poisson() { # N MEAN_GAP_NS PAGES TYPE T0 SEED
	awk -v n="$1" -v gap="$2" -v pages="$3" -v type="$4" -v t="$5" -v seed="$6" '
	function rnd() { x = (x * 16807) % 2147483647; return x / 2147483647 }
	BEGIN {
		x = seed % 2147483646 + 1
		for (i = 0; i < 20; i++) rnd()
		for (i = 0; i < n; i++) {
			t += -log(1 - rnd()) * gap
			printf "%.0f 0 %d 8 %d\n", t, int(rnd() * pages) * 8, type
		}
	}'
}

# Pages 0..PAGES-1 written once in order, one every GAP_NS.
fill() { # PAGES GAP_NS
	awk -v n="$1" -v gap="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%.0f 0 %d 8 0\n", i * gap, i * 8 }'
}

# The MSR sample as MQSim ASCII (tracecat), times divided by SPEEDUP,
# start sectors folded into LIMIT sectors (a request that would cross the
# end moves back by whole pages).
msr_trace() { # LIMIT_SECTORS
	"$BIN/tracecat" -q -o mqsim "$TOP/traces/samples/msr/hm_0-head1000.csv" |
		awk -v s="$SPEEDUP" -v lim="$1" '{
			lba = $3 % lim
			if (lba + $4 > lim) lba -= 8 * int((lba + $4 - lim + 7) / 8)
			printf "%.0f %s %d %d %s\n", $1 / s, $2, lba, $4, $5
		}'
}

# Arrival times made strictly increasing (a tie moves 1 ns later): MQSim
# logs one line per completion time, so two requests that arrive at the
# same ns on different dies and finish together would share a line.
strict() {
	awk 'BEGIN { p = -1 } { t = $1 + 0; if (t <= p) t = p + 1; p = t
		printf "%.0f %s %s %s %s\n", t, $2, $3, $4, $5 }'
}

# ---- MQSim side ----
# One flow per request type present (MQSim reports per flow); each flow
# has half the logical space, so traces stay below U/2 pages.
mqsim_configs() { # DIR CHANNELS CHIPS BLOCKS PLANES
	d=$1 ch=$2 chips=$3
	ids() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i }'; }
	sed -e "s/@PCIE_GBPS@/$PCIE_GBPS/" -e "s/@SPARE@/$SPARE/" -e "s/@CHANNELS@/$ch/" \
		-e "s/@CHANNEL_MTS@/$CHANNEL_MTS/" -e "s/@CHIPS@/$chips/" -e "s/@TR_NS@/$TR_NS/g" \
		-e "s/@TPROG_NS@/$TPROG_NS/g" -e "s/@TBERS_NS@/$TBERS_NS/" -e "s/@BLOCKS@/$4/" \
		-e "s/@GC_EXEC@/$GC_EXEC/" -e "s/@PLANES@/$5/" \
		"$PEER/mqsim-ssd.xml" >"$d/ssd.xml"
	{
		echo '<?xml version="1.0" encoding="us-ascii"?>'
		echo '<MQSim_IO_Scenarios>'
		echo '	<IO_Scenario>'
		for f in "$d"/flow_*.trace; do
			sed -e "s/@CHANNEL_IDS@/$(ids "$ch")/" -e "s/@CHIP_IDS@/$(ids "$chips")/" \
				-e "s|@TRACE@|$f|" "$PEER/mqsim-flow.xml"
		done
		echo '	</IO_Scenario>'
		echo '</MQSim_IO_Scenarios>'
	} >"$d/workload.xml"
}

# Split TRACE by type into flow_0_write.trace, flow_1_read.trace (the
# flows' order in the workload), skipping an empty one: MQSim reads the
# first line of a flow's trace unchecked when it starts.
mqsim_split() { # DIR TRACE
	awk -v d="$1" '$5 == 0 { print > (d "/flow_0_write.trace") }
		$5 == 1 { print > (d "/flow_1_read.trace") }' "$2"
}

# Run MQSim (or BIN) in DIR; its outputs land beside workload.xml.
# Prints "wall_s cpu_s max_rss_kb".
mqsim_run() { # DIR [BIN]
	(cd "$1" && /usr/bin/time -f '%e %U %S %M' -o time.txt "${2:-$MQSIM}" -i ssd.xml -w workload.xml \
		</dev/null >mqsim.out 2>mqsim.err) && grep -q 'Simulation complete' "$1/mqsim.out" || {
		echo "peer_mqsim: MQSim failed in $1:" >&2
		tail -n 3 "$1/mqsim.out" "$1/mqsim.err" >&2
		exit 1
	}
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$1/time.txt"
}

# The latencies (us) of flow K, one a line. From a build of MQSim that
# prints "REQ flow is_read arrival_ns completion_ns" on stderr for every
# request (docs/peer-mqsim-notes.md gives the change): exact.
# From the stock MQSim: its per-completion log (period 0), in whole us
# (truncated: about 0.5 us below the exact values on average); a request
# that completes in the ns of the one just logged has no line of its own
# (it is averaged into the next line).
# Only requests arriving at T0_NS or later (default 0) count; from the
# stock log the arrival is the completion less the end-to-end delay.
mqsim_lat() { # DIR K [T0_NS]
	if grep -q '^REQ ' "$1/mqsim.err"; then
		awk -v k="$2" -v t0="${3:-0}" '$1 == "REQ" && $2 == k && $4 >= t0 {
			printf "%.3f\n", ($5 - $4) / 1000 }' "$1/mqsim.err"
	else
		tail -n +2 "$1/workload.IO_Flow.No_$2.log" |
			awk -F '\t' -v t0="${3:-0}" '($1 - $3) * 1000 >= t0 { print $3 }'
	fi
}

# count mean p50 p90 p99 p99.9 p99.99 max (nearest rank) of numbers, in
# two passes over a sorted file (millions of latencies in the GC cases)
stats() {
	sort -n >"$W/stats.tmp"
	awk -v n="$(wc -l <"$W/stats.tmp")" '
	function r(p,  k) { k = int(p * n); if (k < p * n) k++; return (k < 1) ? 1 : k }
	BEGIN { if (n == 0) { print "0 - - - - - - -"; exit }
		k[1] = r(.5); k[2] = r(.9); k[3] = r(.99); k[4] = r(.999); k[5] = r(.9999); j = 1 }
	{ s += $1; while (j <= 5 && NR == k[j]) q[j++] = $1; m = $1 }
	END { if (n) printf "%d %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", n, s / n, q[1], q[2], q[3], q[4], q[5], m }' \
		"$W/stats.tmp"
	rm -f "$W/stats.tmp"
}

# A value of MQSim's result XML: element NAME of the K-th (from 1) flow.
mqsim_xml() { # DIR NAME K
	awk -v n="$2" -v k="$3" 'index($0, "<" n ">") { if (++c == k) { gsub(/<[^>]*>|[ \t]/, ""); print; exit } }' \
		"$1/workload_scenario_1.xml"
}

# ---- ftlkit side ------------------------------------------------------
# ftlsim's timing model on the same trace file, geometry and times; it
# reads timing.latency_us.{read,write}.{count,mean,p50,p90,p99,p99_9,
# p99_99,max} from the JSON summary. Until ftlsim has --timing, it prints
# nothing and says so once. FTLSIM_DEVICE is the --device value, %c the
# channels and %d the dies per channel. Its speed: the least of
# SPEED_REPS runs' CPU time (timing.cpu_s, the process's user + system
# time) on the trace file, and the same on the trace as an ftlkit event
# stream (tracecat -o bin; the conversion, done once, is not counted).
FTL_NOTE=
FTLSIM_DEVICE=${FTLSIM_DEVICE:-femu,channels=%c,dies=%d,planes=%p,page_kib=4,xfer_us=0}
# the planes per die (%p) of the case, and keys the side adds to the device
planes=1 fk_more=
# SIDE ftlkit measures the speed too; WA is counted after FILL host pages.
ftlkit_side() { # NAME SIDE TRACE CHANNELS DIES LOGICAL_PAGES OPS FILL [FTLSIM_OPTION...]
	if ! "$BIN/ftlsim" --help 2>&1 | grep -q -- '--timing'; then
		[ -n "$FTL_NOTE" ] || echo "peer_mqsim: ftlsim has no --timing yet: ftlkit rows left out" >&2
		FTL_NOTE=1
		return 0
	fi
	fk_name=$1 fk_side=$2 fk_trace=$3 fk_dev=$(echo "$FTLSIM_DEVICE" | sed -e "s/%c/$4/" -e "s/%d/$5/" -e "s/%p/$planes/")$fk_more
	fk_lpages=$6 fk_ops=$7 fk_fill=$8
	shift 8
	fk_opts=${*:---pages-per-segment $PAGES_PER_BLOCK}
	# Same drive as MQSim's: logical space U = T (1 - SPARE), FEMU's
	# times, no transfer time; one block of 256 pages per segment and
	# die unless the case says otherwise (fk_opts: words without blanks).
	fk_run() { # INPUT FORMAT OUT.json
		# shellcheck disable=SC2086
		"$BIN/ftlsim" -q -f "$2" --timing --device "$fk_dev" --logical-pages "$fk_lpages" \
			--spare-factor "$SPARE" $fk_opts "$1" >"$3" 2>"$W/$fk_name.$fk_side.err" || {
			echo "peer_mqsim: ftlsim failed on $1:" >&2
			tail -n 3 "$W/$fk_name.$fk_side.err" >&2
			exit 1
		}
	}
	# the least of two CPU times
	fk_min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a != "" && a < b) ? a : b }'; }
	fk_out=$W/$fk_name.$fk_side
	t_start=$(date +%s.%N)
	fk_run "$fk_trace" mqsim "$fk_out.json"
	fk_wall=$(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	fk_cpu=$(jq .timing.cpu_s "$fk_out.json") fk_cpu_ev=
	if [ "$fk_side" = ftlkit ]; then
		"$BIN/tracecat" -q -f mqsim -o bin "$fk_trace" >"$fk_out.ev"
		i=0
		while [ $i -lt "$SPEED_REPS" ]; do
			if [ $i -gt 0 ]; then
				fk_run "$fk_trace" mqsim "$fk_out.rep.json"
				fk_cpu=$(fk_min "$fk_cpu" "$(jq .timing.cpu_s "$fk_out.rep.json")")
			fi
			fk_run "$fk_out.ev" ev "$fk_out.ev.json"
			fk_cpu_ev=$(fk_min "$fk_cpu_ev" "$(jq .timing.cpu_s "$fk_out.ev.json")")
			i=$((i + 1))
		done
		# The event stream must give the same answer as the text.
		for k in .flash_pages_written .timing.latency_us.write.mean .timing.latency_us.read.mean; do
			[ "$(jq "$k" "$fk_out.json")" = "$(jq "$k" "$fk_out.ev.json")" ] || {
				echo "peer_mqsim: $fk_name: ftlsim's $k differs on the event stream" >&2
				exit 1
			}
		done
		rm -f "$fk_out.ev" "$fk_out.rep.json" "$fk_out.ev.json"
		echo "$fk_name $(wc -l <"$fk_trace") ftlkit $fk_cpu" >>"$W/speed.txt"
		echo "$fk_name $(wc -l <"$fk_trace") ftlkit-ev $fk_cpu_ev" >>"$W/speed.txt"
	fi
	fk_reqs=$(awk -v n="$(wc -l <"$fk_trace")" -v c="$fk_cpu" 'BEGIN { printf "%.0f", (c > 0) ? n / c : 0 }')
	# WA after the fill, as MQSim's
	fk_wa=$(jq -r --argjson f "$fk_fill" '(.flash_pages_written - $f) / (.host_pages_written - $f)' "$fk_out.json")
	for op in $fk_ops; do
		jq -r --arg op "$op" '.timing.latency_us[$op] |
			"\(.count) \(.mean) \(.p50) \(.p90) \(.p99) \(.p99_9) \(.p99_99) \(.max)"' \
			"$fk_out.json" |
			awk '{ printf "%d", $1; for (i = 2; i <= 8; i++) printf " %.1f", $i; print "" }' |
			row "$fk_name" "$fk_side" "$op" - - "$fk_wa" "$fk_wall" "$fk_cpu" "$fk_reqs"
	done
	echo "# $fk_name $fk_side: $fk_opts; WA $(jq -r '"\(.wa_measured) in the latency window (\(.measured.host_pages_total - .measured.host_pages_before) host pages), \(.wa_total) with the fill; GC passes \(.gc_passes), segments cleaned \(.segments_cleaned), pages copied \(.gc_pages_copied); requests waited on GC \(.timing.requests_waited_on_gc); GC share of unit time \(.timing.gc_share_of_busy)"' "$fk_out.json")" >>"$W/notes.txt"
}

# ---- the table ----
printf '%-6s %-8s %-5s %7s %8s %8s %8s %8s %8s %8s %8s %7s %7s %6s %7s %7s %9s\n' \
	case side op count mean p50 p90 p99 p99.9 p99.99 max mdl1 mdl1+ wa wall_s cpu_s req/cpu_s
row() { # CASE SIDE OP MDL1 MDL1+ WA WALL CPU REQS  (stats on stdin)
	read -r n mean p50 p90 p99 p999 p9999 max
	printf '%-6s %-8s %-5s %7s %8s %8s %8s %8s %8s %8s %8s %7s %7s %6.3f %7s %7.3f %9s\n' \
		"$1" "$2" "$3" "$n" "$mean" "$p50" "$p90" "$p99" "$p999" "$p9999" "$max" "$4" "$5" \
		"$6" "$7" "$8" "$9"
}

# M/D/1 mean response time (us) of one die: service S ns, arrivals at
# RHO/F per die, F the flash time alone (the cases set the load on it).
md1() { # S_NS F_NS
	awk -v s="$1" -v f="$2" -v r="$RHO" 'BEGIN {
		rho = r * s / f; printf "%.1f", (s + rho * s / (2 * (1 - rho))) / 1000 }'
}

# Host pages written by the write lines of an MQSim trace (a partial
# page counts as a page), the lines from T0_NS on
host_pages() { # TRACE [T0_NS]
	awk -v t0="${2:-0}" '$5 == 0 && $1 >= t0 { n += int(($3 + $4 + 7) / 8) - int($3 / 8) } END { print n + 0 }' "$1"
}

# A count of MQSim's result XML (an attribute of the FTL element)
mqsim_count() { # DIR NAME
	sed -n "s/.*[ 	]$2=\"\([0-9]*\)\".*/\1/p" "$1/workload_scenario_1.xml"
}

one_case() { # NAME
	name=$1
	case $name in
	w32 | r32 | msr32 | g32) ch=8 chips=4 pages=65536 planes=1 ;;
	p1) ch=1 chips=1 pages=16384 planes=2 ;;
	*) ch=1 chips=1 pages=16384 planes=1 ;;
	esac
	dies=$((ch * chips))
	# Blocks per die: 1024 (1 GiB) or 256 (FEMU's), more when the N
	# requests and the fill would bring the free blocks near MQSim's GC
	# threshold (5%, at least 10 blocks); the GC cases: GC_BLOCKS.
	case $name in msr*) n=0 ;; *) n=$N ;; esac
	blocks=$(awk -v n="$n" -v f="$pages" -v k="$dies" -v b=$(( dies == 1 ? 1024 : 256 )) -v p=$PAGES_PER_BLOCK '
		BEGIN { m = int((n + f) / (p * k) * 1.25) + 64; print (m > b) ? m : b }')
	case $name in g*) blocks=$GC_BLOCKS ;; esac
	# Logical pages of the whole drive and of one MQSim flow.
	lpages=$(awk -v t=$((dies * planes * blocks * PAGES_PER_BLOCK)) -v s="$SPARE" 'BEGIN { printf "%d", t * (1 - s) }')
	half=$((lpages / 2))
	d=$W/$name
	rm -rf "$d"
	mkdir -p "$d"
	t=$d/trace.mqsim
	mdw=- mdw1=- mdr=- mdr1=-
	t0=0 warm=0
	set --
	case $name in
	w* | p*)
		poisson "$N" "$(awk -v s=$TPROG_NS -v r="$RHO" -v k=$dies 'BEGIN { print s / r / k }')" \
			"$pages" 0 0 "$SEED" >"$t"
		mdw=$(md1 $TPROG_NS $TPROG_NS) mdw1=$(md1 $((TPROG_NS + WR_CMD_NS)) $TPROG_NS)
		ops=write
		;;
	r* | c*)
		# the fill keeps each die at 80%; the reads start 10 ms after it
		gap=$(awk -v s=$TPROG_NS -v k=$dies 'BEGIN { printf "%.0f", s / 0.8 / k }')
		fill "$pages" "$gap" >"$t"
		poisson "$N" "$(awk -v s=$TR_NS -v r="$RHO" -v k=$dies 'BEGIN { print s / r / k }')" \
			"$pages" 1 $((pages * gap + 10000000)) "$SEED" >>"$t"
		mdr=$(md1 $TR_NS $TR_NS) mdr1=$(md1 $((TR_NS + RD_CMD_NS)) $TR_NS)
		ops=read
		;;
	msr*)
		msr_trace $((half * 8)) >"$t"
		ops="write read"
		;;
	g*)
		# MQSim cleans a plane when it takes a block and fewer than
		# max(GC_EXEC x blocks, 10) are free, and keeps three blocks of
		# each plane open: user, GC and translation write frontiers, the
		# last empty with the ideal mapping table. ftlsim with its GC
		# copies in a stream of their own (sepgc) keeps two open, so its
		# low mark is MQSim's threshold + 1 segments (a segment: a block
		# on every die); its single log (ftl-1log) keeps one open: + 2.
		# The spare left for garbage is then the same on every side.
		thr=$(awk -v x=$GC_EXEC -v b="$blocks" 'BEGIN { t = int(x * b); print (t < 10) ? 10 : t }')
		gclow=$((thr + 1))
		sfe=$(awk -v u="$lpages" -v t=$((dies * (blocks - gclow - 1) * PAGES_PER_BLOCK)) 'BEGIN { printf "%.6f", 1 - u / t }')
		wa=$("$BIN/wamodel" -m greedy-mf -s "$sfe" -b $PAGES_PER_BLOCK --csv | awk -F, 'NR == 2 { print $5 }')
		# a host write's flash time on its die at that WA: its program,
		# WA - 1 copies (a read and a program each), WA/b erases
		cost=$(awk -v w="$wa" -v r=$TR_NS -v p=$TPROG_NS -v e=$TBERS_NS -v b=$PAGES_PER_BLOCK \
			'BEGIN { printf "%.0f", p + (w - 1) * (r + p) + w / b * e }')
		gap=$(awk -v s=$TPROG_NS -v k=$dies 'BEGIN { printf "%.0f", s / 0.8 / k }')
		t0=$((lpages * gap + 10000000))
		nrand=$(awk -v n="$N" -v dw="$GC_DW" -v u="$lpages" 'BEGIN { m = dw * u; printf "%d", (n > m) ? n : m }')
		fill "$lpages" "$gap" >"$t"
		poisson "$nrand" "$(awk -v c="$cost" -v r="$RHO" -v k=$dies 'BEGIN { print c / r / k }')" \
			"$lpages" 0 $t0 "$SEED" >>"$t"
		ops=write
		warm=$((lpages + GC_WARM * lpages))
		echo "# $name: U $lpages pages on $dies x $blocks blocks of $PAGES_PER_BLOCK pages; fill of U" \
			"then $nrand random writes from $t0 ns at $(awk -v c="$cost" -v r="$RHO" -v k=$dies \
			'BEGIN { printf "%.0f", r * k / c * 1e9 }')/s, latencies after $warm writes; MQSim GC" \
			"threshold $thr blocks a plane, ftlsim --gc-low $gclow (sepgc), $((gclow + 1)) (one log);" \
			"spare factor left $sfe, greedy mean-field WA $wa, flash time per host write $cost ns" \
			>>"$W/notes.txt"
		set -- --pages-per-segment $((PAGES_PER_BLOCK * dies)) --warmup-writes $warm
		;;
	esac
	strict <"$t" >"$t.tmp" && mv "$t.tmp" "$t"
	# the latencies' window: from the arrival of write warm + 1 (the
	# trace's lines are in time order, one page each in the GC cases)
	tw=0
	[ "$warm" -eq 0 ] || tw=$(sed -n "$((warm + 1))p" "$t" | cut -d' ' -f1)
	case $name in
	c*)
		# one flow of the whole trace, its latencies from the first read
		cp "$t" "$d/flow_0_all.trace"
		tw=$((pages * gap + 10000000))
		mdr=- mdr1=- # M/D/1 of the reads alone does not apply
		mqsim_configs "$d" "$ch" "$chips" "$blocks" "$planes"
		# MQSim's entry sizes (Address_Mapping_Unit_Page_Level.cpp):
		# a cached entry ceil((2 log2 T + sectors a page) / 8) bytes, a
		# translation page's entry ceil((log2 T + sectors a page) / 8),
		# T the physical pages; ftlsim gets the latter as
		# cmt_entry_bytes (the same entries a translation page) and the
		# same number of cached entries
		cmt_b=$(awk -v t=$((dies * planes * blocks * PAGES_PER_BLOCK)) 'function c(x) { return (x == int(x)) ? x : int(x) + 1 }
			BEGIN { l = log(t) / log(2); printf "%d %d", c((2 * l + 8) / 8), c((l + 8) / 8) }')
		sed -e 's|<Ideal_Mapping_Table>true<|<Ideal_Mapping_Table>false<|' \
			-e "s|<CMT_Capacity>[0-9]*<|<CMT_Capacity>$((CMT_ENTRIES * ${cmt_b% *}))<|" \
			"$d/ssd.xml" >"$d/ssd.tmp" && mv "$d/ssd.tmp" "$d/ssd.xml"
		fk_more=$(awk -v n="$CMT_ENTRIES" -v b="${cmt_b#* }" 'BEGIN { printf ",cmt_mib=%.15g,cmt_entry_bytes=%d", n * b / 1048576, b }')
		;;
	*)
		mqsim_split "$d" "$t"
		mqsim_configs "$d" "$ch" "$chips" "$blocks" "$planes"
		;;
	esac
	res=$(mqsim_run "$d") || exit 1
	total=$(wc -l <"$t")
	wall=$(echo "$res" | cut -d' ' -f1) cpu=$(echo "$res" | cut -d' ' -f2) rss=$(echo "$res" | cut -d' ' -f3)
	reqs=$(awk -v n="$total" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0) ? n / c : 0 }')
	echo "$name $total mqsim $cpu" >>"$W/speed.txt"
	# WA over the measured window: flash programs of every kind less the
	# fill's (the GC cases), over the host pages written in it
	pg=0
	for cnt in Issued_Flash_Program_CMD Issued_Flash_Interleaved_Program_CMD \
		Issued_Flash_Multiplane_Program_CMD Issued_Flash_Interleaved_Multiplane_Program_CMD; do
		pg=$((pg + $(mqsim_count "$d" $cnt)))
	done
	hp=$(host_pages "$t" $t0)
	mwa=$(awk -v p=$pg -v f="$(host_pages "$t")" -v h="$hp" 'BEGIN { printf "%.4f", (h > 0) ? (p - (f - h)) / h : 0 }')
	k=0
	for f in "$d"/flow_*.trace; do
		k=$((k + 1))
		case $f in *write*) op=write md=$mdw md1=$mdw1 ;; *) op=read md=$mdr md1=$mdr1 ;; esac
		# r cases: the fill's writes are not measured
		case $name$op in r*write) continue ;; esac
		st=$(mqsim_lat "$d" $((k - 1)) "$tw" | stats)
		echo "$st" | row "$name" mqsim "$op" "$md" "$md1" "$mwa" "$wall" "$cpu" "$reqs"
		echo "# $name mqsim $op: $(wc -l <"$f") requests, ${st%% *}" \
			"latencies; XML mean end-to-end $(mqsim_xml "$d" End_to_End_Request_Delay $k) us," \
			"device response $(mqsim_xml "$d" Device_Response_Time $k) us (both truncated)" >>"$W/notes.txt"
	done
	# requests that never completed (MQSim drops a write that waited
	# behind GC's lock on its page: docs/peer-mqsim-notes.md)
	lost=$(($(wc -l <"$t") - $(grep -c '^REQ ' "$d/mqsim.err" || :)))
	grep -q '^REQ ' "$d/mqsim.err" || lost=unknown
	echo "# $name mqsim: $total requests ($lost never completed), flash reads $(mqsim_count "$d" Issued_Flash_Read_CMD)," \
		"programs $pg, erases $(mqsim_count "$d" Issued_Flash_Erase_CMD)," \
		"GC executions $(mqsim_count "$d" Total_GC_Executions), WL executions" \
		"$(mqsim_count "$d" Total_WL_Executions), max RSS $rss KiB" >>"$W/notes.txt"
	if [ -n "${MQSIM_SPEED:-}" ]; then
		# the other build, response-time logging off: CPU time alone
		mkdir -p "$d/speed"
		sed 's|<Enable_ResponseTime_Logging>true<|<Enable_ResponseTime_Logging>false<|' \
			"$d/ssd.xml" >"$d/speed/ssd.xml"
		cp "$d/workload.xml" "$d/speed/"
		res=$(mqsim_run "$d/speed" "$MQSIM_SPEED") || exit 1
		echo "$name $total mqsim-speed $(echo "$res" | cut -d' ' -f2)" >>"$W/speed.txt"
		# (MQSim's run is not independent of its logging: with GC the
		# counts may differ by a fraction of a percent)
		echo "# $name MQSIM_SPEED, logging off: $(mqsim_count "$d/speed" Issued_Flash_Program_CMD) programs," \
			"$(mqsim_count "$d/speed" Total_GC_Executions) GC executions" >>"$W/notes.txt"
		rm -rf "$d/speed"
	fi
	case $name in
	g*)
		ftlkit_side "$name" ftlkit "$t" "$ch" "$chips" "$lpages" "$ops" $lpages "$@" \
			--placement sepgc --gc-low $gclow
		ftlkit_side "$name" ftl-1log "$t" "$ch" "$chips" "$lpages" "$ops" $lpages "$@" \
			--gc-low $((gclow + 1))
		;;
	p*)
		ftlkit_side "$name" ftlkit "$t" "$ch" "$chips" "$lpages" "$ops" 0
		fk_more=,multiplane=off
		ftlkit_side "$name" ftl-mpoff "$t" "$ch" "$chips" "$lpages" "$ops" 0
		fk_more=
		;;
	c*)
		ftlkit_side "$name" ftlkit "$t" "$ch" "$chips" "$lpages" "$ops" 0
		fk_more=
		# read hits (MQSim counts only the measured reads' queries as
		# read queries; the fill's writes all miss on both sides), mapping
		# reads and writes; MQSim's translation programs actually run are
		# its programs less the host pages
		echo "# $name: $CMT_ENTRIES cached entries; MQSim CMT_Capacity $((CMT_ENTRIES * ${cmt_b% *})) bytes," \
			"read hits $(mqsim_count "$d" CMT_Hits_For_Read) of $(mqsim_count "$d" Total_CMT_Queries_For_Reads)," \
			"mapping reads $(mqsim_count "$d" Issued_Flash_Read_CMD_For_Mapping), mapping writes" \
			"$(mqsim_count "$d" Issued_Flash_Program_CMD_For_Mapping) of which programmed" \
			"$(($(mqsim_count "$d" Issued_Flash_Program_CMD) - $(host_pages "$t")))" >>"$W/notes.txt"
		[ ! -s "$W/$name.ftlkit.json" ] ||
			echo "# $name ftlkit: $(jq -r '.timing.cmt | "\(.entries) entries of \(.entry_bytes) bytes, hits \(.hits), misses \(.misses), translation reads \(.translation_reads), translation writes \(.translation_writes)"' \
				"$W/$name.ftlkit.json")" >>"$W/notes.txt"
		;;
	*) ftlkit_side "$name" ftlkit "$t" "$ch" "$chips" "$lpages" "$ops" 0 ;;
	esac
	[ -n "${KEEP:-}" ] || rm -rf "$d"
}

: >"$W/notes.txt"
: >"$W/speed.txt"
echo "# MQSim $MQSIM; N=$N RHO=$RHO SEED=$SEED SPEEDUP=$SPEEDUP PCIE_GBPS=$PCIE_GBPS" \
	"GC_BLOCKS=$GC_BLOCKS GC_DW=$GC_DW" >>"$W/notes.txt"
for c in $CASES; do
	one_case "$c"
done
cat "$W/notes.txt"

# Requests simulated per CPU second, every side on the same trace; the
# ratios against the faster MQSim figure.
echo
awk '{ cpu[$1, $3] = $4; n[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
function rate(c, s) { return ((c, s) in cpu && cpu[c, s] > 0) ? n[c] / cpu[c, s] : 0 }
END {
	printf "%-6s %9s %10s %10s %10s %10s %8s %8s\n", "case", "requests", "mqsim/s", "mqsim2/s",
		"ftlkit/s", "ftl-ev/s", "x(text)", "x(ev)"
	for (i = 1; i <= k; i++) {
		c = order[i]; m = rate(c, "mqsim"); m2 = rate(c, "mqsim-speed"); best = (m2 > m) ? m2 : m
		f = rate(c, "ftlkit"); e = rate(c, "ftlkit-ev")
		printf "%-6s %9d %10.0f %10s %10.0f %10.0f %8s %8s\n", c, n[c], m, m2 ? sprintf("%.0f", m2) : "-",
			f, e, (best && f) ? sprintf("%.1f", f / best) : "-", (best && e) ? sprintf("%.1f", e / best) : "-"
	}
}' "$W/speed.txt"
