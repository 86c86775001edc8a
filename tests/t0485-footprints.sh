#!/bin/sh
# t0485-footprints: ftlsim --footprints FILE, tracestat's --per-volume
# table instead of the first pass: the results equal the two-pass run's
# byte for byte (the --results CSV, the JSON but its timing), for a single
# run and --per-volume, from a file and from standard input, with a
# placement that learns the trace first and with discards of pages before
# their first write; a table of another trace, a malformed one, a page
# size or a mixed trace it cannot serve are errors.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
TS="$BIN/tracestat"
TC="$SAMPLES/tencent/cbs-sample.csv.bz2"

# The JSON without what differs between runs (timing, the memory available).
norm() { jq -S 'del(.timing, .memory.limit_bytes)'; }

# same TABLE OPTIONS... TRACE: the two-pass run and the run with
# --footprints TABLE give the same results CSV and JSON.
same() {
	tab=$1
	shift
	"$S" -q "$@" --results two.csv >two.raw 2>two.err && norm <two.raw >two.json &&
	"$S" -q --footprints "$tab" "$@" --results one.csv >one.raw 2>one.err && norm <one.raw >one.json &&
	test -s two.csv && t_cmp two.csv one.csv && t_cmp two.json one.json
}

# A single-volume trace whose discards often come before the page's first
# write (and past the pages ever written), with a fill: tracegen's
# requests and discards of random 8 KiB ranges among them.
# (Under the sanitizers, a third of the writes, and the -j 1 runs that
# repeat a -j N run left out.)
DW=200000
t_sanitized && DW=60000
"$G" -p hotcold -n 16384 -w $DW --fill --trim-prob 0.1 -s 7 -o text 2>/dev/null |
	awk 'BEGIN { srand(5) } { print } NR % 7 == 0 { printf "%s D %d 8192 0 0\n", $1, int(rand() * 32768) * 4096 }' \
		>"$TMP/disc.txt"
"$TS" -q --per-volume "$TMP/disc.csv" "$TMP/disc.txt" >/dev/null 2>&1
"$TS" -q --per-volume "$TMP/tc.csv" "$TC" >/dev/null 2>&1
"$TS" -q --per-volume "$TMP/tc.json" "$TC" >/dev/null 2>&1

t_expect_success 'tracestat --per-volume says the page size it counts in' '
	head -1 tc.csv | grep -q ",page_size_bytes\$" && test "$(tail -1 tc.csv | cut -d, -f15)" = 4096 &&
	jq -e "all(.[]; .page_size_bytes == 4096)" tc.json &&
	"$TS" -q --page-size 16K --per-volume p16.csv disc.txt >/dev/null 2>&1 &&
	test "$(tail -1 p16.csv | cut -d, -f15)" = 16384
'
t_expect_success 'a single run: a Tencent volume, footprint and extent, equal to the two passes' '
	same tc.csv --volume 1063 --logical-space footprint --pages-per-segment 16 --precondition random "$TC" &&
	same tc.json --volume 1058 --logical-space extent --pages-per-segment 16 "$TC" &&
	jq -e ".params.logical_space == \"extent\" and .params.logical_pages > 6000000" one.json
'
t_expect_success 'a single run with discards before first writes, a grid at -j 1 and 3, fk learning first' '
	same disc.csv --logical-space footprint --pages-per-segment 16 disc.txt &&
	jq -e ".requests.discard_pages_unmapped > 1000 and .requests.discard_pages_trimmed > 1000" one.json &&
	same disc.csv -j 3 --logical-space footprint --pages-per-segment 16 --grid "policy=greedy,cb op=0.1,0.3" disc.txt &&
	{ t_sanitized || same disc.csv -j 1 --logical-space footprint --pages-per-segment 16 --grid "policy=greedy,cb op=0.1,0.3" disc.txt; } &&
	same disc.csv --logical-space footprint --pages-per-segment 16 --placement fk disc.txt &&
	jq -e ".params.placement == \"fk\" and .wa_total > 1" one.json
'
# (the extent of the whole sample is 1.5 TiB, a model of 3.5 GB: its
# requests within the first GiB of each volume, 1237 volumes, keep it small)
bzcat "$TC" | awk -F, '$2 < 2097152' >"$TMP/tcs.csv"
"$TS" -q -f tencent --per-volume "$TMP/tcs.tab.csv" "$TMP/tcs.csv" >/dev/null 2>&1
t_expect_success 'a trace of several volumes: one extent (the largest of the rows), no footprint without --volume' '
	same tcs.tab.csv -f tencent --logical-space extent tcs.csv &&
	jq -e ".params.logical_pages > 200000 and .input.volumes_mixed" one.json >/dev/null &&
	jq -e ".input.volumes_mixed" one.json &&
	t_err 2 "the trace has 2038 volumes.*--volume V" "$S" -q --footprints tc.csv --logical-space footprint "$TC"
'
t_expect_success 'standard input: one pass with the table, the results of the two passes over the file' '
	"$S" -q --logical-space footprint --pages-per-segment 16 --results f.csv disc.txt | norm >f.json &&
	"$S" -q --footprints disc.csv --logical-space footprint --pages-per-segment 16 --results s.csv - <disc.txt |
		norm >s.json &&
	jq -S "del(.input.path)" f.json >f2.json && jq -S "del(.input.path)" s.json >s2.json && t_cmp f2.json s2.json &&
	sed "s|disc.txt|-|" f.csv >f2.csv && t_cmp f2.csv s.csv &&
	"$S" -q --footprints disc.csv --logical-space footprint --pages-per-segment 16 --placement fk - <disc.txt |
		norm | jq -S "del(.input.path)" >k1.json &&
	"$S" -q --logical-space footprint --pages-per-segment 16 --placement fk disc.txt | norm |
		jq -S "del(.input.path)" >k2.json && t_cmp k2.json k1.json
'
# (a memory measurement, and three passes over 4 Mi events: not under
# the sanitizers, whose shadow memory the RSS would measure; the paths
# it takes, standard input with and without the table, run above and
# below on smaller inputs)
if t_sanitized; then
	t_skip 'standard input: no buffer of the trace (4 Mi events)' "the sanitizers' build: RSS is theirs"
else
	t_expect_success 'standard input: no buffer of the trace (4 Mi events, 64 MiB buffered without the table)' '
		"$G" -p uniform -n 4096 -w 4M -s 2 -o bin >long.ev 2>/dev/null &&
		"$TS" -q --per-volume long.csv long.ev >/dev/null 2>&1 &&
		"$S" -q --logical-space footprint --pages-per-segment 16 - <long.ev >buf.json &&
		"$S" -q --footprints long.csv --logical-space footprint --pages-per-segment 16 - <long.ev >one.json &&
		jq -S "del(.timing)" buf.json >a.json && jq -S "del(.timing)" one.json >b.json && t_cmp a.json b.json &&
		b=$(jq .timing.max_rss_kb buf.json) && o=$(jq .timing.max_rss_kb one.json) &&
		echo "max RSS: $b kB buffered, $o kB with the table" && test $((b - o)) -gt 50000
	'
fi
t_expect_success '--per-volume on the Tencent sample: top volumes x 2 policies, -j 1 and 2, CSV and JSON tables' '
	{ t_sanitized || same tc.csv -j 1 --per-volume --volumes top:6 --logical-space footprint --pages-per-segment 16 \
		--precondition random --grid "policy=greedy,fifo" "$TC"; } &&
	same tc.json -j 2 --per-volume --volumes top:6 --logical-space footprint --pages-per-segment 16 \
		--precondition random --grid "policy=greedy,fifo" "$TC" &&
	jq -e ".per_volume.volumes_in_trace == 2038 and .per_volume.volumes_selected == 6" one.json &&
	same tc.csv --per-volume --volumes top:40 --logical-space footprint "$TC" &&
	jq -e ".configurations[0].volumes_skipped > 0" one.json &&
	same tc.csv --per-volume --volumes 1063,1058 --min-pages 500 --logical-space footprint --pages-per-segment 16 "$TC" &&
	jq -e "[.skipped[] | select(.volume == 1058 and (.reason | test(\"below --min-pages\")))] | length == 1" one.json
'
t_expect_success '--per-volume from standard input: one pass, the results of the two passes over the file' '
	"$S" -q -j 2 --per-volume --volumes top:5 --logical-space footprint --pages-per-segment 16 \
		--precondition random --results f.csv "$TC" 2>/dev/null | norm | jq -S "del(.input.path)" >f.json &&
	bzip2 -dc "$TC" | "$S" -q -j 2 --footprints tc.csv --per-volume --volumes top:5 --logical-space footprint \
		--pages-per-segment 16 --precondition random --results s.csv - 2>/dev/null |
		norm | jq -S "del(.input.path)" >s.json &&
	t_cmp f.json s.json && sed "s|$TC|-|" f.csv >f2.csv && t_cmp f2.csv s.csv
'
t_expect_success '--per-volume on a tracegen --volumes trace: selection, skipped volumes, fk, extent, -j 3' '
	"$G" -p hotcold --volumes 12 -n 8192 -w $((DW * 3 / 4)) --fill --trim-prob 0.05 -s 3 -o bin >v.ev 2>/dev/null &&
	"$TS" -q --per-volume v.csv v.ev >/dev/null 2>&1 &&
	same v.csv -j 3 --per-volume --logical-space footprint --pages-per-segment 16 --grid "policy=greedy,cb" v.ev &&
	same v.csv --per-volume --volumes top:4 --min-pages 600 --logical-space footprint --pages-per-segment 16 v.ev &&
	same v.csv --per-volume --volumes top:3 --logical-space footprint --pages-per-segment 16 --op 0.5 --placement fk v.ev &&
	jq -e ".configurations[0].volumes_run == 3" one.json &&
	same v.csv --per-volume --logical-space extent --pages-per-segment 32 v.ev &&
	"$S" -q --per-volume --volumes top:3 --logical-space footprint --pages-per-segment 16 --op 0.5 --placement fk \
		--results pv.csv v.ev >/dev/null 2>&1 &&
	for vol in $(tail -n +2 pv.csv | cut -d, -f2); do
		"$S" -q --volume $vol --logical-space footprint --pages-per-segment 16 --op 0.5 --placement fk \
			--results r.csv v.ev >/dev/null 2>&1 && tail -n +2 r.csv >>single.csv || exit 1
	done && tail -n +2 pv.csv >rows.csv && t_cmp single.csv rows.csv
'
t_expect_success 'precondition and discards: pass 1 after all (a discard trims the fill, or leaks it), said, same results' '
	same disc.csv --logical-space footprint --pages-per-segment 16 --precondition random disc.txt &&
	grep -q "reading the trace twice, --footprints disc.csv unused" one.err &&
	same disc.csv --logical-space footprint --pages-per-segment 16 --precondition seq --no-trim disc.txt &&
	grep -q "reading the trace twice" one.err &&
	same disc.csv --logical-space footprint --pages-per-segment 16 --no-trim disc.txt &&
	! grep -q "twice" one.err
'
t_expect_success '--dry-run takes the table: the same models and memory; a single run its events and writes' '
	"$S" -q --dry-run --per-volume --volumes top:5 --logical-space footprint --pages-per-segment 16 "$TC" 2>/dev/null |
		norm >d1.json &&
	"$S" -q --dry-run --footprints tc.csv --per-volume --volumes top:5 --logical-space footprint \
		--pages-per-segment 16 "$TC" 2>/dev/null >d2r.json && jq -e ".estimate.run_s == null" d2r.json >/dev/null &&
	jq -e ".estimate.run_s > 0" d1.json >/dev/null &&
	jq "del(.estimate)" d1.json >d1n.json && norm <d2r.json | jq "del(.estimate)" >d2.json && t_cmp d1n.json d2.json &&
	jq -e ".memory.footprint_map_bytes > 0" d2.json &&
	"$S" -q --dry-run --footprints disc.csv --logical-space footprint --pages-per-segment 16 disc.txt >d3.json &&
	jq -e --argjson e "$(tail -1 disc.csv | cut -d, -f2)" --argjson w "$(tail -1 disc.csv | cut -d, -f11)" \
		--argjson u "$(tail -1 disc.csv | cut -d, -f10)" \
		".input.events_estimated == \$e and .estimate.host_pages_estimated == \$w and
		 .params.logical_pages == \$u and .input.footprints == \"disc.csv\"" d3.json
'
t_expect_success 'a table of another trace is an error naming it (exit 1)' '
	"$G" -p uniform -n 16384 -w 50000 -s 9 -o bin >other.ev 2>/dev/null &&
	t_err 1 "^ftlsim: disc.csv: .*the table is not of this trace" \
		"$S" -q --footprints disc.csv --logical-space footprint --pages-per-segment 16 other.ev &&
	t_err 1 "^ftlsim: disc.csv: .*the table is not of this trace" \
		"$S" -q --footprints disc.csv --logical-space extent --pages-per-segment 16 other.ev &&
	t_err 1 "^ftlsim: disc.csv: volume [0-9]+, at event [0-9]+, has no row" \
		"$S" -q --footprints disc.csv --per-volume v.ev &&
	t_err 1 "^ftlsim: disc.csv: the trace has [0-9]+ events, the table [0-9]+: the table is not of this trace" \
		"$S" -q --footprints disc.csv --ops W --logical-space footprint --pages-per-segment 16 - <disc.txt &&
	"$G" -p hotcold -n 4096 -w 1000 --fill -s 7 -o text 2>/dev/null >small.txt &&
	"$TS" -q --per-volume small.csv small.txt >/dev/null 2>&1 && awk -F, -v OFS=, "NR > 1 { \$12 = 1099511627776 } 1" small.csv >wide.csv &&
	t_err 1 "^ftlsim: wide.csv: the trace writes more pages than the 4096 of its footprint" \
		"$S" -q --footprints wide.csv --logical-space footprint --pages-per-segment 16 disc.txt &&
	grep -v "^5," v.csv >less.csv &&
	t_err 1 "^ftlsim: less.csv: volume 5, at event [0-9]+, has no row" \
		"$S" -q --footprints less.csv --per-volume --volumes top:2 v.ev &&
	t_err 1 "^ftlsim: tc.csv: no row of volume 99 \\(--volume\\)" \
		"$S" -q --footprints tc.csv --volume 99 --logical-space footprint "$TC" &&
	t_err 1 "^ftlsim: tc.csv: volume 99 is not in the trace \\(--volumes\\)" \
		"$S" -q --footprints tc.csv --per-volume --volumes 1063,99 "$TC" &&
	t_err 1 "^ftlsim: tc.csv: volume [0-9]+ has [0-9]+ events in the trace, [0-9]+ in the table" \
		"$S" -q --footprints tc.csv --per-volume --volumes top:2 --logical-space footprint --ops R "$TC"
'
t_expect_success 'a malformed table is an error naming the file and line (exit 1); a page size not the run'"'"'s, exit 2' '
	sed "3s/^\\([0-9]*\\),\\([0-9]*\\),/\\1,4x,/" v.csv >bad1.csv &&
	t_err 1 "^ftlsim: bad1.csv:3: events is .4x., not a count" "$S" -q --footprints bad1.csv --per-volume v.ev &&
	sed "4s/,[^,]*\$//" v.csv >bad2.csv &&
	t_err 1 "^ftlsim: bad2.csv:4: 14 fields, the header has 15" "$S" -q --footprints bad2.csv --per-volume v.ev &&
	sed "6s/\$/,7/" v.csv >bad7.csv &&
	t_err 1 "^ftlsim: bad7.csv:6: 16 fields, the header has 15" "$S" -q --footprints bad7.csv --per-volume v.ev &&
	sed "1s/events/evts/" v.csv >bad3.csv &&
	t_err 1 "^ftlsim: bad3.csv:1: no column events" "$S" -q --footprints bad3.csv --per-volume v.ev &&
	sed "5s/^[0-9]*,/2,/" v.csv >bad4.csv &&
	t_err 1 "^ftlsim: bad4.csv:[0-9]+: volume 2 again" "$S" -q --footprints bad4.csv --per-volume v.ev &&
	head -c 200 tc.json >bad5.json &&
	t_err 1 "^ftlsim: bad5.json:[0-9]+: " "$S" -q --footprints bad5.json --per-volume "$TC" &&
	jq "del(.[3].footprint_pages_written)" tc.json >bad6.json &&
	t_err 1 "^ftlsim: bad6.json: row 4: footprint_pages_written is missing" \
		"$S" -q --footprints bad6.json --per-volume "$TC" &&
	t_err 1 "^ftlsim: none.csv: No such file" "$S" -q --footprints none.csv --logical-space extent v.ev &&
	t_err 2 "counts pages of 16384 bytes, this run.s are 4096" \
		"$S" -q --footprints p16.csv --logical-space footprint disc.txt &&
	cut -d, -f1-14 disc.csv >old.csv && same old.csv --logical-space footprint --pages-per-segment 16 disc.txt &&
	t_err 2 "counts pages of 4096 bytes, this run.s are 8192" \
		"$S" -q --footprints old.csv --page-size 8K --logical-space footprint disc.txt
'
t_expect_success 'a table the run does not need (the logical space given) is said unread; --tag without --results is a usage error' '
	"$G" -q -p uniform -n 4096 -w 8000 -o text >u.txt && "$TS" -q --per-volume u.csv u.txt >/dev/null &&
	"$S" -q --footprints u.csv --logical-pages 4096 u.txt >g.json 2>g.err &&
	grep -qx "ftlsim: warning: --footprints u.csv is not read: the logical space is given.*" g.err &&
	"$S" -q --footprints u.csv --logical-space footprint u.txt >f.json 2>f.err && ! grep -q "not read" f.err &&
	t_err 2 "^ftlsim: --tag names the rows of --results" "$S" -q --tag T --logical-pages 4096 u.txt
'
t_expect_success 'the README'"'"'s --footprints example gives the results of its two-pass example' '
	ln -sf "$T_TOP/bin" bin && ln -sf "$T_TOP/traces" traces &&
	awk "/^## /{ on = (\$0 == \"## Replaying a cloud trace\") } on && /^    /" "$T_TOP/README.md" |
		sed "s/^    //" | awk "{ line = line \$0 } /\\\\\$/ { sub(/\\\\\$/, \"\", line); next } { print line; line = \"\" }" >cmds &&
	head -n 3 cmds >cmd && test $(wc -l <cmd) -eq 3 && grep -q -- "--footprints" cmd && sh cmd 2>/dev/null &&
	norm <tencent.json >a.json && norm <tencent-fp.json >b.json && t_cmp a.json b.json &&
	t_cmp tencent.csv tencent-fp.csv
'
t_done
