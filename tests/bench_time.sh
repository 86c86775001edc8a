#!/bin/sh
# tests/bench_time.sh - the device in time's cost: ftlsim on the same
# uniform workload (2^20 pages, 6 M writes, OP 0.1) counting only, and
# with a device in time (femu profile, 8 x 8 dies, closed loop QD 32),
# alternated five times; the ratio of the medians of CPU seconds per
# event (target: at most 2). The memory the timing adds (--dry-run).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
D=${BENCH_DIR:-bench-data}
mkdir -p "$D"
ev="$D/time-uniform.ev"
[ -s "$ev" ] || bin/tracegen -p uniform -n 1048576 -w 6000000 -s 1 -o bin >"$ev" 2>/dev/null
runs=${BENCH_TIME_RUNS:-5}
: >"$D/time-cpu.txt"
i=0
while [ "$i" -lt "$runs" ]; do
	a=$(bin/ftlsim -q --op 0.1 "$ev" | jq .timing.cpu_s)
	b=$(bin/ftlsim -q --op 0.1 --device femu --qd 32 "$ev" | jq .timing.cpu_s)
	echo "$a $b" >>"$D/time-cpu.txt"
	i=$((i + 1))
done
sort -n -k1,1 "$D/time-cpu.txt" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' >"$D/time-a"
sort -n -k2,2 "$D/time-cpu.txt" | awk '{ b[NR] = $2 } END { print b[int((NR + 1) / 2)] }' >"$D/time-b"
a=$(cat "$D/time-a") b=$(cat "$D/time-b")
echo "== the device in time: CPU per event against the counting model (6 M events, $runs runs alternated)"
awk -v a="$a" -v b="$b" 'BEGIN { printf "counting only   %.3f s  %.0f ns/event\nwith timing     %.3f s  %.0f ns/event\nratio           %.2fx (target <= 2)\n", a, a / 6e6 * 1e9, b, b / 6e6 * 1e9, b / a }'
m0=$(bin/ftlsim -q --op 0.1 --dry-run "$ev" | jq .memory.model_bytes)
m1=$(bin/ftlsim -q --op 0.1 --device femu --qd 32 --dry-run "$ev" | jq .memory.model_bytes)
echo "memory (--dry-run): $m0 bytes counting, $m1 with timing (+$((m1 - m0)): queues, histograms)"
