#!/bin/sh
# tests/bench_host.sh - what the host interfaces cost: CPU seconds per
# host page write of ftlsim on an FDP device (--fdp, four handles, both
# isolation modes), a zoned device (--zoned) and under a host log
# (--host-lfs), each against the single log on the same writes, run
# alternately; the ratio of the medians (targets: FDP and zoned at most
# 1.2x, a host log at most 2.5x).
#   - FDP: uniform random 4 KiB writes over 2^20 pages, 6 M, each page's
#     writes under handle (page mod 4); the single log reads the same
#     stream and ignores the handles.
#   - zoned: 4096 zones of 256 pages written in 64-page requests in
#     turn, each zone reset before it is written again (a FIFO of zones,
#     6 M pages); the single log gets the same writes without the resets.
#   - host log: the uniform writes under a host log of 1 MiB segments
#     (its own spare 0.07, the device's 0.1 over the log): against the
#     single log at the device's spare, and at the log's own (the same
#     cleaning done once, not twice).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
D=${BENCH_DIR:-bench-data}
mkdir -p "$D"
runs=${BENCH_HOST_RUNS:-5}
N=6000000
uni="$D/host-uniform4.ev"
if [ ! -s "$uni" ]; then
	bin/tracegen -p uniform -n 1048576 -w $N -s 1 -o text 2>/dev/null |
		awk '!/^#/ { $6 = 0; $7 = ($3 / 4096) % 4 + 1; print }' | bin/tracecat -q -o bin - >"$uni"
fi
zns="$D/host-zones.ev"
seq="$D/host-zones-writes.ev"
if [ ! -s "$zns" ]; then
	awk -v n=$N 'BEGIN { Z = 256; nz = 4096; w = 0; t = 0
		while (w < n) { for (z = 0; z < nz && w < n; z++) {
			if (w >= nz * Z) printf "%d ZR %d %d 0\n", t++, z * Z * 4096, Z * 4096
			for (k = 0; k < Z && w < n; k += 64) { printf "%d W %d %d 0\n", t++, (z * Z + k) * 4096, 64 * 4096; w += 64 } } } }' |
		bin/tracecat -q -o bin - >"$zns"
	bin/tracecat -q -o text "$zns" | awk '$2 != "ZR"' | bin/tracecat -q -o bin - >"$seq"
fi
GEO="--logical-pages 1048576 --op 0.1"
cpu() { bin/ftlsim -q "$@" | jq .timing.cpu_s; }
: >"$D/host-cpu.txt"
i=0
while [ "$i" -lt "$runs" ]; do
	echo "$(cpu $GEO "$uni") $(cpu $GEO --fdp handles=4 "$uni") $(cpu $GEO --fdp handles=4,isolation=persistent "$uni") \
$(cpu $GEO --host-lfs segment=1M "$uni") $(cpu $GEO "$seq") \
$(cpu --logical-pages 1048576 --zoned size=1M "$zns") $(cpu --logical-pages 1048576 --op 0.07 "$uni")" >>"$D/host-cpu.txt"
	i=$((i + 1))
done
med() { sort -n -k"$1","$1" "$D/host-cpu.txt" | awk -v c="$1" '{ a[NR] = $c } END { print a[int((NR + 1) / 2)] }'; }
single=$(med 1) fdpi=$(med 2) fdpp=$(med 3) lfs=$(med 4) seqs=$(med 5) zoned=$(med 6) s07=$(med 7)
echo "== host interfaces: CPU per host page write against the single log on the same writes ($runs runs alternated)"
awk -v s="$single" -v a="$fdpi" -v b="$fdpp" -v l="$lfs" -v q="$seqs" -v z="$zoned" -v s7="$s07" -v n=$N 'BEGIN {
	printf "single log, uniform (4 handles ignored)  %.3f s  %.0f ns/write\n", s, s / n * 1e9
	printf "FDP, 4 handles, initially isolated       %.3f s  %.0f ns/write  %.2fx (target <= 1.2)\n", a, a / n * 1e9, a / s
	printf "FDP, 4 handles, persistently isolated    %.3f s  %.0f ns/write  %.2fx (target <= 1.2)\n", b, b / n * 1e9, b / s
	printf "single log, spare 0.07 (the host log'"'"'s)   %.3f s  %.0f ns/write\n", s7, s7 / n * 1e9
	printf "host log (1 MiB segments) on the FTL     %.3f s  %.0f ns/write  %.2fx the single log at 0.1, %.2fx at 0.07 (target <= 2.5)\n", l, l / n * 1e9, l / s, l / s7
	printf "single log, zone-ordered writes          %.3f s  %.0f ns/write\n", q, q / n * 1e9
	printf "zoned device, the same with resets       %.3f s  %.0f ns/write  %.2fx (target <= 1.2)\n", z, z / n * 1e9, z / q }'
