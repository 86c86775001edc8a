#!/bin/sh
# What a trace format can carry decides what its options do: a
# placement that reads temperature labels is refused on a format that
# has none (exit 2, before any output file); --action on a format with
# one event per I/O and --volume on one without volumes are said once.
. "$(dirname "$0")/lib.sh"
FS="$BIN/ftlsim"
TC="$BIN/tracecat"
MSR="$SAMPLES/msr/hm_0-head1000.csv"
ARGS="--logical-space footprint --op 0.5 --pages-per-segment 16"

t_expect_success 'ftlsim --placement oracle on a format without labels: exit 2 naming both, no output file' '
	t_err 2 "placement .oracle. reads the trace.s temperature labels, and format .msr. has none" \
		"$FS" -q $ARGS --placement oracle --curve c.csv "$MSR" &&
	test ! -s "$TMP/.stdout" && test ! -e c.csv &&
	t_err 2 "placement .oracle. .*format .msr. has none" "$FS" -q $ARGS --grid "placement=single,oracle:2" "$MSR" &&
	cat "$MSR" | "$FS" -q $ARGS --placement oracle:3 - 2>err.txt; test $? = 2 &&
	grep -q "format .msr. has none" err.txt
'
t_expect_success 'ftlsim --placement oracle on the event stream is replayed (labels or not), and the labels matter' '
	"$BIN/tracegen" -p hotcold -n 4096 -w 20000 -s 2 >hc.ev 2>/dev/null &&
	"$FS" -q --op 0.2 --pages-per-segment 16 --placement oracle:2 hc.ev >or.json &&
	"$FS" -q --op 0.2 --pages-per-segment 16 hc.ev >one.json &&
	jq -e "(.params.placement == \"oracle:2\") and (.streams | length == 2)" or.json >/dev/null &&
	awk -v a="$(jq .wa_total or.json)" -v b="$(jq .wa_total one.json)" "BEGIN { exit !(a < b) }" &&
	"$TC" -q -o bin "$MSR" >msr.ev &&
	"$FS" -q $ARGS --placement oracle msr.ev >/dev/null
'
t_expect_success '--action on a format without actions: one warning, the same events' '
	"$TC" -q -o text "$MSR" >plain.txt &&
	"$TC" -q -o text --action Q "$MSR" >q.txt 2>err.txt &&
	t_cmp plain.txt q.txt &&
	test "$(grep -c -- "--action has no effect on format .msr." err.txt)" = 1 &&
	"$FS" -q $ARGS --action C "$MSR" >/dev/null 2>err2.txt &&
	test "$(grep -c -- "--action has no effect on format .msr." err2.txt)" = 1 &&
	"$TC" -q -o text --action Q "$SAMPLES/blkparse/leveldb.blkparse.txt" >/dev/null 2>err3.txt &&
	! grep -q "no effect" err3.txt
'
t_expect_success '--volume on a format without volumes: said, and no event kept' '
	CP="$SAMPLES/cloudphysics/cloudPhysicsIO-7201-7600.csv" &&
	"$TC" -q -o text --volume 2 "$CP" >v.txt 2>err.txt &&
	test ! -s v.txt &&
	grep -q -- "--volume 2: format .cloudphysics. has no volume field" err.txt &&
	"$TC" -q -o text --volume 0 "$CP" >v0.txt 2>err0.txt &&
	test -s v0.txt && ! grep -q "no volume field" err0.txt &&
	"$TC" -q -o text --volume 2 "$MSR" >/dev/null 2>err1.txt &&
	! grep -q "no volume field" err1.txt
'
t_done
