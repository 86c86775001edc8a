#!/bin/sh
# t0470-ftlsim-grid: several models from one read of the trace (--grid)
# give exactly what separate runs give; --results rows and columns.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
RT="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"

# The fields of one model: a single run's summary without what a grid
# holds once (the input) or for the whole run (timing).
one='del(.program, .version, .partial, .input, .timing)'
conf='del(.configuration, .axes)'

"$G" -p hotcold -n 8192 -w 120000 --fill --trim-prob 0.1 -s 7 -o bin >"$TMP/mix.ev" 2>/dev/null

t_expect_success 'a grid of 8 configurations equals the 8 separate runs exactly' '
	"$S" -q --pages-per-segment 32 --grid "policy=greedy,cb op=0.1,0.25 trim=on,off" mix.ev >g.json &&
	jq -e ".grid.configurations == 8 and (.configurations | length) == 8 and .partial == false" g.json &&
	i=0 &&
	for p in greedy cb; do for op in 0.1 0.25; do for t in trim no-trim; do
		"$S" -q --pages-per-segment 32 --policy $p --op $op --$t mix.ev | jq "$one" >s$i.json &&
		jq ".configurations[$i] | $conf" g.json >c$i.json &&
		t_cmp s$i.json c$i.json || exit 1
		i=$((i + 1))
	done; done; done
'
t_expect_success 'axes over the page size and preconditioning on a real trace equal separate runs' '
	"$S" -q --pages-per-segment 16 --logical-space footprint \
		--grid "page-size=4096,8192 precondition=seq,random" "$RT" >g.json &&
	i=0 &&
	for ps in 4096 8192; do for pc in seq random; do
		"$S" -q --pages-per-segment 16 --logical-space footprint --page-size $ps --precondition $pc "$RT" |
			jq "$one" >s$i.json &&
		jq ".configurations[$i] | $conf" g.json >c$i.json &&
		t_cmp s$i.json c$i.json || exit 1
		i=$((i + 1))
	done; done
'
t_expect_success 'an axis over the logical space: one first pass for both, each equal to its run' '
	"$S" -q --pages-per-segment 32 --grid "logical-space=extent,footprint" mix.ev >g.json &&
	i=0 &&
	for sp in extent footprint; do
		"$S" -q --pages-per-segment 32 --logical-space $sp mix.ev | jq "$one" >s$i.json &&
		jq ".configurations[$i] | $conf" g.json >c$i.json &&
		t_cmp s$i.json c$i.json || exit 1
		i=$((i + 1))
	done
'
t_expect_success 'a placement with arguments is one value of an axis (placement=sepbit,fk:6,R=8,dac:4): three models, each its run' '
	"$S" -q --pages-per-segment 32 --grid "placement=sepbit,fk:6,R=8,dac:4" --results r.csv mix.ev >g.json &&
	jq -e ".grid.axes.placement == [\"sepbit\", \"fk:6,R=8\", \"dac:4\"] and .grid.configurations == 3" g.json &&
	i=0 &&
	for p in sepbit fk:6,R=8 dac:4; do
		"$S" -q --pages-per-segment 32 --placement $p mix.ev | jq "$one" >s$i.json &&
		jq ".configurations[$i] | $conf" g.json >c$i.json &&
		t_cmp s$i.json c$i.json || exit 1
		i=$((i + 1))
	done &&
	sed -n "3p" r.csv | grep -q "^,,\"fk:6,R=8\","
'
t_expect_success 'the JSON summary names the axes, their values and each configuration' '
	"$S" -q --pages-per-segment 32 --grid "policy=greedy,fifo" --grid "seed=1,2,3" mix.ev >g.json &&
	jq -e ".grid.axes.policy == [\"greedy\",\"fifo\"] and .grid.axes.seed == [\"1\",\"2\",\"3\"] and
		.configurations[4].axes == {\"policy\":\"fifo\",\"seed\":\"2\"} and
		.configurations[4].params.seed == 2 and .configurations[4].params.policy == \"fifo\" and
		.input.events > 0" g.json
'
t_expect_success '--results: a header and a row per configuration; the rows equal single runs'"'"' rows' '
	"$S" -q --pages-per-segment 32 --grid "policy=greedy,cb op=0.1,0.25" --results g.csv --tag T mix.ev >/dev/null &&
	test $(wc -l <g.csv) -eq 5 &&
	head -1 g.csv | grep -q "^tag,volume,policy,op,input.path,input.format,input.events," &&
	head -1 g.csv | tr , "\n" | grep -qx wa_total &&
	head -1 g.csv | tr , "\n" | grep -qx params.op &&
	head -1 g.csv | tr , "\n" | grep -qx measured.wa &&
	! head -1 g.csv | grep -q timing &&
	rm -f single.csv &&
	for p in greedy cb; do for op in 0.1 0.25; do
		"$S" -q --pages-per-segment 32 --policy $p --op $op --results r.csv --tag T mix.ev >s.json || exit 1
		test $(wc -l <r.csv) -eq 2 || exit 1
		tail -n +2 r.csv >>single.csv
	done; done &&
	head -1 r.csv | grep -q "^tag,volume,input.path," &&
	tail -n +2 g.csv | cut -d, -f1-2,5- >grid-rows.csv &&
	t_cmp single.csv grid-rows.csv &&
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"wa_total\") c = i } NR == 2 { print \$c }" r.csv >wa.txt &&
	test "$(cat wa.txt)" = "$(jq .wa_total s.json)" &&
	cut -d, -f1 g.csv | tail -n +2 | sort -u | grep -qx T
'
t_expect_success '--results: a null group gives empty cells, the columns stay the same' '
	"$S" -q --pages-per-segment 32 --grid "warmup-writes=0,100000000" --results w.csv mix.ev >/dev/null 2>w.err &&
	awk -F, "{ print NF }" w.csv | sort -u | wc -l | grep -qx 1 &&
	grep -q "warm-up page writes" w.err
'
t_expect_success 'a model the grid cannot build is a usage error naming its configuration' '
	t_err 2 "op=0.01: too little spare space" "$S" -q --grid "op=0.3,0.01" mix.ev
'
# --dry-run builds each model as the run would, one at a time: the cells
# the run refuses are marked refused (not skipped, which is a volume's
# fate per volume), each said on stderr, and it exits 2 as the run does.
t_expect_success '--dry-run refuses what the run refuses: each refused cell in the JSON and on stderr, exit 2' '
	t_err 2 "op=0.01: too little spare space" "$S" -q --grid "op=0.3,0.01" --dry-run mix.ev &&
	jq -e ".models == 1 and .models_refused == 1 and .models_skipped == 0 and .per_model[0].refused == null
		and (.per_model[1].refused | test(\"^too little spare space\"))" "$TMP/.stdout" &&
	t_err 2 "2 of the 3 configurations are refused" "$S" -q --grid "op=0.01,0.3,0.02" --dry-run mix.ev &&
	grep -q "^ftlsim: op=0.01: too little spare space" "$TMP/.stderr" &&
	grep -q "^ftlsim: op=0.02: too little spare space" "$TMP/.stderr" &&
	t_err 2 "^ftlsim: too little spare space" "$S" -q --op 0.01 --dry-run mix.ev &&
	jq -e ".refused | test(\"too little spare\")" "$TMP/.stdout" &&
	"$S" -q --grid "op=0.3,0.2" --dry-run mix.ev | jq -e ".models == 2 and .models_refused == 0"
'
t_expect_success 'bad grids are usage errors' '
	t_err 2 "not a model option" "$S" -q --grid "curve=a.csv" mix.ev &&
	t_err 2 "not a model option" "$S" -q --grid "nope=1" mix.ev &&
	t_err 2 "FDP.s handles vary as placement=fdp:H=2" "$S" -q --grid "fdp=handles=2,handles=4" mix.ev &&
	t_err 2 "is not NAME=VALUE" "$S" -q --grid "policy" mix.ev &&
	t_err 2 "trim.* takes on or off" "$S" -q --grid "trim=yes" mix.ev &&
	t_err 2 "given twice" "$S" -q --grid "op=0.1 op=0.2" mix.ev &&
	t_err 2 "gives another of --op" "$S" -q --spare-factor 0.1 --grid "op=0.1,0.2" mix.ev &&
	t_err 2 "name a file, not -" "$S" -q --curve - --grid "op=0.1,0.2" mix.ev &&
	t_err 2 "unknown victim policy .nope." "$S" -q --curve c.csv --grid "policy=greedy,nope" mix.ev &&
	! test -e c.csv && ! test -e c.0.csv
'
t_expect_success 'models failing at different events: -j1, -j2 and -j3 report the earliest, as a serial run meets it' '
	"$G" -p uniform -n 16384 -w 1000 --fill -s 1 -o bin >seqfill.ev 2>/dev/null &&
	for j in 1 2 3; do
		"$S" -q -j$j --pages-per-segment 4 --grid "logical-pages=12000,5000,9000" seqfill.ev \
			>/dev/null 2>fail$j.txt
		rc=$?
		[ $rc = 1 ] || { echo "-j$j: exit $rc"; exit 1; }
		grep -v "of model memory" fail$j.txt >err$j.txt
	done &&
	grep -q "byte [0-9]* (event 5001): logical-pages=5000: write at byte 20480000" err1.txt &&
	cmp err1.txt err2.txt && cmp err1.txt err3.txt
'
t_expect_success 'SIGINT during a grid: the partial summary of every configuration, no results file, exit 130' '
	rm -f in.fifo && mkfifo in.fifo || exit 1
	"$G" -p uniform -n 65536 -w 4000000000 -s 1 -o bin >in.fifo 2>/dev/null &
	feeder=$!
	"$S" -q --logical-pages 65536 --grid "policy=greedy,fifo" --results int.csv in.fifo >p.json &
	pid=$!
	sleep 0.5
	kill -INT $pid
	wait $pid
	rc=$?
	kill $feeder 2>/dev/null; wait $feeder 2>/dev/null
	echo "exit $rc"
	test $rc = 130 && test ! -e int.csv && ! ls -a | grep "\.tmp" &&
	jq -e ".partial == true and (.configurations | length) == 2 and .input.events > 0 and
		.configurations[1].host_pages_written > 0" p.json
'
t_expect_success 'an option given beside a grid axis that sets it (--op with op=..., --no-trim with trim=...): a usage error, exit 2, naming it' '
	t_err 2 "^ftlsim: --op is given and is an axis of --grid" "$S" -q --grid op=0.1,0.2 --op 0.3 mix.ev &&
	t_err 2 "^ftlsim: --trim is given and is an axis of --grid" "$S" -q --no-trim --grid trim=on,off mix.ev
'
t_expect_success 'a grid of 401 configurations, three files each: every one of the 1203 written, past the usual 1024 open files (the soft limit raised) and the 1024 temporaries tracked before' '
	"$G" -q -p uniform -n 4096 --fill -w 20000 -o bin >g4.ev && mkdir many &&
	vals=$(awk "BEGIN { for (i = 0; i <= 400; i++) printf \"%s%.3f\", (i ? \",\" : \"\"), 0.05 + i / 1000 }") &&
	(ulimit -Sn 1024 && "$S" -q --logical-pages 4096 --pages-per-segment 32 --grid "op=$vals" \
		--curve many/c.csv --hist many/h.csv --erase-hist many/e.csv g4.ev >many.json 2>/dev/null) &&
	test "$(ls many | grep -c "^[che][.][0-9]*[.]csv$")" = 1203 && test "$(ls many | wc -l)" = 1203 &&
	jq -e ".configurations | length == 401" many.json >/dev/null
'
t_expect_success 'the same grid where the hard limit of open files is 1024: past a quarter of it each file holds no descriptor between writes, and all 1203 are the same bytes' '
	mkdir few &&
	vals=$(awk "BEGIN { for (i = 0; i <= 400; i++) printf \"%s%.3f\", (i ? \",\" : \"\"), 0.05 + i / 1000 }") &&
	(ulimit -n 1024 && test "$(ulimit -Hn)" = 1024 &&
		"$S" -q --logical-pages 4096 --pages-per-segment 32 --grid "op=$vals" \
		--curve few/c.csv --hist few/h.csv --erase-hist few/e.csv g4.ev >few.json) &&
	test "$(ls few | wc -l)" = 1203 &&
	for f in $(ls many); do cmp -s many/$f few/$f || { echo "differs: $f"; return 1; }; done &&
	jq -e ".configurations | length == 401" few.json >/dev/null
'
t_expect_success 'a file that cannot be written whole (past the file size limit, as a full disk) leaves none of the grid'"'"'s files: every one is written before any is renamed' '
	"$G" -q -p uniform -n 8192 --fill -w 40000 -o bin >fz.ev && mkdir fz &&
	"$S" -q --logical-pages 8192 --op 0.5 --grid "pages-per-segment=16,512" --snapshot-every 2000 --hist fz/h.csv fz.ev >/dev/null &&
	test "$(wc -c <fz/h.0.csv)" -lt 50000 && test "$(wc -c <fz/h.1.csv)" -gt 200000 && rm fz/h.*.csv &&
	(trap "" XFSZ && ulimit -f 200 && exec "$S" -q --logical-pages 8192 --op 0.5 --grid "pages-per-segment=16,512" \
		--snapshot-every 2000 --hist fz/h.csv fz.ev) >fz.json 2>fz.err
	test $? = 1 && grep -q "^ftlsim: error writing .fz/h\.1\.csv.: File too large" fz.err &&
	test -z "$(ls fz)" && test ! -s fz.json
'
t_expect_success 'an empty value (a space after a comma, a comma at an end) says how an axis is written' '
	"$G" -q -p uniform -n 1024 -w 2000 -o bin >ev.ev &&
	for spec in "op=0.07, 0.28" "op=0.07," "op=0.07,,0.28"; do
		t_err 2 "^ftlsim: --grid: an empty value of .op. \(a comma at an end, or two together; an axis.s values are separated by commas with no space, the axes by spaces: .op=0.07,0.28 policy=greedy,cb.\)$" \
			"$S" --grid "$spec" ev.ev || { echo "$spec"; exit 1; }
	done
'
t_done
