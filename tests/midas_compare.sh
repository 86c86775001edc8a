#!/bin/sh
# midas_compare.sh: the same workloads through ftlsim and the MiDAS
# authors' simulator (Oh et al., FAST'24; github.com/sungkyun123/
# MiDAS-Simulation), one table of the WA of the writes after the fill.
# The simulator is not part of ftlkit: build it yourself (make; it needs
# Boost.Math, Debian's libboost-math-dev) and name its binary in
# MIDAS_SIM:
#
#   MIDAS_SIM=PATH/ssdsimul sh tests/midas_compare.sh [WRITES]
#
# Its device is fixed by its arguments `1 2`: 1 GiB (262144 pages of
# 4 KiB) in 512 segments of 512 pages, 10^9 bytes (244140 pages) logical,
# filled in order by the simulator itself. A smaller logical space U is
# made by a discard of pages U..244139 at the trace's start; ftlsim gets
# the same geometry (--physical-pages 262144 --pages-per-segment 512) and
# U. Workloads: tracegen's 90/10 hotcold (seed 2) and zipf:1.0 (seed 3)
# on U pages, filled, then WRITES single-page writes (default 20 x
# 244140). WA = (host + copied pages) / host pages, host pages counted
# after the fill, in both. The simulator sleeps 5 s at each GiB written
# (about 100 s a run at the default length); its runs go in parallel.
set -eu
: "${MIDAS_SIM:?name the MiDAS simulator binary (ssdsimul)}"
WR=${1:-$((20 * 244140))}
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/bin}
W=$(mktemp -d "${TMPDIR:-/tmp}/midas.XXXXXX")
trap 'rm -rf "$W"' EXIT
for U in 244140 235930 209715; do
	for wl in hc:hotcold:2 zf:zipf:1.0:3; do
		name=${wl%%:*} rest=${wl#*:} seed=${wl##*:} pat=${rest%:*}
		"$BIN/tracegen" -q -p "$pat" -n $U --fill -w "$WR" -s "$seed" -o text >"$W/$name.$U.txt"
		awk -v U=$U 'BEGIN { if (U < 244140) printf "0 3 %d %d\n", U, (244140 - U) * 4096 }
			NR > U { printf "0 1 %d %d\n", $3 / 4096, $4 / 4096 * 4096 }' "$W/$name.$U.txt" >"$W/$name.$U.midas"
		(cd "$W" && "$MIDAS_SIM" "$name.$U.midas" greedy 1 2 >"$name.$U.ref" 2>&1) &
	done
done
wait
printf '%-4s %-7s %-6s %8s %8s %8s %8s\n' wl U sf sim midas single sepbit
for U in 244140 235930 209715; do
	for name in hc zf; do
		ref=$(awk '/^USERWRITE/ { u = $2 } /^COPYWRITE/ { c = $2 } END { printf "%.3f", (u - 244141 + c) / (u - 244141) }' "$W/$name.$U.ref")
		f=""
		for p in midas single sepbit; do
			f="$f $("$BIN/ftlsim" -q --logical-pages $U --physical-pages 262144 --pages-per-segment 512 \
				--warmup-writes $U --placement $p "$W/$name.$U.txt" | jq -r '.wa_measured * 1000 | round / 1000')"
		done
		awk -v w=$name -v u=$U -v r=$ref -v f="$f" 'BEGIN { split(f, a, " ");
			printf "%-4s %-7d %-6.3f %8.3f %8.3f %8.3f %8.3f\n", w, u, 1 - u / 262144, r, a[1], a[2], a[3] }'
	done
done
