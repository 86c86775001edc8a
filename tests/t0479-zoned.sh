#!/bin/sh
# t0479-zoned: a zoned device (--zoned). Zones written at their
# pointers, reset and finished by the trace's zone operations; no GC, so
# WA 1, above it only by what a finish pads; a write off the pointer is
# an error naming the zone and the event (counted with --skip-bad); a
# log-structured file system on it (--host-lfs) resets the zones it
# cleans and leaves the device at WA 1.000.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
printf '0 W 0 8192 0\n1 W 8192 4096 0\n2 ZA 0 4096 0\n3 R 0 16384 0\n4 ZF 0 0 0\n5 ZR 0 0 0\n6 W 0 4096 0\n7 W 1048576 4096 0\n8 ZF 1048576 0 0\n' >"$TMP/z.txt"

t_expect_success 'writes at the pointers, an append, a read, finish, reset: WA 1, the zone counts' '
	"$S" -q --logical-pages 1024 --zoned size=1M z.txt >a.json &&
	jq -e ".host_pages_written == 6 and .flash_pages_written == 6 and .wa_total == 1 and
		.zoned.resets == 1 and .zoned.finishes == 2 and .zoned.finish_pad_pages == 0 and
		.zoned.zones == 4 and .segments_cleaned == 1 and .segments_cleaned_empty == 1 and .write_cost == 1" a.json
'
t_expect_success 'finish=pad: the device programs the rest of each zone it finishes' '
	"$S" -q --logical-pages 1024 --zoned size=1M,finish=pad z.txt |
		jq -e ".zoned.finish_pad_pages == (252 + 255) and .flash_pages_written == 513 and .wa_total == 85.5"
'
# Pages 0-1 written and discarded (the zones ignore it: leaked), zone 0
# reset (emptied: no longer leaked), page 0 written; in zone 1 pages
# 256-257 written, 256 discarded (leaked), 258 written: six page writes,
# the last finds one page leaked.
printf '0 W 0 8192 0\n1 D 0 8192 0\n2 ZR 0 1048576 0\n3 W 0 4096 0\n4 W 1048576 8192 0\n5 D 1048576 4096 0\n6 W 1056768 4096 0\n' >"$TMP/zl.txt"
t_expect_success 'the TRIM leak on zones: a reset empties its zone, whose discarded pages leave the leak' '
	for t in --trim --no-trim; do
		"$S" -q --logical-pages 512 --zoned size=1M $t zl.txt |
			jq -e ".host.trim_leak_pages == 1 and .host.trim_leak_pages_peak == 2 and
				(.host.trim_leak_pages_mean * 6 - 1 | fabs) < 1e-9 and .zoned.resets == 1" >/dev/null || exit 1
	done
'
t_expect_success 'a write off the pointer: exit 1 naming the zone and the event; --skip-bad counts it' '
	printf "0 W 0 4096 0\n1 W 8192 4096 0\n" >bad.txt &&
	t_err 1 "bad.txt:2 \(event 2\): zone 0: a write at page 2, the write pointer at 1" "$S" --logical-pages 1024 --zoned size=1M bad.txt &&
	"$S" -q --skip-bad --logical-pages 1024 --zoned size=1M bad.txt | jq -e ".zoned.write_errors_skipped == 1 and .host_pages_written == 1"
'
t_expect_success 'in time, what the model drops is no request served: writes skipped (--skip-bad) and reads past the logical space (--out-of-range drop; clip: only the pages within it) have no latency and no flash time' '
	awk "BEGIN { for (i = 0; i < 600; i++) print i * 1000000, \"W\", (i % 300) * 4096, 4096, 0 }" >zb.txt &&
	"$S" -q --device femu,channels=1,dies=1,xfer_us=0 --zoned size=1M --skip-bad --logical-pages 1024 zb.txt 2>/dev/null |
		jq -e ".zoned.write_errors_skipped == 300 and .timing.latency_us.write.count == 300 and
			.timing.latency_us.write.max < 201 and .timing.requests == 300" >/dev/null &&
	awk "BEGIN { for (i = 0; i < 300; i++) print i * 1000000, \"W\", i * 4096, 4096, 0;
		for (i = 0; i < 100; i++) print (300 + i) * 1000000, \"R\", 1016 * 4096, 65536, 0 }" >oor.txt &&
	for m in drop clip; do
		"$S" -q --device femu,channels=1,dies=1,xfer_us=0 --logical-pages 1024 --pages-per-segment 64 --out-of-range $m oor.txt 2>/dev/null |
			jq -r "[.timing.latency_us.read.count, .timing.unit_busy_s] | @tsv" || return 1
	done >got &&
	printf "0\t0.06\n100\t0.092\n" >want && t_cmp want got
'
t_expect_success 'a host log on zones whose capacity is below their size: refused before the replay (it writes whole zones)' '
	printf "0 W 0 4096 0\n" >one.txt &&
	t_err 2 "^ftlsim: --host-lfs on a zoned device: a host segment is a zone written whole, and a zone of 256 pages takes only its capacity, 128 \(capacity= below size=\)$" \
		"$S" --logical-pages 1024 --zoned size=1M,capacity=512K --host-lfs segment=1M one.txt &&
	t_err 2 "^ftlsim: zoned=size=1M,capacity=512K: --host-lfs on a zoned device" \
		"$S" --logical-pages 16384 --host-lfs segment=1M --grid "zoned=off,size=1M,capacity=512K" one.txt &&
	"$S" -q --logical-pages 1024 --zoned size=1M,capacity=1M --host-lfs segment=1M one.txt >/dev/null
'
t_expect_success 'max_active: a write opening one zone too many is an error; an empty zone finished was never active' '
	printf "0 W 0 4096 0\n1 W 1048576 4096 0\n" >two.txt &&
	t_err 1 "zones active, the most the device allows is 1" "$S" --logical-pages 1024 --zoned size=1M,max_active=1 two.txt &&
	printf "0 ZF 0 0 0\n1 ZF 1048576 0 0\n2 W 2097152 4096 0\n3 W 3145728 4096 0\n" >zf.txt &&
	"$S" -q --check --zoned size=1M,max_active=2 --logical-pages 1024 zf.txt | jq -e ".zoned.active == 2 and .zoned.open == 2"
'
t_expect_success 'a file system'"'"'s log on the zones: every cleaned segment a reset, device WA 1.000' '
	"$G" -p uniform -n 65536 --fill -w 200000 -s 5 -o bin >u.ev 2>/dev/null &&
	"$S" -q --logical-pages 65536 --zoned size=1M --host-lfs segment=1M u.ev >l.json &&
	jq -e ".wa_total == 1 and .zoned.resets == .host_lfs.segments_cleaned and .host_lfs.wa_host > 2 and
		.host_lfs.wa_stacked == .host_lfs.wa_host" l.json
'
t_expect_success 'a host segment that is not a zone, or zoned with preconditioning: usage errors' '
	t_err 2 "a host segment is a zone" "$S" --logical-pages 65536 --zoned size=1M --host-lfs segment=512K u.ev &&
	t_err 2 "zoned device starts with every zone empty .*a host log above it" "$S" --zoned size=1M --precondition random u.ev &&
	t_err 2 "size=BYTES" "$S" --zoned max_open=2 u.ev &&
	printf "0 W 1048576 8192 0\n1 W 1056768 4096 0\n" >far.txt &&
	t_err 2 "^ftlsim: --zoned with --logical-space footprint: the footprint numbers the pages a trace writes densely" \
		"$S" --logical-space footprint --zoned size=64K far.txt &&
	"$S" -q --logical-space extent --zoned size=64K far.txt | jq -e ".host_pages_written == 3" >/dev/null &&
	"$S" -q --logical-space footprint --zoned size=64K --host-lfs segment=64K far.txt | jq -e ".host_pages_written == 3" >/dev/null
'
t_expect_success 'a host log on zones with --precondition: its fill written to the zones, forgotten by the counts; device WA 1' '
	"$G" -p uniform -n 65536 --fill -w 80000 -s 5 -o bin >u80.ev 2>/dev/null &&
	"$S" -q --logical-pages 65536 --op 0.07 --zoned size=1M --host-lfs segment=1M --precondition random --check u80.ev >zp.json &&
	"$S" -q --logical-pages 65536 --op 0.07 --zoned size=1M --host-lfs segment=1M u80.ev >z0.json &&
	jq -e ".wa_total == 1 and .host_lfs.wa_host > 1.5 and .host_pages_written == .flash_pages_written and .zoned.resets > 0" zp.json >/dev/null &&
	jq -e --slurpfile p zp.json ".host_lfs.wa_host < \$p[0].host_lfs.wa_host and .host_lfs.fs_pages_written == \$p[0].host_lfs.fs_pages_written" z0.json >/dev/null &&
	"$S" -q --logical-pages 65536 --op 0.07 --zoned size=1M --host-lfs segment=1M --precondition random \
		--device femu,channels=2,dies=2 u80.ev | jq -e ".timing.latency_us.write.count == .requests.writes" >/dev/null
'
t_expect_success 'the log'"'"'s fill on zones: the device'"'"'s precondition pages, its --flash-ops rows fill; host rows = flash_pages_written' '
	"$S" -q --logical-pages 65536 --op 0.1 --zoned size=1M --host-lfs segment=1M --precondition random \
		--flash-ops zf.csv u80.ev >zf.json &&
	fill=$(awk -F, "\$1 == \"program\" && \$2 == \"fill\"" zf.csv | wc -l) &&
	host=$(awk -F, "\$1 == \"program\" && \$2 == \"host\"" zf.csv | wc -l) &&
	jq -e ".precondition_pages_written == $fill and .precondition_pages_written >= 65536 and .flash_pages_written == $host" zf.json >/dev/null
'
t_expect_success '--check: every zone and the host log checked as they run, the counts unchanged' '
	"$S" -q --logical-pages 65536 --zoned size=1M,max_open=4 --host-lfs segment=1M --check $TMP/u80.ev >c.json &&
	"$S" -q --logical-pages 65536 --zoned size=1M,max_open=4 --host-lfs segment=1M $TMP/u80.ev >n.json &&
	jq -e -s "(.[0] | del(.params.check, .timing, .memory)) == (.[1] | del(.params.check, .timing, .memory))
		and .[0].params.check and .[0].zoned.resets > 0" c.json n.json >/dev/null
'
t_expect_success 'a logical space that is not whole zones: rounded up, and said on stderr (in --dry-run too)' '
	"$S" -q --logical-pages 1000 --zoned size=1M z.txt >r.json 2>r.err &&
	grep -qx "ftlsim: --zoned: the logical space, 1000 pages, rounded up to whole zones: 1024 (4 zones of 256 pages)" r.err &&
	jq -e ".params.logical_pages == 1024 and .zoned.zones == 4" r.json &&
	"$S" -q --logical-pages 1024 --zoned size=1M z.txt >/dev/null 2>w.err && test ! -s w.err &&
	"$S" -q --logical-pages 1000 --zoned size=1M --dry-run z.txt >/dev/null 2>d.err &&
	grep -q "rounded up to whole zones: 1024" d.err
'
t_expect_success 'max_open=0 and max_active=0 are no limit, as when left out; max_open above max_active, a key twice: usage errors' '
	printf "0 W 0 4096 0\n1 W 1048576 4096 0\n2 W 2097152 4096 0\n3 W 3145728 4096 0\n" >four.txt &&
	"$S" -q --logical-pages 1024 --zoned size=1M,max_open=0,max_active=0 four.txt >z0.json &&
	"$S" -q --logical-pages 1024 --zoned size=1M four.txt >zn.json &&
	jq -e ".zoned.open == 4 and .zoned.active == 4" z0.json &&
	jq -S "del(.timing, .memory)" z0.json >a && jq -S "del(.timing, .memory)" zn.json >b && t_cmp a b &&
	"$S" -q --logical-pages 1024 --zoned size=1M,max_open=2 four.txt | jq -e ".zoned.open == 2 and .zoned.active == 4" &&
	t_err 2 "max_open=4 above max_active=2" "$S" --logical-pages 1024 --zoned size=1M,max_open=4,max_active=2 four.txt &&
	t_err 2 "--zoned size=1M,size=2M: size given twice" "$S" --logical-pages 1024 --zoned size=1M,size=2M four.txt &&
	t_err 2 "an empty field" "$S" --logical-pages 1024 --zoned size=1M,,max_open=2 four.txt &&
	t_err 2 "max_open=x: a number of zones \(0: no limit\)" "$S" --logical-pages 1024 --zoned size=1M,max_open=x four.txt
'
# A zoned device has no garbage collector and ignores discards: the
# options that tune one, or shape the discards it is sent, are refused;
# the victim policy, the spare and the segment size, which every device
# of a comparison may share, are not read.
t_expect_success 'GC and TRIM options on a zoned device are usage errors; --policy, --op and the segment size are not read' '
	for a in "--gc-low 3" "--gc-high 4" "--gc-trigger gp:0.2" "--gc-tie random" "--spare-share opt" "--wear-level static:4"; do
		t_err 2 "a zoned device has no garbage collector: not with ${a%% *}" \
			"$S" --logical-pages 1024 --zoned size=1M $a z.txt || exit 1
	done &&
	for a in "--trim-loss 0.5" "--trim-mode batch:1" "--discard-granularity 8K" "--discard-max 64K"; do
		t_err 2 "a zoned device ignores discards" "$S" --logical-pages 1024 --zoned size=1M $a z.txt || exit 1
	done &&
	"$S" -q --logical-pages 1024 --zoned size=1M --policy cb --op 0.5 --pages-per-segment 64 z.txt |
		jq -S "del(.timing, .memory, .params)" >a &&
	"$S" -q --logical-pages 1024 --zoned size=1M z.txt | jq -S "del(.timing, .memory, .params)" >b && t_cmp a b
'

# In time (--device): a zone written page by page at QD 1 takes tPROG a
# page; a reset erases the zone on every die its pages are on, and the
# command completes with the erase (its latency a kind of its own,
# zone, only on a zoned device); the dies' busy time is the programs'
# and erases' times, exactly.
awk 'BEGIN { for (i = 0; i < 256; i++) printf "%d W %d 4096 0\n", i, i * 4096; print "300 ZR 0 0 0"; print "301 W 0 4096 0" }' \
	>"$TMP/zr.txt"
t_expect_success 'in time: tPROG a page at QD 1, a reset tBERS on each die of the zone, busy time conserved' '
	"$S" -q --zoned size=1M --logical-pages 1024 --device femu,channels=1,dies=1 --qd 1 --latency lat1.csv zr.txt >t1.json &&
	jq -e ".timing.latency_us.write.count == 257 and .timing.latency_us.write.max == 200 and
		.timing.unit_busy_s == 257 * 0.0002 + 0.002 and .timing.simulated_s == .timing.unit_busy_s and
		.timing.requests == 258 and .timing.gc_share_of_busy == 0 and .zoned.resets == 1 and
		.timing.latency_us.zone.count == 1 and .timing.latency_us.zone.max == 2000" t1.json &&
	grep -q "^zone,2000,1,1$" lat1.csv && head -n 256 zr.txt >w256.txt &&
	"$S" -q --device femu --qd 1 --logical-pages 1024 --pages-per-segment 64 w256.txt >nz.json &&
	jq -e ".timing.latency_us | keys == [\"read\", \"trim\", \"write\"]" nz.json &&
	"$S" -q --zoned size=1M --logical-pages 1024 --device femu,channels=2,dies=2 --qd 1 zr.txt >t4.json &&
	jq -e "(.timing.unit_busy_s - (257 * 0.0002 + 4 * 0.002) | fabs) < 1e-12 and
		(.timing.unit_busy_s_each | map(. > 0.002) | all) and
		(.timing.simulated_s - (257 * 0.0002 + 0.002) | fabs) < 1e-12" t4.json
'
t_expect_success 'in time: a reset erases only the dies the zone'"'"'s written pages are on; unwritten pages read nothing' '
	printf "0 W 0 4096 0\n1 ZR 0 0 0\n2 W 0 8192 0\n3 ZR 0 0 0\n4 ZF 0 0 0\n5 ZR 0 0 0\n" >one.txt &&
	"$S" -q --zoned size=1M --logical-pages 1024 --device femu --qd 1 one.txt 2>/dev/null >o.json &&
	jq -e "(.timing.unit_busy_s - (3 * 0.0002 + 3 * 0.002) | fabs) < 1e-12 and .zoned.resets == 3" o.json &&
	printf "0 W 0 4096 0\n1 R 0 16384 0\n2 R 1048576 8192 0\n" >rd.txt &&
	"$S" -q --zoned size=1M --logical-pages 1024 --device femu,channels=1,dies=1 --qd 1 rd.txt >r.json &&
	jq -e "(.timing.unit_busy_s - (0.0002 + 0.00004) | fabs) < 1e-12 and .zoned.reads_unwritten_pages == 5" r.json
'
t_expect_success 'the measured window on zones: after --warmup-writes, a finish'"'"'s padding before it not in it; a zero-length write counted' '
	printf "0 W 0 4096 0\n1 ZF 0 0 0\n2 W 1048576 4096 0\n3 W 1052672 4096 0\n4 W 1056768 4096 0\n" >padw.txt &&
	"$S" -q --zoned size=1M,finish=pad --logical-pages 1024 --warmup-writes 2 padw.txt >p.json &&
	jq -e ".wa_measured == 1 and .measured.host_pages_before == 2 and .wa_total > 60" p.json &&
	printf "0 W 0 0 0\n1 W 0 4096 0\n" >zl.txt &&
	"$S" -q --zoned size=1M --logical-pages 1024 zl.txt | jq -e ".requests.zero_length == 1 and .host_pages_written == 1"
'
t_expect_success 'a host log with its GC copies apart (sepgc) on zones: its device writes split at zone boundaries' '
	"$G" -p uniform -n 16384 --fill -w 60000 -s 2 -o bin >u16.ev 2>/dev/null &&
	"$S" -q --logical-pages 16384 --zoned size=1M --host-lfs segment=1M,placement=sepgc u16.ev |
		jq -e ".wa_total == 1 and .zoned.resets > 100 and .zoned.write_errors_skipped == 0 and .victim_utilization_mean == 0"
'
t_expect_success 'in time, a closed loop on zones finds its steady state once the host log cleans (its first zone reset), not before; never without one' '
	"$S" -q --device femu,channels=2,dies=2 --qd 8 --zoned size=1M --host-lfs segment=1M --logical-pages 16384 \
		--timeline-interval 100 --flash-ops zo.csv u16.ev >zs.json 2>/dev/null &&
	first=$(awk -F, "\$1 == \"erase\" { print \$7; exit }" zo.csv) &&
	jq -e --argjson f "$first" ".timing.steady_state.found and .timing.steady_state.start_s * 1e9 >= \$f" zs.json >/dev/null &&
	"$G" -q -p seq -n 16384 -w 16384 -o bin >seq16.ev &&
	"$S" -q --device femu,channels=2,dies=2 --qd 8 --zoned size=1M --logical-pages 16384 --timeline-interval 10 seq16.ev |
		jq -e ".zoned.resets == 0 and .timing.steady_state.found == false" >/dev/null
'
t_expect_success 'a host log with more streams than max_active zones: refused before the replay; --dry-run on zones estimates' '
	t_err 2 "writes 2 streams, each into a zone of its own, more than max_active=1" \
		"$S" --logical-pages 16384 --zoned size=1M,max_active=1 --host-lfs segment=1M,placement=sepgc u16.ev &&
	"$S" --dry-run --zoned size=1M --logical-pages 1024 --device femu,channels=2,dies=2 z.txt 2>/dev/null |
		jq -e ".memory.model_bytes > 0 and .memory.fits and .refused == null"
'
t_expect_success 'in time, a burst: the measured window starts when the warm-up'"'"'s work is done' '
	awk "BEGIN { for (i = 0; i < 1024; i++) printf \"0 W %d 4096 0\\n\", i * 4096 }" >burst.txt &&
	"$S" -q --zoned size=1M --logical-pages 1024 --device femu,channels=1,dies=1 --warmup-writes 512 burst.txt 2>/dev/null |
		jq -e ".timing.iops == 5000 and .timing.unit_busy_share == 1 and .timing.requests_measured == 512"
'
t_expect_success 'in time: a host log waits on zones no longer than on a device whose segments are twice its own' '
	"$G" -p uniform -n 16384 --fill -w 80000 --rate 600 -o bin >us.ev 2>/dev/null &&
	"$S" -q --logical-pages 16384 --zoned size=1M --host-lfs segment=1M --device femu,channels=2,dies=2 \
		--warmup-writes 50000 us.ev >zo.json &&
	"$S" -q --logical-pages 16384 --placement sepgc --host-lfs segment=512K --device femu,channels=2,dies=2 \
		--warmup-writes 50000 us.ev >bl.json 2>/dev/null &&
	jq -n --slurpfile z zo.json --slurpfile b bl.json "\$z[0].wa_measured == 1 and \$b[0].wa_measured > 1.2 and
		\$z[0].timing.latency_us.write.p99 < \$b[0].timing.latency_us.write.p99 and
		\$z[0].timing.latency_us.write.mean < \$b[0].timing.latency_us.write.mean" | grep -qx true
'
t_expect_success 'in time: a host log on zones, every flash operation charged; no device GC to run in idle time' '
	"$G" -p uniform -n 65536 --fill -w 100000 --rate 1000 -o bin >ur.ev 2>/dev/null &&
	"$S" -q --logical-pages 65536 --zoned size=1M --host-lfs segment=1M --device femu,channels=2,dies=2,layout=die \
		--flash-ops ops.csv ur.ev >h.json &&
	jq -e ".timing.latency_us.write.count == 165536 and .zoned.resets > 1000 and .wa_total == 1 and
		.timing.gc_share_of_busy == 0" h.json &&
	awk -F, "NR > 1 { n[\$1]++ } END { printf \"%.9f\\n\", (n[\"program\"] * 200 + n[\"read\"] * 40 + n[\"erase\"] * 2000) / 1e6 }" ops.csv >want &&
	jq -r ".timing.unit_busy_s | . * 1e9 | round / 1e9 | \"\\(.)\"" h.json | awk "{ printf \"%.9f\\n\", \$1 }" >got &&
	t_cmp want got &&
	t_err 2 "no garbage collector to run in idle time" "$S" --zoned size=1M --bg-gc idle=1,high=4 zr.txt &&
	t_err 2 "no garbage collector to run in idle time" "$S" --zoned size=1M --gc-preempt hard=1 zr.txt
'
t_done
