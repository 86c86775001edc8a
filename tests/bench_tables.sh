#!/bin/sh
# tests/bench_tables.sh - the README's and docs/MODEL.md's benchmark
# tables, in markdown, from the record of one `make bench` run
# (docs/BENCH.txt): what the docs quote is that run, and t0740 checks
# that they quote it.
#   sh tests/bench_tables.sh [reader|model|onepass] [RECORD]
set -eu
what=${1:-reader}
rec=${2:-$(dirname "$0")/../docs/BENCH.txt}
[ -r "$rec" ] || { echo "bench_tables.sh: no record $rec (run make bench)" >&2; exit 1; }
case $what in
reader)
	echo "| command | CPU s | MB/s | M events/s | vs blkparse |"
	echo "|---|---|---|---|---|"
	# Rows: COMMAND (46 columns) TIME s MB/s MB/s Mev Mev/s RATIOx.
	awk '/^Reader benchmark/ { on = 1; next } on && /^\(/ { exit } on && / s .* MB\/s .* Mev\/s / {
		cmd = substr($0, 1, 46); sub(/ +$/, "", cmd); n = split(substr($0, 47), f, " ")
		printf "| `%s` | %s | %s | %s | %s |\n", cmd, f[1], f[3], f[5], f[7] }' "$rec"
	;;
model)
	echo "| driver | U | OP | host M writes/s | flash M writes/s | ns per flash write | WA | bytes per physical page (model / peak RSS) | vs 2^20 |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk '$1 == "driver" && $2 == "U" { on = 1; next } on && ($1 == "api" || $1 == "ftlsim" || $1 == "ftlsim-j2") && NF == 10 {
		printf "| %s | %s | %s%% | %s | %s | %s | %s | %s / %s | %s |\n", $1, $2, $3 * 100, $4, $5, $6, $7, $8, $9, $10 == "-" ? "" : $10 }' "$rec"
	;;
onepass)
	# The one-pass section as it stands in the record, as a code block.
	awk '/^one pass, grid of/ { on = 1 } on && /^\(recorded/ { exit } on { print "    " $0 }' "$rec"
	;;
*) echo "usage: bench_tables.sh reader|model|onepass [RECORD]" >&2; exit 2 ;;
esac
