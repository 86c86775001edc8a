#!/bin/sh
# bench_place.sh: the cost of each placement per host page write and its
# memory per logical page, against the single log's in the same run.
# U = 2^20 pages (override: PAGES), Zipf 1.0 writes after a fill (4 U),
# greedy, OP 10%, b = 256; CPU seconds of ftlsim (best of REPS, default
# 3; fk's include its pass over the trace), each placement's against
# the single log's best over runs alternated with its own. Prints a
# markdown table; PLACEMENTS="fk sfs" times only those.
set -eu
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/bin}
N=${PAGES:-1048576}
REPS=${REPS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_place.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$BIN/tracegen" -p zipf:1.0 -n "$N" -w $((N * 4)) --fill -o bin >"$T/z.ev" 2>/dev/null
one() { # PLACEMENT -> CPU seconds; the summary in $T/s.json
	"$BIN/ftlsim" -q --op 0.1 --placement "$1" "$T/z.ev" >"$T/s.json"
	jq .timing.cpu_s "$T/s.json"
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }
# The single log runs before each repetition of every placement, and a
# placement's ratio is its best time over the best of those single-log
# runs: the machine's drift between placements cancels.
set -- $(one single >/dev/null; jq -r '"\(.memory.model_bytes)"' "$T/s.json")
m0=$1
echo "| placement | WA | ns per host write | vs single | bytes per logical page beyond single |"
echo "|---|---|---|---|---|"
for p in ${PLACEMENTS:-single sepgc sepbit fk:6,R=1 fk dac warcip mq multilog sfs sfs:6,SPAN=256 eti sfr fadac midas}; do
	b0= b=
	for r in $(seq "$REPS"); do
		b0=$(min "$b0" "$(one single)")
		b=$(min "$b" "$(one "$p")")
	done
	set -- $(jq -r '"\(.host_pages_written) \(.memory.model_bytes) \(.wa_total)"' "$T/s.json")
	awk -v p=$p -v c=$b -v h=$1 -v m=$2 -v wa=$3 -v c0=$b0 -v m0=$m0 -v n=$N 'BEGIN {
		printf "| %s | %.3f | %.1f | %.2f | %.2f |\n", p, wa, c / h * 1e9, c / c0, (m - m0) / n }'
done
