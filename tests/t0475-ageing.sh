#!/bin/sh
# t0475-ageing: --precondition-trace ages the drive with one trace and
# measures another. Its data stays and its counts go: every counter of
# the measured run is the difference between replaying both traces in
# one and the ageing trace alone; a device in time starts its clock
# after it; --curve's rows carry the trace time of their last request.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
"$G" -p hotcold -n 16384 -w 40000 --fill -s 1 --trim-prob 0.05 -o text >"$TMP/A.txt" 2>/dev/null
"$G" -p zipf:0.9 -n 16384 -w 40000 -s 2 -o text >"$TMP/B.txt" 2>/dev/null
cat "$TMP/A.txt" "$TMP/B.txt" >"$TMP/AB.txt"
M="--logical-pages 16384 --op 0.15 --pages-per-segment 64"

t_expect_success 'the measured run counts what the two traces replayed in one count beyond the ageing one' '
	F="[.flash_pages_written, .gc_pages_copied, .segments_cleaned, .segments_cleaned_empty, .host_pages_written, .requests.writes, .requests.discards]"
	"$S" -q $M A.txt | jq -c "$F" >a && "$S" -q $M AB.txt | jq -c "$F" >ab &&
	"$S" -q $M --precondition-trace A.txt B.txt >b.json && jq -c "$F" b.json >b &&
	jq -n -c --slurpfile a a --slurpfile ab ab "[range(0; 7) as \$i | \$ab[0][\$i] - \$a[0][\$i]]" >want &&
	t_cmp want b && jq -e ".ageing_pages_written == 54377 and .erase_count.max > 0" b.json
'

t_expect_success 'placements and victim policies that do not learn the future: the same identity on flash writes' '
	for p in "--placement sepbit" "--placement hotcold --policy cb" "--placement dac" "--policy fifo"; do
		a=$("$S" -q $M $p A.txt | jq .flash_pages_written) && ab=$("$S" -q $M $p AB.txt | jq .flash_pages_written) &&
		b=$("$S" -q $M $p --precondition-trace A.txt B.txt | jq .flash_pages_written) &&
		[ $((ab - a)) = "$b" ] || { echo "# $p: $ab - $a != $b"; return 1; }
	done
'

t_expect_success 'no curve row during the ageing; each row'"'"'s t_ns is its last request'"'"'s time' '
	"$S" -q $M --precondition-trace A.txt --curve c.csv --interval 4000 B.txt >/dev/null &&
	head -1 c.csv | grep -q ",t_ns,trim_leak_pages,fs_pages_written,stacked_interval_wa,stacked_cumulative_wa\$" && test "$(grep -c . c.csv)" = 11 &&
	awk -F, "NR > 1 { if (\$7 < last) bad = 1; last = \$7 } END { exit bad }" c.csv &&
	tail -n 1 c.csv | cut -d, -f7 >got && tail -n 1 B.txt | cut -d" " -f1 >want && t_cmp want got
'

t_expect_success 'a device in time starts its clock after the ageing' '
	"$S" -q $M --device femu,channels=1,dies=1 --qd 1 --precondition-trace A.txt B.txt >t.json &&
	jq -e ".timing.latency_us.write.count == .requests.writes and .timing.requests == (.requests.writes + .requests.discards)" t.json &&
	"$S" -q $M --precondition-trace A.txt B.txt | jq -S "del(.timing, .memory, .params)" >n1 &&
	jq -S "del(.timing, .memory, .params)" t.json >n2 && t_cmp n1 n2
'

t_expect_success '--check holds after an ageing trace (its programs kept apart from the measured run'"'"'s)' '
	"$S" -q $M --check --precondition-trace A.txt B.txt >c1.json && jq -S "del(.memory, .params, .timing)" c1.json >c1 &&
	"$S" -q $M --precondition-trace A.txt B.txt | jq -S "del(.memory, .params, .timing)" >c2 && t_cmp c2 c1
'
t_expect_success 'a host log ages with the device: its counts are the two traces'"'"' as one less the ageing trace'"'"'s' '
	L="--host-lfs segment=256K,op=0.2" &&
	F="[.host_lfs.gc_pages_copied, .host_lfs.segments_cleaned, .flash_pages_written, .host_pages_written]" &&
	"$S" -q $M $L A.txt | jq -c "$F" >a && "$S" -q $M $L AB.txt | jq -c "$F" >ab &&
	"$S" -q $M $L --check --precondition-trace A.txt B.txt >l.json && jq -c "$F" l.json >b &&
	jq -n -c --slurpfile a a --slurpfile ab ab "[range(0; 4) as \$i | \$ab[0][\$i] - \$a[0][\$i]]" >want &&
	t_cmp want b && jq -e ".host_lfs.gc_pages_copied > 0" l.json
'
t_expect_success 'footprint or per-volume with an ageing trace: usage error' '
	t_err 2 "precondition-trace" "$S" --logical-space footprint --precondition-trace A.txt B.txt &&
	t_err 2 "precondition-trace" "$S" --per-volume --precondition-trace A.txt B.txt
'
t_expect_success '--precondition-format names the ageing trace'"'"'s format (csv:SPEC, or csv with the run'"'"'s --columns); without it the format is detected, whatever the run'"'"'s -f' '
	awk "{ printf \"%d,%s,%d,%d\\n\", \$1 / 1000, \$2, \$3 / 512, \$4 }" A.txt >A.csv &&
	awk "{ printf \"%d,%s,%d,%d\\n\", \$1 / 1000, \$2, \$3 / 512, \$4 }" B.txt >B.csv &&
	SP="t=1:us op=2:R=R,W=W,D=D offset=3:sectors length=4" &&
	"$S" -q $M --precondition-trace A.txt B.txt | jq -c "[.flash_pages_written, .gc_pages_copied]" >want &&
	t_err 1 "^ftlsim: A\.csv: cannot detect the trace format; name it with --precondition-format " \
		"$S" -q $M --precondition-trace A.csv B.txt &&
	"$S" -q $M --precondition-trace A.csv --precondition-format "csv:$SP" B.txt >f1.json &&
	jq -c "[.flash_pages_written, .gc_pages_copied]" f1.json | t_cmp want - &&
	jq -e ".input.ageing.format == \"csv\" and .input.ageing.events == $(grep -c . A.txt)" f1.json &&
	"$S" -q $M -f csv --columns "$SP" --precondition-trace A.csv --precondition-format csv B.csv |
		jq -c "[.flash_pages_written, .gc_pages_copied]" | t_cmp want - &&
	"$S" -q $M -f "csv:$SP" --precondition-trace A.txt B.csv | jq -c "[.flash_pages_written, .gc_pages_copied]" | t_cmp want - &&
	t_err 2 "precondition-format csv needs a column map" "$S" -q $M --precondition-format csv --precondition-trace A.csv B.txt &&
	t_err 2 "give the file" "$S" -q $M --precondition-format ev B.txt &&
	t_err 2 "unknown format .nope." "$S" -q $M --precondition-format nope --precondition-trace A.txt B.txt
'
t_expect_success 'an ageing trace that does not exist: exit 1 naming it' '
	t_err 1 "nope.csv" "$S" $M --precondition-trace nope.csv B.txt
'
t_expect_success '--skip-bad: the ageing trace'"'"'s bad records said on stderr, naming its file, and counted in input.ageing' '
	{ head -5 A.txt; echo junk; sed -n 6,10p A.txt; } >bad.txt &&
	"$S" -q --skip-bad $M --precondition-trace bad.txt B.txt >k.json 2>k.err &&
	grep -qx "ftlsim: bad.txt: 1 bad records skipped (first: bad.txt:6: .*)" k.err &&
	jq -e ".input.ageing == {path: \"bad.txt\", format: \"ev\", events: 10, bad_records_skipped: 1} and .input.bad_records_skipped == 0" k.json &&
	"$S" -q --skip-bad $M --precondition-trace A.txt B.txt >g.json 2>g.err && ! grep -q "bad records" g.err &&
	jq -e ".input.ageing.bad_records_skipped == 0 and .input.ageing.events == $(grep -c . A.txt)" g.json &&
	t_err 1 "^ftlsim: bad\.txt:6: " "$S" -q $M --precondition-trace bad.txt B.txt
'
t_expect_success '--skip-bad: an ageing trace of bad records only is an error, as the trace'"'"'s would be' '
	"$G" -q -p uniform -n 64 -w 4 -o bin >four.bin &&
	for r in 0 1 2 3; do printf "\001" | dd of=four.bin bs=1 seek=$((16 + 32 * r + 31)) conv=notrunc 2>/dev/null || return 1; done &&
	t_err 1 "^ftlsim: --precondition-trace four\.bin: no event read: --skip-bad skipped 4 bad records.*first: four\.bin: byte 16: " \
		"$S" -q --skip-bad $M --precondition-trace four.bin B.txt
'
t_expect_success 'an ageing stream cut short: exit 1, the message naming the file once' '
	"$G" -q -p uniform -n 4096 -w 2000 -o bin >whole.bin && head -c 16016 whole.bin >cut.bin &&
	t_err 1 "^ftlsim: --precondition-trace cut\.bin: byte 16016: the event stream ends after 500 events" \
		"$S" -q $M --precondition-trace cut.bin B.txt &&
	! grep -q "cut.bin: cut.bin" "$TMP/.stderr"
'
t_done
