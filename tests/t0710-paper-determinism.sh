#!/bin/sh
# Determinism across make -j: the quick paper experiments run serially
# and two at a time give byte-identical CSV data and tables, and the
# same JSON summaries but for their timing fields (paths aside: the
# two runs write to different folders).
. "$(dirname "$0")/lib.sh"
A="$TMP/j1" B="$TMP/j2"
make -s -C "$T_TOP" -j1 paper-check QUICK=1 PAPER_OUT="$A" >"$TMP/a.log" 2>&1
ra=$?
make -s -C "$T_TOP" -j2 paper-check QUICK=1 PAPER_OUT="$B" >"$TMP/b.log" 2>&1
rb=$?
t_expect_success 'the quick experiments run at -j1 and at -j2' '[ $ra = 0 ] && [ $rb = 0 ] || { tail a.log b.log; exit 1; }'
t_expect_success 'every CSV file and table is byte-identical at -j1 and -j2' '
	n=0
	for f in $(cd "$A" && find . -name "*.csv" -o -name "table.txt" | sort); do
		# Only the output folder (and a temporary name) may differ.
		sed -e "s#$A#OUT#g" -e "s/\.tmp\.[0-9]*//g" "$A/$f" >x.a
		sed -e "s#$B#OUT#g" -e "s/\.tmp\.[0-9]*//g" "$B/$f" >x.b
		cmp -s x.a x.b || { echo "differs: $f"; diff x.a x.b | head -5; exit 1; }
		n=$((n + 1))
	done
	echo "$n files compared"; [ $n -gt 20 ]
'
t_expect_success 'every run summary is identical but for its timing fields' '
	n=0
	for f in $(cd "$A" && find . -name "*.json" | sort); do
		python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d.pop(\"timing\", None)
    d.get(\"input\", {}).pop(\"path\", None)
sys.exit(a != b)" "$A/$f" "$B/$f" || { echo "differs: $f"; exit 1; }
		n=$((n + 1))
	done
	echo "$n summaries compared"; [ $n -gt 20 ]
'
t_done
