#!/bin/sh
# t0730-outputs: docs/OUTPUTS.md lists every JSON key and CSV column the
# programs write. Each program runs with every output it has, in
# configurations that bring out its optional keys; every key path (array
# elements as [], per-op and per-bucket keys as OP and BUCKET, d-choices
# columns as D) and every column must appear in the page's section for
# that output, as `name`.
. "$(dirname "$0")/lib.sh"
DOC="$T_TOP/docs/OUTPUTS.md"
G="$BIN/tracegen"
S="$BIN/ftlsim"
ST="$BIN/tracestat"
W="$BIN/wamodel"

# section HEADING-START: the page's text under that heading.
section() { awk -v h="## $1" 'index($0, h) == 1 { on = 1; next } /^## / { on = 0 } on' "$DOC"; }
# jpaths: the key paths of the JSON on stdin.
jpaths() {
	jq -r '[paths(scalars), paths(arrays | select(length == 0))] | .[] | map(if type == "number" then "[]" else . end) | join(".")' |
		sed 's/\.\[\]/[]/g' | sort -u
}
# undocumented SECTION: the names on stdin that the section lacks.
undocumented() {
	section "$1" >"$TMP/sec"
	while IFS= read -r k; do
		[ -n "$k" ] || continue
		grep -qF "\`$k\`" "$TMP/sec" || echo "$1: $k"
	done
}
columns() { head -n 1 "$1" | tr -d '\r' | tr ',' '\n'; }

"$G" -p hotcold -n 8192 -w 65536 --fill --trim-prob 0.05 -s 3 -o bin >"$TMP/t.ev" 2>/dev/null

t_expect_success 'ftlsim: every key of the summary and every column of --curve, --hist, --erase-hist is on the page' '
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --placement hotcold:2 --wear-level static:50 \
		--precondition random --warmup-writes 8192 --curve c.csv --hist h.csv --erase-hist e.csv --snapshot-every 8192 t.ev >1.json &&
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --policy cb --placement agesort:4 --no-trim --check t.ev >2.json &&
	"$S" -q --logical-space footprint --pages-per-segment 8 --precondition random "$SAMPLES/msr/hm_0-head1000.csv" >3.json || exit 1
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --device femu,channels=2,dies=2 --bg-gc idle=1,high=4 \
		--trim-cost unqueued,us=100 --timeline tl.csv --latency lat.csv t.ev >4.json &&
	"$S" -q --logical-space footprint --pages-per-segment 8 --timing --gc-preempt hard=1 "$SAMPLES/msr/hm_0-head1000.csv" >5.json || exit 1
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --host-lfs segment=128K t.ev >6.json || exit 1
	"$S" -q --logical-pages 8192 --pages-per-segment 32 --zoned size=128K --host-lfs segment=128K t.ev >7.json || exit 1
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --precondition-trace t.ev t.ev >8.json || exit 1
	n=$(cat 1.json 2.json 3.json 4.json 5.json 6.json 7.json 8.json | jq -s ".[]" | jpaths | tee keys | grep -c .) && echo "$n key paths" && test $n -ge 80 &&
	undocumented "ftlsim summary" <keys >miss
	for f in c.csv:"ftlsim --curve" h.csv:"ftlsim --hist" e.csv:"ftlsim --erase-hist" tl.csv:"ftlsim --timeline" \
		lat.csv:"ftlsim --latency"; do
		columns "${f%%:*}" | undocumented "${f#*:}" >>miss
	done
	cat miss; test ! -s miss
'
t_expect_success 'tracestat: every key of its JSON, every metric of --csv, every column of --size-hist and --skew-cdf' '
	"$ST" -q --size-hist sh.csv --skew-cdf sk.csv t.ev >s.json &&
	"$ST" -q "$SAMPLES/msr/hm_0-head1000.csv" >>s.json || exit 1
	jq -s ".[]" s.json | jpaths | sed "s/\.ops\.\(read\|write\|discard\|flush\)\./.ops.OP./; s/\.request_size_hist\.[a-z]*\..*/.request_size_hist.OP.BUCKET/" |
		sort -u | undocumented "tracestat (JSON" >miss
	"$ST" -q --csv t.ev >s.csv || exit 1
	columns s.csv | undocumented "tracestat --csv" >>miss
	# A --csv metric is a JSON key of a trace.
	tail -n +2 s.csv | cut -d, -f2 | sed "s/^ops\.[a-z]*\./traces[].ops.OP./; s/^request_size_hist\..*/traces[].request_size_hist.OP.BUCKET/; /^traces/!s/^/traces[]./" |
		sort -u | undocumented "tracestat (JSON" >>miss
	columns sh.csv | undocumented "tracestat --size-hist" >>miss
	columns sk.csv | undocumented "tracestat --skew-cdf" >>miss
	"$ST" -q --per-volume pv.csv t.ev >/dev/null && "$ST" -q --per-volume pv.json t.ev >/dev/null || exit 1
	columns pv.csv | undocumented "tracestat --per-volume" >>miss
	jq -r ".[0] | keys[]" pv.json | undocumented "tracestat --per-volume" >>miss
	cat miss; test ! -s miss
'
t_expect_success 'wamodel: every key of its JSON and every column of --csv (all models)' '
	"$W" -m all -b 64 --op 0.1 --choices 2,5 >w.json || exit 1
	jpaths <w.json | sed "s/^points\[\]\..*/points[]/" | sort -u | undocumented "wamodel (JSON" >miss
	"$W" -m all -b 64 --op 0.1 --choices 2,5 --csv >w.csv || exit 1
	columns w.csv | sed "s/^wa_dchoices_[0-9]*$/wa_dchoices_D/" | sort -u |
		undocumented "wamodel --csv" >>miss
	jq -r ".points[0] | keys[]" w.json | sed "s/^wa_dchoices_[0-9]*$/wa_dchoices_D/" | sort -u | undocumented "wamodel --csv" >>miss
	cat miss; test ! -s miss
'
t_expect_success 'ftlsweep merge: every column but the axes is on the page' '
	printf "%s\n" "workload w -p uniform -n 4096 -w 16384 --fill --seed 1" "options --logical-pages 4096 --pages-per-segment 32" \
		"axis policy greedy cb" >s.sweep &&
	"$BIN/ftlsweep" plan s.sweep s.d >/dev/null && "$BIN/ftlsweep" run s.d --local -j 2 >/dev/null 2>&1 &&
	"$BIN/ftlsweep" merge s.d -o m.csv || exit 1
	columns m.csv | grep -vx policy | undocumented "ftlsweep merge" >miss
	cat miss; test ! -s miss
'
t_expect_success 'the check above fails on a key the page lacks' '
	echo "{\"program\": \"ftlsim\", \"not_a_documented_key\": 1}" | jpaths | undocumented "ftlsim summary" | grep -q "not_a_documented_key"
'
t_done
