#!/bin/sh
# tests/bench_onepass.sh - `make bench`: several models from one read of
# the trace. (1) A grid of 8 configurations over a 306 MB real-derived
# trace (the MSR hm_0 sample replicated, gzip-compressed, so that every
# read decompresses and parses it) in one pass, against the 8 separate
# runs, at -j1 and -j2. (2) --per-volume over a 1,000-volume synthetic
# trace against a single-volume trace of as many events. (3) One footprint
# run over the same trace with --footprints (tracestat's table made once)
# against the two passes without. Ratios within this run; wall time for
# the threads, CPU time (user + system) too.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
D=${BENCH_DIR:-bench-data}
mkdir -p "$D"
S=traces/samples
if [ ! -s "$D/msr1p.csv.gz" ]; then
	echo "making $D/msr1p.csv.gz (hm_0 sample x 6000, gzip -1)..." >&2
	i=0
	while [ $i -lt 6000 ]; do cat $S/msr/hm_0-head1000.csv; i=$((i + 1)); done | gzip -1 >"$D/msr1p.csv.gz.tmp"
	mv "$D/msr1p.csv.gz.tmp" "$D/msr1p.csv.gz"
fi
# run LABEL CMD...: wall and CPU seconds of one run into $D/.t.LABEL
run() {
	l=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$D/.t.$l" "$@" >/dev/null 2>&1
}
wall() { awk '{ print $1 }' "$D/.t.$1"; }
cpu() { awk '{ print $2 + $3 }' "$D/.t.$1"; }
ratio() { echo "$1 / $2" | bc -l | awk '{ printf "%.2f", $1 }'; }

T="$D/msr1p.csv.gz"
O="--logical-space footprint --pages-per-segment 4"
mb=$(gzip -dc "$T" | wc -c | awk '{ printf "%.0f", $1 / 1e6 }')
gzmb=$(stat -c %s "$T" | awk '{ printf "%.1f", $1 / 1e6 }')
sw=0 sc=0
for p in greedy cb fifo windowed:8; do
	for op in 0.15 0.28; do
		run one bin/ftlsim -q -j1 $O --policy $p --op $op "$T"
		sw=$(echo "$sw + $(wall one)" | bc -l)
		sc=$(echo "$sc + $(cpu one)" | bc -l)
	done
done
run g1 bin/ftlsim -q -j1 $O --grid "policy=greedy,cb,fifo,windowed:8 op=0.15,0.28" "$T"
run g2 bin/ftlsim -q -j2 $O --grid "policy=greedy,cb,fifo,windowed:8 op=0.15,0.28" "$T"
run ts bin/tracestat -q --per-volume "$D/msr1p-vols.csv" "$T"
run two bin/ftlsim -q -j1 $O "$T"
run fp bin/ftlsim -q -j1 $O --footprints "$D/msr1p-vols.csv" "$T"
echo "one pass, grid of 8 (4 policies x 2 OP) over hm_0 x 6000 ($mb MB of CSV, $gzmb MB gzip), footprint, b = 4:"
printf '  8 separate runs -j1: %.2f s wall, %.2f s CPU\n' "$sw" "$sc"
printf '  --grid -j1:          %.2f s wall, %.2f s CPU  (%sx wall, %sx CPU faster than the 8 runs)\n' \
	"$(wall g1)" "$(cpu g1)" "$(ratio "$sw" "$(wall g1)")" "$(ratio "$sc" "$(cpu g1)")"
printf '  --grid -j2:          %.2f s wall, %.2f s CPU  (%sx wall faster than -j1)\n' \
	"$(wall g2)" "$(cpu g2)" "$(ratio "$(wall g1)" "$(wall g2)")"
printf '  one run, --footprints (tracestat table, made once in %.2f s): %.2f s wall, %.2f s CPU, against %.2f s, %.2f s for the two passes (%sx wall, %sx CPU faster)\n' \
	"$(wall ts)" "$(wall fp)" "$(cpu fp)" "$(wall two)" "$(cpu two)" "$(ratio "$(wall two)" "$(wall fp)")" \
	"$(ratio "$(cpu two)" "$(cpu fp)")"

if [ ! -s "$D/vol1000.ev" ]; then
	echo "making $D/vol1000.ev and $D/vol1.ev (hotcold, 4 Mi pages, 4 Mi writes after the fill)..." >&2
	bin/tracegen -p hotcold --volumes 1000 -n 4M -w 4M --fill -s 5 -o bin >"$D/vol1000.ev" 2>/dev/null
	bin/tracegen -p hotcold -n 4M -w 4M --fill -s 5 -o bin >"$D/vol1.ev" 2>/dev/null
fi
run v1 bin/ftlsim -q -j1 --pages-per-segment 64 "$D/vol1.ev"
run v1000 bin/ftlsim -q -j1 --per-volume --pages-per-segment 64 "$D/vol1000.ev"
run v1000j2 bin/ftlsim -q -j2 --per-volume --pages-per-segment 64 "$D/vol1000.ev"
# the event files: a 16-byte header, 32 bytes an event
e1=$(stat -c %s "$D/vol1.ev" | awk '{ print ($1 - 16) / 32 }')
e1000=$(stat -c %s "$D/vol1000.ev" | awk '{ print ($1 - 16) / 32 }')
echo "per volume: hotcold, 1,000 volumes (lognormal sizes and rates) against one volume, 4 Mi pages, b = 64:"
printf '  one volume   -j1: %.0f events, %.2f s wall, %.3g events/s\n' "$e1" "$(wall v1)" \
	"$(echo "$e1 / $(wall v1)" | bc -l)"
printf '  --per-volume -j1: %.0f events, %.2f s wall, %.3g events/s (%sx the time per event)\n' "$e1000" \
	"$(wall v1000)" "$(echo "$e1000 / $(wall v1000)" | bc -l)" \
	"$(echo "($(wall v1000) / $e1000) / ($(wall v1) / $e1)" | bc -l | awk '{ printf "%.2f", $1 }')"
printf '  --per-volume -j2: %.2f s wall (%sx faster than -j1)\n' "$(wall v1000j2)" \
	"$(ratio "$(wall v1000)" "$(wall v1000j2)")"
