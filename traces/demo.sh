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
awk '/"events"|"requests"|"pages_written"|"written_pages_later_discarded_share"|"overwrite_ratio"/' "$OUT/tracestat.json" |
	sed 's/^ *//'
SIM="--logical-space footprint --pages-per-segment 64 --op 0.07 --precondition random --policy greedy"
for trim in trim no-trim; do
	echo "== ftlsim $SIM --$trim"
	# shellcheck disable=SC2086
	bin/ftlplot -o "$OUT/$trim" --title "rootfs-discard, greedy, OP 7%, --$trim" -- \
		-q "$T" $SIM --$trim
	grep -E '^  "(wa_total|victim_utilization_mean|segments_cleaned)"' "$OUT/$trim/summary.json" |
		sed 's/^ *//'
done
echo
echo "Figures and JSON summaries are in $OUT/ (trim/, no-trim/)."
