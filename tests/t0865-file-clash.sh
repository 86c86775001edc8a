#!/bin/sh
# t0865-file-clash: an output file that is an input (the trace, a file
# of a set, its @LIST, standard input, a file an option reads) or another
# output is a usage error (exit 2) before anything is read, however the
# file is named (a symbolic link, a hard link, another spelling); the
# input is left as it was and no output is written. Files that are not
# regular (/dev/null) may be named by several outputs.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
ST="$BIN/tracestat"
TC="$BIN/tracecat"
cp "$SAMPLES/msr/hm_0-head1000.csv" "$TMP/t.csv"
cp "$TMP/t.csv" "$TMP/orig.csv"
M="--op 0.3"

# untouched: the trace is as it was, no output and no temporary left
# (only the files the case made beside the trace and its copy).
untouched() {
	t_cmp orig.csv t.csv && ! ls | grep -q "\.tmp\." || { echo "the trace changed, or a temporary stayed:"; ls; return 1; }
}
# fresh: the trace as it was (a case that failed may have replaced it).
fresh() { cp orig.csv t.csv; }
# exits STATUS CMD...: CMD exits STATUS (its redirections the caller's).
exits() {
	want=$1
	shift
	"$@"
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, want $want" >&2; return 1; }
}
# nothing_read: the program stopped before it detected the trace's format.
nothing_read() {
	! grep -q "detected format" "$TMP/.stderr" || { echo "the trace was read:"; cat "$TMP/.stderr"; return 1; }
}

t_expect_success 'ftlsim: each output option naming the trace is refused up front, the trace kept' '
	fresh &&
	for o in --curve --hist --erase-hist --flash-ops --timeline --latency --results; do
		t_err 2 "^ftlsim: $o t\.csv is the trace being read$" "$S" $M $o t.csv t.csv && nothing_read && untouched ||
			{ echo "# $o"; return 1; }
	done
'
t_expect_success 'ftlsim: the trace through a symbolic link, a hard link, its absolute path, another spelling' '
	fresh &&
	ln -s t.csv sym.csv && ln t.csv hard.csv && mkdir d &&
	t_err 2 "^ftlsim: --curve sym\.csv is the trace being read \(t\.csv\)$" "$S" $M --curve sym.csv t.csv && untouched &&
	t_err 2 "^ftlsim: --hist hard\.csv is the trace being read \(t\.csv\)$" "$S" $M --hist hard.csv t.csv && untouched &&
	t_err 2 "^ftlsim: --results $TMP/t\.csv is the trace being read \(\./t\.csv\)$" "$S" $M --results "$TMP/t.csv" ./t.csv &&
	untouched &&
	t_err 2 "^ftlsim: --curve d/\.\./t\.csv is the trace being read" "$S" $M --curve d/../t.csv sym.csv && untouched
'
t_expect_success 'ftlsim: standard input, a file of a set, a list and the files it names, a per-CPU set'"'"'s member' '
	fresh &&
	t_err 2 "^ftlsim: --curve t\.csv is the trace being read \(standard input\)$" "$S" $M --curve t.csv - <t.csv && untouched &&
	mkdir set && cp t.csv set/a.csv && cp t.csv set/b.csv &&
	t_err 2 "^ftlsim: --hist set/b\.csv is a file of the trace being read$" "$S" $M --unordered --hist set/b.csv set &&
	t_cmp t.csv set/b.csv &&
	echo t.csv >list &&
	t_err 2 "^ftlsim: --curve list is the list of the trace.s files being read$" "$S" $M --curve list @list &&
	t_err 2 "^ftlsim: --curve \./t\.csv is the trace being read \(t\.csv\)$" "$S" $M --curve ./t.csv @list && untouched &&
	cp "$SAMPLES/blktrace/rootfs-discard/"* . &&
	t_err 2 "^ftlsim: --curve vda_rootfs_pycompile\.blktrace\.1 is a file of the trace being read$" \
		"$S" $M --curve vda_rootfs_pycompile.blktrace.1 vda_rootfs_pycompile &&
	cmp -s vda_rootfs_pycompile.blktrace.1 "$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile.blktrace.1"
'
t_expect_success 'ftlsim: the ageing trace, the footprints table, a device file' '
	fresh &&
	cp t.csv age.csv && cp age.csv age0.csv &&
	t_err 2 "^ftlsim: --curve age\.csv is the ageing trace being read \(--precondition-trace age\.csv\)$" \
		"$S" --logical-pages 65536 $M --precondition-trace age.csv --curve age.csv t.csv && t_cmp age0.csv age.csv &&
	"$ST" -q --per-volume fp.csv t.csv >/dev/null && cp fp.csv fp0.csv &&
	t_err 2 "^ftlsim: --results fp\.csv is the footprints table being read \(--footprints fp\.csv\)$" \
		"$S" --logical-space footprint $M --footprints fp.csv --results fp.csv t.csv && t_cmp fp0.csv fp.csv &&
	printf "channels=2\n" >dev.txt &&
	t_err 2 "^ftlsim: --latency dev\.txt is the device file read \(--device dev\.txt\)$" \
		"$S" $M --device dev.txt --latency dev.txt t.csv && grep -qx channels=2 dev.txt
'
t_expect_success 'ftlsim: standard output, a regular file, is an output too' '
	fresh &&
	exits 2 "$S" -q $M t.csv >>t.csv 2>err && grep -qx "ftlsim: standard output is the trace being read (t.csv)" err &&
	untouched &&
	exits 2 "$S" -q $M --curve /dev/stdout t.csv >o.json 2>err &&
	grep -qx "ftlsim: --curve /dev/stdout and standard output name the same file" err && ! test -s o.json
'
t_expect_success 'ftlsim: two outputs naming one file, however spelled: refused before the trace is read, nothing written' '
	fresh &&
	t_err 2 "^ftlsim: --curve x\.csv and --hist x\.csv name the same file$" "$S" $M --curve x.csv --hist x.csv t.csv &&
	nothing_read && ! test -e x.csv &&
	t_err 2 "^ftlsim: --curve x\.csv and --results \./x\.csv name the same file$" "$S" $M --curve x.csv --results ./x.csv t.csv &&
	! test -e x.csv &&
	mkdir out && echo keep >out/y.csv && ln -s out/y.csv ylink.csv &&
	t_err 2 "^ftlsim: --erase-hist out/y\.csv and --flash-ops ylink\.csv name the same file$" \
		"$S" $M --erase-hist out/y.csv --flash-ops ylink.csv t.csv && grep -qx keep out/y.csv &&
	t_err 2 "^ftlsim: --timeline out/\.\./z\.csv and --latency $TMP/z\.csv name the same file$" \
		"$S" $M --timeline out/../z.csv --latency "$TMP/z.csv" t.csv && ! test -e z.csv && untouched
'
t_expect_success 'ftlsim: outputs that are not regular files may be shared (/dev/null twice)' '
	fresh &&
	"$S" -q $M --curve /dev/null --hist /dev/null --erase-hist /dev/null --results /dev/null t.csv >o.json &&
	jq -e ".host_pages_written > 0" o.json >/dev/null
'
t_expect_success 'ftlsim --grid: a configuration'"'"'s FILE.K.csv that is the --results file or the trace' '
	fresh &&
	t_err 2 "^ftlsim: --curve c\.1\.csv \(--grid configuration 1\) and --results c\.1\.csv name the same file$" \
		"$S" --grid "op=0.2,0.3" --curve c.csv --results c.1.csv t.csv && ! ls c.* 2>/dev/null &&
	cp t.csv g.0.csv &&
	t_err 2 "^ftlsim: --curve g\.0\.csv \(--grid configuration 0\) is the trace being read$" \
		"$S" --grid "op=0.2,0.3" --curve g.csv g.0.csv && t_cmp t.csv g.0.csv &&
	t_err 2 "^ftlsim: --curve c\.0\.csv \(--grid configuration 0\) and --hist c\.0\.csv \(--grid configuration 0\) name the same file$" \
		"$S" --grid "op=0.2,0.3" --curve c.csv --hist c.csv t.csv &&
	"$S" -q --grid "op=0.2,0.3" --curve c.csv --hist h.csv --results c.csv t.csv >o.json &&
	test -s c.0.csv && test -s c.1.csv && test -s h.0.csv && test -s c.csv
'
t_expect_success 'tracestat: a side file naming the trace, two naming one file, standard output' '
	fresh &&
	for o in --size-hist --skew-cdf --per-volume; do
		t_err 2 "^tracestat: $o t\.csv is the trace being read$" "$ST" $o t.csv t.csv && nothing_read && untouched ||
			{ echo "# $o"; return 1; }
	done &&
	t_err 2 "^tracestat: --size-hist q\.csv and --skew-cdf q\.csv name the same file$" "$ST" --size-hist q.csv --skew-cdf q.csv t.csv &&
	nothing_read && ! test -e q.csv &&
	ln -s t.csv sym2.csv &&
	t_err 2 "^tracestat: --per-volume sym2\.csv is the trace being read \(t\.csv\)$" "$ST" --per-volume sym2.csv t.csv && untouched &&
	exits 2 "$ST" -q t.csv >>t.csv 2>err && grep -qx "tracestat: standard output is the trace being read (t.csv)" err &&
	untouched &&
	"$ST" -q --size-hist /dev/null --skew-cdf /dev/null t.csv >/dev/null
'
t_expect_success 'tracecat: standard output appended to the trace it reads' '
	fresh &&
	exits 2 "$TC" -q -o text t.csv >>t.csv 2>err &&
	grep -qx "tracecat: standard output is the trace being read (t.csv)" err && untouched &&
	"$TC" -q -o text t.csv >out.txt && test $(wc -l <out.txt) = 1000
'
t_expect_success 'an output to /dev/stderr (or /dev/fd/N) whose descriptor is a file: written at its end, not replacing it (the messages before it kept)' '
	fresh &&
	"$S" $M --curve /dev/stderr t.csv >/dev/null 2>e.txt &&
	grep -q "detected format .msr." e.txt && grep -q "^host_pages_written,interval_wa," e.txt &&
	test "$(grep -c "^host_pages_written," e.txt)" = 1 &&
	echo first >f3.txt && "$ST" -q --size-hist /dev/fd/3 t.csv >/dev/null 3>>f3.txt &&
	head -1 f3.txt | grep -qx first && grep -q "^file,op,bucket" f3.txt
'
t_expect_success 'ftlsim: an output option given twice is a usage error naming both files, before anything is read or written' '
	fresh &&
	for o in --curve --hist --erase-hist --flash-ops --timeline --latency --results; do
		t_err 2 "^ftlsim: $o given twice \(.a1\.csv., then .a2\.csv.\)" "$S" $M $o a1.csv $o a2.csv t.csv &&
			nothing_read && test ! -e a1.csv && test ! -e a2.csv || { echo "# $o"; return 1; }
	done
'
t_done
