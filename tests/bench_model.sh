#!/bin/sh
# tests/bench_model.sh - the FTL model's speed and memory: uniform random
# single-page writes after a sequential fill, greedy, b = 256, 10 x U
# measured writes, at OP 10% and 25%:
#   - the model API driven directly (build/bench_model: inlined RNG, no I/O)
#     at U = 2^20 and 2^26 pages; the 2^26 cost per write as a ratio
#     of the 2^20 one (same OP, measured in this same command);
#   - the whole bin/ftlsim program reading the same workload as a binary
#     event stream from a file, at U = 2^20 (its CPU time, reading and
#     preconditioning included).
# Usage: sh tests/bench_model.sh [--quick]   (--quick: no 2^26 runs)
# On a shared machine other processes steal cache and memory bandwidth:
# each configuration runs REPEAT times (default 3; REPEAT26 for the
# 2^26 runs, default 1) and the fastest run is reported, rates being per
# second of this process's CPU time.
# Goals: >= 40 M flash page writes/s on one core; <= 16 bytes
# per physical page; cost per write at 2^26 <= 3x that at 2^20.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
make -s build/bench_model bin/ftlsim || exit 1
quick=0
[ "${1:-}" = --quick ] && quick=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_model.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }

# run LOG2U OP -> one table row; remembers ns per flash write for the ratio.
run() {
	U=$((1 << $1))
	n=${REPEAT:-3}
	[ $1 -ge 26 ] && n=${REPEAT26:-1}
	out= best=0
	while [ $n -gt 0 ]; do
		o=$(build/bench_model --logical-pages $U --op $2 --writes $((10 * U))) || exit 1
		r=$(echo "$o" | field flash_per_s)
		if [ "$(awk -v a="$r" -v b="$best" 'BEGIN { print (a > b) }')" = 1 ]; then
			best=$r out=$o
		fi
		n=$((n - 1))
	done
	hps=$(echo "$out" | field host_per_s)
	fps=$(echo "$out" | field flash_per_s)
	ns=$(echo "$fps" | awk '{ printf "%.2f", 1e9 / $1 }')
	eval "ns_$1_$(echo $2 | tr . _)=$ns"
	base=$(eval echo "\${ns_20_$(echo $2 | tr . _):-}")
	ratio=$(awk -v a="$ns" -v b="$base" 'BEGIN { if (b == "") print "-"; else printf "%.2f", a / b }')
	printf "%-8s %-5s %-6s %9.1f %10.1f %8s %7s %7.2f %8.2f %6s\n" "api" "2^$1" "$2" \
		"$(echo "$hps" | awk '{ print $1 / 1e6 }')" "$(echo "$fps" | awk '{ print $1 / 1e6 }')" \
		"$ns" "$(echo "$out" | field wa | cut -c1-6)" \
		"$(echo "$out" | field model_bytes_per_page)" "$(echo "$out" | field maxrss_bytes_per_page)" "$ratio"
}

# The whole program on an event stream file (U = 2^20): "ftlsim" at -j 1
# (one thread: rates per CPU second, reading and preconditioning
# included), "ftlsim-j2" at -j 2 (the reader in a thread of its own
# beside the model's: rates per second of elapsed time, which is what
# the threads buy; the API driver's elapsed time is its CPU time).
pipeline() {
	U=$((1 << 20))
	[ -s "$tmp/ev" ] || build/bench_model --emit --logical-pages $U --writes $((10 * U)) >"$tmp/ev" || exit 1
	for j in 1 2; do
		n=${REPEAT:-3}
		best=0
		t=.timing.cpu_s name=ftlsim
		[ $j = 2 ] && t=.timing.elapsed_s name=ftlsim-j2
		while [ $n -gt 0 ]; do
			bin/ftlsim -q -j $j --logical-pages $U --op $1 --precondition seq "$tmp/ev" >"$tmp/r.json" || exit 1
			r=$(jq ".flash_pages_written / $t" "$tmp/r.json")
			if [ "$(awk -v a="$r" -v b="$best" 'BEGIN { print (a > b) }')" = 1 ]; then
				best=$r
				cp "$tmp/r.json" "$tmp/s.json"
			fi
			n=$((n - 1))
		done
		jq -r --arg op "$1" --arg name "$(printf '%-8s ' "$name")" "(.flash_pages_written / $t) as \$f |
			[.host_pages_written / $t / 1e6, \$f / 1e6, 1e9 / \$f, .wa_total,
			.memory.bytes_per_physical_page,
			.timing.max_rss_kb * 1024 / .params.physical_pages] |
			\"\\(\$name)2^20  \\(\$op)   \\(.[0] * 10 | round / 10)        \\(.[1] * 10 | round / 10)       \\(.[2] * 100 | round / 100)    \\(.[3] * 1000 | round / 1000)   \\(.[4] * 100 | round / 100)     \\(.[5] * 100 | round / 100)  -\"" "$tmp/s.json"
	done
}

printf "%-8s %-5s %-6s %9s %10s %8s %7s %7s %8s %6s\n" driver U op "host M/s" "flash M/s" \
	"ns/flash" WA "model B" "rss B" "x2^20"
for op in 0.1 0.25; do
	run 20 $op
	[ $quick = 1 ] || run 26 $op
	pipeline $op
done
echo "(model B, rss B: bytes per physical page, as allocated by the model and as ru_maxrss;"
echo " x2^20: ns per flash write relative to the 2^20 run at the same OP;"
echo " ftlsim: -j 1, per CPU second; ftlsim-j2: -j 2, per elapsed second)"
