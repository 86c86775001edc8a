#!/bin/sh
# t0160-tracestat-idle: tracestat's idle time - the gaps between
# arrivals, their histogram, the idle share at --idle-threshold, the
# busy periods; per volume in the --per-volume table; traces without
# timestamps or out of time order say so.
. "$(dirname "$0")/lib.sh"
ST="$BIN/tracestat"

# Gaps of 1, 1, 100, 1 and 1000 ms: at 10 ms, 1100 ms idle of 1103 ms,
# busy periods of 2, 1 and 0 ms.
printf "%s\n" "0 W 0 4096 0" "1000000 W 4096 4096 0" "2000000 R 0 4096 0" "102000000 W 0 4096 0" \
	"103000000 D 0 4096 0" "1103000000 F 0 0 0" >"$TMP/g.txt"
# idle JSON-FILE JQ: the value of JQ in the first trace's idle object.
# (jq itself: the cases check the order of the keys too)
idle() { command jq -c ".traces[0].idle | $2" "$1"; }

t_expect_success 'known gaps: idle and busy time, the idle share, the busy periods' '
	"$ST" -q g.txt >g.json &&
	test "$(idle g.json "[.threshold_ms, .timestamps, .gaps, .gaps_out_of_order, .idle_gaps, .idle_s, .busy_s]")" = \
		"[10,true,5,0,2,1.1,0.003]" &&
	test "$(idle g.json .idle_share)" = "$(python3 -c "print(\"%.10g\" % (1100 / 1103))")" &&
	test "$(idle g.json "[.busy_periods.count, .busy_periods.mean_s, .busy_periods.max_s]")" = "[3,0.001,0.002]"
'

t_expect_success 'the gap histogram: log-2 buckets in microseconds, first to last non-empty' '
	idle g.json ".gap_hist | length, .[0], .[7], .[10]" >h &&
	printf "%s\n" 11 "{\"min_us\":512,\"max_us\":1024,\"gaps\":3}" "{\"min_us\":65536,\"max_us\":131072,\"gaps\":1}" \
		"{\"min_us\":524288,\"max_us\":1048576,\"gaps\":1}" | t_cmp - h &&
	test "$(idle g.json "[.gap_hist[].gaps] | add")" = 5 &&
	printf "0 W 0 512 0\n0 W 0 512 0\n999 W 0 512 0\n1000 W 0 512 0\n" | "$ST" -q - >z.json &&
	test "$(idle z.json ".gap_hist")" = "[{\"min_us\":0,\"max_us\":1,\"gaps\":3}]"
'

t_expect_success '--idle-threshold: a gap equal to it is idle; just above 100 ms, one idle gap; 0.5 ms, all' '
	"$ST" -q --idle-threshold 100 g.txt >a.json && test "$(idle a.json "[.idle_gaps, .idle_s]")" = "[2,1.1]" &&
	"$ST" -q --idle-threshold 100.001 g.txt >b.json && test "$(idle b.json "[.idle_gaps, .idle_s, .busy_periods.max_s]")" = "[1,1,0.103]" &&
	"$ST" -q --idle-threshold 0.5 g.txt >c.json && test "$(idle c.json "[.idle_gaps, .busy_s, .busy_periods.count]")" = "[5,0,6]"
'

t_expect_success '--csv: the idle numbers as metrics, no histogram' '
	"$ST" -q --csv g.txt >g.csv &&
	grep -qx "g.txt,idle.idle_gaps,2" g.csv && grep -qx "g.txt,idle.busy_periods.count,3" g.csv &&
	grep -q "^g.txt,idle.idle_share,0.99728" g.csv && ! grep -q gap_hist g.csv
'

# A trace of known gaps from tracegen's hir pattern: 4 rounds each of
# 2 and 3 s waits; the idle share is 20 s over the span of the trace.
t_expect_success 'a generated trace of known gaps: the idle share is the computed one, exactly' '
	"$BIN/tracegen" -p hir --rate 2000 --burst 0.3 --waits 2,3 --rounds 4 --baseline 1 -n 4096 -s 9 -o text \
		2>/dev/null >hir.txt &&
	"$ST" -q --idle-threshold 500 hir.txt >hir.json &&
	first=$(head -1 hir.txt | cut -d" " -f1) && last=$(tail -1 hir.txt | cut -d" " -f1) &&
	want=$(python3 -c "print(\"%.10g\" % (20e9 / ($last - $first)))") &&
	test "$(idle hir.json .idle_share)" = "$want" &&
	test "$(idle hir.json "[.idle_gaps, .idle_s, .busy_periods.count]")" = "[8,20,9]" &&
	test "$(idle hir.json .busy_s)" = "$(python3 -c "print(\"%.10g\" % (($last - $first - 20e9) / 1e9))")"
'

t_expect_success 'no timestamps (every t_ns 0): said so, no idle figures' '
	printf "0 W 0 4096 0\n0 W 4096 4096 0\n0 R 0 4096 0\n" >flat.txt && "$ST" -q flat.txt >f.json &&
	test "$(idle f.json "keys_unsorted")" = "[\"threshold_ms\",\"timestamps\",\"note\"]" &&
	test "$(idle f.json .timestamps)" = false && idle f.json .note | grep -q "no timestamps" &&
	"$ST" -q --csv flat.txt | grep "idle\." | cut -d, -f1-3 >f.csv &&
	test "$(cat f.csv)" = "flat.txt,idle.threshold_ms,10
flat.txt,idle.timestamps,false
flat.txt,idle.note,\"every event at t_ns 0: the trace has no timestamps" &&
	printf "5 W 0 4096 0\n" | "$ST" -q - | jq -e ".traces[0].idle | .timestamps == false and (.note | test(\"fewer than two\"))"
'

t_expect_success 'a real trace (MSR hm_0): gaps = events - 1, busy + idle = duration, the histogram sums up' '
	"$ST" -q "$SAMPLES/msr/hm_0-head1000.csv" >m.json &&
	python3 -c "
import json
d = json.load(open(\"m.json\"))[\"traces\"][0]
i = d[\"idle\"]
print(d[\"duration_s\"], i[\"idle_s\"], i[\"busy_s\"], i[\"idle_share\"], i[\"busy_periods\"])
assert i[\"timestamps\"] and i[\"gaps\"] == d[\"events\"] - 1 == 999 and i[\"gaps_out_of_order\"] == 0
assert abs(i[\"idle_s\"] + i[\"busy_s\"] - d[\"duration_s\"]) < 1e-6, (i[\"idle_s\"] + i[\"busy_s\"], d[\"duration_s\"])
assert 0.9 < i[\"idle_share\"] < 1 and i[\"idle_gaps\"] > 50
assert abs(i[\"idle_share\"] - i[\"idle_s\"] / d[\"duration_s\"]) < 1e-9
b = i[\"busy_periods\"]
assert b[\"count\"] == i[\"idle_gaps\"] + 1 and abs(b[\"mean_s\"] * b[\"count\"] - i[\"busy_s\"]) < 1e-6
assert 0 < b[\"max_s\"] <= i[\"busy_s\"] and b[\"max_s\"] >= b[\"mean_s\"]
assert sum(h[\"gaps\"] for h in i[\"gap_hist\"]) == 999
assert all(h[\"max_us\"] == 2 * h[\"min_us\"] or h[\"min_us\"] == 0 for h in i[\"gap_hist\"])
"
'

# Per volume: the summary's idle time is the whole trace's (all volumes
# together); --volume V gives one volume's own gaps.
t_expect_success 'whole trace against one volume: --volume V has its own gaps, idle + busy = its duration' '
	TC="$SAMPLES/tencent/cbs-sample.csv.bz2" &&
	"$ST" -q --sort "$TC" >all.json 2>/dev/null &&
	test "$(idle all.json "[.gaps, .idle_gaps, .idle_s, .busy_s]")" = "[49999,1,1,0]" &&
	"$ST" -q --sort --volume 1063 "$TC" >one.json 2>/dev/null &&
	test "$(jq .traces[0].events one.json)" = 434 &&
	test "$(idle one.json "[.gaps, .idle_gaps, .idle_s, .busy_s, .busy_periods.count]")" = "[433,1,1,0,2]" &&
	"$ST" -q --sort --volume 1058 "$TC" >v.json 2>/dev/null &&
	test "$(idle v.json "[.timestamps, (.note | test(\"same time, t_ns [0-9]+: no gaps\"))]")" = "[false,true]"
'

t_expect_success 'a trace out of time order: counted and said so; --sort puts it right' '
	S17="$SAMPLES/systor17/caffeine_systor17-traces-sample.csv.gz" &&
	"$ST" -q "$S17" >u.json 2>/dev/null && "$ST" -q --sort "$S17" >s.json 2>/dev/null &&
	test "$(idle u.json ".gaps_out_of_order > 0")" = true && idle u.json .note | grep -q -- "--sort" &&
	test "$(idle s.json "[.gaps_out_of_order, has(\"note\")]")" = "[0,false]" &&
	python3 -c "
import json
d = json.load(open(\"s.json\"))[\"traces\"][0]
assert abs(d[\"idle\"][\"idle_s\"] + d[\"idle\"][\"busy_s\"] - d[\"duration_s\"]) < 1e-6
"
'

t_expect_success 'timestamps too coarse for the threshold (whole seconds, 10 ms): said, with the resolution, from steps back too' '
	printf "0 W 0 4096 0\n0 W 4096 4096 0\n1000000000 W 8192 4096 0\n3000000000 W 0 4096 0\n" >coarse.txt &&
	"$ST" -q coarse.txt >c.json &&
	jq -e ".traces[0].idle.resolution_ms == 1000 and (.traces[0].idle.note | test(\"too coarse to tell idle from busy\"))" c.json &&
	"$ST" -q --idle-threshold 2000 coarse.txt | jq -e ".traces[0].idle.note == null" &&
	printf "1000000000 W 0 4096 0\n0 W 4096 4096 0\n1000000000 W 8192 4096 0\n" >back.txt &&
	"$ST" -q back.txt | jq -e ".traces[0].idle.resolution_ms == 1000 and (.traces[0].idle.note | test(\"too coarse\"))" >/dev/null
'
t_expect_success 'no time from the first arrival to the last in the trace'"'"'s order (the first is the latest): no idle share, and said' '
	"$ST" -q back.txt 2>/dev/null | jq -e ".traces[0].idle | .idle_s == 0 and .busy_s == 0 and .idle_share == null and
		(.note | test(\"here every gap is 0\"))" >/dev/null &&
	"$ST" -q --csv back.txt 2>/dev/null | grep -q "idle.idle_s,0" && "$ST" -q --csv back.txt 2>/dev/null | grep -qx "back.txt,idle.idle_share," &&
	"$ST" -q coarse.txt | jq -e ".traces[0].idle | .idle_share == 1 and (.note | test(\"here every\") | not)" >/dev/null
'

for a in 0 -1 abc 1e13; do
	t_expect_success "usage error: --idle-threshold $a" "t_err 2 'idle-threshold' \"\$ST\" --idle-threshold $a g.txt"
done

t_done
