#!/bin/sh
# t0930-sweep-whole: what an ftlsweep job, run and merge keep when they
# are stopped (SIGTERM, a failure) part of the way: a job's results all
# or none, its summaries with its rows; no temporary of a merge or a
# run left behind; results of another layout refused by merge, naming
# the file.
. "$(dirname "$0")/lib.sh"
if t_sanitized; then
	t_skip 'what ftlsweep keeps when stopped' "the sanitizers' build: the orchestration is the plain build's check"
	t_done
	exit
fi
F="$BIN/ftlsweep"
S="$BIN/ftlsim"
G="$BIN/tracegen"

# wb/ is bin/ with an ftlsim that is $T_SLOW seconds slower when its
# options hold $T_SLOWON (its sleep holds no end of the job's FIFO) and
# fails (exit 3) when they hold $T_FAIL; wp/ has a mv that says in
# $T_MVFLAG when it renames a job's first summary, then takes $T_MVSLOW
# seconds more.
mkdir "$TMP/wb" "$TMP/wp" && cp "$F" "$TMP/wb/ftlsweep" && ln -s "$G" "$TMP/wb/tracegen" &&
cat >"$TMP/wb/ftlsim" <<EOF && chmod +x "$TMP/wb/ftlsim" &&
#!/bin/sh
case " \$* " in *" \${T_FAIL:-none} "*) exit 3 ;; esac
case " \$* " in *" \${T_SLOWON:-none} "*) sleep "\${T_SLOW:-0}" </dev/null ;; esac
exec "$S" "\$@"
EOF
cat >"$TMP/wp/mv" <<EOF && chmod +x "$TMP/wp/mv"
#!/bin/sh
case \$1 in */1.json) [ -z "\${T_MVFLAG:-}" ] || { : >"\$T_MVFLAG"; sleep "\${T_MVSLOW:-0}"; } ;; esac
exec $(command -v mv) "\$@"
EOF
W="$TMP/wb/ftlsweep"
cat >"$TMP/three.sweep" <<EOF
workload u -p uniform -n 4096 --fill -w 20000 -s 1
options --logical-pages 4096 --pages-per-segment 64
axis op 0.1 0.2 0.3
EOF
# until file $1 exists (at most 10 s)
until_file() {
	u_i=0 && until [ -e "$1" ]; do u_i=$((u_i + 1)); [ $u_i -lt 200 ] || { echo "no $1"; return 1; }; sleep 0.05; done
}

t_expect_success 'a job run point by point, stopped by SIGTERM after its first point: exit 143, no summary kept, none in results/' '
	"$F" plan three.sweep pp.d 2>/dev/null && h=$(cat pp.d/jobs.txt) || exit 1
	FTLSWEEP_GRID=0 T_SLOWON="0.2" T_SLOW=30 setsid "$W" run-job pp.d $h 2>/dev/null & p=$!
	trap "kill -9 -$p 2>/dev/null" EXIT
	i=0 && until grep -q -- "--op 0.2" pp.d/logs/$h.err 2>/dev/null; do i=$((i + 1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
	sleep 0.2
	kill -TERM $p; wait $p; rc=$?
	test $rc = 143 || { echo "exit $rc"; exit 1; }
	test -z "$(ls pp.d/results)" && test -z "$(ls pp.d/state)" || { ls pp.d/results pp.d/state; exit 1; }
	FTLSWEEP_GRID=0 "$F" run-job pp.d $h 2>/dev/null && test "$(ls pp.d/results | tr "\n" " ")" = "$h.1.json $h.2.json $h.3.json $h.csv "
'
t_expect_success 'a job run point by point whose second point fails keeps no summary of its first' '
	"$F" plan three.sweep pf.d 2>/dev/null && h=$(cat pf.d/jobs.txt) || exit 1
	FTLSWEEP_GRID=0 T_FAIL="0.2" t_err 1 "job $h .* failed with status 3" "$W" run-job pf.d $h &&
	test -z "$(ls pf.d/results)" && test "$(ls pf.d/state)" = "$h.failed" || { ls pf.d/results pf.d/state; exit 1; }
'
t_expect_success 'a job stopped by SIGTERM while its results are renamed into results/: too late, the job ends whole (exit 0)' '
	"$F" plan three.sweep mv.d 2>/dev/null && h=$(cat mv.d/jobs.txt) || exit 1
	for g in 1 0; do
		rm -f mv.flag mv.d/results/*
		FTLSWEEP_GRID=$g T_MVFLAG=$PWD/mv.flag T_MVSLOW=1 PATH="$TMP/wp:$PATH" setsid "$W" run-job mv.d $h 2>mv.err & p=$!
		until_file mv.flag || exit 1
		kill -TERM $p; wait $p; rc=$?
		test $rc = 0 || { echo "grid $g: exit $rc"; cat mv.err; exit 1; }
		test "$(ls mv.d/results | tr "\n" " ")" = "$h.1.json $h.2.json $h.3.json $h.csv " && test -z "$(ls mv.d/state)" ||
			{ echo "grid $g:"; ls mv.d/results mv.d/state; exit 1; }
	done
'
t_expect_success 'merge stopped by SIGTERM (its process group) while it writes to a full pipe, a per-volume merge too: exit 143, no temporary left in state/' '
	"$F" plan three.sweep m.d 2>/dev/null && "$F" run m.d --local 2>/dev/null &&
	printf "trace %s cbs\noptions --per-volume --logical-space footprint --pages-per-segment 16 --volumes top:4\naxis op 0.15 0.3\n" \
		"$SAMPLES/tencent/cbs-sample.csv.bz2" >pv.sweep &&
	"$F" plan pv.sweep pv.d 2>/dev/null && "$F" run pv.d --local 2>/dev/null || exit 1
	mkfifo full.fifo || exit 1
	for d in m.d pv.d; do
		# the pipe filled first: merge blocks in its first write
		exec 3<>full.fifo && head -c 65536 /dev/zero >&3 || exit 1
		setsid "$F" merge $d >full.fifo 2>/dev/null & p=$!
		i=0 && until ls $d/state | grep -q .; do i=$((i + 1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
		sleep 0.3
		# (to its process group, as Ctrl-C or scancel: the program
		# blocked in its write is stopped with it)
		kill -TERM -$p; wait $p; rc=$?
		kill -9 -$p 2>/dev/null; exec 3>&-
		test $rc = 143 || { echo "$d: exit $rc"; exit 1; }
		test -z "$(ls $d/state)" || { echo "$d: left:"; ls $d/state; exit 1; }
	done
	"$F" merge pv.d -o pv.csv && test -z "$(ls pv.d/state)" && test $(wc -l <pv.csv) -eq 9
'
# wg/ has a gnuplot that draws the figure, says so in $T_GPFLAG, then
# takes 30 s more.
mkdir "$TMP/wg" && cat >"$TMP/wg/gnuplot" <<EOF && chmod +x "$TMP/wg/gnuplot"
#!/bin/sh
$(command -v gnuplot) "\$@" || exit
: >"\$T_GPFLAG"
exec sleep 30 </dev/null
EOF
t_expect_success 'plot stopped by SIGTERM (its process group) once gnuplot has drawn: exit 143, no figure, no temporary beside it or in state/' '
	if ! command -v gnuplot >/dev/null; then echo "no gnuplot: not checked"; exit 0; fi
	"$F" plan three.sweep pl.d 2>/dev/null && "$F" run pl.d --local 2>/dev/null || exit 1
	mkdir fig && T_GPFLAG=$PWD/gp.flag PATH="$TMP/wg:$PATH" setsid "$F" plot pl.d op wa_total -o fig/wa.png 2>/dev/null & p=$!
	until_file gp.flag || exit 1
	kill -TERM -$p; wait $p; rc=$?
	kill -9 -$p 2>/dev/null
	test $rc = 143 || { echo "exit $rc"; exit 1; }
	test -z "$(ls fig)" && test -z "$(ls pl.d/state)" || { ls fig pl.d/state; exit 1; }
'
t_expect_success 'merge refuses a job'"'"'s CSV of another layout (an older version'"'"'s columns, an axis renamed since), exit 1 naming it, and writes no row' '
	"$F" plan three.sweep old.d --split 2>/dev/null && "$F" run old.d --local 2>/dev/null || exit 1
	h=$(sed -n 2p old.d/jobs.txt) && f=old.d/results/$h.csv &&
	cut -d, -f1-15 $f >x && mv x $f &&
	t_err 1 "^ftlsweep: old.d/results/$h.csv:1: its columns are not those of this sweep" "$F" merge old.d &&
	test ! -s "$TMP/.stdout" &&
	t_err 1 "old.d/results/$h.csv:1: " "$F" merge old.d -o old.csv && test ! -e old.csv &&
	rm $f && "$F" run old.d --local 2>/dev/null && "$F" merge old.d -o old.csv && test $(wc -l <old.csv) -eq 4 &&
	printf "workload u -p uniform -n 4096 --fill -w 20000 -s 1\noptions --logical-pages 4096 --pages-per-segment 64\naxis trim --trim --no-trim\n" >tr.sweep &&
	"$F" plan tr.sweep tr.d 2>/dev/null && "$F" run tr.d --local 2>/dev/null && "$F" merge tr.d | head -1 | grep -q "^job,input,trim,events," &&
	sed "s/^axis trim/axis discard/" tr.sweep >tr2.sweep && "$F" plan tr2.sweep tr.d 2>/dev/null &&
	t_err 1 "^ftlsweep: tr.d/results/[0-9a-f]*.csv:1: its columns are not those of this sweep" "$F" merge tr.d
'
t_expect_success 'run --slurm stopped by SIGTERM or SIGINT while it estimates the jobs: exit 143 or 130, no temporary, no task list or script left' '
	"$F" plan three.sweep sl.d --split 2>/dev/null || exit 1
	for sig in TERM:143 INT:130; do
		T_SLOWON=--dry-run T_SLOW=30 setsid env --default-signal=INT "$W" run sl.d --slurm --dry-run >/dev/null 2>&1 & p=$!
		i=0 && until pgrep -P $p >/dev/null && ls sl.d/slurm 2>/dev/null | grep -q tasks; do i=$((i + 1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
		sleep 0.3
		kill -${sig%:*} -$p; wait $p; rc=$?
		kill -9 -$p 2>/dev/null
		test $rc = ${sig#*:} || { echo "SIG${sig%:*}: exit $rc"; exit 1; }
		left=$(ls -A sl.d/state; ls -A sl.d/slurm) && test -z "$left" || { echo "SIG${sig%:*}: left: $left"; exit 1; }
	done
	"$F" run sl.d --slurm --dry-run --mem 1G --time 5 >/dev/null 2>&1 && test $(ls sl.d/slurm | wc -l) -eq 2 && test -z "$(ls sl.d/state)"
'
t_expect_success 'run: a job that failed before and is left alone is said, not this run'"'"'s failure: exit 0 when the jobs it runs succeed, as when it has none to run' '
	"$G" -p uniform -n 4096 --fill -w 20000 -s 1 -o bin >w.ev 2>/dev/null &&
	printf "trace %s/w.ev w\noptions --pages-per-segment 64\naxis op 0.1 0.2\n" "$PWD" >fb.sweep &&
	"$F" plan fb.sweep fb.d --split 2>/dev/null && mv w.ev w.away &&
	t_err 1 "2 jobs failed" "$F" run fb.d --local -j 2 && mv w.away w.ev &&
	t_err 0 "0 of 2 jobs to run .2 failed before, left alone: --retry-failed runs them.$" "$F" run fb.d --local &&
	sed -i "s/0.1 0.2/0.1 0.2 0.3/" fb.sweep && "$F" plan fb.sweep fb.d --split 2>/dev/null &&
	t_err 0 "1 of 3 jobs to run .2 failed before, left alone" "$F" run fb.d --local && ! grep -q "jobs failed" "$TMP/.stderr" &&
	"$F" status fb.d | grep -qx "1 done, 0 running, 2 failed, 0 waiting" &&
	t_err 0 "2 of 3 jobs to run$" "$F" run fb.d --local --retry-failed &&
	"$F" status fb.d | grep -qx "3 done, 0 running, 0 failed, 0 waiting"
'
t_expect_success 'run --slurm --wait while squeue fails (the controller down): said once, then given up after FTLSWEEP_SQUEUE_WAIT seconds, exit 1' '
	"$F" plan three.sweep sq.d 2>/dev/null && mkdir sqbin &&
	printf "#!/bin/sh\necho 4242\n" >sqbin/sbatch &&
	printf "#!/bin/sh\necho \"slurm_load_jobs error: Unable to contact slurm controller (connect failure)\" >&2\nexit 1\n" >sqbin/squeue &&
	chmod +x sqbin/sbatch sqbin/squeue &&
	PATH="$PWD/sqbin:$PATH" FTLSWEEP_SQUEUE_WAIT=2 t_err 1 "squeue has failed for 2 s: no longer waiting for array 4242" \
		timeout 30 "$F" run sq.d --slurm --wait --mem 1G --time 5 &&
	test "$(grep -c "warning: squeue: slurm_load_jobs error: Unable to contact slurm controller" .stderr)" = 1
'
t_expect_success 'two run --slurm at once (the same second): each its own task list and script' '
	"$F" plan three.sweep two.d --split 2>/dev/null || exit 1
	"$F" run two.d --slurm --dry-run --mem 1G --time 5 >a.out 2>&1 & p=$!
	"$F" run two.d --slurm --dry-run --mem 1G --time 5 >b.out 2>&1; wait $p &&
	test "$(ls two.d/slurm | grep -c "^tasks-")" = 2 && test "$(ls two.d/slurm | grep -c "^array-")" = 2 || { ls two.d/slurm; exit 1; }
'
t_expect_success 'plan again with other axes, SIGTERM while it puts its files in place: too late, the axes and the jobs agree (exit 0)' '
	"$F" plan three.sweep ag.d 2>/dev/null || exit 1
	sed "s/^axis op .*/axis policy greedy cb/" three.sweep >pol.sweep && "$F" plan pol.sweep ag-want.d 2>/dev/null || exit 1
	mkdir -p mvslow && cat >mvslow/mv <<EOF && chmod +x mvslow/mv
#!/bin/sh
case "\$2" in */jobs.txt) : >"$PWD/ag.flag"; sleep 2 ;; esac
exec $(command -v mv) "\$@"
EOF
	PATH="$PWD/mvslow:$PATH" setsid "$F" plan pol.sweep ag.d 2>/dev/null & p=$!
	until_file ag.flag && kill -TERM $p; wait $p; rc=$?
	echo "exit $rc" && test $rc = 0 &&
	t_cmp ag-want.d/axes ag.d/axes && t_cmp ag-want.d/jobs.txt ag.d/jobs.txt
'
t_expect_success 'plot by an ftlsweep away from the gnuplot scripts (not installed): exit 1, the places it looked named, no @DATADIR@' '
	mkdir -p lone && cp "$F" lone/ftlsweep &&
	t_err 1 "cannot find the gnuplot scripts \(term.gp\) in .*lone/../plots, .*lone/../share/ftlkit or .*lone; set FTLPLOT_PLOTS" \
		env -u FTLPLOT_PLOTS lone/ftlsweep plot pp.d op wa_measured -o lone.png &&
	! grep -q "@DATADIR@" .stderr
'
t_done
