#!/bin/sh
# bench_place.sh: the cost of each placement per host page write and its
# memory per logical page, against the single log's in the same run.
# U = 2^20 pages (override: PAGES), Zipf 1.0 writes after a fill (4 U),
# greedy, OP 10%, b = 256; CPU seconds of ftlsim (best of REPS, default
# 3; fk's include its pass over the trace). Prints a markdown table.
set -eu
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/bin}
N=${PAGES:-1048576}
REPS=${REPS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_place.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$BIN/tracegen" -p zipf:1.0 -n "$N" -w $((N * 4)) --fill -o bin >"$T/z.ev" 2>/dev/null
run() { # PLACEMENT -> "cpu_s host_pages model_bytes wa"
	best=
	for r in $(seq "$REPS"); do
		"$BIN/ftlsim" -q --op 0.1 --placement "$1" "$T/z.ev" >"$T/s.json"
		c=$(jq .timing.cpu_s "$T/s.json")
		if [ -z "$best" ] || awk "BEGIN { exit !($c < $best) }"; then best=$c; fi
	done
	echo "$best $(jq -r '"\(.host_pages_written) \(.memory.model_bytes) \(.wa_total)"' "$T/s.json")"
}
set -- $(run single)
c0=$1 m0=$3
echo "| placement | WA | ns per host write | vs single | bytes per logical page beyond single |"
echo "|---|---|---|---|---|"
for p in single sepgc sepbit fk fk:6,R=8 dac warcip mq multilog sfs sfs:6,SPAN=256 eti sfr fadac midas; do
	set -- $(run $p)
	awk -v p=$p -v c=$1 -v h=$2 -v m=$3 -v wa=$4 -v c0=$c0 -v m0=$m0 -v n=$N 'BEGIN {
		printf "| %s | %.3f | %.1f | %.2f | %.2f |\n", p, wa, c / h * 1e9, c / c0, (m - m0) / n }'
done
