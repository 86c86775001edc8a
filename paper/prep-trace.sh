#!/bin/sh
# paper/prep-trace.sh - prepare one real trace for the paper's runs.
#
#   sh paper/prep-trace.sh TRACE OUT/traces/ID.ev
#
# TRACE is a trace file or a blktrace per-CPU set's NAME. Writes, beside
# the target: ID.info (key=value: format, action, volume, events, pages
# written, ..., the segment size b and curve interval chosen, or skip=
# and why), ID.sizes.csv and ID.skew.csv (tracestat --size-hist and
# --skew-cdf), and the target last: the trace as one ftlkit event stream,
# in time order, of its busiest volume when it has several; a target
# named ID.vols.ev keeps every volume (for --per-volume runs: b=auto,
# each volume's segment size chosen by ftlsim).
# Parameters: paper/traces.params.
set -eu
src=$1
ev=$2
base=${ev%.ev}
. ./paper/traces.params
tmp=$ev.tmp.$$
trap 'rm -f "$tmp" "$base".*.tmp.$$' EXIT

stat() { bin/tracestat -q --csv "$@" | awk -F, -v k="$STATKEY" '$2 == k { print $3 }'; }

# The first action that yields events (only blktrace and blkparse have actions).
act= action=-
fmt=$(bin/tracestat --csv "$src" 2>&1 >/dev/null | sed -n "s/.*detected format '\([^']*\)'.*/\1/p" | head -n 1)
# A per-CPU set named by NAME is said to be blktrace by its files' names.
[ -n "$fmt" ] || [ ! -e "$src.blktrace.0" ] || fmt=blktrace
# An action the trace does not have gives no events, and tracestat's
# notice saying so (and which action it does have) is the answer sought:
# a probe's notices are shown only for the action taken. In time order
# (--sort), as the trace is prepared below.
case $fmt in
blktrace | blkparse)
	for a in $ACTIONS; do
		n=$(STATKEY=events stat --sort --action "$a" "$src" 2>"$base.probe.tmp.$$")
		if [ "${n:-0}" -gt 0 ]; then
			cat "$base.probe.tmp.$$" >&2
			act="--action $a" action=$a
			break
		fi
	done
	rm -f "$base.probe.tmp.$$" ;;
esac

# Several volumes (Tencent, Alibaba, MSR, ...): the one with the most page writes.
vols=$(bin/tracecat -q $act --sort -o text "$src" | awk '$2 == "W" { n[$5] += ($3 % 4096 + $4 + 4095) / 4096 } END { for (v in n) print n[v], v }' | sort -k1,1nr -k2,2n)
nvol=$(printf '%s\n' "$vols" | grep -c . || true)
vol= volume=-
allvols=
case $ev in *.vols.ev) allvols=1 volume=all ;; esac
if [ "$nvol" -gt 1 ] && [ -z "$allvols" ]; then
	volume=$(printf '%s\n' "$vols" | head -n 1 | awk '{ print $2 }')
	vol="--volume $volume"
fi

bin/tracecat -q $act $vol --sort -o bin "$src" >"$tmp"
bin/tracestat -q --csv --size-hist "$base.sizes.csv.tmp.$$" --skew-cdf "$base.skew.csv.tmp.$$" "$tmp" >"$base.stat.tmp.$$"
mv "$base.sizes.csv.tmp.$$" "$base.sizes.csv"
mv "$base.skew.csv.tmp.$$" "$base.skew.csv"
get() { awk -F, -v k="$1" '$2 == k { print $3 }' "$base.stat.tmp.$$"; }
fp=$(get footprint.pages_written)
pw=$(get page_writes)
b=$B_MAX
while [ "$b" -ge "$B_MIN" ] && [ $((fp / b)) -lt "$MIN_SEGS" ]; do b=$((b / 2)); done
skip=
[ "$b" -ge "$B_MIN" ] || skip="footprint of $fp pages: fewer than $MIN_SEGS segments of $B_MIN pages"
[ -z "$allvols" ] || b=auto skip=
iv=$((pw / CURVE_POINTS))
[ "$iv" -ge 1 ] || iv=1
{
	echo "path=$src"
	echo "format=${fmt:-unknown}"
	echo "action=$action"
	echo "volumes=$nvol"
	echo "volume=$volume"
	echo "events=$(get events)"
	echo "write_requests=$(get ops.write.requests)"
	echo "discard_requests=$(get ops.discard.requests)"
	echo "pages_written=$fp"
	echo "page_writes=$pw"
	echo "pages_discarded=$(get footprint.pages_discarded)"
	echo "written_pages_later_discarded_share=$(get written_pages_later_discarded_share)"
	echo "b=$b"
	echo "interval=$iv"
	echo "skip=$skip"
} >"$base.info"
rm -f "$base.stat.tmp.$$"
mv "$tmp" "$ev"
