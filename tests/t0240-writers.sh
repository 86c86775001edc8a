#!/bin/sh
# tracecat -o fio, mqsim, disksim, csv: what each writes reads back as
# the same events (to the format's precision), what a format cannot
# hold is counted on stderr, and fio itself replays the iolog: its
# per-direction counts and bytes equal the trace's.
. "$(dirname "$0")/lib.sh"
TC="$BIN/tracecat"
M="$SAMPLES/msr/hm_0-head1000.csv"
RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"

t_expect_success 'mqsim and disksim round trips give the MSR events exactly' '
	"$TC" -q -o text "$M" >want.txt &&
	"$TC" -q -o mqsim "$M" | "$TC" -q -f mqsim -o text - | t_cmp want.txt - &&
	"$TC" -q -o disksim "$M" | "$TC" -q -f disksim -o text - | t_cmp want.txt -
'
t_expect_success 'fio round trip: the events, times cut to microseconds and that said (volumes: one file each)' '
	"$TC" -q -o text "$RF" | awk "{ print int(\$1 / 1000) * 1000, \$2, \$3, \$4 }" >want.txt &&
	"$TC" -q -o fio "$RF" >rf.iolog 2>err.txt &&
	grep -q "event times cut to whole microseconds" err.txt &&
	"$TC" -q -o text rf.iolog | awk "{ print \$1, \$2, \$3, \$4 }" | t_cmp want.txt -
'
t_expect_success 'mqsim: the discards of a real trace are counted, not written silently' '
	"$TC" -q -o mqsim "$RF" >rf.mqsim 2>err.txt &&
	n=$("$TC" -q -o text --ops D "$RF" | wc -l) && test "$n" -eq 1507 &&
	grep -q -- "-o mqsim: 1507 discards not written: the format has no such request" err.txt &&
	f=$("$TC" -q -o text --ops F "$RF" | wc -l) &&
	{ [ "$f" = 0 ] || grep -q -- "-o mqsim: $f flushes not written" err.txt; } &&
	all=$("$TC" -q -o text "$RF" | wc -l) && test $(wc -l <rf.mqsim) -eq $((all - n - f))
'
t_expect_success 'disksim: a request off the 512-byte grid is widened and counted' '
	printf "0 W 100 1000 0\n" >odd.txt &&
	"$TC" -q -o disksim odd.txt >got.txt 2>err.txt &&
	echo "0.000000 0 0 3 0" | t_cmp - got.txt &&
	grep -q "1 requests off the 512-byte sector grid, widened" err.txt
'
t_expect_success 'an unsorted trace: written in order, the reordered events counted' '
	printf "2000 W 0 4096 0\n1000 W 4096 4096 0\n" >uns.txt &&
	"$TC" -q -o mqsim uns.txt >got.txt 2>err.txt &&
	printf "0 0 0 8 0\n0 0 8 8 0\n" | t_cmp - got.txt &&
	grep -q "1 events earlier than the one before them" err.txt
'
t_expect_success 'csv: an unsorted trace keeps its order, the times before the first negative and counted' '
	"$TC" -q -o csv uns.txt >got.csv 2>err.txt &&
	printf "t_ns,op,offset,length,volume\n0,W,0,4096,0\n-1000,W,4096,4096,0\n" | t_cmp - got.csv &&
	grep -q "1 events before the first event, written with a negative t_ns" err.txt &&
	"$TC" -q -o csv --sort uns.txt 2>err.txt | sed -n 2p | grep -qx "0,W,4096,4096,0" && ! test -s err.txt
'
t_expect_success 'csv: a header and one row per event, every op' '
	"$TC" -q -o csv "$RF" >rf.csv && head -1 rf.csv | grep -qx "t_ns,op,offset,length,volume" &&
	"$TC" -q -o text "$RF" | tr " " , | t_cmp - "$(tail -n +2 rf.csv >rows.csv; echo rows.csv)"
'
t_expect_success '--target names the fio file of each volume; it needs -o fio' '
	printf "0 W 0 4096 0\n1000 W 0 4096 7\n" >vols.txt &&
	"$TC" -q -o fio --target /dev/disk%u vols.txt | grep -c "/dev/disk[07] write" | grep -qx 2 &&
	t_err 2 "--target goes with -o fio" "$TC" -q --target x vols.txt
'
if command -v fio >/dev/null 2>&1; then
	# A small log with every op: fio replays it on a temporary file.
	awk "BEGIN { srand(7); t = 0; for (i = 0; i < 300; i++) { t += 1000 + int(rand() * 200000)
		if (i % 50 == 49) { print t, \"F\", 0, 0, 0; continue }
		r = rand(); op = r < 0.2 ? \"R\" : r < 0.8 ? \"W\" : \"D\"
		print t, op, int(rand() * 4096) * 4096, 4096 * 2 ^ int(rand() * 4), 0 } }" >"$TMP/small.txt"
	t_expect_success 'fio --read_iolog replays -o fio: reads, writes, syncs and their bytes as the trace has them' '
		"$TC" -q -o fio small.txt >small.iolog && truncate -s 32M target.img &&
		fio --name=replay --read_iolog=small.iolog --replay_redirect="$TMP/target.img" \
			--ioengine=psync --output-format=json >fio.json 2>fio.err &&
		jq -r ".jobs[0] | \"R \(.read.total_ios) \(.read.io_bytes)\nW \(.write.total_ios) \(.write.io_bytes)\nF \(.sync.total_ios) 0\"" fio.json >got.txt &&
		awk "\$2 != \"D\" { n[\$2]++; b[\$2] += \$4 } END { for (o in n) print o, n[o], b[o] }" small.txt | sort >want.txt &&
		sort got.txt | t_cmp want.txt -
	'
	t_expect_success 'fio and the trims of -o fio: replayed with their bytes, or (fio 3.33) refused one by one' '
		nd=$(awk "\$2 == \"D\"" small.txt | wc -l) && bd=$(awk "\$2 == \"D\" { b += \$4 } END { print b }" small.txt) &&
		test "$nd" -gt 0 && test "$(grep -c " trim " small.iolog)" -eq "$nd" &&
		{ jq -e ".jobs[0].trim.total_ios == $nd and .jobs[0].trim.io_bytes == $bd" fio.json >/dev/null ||
		  { jq -e ".jobs[0].trim.total_ios == 0" fio.json >/dev/null &&
		    test "$(grep -c "bad ddir: 2" fio.err)" -eq "$nd"; }; }
	'
else
	t_skip 'fio replays -o fio' 'fio is not installed (Debian package fio)'
fi
t_expect_success 'an event'"'"'s temperature, stream or hint, which no writer format holds: counted on stderr' '
	"$BIN/tracegen" -q -p flashcache -n 16384 -w 2000 --fill -o bin >lab.ev &&
	n=$("$BIN/tracecat" -q -o text lab.ev | awk "NF > 5 && (\$6 != 0 || \$7 + 0 != 0 || \$8 + 0 != 0)" | wc -l) &&
	test "$n" -gt 0 &&
	for f in csv fio mqsim disksim; do
		"$BIN/tracecat" -q -o $f lab.ev 2>err >/dev/null &&
		grep -q "^tracecat: -o $f: $n events. temperature, stream or hint not written" err || { cat err; return 1; }
	done &&
	printf "0 W 0 4096 0\n" | "$BIN/tracecat" -q -o csv - 2>err >/dev/null && ! grep -q "hint" err
'
t_done
