#!/bin/sh
# t0480-ftlsim-volumes: --per-volume, a model per volume from one read:
# each volume's results equal its single-volume run (--volume V) exactly;
# selection, skipped volumes, a missing volume, the memory said up front
# and its limit, SIGINT.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
TC="$SAMPLES/tencent/cbs-sample.csv.bz2"
SY="$SAMPLES/systor17/caffeine_systor17-traces-sample.csv.gz"

# Rows of single runs, one per volume and policy, against the rows of one
# --per-volume --grid run: the same columns but the axis.
same_rows() { # TRACE VOLUMES(top:N) SINGLE-OPTIONS...
	tr=$1 sel=$2
	shift 2
	"$S" -q --per-volume --volumes $sel --grid "policy=greedy,cb" --results pv.csv "$@" "$tr" >pv.json 2>/dev/null &&
	test $(wc -l <pv.csv) -gt 1 &&
	rm -f one.csv &&
	for v in $(tail -n +2 pv.csv | cut -d, -f2 | uniq); do
		for p in greedy cb; do
			"$S" -q --volume $v --policy $p --results r.csv "$@" "$tr" >/dev/null || return 1
			tail -n +2 r.csv >>one.csv
		done
	done &&
	tail -n +2 pv.csv | cut -d, -f1-2,4- >pvrows.csv &&
	t_cmp one.csv pvrows.csv
}

t_expect_success 'Tencent: the 5 busiest volumes x 2 policies equal their single-volume runs' '
	same_rows "$TC" top:5 --logical-space footprint --pages-per-segment 16 --precondition random &&
	jq -e ".per_volume.volumes_in_trace == 2038 and .per_volume.volumes_selected == 5 and
		(.configurations | length) == 2 and .configurations[0].volumes_run == 5" pv.json
'
t_expect_success 'SYSTOR: its volume equals the single-volume run' '
	same_rows "$SY" top:1 --logical-space footprint --pages-per-segment 16 --op 0.2 --precondition seq
'
t_expect_success 'a synthetic 3-volume trace: each volume equals its own run' '
	for v in 0 1 2; do
		"$G" -p hotcold -n $((2048 << v)) -w $((20000 + 7000 * v)) --fill -s $((v + 1)) -o text 2>/dev/null |
			awk -v v=$v "{ \$5 = v; print }" >v$v.txt || exit 1
	done &&
	sort -s -n -k1,1 v0.txt v1.txt v2.txt >multi.txt &&
	same_rows multi.txt top:3 --pages-per-segment 32 --op 0.15 &&
	test $(tail -n +2 pv.csv | wc -l) -eq 6
'
t_expect_success 'overall WA is total flash / total host page writes; percentiles are per-volume WAs' '
	"$S" -q --per-volume --volumes top:8 --logical-space footprint --pages-per-segment 16 \
		--precondition random --results pv.csv "$TC" >pv.json 2>/dev/null &&
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"host_pages_written\") h = i;
			if (\$i == \"flash_pages_written\") f = i; if (\$i == \"wa_total\") w = i } next }
		{ H += \$h; F += \$f; print \$w > \"wa.txt\" } END { printf \"%.9f\n\", F / H }" pv.csv >overall.txt &&
	test "$(cat overall.txt)" = "$(jq -r ".configurations[0].wa_overall * 1e9 | round / 1e9 | tostring" pv.json |
		awk "{ printf \"%.9f\n\", \$1 }")" &&
	max=$(sort -g wa.txt | tail -1) && p50=$(sort -g wa.txt | sed -n 4p) &&
	jq -e --argjson max "$max" --argjson p50 "$p50" \
		".configurations[0].wa_per_volume | .max == \$max and .p50 == \$p50 and .volumes == 8 and
		 .p10 <= .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .max" pv.json
'
t_expect_success 'a volume too small for the geometry is listed as skipped with its reason, the run goes on' '
	"$S" -q --per-volume --volumes top:40 --logical-space footprint "$TC" >pv.json 2>/dev/null &&
	jq -e ".configurations[0].volumes_skipped > 0 and .configurations[0].volumes_run >= 1 and
		.configurations[0].volumes_run + .configurations[0].volumes_skipped == 40 and
		(.skipped | length) == .configurations[0].volumes_skipped and
		(.skipped[0].reason | test(\"too little spare space\"))" pv.json &&
	"$S" -q --per-volume --volumes top:10 --min-pages 6500 --logical-space footprint --pages-per-segment 16 "$TC" >m.json 2>/dev/null &&
	jq -e "[.skipped[] | select(.reason | test(\"below --min-pages\"))] | length > 0 and
		all(.logical_pages < 6500)" m.json
'
t_expect_success 'a volume named in --volumes that the trace does not have is an error' '
	t_err 1 "volume 999999 is not in the trace" "$S" -q --per-volume --volumes 1063,999999 "$TC"
'
t_expect_success 'the model memory is said before the replay (not under -q); over --mem-limit the run is refused' '
	"$S" --per-volume --volumes top:3 --logical-space footprint --pages-per-segment 16 "$TC" >a.json 2>a.err &&
	grep -q "3 models (3 volumes x 1 configuration): about .* MiB of model memory" a.err &&
	"$S" -q --per-volume --volumes top:3 --logical-space footprint --pages-per-segment 16 "$TC" 2>q.err >/dev/null &&
	! grep -q "models (" q.err &&
	jq -e ".memory.estimate_bytes > 0 and .memory.limit_bytes > .memory.estimate_bytes" a.json &&
	t_err 2 "the models need about .* MiB .*over the limit of 0.0 MiB" \
		"$S" -q --per-volume --volumes top:3 --mem-limit 1K --results no.csv "$TC" &&
	! test -e no.csv &&
	t_err 2 "over the limit of 64.0 MiB" "$S" -q --per-volume --volumes top:20 --grid "op=0.07,0.28" \
		--mem-limit 64M "$TC"
'
t_expect_success 'every volume of the Tencent sample (1813 that write) in one run: footprint maps sized by what each volume writes (under 32 MiB, not a fixed table each); the memory counted for exactly the models that run' '
	"$S" --per-volume --logical-space footprint --pages-per-segment auto --results all.csv "$TC" >all.json 2>all.err &&
	n=$(sed -n "s/^ftlsim: \([0-9]*\) models (\1 volumes x 1 configuration).*/\1/p" all.err) &&
	grep -q "^ftlsim: $n of the 2038 models ran; [0-9]* were skipped: 225 too small for the geometry before the run" all.err &&
	test "$n" -gt 700 && test "$(jq ".configurations[0].volumes_run" all.json)" = "$n" &&
	maps=$(sed -n "s/.* MiB of model memory, \([0-9.]*\) MiB of footprint maps.*/\1/p" all.err) &&
	awk -v m="$maps" "BEGIN { exit !(m > 0 && m < 32) }" &&
	jq -e ".memory.estimate_bytes < 64 * 1048576" all.json
'
t_expect_success 'per volume in time: the memory of the volumes refused when built is not counted (--dry-run and the run agree)' '
	"$S" -q --dry-run --per-volume --logical-space footprint --timing "$TC" 2>/dev/null >dpt.json &&
	"$S" -q --per-volume --logical-space footprint --timing "$TC" 2>/dev/null >pt.json &&
	jq -e --slurpfile d dpt.json ".memory.estimate_bytes == \$d[0].memory.total_bytes and .memory.estimate_bytes < 64 * 1048576" pt.json >/dev/null &&
	test "$(jq .models dpt.json)" = "$(jq ".configurations[0].volumes_run" pt.json)"
'
t_expect_success 'a grid with fk: --dry-run counts its learning as the run does (a first pass: the extent)' '
	"$BIN/tracegen" -p uniform -n 65536 --fill -w 300000 -o bin >fkg.ev 2>/dev/null &&
	"$S" -q --dry-run --grid placement=fk,single fkg.ev 2>/dev/null >dfk.json &&
	"$S" -q --grid placement=fk,single fkg.ev 2>/dev/null >fk.json &&
	jq -e --slurpfile d dfk.json "(.memory.estimate_bytes / \$d[0].memory.total_bytes - 1 | fabs) < 0.01 and
		\$d[0].per_model[0].model_bytes > 2 * \$d[0].per_model[1].model_bytes" fk.json >/dev/null
'
t_expect_success 'every selected volume skipped (segments too large for each): exit 0, the reasons in the summary, a warning that the results are empty' '
	"$S" -q --per-volume --volumes top:3 --logical-space footprint --pages-per-segment 4096 --results sk.csv "$TC" >sk.json 2>sk.err &&
	jq -e "(.skipped | length) == 3 and (.skipped[0].reason | test(\"too little spare space\")) and .configurations[0].volumes_run == 0" sk.json &&
	grep -q "warning: every model was skipped (3; .*sk.csv is empty, without a header" sk.err && test ! -s sk.csv
'
t_expect_success 'a grid'"'"'s memory estimate bounds what its models allocate, within 2%' '
	"$G" -p uniform -n 200000 -w 50000 -s 3 -o bin >u.ev 2>/dev/null &&
	"$S" -q --grid "op=0.1,0.5 policy=greedy,cb,fifo,windowed:8" --logical-pages 200000 --pages-per-segment 64 \
		--results e.csv u.ev >e.json 2>/dev/null &&
	jq -e "([.configurations[].memory.model_bytes] | add) as \$m |
		(.memory.estimate_bytes - \$m) | fabs < \$m * 0.02" e.json
'
t_expect_success 'usage errors: selection without --per-volume, with --volume, from stdin' '
	t_err 2 "select volumes of --per-volume" "$S" -q --volumes top:3 "$TC" &&
	t_err 2 "not --volume" "$S" -q --per-volume --volume 3 "$TC" &&
	t_err 2 "name a file" sh -c "\"$S\" -q --per-volume - <\"$TC\"" &&
	t_err 2 "top:N needs N >= 1" "$S" -q --per-volume --volumes top:0 "$TC" &&
	for v in 1063,,1058 ,1063 1063,; do
		t_err 2 "^ftlsim: --volumes: an empty volume number in .$v." "$S" -q --per-volume --volumes $v "$TC" || return 1
	done
'
t_expect_success 'SIGINT during a multi-model run: the partial summary, no results file' '
	rm -f in.fifo && mkfifo in.fifo || return 1
	"$S" -q --logical-pages 65536 --spare-factor 0.1 --grid "policy=greedy,cb" --results int.csv in.fifo >p.json 2>p.err &
	pid=$!
	"$G" -p uniform -n 65536 -w 4000000000 -s 1 -o bin >in.fifo 2>/dev/null &
	gen=$!
	sleep 1.5 && kill -INT $pid; wait $pid; rc=$?
	kill $gen 2>/dev/null; wait $gen
	test $rc -eq 130 && jq -e ".partial == true and .configurations[1].host_pages_written > 0" p.json &&
	! ls int.csv* 2>/dev/null
'
t_expect_success '-j 1, 2 and 3 give byte-identical results (a grid per volume, and one model)' '
	"$G" -p hotcold -n 16384 -w 200000 --fill -s 4 -o bin >one.ev 2>/dev/null &&
	for j in 1 2 3; do
		"$S" -q -j $j --per-volume --volumes top:6 --logical-space footprint --pages-per-segment 16 \
			--precondition random --grid "policy=greedy,fifo" --results j$j.csv "$TC" 2>/dev/null |
			jq -S "del(.timing, .memory.limit_bytes)" >j$j.json &&
		"$S" -q -j $j --logical-pages 16384 --pages-per-segment 16 --results one$j.csv one.ev 2>/dev/null |
			jq -S "del(.timing)" >one$j.json || exit 1
	done &&
	t_cmp j1.json j2.json && t_cmp j1.json j3.json && t_cmp j1.csv j2.csv && t_cmp j1.csv j3.csv &&
	t_cmp one1.json one2.json && t_cmp one1.csv one3.csv && jq -e ".wa_total > 2" one1.json &&
	t_err 2 "jobs" "$S" -q -j 0 "$TC"
'
t_expect_success 'the README'"'"'s Tencent example runs as written and prints the table it quotes' '
	ln -sf "$T_TOP/bin" bin && ln -sf "$T_TOP/traces" traces &&
	awk "/^## /{ on = (\$0 == \"## Replaying a cloud trace\") } on && /^    /" "$T_TOP/README.md" |
		sed "s/^    //" | awk "{ line = line \$0 } /\\\\\$/ { sub(/\\\\\$/, \"\", line); next } { print line; line = \"\" }" >cmd &&
	head -1 cmd >cmd1 && grep -q -- "--per-volume --volumes top:20" cmd1 && sh cmd1 2>/dev/null && test -s tencent.csv &&
	jq -r ".configurations[] | [.axes.op, .axes.policy, (.wa_overall, .wa_per_volume.p50, .wa_per_volume.max |
		. * 100 | round / 100 | tostring)] | \"| \" + join(\" | \") + \" |\"" tencent.json |
		sed -E "s/\| ([0-9]+)\.([0-9]) \|/| \1.\20 |/g; s/\| ([0-9]+)\.([0-9]) \|/| \1.\20 |/g; s/\| ([0-9]+) \|/| \1.00 |/g" >got &&
	awk "/^## /{ on = (\$0 == \"## Replaying a cloud trace\") } on && /^\| 0\.(07|28) \| (greedy|cb|fifo) /" "$T_TOP/README.md" >want &&
	test $(wc -l <want) -eq 6 && t_cmp want got
'
t_expect_success 'volumes too small for the geometry: stderr counts the skipped ones, the summary lists them' '
	"$S" -q --per-volume --logical-space footprint --op 0.07 "$TC" >v.json 2>e &&
	n=$(jq "[.skipped[]?] | length" v.json) && test "$n" -gt 0 &&
	grep -q "^ftlsim: [0-9]* of the [0-9]* models ran; $n were skipped: [0-9]* too small for the geometry before the run, [0-9]* refused when built" e
'
# Per volume a model's warnings are gathered: each kind once a
# configuration, the first volume's, with how many volumes said it.
t_expect_success 'per volume a warning is said once a configuration, with the count of its volumes' '
	"$S" -q -f tencent --per-volume --volumes top:5 --logical-space footprint --pages-per-segment 64 --precondition random \
		--device femu,channels=2,dies=2 --grid "gc-mode=foreground,preemptible:hard=2" "$TC" >w.json 2>e &&
	test $(grep -c "^ftlsim: warning: volume [0-9]* gc-mode=preemptible:hard=2: --gc-preempt hard=2 with GC starting when fewer than 1 segment is free .* (so in 5 of this configuration.s 5 volumes; said of the first)$" e) -eq 1 &&
	test $(grep -c "^ftlsim: warning: volume [0-9]* gc-mode=foreground: the trace.s times are whole seconds .* (so in 5 of this configuration.s 5 volumes" e) -eq 1 &&
	! grep -q "gc-mode=foreground: --gc-preempt" e &&
	"$S" -q -f tencent --per-volume --volumes top:50 --logical-space footprint --pages-per-segment 64 "$TC" >/dev/null 2>e2 &&
	n=$(grep "GC copied no page" e2 | sed -n "s/.*(so in \([0-9]*\) of the 50 volumes.*/\1/p") && test "$n" -gt 1 && test "$n" -le 50 &&
	test $(grep -c "GC copied no page" e2) -eq 1 &&
	"$G" -p uniform -n 1000 -w 5000 -s 1 -o bin >sp.ev 2>/dev/null &&
	"$S" -q --logical-pages 1000 --pages-per-segment 64 --op 0.07 sp.ev >/dev/null 2>e3 &&
	grep -q "^ftlsim: warning: the spare space asked, 70 pages (op 0.07), is 24 once the physical pages are rounded down to whole segments of 64 pages (op 0.024)" e3 &&
	"$S" -q --logical-pages 1000 --pages-per-segment 16 --op 0.07 sp.ev >/dev/null 2>e3 && ! grep -q "spare space asked" e3
'
t_done
