#!/bin/sh
# t0473-timing-deferred: GC that yields (background, preemptible) in
# time keeps flash's order, and the windows and histograms hold.
# - --check verifies in time that no GC copy is programmed before its
#   page's read ended, no page before its block's erase ended, and no
#   block erased with programs into it still deferred: on bursts with
#   idle gaps, background and preemptible GC (hard=0 too), a segment
#   per die, the dies' pages striped, channel transfers, multi-plane
#   commands on and off.
# - Deferred work is charged to the dies as foreground work is: the
#   same busy time (channel transfers and long erases included).
# - --per-volume's wait on GC is the measured window's, as a single
#   run's; a read of partly written pages charges each unwritten page
#   to the die it would lie on; the measured window starts with its
#   first work; latencies of hours keep their percentiles; a trace's
#   times in whole seconds are said to make bursts.
# - Idle-time GC below the low mark is said to clean nothing at the start.
# - The dry run counts the deferred work's memory per volume and in a
#   grid as in a single run.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"

"$G" -q -p hir --rate 4000 -n 16384 --fill --burst 0.75 --waits 5 --rounds 6 --baseline 0 -o bin >"$TMP/hb.ev"

# (under the sanitizers half the pairs of mode and layout: each mode in
# two layouts, each layout under two modes)
t_expect_success 'deferred GC under --check: copies after their reads, programs after their erases, in every layout' '
	i=0 && for m in "--gc-preempt hard=1" "--gc-preempt hard=0" "--bg-gc idle=1,high=8" "--bg-gc idle=1,high=30"; do
		for dev in channels=1,dies=2,layout=die channels=1,dies=2,xfer_us=50 \
			channels=2,dies=2,planes=2,multiplane=on channels=2,dies=2,planes=2,multiplane=off; do
			k=$i i=$((i + 1)); t_sanitized && [ $(((k / 4 + k % 4) % 2)) = 1 ] && continue
			"$S" -q --check --device femu,$dev --op 0.28 --pages-per-segment 64 --gc-low 4 --gc-high 8 $m \
				"$TMP/hb.ev" >o.json 2>e || { cat e; exit 1; }
			jq -e ".wa_total > 1.5 and .timing.latency_us.write.count > 0" o.json >/dev/null || exit 1
		done
	done
'

t_expect_success 'deferred GC under --check where a pass picks a segment its own copies filled (several streams, 4-page segments)' '
	"$G" -q -p hotcold -n 8192 --fill -w 50000 --trim-prob 0.1 --read-prob 0.2 --rate 2000 -o bin >hct.ev &&
	for p in sepbit sepgc dac:4; do
		"$S" -q --check --device femu,channels=2,dies=2 --pages-per-segment 64 --op 0.12 --gc-preempt hard=0 \
			--placement $p hct.ev >/dev/null 2>e || { cat e; exit 1; }
	done &&
	"$S" -q --check --device femu,channels=1,dies=1 --pages-per-segment 4 --volume 1976 --logical-space footprint \
		--op 0.1 --precondition random --gc-preempt hard=0 "$T_TOP/traces/samples/tencent/cbs-sample.csv.bz2" >/dev/null 2>e ||
		{ cat e; exit 1; }
'

t_expect_success 'deferred work costs the dies what foreground work does: transfers on the channel, erases of seconds' '
	for dev in channels=1,dies=2,xfer_us=50 channels=1,dies=1,tbers_us=5000000; do
		"$S" -q --device femu,$dev --op 0.28 --pages-per-segment 64 --gc-low 4 --gc-high 8 "$TMP/hb.ev" >f.json 2>/dev/null &&
		"$S" -q --device femu,$dev --op 0.28 --pages-per-segment 64 --gc-low 4 --gc-high 8 --gc-preempt hard=1 \
			"$TMP/hb.ev" >p.json 2>/dev/null &&
		jq -n --slurpfile f f.json --slurpfile p p.json \
			"\$f[0].gc_pages_copied == \$p[0].gc_pages_copied and
			 (\$f[0].timing.unit_busy_s - \$p[0].timing.unit_busy_s | fabs) < 1e-9" >/dev/null || exit 1
	done
'

t_expect_success '--per-volume: the wait on GC over the measured window, as the single run'"'"'s' '
	"$S" -q --device femu,channels=1,dies=2 --op 0.28 --pages-per-segment 64 --warmup-writes 30000 "$TMP/hb.ev" >one.json 2>/dev/null &&
	"$S" -q --per-volume --device femu,channels=1,dies=2 --op 0.28 --pages-per-segment 64 --warmup-writes 30000 \
		"$TMP/hb.ev" >pv.json 2>/dev/null &&
	jq -n --slurpfile a one.json --slurpfile b pv.json "\$a[0].timing.requests_waited_on_gc > 0 and
		\$b[0].configurations[0].timing.gc_wait_s == \$a[0].timing.gc_wait_s and
		\$b[0].configurations[0].timing.requests_waited_on_gc == \$a[0].timing.requests_waited_on_gc"
'

t_expect_success 'a read of pages 0-3 with 1 and 3 written, on 2 dies: each page on its own die (0.32 ms and 0.24 ms)' '
	printf "0 W 4096 4096 0\n1000000 W 12288 4096 0\n2000000 R 0 16384 0\n" >r.txt &&
	"$S" -q --device femu,channels=2,dies=1 --op 1 --logical-pages 1024 --pages-per-segment 64 r.txt 2>/dev/null |
		jq -e ".timing.unit_busy_s_each == [0.00032, 0.00024] and .timing.latency_us.read.max == 120"
'

t_expect_success 'the measured window starts with its first work: 64 writes on a second die beside the warm-up'"'"'s' '
	awk "BEGIN { for (i = 0; i < 128; i++) printf \"0 W %d 4096 0\\n\", i * 4096 }" >w.txt &&
	"$S" -q --device femu,channels=2,dies=1,layout=die --op 1 --logical-pages 1024 --pages-per-segment 64 \
		--warmup-writes 64 w.txt 2>/dev/null |
		jq -e ".timing.measured_s == 0.0128 and .timing.iops == 5000 and .timing.unit_busy_s_each == [0, 0.0128]"
'

t_expect_success 'an open loop 20 minutes behind: p99 within 1% of the exact 1188 s, not capped' '
	awk "BEGIN { for (i = 0; i < 12000; i++) printf \"0 W %d 4096 0\\n\", i * 4096 }" >c.txt &&
	"$S" -q --device femu,channels=1,dies=1,tprog_us=100000 --op 1 --logical-pages 16384 c.txt 2>/dev/null |
		jq -e ".timing.latency_us.write | (.p99 - 1188000000 | fabs) < 0.01 * 1188000000 and .max == 1200000000"
'

t_expect_success 'a trace in whole seconds (Tencent CBS): its bursts said; an MSR trace (100 ns ticks): not; the time order checked over the volume taken, not the file' '
	"$S" -q --volume 1730 --logical-space footprint --device femu,channels=2,dies=2 \
		"$T_TOP/traces/samples/tencent/cbs-sample.csv.bz2" 2>e >/dev/null &&
	grep -q "the trace.s times are whole seconds and [0-9]*% of the requests arrived at the time of the one before" e &&
	! grep -q "not in time order" e &&
	"$S" -q --logical-space footprint --pages-per-segment 64 "$T_TOP/traces/samples/tencent/cbs-sample.csv.bz2" 2>e >/dev/null &&
	grep -q "not in time order (event 2 is 1.000000000 s before" e &&
	"$T_TOP/bin/tracestat" --volume 1730 "$T_TOP/traces/samples/tencent/cbs-sample.csv.bz2" 2>e >/dev/null &&
	! grep -q "not in time order" e &&
	"$S" -q --logical-space footprint --pages-per-segment 16 --device femu,channels=2,dies=2 "$T_TOP/traces/samples/msr/hm_0-head1000.csv" 2>e >/dev/null &&
	! grep -q "times are whole" e
'

t_expect_success 'the tlc profile'"'"'s 16 KiB pages under 4 KiB writes: warned of; with page_kib=4, not' '
	"$G" -q -p uniform -n 4096 -w 4000 -o bin >u4.ev &&
	"$S" -q --device tlc,channels=2,dies=2 --op 0.28 --logical-pages 4096 --qd 4 u4.ev 2>e >/dev/null &&
	grep -q "100% of the requests are not whole pages of the device.s 16 KiB" e &&
	"$S" -q --device tlc,channels=2,dies=2,page_kib=4 --op 0.28 --logical-pages 4096 --qd 4 u4.ev 2>e >/dev/null &&
	! grep -q "whole pages of the device" e
'

t_expect_success 'idle-time GC that never found an idle period: said, with what foreground GC did instead' '
	"$G" -q -p uniform -n 16384 --fill -w 40000 --rate 2000 -o bin >nogap.ev &&
	"$S" -q --device femu,channels=2,dies=2 --logical-pages 16384 --op 0.2 --bg-gc idle=100,high=8 nogap.ev >ng.json 2>ng.err &&
	n=$(jq .segments_cleaned ng.json) && test "$(jq .timing.bg_victims ng.json)" = 0 &&
	grep -q "idle-time GC (--bg-gc idle=100,high=8) cleaned none of the $n victims" ng.err &&
	"$S" -q --device femu,channels=2,dies=2 --logical-pages 16384 --op 0.2 --bg-gc idle=1,high=8 nogap.ev 2>ng1.err >/dev/null &&
	! grep -q "cleaned none" ng1.err
'
t_expect_success 'idle-time GC whose high mark is below the low mark: said at the start (foreground GC keeps that many free), not blamed on the trace'"'"'s gaps' '
	for h in 3 4; do
		"$S" -q --device femu,channels=2,dies=2 --op 0.28 --gc-low 4 --gc-high 8 --bg-gc idle=100,high=$h hb.ev \
			>lo$h.json 2>lo$h.err || return 1
	done &&
	jq -e ".timing.bg_victims == 0" lo3.json >/dev/null && jq -e ".timing.bg_victims > 0" lo4.json >/dev/null &&
	grep -qx "ftlsim: warning: --bg-gc high=3 with GC starting when fewer than 4 segments are free (--gc-low): foreground GC keeps at least 3 free, so idle time never cleans; give high above 3" lo3.err &&
	! grep -q "cleaned none" lo3.err && ! grep -q "high=4" lo4.err
'
t_expect_success '--grid over the device in time: gc-mode, trim-cost, device and qd axes, each cell the single run'"'"'s' '
	D="--op 0.28 --pages-per-segment 64 --gc-low 4 --gc-high 8"
	"$S" -q $D --device femu,channels=1,dies=2 --grid "gc-mode=foreground,idle:idle=1,high=8,preemptible:hard=1" \
		--results g.csv "$TMP/hb.ev" >g.json &&
	test "$(jq -c "[.configurations[] | [.axes[\"gc-mode\"], .timing.gc_mode]]" g.json)" = \
		"[[\"foreground\",\"foreground\"],[\"idle:idle=1,high=8\",\"idle\"],[\"preemptible:hard=1\",\"preemptible\"]]" &&
	head -n 1 g.csv | grep -q "^tag,volume,gc-mode," &&
	"$S" -q $D --device femu,channels=1,dies=2 --bg-gc idle=1,high=8 "$TMP/hb.ev" >one.json &&
	jq -e --slurpfile g g.json ".timing.latency_us == \$g[0].configurations[1].timing.latency_us and
		.wa_total == \$g[0].configurations[1].wa_total and .timing.bg_victims == \$g[0].configurations[1].timing.bg_victims" one.json &&
	"$S" -q $D --device femu,channels=1,dies=2 --grid "qd=off,4" "$TMP/hb.ev" >q.json &&
	jq -e "[.configurations[] | .timing.qd] == [null, 4]" q.json &&
	"$S" -q $D --logical-space footprint \
		--grid "device=femu,channels=2,dies=2,tlc,channels=2,dies=2,page_kib=4 trim-cost=off,unqueued,us=500" \
		"$T_TOP/traces/samples/blktrace/rootfs-discard" >d.json 2>/dev/null &&
	jq -e "[.configurations[] | .timing.device.profile] == [\"femu\", \"femu\", \"tlc\", \"tlc\"] and
		.configurations[0].timing.latency_us.trim.max == 0 and .configurations[1].timing.latency_us.trim.max >= 500" d.json &&
	t_err 2 "gc-mode=idle needs its --bg-gc" "$S" --grid "gc-mode=idle" "$TMP/hb.ev" &&
	t_err 2 "gc-mode: .bogus. is not foreground" "$S" --grid "gc-mode=bogus" "$TMP/hb.ev" &&
	t_err 2 "^ftlsim: --grid qd=4 gc-mode=idle:idle=1,high=8: --bg-gc and --qd" \
		"$S" --device femu --grid "qd=off,4 gc-mode=foreground,idle:idle=1,high=8" "$TMP/hb.ev" &&
	t_err 2 "the value .1. of .qd. is given twice" "$S" --grid "qd=1,1" "$TMP/hb.ev" &&
	t_err 2 "^ftlsim: --grid qd=abc: option .--qd. needs a whole number from 1 to 1048576, not .abc.$" "$S" --grid "qd=1,abc" "$TMP/hb.ev" &&
	t_err 2 "gc_mode. is not a model option .see --help.; did you mean gc-mode" "$S" --grid "gc_mode=foreground" "$TMP/hb.ev" &&
	t_err 2 "^ftlsim: bad option: did you mean --timeline" "$S" --timline x.csv "$TMP/hb.ev" &&
	t_err 2 "^tracegen: bad option: did you mean --pattern" "$G" --patern uniform &&
	t_err 2 "gc-preempt: empty: hard=N" "$S" --gc-preempt "" "$TMP/hb.ev" &&
	t_err 2 "trim-cost: empty" "$S" --trim-cost "" "$TMP/hb.ev" &&
	t_err 2 "gc-mode=preemptible:: --gc-preempt: empty" "$S" --grid "gc-mode=preemptible:" "$TMP/hb.ev" &&
	t_err 2 "gc-mode sets --bg-gc and --gc-preempt: not with a bg-gc axis" \
		"$S" --timing --grid "gc-mode=foreground bg-gc=idle=1,high=5" "$TMP/hb.ev"
'
t_expect_success 'off on the command line as in a grid: --trim-cost off and none (the summary'"'"'s word), --bg-gc, --gc-preempt and --qd off, each the run without' '
	D="--op 0.28 --pages-per-segment 64 --device femu,channels=1,dies=2 --logical-space footprint"
	R="$T_TOP/traces/samples/blktrace/rootfs-discard"
	"$S" -q $D "$R" 2>/dev/null | jq -S "del(.timing.cpu_s, .timing.elapsed_s, .timing.max_rss_kb, .timing.page_writes_per_s,
		.timing.flash_page_writes_per_s)" >base.json &&
	for a in "--trim-cost off" "--trim-cost none" "--trim-cost unqueued,us=500 --trim-cost off" "--bg-gc idle=1,high=8 --bg-gc off" \
		"--gc-preempt hard=1 --gc-preempt off" "--qd 4 --qd off"; do
		"$S" -q $D $a "$R" 2>/dev/null | jq -S "del(.timing.cpu_s, .timing.elapsed_s, .timing.max_rss_kb,
			.timing.page_writes_per_s, .timing.flash_page_writes_per_s)" >off.json &&
		t_cmp base.json off.json || { echo "$a"; exit 1; }
	done &&
	jq -e ".timing.trim_cost == \"none\" and .timing.latency_us.trim.count > 0" base.json >/dev/null &&
	"$S" -q $D --trim-cost unqueued,us=500 "$R" 2>/dev/null | jq -e ".timing.latency_us.trim.max >= 500" >/dev/null &&
	t_err 2 "queued or unqueued" "$S" --trim-cost nothing "$R"
'
t_expect_success 'a device axis of different page sizes under --logical-pages: the drives'"'"' sizes differ, said; not under --capacity' '
	"$S" -q --logical-pages 16384 --grid "device=femu,channels=2,dies=1,tlc,channels=2,dies=1" "$TMP/hb.ev" >/dev/null 2>e &&
	grep -q "^ftlsim: warning: --logical-pages counts pages of 4096 bytes in device=femu,channels=2,dies=1 and of 16384 in device=tlc,channels=2,dies=1: drives of 0.0625 and 0.25 GiB" e &&
	{ "$S" -q --grid "logical-pages=16384,4096 device=femu,channels=2,dies=1,tlc,channels=2,dies=1" "$TMP/hb.ev" >/dev/null 2>e || :; } &&
	grep -q "logical-pages=16384 device=femu,channels=2,dies=1 and of 16384 in logical-pages=16384 device=tlc" e &&
	"$S" -q --capacity 64M --grid "device=femu,channels=2,dies=1,tlc,channels=2,dies=1" "$TMP/hb.ev" >/dev/null 2>e &&
	! grep -q "same pages" e
'
t_expect_success '--grid: a device value replaces the command line'"'"'s, keys and all; KEY= pieces split where a value is off or has the KEY; a cell'"'"'s warning names it' '
	D="--op 0.28 --pages-per-segment 64 --logical-pages 16384"
	"$S" -q $D --device tlc --grid "device=channels=1,dies=1" "$TMP/hb.ev" 2>/dev/null | jq -c ".configurations[0].timing.device" >a &&
	"$S" -q $D --device channels=1,dies=1 "$TMP/hb.ev" 2>/dev/null | jq -c ".timing.device" >b && t_cmp b a &&
	"$S" -q $D --device femu,channels=2,dies=2 --grid "device=femu,channels=1,dies=1,tlc" "$TMP/hb.ev" 2>/dev/null |
		jq -e "[.configurations[].timing.device | [.profile, .units]] == [[\"femu\", 1], [\"tlc\", 32]]" &&
	"$S" --dry-run $D --timing --grid "gc-preempt=off,hard=1,hard=2 bg-gc=off" "$TMP/hb.ev" 2>/dev/null |
		jq -e "[.per_model[].axes[\"gc-preempt\"]] == [\"off\", \"hard=1\", \"hard=2\"]" &&
	"$S" --dry-run $D --timing --grid "bg-gc=idle=1,high=8,idle=5,high=30,off" "$TMP/hb.ev" 2>/dev/null |
		jq -e "[.per_model[].axes[\"bg-gc\"]] == [\"idle=1,high=8\", \"idle=5,high=30\", \"off\"]" &&
	"$S" --dry-run $D --grid "placement=sepbit,fk:6,R=8,midas" "$TMP/hb.ev" 2>/dev/null |
		jq -e "[.per_model[].axes.placement] == [\"sepbit\", \"fk:6,R=8\", \"midas\"]" &&
	"$S" -q $D --device femu,channels=2,dies=2 --grid "gc-mode=foreground,preemptible" "$TMP/hb.ev" 2>e >/dev/null &&
	grep -q "warning: gc-mode=preemptible: --gc-preempt hard=1 with GC starting when fewer than" e
'

t_expect_success 'a host log'"'"'s unqueued TRIMs, one per cleaned segment: each holds the device for its time (the run that much longer)' '
	"$G" -q -p uniform -n 16384 --fill -w 60000 --rate 3000 -s 2 -o bin >u16r.ev &&
	L="--logical-pages 16384 --host-lfs segment=256K --device femu,channels=2,dies=2 --op 0.28" &&
	"$S" -q $L u16r.ev >free.json 2>/dev/null &&
	"$S" -q $L --trim-cost unqueued,us=2000 u16r.ev >unq.json 2>/dev/null &&
	jq -e --slurpfile f free.json "(.timing.simulated_s - \$f[0].timing.simulated_s) as \$d |
		(.host.out.discards * 0.002) as \$want | .host.out.discards > 1000 and ((\$d - \$want) / \$want | fabs) < 0.01" unq.json
'

t_expect_success 'a timeline interval far below the requests'"'"' gaps: said while the run goes on (1 us rows, QD 1 writes of 200 us), once' '
	"$G" -q -p uniform -n 4096 -w 6000 -o bin >w6k.ev &&
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op 1 --logical-pages 4096 --timeline-interval 0.001 w6k.ev 2>e >/dev/null &&
	grep -q "the timeline already has 1000200 rows of 0.001 ms for 5001 requests" e &&
	test $(grep -c "rows" e) = 1
'

t_expect_success 'the dry run counts GC that yields its deferred work (two words a segment) per volume and in a grid as in one run' '
	"$G" -q -p hotcold --volumes 4 -n 16384 --fill -w 4000 --rate 2000 -o bin >mvd.ev &&
	P="--per-volume --logical-space footprint --device femu --dry-run" &&
	"$S" $P mvd.ev 2>/dev/null >a.json &&
	"$S" $P --bg-gc idle=10,high=8 mvd.ev 2>/dev/null >b.json &&
	jq -n --slurpfile a a.json --slurpfile b b.json -e "[\$b[0].per_model, \$a[0].per_model] | transpose |
		(map(select(.[0].skipped == null)) | length > 0 and
			all(.[0].model_bytes - .[1].model_bytes == (.[0].physical_pages / .[0].pages_per_segment | floor) * 8)) and
		(map(select(.[0].skipped != null)) | all(.[0].model_bytes == 0 and .[1].model_bytes == 0))" &&
	"$S" -q --per-volume --logical-space footprint --device femu --bg-gc idle=10,high=8 mvd.ev 2>/dev/null |
		jq -e --slurpfile b b.json ".memory.estimate_bytes == \$b[0].memory.total_bytes" &&
	D="--op 0.28 --pages-per-segment 64 --logical-pages 16384 --device femu" &&
	b=$("$S" --dry-run $D --bg-gc idle=10,high=8 "$TMP/hb.ev" 2>/dev/null | jq .memory.model_bytes) &&
	o=$("$S" --dry-run $D "$TMP/hb.ev" 2>/dev/null | jq .memory.model_bytes) &&
	"$S" --dry-run $D --grid "bg-gc=idle=10,high=8,off" "$TMP/hb.ev" 2>/dev/null |
		jq -e ".per_model[0].model_bytes - .per_model[1].model_bytes == $b - $o and $b > $o"
'

t_expect_success '--per-volume --latency: every volume'"'"'s requests together, the summary'"'"'s merged counts and p99; refused with a --grid' '
	"$G" -q -p hotcold --volumes 4 -n 16384 --fill -w 40000 --read-prob 0.3 --rate 2000 -o bin >mv.ev &&
	"$S" -q --per-volume --logical-space footprint --op 0.25 --device femu,channels=2,dies=2 --latency pvl.csv mv.ev >pv.json &&
	for k in read write; do
		n=$(awk -F, -v k=$k "NR > 1 && \$1 == k { n += \$3 } END { print n + 0 }" pvl.csv) &&
		p=$(awk -F, -v k=$k "NR > 1 && \$1 == k && \$4 >= 0.99 { print \$2; exit }" pvl.csv) &&
		jq -e --argjson n "$n" --argjson p "$p" ".configurations[0].timing.latency_us.$k | .count == \$n and \$n > 1000 and
			((.p99 - \$p) / \$p | fabs) < 0.01" pv.json >/dev/null || { echo "$k: $n $p"; exit 1; }
	done &&
	t_err 2 "--latency with --per-volume is for one configuration" "$S" --per-volume --grid "op=0.2,0.3" --latency x.csv mv.ev &&
	t_err 2 "page size cannot vary over a grid: device=tlc has 16384-byte pages, the command line 4096 .a device.s page_kib" \
		"$S" --per-volume --logical-space footprint --grid "device=femu,tlc" mv.ev &&
	test ! -e x.csv
'

t_done
