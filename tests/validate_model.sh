#!/bin/sh
# tests/validate_model.sh - full-size runs of the FTL model against the
# published values (Desnoyers, SYSTOR 2012, eq. 4; the mean-field greedy
# model after Van Houdt, SIGMETRICS 2013; random victim 1/Sf), through the whole
# pipeline (tracegen | ftlsim). Prints a table model / parameter / sim /
# reference / diff and exits 1 when a row misses its tolerance.
#
#   closed forms and mean field (uniform random 4 KiB overwrites after a
#   full fill, b = 64, U = 2^20 pages = 16384 logical segments, 4U
#   warm-up, 8U measured): greedy (mean field), fifo (Desnoyers eq. 4),
#   random (1/Sf). Tolerance 1% (the reference says 0.5% at this size).
#
#   LFS figure 4/7 write costs (read off the plots by eye, +-0.1; 512-page
#   segments, U = 2^18 one-page files, fill + 4U warm-up + 8U measured;
#   hot-and-cold: 90% of writes to 10% of files, age-sorted cleaning).
#   The paper does not say how many segments its cleaner sorts at once,
#   and the hot-and-cold results depend on it (measured at X = 0.8,
#   greedy: 5.98 / 5.88 / 5.71 / 5.32 sorting 1 / 2 / 4 / 16 segments'
#   worth); these rows use agesort:2, the batch that fits best overall:
#   a calibration, not a prediction. Tolerance 15%: the readings are by
#   eye and the other details unstated.
#
# Usage: sh tests/validate_model.sh [--quick]   (--quick: 3 Sf values, 2^18 pages)
# Takes a few minutes.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
make -s bin/ftlsim bin/tracegen || exit 1
G=bin/tracegen
S=bin/ftlsim
quick=0
[ "${1:-}" = --quick ] && quick=1
fails=0

row() { # model param sim ref tolerance(relative)
	awk -v m="$1" -v p="$2" -v s="$3" -v r="$4" -v t="$5" 'BEGIN {
		d = (s - r) / r; bad = (d > t || d < -t)
		printf "%-40s %-10s %9.4f %9.4f %+7.2f%%%s\n", m, p, s, r, 100 * d, bad ? "  FAIL" : ""
		exit bad }' || fails=$((fails + 1))
}

uniform() { # policy sf reference
	U=$UNIFORM_U
	wa=$("$G" -p uniform -n $U -w $((12 * U)) -s 1 -o bin 2>/dev/null |
		"$S" -q --logical-pages $U --spare-factor $2 --pages-per-segment 64 --policy $1 \
			--precondition seq --warmup-writes $((4 * U)) - | jq .wa_measured) || exit 1
	row "$1 (b=64, WA)" "Sf=$2" "$wa" "$3" 0.01
}

lfs() { # label policy placement X reference [hotcold]
	U=262144
	T=$(awk -v u=$U -v x="$4" 'BEGIN { printf "%d", u / x }')
	hot=""
	[ -n "${6:-}" ] && hot="--hot-prob 0.9 --hot-frac 0.1"
	wc=$("$G" -p lfs $hot -n $U -w $((12 * U)) -s 1 -o bin 2>/dev/null |
		"$S" -q --logical-pages $U --physical-pages $T --pages-per-segment 512 --policy $2 \
			--placement $3 --warmup-writes $((5 * U)) - | jq .write_cost) || exit 1
	row "LFS $1 (write cost)" "X=$4" "$wc" "$5" 0.15
}

# The quick subset runs at 2^18 pages (a quarter of the time; every row
# measured within 0.31% of its reference there, against 0.26% at 2^20).
UNIFORM_U=1048576
[ $quick = 1 ] && UNIFORM_U=262144
printf "%-40s %-10s %9s %9s %8s\n" model parameter sim reference diff
if [ $quick = 1 ]; then
	set -- "0.10 4.821 5.179 10" "0.20 2.599 2.693 5" "0.30 1.833 1.876 3.333"
else
	set -- "0.05 8.850 10.172 20" "0.07 6.616 7.318 14.286" "0.10 4.821 5.179 10" \
		"0.15 3.354 3.519 6.667" "0.20 2.599 2.693 5" "0.25 2.140 2.201 4" \
		"0.30 1.833 1.876 3.333" "0.40 1.455 1.480 2.5" "0.50 1.239 1.255 2"
fi
for r in "$@"; do
	set -- $r
	uniform greedy $1 $2
	uniform fifo $1 $3
	uniform random $1 $4
done

# The quick subset: two of the uniform readings and one hot-and-cold X.
lu="0.5 2.6|0.75 4.4|0.8 5.4|0.9 10.3" lh="0.5 2.9 2.55|0.8 6.1 3.6|0.9 11.4 5.8"
[ $quick = 1 ] && lu="0.75 4.4|0.9 10.3" lh="0.8 6.1 3.6"
IFS='|'
set -- $lu
unset IFS
for r in "$@"; do
	set -- $r
	lfs "uniform greedy" greedy single $1 $2
done
IFS='|'
set -- $lh
unset IFS
for r in "$@"; do
	set -- $r
	lfs "hot-cold greedy" greedy agesort:2 $1 $2 hot
	lfs "hot-cold cost-benefit" cb agesort:2 $1 $3 hot
done
echo "$fails row(s) out of tolerance"
[ $fails = 0 ]
