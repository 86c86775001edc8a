#!/bin/sh
# The DiskSim, MQSim/SSDSim, fio iolog and CloudPhysics VSCSI readers:
# the bundled test files (the MSR hm_0 sample written in each format)
# give the MSR reader's events; the CloudPhysics sample (a slice of
# libCacheSim's public cloudPhysicsIO.csv) gives the events an awk
# reading of it gives; counts and byte sums agree with an awk reading of
# each file, -f auto finds each, and bad input is reported with the file
# and line (tests/data/mkbad-more.sh makes the corpus).
. "$(dirname "$0")/lib.sh"
TC="$BIN/tracecat"
M="$SAMPLES/msr/hm_0-head1000.csv"
"$TC" -q -o text "$M" >"$TMP/msr.txt"

t_expect_success 'disksim sample: the MSR events, times to the ns' '
	"$TC" -q -f disksim -o text "$DATA/disksim/hm_0-head1000.disksim" | t_cmp msr.txt -
'
t_expect_success 'mqsim sample: the MSR events, times to the ns' '
	"$TC" -q -f mqsim -o text "$DATA/mqsim/hm_0-head1000.mqsim" | t_cmp msr.txt -
'
t_expect_success 'fio sample: the MSR events, times to the microsecond' '
	awk "{ \$1 = int(\$1 / 1000) * 1000; print }" msr.txt >want.txt &&
	"$TC" -q -f fio -o text "$DATA/fio/hm_0-head1000.iolog" | t_cmp want.txt -
'
CP="$SAMPLES/cloudphysics/cloudPhysicsIO-7201-7600.csv"
# The sample read by awk: time in seconds, op 28 READ(10) and 2a
# WRITE(10) in hexadecimal, size in bytes, lbn in 512-byte blocks.
awk -F, 'NR == 2 { t0 = $2 } NR > 1 {
	printf "%d %s %.0f %d 0\n", ($2 - t0) * 1000000000, $3 == "28" ? "R" : $3 == "2a" ? "W" : "?", $5 * 512, $4
}' "$CP" >"$TMP/cp.txt"
t_expect_success 'cloudphysics sample: detected, 400 events as awk reads them (s, hex op, bytes, 512-byte lbn)' '
	"$TC" -o text "$CP" >got.txt 2>err.txt &&
	grep -q "detected format .cloudphysics." err.txt &&
	test $(wc -l <got.txt) = 400 && grep -q " R " got.txt && grep -q " W " got.txt &&
	! grep -q "?" cp.txt && t_cmp cp.txt got.txt
'
t_expect_success 'cloudphysics: opcodes with 0x or in capitals, no header, decimal seconds read alike' '
	sed "1d; s/,2a,/,0x2A,/; s/,28,/,0X28,/" "$CP" >cp0x.csv &&
	"$TC" -o text cp0x.csv >got.txt 2>err.txt &&
	grep -q "detected format .cloudphysics." err.txt && t_cmp cp.txt got.txt &&
	printf "1,5633898.25,2a,4096,8\n1,5633899,28,512,9\n" >dec.csv &&
	"$TC" -q -f cloudphysics -o text dec.csv >got.txt &&
	printf "0 W 4096 4096 0\n750000000 R 4608 512 0\n" | t_cmp - got.txt
'
t_expect_success 'cloudphysics: other SCSI commands skipped and said; SYNCHRONIZE CACHE is a flush' '
	{ head -3 "$CP"; printf "1,5641001,00,0,0\n1,5641001,12,36,0\n1,5641001,35,0,0\n"; } >cmds.csv &&
	"$TC" -q -o text cmds.csv >got.txt 2>err.txt &&
	grep -q "2 SCSI commands other than READ, WRITE and SYNCHRONIZE CACHE skipped" err.txt &&
	test $(wc -l <got.txt) = 3 && tail -1 got.txt | grep -q "^[0-9]* F 0 0 0\$"
'
t_expect_success 'cloudphysics: the skipped commands said once when the trace is read twice (ftlsim --per-volume)' '
	"$BIN/ftlsim" -q --logical-space footprint --op 0.1 --pages-per-segment 32 --per-volume cmds.csv >/dev/null 2>err.txt;
	test $(grep -c "SCSI commands other than READ, WRITE and SYNCHRONIZE CACHE skipped" err.txt) = 1
'
# The public DiskSim and MQSim samples (DiskSim's own valid/ascii.trace,
# MQSim's traces/tpcc-small.trace) against awk readings of them: DiskSim
# time ms, blkno and size in 512-byte blocks, flags bit 0 a read; MQSim
# time ns, LBA and size in 512-byte sectors, type 0 write, 1 read.
t_expect_success 'disksim public sample: detected, the events awk reads' '
	F="$SAMPLES/disksim/ascii-head400.trace" &&
	awk "NR == 1 { t0 = \$1 } { printf \"%.0f %s %.0f %d %d\\n\", (\$1 - t0) * 1000000, \$5 % 2 ? \"R\" : \"W\", \$3 * 512, \$4 * 512, \$2 }" "$F" >want.txt &&
	"$TC" -o text "$F" >got.txt 2>err.txt && grep -q "detected format .disksim." err.txt &&
	test $(wc -l <got.txt) = 400 && grep -q " W " got.txt && t_cmp want.txt got.txt
'
t_expect_success 'mqsim public sample: detected, the events awk reads, 16 devices as volumes' '
	F="$SAMPLES/mqsim/tpcc-small-head400.trace" &&
	awk "NR == 1 { t0 = \$1 } { printf \"%d %s %.0f %d %d\\n\", \$1 - t0, \$5 ? \"R\" : \"W\", \$3 * 512, \$4 * 512, \$2 }" "$F" >want.txt &&
	"$TC" -o text "$F" >got.txt 2>err.txt && grep -q "detected format .mqsim." err.txt &&
	test $(wc -l <got.txt) = 400 && t_cmp want.txt got.txt &&
	test $(awk "{ print \$5 }" got.txt | sort -u | wc -l) = 16
'
for s in disksim/hm_0-head1000.disksim:disksim mqsim/hm_0-head1000.mqsim:mqsim \
	fio/hm_0-head1000.iolog:fio; do
	f=${s%:*} fmt=${s#*:}
	t_expect_success "-f auto detects $f as $fmt" '
		"$TC" -o text "$DATA/$f" 2>err.txt >/dev/null &&
		grep -q "detected format .$fmt." err.txt
	'
done
# Counts and byte sums by an independent reading of each file.
t_expect_success 'mqsim: reads, writes and their bytes as awk counts them' '
	awk "{ n[\$5]++; b[\$5] += \$4 * 512 } END { print n[1]+0, b[1]+0, n[0]+0, b[0]+0 }" \
		"$DATA/mqsim/hm_0-head1000.mqsim" >want.txt &&
	"$TC" -q -o text "$DATA/mqsim/hm_0-head1000.mqsim" |
		awk "{ n[\$2]++; b[\$2] += \$4 } END { print n[\"R\"]+0, b[\"R\"]+0, n[\"W\"]+0, b[\"W\"]+0 }" |
		t_cmp want.txt -
'
t_expect_success 'disksim: flags bit 0 is a read, other bits kept out (0x11 is a read, 0x10 a write)' '
	printf "0.5 0 8 8 11\n1.25 0 16 8 10\n" >f.txt &&
	"$TC" -q -f disksim -o text f.txt >got.txt &&
	printf "0 R 4096 4096 0\n750000 W 8192 4096 0\n" | t_cmp - got.txt
'
t_expect_success 'fio version 2: waits make the times; trim is D, sync F' '
	"$TC" -q -o text "$DATA/fio/v2.log" >got.txt &&
	printf "0 W 0 4096 0\n250000000 R 4096 8192 0\n" | t_cmp - got.txt &&
	"$TC" -q -o text "$DATA/fio/bad/base.log" | awk "{print \$2}" | tr -d "\n" | grep -qx WRDF
'
t_expect_success 'fio: each file its own volume, in the order of the add lines' '
	printf "fio version 3 iolog\n0 a add\n0 b add\n1 b write 0 4096\n2 a write 0 4096\n" >two.log &&
	"$TC" -q -o text two.log | awk "{print \$5}" | tr -d "\n" | grep -qx 10
'
t_expect_success '--sector-size scales the DiskSim and MQSim blocks' '
	"$TC" -q -f mqsim --sector-size 4096 -o text "$DATA/mqsim/bad/base.txt" | head -1 |
		grep -qx "0 W 381874143232 131072 13"
'

check_bad() {
	f=$DATA/$1/$2
	if [ "$4" = 0 ]; then
		t_err 1 "$f$6" "$TC" -f "$1" -o text "$f" &&
			t_err 1 "$f$6" "$TC" -f "$1" -o text --skip-bad "$f"
	else
		t_err 1 "^tracecat: $f:$4: $6" "$TC" -f "$1" -o text "$f" &&
			t_err 0 "$f: $5 bad records skipped \(first: $f:$4: $6" \
				"$TC" -f "$1" -o text --skip-bad "$f" &&
			"$TC" -f "$1" -o text "$DATA/$1/bad/base.${2##*.}" | t_cmp "$TMP/.stdout" -
	fi
}
while IFS='|' read -r fmt file line nskip rx; do
	t_expect_success "$fmt $file: exit 1$([ "$line" = 0 ] && echo ", --skip-bad too" || echo " at line $line, --skip-bad skips $nskip")" \
		'check_bad "$fmt" "$file" 1 "$line" "$nskip" "$rx"'
done <<'EOF2'
disksim|bad/fields.txt|2|1|wrong field count: 4, want 5
disksim|bad/time.txt|2|1|time '0.0x3' is not a decimal number of milliseconds in range
disksim|bad/negtime.txt|2|1|time '-0.5' is not a decimal number of milliseconds
disksim|bad/flags.txt|2|1|flags 'zz' is not a hexadecimal number
disksim|bad/zerosize.txt|2|1|zero size
disksim|bad/past63.txt|2|1|blkno 9223372036854775808 \+ size 4096 bytes is past 2\^63
disksim|bad/device.txt|2|1|device '4294967296' out of range
mqsim|bad/fields.txt|2|1|wrong field count: 6, want 5
mqsim|bad/type.txt|2|1|unknown type '2' \(want 0 write or 1 read\)
mqsim|bad/time.txt|2|1|time \(ns\) '94000000.5' is not a non-negative integer
mqsim|bad/zerosize.txt|2|1|zero size
mqsim|bad/past63.txt|2|1|LBA 9223372036854775808 \+ size 8192 bytes is past 2\^63
mqsim|bad/bigsize.txt|2|1|size 4294967296 bytes is above 4294967295
fio|bad/action.log|5|1|unknown action 'scribble'
fio|bad/fields.log|5|1|wrong field count: 4, want 3 or 5
fio|bad/nofile.log|5|1|file '/dev/sdc' used before its add line
fio|bad/offset.log|5|1|offset '-4096' is negative
fio|bad/zerolen.log|5|1|zero length
fio|bad/past63.log|5|1|offset 9223372036854775808 \+ length 4096 bytes is past 2\^63
fio|bad/time.log|5|1|time \(us\) '5.5' is not a non-negative integer
fio|bad/fileact.log|5|1|unknown file action 'reopen'
fio|bad/version1.log|0|0|:1: not a fio iolog of version 2 or 3
fio|bad/empty.log|0|0|: empty file, not a fio iolog
cloudphysics|bad/version.csv|3|1|version '3' out of range
cloudphysics|bad/opcode.csv|3|1|op '0x1ff' is not a SCSI operation code
cloudphysics|bad/time.csv|3|1|time '5633898.x' is not a decimal number of seconds
cloudphysics|bad/zerosize.csv|3|1|zero size
cloudphysics|bad/past63.csv|3|1|lbn 9223372036854775808 \+ size 4096 bytes is past 2\^63
cloudphysics|bad/fields.csv|3|1|wrong field count: 4, want 5
ev|bad/stream.txt|1|1|bad stream '70000' \(0 to 65535\)
ev|bad/temp.txt|1|1|bad temperature label '300' \(0 to 255\)
ev|bad/hint.txt|1|1|bad write-lifetime hint '9' \(0 to 5\)
EOF2
# A bad optional field on the first line: the format is still detected
# (its five fields are the event stream's), the reader names the field.
t_expect_success 'ev text whose first line has a bad stream, label or hint: detected, the reader names file, line and field' '
	for b in stream temp hint; do
		f="$DATA/ev/bad/$b.txt"
		t_err 1 "^tracecat: $f:1: bad (stream|temperature label|write-lifetime hint) " "$TC" -o text "$f" &&
			grep -q "detected format .ev." "$TMP/.stderr" || exit 1
	done &&
	printf "0 X 0 4096 0 0 70000\n" >badop.txt &&
	t_err 1 "cannot detect the trace format" "$TC" -o text badop.txt
'
# -f csv --columns: any layout through a column map.
t_expect_success 'csv --columns: the MSR sample through a column map gives the MSR reader'"'"'s events' '
	"$TC" -q -o text "$M" | awk "{ print \$2, \$3, \$4, \$5 }" >want.txt &&
	"$TC" -q -o text -f csv --columns "t=1:ns op=4:Read=R,Write=W offset=5 length=6 volume=3" "$M" |
		awk "{ print \$2, \$3, \$4, \$5 }" | t_cmp want.txt -
'
t_expect_success 'csv --columns: units, separator, header, -f csv:SPEC' '
	printf "time;kind;lba;bytes\n1.5;w;8;4096\n2.25;t;16;8192\n3;f;0;0\n" >semi.txt &&
	"$TC" -q -o text -f "csv:sep=; header=1 t=1:ms op=2:w=W,t=D,f=F offset=3:sectors length=4" semi.txt >got.txt &&
	printf "0 W 4096 4096 0\n750000 D 8192 8192 0\n1500000 F 0 0 0\n" | t_cmp - got.txt
'
t_expect_success 'csv --columns: decimal times of any size that fits in ns (Unix ms and us with decimals), sub-ns dropped' '
	printf "1577808000000.476,R,0,4096\n1577808000001,W,4096,4096\n1577808000001.0000019,W,0,512\n" >ms.csv &&
	"$TC" -q -o text --columns "t=1:ms op=2:R=R,W=W offset=3 length=4" ms.csv >got.txt &&
	printf "0 R 0 4096 0\n524000 W 4096 4096 0\n524001 W 0 512 0\n" | t_cmp - got.txt &&
	printf "1577808000000476.5,R,0,4096\n1577808000000477,W,0,4096\n" >us.csv &&
	"$TC" -q -o text --columns "t=1:us op=2:R=R,W=W offset=3 length=4" us.csv >got.txt &&
	printf "0 R 0 4096 0\n500 W 0 4096 0\n" | t_cmp - got.txt &&
	printf "12345678901.5,R,0,4096\n9223372036854775807,W,0,4096\n" >ns.csv &&
	"$TC" -q -o text --columns "t=1:ns op=2:R=R,W=W offset=3 length=4" ns.csv >got.txt &&
	printf "0 R 0 4096 0\n9223372024509096906 W 0 4096 0\n" | t_cmp - got.txt &&
	printf "9223372036854775.808,R,0,4096\n" >over.csv &&
	t_err 1 "over.csv:1: time .9223372036854775.808. \(column 1\) is not a non-negative number in range" \
		"$TC" -q -o text --columns "t=1:us op=2:R=R,W=W offset=3 length=4" over.csv
'
t_expect_success 'disksim: a time past 106 days (9.2 x 10^9 ms) is read, as any whose ns fit' '
	printf "0.5 0 8 8 1\n10000000000.25 0 8 8 0\n" >long.txt &&
	"$TC" -q -f disksim -o text long.txt >got.txt &&
	printf "0 R 4096 4096 0\n9999999999750000 W 4096 4096 0\n" | t_cmp - got.txt
'
t_expect_success 'a UTF-8 byte order mark (and CRLF) before ftlkit'"'"'s CSV, a fio log or the text event stream: detected and read' '
	"$TC" -q -o csv "$M" >own.csv && "$TC" -q -o text "$M" >want.txt &&
	{ printf "\357\273\277"; sed "s/\$/\r/" own.csv; } >own-bom.csv &&
	"$TC" -o text own-bom.csv >got.txt 2>err.txt && t_cmp want.txt got.txt && grep -q "detected format .csv." err.txt &&
	{ printf "\357\273\277"; cat want.txt; } >bom.txt &&
	"$TC" -o text bom.txt >got.txt 2>err.txt && t_cmp want.txt got.txt && grep -q "detected format .ev." err.txt &&
	{ printf "\357\273\277# a comment\r\n"; cat want.txt; } >bom2.txt &&
	"$TC" -q -o text -f ev bom2.txt | t_cmp want.txt - &&
	{ printf "\357\273\277"; cat "$DATA/fio/v2.log"; } >bom.log &&
	"$TC" -o text bom.log >got.txt 2>err.txt && grep -q "detected format .fio." err.txt &&
	"$TC" -q -o text "$DATA/fio/v2.log" | t_cmp - got.txt
'
t_expect_success 'csv --columns: a bad record names the file, line and column; --skip-bad counts it' '
	printf "1,r,8,8\n2,x,8,8\n3,w,8,8\n" >badop.csv &&
	t_err 1 "badop.csv:2: op .x. \(column 2\) is none of the --columns op values" \
		"$TC" -q -o text --columns "t=1 op=2:r=R,w=W offset=3 length=4" badop.csv &&
	t_err 0 "badop.csv: 1 bad records skipped" \
		"$TC" -q -o text --skip-bad --columns "t=1 op=2:r=R,w=W offset=3 length=4" badop.csv &&
	test $(wc -l <"$TMP/.stdout") -eq 2
'
t_expect_success 'csv --columns: a bad map is a usage error (exit 2) saying what is wrong' '
	t_err 2 "t, op, offset and length are required" "$TC" --columns "t=1 op=2:r=R" x &&
	t_err 2 "op value .r=Q.: want TEXT=X" "$TC" --columns "t=1 op=2:r=Q offset=3 length=4" x &&
	t_err 2 "t unit .h.: want s, ms, us or ns" "$TC" --columns "t=1:h op=2:r=R offset=3 length=4" x &&
	t_err 2 "-f csv needs --columns" "$TC" -q -f csv "$M" &&
	t_err 2 "-f csv needs --columns" "$BIN/ftlsim" -q -f csv "$M" &&
	t_err 2 "-f csv needs --columns" "$BIN/tracestat" -q -f csv "$M" &&
	"$TC" -q -o csv "$M" >own.csv &&
	t_err 2 "^tracestat: -f csv needs --columns SPEC \(the column map\); ftlkit.s own CSV \(tracecat -o csv, its header t_ns,op,offset,length,volume\) is read without -f, its format detected$" \
		"$BIN/tracestat" -q -f csv own.csv &&
	"$BIN/tracestat" -q own.csv | jq -e ".traces[0].format == \"csv\" and .traces[0].events == 1000" >/dev/null &&
	t_err 2 "--columns maps the columns of a -f csv file; -f msr reads its own" \
		"$TC" -q -f msr --columns "t=1 op=2:r=R offset=3 length=4" "$M" &&
	t_err 2 "--columns maps the columns of a -f csv file; -f msr reads its own" \
		"$BIN/ftlsim" -q --columns "t=1 op=2:r=R offset=3 length=4" -f msr "$M"
'
t_expect_success 'a text trace whose last line has no newline (a copy cut short): read as it is, and said once, naming the line' '
	printf "fio version 3 iolog\n0 a add\n5 a write 0 40" >cut.log &&
	"$TC" -q -o text cut.log >cut.txt 2>cut.err &&
	grep -qx "0 W 0 40 0" cut.txt &&
	grep -qx "tracecat: warning: cut.log:3: the last line has no newline after it: read as it is .*" cut.err &&
	printf "\n" >>cut.log && "$TC" -q -o text cut.log >/dev/null 2>ok.err && test ! -s ok.err &&
	head -c -1 "$SAMPLES/msr/hm_0-head1000.csv" >m.csv &&
	"$BIN/ftlsim" -q --logical-space footprint --pages-per-segment 8 m.csv >/dev/null 2>m.err &&
	test "$(grep -c "m.csv:1000: the last line has no newline" m.err)" = 1
'
t_expect_success 'tracecat -o csv rows without their header: not taken for Alibaba (time and volume swapped); named, they read' '
	"$TC" -q -o csv "$SAMPLES/msr/hm_0-head1000.csv" | tail -n +2 >nohdr.csv &&
	t_err 1 "nohdr.csv: cannot detect the trace format; name it with -f" "$TC" -q -o text nohdr.csv &&
	"$TC" -q -f csv --columns "t=1:ns op=2:R=R,W=W,D=D,F=F offset=3 length=4 volume=5" -o text nohdr.csv >n.txt &&
	"$TC" -q -o text "$SAMPLES/msr/hm_0-head1000.csv" >m.txt && t_cmp m.txt n.txt &&
	"$TC" -o text "$DATA/alibaba/io_traces-sample.csv" 2>&1 >/dev/null | grep -q "detected format .alibaba."
'
t_done
