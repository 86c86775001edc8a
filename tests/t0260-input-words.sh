#!/bin/sh
# A clear word where input and options used to pass silently: ftlsim
# takes the per-CPU set names tracecat does, --page-size 4K, refuses
# --trim with --no-trim, says when a replay never filled the drive and
# when --sector-size cannot apply.
. "$(dirname "$0")/lib.sh"
FS="$BIN/ftlsim"
RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"
ARGS="--logical-space footprint --op 0.07 --pages-per-segment 64 --precondition random --seed 1"

t_expect_success 'ftlsim: a glob of the per-CPU files is the one trace its base name is' '
	"$FS" -q $ARGS "$RF" | jq -S "del(.timing, .input)" >want.json &&
	"$FS" -q $ARGS "$RF".blktrace.* | jq -S "del(.timing, .input)" >got.json &&
	t_cmp want.json got.json
'
t_expect_success 'ftlsim: two traces of different formats are no trace set (exit 1, naming both)' '
	t_err 1 "hm_0-head1000.csv: format .msr., but the set.s first file .*vda_rootfs_pycompile is .blktrace." \
		"$FS" -q $ARGS "$RF" "$SAMPLES/msr/hm_0-head1000.csv"
'
t_expect_success 'ftlsim --page-size 4K is 4096, as tracestat and tracegen take it' '
	"$FS" -q $ARGS --page-size 4K "$RF" | jq -S "del(.timing, .input)" >k.json &&
	"$FS" -q $ARGS --page-size 4096 "$RF" | jq -S "del(.timing, .input)" | t_cmp k.json -
'
t_expect_success 'ftlsim --trim --no-trim together: a usage error' '
	t_err 2 "--trim and --no-trim contradict each other" "$FS" -q $ARGS --trim --no-trim "$RF" &&
	"$FS" -q $ARGS --trim --trim "$RF" >/dev/null
'
t_expect_success 'ftlsim: a replay whose GC never ran says that its WA of 1 means nothing' '
	"$FS" -q --logical-space footprint --op 0.5 --pages-per-segment 64 "$RF" >out.json 2>err.txt &&
	jq -e ".segments_cleaned == 0" out.json &&
	grep -q "GC copied no page, so WA is 1: the replay never filled the drive" err.txt &&
	"$FS" -q $ARGS "$RF" >/dev/null 2>err2.txt && ! grep -q "never filled" err2.txt
'
t_expect_success 'ftlsim: GC that cleaned only empty segments is not called a drive never filled' '
	"$FS" --logical-space footprint --op 0.07 --pages-per-segment 64 "$RF" >out.json 2>err.txt &&
	jq -e ".segments_cleaned == 46 and .segments_cleaned_empty == 46 and .gc_pages_copied == 0" out.json &&
	! grep -q "never filled" err.txt &&
	grep -q "GC cleaned 46 segments, every one empty (no page to copy): WA is 1" err.txt &&
	"$FS" -q --logical-space footprint --op 0.07 --pages-per-segment 64 "$RF" 2>err2.txt >/dev/null &&
	! grep -q "never filled\|every one empty" err2.txt
'
t_expect_success '--sector-size on a byte-addressed format: said to have no effect' '
	"$BIN/tracecat" -q -o text --sector-size 4096 "$SAMPLES/msr/hm_0-head1000.csv" >/dev/null 2>err.txt &&
	grep -q "sector-size has no effect on format .msr. (its offsets and sizes are bytes)" err.txt &&
	"$BIN/tracecat" -q -o text --sector-size 4096 "$RF" >/dev/null 2>err.txt &&
	grep -q "no effect on format .blktrace. (its sectors are the kernel" err.txt &&
	"$BIN/tracecat" -q -o text --sector-size 4096 "$SAMPLES/tencent/cbs-sample.csv.bz2" >/dev/null 2>err.txt &&
	! grep -q "no effect" err.txt
'
t_expect_success '--warmup-writes after a tracegen --fill: the summary and stderr give the window (fill writes count)' '
	"$BIN/tracegen" -p uniform -n 4096 -w 40960 --fill -s 2 -o bin >fill.ev 2>/dev/null &&
	"$FS" --logical-pages 4096 --pages-per-segment 64 --warmup-writes 20480 fill.ev >w.json 2>err.txt &&
	test "$(jq -r ".measured | \"\(.host_pages_before) \(.host_pages_total) \(.host_pages_written)\"" w.json)" = "20480 45056 24576" &&
	grep -q "measured window: host page writes 20481 to 45056 (the last 24576 of 45056" err.txt &&
	"$FS" -q --logical-pages 4096 --pages-per-segment 64 --warmup-writes 20480 fill.ev >/dev/null 2>err.txt &&
	! grep -q "measured window" err.txt
'
t_expect_success '--pages-per-segment auto: a small footprint runs (the rule: U/b >= 64, b <= 256), suggested when refused, and only where it would fit' '
	M="$SAMPLES/msr/hm_0-head1000.csv"
	t_err 2 "raise the over-provisioning or use smaller segments \(--pages-per-segment auto\)" \
		"$FS" -q --logical-space footprint "$M" &&
	"$BIN/tracegen" -q -p uniform -n 8 -w 100 -o bin >tiny.ev &&
	t_err 2 "have 2; raise the over-provisioning$" "$FS" -q --logical-pages 8 --pages-per-segment 4 tiny.ev &&
	"$FS" -q --logical-space footprint --pages-per-segment auto --precondition random "$M" >a.json &&
	jq -e ".params.pages_per_segment == 4 and .params.pages_per_segment_auto and .params.logical_pages == 475 and .gc_pages_copied > 0" a.json &&
	"$FS" -q --logical-pages 1048576 --pages-per-segment auto --dry-run "$M" >d.json &&
	jq -e ".params.pages_per_segment == 256 and .params.pages_per_segment_auto" d.json &&
	"$FS" -q --logical-pages 4096 --pages-per-segment auto --dry-run "$M" | jq -e ".params.pages_per_segment == 64" &&
	"$FS" -q --logical-pages 4096 --pages-per-segment 64 --dry-run "$M" | jq -e ".params.pages_per_segment_auto == false" &&
	t_err 2 "pages-per-segment" "$FS" -q --pages-per-segment automatic "$M"
'
t_done
