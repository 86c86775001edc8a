#!/bin/sh
# t0920-sweep-checks: sweeps that do not mislead. ftlsweep plan opens
# every input and runs ftlsim --dry-run on every point first: a typo
# fails the plan naming its line, before any job is written; a
# compressed per-CPU blktrace set is named by its base name. ftlsweep
# plot and ftlplot --results refuse to fold a column that varies and is
# neither on an axis nor filtered, naming it. One median: ftlsim's p50 of
# wa_per_volume, ftlsweep plot's and ftlplot's agree (nearest rank), on
# an even count of volumes where the interpolated median would differ.
. "$(dirname "$0")/lib.sh"
# xz at its fastest preset: the format is the same, the time a tenth.
export XZ_OPT=-0
# Under the sanitizers (CI's second pass) skipped: its subject is shell
# and gnuplot, which the first pass has tested; the ftlsim and tracegen
# code it runs is tested under the sanitizers elsewhere.
if t_sanitized; then
	t_skip 'the checks of ftlsweep' "the sanitizers' build: the scripts are the plain build's check"
	t_done
	exit
fi
F="$BIN/ftlsweep"
S="$BIN/ftlsim"
P="$BIN/ftlplot"
TC="$SAMPLES/tencent/cbs-sample.csv.bz2"
RF="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"

t_expect_success 'plan: "axis opp" fails at plan time naming its line, and writes no job' '
	printf "trace %s cbs\n# the options\noptions --logical-space footprint --pages-per-segment 16\naxis policy greedy\naxis opp 0.1 0.2\n" "$TC" >a.sweep &&
	t_err 1 "^ftlsweep: a.sweep:5: axis opp, value 0.1: ftlsim --dry-run says: unrecognized option .--opp." "$F" plan a.sweep a.d &&
	test ! -e a.d/jobs.txt && test -z "$(ls a.d/jobs)" &&
	"$F" plan a.sweep a.d --no-check 2>/dev/null && test $(wc -l <a.d/jobs.txt) -eq 1
'
t_expect_success 'plan: a value (gredy), a typo in the options, a tracegen option: each names its line' '
	printf "trace %s cbs\noptions --logical-space footprint\naxis policy greedy gredy cb\naxis op 0.1\n" "$TC" >b.sweep &&
	t_err 1 "^ftlsweep: b.sweep:3: axis policy, value gredy: ftlsim --dry-run says: unknown victim policy .gredy." "$F" plan b.sweep b.d &&
	printf "trace %s cbs\noptions --logical-space footprint\noptions --pages-per-segmnt 16\naxis op 0.1\n" "$TC" >c.sweep &&
	t_err 1 "^ftlsweep: c.sweep:3: options --pages-per-segmnt: " "$F" plan c.sweep c.d &&
	printf "workload w -p unifrm -n 4096\naxis op 0.1\n" >d.sweep &&
	t_err 1 "^ftlsweep: d.sweep:1: workload: tracegen: unknown pattern .unifrm." "$F" plan d.sweep d.d &&
	printf "trace %s\noptions -f msr --logical-pages 4096\n" "$TC" >e.sweep &&
	t_err 1 "^ftlsweep: e.sweep:1: trace: .*cbs-sample.csv.bz2:1: " "$F" plan e.sweep e.d &&
	printf "workload w -p uniform -n 4096 --fill -w 1000 -s 1\noptions --logical-pages 4096\naxis placement single fk:6,Q=8\n" >f.sweep &&
	t_err 1 "^ftlsweep: f.sweep:3: axis placement, value fk:6,Q=8: .*Q" "$F" plan f.sweep f.d
'
t_expect_success 'plan: a model too large for this machine is said, not refused (a cluster node may have more)' '
	printf "workload w -p uniform -n 4096 --fill -w 1000 -s 1\noptions --logical-pages 1000000000000\n" >big.sweep &&
	"$F" plan big.sweep big.d 2>err && grep -q "warning: .*more than the .* MiB available (on this machine)" err
'
t_expect_success 'plan: a per-CPU blktrace set compressed file by file, by its base name; its row is the plain set'"'"'s' '
	mkdir -p z && gzip -c <"$RF.blktrace.0" >z/v.blktrace.0.gz && xz -c <"$RF.blktrace.1" >z/v.blktrace.1.xz &&
	printf "trace z/v\ntrace %s plain\noptions --logical-space footprint --pages-per-segment 64 --precondition random --op 0.1\n" "$RF" >z.sweep &&
	"$F" plan z.sweep z.d 2>/dev/null && "$F" run z.d --local 2>/dev/null && "$F" merge z.d >z.csv &&
	test $(wc -l <z.csv) -eq 3 && cut -d, -f2 z.csv | sed -n 2p | grep -qx v && test $(cut -d, -f3- z.csv | sort -u | wc -l) -eq 2 &&
	printf "trace z/w\n" >zw.sweep && t_err 1 "cannot read trace .z/w." "$F" plan zw.sweep zw.d
'

# A per-volume sweep of the 20 busiest volumes (an even count: the
# interpolated median differs from the nearest rank) at two OPs and two
# policies.
cat >"$TMP/pv.sweep" <<EOF
trace $TC cbs
options --per-volume --volumes top:20 --logical-space footprint --pages-per-segment 16 --precondition random
axis policy greedy cb
axis op 0.15 0.3
EOF
A="--per-volume --volumes top:20 --logical-space footprint --pages-per-segment 16 --precondition random"
g10() { awk -v x="$1" 'BEGIN { printf "%.10g\n", x }'; }

t_expect_success 'plot: an axis that varies, neither X nor --by nor filtered, is refused naming it; --by or --where draws' '
	"$F" plan pv.sweep pv.d 2>/dev/null && "$F" run pv.d --local 2>/dev/null &&
	t_err 2 "column \"policy\" takes 2 values \(greedy, cb\) and is neither X nor --by" "$F" plot pv.d op wa_total -o x.png &&
	test ! -e x.png &&
	"$F" plot pv.d op wa_total --by policy -o by.png >/dev/null 2>&1 && test -s by.png && test -s by.dat &&
	"$F" plot pv.d op wa_total --where policy=cb -o cb.svg >/dev/null 2>&1 && grep -q "median over volumes" cb.svg &&
	t_err 2 "column \"op\" takes 2 values" "$F" plot pv.d policy wa_total --where policy=cb -o y.png
'
t_expect_success 'ftlplot --results: rows of one point that differ in a column not on an axis are refused, naming it' '
	"$S" -q $A --grid "policy=greedy,cb op=0.15,0.3" --results r.csv "$TC" >r.json 2>/dev/null &&
	t_err 1 "differ in policy \(\"greedy\", \"cb\"\): give --by policy" "$P" --results r.csv --x op -o pr &&
	"$S" -q --logical-space footprint --pages-per-segment 16 --precondition random --op 0.2 --policy greedy --results one1.csv "$SAMPLES/msr/hm_0-head1000.csv" >/dev/null 2>&1 &&
	"$S" -q --logical-space footprint --pages-per-segment 16 --precondition random --op 0.2 --policy fifo --results one2.csv "$SAMPLES/msr/hm_0-head1000.csv" >/dev/null 2>&1 &&
	{ cat one1.csv; tail -n +2 one2.csv; } >two.csv &&
	t_err 1 "line 2 and line 3 are one point \(params.op [0-9.]+\) but differ in params.policy" "$P" --results two.csv --x params.op -o p2 &&
	"$P" --results two.csv --x params.op --by params.policy -o p3 >/dev/null
'
t_expect_success 'one median: ftlsim'"'"'s p50 of wa_per_volume, ftlsweep merge and plot, ftlplot --results agree (nearest rank)' '
	"$P" --results r.csv --x op --by policy -o pr >/dev/null 2>&1 &&
	"$F" merge pv.d >pv.csv && "$F" plot pv.d op wa_total --by policy -o m.png >/dev/null 2>&1 &&
	c=0
	for pol in greedy cb; do
		for op in 0.15 0.3; do
			want=$(g10 "$(jq ".configurations[] | select(.axes.policy == \"$pol\" and .axes.op == \"$op\") | .wa_per_volume.p50" r.json)")
			test "$(jq ".configurations[] | select(.axes.policy == \"$pol\" and .axes.op == \"$op\") | .wa_per_volume.volumes" r.json)" = 20 || exit 1
			plot=$(awk -F, -v p="$pol" -v o="$op" "/^# / { s = substr(\$0, 3) } s == p && \$1 == o { print \$2 }" m.dat)
			fp=$(awk -v p="$pol" -v o="$op" "/^# / { s = substr(\$0, 3) } s == p && \$1 == o { print \$2 }" pr/results.in)
			merged=$(awk -F, -v p="$pol" -v o="$op" "\$3 == p && \$4 == o { print \$31 }" pv.csv | sort -u)
			echo "$pol $op: ftlsim $want, ftlsweep plot $plot, ftlplot $fp, merged $merged"
			test "$want" = "$plot" && test "$want" = "$fp" && test "$want" = "$merged" || exit 1
			# the interpolated median: another number, so this test tells the two apart
			mid=$(awk -F, -v p="$pol" -v o="$op" "\$3 == p && \$4 == o { print \$14 }" pv.csv | sort -g |
				awk "{ v[NR] = \$1 } END { printf \"%.10g\n\", (v[NR / 2] + v[NR / 2 + 1]) / 2 }")
			test "$mid" != "$want" && c=$((c + 1))
		done
	done
	test $c -ge 1
'
t_done
