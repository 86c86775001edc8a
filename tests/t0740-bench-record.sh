#!/bin/sh
# t0740-bench-record: the benchmark figures the docs quote are those of
# one `make bench` run, kept with its date, commit and machine in
# docs/BENCH.txt: the README's reader, model and one-pass tables and
# docs/MODEL.md's model table are exactly what tests/bench_tables.sh
# makes from it.
. "$(dirname "$0")/lib.sh"
REC="$T_TOP/docs/BENCH.txt"

t_expect_success 'docs/BENCH.txt is a make bench record: date, commit, machine, the reader and model sections' '
	head -n 1 "$REC" | grep -q "^# make bench, 20[0-9-]* [0-9:]* UTC, commit [0-9a-f]\{7,\}" &&
	sed -n 2p "$REC" | grep -q "^# machine: .*, [0-9]* cores, .* RAM, Linux " &&
	grep -q "^Reader benchmark" "$REC" && grep -q "^api      2^26" "$REC" && grep -q "^ftlsim   2^20" "$REC" &&
	grep -q "^ftlsim-j2 2^20" "$REC" && grep -q "^one pass, grid of 8" "$REC" && grep -q "^  --per-volume -j2" "$REC"
'
t_expect_success 'the README quotes that run: its reader and model tables are the record'"'"'s' '
	for t in reader model onepass; do
		sh "$T_TOP/tests/bench_tables.sh" $t "$REC" >want.$t &&
		test $(grep -c . want.$t) -ge 6 &&
		grep -vxF -f "$T_TOP/README.md" want.$t >miss.$t
		test ! -s miss.$t || { echo "README lacks ($t):"; cat miss.$t; exit 1; }
	done
'
t_expect_success 'docs/MODEL.md quotes the same run: its model table is the record'"'"'s, and it names the record' '
	sh "$T_TOP/tests/bench_tables.sh" model "$REC" >want &&
	grep -vxF -f "$T_TOP/docs/MODEL.md" want >miss
	test ! -s miss || { cat miss; exit 1; }
	grep -q "docs/BENCH.txt\|(BENCH.txt)" "$T_TOP/docs/MODEL.md" && grep -q "docs/BENCH.txt" "$T_TOP/README.md"
'
t_expect_success 'make bench writes its record where git ignores it, not over docs/BENCH.txt' '
	make -s -n -C "$T_TOP" FLAGS_ID="$(cat "$T_TOP/build/flags")" bench >cmds.txt &&
	rec=$(sed -n "s/^BENCH_RECORD=.\([^ ]*\). sh tests\/bench.sh\$/\1/p" cmds.txt) &&
	[ -n "$rec" ] && [ "$rec" != docs/BENCH.txt ] || { cat cmds.txt; exit 1; }
	! git -C "$T_TOP" rev-parse --git-dir >/dev/null 2>&1 || git -C "$T_TOP" check-ignore -q "$rec"
'
t_done
