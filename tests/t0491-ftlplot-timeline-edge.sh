#!/bin/sh
# t0490-ftlplot-timeline-edge: ftlplot --timeline at its edges. A run
# whose intervals all have requests but none a latency above 0 (TRIMs
# only, without --trim-cost) is drawn, exit 0: the latency axes empty
# and saying so, not a gnuplot error (stats of an empty selection leaves
# STATS_records undefined). With several runs each may have its own
# steady-state window (the k-th --summary or --steady the k-th run's),
# and the key names the run whose window it is. The other plot scripts'
# stats of a CSV without rows end in a message naming the file.
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (CI's second pass) skipped: its subject is shell
# and gnuplot, which the first pass has tested; the ftlsim and tracegen
# code it runs is tested under the sanitizers elsewhere.
if t_sanitized; then
	t_skip 'ftlplot --timeline at its edges' "the sanitizers' build: the scripts are the plain build's check"
	t_done
	exit
fi
P="$BIN/ftlplot"
S="$BIN/ftlsim"

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
# block N FILE: the rows "x y" of the N-th curve (from 0) of a gnuplot table.
block() { awk -v n="$1" '/^# Curve [0-9]/ { b = $3 + 0; next } /^#/ || !NF { next } b == n { print $1, $2 }' "$2"; }
# window SUMMARY.json: its steady state as ftlplot names it, "FROM-TO".
window() { jq -r '.timing.steady_state | "\(.start_s)-\(.end_s)"' "$1"; }

if ! command -v gnuplot >/dev/null 2>&1; then
	t_skip 'ftlplot --timeline edge cases' 'gnuplot is not installed'
	t_done
	exit
fi

# TRIMs only, 20 a second for 10 s, on a device in time without
# --trim-cost: each takes no time.
awk 'BEGIN { for (i = 0; i < 200; i++) printf "%d D %d 4096 0 1\n", i * 50000000, i * 4096 }' >"$TMP/trim.txt"
"$S" -q --device femu,channels=1,dies=1 --logical-pages 16384 --pages-per-segment 64 \
	--timeline "$TMP/trim.csv" "$TMP/trim.txt" >"$TMP/trim.json"
# Random writes on one die at QD 1, OP 10% and 28%: latencies, and a
# steady state each.
"$BIN/tracegen" -p uniform -n 4096 --fill -w 40000 --seed 1 -o bin >"$TMP/u.ev" 2>/dev/null
for op in 0.1 0.28; do
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op $op --logical-pages 4096 --pages-per-segment 64 \
		--timeline "$TMP/tl$op.csv" "$TMP/u.ev" >"$TMP/s$op.json"
done

t_expect_success 'the edge: TRIMs only, no --trim-cost: every interval has requests, none a latency above 0, no steady state' '
	awk -F, "NR > 1 { n++; if (\$2 <= 0 || \$4 != 0 || \$5 != 0) { print \"line \" NR \": \" \$0; exit 1 } } END { exit !(n >= 5) }" trim.csv &&
	grep -q "\"found\": null" trim.json &&
	grep -q "\"found\": true" s0.1.json && grep -q "\"found\": true" s0.28.json
'
t_expect_success 'ftlplot --timeline of it: exit 0, timeline-iops, -lat and -busy PNGs (non-empty), their names printed, a note on stderr' '
	"$P" -o edge --timeline trim.csv >list 2>err; rc=$?
	cat err; test $rc -eq 0 &&
	test "$(tr "\n" " " <list)" = "edge/timeline-iops.png edge/timeline-lat.png edge/timeline-busy.png " &&
	for f in timeline-iops timeline-lat timeline-busy; do
		is_png edge/$f.png && test -s edge/$f.dat && test -s edge/$f.gp || { echo "$f"; exit 1; }
	done &&
	grep -q "no interval has a latency above 0" err && ! grep -qi "undefined\|warning" err
'
t_expect_success 'timeline-lat: no point drawn (every latency NaN), the IOPS as in the CSV' '
	test $(block 0 edge/timeline-lat.dat | wc -l) -gt 5 &&
	test -z "$(block 0 edge/timeline-lat.dat | awk "\$2 != \"NaN\"")" &&
	test -z "$(block 1 edge/timeline-lat.dat | awk "\$2 != \"NaN\"")" &&
	awk -F, "NR > 1 { print \$1 + 0.5, \$2 }" trim.csv >want && block 0 edge/timeline-iops.dat >got && t_cmp want got
'
t_expect_success 'the empty latency axes say why (SVG text: no latency recorded); NAME.gp redraws the PNG' '
	"$P" --format svg -o edgesvg --timeline trim.csv >/dev/null 2>&1 &&
	grep -q "no latency recorded" edgesvg/timeline-lat.svg &&
	grep -q "no interval has a request that took time" edgesvg/timeline-lat.svg &&
	rm edge/timeline-lat.png && (cd edge && gnuplot timeline-lat.gp 2>/dev/null) && is_png edge/timeline-lat.png
'
t_expect_success 'a run without latency beside one with: both on one set of axes, exit 0, the key says which has none' '
	"$P" --format svg -o mixed --timeline trim.csv:TRIMs --timeline tl0.1.csv:"OP 10%" >list 2>err &&
	test $(wc -l <list) -eq 3 && test -s mixed/timeline-lat.svg && test -s mixed/timeline-gc.svg &&
	test -n "$(block 1 mixed/timeline-lat.dat | awk "\$2 != \"NaN\" && \$2 > 0")" &&
	grep -q ">TRIMs (no latency recorded)<" mixed/timeline-lat.svg && ! grep -q "OP 10% (no latency" mixed/timeline-lat.svg &&
	! grep -q "no interval has a request that took time" mixed/timeline-lat.svg && ! grep -q "no interval has a latency" err &&
	"$P" -o mixedpng --timeline trim.csv:TRIMs --timeline tl0.1.csv:"OP 10%" >/dev/null 2>&1 &&
	is_png mixedpng/timeline-iops.png && is_png mixedpng/timeline-lat.png
'
t_expect_success 'two runs, a --summary each: both windows shaded, each key entry names its run and window (one entry for a window they share)' '
	a=$(window s0.1.json) && b=$(window s0.28.json) && echo "windows $a, $b" &&
	"$P" --format svg -o two --timeline tl0.1.csv:"OP 10%" --timeline tl0.28.csv:"OP 28%" \
		--summary s0.1.json --summary s0.28.json >/dev/null &&
	grep -qx "steady = .$(echo "$a" | tr - :);$(echo "$b" | tr - :)." two/timeline-iops.gp &&
	for f in timeline-iops timeline-lat; do
		# (one window the two share: one entry naming both)
		if [ "$a" = "$b" ]; then grep -q "steady state of OP 10%, OP 28% ($a s)" two/$f.svg
		else grep -q "steady state of OP 10% ($a s)" two/$f.svg && grep -q "steady state of OP 28% ($b s)" two/$f.svg
		fi || { echo "$f"; exit 1; }
	done &&
	"$P" -o twopng --timeline tl0.1.csv:"OP 10%" --timeline tl0.28.csv:"OP 28%" \
		--summary s0.1.json --summary s0.28.json >/dev/null && is_png twopng/timeline-iops.png && is_png twopng/timeline-lat.png
'
t_expect_success 'one --summary for two runs is the first run'"'"'s, named; with one run the key says "steady state", as before' '
	a=$(window s0.1.json) &&
	"$P" --format svg -o first --timeline tl0.1.csv:"OP 10%" --timeline tl0.28.csv:"OP 28%" --summary s0.1.json >/dev/null &&
	grep -q "steady state of OP 10% ($a s)" first/timeline-iops.svg && ! grep -q "steady state of OP 28%" first/timeline-iops.svg &&
	"$P" --format svg -o one --timeline tl0.1.csv:"OP 10%" --summary s0.1.json >/dev/null &&
	grep -q ">steady state ($a s)<" one/timeline-iops.svg && ! grep -q "steady state of" one/timeline-iops.svg
'
t_expect_success 'a summary without a steady state leaves its run unshaded (a note), the other run'"'"'s window named; --steady per run too' '
	b=$(window s0.28.json) &&
	"$P" --format svg -o nf --timeline trim.csv:TRIMs --timeline tl0.28.csv:"OP 28%" --summary trim.json --summary s0.28.json >/dev/null 2>err &&
	grep -q "trim.json: no steady state found" err &&
	grep -qx "steady = .;$(echo "$b" | tr - :)." nf/timeline-iops.gp &&
	grep -q "steady state of OP 28% ($b s)" nf/timeline-iops.svg && ! grep -q "steady state of TRIMs" nf/timeline-iops.svg &&
	"$P" --format svg -o st --timeline tl0.1.csv:A --timeline tl0.28.csv:B --steady 2:4 --steady 3:7.5 >/dev/null &&
	grep -qx "steady = .2:4;3:7.5." st/timeline-iops.gp &&
	grep -q "steady state of A (2-4 s)" st/timeline-iops.svg && grep -q "steady state of B (3-7.5 s)" st/timeline-iops.svg
'
t_expect_success 'a window several runs share is shaded once, its key entry naming them all' '
	"$P" --format svg -o sh --timeline tl0.1.csv:A --timeline tl0.28.csv:B --timeline tl0.1.csv:C \
		--steady 2:4 --steady 3:7.5 --steady 2:4 >/dev/null &&
	grep -q "steady state of A, C (2-4 s)" sh/timeline-iops.svg && grep -q "steady state of B (3-7.5 s)" sh/timeline-iops.svg &&
	test "$(grep -c "steady state of" sh/timeline-iops.svg)" = 2 &&
	r=$(cd sh && gnuplot timeline-iops.gp -e "set print \"-\"; print exists(\"STT\") ? STT[3] : \"none\"") && test "$r" = "<undefined>"
'
t_expect_success 'more windows than runs, or a bad one of several, is a usage error (exit 2)' '
	t_err 2 "2 steady-state windows .* for 1 run" "$P" -o x --timeline tl0.1.csv --summary s0.1.json --summary s0.28.json &&
	t_err 2 "2 steady-state windows .* for 1 run" "$P" -o x --steady 1:2 --steady 2:3 -- -q --qd 1 u.ev &&
	t_err 2 "--steady takes FROM:TO.*not .5." "$P" -o x --timeline tl0.1.csv --timeline tl0.28.csv --steady 1:2 --steady 5 &&
	t_err 2 "--steady or --summary, not both" "$P" -o x --timeline tl0.1.csv --timeline tl0.28.csv --steady 1:2 --summary s0.28.json &&
	test ! -e x
'
t_expect_success 'other scripts'"'"' stats of a CSV without rows: exit 1 naming the file (no undefined STATS_ variable), no figure left' '
	printf "host_pages_written,interval_wa,cumulative_wa\n" >c0.csv &&
	t_err 1 "^ftlplot: .*c0.csv: no rows" "$P" -o e --curve c0.csv && ! grep -q "undefined" .stderr &&
	printf "erase_count,segments\n" >e0.csv &&
	t_err 1 "^ftlplot: .*e0.csv: no rows" "$P" -o e --erase e0.csv && ! grep -q "undefined" .stderr &&
	printf "kind,snapshot,host_pages_written,valid_pages,utilization,segments\nsealed,1,0,3,0.5,2\n" >h0.csv &&
	t_err 1 "util-hist.gp: .*h0.csv: no victims rows" "$P" -o e --hist h0.csv && ! grep -q "undefined" .stderr &&
	test -z "$(ls e)"
'
t_expect_success 'latencies just under a decade (about 9.5 ms): the log axes end a quarter above the longest, off the frame (CDF, tail, timeline)' '
	"$BIN/tracegen" -q -p uniform -n 4096 --fill -w 40000 --read-prob 0.3 -r 2000 -o bin >d.ev &&
	"$S" -q --device femu,channels=1,dies=2 --qd 4 --op 0.07 --logical-pages 4096 --pages-per-segment 64 \
		--timeline d.csv --latency dl.csv d.ev >d.json &&
	"$P" -o dfig --timeline d.csv --latency dl.csv >/dev/null 2>&1 &&
	for f in latency-cdf-write latency-tail-write; do
		max=$(awk "\$1 + 0 == \$1 && \$1 > m { m = \$1 } END { print m }" dfig/$f.dat) &&
		r=$(cd dfig && gnuplot $f.gp -e "set print \"-\"; print GPVAL_X_MAX") &&
		echo "# $f: longest $max us, axis to $r" &&
		awk -v m="$max" -v r="$r" "BEGIN { exit !(m > 8000 && r >= 1.25 * m) }" || return 1
	done &&
	max=$(awk "\$1 + 0 == \$1 && \$2 > m { m = \$2 } END { print m }" dfig/timeline-lat.dat) &&
	r=$(cd dfig && gnuplot timeline-lat.gp -e "set print \"-\"; print GPVAL_Y_MAX") &&
	echo "# timeline: longest $max, axis to $r" && awk -v m="$max" -v r="$r" "BEGIN { exit !(r >= 1.25 * m) }"
'
t_done
