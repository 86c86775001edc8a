#!/bin/sh
# t0115-event-end: the event stream's end record (version 3,
# docs/FORMATS.md section 5). A writer appends it only on success; a
# reader of a stream without it reports the cut, prints its summary
# marked partial with the reason and exits 1. So a pipe whose first
# program fails (tracecat at a bad record, tracegen stopped by a signal)
# never looks like a clean short trace; version 2 streams, which have no
# end record, read as before.
. "$(dirname "$0")/lib.sh"
C="$BIN/tracecat"
G="$BIN/tracegen"
F="$BIN/ftlsim"
S="$BIN/tracestat"
MSR="$SAMPLES/msr/hm_0-head1000.csv"
FA="-q --logical-pages 1048576 --pages-per-segment 64"
FM="-q --logical-space footprint --pages-per-segment 16"

cut_msg="the event stream ends after [0-9]+ events, without its end record: cut short"
# partial_summary FILE: a summary of some events, partial, with the reason.
ftlsim_partial() {
	jq -e ".partial == true and (.partial_reason | test(\"without its end record\")) and .host_pages_written > 0" "$1"
}
tracestat_partial() {
	jq -e ".partial == true and (.partial_reason | test(\"without its end record\")) and
		.traces[0].partial == true and .traces[0].events > 0" "$1"
}

t_expect_success 'tracegen and tracecat end the stream: version 3, the last record the end (its count, op 0xff)' '
	"$G" -p uniform -n 4096 -w 1000 -s 1 -o bin >g.ev 2>/dev/null &&
	test "$(head -c 12 g.ev | od -An -tx1 | tr -d " \n")" = 46544c4b45560000""03000000 &&
	test $(wc -c <g.ev) -eq $((16 + 1001 * 32)) &&
	test "$(tail -c 32 g.ev | od -An -tx1 | tr -d " \n")" = e803000000000000""0000000000000000""0000000000000000""ff00000000000000 &&
	"$C" -q "$MSR" >c.ev && test "$(tail -c 8 c.ev | head -c 1 | od -An -tx1 | tr -d " ")" = ff &&
	"$C" -q -o text c.ev >c.txt && test $(wc -l <c.txt) -eq $((($(wc -c <c.ev) - 48) / 32))
'
t_expect_success 'a whole stream: exit 0, not partial, through a pipe too' '
	"$G" -p uniform -n 4096 -w 1000 -s 1 -o bin 2>/dev/null | "$F" $FA - >f.json &&
	jq -e ".partial == false and (has(\"partial_reason\") | not) and .host_pages_written == 1000" f.json &&
	"$C" -q "$MSR" | "$S" -q - >s.json && jq -e "(has(\"partial\") | not) and .traces[0].events == 1000" s.json
'

# A bad record at line 601 of 1000; the file cut in the middle of a line.
{ head -600 "$MSR"; echo "not,a,record"; tail -n +601 "$MSR"; } >"$TMP/bad.csv"
head -c 40000 "$MSR" >"$TMP/truncated.csv"

t_expect_success 'tracecat fails at a bad record | ftlsim -: the cut reported, partial summary, no CSV, exit 1' '
	{ "$C" -q bad.csv 2>c.err; echo $? >c.rc; } | "$F" $FM --curve wa.csv - >f.json 2>f.err
	rc=$?
	cat c.err f.err
	test "$(cat c.rc)" = 1 && grep -q "bad.csv:601:" c.err && test $rc = 1 &&
	grep -Eq "ftlsim: <stdin>: byte 19216: $cut_msg" f.err && ftlsim_partial f.json &&
	jq -e ".input.events == 600" f.json && test ! -e wa.csv && ! ls -a | grep "\.tmp"
'
t_expect_success 'tracecat of a file cut mid-line | ftlsim --logical-space footprint - (stdin buffered for two passes): exit 1, partial' '
	{ "$C" -q truncated.csv 2>c.err; echo $? >c.rc; } |
		"$F" $FM - >f.json 2>f.err
	rc=$?
	cat c.err f.err
	test "$(cat c.rc)" = 1 && test $rc = 1 && grep -Eq "$cut_msg" f.err && ftlsim_partial f.json
'
t_expect_success 'tracecat fails | tracestat -: the cut reported, partial summary and trace, exit 1' '
	{ "$C" -q bad.csv 2>/dev/null; } | "$S" -q --size-hist h.csv - >s.json 2>s.err
	rc=$?
	cat s.err
	test $rc = 1 && grep -Eq "tracestat: <stdin>: byte 19216: $cut_msg" s.err && tracestat_partial s.json &&
	jq -e ".traces[0].events == 600" s.json && test ! -e h.csv &&
	{ "$C" -q bad.csv 2>/dev/null; } | "$S" -q --csv - >s.csv 2>/dev/null; test $? = 1 && grep -qx -- "-,partial,1" s.csv
'
t_expect_success 'tracegen stopped by SIGTERM | ftlsim - and | tracestat -: no end record, so exit 1 and partial' '
	{ timeout -s TERM 0.3 "$G" -p uniform -n 65536 -w 4000000000 -s 2 -o bin 2>/dev/null; echo $? >g.rc; } |
		"$F" $FA - >f.json 2>f.err
	rc=$?
	cat f.err
	test "$(cat g.rc)" = 124 && test $rc = 1 && grep -Eq "$cut_msg" f.err && ftlsim_partial f.json &&
	{ timeout -s TERM 0.3 "$G" -p uniform -n 65536 -w 4000000000 -s 2 -o bin 2>/dev/null; } |
		"$S" -q - >s.json 2>s.err
	rc=$?
	test $rc = 1 && grep -Eq "$cut_msg" s.err && tracestat_partial s.json
'
t_expect_success 'a cut travels down a pipe: tracecat of a cut stream writes its events without an end record, exit 1' '
	"$C" -q bad.csv >cut.ev 2>/dev/null; test $? = 1 && test $(wc -c <cut.ev) -eq $((16 + 600 * 32)) &&
	{ "$C" -q - <cut.ev 2>c.err; echo $? >c.rc; } | "$S" -q - >s.json 2>/dev/null
	rc=$?
	test "$(cat c.rc)" = 1 && grep -Eq "$cut_msg" c.err && test $rc = 1 && tracestat_partial s.json &&
	"$C" -q -o text cut.ev >cut.txt 2>c.err; test $? = 1 && test $(wc -l <cut.txt) = 600
'
t_expect_success 'tracecat with several inputs: the second one bad, the stream is cut; --skip-bad, whole' '
	{ "$C" -q --unordered "$MSR" bad.csv 2>/dev/null; } | "$F" $FM - >f.json 2>/dev/null; test $? = 1 &&
	ftlsim_partial f.json && jq -e ".input.events == 1600" f.json &&
	{ "$C" -q --skip-bad bad.csv 2>/dev/null; } | "$F" $FM - >f.json &&
	jq -e ".partial == false and .input.events == 1000" f.json
'
t_expect_success 'a version 2 stream (no end record) reads as before: exit 0, not partial' '
	"$G" -p uniform -n 4096 -w 1000 -s 1 -o bin >g.ev 2>/dev/null &&
	{ printf "FTLKEV\000\000\002\000\000\000\040\000\000\000"; tail -c +17 g.ev | head -c -32; } >v2.ev &&
	"$F" $FA v2.ev >f2.json && "$F" $FA g.ev >f3.json &&
	jq -e ".partial == false" f2.json && t_cmp "$(jq -S "del(.timing, .input.path)" f2.json >a; echo a)" \
		"$(jq -S "del(.timing, .input.path)" f3.json >b; echo b)" &&
	"$S" -q - <v2.ev | jq -e "(has(\"partial\") | not) and .traces[0].events == 1000"
'
t_expect_success 'an end record that miscounts, or data after it (two streams concatenated), is an error' '
	"$G" -p uniform -n 4096 -w 10 -s 1 -o bin >g.ev 2>/dev/null &&
	cat g.ev g.ev >two.ev &&
	t_err 1 "two.ev: byte 368: data after the end record" "$F" $FA two.ev &&
	{ head -c -32 g.ev; printf "\011\000\000\000\000\000\000\000"; tail -c 24 g.ev; } >miscount.ev &&
	t_err 1 "miscount.ev: byte 336: the end record counts 9 events, the stream holds 10" "$S" -q miscount.ev
'
t_done
