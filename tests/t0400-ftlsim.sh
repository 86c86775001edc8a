#!/bin/sh
# t0400-ftlsim: the FTL simulator's command line - request rules,
# logical space, outputs, determinism, TRIM, --check on every policy,
# SIGINT, and one published WA through the whole pipeline.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"

# jq filter: the summary without its timing group.
notime='del(.timing)'

t_expect_success '--help prints usage on stdout, --version the version' '
	"$S" --help >out && grep -q "^usage: ftlsim" out &&
	"$S" --version | grep -q "^ftlsim (ftlkit) "
'
t_expect_status 2 'an unknown option is a usage error' '"$S" --bogus </dev/null'
t_expect_status 2 'an unknown victim policy is a usage error' '"$S" --policy nope </dev/null'
t_expect_status 2 'an argument to a policy without one is a usage error' '"$S" --policy greedy:3 </dev/null'
t_expect_status 2 '--op and --spare-factor together are a usage error' '"$S" --op 0.1 --spare-factor 0.1 </dev/null'
t_expect_success 'every victim and placement policy is listed' '
	"$S" --list-policies >p && test $(grep -c "^[^ ]" p) -eq 8 &&
	"$S" --list-placements >q && test $(grep -c "^[^ ]" q) -eq 17 &&
	grep -A1 "^fk " q | grep -q "^ *N: classes, 1..64, default 6; R: .*1..1024, default 8; 6 streams, 6 for GC copies" &&
	grep -A1 "^single " q | grep -q "^ *1 stream, 1 for GC copies (the default --gc-low)" &&
	grep -A1 "^dchoices " p | grep -q "^ *D: samples a pick, 1..1000000, default 2"
'

# A small hand-made trace: 64 pages written twice, some reads, a flush.
awk 'BEGIN { for (r = 0; r < 2; r++) for (i = 0; i < 64; i++) print i, "W", i * 4096, 4096, 0;
	print 1, "R", 0, 8192, 0; print 2, "F", 0, 0, 0 }' >"$TMP/small.txt"

t_expect_success 'summary: counters, WA identity, parameters and seed' '
	"$S" -q --logical-pages 64 --physical-pages 128 --pages-per-segment 8 --seed 42 small.txt >s.json &&
	jq -e ".params.seed == 42 and .host_pages_written == 128 and .requests.reads == 1 and
		.requests.read_pages == 2 and .requests.flushes == 1 and .params.segments == 16 and
		.wa_total >= 1 and
		(.wa_total - (.host_pages_written + .gc_pages_copied) / .host_pages_written | fabs) < 1e-9" s.json
'
t_expect_success 'T is rounded down to whole segments and reported' '
	"$S" -q --logical-pages 64 --physical-pages 100 --pages-per-segment 8 small.txt >s.json &&
	jq -e ".params.physical_pages_requested == 100 and .params.physical_pages == 96 and
		.params.segment_rounding == \"down\" and .params.gc_low_segments == 1" s.json
'
t_expect_status 2 'too little spare space is a usage error (the parameters, not the data)' '
	"$S" -q --logical-pages 64 --physical-pages 64 --pages-per-segment 8 small.txt
'
t_expect_success 'a single log runs with no segment free: 4096 pages in 17 segments of 256, under --check' '
	"$BIN/tracegen" -p uniform -n 4096 -w 100000 -s 3 -o bin 2>/dev/null |
		"$S" -q --check --logical-pages 4096 --physical-pages 4352 --pages-per-segment 256 --precondition random - >one.json &&
	jq -e ".free_segments == 0 and .wa_total > 5 and .gc_pages_copied > 0" one.json &&
	t_err 2 "need at least 17 segments of 256 pages \(17 for the data and some garbage, 0 kept free by GC\), have 16" \
		"$S" -q --logical-pages 4096 --physical-pages 4351 --pages-per-segment 256 small.txt &&
	t_err 2 "need at least 19 segments of 256 pages \(17 for the data and some garbage, 1 open, 1 kept free by GC\)" \
		"$S" -q --logical-pages 4096 --physical-pages 4608 --pages-per-segment 256 --wear-level static:8 small.txt
'

# Request rules (docs/MODEL.md "Requests").
t_expect_success 'a request past the logical space is an error naming it' '
	echo "0 W 262144 4096 0" >oor.txt &&
	t_err 1 "write at byte 262144, length 4096, ends past the logical space \(64 pages" \
		"$S" -q --logical-pages 64 --physical-pages 128 --pages-per-segment 8 oor.txt
'
t_expect_success '--out-of-range drop counts and ignores it, clip keeps the part inside' '
	printf "0 W 258048 8192 0\n1 W 0 4096 0\n" >oor2.txt &&
	"$S" -q --logical-pages 64 --physical-pages 128 --pages-per-segment 8 --out-of-range drop oor2.txt >d.json &&
	jq -e ".requests.out_of_range == 1 and .host_pages_written == 1" d.json &&
	"$S" -q --logical-pages 64 --physical-pages 128 --pages-per-segment 8 --out-of-range clip oor2.txt >c.json &&
	jq -e ".requests.out_of_range == 1 and .host_pages_written == 2" c.json
'
t_expect_success 'zero-length requests are counted and ignored; unaligned writes write whole pages' '
	printf "0 W 0 0 0\n1 D 0 0 0\n2 W 1000 5000 0\n" >z.txt &&
	"$S" -q --logical-pages 64 --physical-pages 128 --pages-per-segment 8 z.txt >z.json &&
	jq -e ".requests.zero_length == 2 and .requests.unaligned == 1 and .host_pages_written == 2" z.json
'
t_expect_success 'discards: covered pages trimmed, partial pages kept, never-written pages counted' '
	printf "0 W 0 16384 0\n1 D 2048 8192 0\n2 D 40960 8192 0\n" >t.txt &&
	"$S" -q --logical-pages 64 --physical-pages 128 --pages-per-segment 8 t.txt >t.json &&
	jq -e ".requests.discard_pages_trimmed == 1 and .requests.discard_partial_pages == 2 and
		.requests.discard_pages_unmapped == 2" t.json &&
	"$S" -q --no-trim --logical-pages 64 --physical-pages 128 --pages-per-segment 8 t.txt >n.json &&
	jq -e ".requests.discards_ignored == 2 and .requests.discard_pages_trimmed == 0 and .params.trim == false" n.json
'
t_expect_success 'TRIM lowers WA on a write/discard mix; --no-trim ignores the discards' '
	"$G" -p uniform -n 8192 -w 100000 --fill --trim-prob 0.3 -s 5 -o bin >mix.ev 2>/dev/null &&
	"$S" -q --spare-factor 0.1 --pages-per-segment 32 mix.ev >on.json &&
	"$S" -q --spare-factor 0.1 --pages-per-segment 32 --no-trim mix.ev >off.json &&
	jq -e ".requests.discard_pages_trimmed > 20000" on.json &&
	jq -e ".requests.discards_ignored > 20000" off.json &&
	jq -n --slurpfile a on.json --slurpfile b off.json -e "\$a[0].wa_total < \$b[0].wa_total * 0.8"
'

# Logical space.
t_expect_success 'the logical space defaults to the largest offset touched' '
	"$S" -q --physical-pages 128 --pages-per-segment 8 small.txt >e.json &&
	jq -e ".params.logical_space == \"extent\" and .params.logical_pages == 64" e.json
'
t_expect_success 'footprint renumbers the written pages densely, from stdin too' '
	printf "0 W 409600000 4096 0\n1 W 20480 4096 0\n2 W 409600000 4096 0\n3 D 8192 4096 0\n" >fp.txt &&
	"$S" -q --logical-space footprint --physical-pages 64 --pages-per-segment 8 - <fp.txt >f.json &&
	jq -e ".params.logical_pages == 2 and .host_pages_written == 3 and
		.requests.discard_pages_unmapped == 1" f.json
'
t_expect_status 2 '--capacity must be a multiple of the page size' '"$S" --capacity 5000 </dev/null'
t_expect_success '--logical-pages and --warmup-writes take K/M/G, as tracegen'"'"'s -n and -w: the same run' '
	"$G" -p uniform -n 8K -w 16K --fill -s 3 -o bin >k.ev 2>/dev/null &&
	"$S" -q --logical-pages 8K --warmup-writes 4K --pages-per-segment 64 k.ev | jq -S "$notime | del(.input)" >k1.json &&
	"$S" -q --logical-pages 8192 --warmup-writes 4096 --pages-per-segment 64 k.ev | jq -S "$notime | del(.input)" >k2.json &&
	t_cmp k2.json k1.json && jq -e ".params.logical_pages == 8192 and .measured.host_pages_before == 4096" k1.json &&
	t_err 2 "option .--warmup-writes. needs a size .*not .4X." "$S" --warmup-writes 4X k.ev &&
	t_err 2 "option .--logical-pages. needs a size .*not .-1." "$S" --logical-pages -1 k.ev
'
t_expect_status 2 'a given size and --logical-space footprint conflict' '
	"$S" --logical-pages 64 --logical-space footprint </dev/null'

# Outputs, determinism.
t_expect_success 'curve, histogram and erase CSVs have headers and the expected rows' '
	"$G" -p hotcold -n 4096 -w 40960 --fill -s 3 -o bin >hc.ev 2>/dev/null &&
	"$S" -q --spare-factor 0.15 --pages-per-segment 16 --warmup-writes 8192 --curve c.csv \
		--interval 4096 --hist h.csv --snapshot-every 20000 --erase-hist e.csv hc.ev >o.json &&
	head -1 c.csv | grep -qx "host_pages_written,interval_wa,cumulative_wa,free_segments,segments_cleaned,victim_utilization_mean,t_ns,trim_leak_pages,fs_pages_written,stacked_interval_wa,stacked_cumulative_wa" &&
	test $(wc -l <c.csv) -eq 12 &&
	head -1 h.csv | grep -qx "kind,snapshot,host_pages_written,valid_pages,utilization,segments" &&
	test $(grep -c "^sealed,1," h.csv) -eq 17 && test $(grep -c "^sealed,3," h.csv) -eq 17 &&
	test $(grep -c "^victims,0," h.csv) -eq 17 &&
	head -1 e.csv | grep -qx "erase_count,segments" &&
	test "$(awk -F, "NR > 1 { n += \$2 } END { print n }" e.csv)" = "$(jq .params.segments o.json)" &&
	test "$(awk -F, "\$1 == \"victims\" { n += \$6 } END { print n }" h.csv)" = "$(jq .measured.segments_cleaned o.json)"
'
t_expect_success 'same input, parameters and seed: identical JSON (minus timing) and CSV' '
	for i in 1 2; do
		"$S" -q --spare-factor 0.15 --pages-per-segment 16 --policy dchoices:3 --placement hotcold:3 \
			--precondition random --seed 9 --curve c$i.csv --hist h$i.csv hc.ev >r$i.json || return 1
	done &&
	jq "$notime" r1.json >a && jq "$notime" r2.json >b && t_cmp a b &&
	t_cmp c1.csv c2.csv && t_cmp h1.csv h2.csv &&
	"$S" -q --spare-factor 0.15 --pages-per-segment 16 --policy dchoices:3 --placement hotcold:3 \
		--precondition random --seed 10 hc.ev | jq "$notime" >c && ! cmp -s a c
'
t_expect_success 'timing fields are grouped under "timing"' '
	jq -e ".timing | has(\"elapsed_s\") and has(\"page_writes_per_s\")" r1.json &&
	! jq "$notime" r1.json | grep -q "_per_s\"\|elapsed"
'
t_expect_success 'no progress line when stderr is not a terminal' '
	"$S" -q --spare-factor 0.15 --pages-per-segment 16 hc.ev >/dev/null 2>err && ! test -s err
'

# Placement: per-stream figures, and separation pays on skewed writes.
t_expect_success 'sepgc reports a host and a gc stream; GC copies go only to gc' '
	"$S" -q --spare-factor 0.15 --pages-per-segment 16 --placement sepgc hc.ev >sg.json &&
	jq -e ".streams | length == 2 and .[0].name == \"host\" and .[1].name == \"gc\" and
		.[0].gc_pages_copied == 0 and .[1].host_pages_written == 0 and .[1].gc_pages_copied > 0" sg.json &&
	jq -e "([.streams[].host_pages_written] | add) == .host_pages_written and
		([.streams[].gc_pages_copied] | add) == .gc_pages_copied" sg.json
'
t_expect_success 'on hot/cold writes, oracle and hotcold placements beat one log (greedy, cb)' '
	for pol in greedy cb; do
		"$S" -q --spare-factor 0.15 --pages-per-segment 16 --policy $pol hc.ev >one.json &&
		"$S" -q --spare-factor 0.15 --pages-per-segment 16 --policy $pol --placement oracle:2 hc.ev >or.json &&
		"$S" -q --spare-factor 0.15 --pages-per-segment 16 --policy $pol --placement hotcold:2 hc.ev >hcp.json &&
		jq -n --slurpfile a one.json --slurpfile b or.json --slurpfile c hcp.json -e \
			"\$b[0].wa_total < \$a[0].wa_total * 0.9 and \$c[0].wa_total < \$a[0].wa_total" || return 1
	done
'
t_expect_success 'static wear levelling moves data and narrows the erase-count spread' '
	"$S" -q --spare-factor 0.15 --pages-per-segment 16 hc.ev >w0.json &&
	"$S" -q --spare-factor 0.15 --pages-per-segment 16 --wear-level static:4 hc.ev >w1.json &&
	jq -e ".wl_pages_copied > 0 and .erase_count.max - .erase_count.min <= 5 and .params.wear_level == \"static:4\"" w1.json &&
	jq -n --slurpfile a w0.json --slurpfile b w1.json -e \
		"(\$b[0].erase_count.max - \$b[0].erase_count.min) < (\$a[0].erase_count.max - \$a[0].erase_count.min)"
'

# --check under every victim and placement policy.
"$G" -p hotcold -n 2048 -w 30000 --fill --trim-prob 0.05 -s 11 -o bin >"$TMP/chk.ev" 2>/dev/null
for pol in $("$S" --list-policies | awk '/^[^ ]/ { print $1 }'); do
	t_expect_success "--check holds for $pol under every placement" "
		for pl in single sepgc agesort:4 hotcold:3 oracle:2; do
			\"\$S\" -q --check --policy $pol --placement \$pl --spare-factor 0.2 --pages-per-segment 16 \
				--wear-level static:8 chk.ev >k.json || return 1
			jq -e '.wa_total >= 1 and .segments_cleaned > 100' k.json >/dev/null || return 1
		done
	"
done

# One published value through the whole pipeline (the full table: tests/validate_model.sh).
t_expect_success 'tracegen | ftlsim: greedy, b=64, Sf=0.1 within 2% of the mean-field WA 4.821' '
	"$G" -p uniform -n 65536 -w 786432 -s 1 -o bin 2>/dev/null |
		"$S" -q --logical-pages 65536 --spare-factor 0.1 --pages-per-segment 64 \
			--precondition seq --warmup-writes 262144 - >g.json &&
	jq -e "(.wa_measured / 4.821 - 1 | fabs) < 0.02" g.json
'

# SIGINT: partial summary, no output file left, exit 130.
t_expect_success 'SIGINT prints a partial summary, leaves no output file, exits 130' '
	rm -f in.fifo && mkfifo in.fifo || return 1
	"$S" -q --logical-pages 65536 --spare-factor 0.1 --curve int.csv in.fifo >p.json 2>p.err &
	pid=$!
	"$G" -p uniform -n 65536 -w 4000000000 -s 1 -o bin >in.fifo 2>/dev/null &
	gen=$!
	sleep 1.5 && kill -INT $pid; wait $pid; rc=$?
	kill $gen 2>/dev/null; wait $gen
	test $rc -eq 130 && jq -e ".partial == true and .host_pages_written > 0" p.json &&
	! ls int.csv* 2>/dev/null
'
t_expect_success 'a CSV file named -: a usage error (standard output holds the summary), for every file option' '
	printf "0 W 0 4096 0\n" >one.txt &&
	for o in --curve --hist --erase-hist --flash-ops --timeline --latency --results; do
		t_err 2 "^ftlsim: $o -: standard output carries the JSON summary: name a file, not -" \
			"$S" -q --timing --logical-pages 4096 --pages-per-segment 64 $o - one.txt && test ! -s "$TMP/.stdout" || return 1
	done &&
	"$S" -q --timing --logical-pages 4096 --pages-per-segment 64 --timeline /dev/fd/3 one.txt 3>tl.csv >s.json 2>/dev/null &&
	jq -e ".requests.writes == 1" s.json && head -n 1 tl.csv | grep -q "^t_s,iops,"
'
t_expect_success '--skip-bad: the bad records skipped in the summary (input.bad_records_skipped), 0 without any' '
	"$BIN/tracegen" -q -p uniform -n 4096 -w 2000 -o text >sb.txt &&
	sed "500s/.*/garbage/; 900s/.*/1 X 0 0 0/" sb.txt >sbb.txt &&
	"$S" -q --skip-bad --logical-pages 4096 --pages-per-segment 64 sbb.txt 2>/dev/null |
		jq -e ".input.bad_records_skipped == 2 and .input.events == 1998" &&
	"$S" -q --timing --skip-bad --logical-pages 4096 --pages-per-segment 64 --grid op=0.1,0.2 sbb.txt 2>/dev/null |
		jq -e ".input.bad_records_skipped == 2" &&
	"$S" -q --logical-pages 4096 --pages-per-segment 64 sb.txt | jq -e ".input.bad_records_skipped == 0"
'
t_expect_success 'a request the model refuses: exit 1 naming the file and line (text), the byte (event stream), or the event (stdin)' '
	printf "# c\n\n0 W 0 4096 0\n1000 W 0 104857600 0\n" >oor.txt &&
	t_err 1 "^ftlsim: oor.txt:4 \(event 2\): write at byte 0, length 104857600, ends past the logical space" \
		"$S" -q --logical-pages 4096 --pages-per-segment 64 oor.txt &&
	gzip -c oor.txt >oor.txt.gz &&
	t_err 1 "^ftlsim: oor.txt.gz:4 \(event 2\): op=0.1: write at byte 0" \
		"$S" -q --logical-pages 4096 --pages-per-segment 64 --grid op=0.1,0.2 oor.txt.gz &&
	"$BIN/tracecat" -q -o bin oor.txt >oor.ev &&
	t_err 1 "^ftlsim: oor.ev: byte 48 \(event 2\): write at byte 0" "$S" -q --logical-pages 4096 --pages-per-segment 64 oor.ev &&
	t_err 1 "^ftlsim: -: event 2: write at byte 0" sh -c "\"$S\" -q --logical-pages 4096 --pages-per-segment 64 - <oor.ev"
'
t_expect_success 'a refused request read from a FIFO or a pipe: its event number alone (the input is not read again), no hang' '
	printf "0 W 0 4096 0\n1000 W 0 104857600 0\n" >oof.txt && rm -f oo.fifo && mkfifo oo.fifo &&
	{ cat oof.txt >oo.fifo & } &&
	t_err 1 "^ftlsim: oo.fifo: event 2: write at byte 0" timeout 20 "$S" -q --logical-pages 4096 --pages-per-segment 64 oo.fifo &&
	awk "BEGIN { for (i = 0; i < 2000; i++) print i * 1000, \"W\", (i % 1000) * 4096, 4096, 0;
		print 2000000, \"D\", 20480000, 4096, 0; for (i = 0; i < 600; i++) print 2000001 + i * 1000000, \"R\", 0, 4096, 0 }" >td.txt &&
	t_err 1 "^ftlsim: td.txt:2001 \(event 2001\): discard at byte 20480000" \
		"$S" -q --pages-per-segment 16 --op 0.28 --logical-pages 1024 td.txt &&
	t_err 1 "^ftlsim: td.txt: at event [0-9]* \(--trim-mode sends discards later: a failing discard may be an earlier event.s\): discard at byte 20480000" \
		"$S" -q --pages-per-segment 16 --op 0.28 --logical-pages 1024 --trim-mode delay:0.05 td.txt
'
t_expect_success '--hist: --snapshot-every that divides the writes takes the end snapshot once; --curve segments_cleaned per interval, the rows adding up to the summary' '
	"$G" -q -p hotcold -n 8192 --fill -w 80000 -o bin >hs.ev &&
	"$S" -q --logical-pages 8192 --pages-per-segment 32 --op 0.2 --hist hx.csv --snapshot-every 44096 \
		--curve cx.csv --interval 25000 hs.ev >hx.json &&
	test "$(awk -F, "\$1 == \"sealed\" { print \$2, \$3 }" hx.csv | sort -u | tr "\n" " ")" = "1 44096 2 88192 " &&
	awk -F, -v c=$(jq .segments_cleaned hx.json) "NR > 1 { s += \$5 } END { exit !(s == c && NR > 3) }" cx.csv
'
t_expect_success '--volume V of a trace without V, the logical space given: exit 1 naming it, no output file' '
	t_err 1 "hs.ev: volume 7 is not in the trace \(none of its 88192 events; --volume\)" \
		"$S" -q --volume 7 --logical-pages 8192 --curve v7.csv hs.ev && test ! -e v7.csv &&
	"$S" -q --volume 0 --logical-pages 8192 hs.ev | jq -e ".input.events == 88192" >/dev/null
'
t_expect_success '--volume V not in the trace, the space its footprint or extent (a first pass): the same message; with --ops, --start or --end, they are named' '
	for sp in footprint extent; do
		t_err 1 "hs.ev: volume 7 is not in the trace \(none of its 88192 events; --volume\)" \
			"$S" -q --volume 7 --logical-space $sp hs.ev || return 1
	done &&
	t_err 1 "hs.ev: none of the trace.s 88192 events is kept by --volume 0, --ops, --end$" \
		"$S" -q --volume 0 --ops R --end 1 --logical-space footprint hs.ev &&
	t_err 1 "hs.ev: none of the trace.s 88192 events is kept by --volume 7, --start$" \
		"$S" -q --volume 7 --start 0 --logical-pages 8192 hs.ev
'
t_expect_success '--skip-bad: the bad records said once, whether the trace is read once or twice (extent); all bad is exit 1' '
	printf "0 W 0 4096 0\nbad line\n1000 W 258048 4096 0\n" >bad.txt &&
	for sp in "--logical-pages 64" ""; do
		"$S" -q --skip-bad $sp --op 0.5 --pages-per-segment 8 bad.txt >/dev/null 2>err &&
		test "$(grep -c "bad.txt: 1 bad records skipped" err)" = 1 || { echo "$sp"; cat err; return 1; }
	done &&
	printf "bad\n" >allbad.txt &&
	t_err 1 "allbad.txt: no event read: --skip-bad skipped 1 bad records" "$S" -q --skip-bad -f ev --op 0.5 --pages-per-segment 8 allbad.txt
'
t_expect_success '--interval without --curve is said to change nothing; with --curve it is not' '
	"$G" -q -p uniform -n 4096 -w 20000 -o bin >iv.ev &&
	"$S" -q --logical-pages 4096 --pages-per-segment 32 --interval 1000 iv.ev >/dev/null 2>iv.err &&
	grep -qx "ftlsim: warning: --interval sets the rows of --curve, which is not given, so it changes nothing" iv.err &&
	"$S" -q --logical-pages 4096 --pages-per-segment 32 --interval 1000 --curve iv.csv iv.ev >/dev/null 2>iv2.err &&
	! grep -q "interval" iv2.err
'
t_expect_success 'a trace that writes no page (reads only): WA is null and ftlsim says why, per model of a grid too' '
	"$G" -q -p uniform -n 4096 -w 2000 -o text | sed "s/ W / R /" >ronly.txt &&
	"$S" --logical-pages 4096 --pages-per-segment 32 ronly.txt >ronly.json 2>ronly.err &&
	jq -e ".wa_total == null and .wa_measured == null and .host_pages_written == 0" ronly.json >/dev/null &&
	grep -qx "ftlsim: warning: no page written (the events kept are reads, discards or flushes): wa_total, wa_measured and write_cost are null" ronly.err &&
	"$S" -q --logical-pages 4096 --pages-per-segment 32 --grid "op=0.1,0.2" ronly.txt >/dev/null 2>ronly2.err &&
	grep -q "^ftlsim: warning: op=0.2: no page written" ronly2.err &&
	"$S" -q --logical-pages 4096 --pages-per-segment 32 "$TMP/iv.ev" >/dev/null 2>w.err &&
	! grep -q "no page written" w.err
'
t_expect_success 'an unknown option: every option equally near is named (--opp is as near --op as --ops), in a grid the model options only' '
	t_err 2 "^ftlsim: bad option: did you mean --ops or --op\?$" "$S" --opp 0.1 "$TMP/iv.ev" &&
	t_err 2 "^ftlsim: bad option: did you mean --policy\?$" "$S" --polcy greedy "$TMP/iv.ev" &&
	t_err 2 "not a model option \(see --help\); did you mean op\?$" "$S" --grid "opp=0.1" "$TMP/iv.ev"
'
t_done
