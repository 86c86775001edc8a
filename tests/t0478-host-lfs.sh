#!/bin/sh
# t0478-host-lfs: a log on a log (--host-lfs). A log-structured file
# system's segments cleaned on the host, its writes, copies and discards
# sent to the device: the device's counts are the host log's (every page
# it programs reaches the device), the stacked WA is the product of the
# two, and Yang et al.'s (INFLOW'14) result holds: host segments aligned
# with the device's segments give device WA 1.000, misaligned ones more.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
"$G" -p uniform -n 65536 --fill -w 600000 -s 5 -o bin >"$TMP/u.ev" 2>/dev/null
M="--logical-pages 65536 --op 0.07 --pages-per-segment 256 --placement sepgc --precondition random --warmup-writes 2000000"

t_expect_success 'the device writes what the host log programs; stacked WA = host WA x device WA' '
	"$S" -q $M --host-lfs segment=1M u.ev >a.json &&
	jq -e ".host_pages_written == (.host_lfs.fs_pages_written + .host_lfs.gc_pages_copied) and
		.host_lfs.discards_sent == .host_lfs.segments_cleaned and
		((.host_lfs.wa_stacked - .host_lfs.wa_host * .host_lfs.wa_device) | fabs) < 1e-8 * .host_lfs.wa_stacked and
		.host_lfs.wa_host > 2" a.json
'
t_expect_success 'over the measured window: stacked WA = the host log'"'"'s WA then x wa_measured; the window'"'"'s file-system writes its own' '
	jq -e "((.host_lfs.wa_stacked_measured - .host_lfs.wa_host_measured * .wa_measured) | fabs) < 1e-8 * .host_lfs.wa_stacked_measured and
		.host_lfs.wa_host_measured != .host_lfs.wa_host" a.json >/dev/null &&
	"$S" -q --logical-pages 65536 --op 0.07 --pages-per-segment 256 --placement sepgc --precondition random --host-lfs segment=1M u.ev |
		jq -e ".host_lfs.wa_host_measured == .host_lfs.wa_host and .host_lfs.wa_stacked_measured == .host_lfs.wa_stacked" >/dev/null
'
t_expect_success '--curve under a host log: the file system'"'"'s writes and the stacked WA per row, the last row'"'"'s the summary'"'"'s' '
	"$S" -q --logical-pages 65536 --op 0.07 --pages-per-segment 256 --placement sepgc --precondition random \
		--host-lfs segment=1M --curve hc.csv --interval 1000000 u.ev >hc.json &&
	tail -n 1 hc.csv | cut -d, -f9,11 >got &&
	jq -r "[.host_lfs.fs_pages_written, (.host_lfs.wa_stacked * 1e6 | round / 1e6)] | @csv" hc.json >want &&
	awk -F, "{ printf \"%s,%.6f\\n\", \$1, \$2 }" got >got2 && awk -F, "{ printf \"%s,%.6f\\n\", \$1, \$2 }" want >want2 &&
	t_cmp want2 got2 &&
	awk -F, "NR > 1 && \$10 == \"\" { bad = 1 } END { exit bad + 0 }" hc.csv &&
	"$S" -q --logical-pages 65536 --op 0.07 --curve pc.csv --interval 1000000 u.ev >/dev/null &&
	awk -F, "NR > 1 && \$9\$10\$11 != \"\" { bad = 1 } END { exit bad + 0 }" pc.csv
'
t_expect_success 'the file system'"'"'s writes are the trace'"'"'s: the host log'"'"'s own counts' '
	"$S" -q --logical-pages 65536 --op 0.07 --pages-per-segment 256 u.ev | jq .host_pages_written >want &&
	jq .host_lfs.fs_pages_written a.json >got && t_cmp want got
'
t_expect_success 'host segments aligned with the device'"'"'s, discarded after cleaning: device WA 1.000' '
	jq -e ".wa_measured == 1 and .host_lfs.discard == true" a.json
'
t_expect_success 'misaligned by half a segment: device WA above 1.2' '
	"$S" -q $M --host-lfs segment=1M,offset=512K u.ev | jq -e ".wa_measured > 1.2"
'
t_expect_success 'host segments half the device'"'"'s: device WA above 1.2, and higher without discard' '
	"$S" -q $M --host-lfs segment=512K u.ev | jq .wa_measured >on &&
	"$S" -q $M --host-lfs segment=512K,discard=off u.ev | jq .wa_measured >off &&
	awk -v on="$(cat on)" -v off="$(cat off)" "BEGIN { exit !(on > 1.2 && off > on) }"
'
t_expect_success 'no discard: the device hears nothing of the cleaning' '
	"$S" -q $M --host-lfs segment=1M,discard=off u.ev | jq -e ".host_lfs.discards_sent == 0 and .requests.discards == 0"
'
t_expect_success 'a host log under a device in time: each file-system request one request, its cleaning within it' '
	"$S" -q --logical-pages 65536 --op 0.07 --pages-per-segment 256 --host-lfs segment=1M \
		--device femu,channels=1,dies=2 --qd 4 u.ev >t.json &&
	jq -e ".timing.requests == (.host.in.writes + .host.in.reads + .host.in.discards + .host.in.flushes) and
		.timing.latency_us.write.count == .host.in.writes and .timing.latency_us.read.count == 0 and
		.host.out.reads > 0" t.json &&
	# at QD 1 on one die every operation belongs to a request and the die
	# never idles: the latencies add up to the run, and the run to the busy time
	"$S" -q --logical-pages 65536 --op 0.07 --pages-per-segment 256 --host-lfs segment=1M \
		--device femu,channels=1,dies=1 --qd 1 u.ev >q.json &&
	jq -e "(.timing.latency_us.write.mean * .timing.latency_us.write.count / 1e6 - .timing.simulated_s | fabs) < 1e-6 * .timing.simulated_s and
		(.timing.simulated_s - .timing.unit_busy_s | fabs) < 1e-9 * .timing.simulated_s" q.json
'
t_expect_success '--out-of-range is the host log'"'"'s: a request past the file system dropped there (in time no request served), or an error naming it' '
	printf "0 W 0 4096 0\n1 W 8388608 4096 0\n" >oo.txt &&
	"$S" -q --host-lfs segment=1M --out-of-range drop --logical-pages 1024 --op 0.5 oo.txt |
		jq -e ".host_lfs.requests_out_of_range == 1 and .host_lfs.fs_pages_written == 1" >/dev/null &&
	"$S" -q --host-lfs segment=1M --out-of-range drop --logical-pages 1024 --op 0.5 --device femu,channels=1,dies=1 oo.txt |
		jq -e ".timing.requests == 1 and .timing.latency_us.write.count == 1 and .timing.latency_us.write.p50 > 190" >/dev/null &&
	t_err 1 "oo.txt:2 \(event 2\): the host log: write at byte 8388608" "$S" -q --host-lfs segment=1M --logical-pages 1024 --op 0.5 oo.txt &&
	t_err 2 "a request past the zones is an error of the zoned device" "$S" --zoned size=1M --out-of-range clip --logical-pages 1024 oo.txt &&
	t_err 2 "no-trim with --host-lfs: .*--host-lfs discard=off" "$S" --no-trim --host-lfs segment=1M --logical-pages 1024 oo.txt
'
t_expect_success '--per-volume under a host log: the stacked WA of the configuration (flash over the file systems'"'"' writes) beside the device'"'"'s' '
	bzcat "$SAMPLES/tencent/cbs-sample.csv.bz2" >cbs.csv &&
	"$S" -q -j 1 -f tencent --per-volume --volumes top:5 --logical-space footprint --pages-per-segment 16 --op 0.07 --precondition random \
		--host-lfs segment=64K --results pvl.csv cbs.csv >pvl.json 2>/dev/null &&
	fs=$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"host_lfs.fs_pages_written\") c = i; next } { s += \$c } END { print s }" pvl.csv) &&
	jq -e --argjson fs "$fs" ".configurations[0] | .host_lfs.fs_pages_written == \$fs and \$fs > 0 and
		(.host_lfs.wa_stacked_overall - .flash_pages_written / \$fs | fabs) < 1e-6 and .host_lfs.wa_stacked_per_volume.volumes == 5 and
		.host_lfs.wa_stacked_overall > .wa_overall" pvl.json >/dev/null
'
t_expect_success 'bad --host-lfs specifications: usage errors' '
	t_err 2 "segment=BYTES" "$S" --host-lfs policy=greedy u.ev &&
	t_err 2 "keys:" "$S" --host-lfs segment=1M,colour=blue u.ev &&
	t_err 2 "whole 4096-byte pages" "$S" --host-lfs segment=3 u.ev &&
	t_err 2 "victim policy|policy" "$S" --host-lfs segment=1M,policy=nope u.ev &&
	t_err 2 "^ftlsim: --host-lfs segment=1M,segment=2M: segment given twice$" "$S" --host-lfs segment=1M,segment=2M u.ev &&
	t_err 2 "^ftlsim: --host-lfs segment=1M,,op=0.1: an empty field$" "$S" --host-lfs segment=1M,,op=0.1 u.ev &&
	t_err 2 "^ftlsim: --host-lfs segment=1M,discard: .discard. is not KEY=VALUE$" "$S" --host-lfs segment=1M,discard u.ev &&
	t_err 2 "^ftlsim: --host-lfs: placement=: a placement.s name" "$S" --host-lfs segment=1M,placement= u.ev &&
	t_err 2 "^ftlsim: --host-lfs: op=100: the host log.s spare space over the file system.s, above 0 and at most 10$" \
		"$S" --host-lfs segment=1M,op=100 u.ev &&
	# too little spare in the host log: its own options advised, not the device'"'"'s
	t_err 2 "^ftlsim: --host-lfs: the host log: too little spare space: .*; raise the host log.s spare \(--host-lfs op=, now 0.07\) or use smaller host segments \(--host-lfs segment=\)$" \
		"$S" --logical-space footprint --pages-per-segment 8 --host-lfs segment=32K,placement=sepbit "$SAMPLES/msr/hm_0-head1000.csv" &&
	"$S" -q --logical-space footprint --pages-per-segment 8 --host-lfs segment=32K,placement=sepbit,op=0.25 \
		"$SAMPLES/msr/hm_0-head1000.csv" >/dev/null
'
t_expect_success 'a placement that learns the trace first (fk): refused on the host log and on the device under it; oracle on the host log without labels: refused' '
	t_err 2 "^ftlsim: --host-lfs placement=fk learns the trace before the replay" "$S" --host-lfs segment=1M,placement=fk u.ev &&
	t_err 2 "^ftlsim: placement .fk. learns the trace before the replay, and under --host-lfs the device receives the host log.s writes" \
		"$S" --host-lfs segment=1M --placement fk u.ev &&
	t_err 2 "^ftlsim: placement .fk. learns" "$S" --host-lfs segment=1M --grid "placement=single,fk:6,R=8" u.ev &&
	t_err 2 "^ftlsim: placement .oracle. .--host-lfs placement=. reads the trace.s temperature labels, and format .msr. has none" \
		"$S" --logical-space footprint --pages-per-segment 8 --host-lfs segment=32K,placement=oracle "$SAMPLES/msr/hm_0-head1000.csv" &&
	"$S" -q --logical-pages 65536 --host-lfs segment=1M,placement=sepbit u.ev >/dev/null
'
t_expect_success 'a host log whose pages, rounded up to whole host segments, hold far more spare than op= asks: said, with the log'"'"'s pages' '
	"$G" -p uniform -n 16384 -w 20000 -s 2 -o bin >s.ev 2>/dev/null &&
	"$S" -q --logical-pages 16384 --host-lfs segment=64M s.ev >big.json 2>big.err &&
	grep -q "^ftlsim: warning: the host log.s spare space asked, 1147 pages (op=0.07), is 16384 once its pages are rounded up to whole host segments of 16384 pages (op 1): the host WA is the larger spare.s" big.err &&
	jq -e ".host_lfs.log_pages == 32768" big.json >/dev/null &&
	"$S" -q --logical-pages 16384 --host-lfs segment=256K s.ev >/dev/null 2>small.err && ! grep -q "spare space asked" small.err
'
# Per volume a model that refuses is skipped, not fatal: a host log's
# unknown policy is refused before any volume is read.
t_expect_success 'a host log'"'"'s unknown placement is refused up front, per volume too; --host-placement with a host log is refused' '
	t_err 2 "^ftlsim: --host-lfs: unknown placement .nope." "$S" -q --per-volume --host-lfs segment=1M,placement=nope u.ev &&
	t_err 2 "the host log places its writes itself" "$S" -q --logical-pages 65536 --host-lfs segment=1M --fdp handles=2 \
		--host-placement hotcold u.ev
'
# A grid over the layers: each configuration is its single run, one
# read of the trace for block, zones and a host log above either.
t_expect_success '--grid host-lfs=off,SPEC and zoned=off,SPEC: each configuration the same as its own run, in time too' '
	"$G" -p uniform -n 16384 --fill -w 60000 --rate 400 -s 3 -o bin >gl.ev 2>/dev/null &&
	D="--logical-pages 16384 --device femu,channels=2,dies=1 --warmup-writes 40000" &&
	"$S" -q $D --host-lfs segment=1M --grid "zoned=size=1M,off" --results gz.csv gl.ev >gz.json &&
	"$S" -q $D --grid "host-lfs=off,segment=1M,policy=cb" gl.ev >gh.json &&
	k=0 && for a in "--host-lfs segment=1M --zoned size=1M" "--host-lfs segment=1M" "" "--host-lfs segment=1M,policy=cb"; do
		"$S" -q $D $a gl.ev >one.json || exit 1
		if [ $k -lt 2 ]; then g=gz.json i=$k; else g=gh.json i=$((k - 2)); fi
		jq -S "del(.input, .version, .program, .partial, .timing.cpu_s, .timing.elapsed_s, .timing.max_rss_kb,
			.timing.flash_page_writes_per_s, .timing.page_writes_per_s)" one.json >want &&
		jq -S ".configurations[$i] | del(.axes, .configuration)" $g >got && t_cmp want got || exit 1
		k=$((k + 1))
	done &&
	jq -e "[.configurations[] | .axes.zoned] == [\"size=1M\", \"off\"] and .configurations[0].zoned.resets > 0 and
		(.configurations[1] | has(\"zoned\") | not)" gz.json >/dev/null &&
	jq -e "(.configurations[0] | has(\"host_lfs\") | not) and .configurations[1].host_lfs.policy == \"cb\" and
		.configurations[1].wa_measured < .configurations[0].wa_measured" gh.json >/dev/null &&
	head -n 1 gz.csv | grep -q "^tag,volume,zoned,.*zoned\.resets" && sed -n 2p gz.csv | grep -q "^,,size=1M," &&
	t_err 2 "^ftlsim: zoned=size=1M host-lfs=segment=512K: --host-lfs on a zoned device: a host segment is a zone" \
		"$S" -q $D --grid "zoned=size=1M host-lfs=segment=1M,segment=512K" gl.ev &&
	t_err 2 "^ftlsim: --grid host-lfs=on: --host-lfs" "$S" -q $D --grid "host-lfs=on" gl.ev &&
	"$S" -q --logical-pages 16384 --host-lfs segment=1M --grid "zoned=off,size=1M op=0.07,0.2" gl.ev >/dev/null 2>e &&
	grep -q "^ftlsim: warning: --grid op: a zoned device reads no spare space (zoned=size=1M op=0.07): its configurations that differ only in op are the same model" e &&
	"$S" -q --logical-pages 16384 --host-lfs segment=1M --grid "zoned=off op=0.07,0.2" gl.ev >/dev/null 2>e && ! grep -q "same model" e
'
# The dry run sizes the device the run builds under the log (the log's
# pages and their spare), and the memory of both.
t_expect_success '--dry-run under a host log: the device'"'"'s geometry and the memory of device and log, as the run reports them' '
	"$S" -q --logical-pages 65536 --host-lfs segment=1M --dry-run u.ev >dr.json &&
	"$S" -q --logical-pages 65536 --host-lfs segment=1M u.ev >r.json &&
	jq -e --slurpfile r r.json "(.params | .logical_pages == \$r[0].params.logical_pages and .fs_pages == 65536 and
		.physical_pages == \$r[0].params.physical_pages and .physical_pages_requested == \$r[0].params.physical_pages_requested and
		.segments == \$r[0].params.segments) and .params.logical_pages > 65536 and
		(.memory.model_bytes - \$r[0].memory.model_bytes - \$r[0].host_lfs.log_bytes | fabs) < 0.01 * .memory.model_bytes" dr.json >/dev/null &&
	"$S" -q --logical-pages 65536 --dry-run --grid "host-lfs=off,segment=1M" u.ev |
		jq -e --slurpfile r r.json ".per_model[1] | .logical_pages == \$r[0].params.logical_pages and .fs_pages == 65536 and
			.physical_pages == \$r[0].params.physical_pages" >/dev/null &&
	"$S" -q --logical-pages 65536 --host-lfs segment=1M --grid "zoned=off,size=1M" u.ev >zr.json &&
	"$S" -q --logical-pages 65536 --host-lfs segment=1M --grid "zoned=off,size=1M" --dry-run u.ev |
		jq -e --slurpfile r zr.json "[.per_model[] | [.logical_pages, .physical_pages]] ==
			[\$r[0].configurations[] | [.params.logical_pages, .params.physical_pages]] and
			(.per_model[1].model_bytes == (\$r[0].configurations[1] | .memory.model_bytes + .host_lfs.log_bytes)) and
			(.per_model[0].model_bytes - (\$r[0].configurations[0] | .memory.model_bytes + .host_lfs.log_bytes) | fabs) <
				0.01 * .per_model[0].model_bytes" >/dev/null
'
t_expect_success 'reads of the host log'"'"'s holes: counted, warned of in time, none once --precondition writes every page' '
	"$BIN/tracegen" -q -p uniform -n 4096 -w 500 --read-prob 1 --rate 300 -o bin >ro.ev &&
	"$S" -q --logical-pages 4096 --device femu,channels=2,dies=1 --host-lfs segment=256K ro.ev >h.json 2>e &&
	jq -e ".host_lfs.read_pages == 500 and .host_lfs.read_pages_holes == 500 and .timing.latency_us.read.max == 0" h.json >/dev/null &&
	grep -q "^ftlsim: warning: 500 of the 500 pages the trace read (100%) are holes of the host log" e &&
	"$S" -q --logical-pages 4096 --device femu,channels=2,dies=1 ro.ev |
		jq -e ".timing.read_pages_unwritten == 500 and .timing.latency_us.read.p50 >= 40" >/dev/null &&
	jq -e ".timing.read_pages_unwritten == 0" h.json >/dev/null &&
	"$S" -q --logical-pages 4096 --device femu,channels=2,dies=1 --host-lfs segment=256K --precondition seq ro.ev >p.json 2>e &&
	jq -e ".host_lfs.read_pages == 500 and .host_lfs.read_pages_holes == 0 and .timing.latency_us.read.p50 >= 40" p.json >/dev/null &&
	! grep -q "holes" e &&
	awk "BEGIN { for (i = 0; i < 512; i++) printf \"%d W %d 4096 0\\n\", i, i * 4096; print \"600 R 409600000 4096 0\"; print \"601 R 0 4096 0\" }" >fpr.txt &&
	"$S" -q --logical-space footprint --pages-per-segment 16 --op 0.5 --device femu,channels=1,dies=1 --host-lfs segment=64K \
		--precondition seq fpr.txt >/dev/null 2>e &&
	grep -q "1 of the 2 pages the trace read (50%) are holes of the host log (pages the trace never wrote, outside the footprint the logical space numbers): .*; --logical-space extent puts them in the file system$" e
'
t_expect_success 'under a host log, host.discard_pages are the trace'"'"'s discarded pages (as the TRIM host counts them) and host.memory_bytes the log'"'"'s' '
	RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile" &&
	"$S" -q --logical-space footprint --pages-per-segment auto --host-lfs segment=1M "$RF" >lfs.json 2>/dev/null &&
	"$S" -q --logical-space footprint --pages-per-segment auto "$RF" >blk.json 2>/dev/null &&
	d=$(jq .host.discard_pages blk.json) && test "$d" -gt 0 &&
	jq -e ".host.discard_pages == $d and .host.memory_bytes == .host_lfs.log_bytes and .host.memory_bytes > 0" lfs.json >/dev/null
'
t_done
