#!/bin/sh
# t0225-trace-sets: a trace in many files (Tencent CBS and SYSTOR'17 come
# by time slice) is one trace: several FILEs, a directory or @LIST, read
# one after another in time order. The bundled Tencent and MSR samples
# cut into three pieces by lines (plain and compressed) give the whole
# file's bytes in tracecat, tracestat (and its per-volume table), ftlsim
# (one model and --per-volume) and an ftlsweep trace directive; a set out
# of time order is an error naming both files and times (--unordered,
# --sort); one progress over the set.
. "$(dirname "$0")/lib.sh"
# xz at its fastest preset: the format is the same, the time a tenth.
export XZ_OPT=-0
C="$BIN/tracecat"
S="$BIN/tracestat"
F="$BIN/ftlsim"
W="$BIN/ftlsweep"
TC="$SAMPLES/tencent/cbs-sample.csv.bz2"
MSR="$SAMPLES/msr/hm_0-head1000.csv"

# Tencent: 50,000 lines cut at lines 16000 and 34000 (where the time does
# not go back: the sample's 1-second times go back 144 times), each piece
# with another codec; MSR: 1,000 lines cut at 300 and 700.
bzcat "$TC" >"$TMP/tc.csv"
sed -n 1,15999p "$TMP/tc.csv" >"$TMP/tc-1.csv"
sed -n 16000,33999p "$TMP/tc.csv" | gzip >"$TMP/tc-2.csv.gz"
sed -n '34000,$p' "$TMP/tc.csv" | xz >"$TMP/tc-3.csv.xz"
sed -n 1,300p "$MSR" | bzip2 >"$TMP/m-1.csv.bz2"
sed -n 301,700p "$MSR" >"$TMP/m-2.csv"
sed -n '701,$p' "$MSR" | zstd -q >"$TMP/m-3.csv.zst"
TSET="tc-1.csv tc-2.csv.gz tc-3.csv.xz"
MSET="m-1.csv.bz2 m-2.csv m-3.csv.zst"
# ftlsim's summary without what names the input or times the run
nopath() { jq -S 'del(.timing, .input.path, .memory.limit_bytes)' "$@"; }

t_expect_success 'the pieces are the whole file (line counts)' '
	test $(cat tc-1.csv | wc -l) -eq 15999 && test $(zcat tc-2.csv.gz | wc -l) -eq 18000 &&
	test $(($(wc -l <tc-1.csv) + $(zcat tc-2.csv.gz | wc -l) + $(xzcat tc-3.csv.xz | wc -l))) -eq 50000
'
t_expect_success 'tracecat: three files (plain, gzip, xz) give the bytes of the whole file, MSR (bzip2, zstd) too' '
	"$C" -q -o bin "$TC" >whole.ev 2>/dev/null && "$C" -q -o bin $TSET >set.ev 2>/dev/null && t_cmp whole.ev set.ev &&
	"$C" -q -o text "$MSR" >mw.txt && "$C" -q -o text $MSET >ms.txt && t_cmp mw.txt ms.txt &&
	test $(wc -l <ms.txt) -eq 1000
'
t_expect_success 'tracestat: one result over the set, the whole file'"'"'s but for its name; one per-volume table' '
	"$S" -q --per-volume pw.csv "$TC" 2>/dev/null | jq "del(.traces[0].file)" >w.json &&
	"$S" -q --per-volume ps.csv $TSET 2>/dev/null >s.json &&
	jq "del(.traces[0].file)" s.json | t_cmp w.json - && t_cmp pw.csv ps.csv &&
	test "$(jq -r ".traces | length" s.json)" = 1 && test "$(jq -r ".traces[0].file" s.json)" = "tc-1.csv and 2 more files" &&
	test $(tail -n +2 ps.csv | wc -l) -eq 2038
'
t_expect_success 'ftlsim: one model, and --per-volume (its summary and --results), as on the whole file' '
	a="--logical-space footprint --op 0.1 --pages-per-segment 32 --precondition random"
	"$F" -q $a "$MSR" | nopath >w1.json && "$F" -q $a $MSET | nopath >s1.json && t_cmp w1.json s1.json &&
	test "$(jq .gc_pages_copied w1.json)" -gt 0 &&
	"$F" -q $a --per-volume --results rw.csv "$TC" 2>/dev/null | nopath >w2.json &&
	"$F" -q $a --per-volume --results rs.csv $TSET 2>/dev/null | nopath >s2.json &&
	t_cmp w2.json s2.json && cut -d, -f5- rw.csv >rw.cut && cut -d, -f5- rs.csv >rs.cut && t_cmp rw.cut rs.cut &&
	test "$(jq .per_volume.volumes_in_trace s2.json)" = 2038
'
t_expect_success 'a directory: its files in name order, numbers as numbers (p-9 before p-10); hidden files and subdirectories left out' '
	mkdir -p dir/sub && sed -n 1,300p "$MSR" >dir/p-9.csv && sed -n 301,700p "$MSR" | gzip >dir/p-10.csv.gz &&
	sed -n "701,\$p" "$MSR" >dir/p-11.csv && echo junk >dir/.hidden && echo junk >dir/sub/x.csv &&
	"$C" -q -o text dir >d.txt && t_cmp mw.txt d.txt &&
	"$F" -q --logical-space footprint --op 0.1 --pages-per-segment 32 dir | jq -r .input.path | grep -qx dir
'
t_expect_success '@LIST: one path a line, comments and blank lines skipped, relative to the list'"'"'s directory' '
	mkdir -p lists && printf "# the MSR sample in three\n../m-1.csv.bz2\n\n  ../m-2.csv\n$TMP/m-3.csv.zst\n" >lists/m.list &&
	"$C" -q -o text @lists/m.list >l.txt && t_cmp mw.txt l.txt &&
	"$S" -q @lists/m.list | jq -r ".traces[0].file" | grep -qx @lists/m.list
'
t_expect_success '@LIST errors: a missing file (LIST:LINE), no file at all, a list in a list, standard input' '
	printf "../m-1.csv.bz2\n../nosuch.csv\n" >lists/bad.list && t_err 1 "lists/bad.list:2: lists/../nosuch.csv: No such file" "$C" -q @lists/bad.list &&
	printf "# nothing\n\n" >lists/empty.list && t_err 1 "lists/empty.list: the list names no trace file" "$C" -q @lists/empty.list &&
	printf "@m.list\n" >lists/nest.list && t_err 1 "lists/nest.list:1: @.*m.list: a list cannot name another list" "$C" -q @lists/nest.list &&
	t_err 1 "cannot read the list of trace files" "$C" -q @nosuch.list &&
	t_err 1 "standard input \(-\) cannot be one file of a trace set" "$C" -q m-2.csv - </dev/null
'
t_expect_success 'out of time order: exit 1 naming both files and both times; --unordered reads on (said once), --sort sorts' '
	t_err 1 "^tracecat: m-1.csv.bz2: its first event \(at -55.984125900 s\) is before the last event of m-2.csv \(at 70.390030500 s\)" \
		"$C" -q -o text m-2.csv m-1.csv.bz2 m-3.csv.zst && test $(wc -l <.stdout) -eq 400 &&
	t_err 1 "m-1.csv.bz2: its first event .* before the last event of m-2.csv" "$F" -q --logical-pages 1048576 m-2.csv m-1.csv.bz2 &&
	t_err 1 "m-1.csv.bz2: its first event .* before the last event of m-2.csv" "$S" -q m-2.csv m-1.csv.bz2 &&
	"$C" -q -o text --unordered m-2.csv m-1.csv.bz2 m-3.csv.zst >u.txt 2>u.err && test $(wc -l <u.txt) -eq 1000 &&
	test $(grep -c "not in time order" u.err) -eq 1 &&
	"$C" -q -o text --sort m-2.csv m-1.csv.bz2 m-3.csv.zst >so.txt && "$C" -q -o text --sort "$MSR" >sw.txt && t_cmp sw.txt so.txt
'
t_expect_success 'an empty file (a time slice without I/O, plain or compressed) is passed over anywhere in a set, said; a set of empty files is an error' '
	: >e.csv && gzip -c e.csv >e.csv.gz && cp e.csv e2.csv &&
	for s in "e.csv m-1.csv.bz2 m-2.csv m-3.csv.zst" "m-1.csv.bz2 e.csv m-2.csv e.csv.gz m-3.csv.zst" "$MSET e.csv" "$MSET e.csv.gz"; do
		"$C" -q -o text $s >e.txt 2>e.err && t_cmp mw.txt e.txt &&
		grep -q "e.csv.*: empty file, no events (a file of the set: passed over)" e.err || return 1
	done &&
	"$S" -q m-1.csv.bz2 m-2.csv m-3.csv.zst e.csv 2>/dev/null | jq -e ".traces[0].events == 1000" >/dev/null &&
	"$C" -q -o bin $MSET >m.ev && "$S" -q m.ev e.csv 2>/dev/null | jq -e ".traces[0].events == 1000" >/dev/null &&
	t_err 1 "e2.csv: empty file" "$C" -q -o text e.csv e2.csv
'
t_expect_success 'a set is of one format; the same file named twice is read once' '
	t_err 1 "m-2.csv: format .msr., but the set.s first file tc-1.csv is .tencent.: a trace set is of one format" "$C" -q tc-1.csv m-2.csv &&
	"$C" -q -o text m-1.csv.bz2 ./m-1.csv.bz2 m-1.csv.bz2 >t.txt 2>t.err && test $(wc -l <t.txt) -eq 300 &&
	grep -q "./m-1.csv.bz2: named more than once: read once" t.err
'
t_expect_success 'skipped bad records counted over the set, the first named by its file and line' '
	sed -n 301,700p "$MSR" | sed "5s/Write/Wrote/" >bad-2.csv &&
	t_err 1 "bad-2.csv:5" "$C" -q m-1.csv.bz2 bad-2.csv m-3.csv.zst &&
	"$C" -q -o text --skip-bad m-1.csv.bz2 bad-2.csv m-3.csv.zst >b.txt 2>b.err && test $(wc -l <b.txt) -eq 999 &&
	grep -q "1 bad records skipped (first: bad-2.csv:5" b.err
'
t_expect_success 'one progress over the set: the fraction rises through its three files to the end' '
	"$BIN/tracegen" -p uniform -n 65536 --fill -w 1500000 -s 1 -o text 2>/dev/null >g.txt &&
	split -n l/3 -d g.txt g- && for f in g-0*; do zstd -q --rm "$f"; done &&
	"$F" -q --logical-pages 65536 --pages-per-segment 64 --progress=0.02 g-00.zst g-01.zst g-02.zst >p.json 2>p.err &&
	sed -n -E "s/^ftlsim: +([0-9.]+)%, ETA.*/\1/p" p.err >frac && test $(wc -l <frac) -ge 3 && sort -n -c frac &&
	awk "\$1 > 67 { hi = 1 } END { exit !hi }" frac &&
	"$F" -q --logical-pages 65536 --pages-per-segment 64 g.txt | nopath | t_cmp - "$(nopath p.json >pp; echo pp)"
'
t_expect_success 'ftlsweep: a trace directive naming a glob, a directory or @LIST runs the set, the whole file'"'"'s row' '
	mkdir -p sw && cp $MSET sw/ &&
	printf "trace %s\ntrace sw/m-*.csv* glob\ntrace sw dir\ntrace @lists/m.list list\noptions --logical-space footprint --op 0.1 --pages-per-segment 32 --precondition random\n" "$MSR" >s.sweep &&
	"$W" plan s.sweep s.d 2>/dev/null && "$W" run s.d --local -j 2 2>/dev/null && "$W" merge s.d >s.csv &&
	test $(wc -l <s.csv) -eq 5 && test $(cut -d, -f3- s.csv | sort -u | wc -l) -eq 2 &&
	cut -d, -f2 s.csv | tr "\n" " " | grep -qx "input hm_0-head1000.csv glob dir list " &&
	grep -q "^input	@.*/s.d/lists/[0-9a-f]*.list$" s.d/jobs/*.job && test $(cat s.d/lists/*.list | wc -l) -eq 3
'
t_done
