#!/bin/sh
# tests/bench_scale.sh - `make bench-scale`: a synthetic trace of
# SCALE_GIB GiB of event stream (32 bytes an event; default 64 GiB, 2^31
# events) streamed tracegen | tracecat | ftlsim without touching the disk.
# Reports each stage's peak memory: the reader's must not grow with the
# trace (run it at two sizes to see), the model's is set by the device.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s all
GIB=${SCALE_GIB:-64}
U=$((1 << 22)) # 16 GiB logical device of 4 KiB pages
N=$((GIB * (1 << 30) / 32))
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
start=$(date +%s)
/usr/bin/time -f "%M" -o "$t/gen" bin/tracegen -p uniform -n $U -w $N -s 1 -o bin 2>/dev/null |
	/usr/bin/time -f "%M %U %S" -o "$t/cat" bin/tracecat -q -f ev -o bin - |
	/usr/bin/time -f "%M %U %S" -o "$t/sim" bin/ftlsim -q --logical-pages $U --op 0.1 \
		--pages-per-segment 256 --precondition seq - >"$t/sum.json"
end=$(date +%s)
events=$(sed -n 's/^ *"events": \([0-9]*\).*/\1/p' "$t/sum.json" | head -1)
printf 'scale: %s GiB of event stream (%s events), %s s wall\n' "$GIB" "$events" $((end - start))
printf '  tracegen peak RSS %s KB\n' "$(cat "$t/gen")"
printf '  tracecat peak RSS %s KB, CPU %s s\n' "$(awk '{print $1}' "$t/cat")" "$(awk '{print $2 + $3}' "$t/cat")"
printf '  ftlsim   peak RSS %s KB, CPU %s s, wa_total %s\n' "$(awk '{print $1}' "$t/sim")" \
	"$(awk '{print $2 + $3}' "$t/sim")" "$(sed -n 's/^  "wa_total": \(.*\),/\1/p' "$t/sum.json")"
[ "$events" = "$N" ] || { echo "bench-scale: ftlsim saw $events events, want $N" >&2; exit 1; }
