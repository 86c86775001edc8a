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
# Environment: N (Poisson requests per case, default 200000), RHO (load of
# each die, default 0.5), SEED (default 1), SPEEDUP (default 1),
# PCIE_GBPS (MQSim's PCIe lane bandwidth, GB/s; default 1000000, i.e. no
# host-interface time; 1.0 is MQSim's example), KEEP=DIR (keep the
# traces, configurations and MQSim's outputs there), FTLSIM_DEVICE (see
# ftlkit_side).
#
# The device files are tests/peer/mqsim-ssd.xml and mqsim-flow.xml;
# docs/peer-mqsim-notes.md says what they match, what MQSim adds to a
# request's latency and what cannot be matched.
#
# Output: one row per case, side and request type: count, mean,
# percentiles (nearest rank) and max in us; for the Poisson cases the
# M/D/1 (Pollaczek-Khinchine) mean of one die, with flash time only
# (mdl1) and with MQSim's fixed per-command cycles (mdl1+); and MQSim's
# run time (wall, CPU s) and requests simulated per CPU second (the
# requests of the whole trace, fill included).
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
for v in "N=$N" "SEED=$SEED"; do
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
CASES=${*:-w1 r1 msr1 w32 r32 msr32}
for c in $CASES; do
	case $c in w1 | r1 | msr1 | w32 | r32 | msr32) ;;
	*) echo "peer_mqsim: unknown case $c (w1 r1 msr1 w32 r32 msr32)" >&2; exit 2 ;; esac
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
mqsim_configs() { # DIR CHANNELS CHIPS BLOCKS
	d=$1 ch=$2 chips=$3
	ids() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i }'; }
	sed -e "s/@PCIE_GBPS@/$PCIE_GBPS/" -e "s/@SPARE@/$SPARE/" -e "s/@CHANNELS@/$ch/" \
		-e "s/@CHANNEL_MTS@/$CHANNEL_MTS/" -e "s/@CHIPS@/$chips/" -e "s/@TR_NS@/$TR_NS/g" \
		-e "s/@TPROG_NS@/$TPROG_NS/g" -e "s/@TBERS_NS@/$TBERS_NS/" -e "s/@BLOCKS@/$4/" \
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

# Run MQSim in DIR; its outputs land beside workload.xml. Prints
# "wall_s cpu_s max_rss_kb".
mqsim_run() { # DIR
	(cd "$1" && /usr/bin/time -f '%e %U %S %M' -o time.txt "$MQSIM" -i ssd.xml -w workload.xml \
		</dev/null >mqsim.out 2>mqsim.err) && grep -q 'Simulation complete' "$1/mqsim.out" || {
		echo "peer_mqsim: MQSim failed in $1:" >&2
		tail -3 "$1/mqsim.out" "$1/mqsim.err" >&2
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
mqsim_lat() { # DIR K
	if grep -q '^REQ ' "$1/mqsim.err"; then
		awk -v k="$2" '$1 == "REQ" && $2 == k { printf "%.3f\n", ($5 - $4) / 1000 }' "$1/mqsim.err"
	else
		tail -n +2 "$1/workload.IO_Flow.No_$2.log" | cut -f3
	fi
}

# count mean p50 p90 p99 p99.9 p99.99 max (nearest rank) of numbers
stats() {
	sort -n | awk '
	{ v[NR] = $1; s += $1 }
	function q(p,  k) { k = int(p * NR); if (k < p * NR) k++; if (k < 1) k = 1; return v[k] }
	END {
		if (NR == 0) { print "0 - - - - - - -"; exit }
		printf "%d %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", NR, s / NR, q(.5), q(.9), q(.99), q(.999), q(.9999), v[NR]
	}'
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
# channels and %d the dies per channel.
FTL_NOTE=
FTLSIM_DEVICE=${FTLSIM_DEVICE:-femu,channels=%c,dies=%d,planes=1,page_kib=4,xfer_us=0}
ftlkit_side() { # NAME TRACE CHANNELS DIES LOGICAL_PAGES OPS
	if ! "$BIN/ftlsim" --help 2>&1 | grep -q -- '--timing'; then
		[ -n "$FTL_NOTE" ] || echo "peer_mqsim: ftlsim has no --timing yet: ftlkit rows left out" >&2
		FTL_NOTE=1
		return 0
	fi
	# Same drive as MQSim's: logical space U = T (1 - SPARE), one
	# block of 256 pages per segment, FEMU's times, no transfer time.
	/usr/bin/time -f '%e %U %S' -o "$W/$1.ftlsim.time" "$BIN/ftlsim" -q -f mqsim --timing \
		--device "$(echo "$FTLSIM_DEVICE" | sed -e "s/%c/$3/" -e "s/%d/$4/")" \
		--logical-pages "$5" --spare-factor "$SPARE" --pages-per-segment $PAGES_PER_BLOCK \
		"$2" >"$W/$1.ftlsim.json" 2>"$W/$1.ftlsim.err" ||
		{ echo "peer_mqsim: ftlsim failed on $1:" >&2; tail -3 "$W/$1.ftlsim.err" >&2; return 0; }
	set -- "$1" "$6" $(awk '{ printf "%s %.2f", $1, $2 + $3 }' "$W/$1.ftlsim.time")
	reqs=$(awk -v n="$(wc -l <"$t")" -v c="$4" 'BEGIN { printf "%.0f", (c > 0) ? n / c : 0 }')
	for op in $2; do
		jq -r --arg op "$op" '.timing.latency_us[$op] |
			"\(.count) \(.mean) \(.p50) \(.p90) \(.p99) \(.p99_9) \(.p99_99) \(.max)"' \
			"$W/$1.ftlsim.json" | row "$1" ftlkit "$op" - - "$4" "$3" "$reqs"
	done
}

# ---- the table ----
printf '%-6s %-6s %-5s %7s %8s %8s %8s %8s %8s %8s %8s %7s %7s %7s %7s %8s\n' \
	case side op count mean p50 p90 p99 p99.9 p99.99 max mdl1 mdl1+ wall_s cpu_s req/cpu_s
row() { # CASE SIDE OP MDL1 MDL1+ CPU [WALL REQS]  (stats on stdin)
	read -r n mean p50 p90 p99 p999 p9999 max
	printf '%-6s %-6s %-5s %7s %8s %8s %8s %8s %8s %8s %8s %7s %7s %7s %7s %8s\n' \
		"$1" "$2" "$3" "$n" "$mean" "$p50" "$p90" "$p99" "$p999" "$p9999" "$max" "$4" "$5" \
		"${7:--}" "$6" "${8:--}"
}

# M/D/1 mean response time (us) of one die: service S ns, arrivals at
# RHO/F per die, F the flash time alone (the cases set the load on it).
md1() { # S_NS F_NS
	awk -v s="$1" -v f="$2" -v r="$RHO" 'BEGIN {
		rho = r * s / f; printf "%.1f", (s + rho * s / (2 * (1 - rho))) / 1000 }'
}

one_case() { # NAME
	name=$1
	case $name in
	w32 | r32 | msr32) ch=8 chips=4 pages=65536 ;;
	*) ch=1 chips=1 pages=16384 ;;
	esac
	dies=$((ch * chips))
	# Blocks per die: 1024 (1 GiB) or 256 (FEMU's), more when the N
	# requests and the fill would bring the free blocks near MQSim's GC
	# threshold (5%, at least 10 blocks).
	case $name in msr*) n=0 ;; *) n=$N ;; esac
	blocks=$(awk -v n="$n" -v f="$pages" -v k="$dies" -v b=$(( dies == 1 ? 1024 : 256 )) -v p=$PAGES_PER_BLOCK '
		BEGIN { m = int((n + f) / (p * k) * 1.25) + 64; print (m > b) ? m : b }')
	# Logical pages of the whole drive and of one MQSim flow.
	lpages=$(awk -v t=$((dies * blocks * PAGES_PER_BLOCK)) -v s="$SPARE" 'BEGIN { printf "%d", t * (1 - s) }')
	half=$((lpages / 2))
	d=$W/$name
	rm -rf "$d"
	mkdir -p "$d"
	t=$d/trace.mqsim
	mdw=- mdw1=- mdr=- mdr1=-
	case $name in
	w*)
		poisson "$N" "$(awk -v s=$TPROG_NS -v r="$RHO" -v k=$dies 'BEGIN { print s / r / k }')" \
			"$pages" 0 0 "$SEED" >"$t"
		mdw=$(md1 $TPROG_NS $TPROG_NS) mdw1=$(md1 $((TPROG_NS + WR_CMD_NS)) $TPROG_NS)
		ops=write
		;;
	r*)
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
	esac
	strict <"$t" >"$t.tmp" && mv "$t.tmp" "$t"
	mqsim_split "$d" "$t"
	mqsim_configs "$d" "$ch" "$chips" "$blocks"
	res=$(mqsim_run "$d") || exit 1
	set -- $res
	wall=$1 cpu=$2 rss=$3
	total=$(wc -l <"$t")
	reqs=$(awk -v n="$total" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0) ? n / c : 0 }')
	k=0
	for f in "$d"/flow_*.trace; do
		k=$((k + 1))
		case $f in *write*) op=write md=$mdw md1=$mdw1 ;; *) op=read md=$mdr md1=$mdr1 ;; esac
		# r cases: the fill's writes are not measured
		case $name$op in r*write) continue ;; esac
		st=$(mqsim_lat "$d" $((k - 1)) | stats)
		echo "$st" | row "$name" mqsim "$op" "$md" "$md1" "$cpu" "$wall" "$reqs"
		echo "# $name mqsim $op: $(wc -l <"$f") requests, ${st%% *}" \
			"latencies; XML mean end-to-end $(mqsim_xml "$d" End_to_End_Request_Delay $k) us," \
			"device response $(mqsim_xml "$d" Device_Response_Time $k) us (both truncated)" >>"$W/notes.txt"
	done
	gc=$(sed -n 's/.*Total_GC_Executions="\([0-9]*\)".*/\1/p' "$d/workload_scenario_1.xml")
	rd=$(sed -n 's/.*Issued_Flash_Read_CMD="\([0-9]*\)".*/\1/p' "$d/workload_scenario_1.xml")
	pg=$(sed -n 's/.*Issued_Flash_Program_CMD="\([0-9]*\)".*/\1/p' "$d/workload_scenario_1.xml")
	echo "# $name mqsim: $total requests, flash reads $rd, programs $pg, GC executions $gc," \
		"max RSS $rss KiB" >>"$W/notes.txt"
	ftlkit_side "$name" "$t" "$ch" "$chips" "$lpages" "$ops"
}

: >"$W/notes.txt"
echo "# MQSim $MQSIM; N=$N RHO=$RHO SEED=$SEED SPEEDUP=$SPEEDUP PCIE_GBPS=$PCIE_GBPS" >>"$W/notes.txt"
for c in $CASES; do
	one_case "$c"
done
cat "$W/notes.txt"
