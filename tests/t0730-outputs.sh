#!/bin/sh
# t0730-outputs: docs/OUTPUTS.md lists every JSON key and CSV column the
# programs write. Each program runs with every output it has, in
# configurations that bring out its optional keys; every key path (array
# elements as [], per-op and per-bucket keys as OP and BUCKET, d-choices
# columns as D) and every column must appear in the page's section for
# that output, as `name`; a null or false key as well as any other. The
# other way round, for the outputs whose every column or key the runs
# below bring out (the CSV files, the dry runs, the merged sweep): every
# name the section lists must be written.
. "$(dirname "$0")/lib.sh"
DOC="$T_TOP/docs/OUTPUTS.md"
G="$BIN/tracegen"
S="$BIN/ftlsim"
ST="$BIN/tracestat"
W="$BIN/wamodel"

# section HEADING-START: the page's text under that heading.
section() { awk -v h="## $1" 'index($0, h) == 1 { on = 1; next } /^## / { on = 0 } on' "$DOC"; }
# jpaths: the key paths of the JSON on stdin: every leaf, null and false
# ones too (paths(scalars) leaves them out), and empty arrays.
jpaths() {
	jq -r '[paths(type != "object" and type != "array"), paths(arrays | select(length == 0))] | .[] | map(if type == "number" then "[]" else . end) | join(".")' |
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
# documented SECTION: the names in the first column of the section's
# tables (for the outputs whose every column is always there: the other
# way round, a name on the page that the program no longer writes).
documented() { section "$1" | grep '^| `' | cut -d '|' -f 2 | grep -o '`[^`]*`' | tr -d '`' | sort -u; }
# stale SECTION: the names the section documents that stdin lacks.
stale() { sort -u >"$TMP/have"; documented "$1" | comm -23 - "$TMP/have" | sed "s/^/$1: on the page, not written: /"; }

"$G" -p hotcold -n 8192 -w 65536 --fill --trim-prob 0.05 -s 3 -o bin >"$TMP/t.ev" 2>/dev/null

t_expect_success 'ftlsim: every key of the summary and every column of --curve, --hist, --erase-hist is on the page' '
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --placement hotcold:2 --wear-level static:50 \
		--precondition random --warmup-writes 8192 --curve c.csv --hist h.csv --erase-hist e.csv --snapshot-every 8192 t.ev >1.json &&
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --policy cb --placement agesort:4 --no-trim --check t.ev >2.json &&
	"$S" -q --logical-space footprint --pages-per-segment 8 --precondition random "$SAMPLES/msr/hm_0-head1000.csv" >3.json || exit 1
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --device femu,channels=2,dies=2,cmt_mib=0.0078125 --bg-gc idle=1,high=4 \
		--trim-cost unqueued,us=100 --timeline tl.csv --latency lat.csv --flash-ops fo.csv t.ev >4.json &&
	"$S" -q --logical-space footprint --pages-per-segment 8 --timing --gc-preempt hard=1 "$SAMPLES/msr/hm_0-head1000.csv" >5.json || exit 1
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --host-lfs segment=128K t.ev >6.json || exit 1
	"$S" -q --logical-pages 8192 --pages-per-segment 32 --zoned size=128K --host-lfs segment=128K t.ev >7.json || exit 1
	"$S" -q --logical-pages 8192 --op 0.2 --pages-per-segment 32 --precondition-trace t.ev t.ev >8.json || exit 1
	n=$(cat 1.json 2.json 3.json 4.json 5.json 6.json 7.json 8.json | jq -s ".[]" | jpaths | tee keys | grep -c .) && echo "$n key paths" && test $n -ge 80 &&
	undocumented "ftlsim summary" <keys >miss
	for f in c.csv:"ftlsim --curve" h.csv:"ftlsim --hist" e.csv:"ftlsim --erase-hist" tl.csv:"ftlsim --timeline" \
		lat.csv:"ftlsim --latency" fo.csv:"ftlsim --flash-ops"; do
		columns "${f%%:*}" | undocumented "${f#*:}" >>miss
		columns "${f%%:*}" | stale "${f#*:}" >>miss
	done
	cat miss; test ! -s miss
'
t_expect_success 'ftlsim --grid, --per-volume and --results: every key and column is on the page' '
	"$G" -p hotcold -n 8192 -w 16384 --volumes 3 -s 5 -o bin >mv.ev 2>/dev/null &&
	"$S" -q --logical-pages 8192 --pages-per-segment 32 --grid "policy=greedy,cb op=0.1,0.2" --curve c.csv \
		--results r.csv t.ev >g.json &&
	"$S" -q --per-volume --pages-per-segment 16 --grid "policy=greedy,cb" --timing --min-pages 1000 mv.ev >pv.json &&
	"$S" -q --per-volume --pages-per-segment 16 --host-lfs segment=64K --results r2.csv mv.ev >pvl.json || exit 1
	# A key is on the page as itself; or, for a configuration of a grid,
	# as a key of a single run'"'"'s summary; or as the key of an object
	# whose row names the rest (`skipped[]`: `volume`, `reason`, ...).
	cat g.json pv.json pvl.json | jq -s ".[]" | jpaths |
		sed "s/^\(configurations\[\]\.files\|configurations\[\]\.axes\|grid\.axes\)\..*/\1/" | sort -u >keys
	section "ftlsim --grid" >g.sec && section "ftlsim summary" >s.sec && : >miss
	on() { grep -qF "\`$1\`" g.sec; }
	while IFS= read -r k; do
		on "$k" || on "$k[]" && continue
		# the whole trace'"'"'s input and the run'"'"'s own timing, as a single run'"'"'s
		case $k in input.* | timing.*) grep -qF "\`$k\`" s.sec && continue ;; esac
		case $k in configurations\[\].*) grep -qF "\`${k#configurations[].}\`" s.sec && continue ;; esac
		p=$k rest= ok=0
		while [ "${p%.*}" != "$p" ]; do
			rest="${p##*.} $rest" p=${p%.*}
			if on "$p"; then
				ok=1
				for c in $rest; do grep -qF -e "\`$c\`" -e "\`.$c\`" g.sec || ok=0; done
				break
			fi
		done
		[ $ok = 1 ] || echo "grid: $k"
	done <keys >>miss
	# --results: tag, volume, the axes, then the summary'"'"'s keys
	for f in r.csv r2.csv; do columns $f | grep -vx "tag\|volume\|policy\|op" | undocumented "ftlsim summary" >>miss; done
	cat miss; test ! -s miss
'
t_expect_success 'ftlsim --dry-run: every key, one model and several, is on the page, and every key on the page is written' '
	"$S" -q --logical-pages 8192 --pages-per-segment 32 --mem-limit 1G --dry-run t.ev >d1.json &&
	"$S" -q --logical-space footprint --placement fk --timing --timeline x.csv --pages-per-segment 32 --dry-run t.ev >d2.json &&
	"$S" -q --pages-per-segment 32 --op 0.3 --host-lfs segment=128K --qd 4 --dry-run t.ev >d3.json &&
	"$ST" -q --per-volume pv.csv mv.ev >/dev/null &&
	"$S" -q --footprints pv.csv --volume 1 --logical-space footprint --pages-per-segment 16 --dry-run mv.ev >d4.json || exit 1
	"$S" -q --per-volume --pages-per-segment 16 --min-pages 3000 --dry-run --timing mv.ev >g1.json &&
	"$S" -q --grid "op=0.1,0.01" --pages-per-segment 16 --host-lfs segment=64K --dry-run mv.ev >g2.json || exit 1
	cat d1.json d2.json d3.json d4.json | jq -s ".[]" | jpaths >k1 &&
	undocumented "ftlsim --dry-run, one model" <k1 >miss && stale "ftlsim --dry-run, one model" <k1 >>miss
	cat g1.json g2.json | jq -s ".[]" | jpaths | sed "s/^per_model\[\]\.axes\..*/per_model[].axes/" >k2 &&
	undocumented "ftlsim --dry-run with" <k2 >>miss && stale "ftlsim --dry-run with" <k2 >>miss
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
	columns sh.csv | stale "tracestat --size-hist" >>miss
	columns sk.csv | stale "tracestat --skew-cdf" >>miss
	"$ST" -q --per-volume pv.csv t.ev >/dev/null && "$ST" -q --per-volume pv.json t.ev >/dev/null || exit 1
	columns pv.csv | undocumented "tracestat --per-volume" >>miss
	columns pv.csv | stale "tracestat --per-volume" >>miss
	jq -r ".[0] | keys[]" pv.json | undocumented "tracestat --per-volume" >>miss
	cat miss; test ! -s miss
'
# mancols START: the column names ftlkit-outputs(5) lists after its line
# START (a fixed string): the .IR lines that follow, but the quoted words.
mancols() {
	START=$1 awk 'index($0, ENVIRON["START"]) == 1 { on = 1; next } on && /^\.IR / { print; seen = 1; next } on && seen { exit }' \
		"$T_TOP/man/ftlkit-outputs.5" | sed 's/^\.IR //; s/"[^"]*"/ /g' | tr ' ,:' '\n\n\n' | grep -vx '[.]*'
}
t_expect_success 'ftlkit-outputs(5): the columns it lists are the files'"'"' header rows, in order' '
	: >miss
	for f in "c.csv:.SS ftlsim \\-\\-curve" "h.csv:.SS ftlsim \\-\\-hist" "e.csv:.SS ftlsim \\-\\-erase\\-hist" \
		"fo.csv:.SS ftlsim \\-\\-flash\\-ops" "sh.csv:.B \\-\\-size\\-hist" "sk.csv:.B \\-\\-skew\\-cdf"; do
		mancols "${f#*:}" >m.txt && columns "${f%%:*}" >c.txt && test -s m.txt ||
			{ echo "${f#*:}: no columns"; continue; }
		cmp -s m.txt c.txt || { echo "${f#*:}: $(tr "\n" " " <m.txt), written: $(tr "\n" " " <c.txt)"; }
	done >miss
	cat miss; test ! -s miss
'
t_expect_success 'wamodel: every key of its JSON and every column of --csv (all models)' '
	"$W" -m all -b 64 --op 0.1 --choices 2,5 >w.json || exit 1
	jpaths <w.json | sed "s/^points\[\]\..*/points[]/" | sort -u | undocumented "wamodel (JSON" >miss
	"$W" -m all -b 64 --op 0.1 --choices 2,5 --csv >w.csv || exit 1
	columns w.csv | sed "s/^wa_dchoices_[0-9]*$/wa_dchoices_D/" | sort -u |
		undocumented "wamodel --csv" >>miss
	columns w.csv | sed "s/^wa_dchoices_[0-9]*$/wa_dchoices_D/" | stale "wamodel --csv" >>miss
	jq -r ".points[0] | keys[]" w.json | sed "s/^wa_dchoices_[0-9]*$/wa_dchoices_D/" | sort -u | undocumented "wamodel --csv" >>miss
	cat miss; test ! -s miss
'
t_expect_success 'ftlsweep merge: every column but the axes is on the page' '
	printf "%s\n" "workload w -p uniform -n 4096 -w 16384 --fill --seed 1" "options --logical-pages 4096 --pages-per-segment 32" \
		"axis policy greedy cb" >s.sweep &&
	"$BIN/ftlsweep" plan s.sweep s.d >/dev/null && "$BIN/ftlsweep" run s.d --local -j 2 >/dev/null 2>&1 &&
	"$BIN/ftlsweep" merge s.d -o m.csv || exit 1
	columns m.csv | grep -vx policy | undocumented "ftlsweep merge" >miss
	# a per-volume study, with a host log and a device in time: every column
	"$G" -p hotcold -n 8192 -w 16384 --volumes 3 -s 5 -o bin >mv.ev 2>/dev/null &&
	printf "%s\n" "trace mv.ev mv" "options --pages-per-segment 16 --per-volume --timing" "axis policy greedy cb" \
		"axis host-lfs off segment=64K" >v.sweep &&
	"$BIN/ftlsweep" plan v.sweep v.d >/dev/null 2>&1 && "$BIN/ftlsweep" run v.d --local -j 2 >/dev/null 2>&1 &&
	"$BIN/ftlsweep" merge v.d -o v.csv 2>/dev/null || exit 1
	columns v.csv | grep -vx "policy\|host-lfs" | undocumented "ftlsweep merge" >>miss
	columns v.csv | grep -vx "policy\|host-lfs" | stale "ftlsweep merge" >>miss
	cat miss; test ! -s miss
'
t_expect_success 'tracecat -o csv: its columns are those on the page' '
	"$BIN/tracecat" -q -o csv t.ev >ev.csv || exit 1
	columns ev.csv | undocumented "Event streams" >miss && columns ev.csv | stale "Event streams" >>miss
	cat miss; test ! -s miss
'
t_expect_success 'the check above fails on a key the page lacks' '
	echo "{\"program\": \"ftlsim\", \"not_a_documented_key\": 1}" | jpaths | undocumented "ftlsim summary" | grep -q "not_a_documented_key"
'
t_done
