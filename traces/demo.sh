#!/bin/sh
# traces/demo.sh - `make demo`: the main job on a bundled real trace.
# Characterise the rootfs-discard blktrace capture (ext4 mounted with
# online discard), replay it through the FTL model with and without
# TRIM after a random precondition, and plot both runs into demo/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
T=traces/samples/blktrace/rootfs-discard/vda_rootfs_pycompile
OUT=${DEMO_DIR:-demo}
mkdir -p "$OUT"
echo "== tracestat $T"
bin/tracestat -q "$T" >"$OUT/tracestat.json"
jq -r '.traces[0] | "\"events\": \(.events),",
	(.ops | to_entries[] | "\(.key): \"requests\": \(.value.requests),"),
	"\"pages_written\": \(.footprint.pages_written),",
	"\"written_pages_later_discarded_share\": \(.written_pages_later_discarded_share),",
	"\"overwrite_ratio\": \(.overwrite_ratio)"' "$OUT/tracestat.json"
SIM="--logical-space footprint --pages-per-segment 64 --op 0.07 --precondition random --policy greedy"
for trim in trim no-trim; do
	echo "== ftlsim $SIM --$trim"
	# shellcheck disable=SC2086
	bin/ftlplot -o "$OUT/$trim" --title "rootfs-discard, greedy, OP 7%, --$trim" -- \
		-q "$T" $SIM --$trim
	jq -r '"\"wa_total\": \(.wa_total),", "\"segments_cleaned\": \(.segments_cleaned),",
		"\"victim_utilization_mean\": \(.victim_utilization_mean)"' "$OUT/$trim/summary.json"
done
echo "== the two runs on one set of axes"
bin/ftlplot -o "$OUT/compare" --title "rootfs-discard, greedy, OP 7%" \
	--curve "$OUT/trim/curve.csv:TRIM" --curve "$OUT/no-trim/curve.csv:no TRIM" \
	--hist "$OUT/trim/hist.csv:TRIM" --hist "$OUT/no-trim/hist.csv:no TRIM" \
	--erase "$OUT/trim/erase-hist.csv:TRIM" --erase "$OUT/no-trim/erase-hist.csv:no TRIM"
echo
echo "Figures and JSON summaries are in $OUT/ (trim/, no-trim/, compare/)."
