#!/bin/sh
# tracecat: the event stream (text and binary), compression, filters,
# sorting, and the command line's contract.
. "$(dirname "$0")/lib.sh"
# xz at its fastest preset: the format is the same, the time a tenth.
export XZ_OPT=-0

cat >"$TMP/ev.txt" <<'X'
0 W 0 4096 0
1000 D 4096 8192 0
500 R 8192 512 3
2000000000 F 0 0 0
3000000000 W 12288 4096 1 2
X

t_expect_success 'text -> binary -> text round trip is exact' '
	"$BIN/tracecat" -q ev.txt >ev.bin &&
	"$BIN/tracecat" -q -o text ev.bin >back.txt &&
	t_cmp ev.txt back.txt
'
t_expect_success 'binary stream starts with the magic and has 32-byte records, the last the end record' '
	head -c 6 ev.bin | grep -q FTLKEV &&
	test $(wc -c <ev.bin) -eq $((16 + 6 * 32))
'
for z in gzip bzip2 xz zstd; do
	t_expect_success "$z-compressed input is read transparently" "
		$z -c ev.txt >ev.z &&
		\"\$BIN/tracecat\" -o text ev.z >out.txt 2>err.txt &&
		t_cmp ev.txt out.txt && grep -q \"detected format .ev., $z\" err.txt
	"
	t_expect_success "$z-compressed input on stdin" "
		$z -c ev.txt | \"\$BIN/tracecat\" -q -o text - >out.txt && t_cmp ev.txt out.txt
	"
done
t_expect_success 'concatenated gzip members are all read' '
	(gzip -c ev.txt; gzip -c ev.txt) >cat.gz &&
	"$BIN/tracecat" -q -o text cat.gz | wc -l | grep -qx 10
'
seq 1 200000 | awk '{print $1, "W", $1*4096, 4096, 0}' >"$TMP/big.txt"
for z in gzip bzip2 xz zstd; do
	t_expect_success "truncated $z file is an error after every decodable event" "
		$z -c big.txt >big.z && head -c 100000 big.z >trunc.z &&
		t_err 1 \"trunc.z: $z data ends early\" \"\$BIN/tracecat\" -o text trunc.z &&
		test \$(wc -l <\"\$TMP/.stdout\") = \$($z -dc trunc.z 2>/dev/null | wc -l)
	"
done
head -n 2000 "$TMP/big.txt" >"$TMP/small.txt" # 52 KB: less than format detection looks at
for z in gzip bzip2 xz zstd; do
	t_expect_success "truncated small $z file (decoded, less than detection reads): the same" "
		$z -c small.txt >small.z && head -c \$((\$(wc -c <small.z) - 20)) small.z >strunc.z &&
		t_err 1 \"strunc.z: $z data ends early\" \"\$BIN/tracecat\" -q -o text strunc.z &&
		n=\$(wc -l <\"\$TMP/.stdout\") && test \$n = \$($z -dc strunc.z 2>/dev/null | wc -l) &&
		case $z in gzip | xz) test \$n -gt 1900 ;; esac
	"
done
t_expect_success 'a gzip file whose check fails at its end (the data decoded in the same call): every line decoded, then the error and its offset' '
	gzip -c small.txt >crc.gz && printf "\\377\\377\\377\\377" |
		dd of=crc.gz bs=1 seek=$(($(wc -c <crc.gz) - 8)) conv=notrunc 2>/dev/null &&
	t_err 1 "crc.gz: corrupt gzip data after $(wc -c <small.txt) decompressed bytes \(incorrect data check\)" \
		"$BIN/tracecat" -q -o text crc.gz &&
	"$BIN/tracecat" -q -o text small.txt | t_cmp - "$TMP/.stdout"
'
t_expect_success '--ops keeps only the named ops' '
	"$BIN/tracecat" -q -o text --ops W,D ev.txt | cut -d" " -f2 | tr -d "\n" | grep -qx WDW
'
t_expect_success '--start/--end select a time window (seconds)' '
	"$BIN/tracecat" -q -o text --start 1 --end 2.5 ev.txt | wc -l | grep -qx 1
'
t_expect_success '--end not after --start is a usage error, in either order, in every program' '
	t_err 2 "--end must be after --start" "$BIN/tracecat" -q -o text --start 2 --end 1 ev.txt &&
	t_err 2 "--end must be after --start" "$BIN/tracecat" -q -o text --end 1 --start 1 ev.txt &&
	t_err 2 "--end must be after --start" "$BIN/tracestat" -q --end 0.5 --start 0.5 ev.txt &&
	t_err 2 "--end must be after --start" "$BIN/ftlsim" -q --start 3 --end 2 ev.txt &&
	"$BIN/tracecat" -q -o text --end 0.000000001 --start 0 ev.txt | wc -l | grep -qx 1
'
t_expect_success 'a text stream starting with # comments and empty lines is detected' '
	{ printf "# made by hand\r\n\n#"; head -c 400 /dev/zero | tr "\\0" x; printf "\n"; cat ev.txt; } >commented.txt &&
	"$BIN/tracecat" -o text commented.txt 2>err.txt >got.txt &&
	grep -q "detected format .ev." err.txt && t_cmp ev.txt got.txt
'
t_expect_success '--volume keeps one volume' '
	"$BIN/tracecat" -q -o text --volume 3 ev.txt | grep -qx "500 R 8192 512 3"
'
t_expect_success '--sort emits in time order, stable for ties, relative to the earliest' '
	printf "100 W 0 4096 0\n50 W 4096 4096 0\n100 W 8192 4096 0\n" >uns.txt &&
	"$BIN/tracecat" -q -o text --sort uns.txt >s.txt &&
	printf "0 W 4096 4096 0\n50 W 0 4096 0\n50 W 8192 4096 0\n" >want.txt &&
	t_cmp want.txt s.txt
'
t_expect_success 'without --sort an unsorted trace keeps file order (negative times)' '
	"$BIN/tracecat" -q -o text uns.txt | head -2 | tail -1 | grep -qx "^-50 W 4096 4096 0"
'
t_expect_success '--help prints usage on stdout and exits 0' '
	"$BIN/tracecat" --help | grep -q "^Usage: tracecat"
'
t_expect_success '--version prints the version' '
	"$BIN/tracecat" --version | grep -q "tracecat (ftlkit) [0-9]"
'
t_expect_success '--list-formats names every reader' '
	"$BIN/tracecat" --list-formats | grep -q "^ev "
'
t_expect_status 2 'unknown option is a usage error' '"$BIN/tracecat" --bogus ev.txt'
t_expect_status 2 'unknown format is a usage error' '"$BIN/tracecat" -f nosuch ev.txt'
t_expect_status 2 'bad --ops is a usage error' '"$BIN/tracecat" --ops XZ ev.txt'
t_expect_status 2 'no input file is a usage error' '"$BIN/tracecat"'
t_expect_success 'missing file: exit 1 naming the file' '
	t_err 1 "cannot open .nope.txt." "$BIN/tracecat" -o text nope.txt
'
t_expect_success 'unreadable file (a directory) gives a clear error' '
	mkdir -p adir && t_err 1 "adir" "$BIN/tracecat" -o text -f ev adir
'
t_expect_success 'empty file: exit 1, nothing to detect' '
	: >empty && t_err 1 "empty: empty file" "$BIN/tracecat" -o text empty
'
t_expect_success 'bad text event names file and line' '
	printf "0 W 0 4096 0\n1 X 0 4096 0\n" >bad.txt &&
	t_err 1 "bad.txt:2: bad op" "$BIN/tracecat" -o text -f ev bad.txt
'
t_expect_success 'offset past 2^63 is rejected' '
	printf "0 W 9223372036854775808 4096 0\n" >big.txt &&
	t_err 1 "big.txt:1: bad offset" "$BIN/tracecat" -o text -f ev big.txt
'
t_expect_success '--skip-bad skips and counts exactly' '
	printf "0 W 0 4096 0\nx\n1 W 0 4096 0\n2 Q 0 1 0\n3 W 0 -5 0\n" >bad3.txt &&
	"$BIN/tracecat" -o text -f ev --skip-bad bad3.txt >o.txt 2>e.txt &&
	test $(wc -l <o.txt) = 2 && grep -q "3 bad records skipped" e.txt
'
t_expect_success '--skip-bad that skips every record: exit 1 naming the file (tracecat, tracestat, ftlsim)' '
	printf "1,h,0,Read,zz,4096,1\n2,h,0,Write,4096,yy,1\n" >allbad.csv &&
	msg="allbad.csv: no event read: --skip-bad skipped 2 bad records, and nothing read is not a success \(first: allbad.csv:1: Offset" &&
	t_err 1 "^tracecat: $msg" "$BIN/tracecat" -o text -f msr --skip-bad allbad.csv &&
	t_err 1 "^tracecat: $msg" "$BIN/tracecat" -o text -f msr --skip-bad --sort allbad.csv &&
	t_err 1 "^tracestat: $msg" "$BIN/tracestat" -f msr --skip-bad allbad.csv &&
	t_err 1 "^ftlsim: $msg" "$BIN/ftlsim" -f msr --skip-bad allbad.csv &&
	printf "128166372003061629,h,0,Read,0,4096,1\n" >good.csv &&
	: "several files are one trace: a good file before makes it a success, its bad records counted" &&
	"$BIN/tracecat" -o text -f msr --skip-bad good.csv allbad.csv >o 2>e &&
	test $(wc -l <o) = 1 && grep -q "2 bad records skipped" e
'
t_expect_success '--skip-bad with one good record, or good records all filtered out, is a success' '
	cat good.csv >>allbad.csv &&
	t_err 0 "2 bad records skipped" "$BIN/tracecat" -o text -f msr --skip-bad allbad.csv &&
	test $(wc -l <"$TMP/.stdout") = 1 &&
	t_err 0 "2 bad records skipped" "$BIN/tracecat" -o text -f msr --skip-bad --ops W allbad.csv &&
	test ! -s "$TMP/.stdout"
'
t_expect_success 'truncated binary record: the stream cut (version 3) or a bad record (version 2), with byte offset' '
	head -c $((16 + 2 * 32 + 7)) ev.bin >tr.bin &&
	t_err 1 "tr.bin: byte 80: the event stream ends inside a record after 2 events, without its end record" \
		"$BIN/tracecat" -o text tr.bin &&
	{ printf "FTLKEV\000\000\002\000\000\000\040\000\000\000"; tail -c +17 tr.bin; } >tr2.bin &&
	t_err 1 "tr2.bin: byte 80: truncated record" "$BIN/tracecat" -o text tr2.bin
'
t_expect_success 'binary stream with a wrong version is refused' '
	printf "FTLKEV\000\000\011\000\000\000\040\000\000\000" >v9.bin &&
	t_err 1 "unsupported event stream version 9" "$BIN/tracecat" -o text -f ev v9.bin
'
t_expect_success 'bad op code in a binary record: error with byte offset' '
	{ head -c 48 ev.bin; printf "\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\020\000\000\000\000\000\000\011\000\000\000\000\000\000\000"; } >op.bin &&
	t_err 1 "op.bin: byte 48: unknown op code 9" "$BIN/tracecat" -o text op.bin
'
t_expect_success 'CRLF text and a last line without newline are read' '
	printf "0 W 0 4096 0\r\n1 W 4096 4096 0" >crlf.txt &&
	"$BIN/tracecat" -q -o text crlf.txt | wc -l | grep -qx 2
'
t_expect_success 'several files are one trace, in time order: the same events again are refused, --unordered takes them' '
	t_err 1 "ev.bin: its first event \(at 0.000000000 s\) is before the last event of ev.txt \(at 3.000000000 s\)" \
		"$BIN/tracecat" -q -o text ev.txt ev.bin &&
	"$BIN/tracecat" -q -o text --unordered ev.txt ev.bin 2>/dev/null | wc -l | grep -qx 10
'
t_expect_success 'an empty per-CPU blktrace file named directly reads its whole set' '
	"$BIN/tracecat" -q -o text "$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile.blktrace.0" >a.txt &&
	"$BIN/tracecat" -q -o text "$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile" >b.txt &&
	t_cmp a.txt b.txt && test $(wc -l <a.txt) -gt 9000
'
t_expect_success 'a file named like a per-CPU file is read as the format -f names' '
	cp "$SAMPLES/msr/hm_0-head1000.csv" x.blktrace.0 &&
	"$BIN/tracecat" -q -f msr -o text x.blktrace.0 | wc -l | grep -qx 1000
'
t_expect_success 'an event at the largest time (2^63 - 1 ns) is kept when no --end is given; one ns more is a bad time' '
	printf "0 W 0 4096 0\n9223372036854775807 W 4096 4096 0\n" >tmax.txt &&
	"$BIN/tracecat" -q -o text tmax.txt >tmax.out && test $(wc -l <tmax.out) = 2 &&
	grep -q "^9223372036854775807 W 4096 4096" tmax.out &&
	printf "0 W 0 4096 0\n9223372036854775808 W 4096 4096 0\n" >tover.txt &&
	t_err 1 "tover.txt:2: " "$BIN/tracecat" -q -o text tover.txt
'
t_expect_success 'filters that keep no event: said on stderr as tracestat says it, a whole stream of no event, exit 0' '
	hm="$SAMPLES/msr/hm_0-head1000.csv" &&
	"$BIN/tracecat" -q --volume 5 "$hm" >v5.bin 2>err &&
	grep -qx "tracecat: $hm: volume 5 is not in the trace (none of its 1000 events; --volume): the output has no event" err &&
	test $(wc -c <v5.bin) = 48 && "$BIN/tracecat" -q -o text v5.bin >v5.txt 2>err && ! test -s v5.txt && ! test -s err &&
	"$BIN/tracecat" -q --ops F --start 1 -o text "$hm" >f.txt 2>err && ! test -s f.txt &&
	grep -qx "tracecat: $hm: none of the trace.s 1000 events is kept by --ops, --start: the output has no event" err &&
	"$BIN/tracecat" -q --volume 0 -o text "$hm" >v0.txt 2>err && ! test -s err && test $(wc -l <v0.txt) = 1000 &&
	"$BIN/tracestat" -q --volume 5 "$hm" >/dev/null 2>err &&
	grep -qx "tracestat: $hm: volume 5 is not in the trace (none of its 1000 events; --volume): the summary is of no event" err &&
	t_err 1 "^ftlsim: .*hm_0-head1000.csv: volume 5 is not in the trace \(none of its 1000 events; --volume\)$" \
		"$BIN/ftlsim" -q --volume 5 "$hm"
'
t_expect_success 'times 2^63 ns and more apart: the step back said exactly, not overflowed' '
	printf "0 W 0 4096 0\n5 W 0 4096 0\n-9223372036854775808 W 0 4096 0\n" >back.txt &&
	"$BIN/tracecat" -q -o text back.txt >back.out 2>err && test $(wc -l <back.out) = 3 &&
	grep -q "back.txt: not in time order (event 3 is 9223372036.854775813 s before the one before it)" err &&
	printf "9223372036854775807 W 0 4096 0\n" >s1.txt && printf -- "-9223372036854775808 W 0 4096 0\n" >s2.txt &&
	t_err 1 "^tracecat: s2.txt: its first event \(at -18446744073.709551615 s\) is before the last event of s1.txt \(at 0.000000000 s\)" \
		"$BIN/tracecat" -q -o text s1.txt s2.txt
'
t_expect_success 'an event too far in time from the first: exit 1 naming the file and the line or byte, sorted or not' '
	printf -- "-9223372036854775808 W 0 4096 0\n9223372036854775807 W 0 4096 0\n" >far.txt &&
	t_err 1 "^tracecat: far.txt:2: event time 9223372036854775807 ns out of range: 18446744073.709551615 s from the first event \(at -9223372036854775808 ns\)" \
		"$BIN/tracecat" -q -o text far.txt &&
	t_err 1 "^tracecat: far.txt:2: event time 9223372036854775807 ns out of range: .* from the earliest event before it" \
		"$BIN/tracecat" -q --sort -o text far.txt &&
	printf "0 W 0 4096 0\n9223372036854775807 W 0 4096 0\n-9223372036854775808 W 0 4096 0\n" >far3.txt &&
	t_err 1 "^tracecat: far3.txt:3: event time -9223372036854775808 ns out of range: .* from the latest event before it \(at 9223372036854775807 ns\)" \
		"$BIN/tracecat" -q --sort -o text far3.txt &&
	t_err 1 "^tracecat: s2.txt:1: event time -9223372036854775808 ns out of range" "$BIN/tracecat" -q -o text --unordered s1.txt s2.txt &&
	"$BIN/tracecat" -q --skip-bad -o text far.txt >one.txt 2>err && test $(wc -l <one.txt) = 1 &&
	grep -q "far.txt: 1 bad records skipped (first: far.txt:2: event time 9223372036854775807 ns out of range" err &&
	"$BIN/tracegen" -q -p uniform -n 64 -w 4 -o bin >four.bin &&
	printf "\000\000\000\000\000\000\000\200" | dd of=four.bin bs=1 seek=16 conv=notrunc 2>/dev/null &&
	printf "\377\377\377\377\377\377\377\177" | dd of=four.bin bs=1 seek=48 conv=notrunc 2>/dev/null &&
	t_err 1 "^tracecat: four.bin: byte 48: event time 9223372036854775807 ns out of range" "$BIN/tracecat" -q -o text four.bin &&
	gzip -c four.bin >four.bin.gz &&
	t_err 1 "^tracecat: four.bin.gz: byte 48 \(decompressed\): event time" "$BIN/tracecat" -q -o text four.bin.gz
'
t_done
