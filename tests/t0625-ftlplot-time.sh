#!/bin/sh
# t0625-ftlplot-time: ftlplot draws a device in time. --timeline: IOPS
# and the p99 latency against simulated time, the rows of the CSV
# plotted as they are, the steady state shaded from --steady or a
# summary; with one run the units' busy share and GC's part of it.
# --latency: the CDF and its tail for each kind of request present,
# steps that end at 1, markers at the percentiles. With -- and a timing
# option ftlsim writes both into DIR. Usage errors exit 2, a missing or
# wrong file exits 1 naming it.
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (CI's second pass) skipped: its subject is shell
# and gnuplot, which the first pass has tested; the ftlsim and tracegen
# code it runs is tested under the sanitizers elsewhere.
if t_sanitized; then
	t_skip 'the time figures of ftlplot' "the sanitizers' build: the scripts are the plain build's check"
	t_done
	exit
fi
P="$BIN/ftlplot"
S="$BIN/ftlsim"
ROOTFS="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"

is_png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
# block N FILE: the rows "x y" of the N-th curve (from 0) of a gnuplot table.
block() { awk -v n="$1" '/^# Curve [0-9]/ { b = $3 + 0; next } /^#/ || !NF { next } b == n { print $1, $2 }' "$2"; }

if ! command -v gnuplot >/dev/null 2>&1; then
	t_skip 'ftlplot --timeline and --latency' 'gnuplot is not installed'
	t_done
	exit
fi

# Random writes on one die at QD 1, OP 10% and 28%: the IOPS fall when
# GC begins, the write latency has a tail of GC waits.
"$BIN/tracegen" -p uniform -n 16384 --fill -w 100000 --seed 1 -o bin >"$TMP/u.ev" 2>/dev/null
for op in 0.1 0.28; do
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op $op --logical-pages 16384 --pages-per-segment 64 \
		--timeline "$TMP/tl$op.csv" --latency "$TMP/lat$op.csv" "$TMP/u.ev" >"$TMP/s$op.json"
done
# A real trace, open loop: reads, writes and TRIMs (which take no time).
"$S" -q --logical-space footprint --op 0.07 --pages-per-segment 64 --precondition random --device femu \
	--time-scale 4 --timeline "$TMP/tlr.csv" --latency "$TMP/latr.csv" "$ROOTFS" >"$TMP/sr.json"

t_expect_success 'two runs: timeline-iops, timeline-lat, latency-cdf-write, latency-tail-write, each with .dat and .gp, the names printed' '
	"$P" -o two --timeline tl0.1.csv:"OP 10%" --timeline tl0.28.csv:"OP 28%" \
		--latency lat0.1.csv:"OP 10%" --latency lat0.28.csv:"OP 28%" >list &&
	cat list && test "$(tr "\n" " " <list)" = "two/timeline-iops.png two/timeline-lat.png two/timeline-gc.png two/latency-cdf-write.png two/latency-tail-write.png " &&
	for f in timeline-iops timeline-lat timeline-gc latency-cdf-write latency-tail-write; do
		is_png two/$f.png && test -s two/$f.dat && test -s two/$f.gp || { echo "$f"; exit 1; }
	done &&
	test ! -e two/timeline-busy.png && test ! -e two/latency-cdf-read.png && test ! -e two/latency-cdf-trim.png &&
	grep -q "tl0.1.csv|OP 10%;.*tl0.28.csv|OP 28%" two/timeline-iops.gp
'
t_expect_success 'timeline-gc.dat: each run'"'"'s GC share of the units'"'"' time, busy x gc_busy_share, at the middle of each interval' '
	for k in 0 1; do
		f=tl0.1.csv; [ $k = 0 ] || f=tl0.28.csv
		awk -F, "NR > 1 { printf \"%s %.5g\\n\", \$1 + 0.5, \$6 * \$7 }" $f >want &&
		block $k two/timeline-gc.dat | awk "{ printf \"%s %.5g\\n\", \$1, \$2 }" >got && t_cmp want got || { echo "run $k"; exit 1; }
	done
'
t_expect_success 'timeline-iops.dat: each run its CSV rows, IOPS as they are, at the middle of each interval' '
	for k in 0 1; do
		f=tl0.1.csv; [ $k = 0 ] || f=tl0.28.csv
		awk -F, "NR > 1 { print \$1 + 0.5, \$2 }" $f >want &&
		block $k two/timeline-iops.dat >got && test $(wc -l <want) -gt 20 && t_cmp want got || { echo "run $k"; exit 1; }
	done &&
	awk -F, "NR > 1 && \$5 > 0 && \$2 > 0 { print \$1 + 0.5, \$5 }" tl0.1.csv >want &&
	block 0 two/timeline-lat.dat | awk "\$2 != \"NaN\" && \$2 > 0" >got && t_cmp want got
'
t_expect_success 'the IOPS fall once GC begins (the figure shows the device, not a flat line)' '
	block 0 two/timeline-iops.dat | awk "NR == 1 { a = \$2 } { z = \$2 } END { print a, z; exit !(a > 2 * z) }"
'
t_expect_success 'latency-cdf-write.dat: steps from 0 up to 1, never falling; the tail is 1 - CDF, its last step down to the axis at the maximum; the p99 marker where the CSV reaches 0.99' '
	for k in 0 1; do
		f=lat0.1.csv; [ $k = 0 ] || f=lat0.28.csv
		block $k two/latency-cdf-write.dat >cdf &&
		awk "NR == 1 && \$2 != 0 { exit 1 } \$2 < p || \$1 < x { exit 1 } { p = \$2; x = \$1; l = \$2 } END { exit !(l == 1 && NR > 3) }" cdf ||
			{ echo "run $k: cdf"; cat cdf; exit 1; }
		block $k two/latency-tail-write.dat >tail &&
		paste -d" " cdf tail | awk -v n=$(wc -l <cdf) "NR > 1 && NR < n - 1 { d = \$2 + \$4 - 1; if (d > 1e-5 || d < -1e-5) exit 1 }
			NR > 1 && NR < n && \$4 < m || m == \"\" { m = \$4 } NR == n { exit !(\$3 == x && \$4 < m && \$4 > 0) } { x = \$1 }" ||
			{ echo "run $k: tail"; exit 1; }
		p99=$(awk -F, "\$1 == \"write\" && \$4 >= 0.99 { print \$2; exit }" $f) &&
		block $((k + 2)) two/latency-cdf-write.dat | awk -v x="$p99" "\$2 == 0.99 { f = 1; if (\$1 != x) exit 1 } END { exit !f }" ||
			{ echo "run $k: p99 marker, want $p99"; exit 1; }
	done
'
t_expect_success 'the tail is what OP buys: at OP 28% fewer writes wait on GC than at 10% (1 - CDF past the first bucket)' '
	a=$(block 0 two/latency-tail-write.dat | sed -n 2p | cut -d" " -f2) &&
	b=$(block 1 two/latency-tail-write.dat | sed -n 2p | cut -d" " -f2) &&
	echo "OP 10%: $a, OP 28%: $b" && awk -v a="$a" -v b="$b" "BEGIN { exit !(b < a && b > 0) }"
'
t_expect_success 'one run: timeline-busy too (busy share, GC part = busy x gc_busy_share), and the mean latency beside the p99' '
	"$P" -o one --timeline tl0.1.csv >list && test $(wc -l <list) -eq 3 && is_png one/timeline-busy.png &&
	awk -F, "NR > 1 { print \$1 + 0.5, \$6 }" tl0.1.csv >want && block 0 one/timeline-busy.dat >got && t_cmp want got &&
	awk -F, "NR > 1 { printf \"%s %.5g\\n\", \$1 + 0.5, \$6 * \$7 }" tl0.1.csv >want &&
	block 1 one/timeline-busy.dat | awk "{ printf \"%s %.5g\\n\", \$1, \$2 }" >got && t_cmp want got &&
	grep -q "^mean = 1" one/timeline-lat.gp && grep -q "Curve title: \"tl0.1: mean\"" one/timeline-lat.dat
'
t_expect_success 'the steady state: --summary reads timing.steady_state, --steady gives it; NAME.gp redraws' '
	w=$(awk "/\"start_s\"/ { a = \$2 } /\"end_s\"/ { b = \$2 } END { sub(/,/, \"\", a); sub(/,/, \"\", b); printf \"%g:%g\", a, b }" s0.1.json) &&
	echo "window $w" && grep -q "\"found\": true" s0.1.json &&
	"$P" -o ss --timeline tl0.1.csv --summary s0.1.json >/dev/null && grep -qx "steady = .$w." ss/timeline-iops.gp &&
	"$P" -o st --timeline tl0.1.csv --steady 3:7.5 >/dev/null && grep -qx "steady = .3:7.5." st/timeline-iops.gp &&
	rm st/timeline-iops.png && (cd st && gnuplot timeline-iops.gp) && is_png st/timeline-iops.png
'
t_expect_success 'a summary without a steady state: a note on stderr, nothing shaded, exit 0' '
	grep -q "\"found\": null" sr.json &&
	"$P" -o nf --timeline tlr.csv --summary sr.json >/dev/null 2>err && cat err &&
	grep -q "sr.json: no steady state found" err && grep -qx "steady = .." nf/timeline-iops.gp
'
t_expect_success 'a real trace: reads, writes and TRIMs each a CDF and a tail; TRIMs at 0 us drawn at a floor the figure names' '
	"$P" -o real --latency latr.csv:rootfs >list && test $(wc -l <list) -eq 6 &&
	for kd in write read trim; do is_png real/latency-cdf-$kd.png && is_png real/latency-tail-$kd.png || exit 1; done &&
	grep -q "^zero = 1" real/latency-cdf-trim.gp && ! grep -q "^zero" real/latency-cdf-read.gp &&
	n=$(awk -F, "\$1 == \"trim\" { s += \$3 } END { print s }" latr.csv) && grep -q "rootfs ($n TRIMs)" real/latency-cdf-trim.gp &&
	test "$(block 0 real/latency-cdf-trim.dat | tail -n 1)" = "1 1" &&
	block 0 real/latency-cdf-read.dat | tail -n 1 | awk "{ exit !(\$2 == 1) }"
'
t_expect_success 'ftlplot -- FTLSIM-ARGS with --device: timeline.csv and latency.csv in DIR, their figures, the run steady state shaded' '
	"$P" -o run -- -q --device femu,channels=1,dies=1 --qd 1 --op 0.1 --logical-pages 16384 --pages-per-segment 64 u.ev >list &&
	test -s run/timeline.csv && test -s run/latency.csv && test $(wc -l <list) -eq 9 &&
	grep -qx "run/timeline-busy.png" list && grep -qx "run/latency-tail-write.png" list &&
	grep -q "^title = .greedy, single, OP .*, b = 64, TRIM on, femu (1 unit), QD 1.\$" run/timeline-iops.gp &&
	w=$(grep "^steady = " ss/timeline-iops.gp) && grep -qx "$w" run/timeline-iops.gp &&
	t_cmp tl0.1.csv run/timeline.csv &&
	"$P" -o plain -- -q --logical-pages 16384 --pages-per-segment 64 u.ev >list && test $(wc -l <list) -eq 4 && test ! -e plain/timeline.csv
'
t_expect_success 'usage errors exit 2' '
	t_err 2 "--steady takes FROM:TO" "$P" --timeline tl0.1.csv --steady 5 &&
	t_err 2 "--steady takes FROM:TO" "$P" --timeline tl0.1.csv --steady 7:3 &&
	t_err 2 "--steady or --summary, not both" "$P" --timeline tl0.1.csv --steady 1:2 --summary s0.1.json &&
	t_err 2 "go with --timeline" "$P" --latency lat0.1.csv --steady 1:2 &&
	t_err 2 "option .--timeline. needs an argument" "$P" --timeline &&
	t_err 2 "passes --timeline to ftlsim itself" "$P" -o x -- --qd 1 --timeline t.csv u.ev &&
	t_err 2 "only one of the CSV files can be -" "$P" -o x --timeline - --latency - </dev/null
'
t_expect_success 'a missing or wrong file exits 1 naming it' '
	t_err 1 "cannot read .nope.csv." "$P" -o x --timeline nope.csv &&
	t_err 1 "cannot read .gone.csv." "$P" -o x --latency gone.csv:label &&
	t_err 1 "cannot read .none.json." "$P" -o x --timeline tl0.1.csv --summary none.json &&
	t_err 1 "lat0.1.csv: not an ftlsim --timeline CSV" "$P" -o x --timeline lat0.1.csv &&
	t_err 1 "tl0.1.csv: not an ftlsim --latency CSV" "$P" -o x --latency tl0.1.csv &&
	t_err 1 "tl0.1.csv: no timing.steady_state" "$P" -o x --timeline tl0.1.csv --summary tl0.1.csv &&
	printf "{\"program\": \"ftlsim\", \"configurations\": [{\"timing\": {\"steady_state\": {\"found\": true, \"start_s\": 1, \"end_s\": 6}}}]}\n" >grid.json &&
	t_err 1 "grid.json: the summary of a --grid, a steady state for each configuration: give the K-th.s .that of timeline FILE.K.csv. with --steady" \
		"$P" -o x --timeline tl0.1.csv --summary grid.json &&
	test "$(jq -r ".configurations[0].timing.steady_state | \"\\(.start_s):\\(.end_s)\"" grid.json)" = 1:6 &&
	{ head -n 3 lat0.1.csv; echo "write,abc,1,1"; } >bad.csv &&
	t_err 1 "bad.csv: line 4: not a --latency row" "$P" -o x --latency bad.csv &&
	test $(grep -c "ftlplot:" "$TMP/.stderr") = 1 &&
	{ head -n 2 lat0.1.csv; sed -n 3p lat0.1.csv | awk -F, -v OFS=, "{ \$3 = \"-5\"; print }"; } >neg.csv &&
	t_err 1 "neg.csv: line 3: not a --latency row" "$P" -o x --latency neg.csv &&
	{ head -n 2 tl0.1.csv; sed -n 3p tl0.1.csv | sed "s/\$/,7/"; } >t15.csv &&
	t_err 1 "t15.csv: line 3: ([0-9]+) fields, its header has" "$P" -o x --timeline t15.csv &&
	{ head -n 2 tl0.1.csv; echo "3,abc,1,2"; } >t4.csv &&
	t_err 1 "t4.csv: line 3: 4 fields, its header has 14" "$P" -o x --timeline t4.csv &&
	head -n 3 lat0.1.csv >short.csv &&
	t_err 1 "short.csv: line 3: the write rows end at cdf 0\.[0-9]+, not 1" "$P" -o x --latency short.csv &&
	{ head -n 3 tl0.1.csv; echo "2,5,x,1,1,1,0,0,3,1,5,1,0,5"; } >badt.csv &&
	t_err 1 "badt.csv: line 4: field 3 is not a number" "$P" -o x --timeline badt.csv &&
	test ! -e x/timeline-iops.png
'
# ftlplot -- FTLSIM-ARGS stopped by SIG (to ftlplot alone, or to its
# process group as a terminal's ^C is) while ftlsim waits on a FIFO:
# exit 128 + SIG, nothing of the run left: DIR, which it made, gone.
sig_case() { # SIG STATUS GROUP
	rm -rf sd sf.fifo && mkfifo sf.fifo &&
	{ awk "BEGIN { for (i = 0; i < 200; i++) print i * 1000, \"W\", (i % 64) * 4096, 4096, 0 }"; sleep 4; } >sf.fifo &
	feeder=$!
	if [ "$3" = group ]; then
		setsid "$P" -o sd -- --device femu,channels=1,dies=1 --logical-pages 4096 --pages-per-segment 64 -f ev sf.fifo 2>/dev/null &
	else
		"$P" -o sd -- --device femu,channels=1,dies=1 --logical-pages 4096 --pages-per-segment 64 -f ev sf.fifo 2>/dev/null &
	fi
	p=$!
	sleep 1
	if [ "$3" = group ]; then kill -s "$1" -- "-$p"; else kill -s "$1" "$p"; fi
	wait "$p"
	rc=$?
	kill "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null
	[ "$rc" = "$2" ] || { echo "exit $rc, want $2"; return 1; }
	test ! -e sd || { ls -A sd; return 1; }
}
t_expect_success 'ftlplot -- FTLSIM-ARGS, SIGTERM to ftlplot while ftlsim runs: exit 143, ftlsim stopped, nothing left in DIR' '
	sig_case TERM 143 one
'
t_expect_success 'ftlplot -- FTLSIM-ARGS, SIGHUP: exit 129, nothing left' '
	sig_case HUP 129 one
'
t_expect_success 'ftlplot -- FTLSIM-ARGS, SIGINT to the process group (a terminal'"'"'s ^C): exit 130, nothing left' '
	sig_case INT 130 group
'
t_expect_success 'ftlplot -- with --device-keys alone draws the device in time; --grid and --per-volume refused before any run' '
	"$BIN/tracegen" -q -p uniform -n 4096 -w 20000 -o bin >k.ev &&
	"$P" -o dk -- --device-keys channels=1,dies=1 --logical-pages 4096 --pages-per-segment 64 k.ev >list 2>/dev/null &&
	grep -q "timeline-iops" list && test -s dk/latency.csv &&
	t_err 2 "ftlplot -- draws one run, not --grid" "$P" -o dg -- --logical-pages 4096 --grid qd=1,2 k.ev &&
	t_err 2 "not --per-volume" "$P" -o dg -- --per-volume k.ev && test ! -e dg
'
t_expect_success 'ftlplot -- ... - reads the trace from its standard input' '
	"$BIN/tracegen" -q -p uniform -n 4096 -w 20000 -o text >pin.txt &&
	"$P" -o pin -- -q --logical-pages 4096 --pages-per-segment 64 - <pin.txt >list &&
	grep -q "wa-curve" list && jq -e ".input.events == 20000" pin/summary.json
'
t_expect_success 'a signal keeps what the run did not write: an earlier run'"'"'s CSVs (ftlsim writes none when stopped), a file of the user'"'"'s in DIR/gp' '
	rm -rf keep sk.fifo && mkdir -p keep/gp && echo mine >keep/gp/notes.txt && echo old >keep/timeline.csv &&
	echo earlier >keep/curve.csv && mkfifo sk.fifo &&
	{ awk "BEGIN { for (i = 0; i < 200; i++) print i * 1000, \"W\", (i % 64) * 4096, 4096, 0 }"; sleep 4; } >sk.fifo &
	feeder=$!
	"$P" -o keep -- --device femu,channels=1,dies=1 --logical-pages 4096 --pages-per-segment 64 -f ev sk.fifo 2>/dev/null &
	p=$!
	sleep 1; kill -s TERM $p; wait $p; rc=$?
	kill $feeder 2>/dev/null; wait $feeder 2>/dev/null
	test $rc = 143 && test "$(cat keep/gp/notes.txt)" = mine && test "$(cat keep/timeline.csv)" = old &&
	test "$(cat keep/curve.csv)" = earlier && test ! -e keep/summary.json
'
t_done
