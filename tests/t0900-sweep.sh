#!/bin/sh
# t0900-sweep: ftlsweep on real engines - plan (jobs named by a hash of
# what they run), GNU parallel on this machine and through an
# sshloginfile naming it ':', a one-node Slurm cluster started here
# (tests/slurm/cluster.sh) running a 4-task job array, resuming, failed
# jobs and --retry-failed, merge, plot.
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (CI's second pass) these are skipped: they test
# the orchestration (shell, daemons), which the first pass has tested;
# the ftlsim runs they start are the same code the other tests run
# under the sanitizers, and the daemons' start-up costs a minute.
if t_sanitized; then
	t_skip 'ftlsweep on GNU parallel and a one-node Slurm cluster' "the sanitizers' build: the orchestration is the plain build's check"
	t_done
	exit
fi
F="$BIN/ftlsweep"
S="$BIN/ftlsim"
G="$BIN/tracegen"

# Two policies x two over-provisionings on a synthetic workload, and the
# same on a bundled real trace for the grouped case.
cat >"$TMP/small.sweep" <<EOF
# a small sweep
workload hotcold -p hotcold -n 8192 --fill -w 60000 -s 3
options --logical-pages 8192 --pages-per-segment 64   # fixed
axis policy greedy fifo
axis op 0.1 0.25
EOF
cat >"$TMP/rootfs.sweep" <<EOF
trace $SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile rootfs
workload uniform -p uniform -n 4096 --fill -w 20000 -s 1
options --logical-space footprint --pages-per-segment 64 --precondition random
axis policy greedy cb fifo
axis op 0.05 0.07 0.1 0.2 0.3
EOF

t_expect_success '--help and --version' '
	"$F" --help | grep -q "^usage: ftlsweep plan" && "$F" --version | grep -q "^ftlsweep (ftlkit) "
'
t_expect_status 2 'no command is a usage error' '"$F"'
t_expect_status 2 'an unknown command is a usage error' '"$F" frobnicate'
t_expect_success 'a bad sweep file: exit 1 naming the file and line' '
	printf "trace %s\naxes op 1\n" "$SAMPLES/msr/hm_0-head1000.csv" >bad.sweep &&
	t_err 1 "bad.sweep:2: unknown directive" "$F" plan bad.sweep bad.d &&
	printf "trace /nonexistent/x\n" >bad2.sweep &&
	t_err 1 "^ftlsweep: bad2.sweep:1: cannot read trace ./nonexistent/x." "$F" plan bad2.sweep bad2.d &&
	printf "workload w --pattern uniform --pages 64\ntrace /nonexistent/y\n" >bad3.sweep &&
	t_err 1 "^ftlsweep: bad3.sweep:2: cannot read trace" "$F" plan bad3.sweep bad3.d
'
t_expect_success 'a value twice on an axis, two inputs of one name, a name with a comma, Windows line ends: exit 1 naming the line' '
	printf "workload w --pattern uniform --pages 1024\naxis op 0.1 0.2 0.1\n" >dv.sweep &&
	t_err 1 "^ftlsweep: dv.sweep:2: axis op: the value 0.1 twice$" "$F" plan dv.sweep dv.d && test ! -e dv.d/jobs.txt &&
	printf "workload w --pattern uniform --pages 1024\n\nworkload w --pattern hotcold --pages 1024\n" >dn.sweep &&
	t_err 1 "^ftlsweep: dn.sweep:3: the name \"w\" is line 1.s too" "$F" plan dn.sweep dn.d &&
	mkdir -p d1 d2 && cp "$SAMPLES/msr/hm_0-head1000.csv" d1/t.csv && cp d1/t.csv d2/t.csv &&
	printf "trace d1/t.csv\ntrace d2/t.csv\n" >dt.sweep &&
	t_err 1 "^ftlsweep: dt.sweep:2: the name \"t.csv\" is line 1.s too: give this trace a NAME of its own .trace PATH NAME." "$F" plan dt.sweep dt.d &&
	printf "trace d1/t.csv one\ntrace d2/t.csv two\n" >dt2.sweep && "$F" plan dt2.sweep dt2.d 2>/dev/null &&
	printf "workload a,b --pattern uniform --pages 64\n" >dc.sweep &&
	t_err 1 "^ftlsweep: dc.sweep:1: the name \"a,b\" has a comma" "$F" plan dc.sweep dc.d &&
	printf "workload w --pattern uniform --pages 1024\r\naxis op 0.1\r\n" >crlf.sweep &&
	t_err 1 "^ftlsweep: crlf.sweep:1: a carriage return ends the line" "$F" plan crlf.sweep crlf.d
'

t_expect_success 'plan: one job per input, or per configuration with --split; names are hashes of the job' '
	"$F" plan small.sweep g.d 2>/dev/null && test $(wc -l <g.d/jobs.txt) -eq 1 &&
	test $(grep -c "^point" g.d/jobs/*.job) -eq 4 &&
	"$F" plan small.sweep s.d --split 2>/dev/null && test $(wc -l <s.d/jobs.txt) -eq 4 &&
	for h in $(cat s.d/jobs.txt); do
		test "$(sha256sum <s.d/jobs/$h.job | cut -c1-16)" = "$h" || exit 1
	done &&
	"$F" plan small.sweep s2.d --split 2>/dev/null && t_cmp s.d/jobs.txt s2.d/jobs.txt &&
	grep -q -- "--logical-pages 8192 --pages-per-segment 64 --policy fifo --op 0.25" s.d/jobs/*.job
'
t_expect_status 2 'run without a backend is a usage error' '"$F" run s.d'

t_expect_success 'run --local -j 2 (GNU parallel): every job done; merge gives one tidy CSV' '
	"$F" run s.d --local -j 2 2>err && "$F" status s.d >st && grep -qx "4 done, 0 running, 0 failed, 0 waiting" st &&
	"$F" merge s.d -o local.csv &&
	head -1 local.csv | grep -q "^job,input,policy,op,events,logical_pages,.*,wa_total,wa_measured," &&
	test $(wc -l <local.csv) -eq 5 && test $(cut -d, -f3,4 local.csv | sort -u | wc -l) -eq 5
'
t_expect_success 'a merged row is the figures of the same ftlsim run made by hand' '
	"$G" -p hotcold -n 8192 --fill -w 60000 -s 3 -o bin 2>/dev/null |
		"$S" -q --logical-pages 8192 --pages-per-segment 64 --policy fifo --op 0.25 - >one.json &&
	wa=$(jq -r .wa_measured one.json) && copied=$(jq -r .gc_pages_copied one.json) &&
	grep -q ",hotcold,fifo,0.25,.*,$copied,.*,$wa," local.csv
'
t_expect_success 'the same sweep grouped: one job, its four configurations in one ftlsim --grid pass, the same rows' '
	"$F" run g.d --local -j 2 2>/dev/null && "$F" merge g.d | cut -d, -f2- | sort >g.rows &&
	cut -d, -f2- local.csv | sort >l.rows && t_cmp g.rows l.rows &&
	test "$(grep "^== " g.d/logs/*.err)" = "== workload hotcold: ftlsim --logical-pages 8192 --pages-per-segment 64 --grid '"'"'policy=greedy,fifo op=0.1,0.25'"'"'" &&
	test $(ls g.d/results/*.json | wc -l) -eq 4 && ! ls g.d/results | grep -q "tmp\|grid"
'
t_expect_success 'a TRIM axis goes into the grid as trim=on,off; an axis --grid refuses runs point by point; both as --split' '
	printf "trace %s rootfs\noptions --logical-space footprint --pages-per-segment 64 --precondition random\naxis policy greedy cb\naxis trim --trim --no-trim\n" \
		"$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile" >t.sweep &&
	"$F" plan t.sweep t.d 2>/dev/null && "$F" plan t.sweep ts.d --split 2>/dev/null &&
	"$F" run t.d --local 2>/dev/null && "$F" run ts.d --local -j 2 2>/dev/null &&
	grep -q "^== .*--grid '"'"'policy=greedy,cb trim=on,off'"'"'" t.d/logs/*.err &&
	"$F" merge t.d | cut -d, -f2- >t.rows && "$F" merge ts.d | cut -d, -f2- >ts.rows && t_cmp t.rows ts.rows &&
	grep -q "^rootfs,cb,no-trim," t.rows &&
	printf "workload u -p uniform -n 4096 --fill -w 20000 -s 1\noptions --logical-pages 4096 --pages-per-segment 64 --curve /dev/null\naxis interval 1000 2000\n" >i.sweep &&
	"$F" plan i.sweep i.d 2>/dev/null && "$F" plan i.sweep is.d --split 2>/dev/null &&
	"$F" run i.d --local 2>/dev/null && "$F" run is.d --local 2>/dev/null &&
	grep -q "ftlsim refused the grid (exit 2): running the configurations one by one" i.d/logs/*.err &&
	test $(grep -c "^== " i.d/logs/*.err) -eq 3 &&
	"$F" merge i.d | cut -d, -f2- >i.rows && "$F" merge is.d | cut -d, -f2- >is.rows && t_cmp i.rows is.rows
'
t_expect_success 'axes over the layers and the device in time: off beside the specs, options with commas; the merged rows carry the host log'"'"'s and the latencies, the grid'"'"'s the same as --split' '
	printf "workload u -p uniform -n 4096 --fill -w 20000 --rate 200 -s 1\noptions --logical-pages 4096 --device femu,channels=2,dies=1\naxis host-lfs off segment=256K\naxis qd off 4\n" >l.sweep &&
	"$F" plan l.sweep l.d 2>/dev/null && "$F" plan l.sweep ls.d --split 2>/dev/null &&
	"$F" run l.d --local 2>/dev/null && "$F" run ls.d --local 2>/dev/null &&
	grep -q "^== .*--grid '"'"'host-lfs=off,segment=256K qd=off,4'"'"'" l.d/logs/*.err &&
	"$F" merge l.d >l.csv && "$F" merge l.d | cut -d, -f2- >l.rows && "$F" merge ls.d | cut -d, -f2- >ls.rows && t_cmp l.rows ls.rows &&
	python3 -c "
import csv, sys
r = list(csv.DictReader(open(\"l.csv\")))
assert [(x[\"host-lfs\"], x[\"qd\"]) for x in r] == [(\"off\", \"off\"), (\"off\", \"4\"), (\"segment=256K\", \"off\"), (\"segment=256K\", \"4\")], r
for x in r:
    assert float(x[\"timing.latency_us.write.p99\"]) > 0 and float(x[\"timing.iops\"]) > 0, x
    assert (x[\"host_lfs.wa_stacked\"] == \"\") == (x[\"host-lfs\"] == \"off\"), x
assert float(r[2][\"host_lfs.wa_stacked\"]) > float(r[2][\"wa_total\"])
" &&
	"$F" plot l.d host-lfs timing.latency_us.write.p99 --by qd -o lw.svg >/dev/null 2>err && ! grep -q warning err &&
	grep -q ">segment=256K<" lw.svg && grep -q ">qd = off<" lw.svg && grep -q ">qd = 4<" lw.svg &&
	awk -F, "/^#/ { b++ } b && /^[0-9]/ { print b, \$1 }" lw.dat | tr "\n" " " | grep -qx "1 1 1 2 2 1 2 2 "
'
t_expect_success 'run again: nothing to run, results untouched (resumable)' '
	cp -p s.d/results/$(head -1 s.d/jobs.txt).csv before.csv &&
	"$F" run s.d --local -j 2 2>err && grep -q "0 of 4 jobs to run" err &&
	t_cmp before.csv s.d/results/$(head -1 s.d/jobs.txt).csv
'
t_expect_success 'run --parallel --sshloginfile naming this machine (:) merges to the same CSV' '
	"$F" plan small.sweep p.d --split 2>/dev/null && echo ":" >logins &&
	"$F" run p.d --parallel --sshloginfile logins -j 2 2>/dev/null && "$F" merge p.d >par.csv &&
	t_cmp local.csv par.csv
'
t_expect_success 'a failed job: run exits 1, status shows it with its stderr, --retry-failed reruns it' '
	"$G" -p uniform -n 4096 --fill -w 20000 -s 1 -o bin >w.ev 2>/dev/null &&
	printf "trace %s/w.ev w\noptions --pages-per-segment 64\naxis op 0.1 0.2\n" "$PWD" >f.sweep &&
	"$F" plan f.sweep f.d --split 2>/dev/null && mv w.ev w.ev.away &&
	t_err 1 "2 jobs failed" "$F" run f.d --local -j 2 &&
	"$F" status f.d >st && grep -q "^0 done, 0 running, 2 failed, 0 waiting" st &&
	grep -q "failed: .* (w, exit status 1)" st && grep -q "w.ev" st &&
	mv w.ev.away w.ev && "$F" run f.d --local 2>err && grep -q "0 of 2 jobs to run" err &&
	"$F" run f.d --local --retry-failed 2>/dev/null && "$F" status f.d | grep -qx "2 done, 0 running, 0 failed, 0 waiting"
'
t_expect_success 'a job killed from outside (SIGKILL): run says it did not finish, exit 1; status counts it waiting, and says why' '
	mkfifo never.fifo &&
	printf "trace %s/never.fifo k\noptions --logical-pages 64\n" "$PWD" >kk.sweep &&
	"$F" plan kk.sweep kk.d --no-check 2>/dev/null || exit 1
	# the job waits for a writer of the FIFO until it is killed
	{ "$F" run kk.d --local -j 1 >kk.out 2>kk.err; echo $? >kk.rc; } &
	i=0 && until m=$(ls kk.d/state/*.running 2>/dev/null) && [ -s "$m" ]; do
		i=$((i + 1)); [ $i -lt 100 ] || { echo "the job did not start"; exit 1; }; sleep 0.1
	done &&
	read -r host pid t <"$m" && set -- $(ps -o pgid= -p "$pid") && kill -9 "-$1" && # (dash: no --)
	wait && test "$(cat kk.rc)" = 1 &&
	grep -q "^ftlsweep: 1 jobs did not finish: stopped from outside" kk.err && ! grep -q "jobs failed" kk.err &&
	"$F" status kk.d >kks.out 2>kks.err && grep -qx "0 done, 0 running, 0 failed, 1 waiting" kks.out &&
	grep -q "1 of the waiting jobs were stopped from outside" kks.err
'
# Runners side by side. wb/ is bin/ with an ftlsim that says each run in
# $T_CALLS, is $T_SLOW seconds slower, and fails (exit 3) when its
# options hold $T_FAIL: the jobs of several runners counted, the
# ftlsweep the same.
mkdir "$TMP/wb" && cp "$F" "$TMP/wb/ftlsweep" && ln -s "$G" "$TMP/wb/tracegen" &&
cat >"$TMP/wb/ftlsim" <<EOF && chmod +x "$TMP/wb/ftlsim"
#!/bin/sh
echo "\$*" >>"\$T_CALLS"
case " \$* " in *" \${T_FAIL:-none} "*) exit 3 ;; esac
sleep "\${T_SLOW:-0}"
exec "$S" "\$@"
EOF
W="$TMP/wb/ftlsweep"
cat >"$TMP/two.sweep" <<EOF
workload u -p uniform -n 4096 --fill -w 20000 -s 1
options --logical-pages 4096 --pages-per-segment 64
axis policy greedy fifo
axis op 0.1 0.15 0.2 0.25
EOF
# until job $2 of folder $1 is claimed by process $3 (its running mark
# names it) and has started its ftlsim
claimed() {
	c_i=0 && until read -r c_host c_pid c_time 2>/dev/null <"$1/state/$2.running" && [ "$c_pid" = "$3" ] &&
		pgrep -P "$3" -x ftlsim >/dev/null; do
		c_i=$((c_i + 1)); [ $c_i -lt 200 ] || { echo "process $3 did not claim job $2"; return 1; }; sleep 0.05
	done
}
# the files and folders of state/ and results/ of folder $1 named with process $2
own() { ls "$1/state" "$1/results" | grep -E "(^|[.])$2([.]|\$)"; }
t_expect_success 'plan stopped by SIGTERM or SIGINT while it checks the sweep (wb/: ftlsim slowed): exit 143 or 130, no temporary left' '
	for sig in TERM:143 INT:130; do
		T_CALLS=$PWD/pl.calls T_SLOW=30 setsid "$W" plan two.sweep pl.${sig%:*}.d 2>/dev/null & p=$!
		i=0 && until pgrep -P "$p" >/dev/null && [ -d pl.${sig%:*}.d/state ]; do i=$((i + 1)); [ $i -lt 200 ] || exit 1; sleep 0.05; done
		sleep 0.3
		kill -${sig%:*} "-$p"; wait $p; rc=$?
		test $rc = ${sig#*:} || { echo "plan: exit $rc on SIG${sig%:*}"; exit 1; }
		left=$(ls -A pl.${sig%:*}.d/state; ls -A pl.${sig%:*}.d | grep tmp)
		test -z "$left" || { echo "left: $left"; exit 1; }
	done
'
t_expect_success 'two runs at once on one folder: every job computed once, by one of them; both exit 0, the grid done' '
	"$F" plan two.sweep two.d --split 2>/dev/null && test $(wc -l <two.d/jobs.txt) -eq 8 &&
	export T_CALLS="$PWD/two.calls" T_SLOW=0.2 || exit 1
	{ "$W" run two.d --local -j 2 2>two.a; echo $? >two.ra; } &
	{ "$W" run two.d --local -j 2 2>two.b; echo $? >two.rb; } &
	wait && cat two.a two.b &&
	test "$(cat two.ra two.rb)" = "0
0" &&
	"$F" status two.d | grep -qx "8 done, 0 running, 0 failed, 0 waiting" &&
	test $(wc -l <two.calls) -eq 8 && test $(sort -u two.calls | wc -l) -eq 8 &&
	test $("$F" merge two.d | wc -l) -eq 9 && ! ls two.d/state | grep -q .
'
t_expect_success 'a job another runner holds is skipped at once; SIGTERM, SIGINT, SIGHUP and a failure let the claim go; a claim left by SIGKILL is taken over, its leftovers removed by the next run' '
	mkfifo hold.fifo &&
	printf "trace %s/hold.fifo h\noptions --logical-pages 4096 --pages-per-segment 64\n" "$PWD" >h.sweep &&
	"$F" plan h.sweep h.d --no-check 2>/dev/null || exit 1
	h=$(cat h.d/jobs.txt) p=
	trap "[ -z \"\$p\" ] || kill -9 \"-\$p\" 2>/dev/null" EXIT
	# the job waits for a writer of the FIFO until it is stopped
	for sig in TERM:143 INT:130 HUP:129; do
		setsid env --default-signal=INT "$F" run-job h.d $h 2>/dev/null & p=$!
		claimed h.d $h $p || exit 1
		timeout 10 "$F" run-job h.d $h 2>skip.err; rc=$?
		test $rc = 0 || { echo "a second runner: exit $rc"; cat skip.err; exit 1; }
		grep -qx "ftlsweep: job $h: run by another runner (process $p on $(hostname)): skipped" skip.err || { cat skip.err; exit 1; }
		kill -${sig%:*} $p; wait $p; rc=$?
		test $rc = ${sig#*:} || { echo "SIG${sig%:*}: exit $rc"; exit 1; }
		test ! -e h.d/state/$h.running || { echo "SIG${sig%:*}: the mark is left"; exit 1; }
	done
	mv hold.fifo hold.away && t_err 1 "job $h .* failed" "$F" run-job h.d $h && mv hold.away hold.fifo &&
	test ! -e h.d/state/$h.running && test -f h.d/state/$h.failed || exit 1
	setsid "$F" run-job h.d $h 2>/dev/null & p=$!
	claimed h.d $h $p && kill -9 "-$p" && wait $p
	test $? = 137 && test -n "$(own h.d $p)" || { ls h.d/state h.d/results; exit 1; }
	rm hold.fifo && "$G" -p uniform -n 4096 --fill -w 20000 -s 1 -o bin >hold.fifo 2>/dev/null &&
	timeout 20 "$F" run h.d --local --retry-failed 2>/dev/null && "$F" status h.d | grep -qx "1 done, 0 running, 0 failed, 0 waiting" &&
	test -z "$(ls h.d/state)" && test "$(ls h.d/results | tr "\n" " ")" = "$h.1.json $h.csv " || { ls h.d/state h.d/results; exit 1; }
'
t_expect_success 'status removes what a job killed outright left (a FIFO, partial results), not what a running job has; it counts neither' '
	mkfifo lo.fifo &&
	printf "workload w -p uniform -n 4096 --fill -w 20000 -s 1\ntrace %s/lo.fifo t\noptions --logical-pages 4096 --pages-per-segment 64\n" "$PWD" >lo.sweep &&
	"$F" plan lo.sweep lo.d --no-check 2>/dev/null || exit 1
	w=$(sed -n 1p lo.d/jobs.txt) t=$(sed -n 2p lo.d/jobs.txt) pw= pt=
	trap "kill -9 \"-\$pw\" \"-\$pt\" 2>/dev/null" EXIT
	# the workload job held in ftlsim (wb/: slowed), its FIFO made; the trace job waiting for its FIFO
	T_CALLS=$PWD/lo.calls T_SLOW=30 setsid "$W" run-job lo.d $w 2>/dev/null & pw=$!
	setsid "$F" run-job lo.d $t 2>/dev/null & pt=$!
	claimed lo.d $w $pw && claimed lo.d $t $pt || exit 1
	test -n "$(own lo.d $pw)" && test -n "$(own lo.d $pt)" || { ls -R lo.d/state lo.d/results; exit 1; }
	kill -9 "-$pw"; wait $pw
	"$F" status lo.d >lo.st 2>lo.err || exit 1
	cat lo.st lo.err
	grep -qx "0 done, 1 running, 0 failed, 1 waiting" lo.st && grep -q "1 of the waiting jobs were stopped from outside" lo.err &&
	test -z "$(own lo.d $pw)" && test -n "$(own lo.d $pt)" && test -f lo.d/state/$w.running || { ls -R lo.d/state lo.d/results; exit 1; }
	kill -TERM $pt; wait $pt
	test -z "$(own lo.d $pt)" && test -z "$(ls lo.d/results)" && test "$(ls lo.d/state)" = "$w.running"
'
t_expect_success 'a job that failed in another runner after this one listed it is not run again; listed after the failure (--retry-failed), it is' '
	"$F" plan two.sweep nt.d --split 2>/dev/null && h=$(tail -1 nt.d/jobs.txt) && grep -q -- "--policy fifo --op 0.25$" nt.d/jobs/$h.job &&
	export T_CALLS="$PWD/nt.calls" T_FAIL="--op 0.25" &&
	: >nt.list && sleep 0.05 && t_err 1 "failed with status 3" "$W" run-job nt.d $h &&
	t_err 0 "job $h: failed in another runner since this run began: not run again" "$W" run-job nt.d $h "$PWD/nt.list" &&
	test $(wc -l <nt.calls) -eq 1 && test -f nt.d/state/$h.failed &&
	sleep 0.05 && : >nt.list2 && t_err 1 "failed with status 3" "$W" run-job nt.d $h "$PWD/nt.list2" &&
	test $(wc -l <nt.calls) -eq 2
'
t_expect_success 'merge -o: a symbolic link'"'"'s target replaced, not the link; a device written, not replaced (a full one: exit 1)' '
	echo old >target.csv && ln -sf target.csv link.csv && "$F" merge s.d -o link.csv &&
	test -L link.csv && t_cmp local.csv target.csv &&
	ln -sf /proc/self/fd/1 out.lnk && "$F" merge s.d -o out.lnk >via.csv && test -L out.lnk && t_cmp local.csv via.csv &&
	if [ "$(id -u)" = 0 ]; then
		mknod -m 666 full.dev c 1 7 && ! "$F" merge s.d -o full.dev 2>full.err && test -c full.dev &&
		grep -q "error writing" full.err
	fi
'
t_expect_success 'merge -o into a folder that does not exist: exit 1 naming it; --time and --mem in Slurm forms only, and with --slurm only' '
	t_err 1 "^ftlsweep: cannot write ./nonexistent/dir/m.csv. .its folder, ./nonexistent/dir., is missing" "$F" merge s.d -o /nonexistent/dir/m.csv &&
	t_err 2 "^ftlsweep: --time takes a Slurm time limit" "$F" run s.d --slurm --dry-run --time abc &&
	t_err 2 "^ftlsweep: --mem takes a Slurm memory size" "$F" run s.d --slurm --dry-run --mem lots &&
	t_err 2 "go with --slurm" "$F" run s.d --local --time 5 &&
	"$F" plan small.sweep tm.d --split 2>/dev/null &&
	for t in 90 1:30 2:00:00 1-12 1-12:30 1-12:30:00 UNLIMITED; do
		"$F" run tm.d --slurm --dry-run --time $t --mem 2G 2>/dev/null | grep -qx "#SBATCH --time=$t" || exit 1
	done
'
t_expect_success 'a job stopped by SIGTERM leaves no results and no temporary, exits 143' '
	"$F" plan small.sweep k.d 2>/dev/null || exit 1
	h=$(cat k.d/jobs.txt)
	sed -i "s/-w 60000/-w 400000000/" k.d/jobs/$h.job || exit 1
	"$F" run-job k.d $h 2>/dev/null &
	pid=$!
	sleep 1; kill -TERM $pid; wait $pid; rc=$?
	sleep 0.3
	test $rc -eq 143 && test ! -e k.d/results/$h.csv && ! ls k.d/results k.d/state | grep -q "tmp\|running"
'
t_expect_success 'run --slurm --dry-run prints a job array script of 4 tasks' '
	"$F" plan small.sweep d.d --split 2>/dev/null &&
	"$F" run d.d --slurm --dry-run --mem 200M --time 5 --max 2 >arr.sh &&
	grep -qx "#SBATCH --array=0-3%2" arr.sh && grep -qx "#SBATCH --mem=200M" arr.sh &&
	grep -qx "exec .* run-job .*/d.d. \"\$h\" .*/d.d/slurm/tasks-[0-9-]*.txt." arr.sh
'
t_expect_success 'run --slurm without --mem or --time: both from ftlsim --dry-run' '
	"$F" run d.d --slurm --dry-run >arr2.sh &&
	m=$(sed -n "s/^#SBATCH --mem=\([0-9]*\)M$/\1/p" arr2.sh) && test -n "$m" &&
	b=$("$G" -p hotcold -n 8192 --fill -w 60000 -s 3 -o bin 2>/dev/null |
		"$S" -q --logical-pages 8192 --pages-per-segment 64 --op 0.25 --dry-run - | jq .memory.model_bytes) &&
	test "$m" -ge $((b / 1048576 + 64)) && grep -qx "#SBATCH --time=5" arr2.sh
'
t_expect_success 'plot: WA against OP, one line per policy, a PNG' '
	"$F" plot s.d op wa_measured --by policy -o wa.png >/dev/null &&
	test "$(head -c 4 wa.png | od -An -c | tr -d " ")" = "211PNG"
'
t_expect_success 'plot: every point inside the ranges with a margin, the first and last x and the highest y off the frame' '
	mkdir -p gpw && real=$(command -v gnuplot) &&
	printf "#!/bin/sh\nexec \"%s\" \"\$@\" -e \"set print \\\"%s\\\"; print GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX\"\n" "$real" "$TMP/ranges" >gpw/gnuplot &&
	chmod +x gpw/gnuplot && sed "s/^axis op .*/axis op 0.1 0.2 0.3/" small.sweep >fr.sweep &&
	"$F" plan fr.sweep fr.d --split 2>/dev/null && "$F" run fr.d --local -j 2 >/dev/null 2>&1 &&
	PATH="$TMP/gpw:$PATH" "$F" plot fr.d op wa_measured --by policy -o wr.png >/dev/null &&
	cat ranges && awk -F, -v r="$(cat ranges)" "BEGIN { split(r, a, \" \") } /^[0-9.]+,[0-9.]+\$/ {
		if (xl == \"\" || \$1 < xl) xl = \$1; if (\$1 > xh) xh = \$1; if (yl == \"\" || \$2 < yl) yl = \$2; if (\$2 > yh) yh = \$2 }
		END { mx = 0.02 * (a[2] - a[1]); my = 0.02 * (a[4] - a[3]); print xl, xh, yl, yh
			exit !(xl > a[1] + mx && xh < a[2] - mx && yl > a[3] + my && yh < a[4] - my) }" wr.dat
'
t_expect_success 'plot: the axes titled and the lines keyed as ftlplot --results does (its table of titles, plots/labels.sh): "policy = greedy", not "greedy"' '
	"$F" plot s.d op wa_measured --by policy -o wl.svg >/dev/null &&
	grep -q ">over-provisioning (OP)<" wl.svg && grep -q ">write amplification (measured window)<" wl.svg &&
	grep -q ">policy = greedy<" wl.svg && grep -q ">policy = fifo<" wl.svg && ! grep -q ">wa_measured<" wl.svg &&
	"$F" merge s.d -o wl.csv && "$BIN/ftlplot" -o wlp --results wl.csv --x op --y wa_measured --by policy >/dev/null &&
	grep -qx "xlabel = .over-provisioning (OP)." wlp/results.gp && grep -qx "ylabel = .write amplification (measured window)." wlp/results.gp &&
	grep -q "^titles = .policy = greedy;" wlp/results.gp &&
	"$F" plot s.d op segments_cleaned --where policy=fifo -o w1.svg >/dev/null && test $(grep -c ">segments cleaned<" w1.svg) -ge 2 &&
	! grep -q "write amplification (measured window)" "$T_TOP/sweep/ftlsweep" "$T_TOP/plots/ftlplot"
'
t_expect_status 2 'plot: an unknown column is a usage error' '"$F" plot s.d op nosuch --by policy -o x.png'

# Placements with arguments: axis values with commas (fk:6,R=8), quoted
# in the CSV and kept whole in ftlsim's --grid.
cat >"$TMP/comma.sweep" <<EOF
workload hc -p hotcold -n 4096 --fill -w 30000 -s 2
options --logical-pages 4096 --pages-per-segment 64
axis placement single fk:6,R=8 sfs:6,SPAN=256
axis op 0.3 0.4
EOF
csv_col() { # FILE COLUMN: the column's values, parsed as CSV, one a line
	python3 -c "import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline=\"\")): print(r[sys.argv[2]])" "$@"
}
t_expect_success 'an axis value may hold commas; other odd characters are still refused' '
	"$F" plan comma.sweep c.d 2>/dev/null && grep -q "^point	\"fk:6,R=8\",0.3	.* --placement fk:6,R=8 --op 0.3$" c.d/jobs/*.job &&
	printf "workload w -p uniform -n 4096 --fill -w 2000 -s 1\naxis placement single a;b\n" >odd.sweep &&
	t_err 1 "odd.sweep:2: odd characters in \"a;b\"" "$F" plan odd.sweep odd.d &&
	printf "workload w -p uniform -n 4096 --fill -w 2000 -s 1\naxis placement single \"fk:6,R=8\"\n" >odd2.sweep &&
	t_err 1 "odd2.sweep:2: odd characters" "$F" plan odd2.sweep odd2.d
'
t_expect_success 'values with commas: one ftlsim --grid per job; the merged CSV parses (python3 csv) to 6 rows, the placements whole' '
	"$F" run c.d --local 2>/dev/null && "$F" merge c.d -o comma.csv &&
	grep -qF "== workload hc: ftlsim --logical-pages 4096 --pages-per-segment 64 --grid '"'"'placement=single,fk:6,R=8,sfs:6,SPAN=256 op=0.3,0.4'"'"'" c.d/logs/*.err &&
	test $(grep -c "^== " c.d/logs/*.err) -eq 1 && ! grep -q "refused" c.d/logs/*.err &&
	grep -q "^[0-9a-f]*,hc,\"fk:6,R=8\",0.3," comma.csv &&
	csv_col comma.csv placement >pl && test $(wc -l <pl) -eq 6 &&
	printf "single\nfk:6,R=8\nsfs:6,SPAN=256\n" | sort >want && sort -u pl >got && t_cmp want got &&
	csv_col comma.csv wa_measured | grep -c "^[0-9.]*$" | grep -qx 6 &&
	python3 -c "import csv, sys; rows = list(csv.reader(open(\"comma.csv\", newline=\"\"))); sys.exit(len({len(r) for r in rows}) != 1 or len(rows[0]) != 26)"
'
t_expect_success 'values with commas point by point (FTLSWEEP_GRID=0): the same rows, and the WA of ftlsim run by hand' '
	"$F" plan comma.sweep c0.d 2>/dev/null && FTLSWEEP_GRID=0 "$F" run c0.d --local 2>/dev/null &&
	! grep -q -- "--grid" c0.d/logs/*.err && test $(grep -c "^== " c0.d/logs/*.err) -eq 6 &&
	"$F" merge c0.d >comma0.csv && t_cmp comma.csv comma0.csv &&
	"$G" -p hotcold -n 4096 --fill -w 30000 -s 2 -o bin 2>/dev/null |
		"$S" -q --logical-pages 4096 --pages-per-segment 64 --placement sfs:6,SPAN=256 --op 0.4 - >sfs.json &&
	grep -q ",hc,\"sfs:6,SPAN=256\",0.4,.*,$(jq -r .wa_measured sfs.json)," comma.csv
'
t_expect_success 'plot --by and --where on values with commas' '
	"$F" plot c.d op wa_measured --by placement -o comma.png >/dev/null 2>&1 &&
	test "$(head -c 4 comma.png | od -An -c | tr -d " ")" = "211PNG" &&
	"$F" plot c.d op wa_measured --by placement -o all.svg >/dev/null 2>&1 &&
	grep -q ">placement = fk:6,R=8<" all.svg && grep -q ">placement = sfs:6,SPAN=256<" all.svg && grep -q ">placement = single<" all.svg &&
	"$F" plot c.d op wa_measured --by placement --where placement=fk:6,R=8 -o fk.svg >/dev/null 2>&1 &&
	grep -q ">placement = fk:6,R=8<" fk.svg && ! grep -q "single<" fk.svg && ! grep -q "SPAN=256<" fk.svg
'
t_expect_success 'a value --grid would split (fk:6,8: a comma before no KEY=) runs point by point, the same WA as fk:6,R=8' '
	printf "workload hc -p hotcold -n 4096 --fill -w 30000 -s 2\noptions --logical-pages 4096 --pages-per-segment 64 --op 0.3\naxis placement single fk:6,8\n" >pos.sweep &&
	"$F" plan pos.sweep pos.d 2>/dev/null && "$F" run pos.d --local 2>/dev/null &&
	! grep -q -e "--grid" -e "refused" pos.d/logs/*.err && test $(grep -c "^== " pos.d/logs/*.err) -eq 2 &&
	"$F" merge pos.d >pos.csv && csv_col pos.csv placement | tail -1 | grep -qx "fk:6,8" &&
	csv_col comma.csv placement | sed -n 3p | grep -qx "fk:6,R=8" && csv_col comma.csv op | sed -n 3p | grep -qx 0.3 &&
	test "$(csv_col pos.csv wa_measured | tail -1)" = "$(csv_col comma.csv wa_measured | sed -n 3p)"
'
t_expect_success 'ftlsweep run --local stopped by SIGTERM: exit 143 at once, its jobs stopped, none kept, none started after, no temporary' '
	printf "workload big -p uniform -n 262144 --fill -w 30000000 --seed 1\noptions --logical-pages 262144 --pages-per-segment 64\naxis policy greedy cb\n" >sig.sweep &&
	"$F" plan sig.sweep sigd --split 2>/dev/null &&
	{ "$F" run sigd --local -j 1 2>/dev/null & p=$!; sleep 2; kill -TERM $p; wait $p; rc=$?; test $rc = 143; } &&
	sleep 2 && "$F" status sigd 2>&1 | grep -q "^0 done, 0 running, 0 failed, 2 waiting" &&
	! ls sigd/state | grep -q . && ! pgrep -f "run-job .*sigd" >/dev/null
'
t_expect_success 'a sweep without an axis runs its options; a quote in an input name is quoted in the CSV' '
	printf "workload u -p uniform -n 4096 --fill -w 20000 -s 1\noptions --logical-pages 4096 --pages-per-segment 64 --op 0.2\n" >noaxis.sweep &&
	"$F" plan noaxis.sweep na.d 2>/dev/null && "$F" run na.d --local 2>/dev/null &&
	grep -qx "== workload u: ftlsim --logical-pages 4096 --pages-per-segment 64 --op 0.2" na.d/logs/*.err &&
	"$F" merge na.d >na.csv && head -1 na.csv | grep -q "^job,input,events," &&
	test "$(csv_col na.csv physical_pages)" = 4864 && test "$(csv_col na.csv input)" = u &&
	printf "workload a\"b -p uniform -n 4096 --fill -w 20000 -s 1\noptions --logical-pages 4096 --pages-per-segment 64 --op 0.2\n" >qn.sweep &&
	"$F" plan qn.sweep qn.d 2>/dev/null && "$F" run qn.d --local 2>/dev/null && "$F" merge qn.d >qn.csv &&
	grep -q "^[0-9a-f]*,\"a\"\"b\",24096," qn.csv && test "$(csv_col qn.csv input)" = "a\"b"
'

# The README's worked sweep: its sweep file is the bundled one, and its
# table is what the sweep gives.
t_expect_success 'README "Sweeps and clusters": the sweep file and the WA table it quotes' '
	README="$T_TOP/README.md"
	awk "/^## /{ on = (\$0 == \"## Sweeps and clusters\") } on && /^    (trace|options|axis) /" "$README" |
		sed "s/^    //" >readme.sweep &&
	grep -v "^#" "$T_TOP/sweep/rootfs-op.sweep" >file.sweep && t_cmp readme.sweep file.sweep &&
	ln -sf "$T_TOP/traces" traces && "$F" plan "$T_TOP/sweep/rootfs-op.sweep" r.d 2>/dev/null &&
	"$F" run r.d --local -j 2 2>/dev/null && "$F" merge r.d >r.csv &&
	awk -F, "NR > 1 { w[\$3] = w[\$3] sprintf(\" %.2f |\", \$14) } END { print \"| greedy |\" w[\"greedy\"]; print \"| cb |\" w[\"cb\"]; print \"| fifo |\" w[\"fifo\"] }" r.csv >got.table &&
	grep -E "^\| (greedy|cb|fifo) \|" "$README" >readme.table && t_cmp readme.table got.table &&
	head -1 r.csv | cut -d, -f14 | grep -qx wa_measured
'

# A real one-node Slurm cluster: started here, stopped whatever happens.
if [ "$(id -u)" != 0 ]; then
	t_skip 'a 4-task Slurm job array merges to the --local CSV; its tasks skip a held job, take over a dead claim' 'Slurm needs root here (slurmd runs jobs as their user)'
else
	t_expect_success 'a 4-task Slurm job array on a one-node cluster merges to the --local CSV; a task skips at once the job another runner holds, and runs the one whose runner was killed outright' '
		ph=
		trap "sh \"$T_TOP/tests/slurm/cluster.sh\" stop \"$TMP/slurm\"; [ -z \"\$ph\" ] || kill -9 \"-\$ph\" 2>/dev/null" EXIT
		eval "$(sh "$T_TOP/tests/slurm/cluster.sh" start "$TMP/slurm")" || exit 1
		"$F" plan small.sweep sl.d --split 2>/dev/null || exit 1
		h1=$(sed -n 1p sl.d/jobs.txt) h2=$(sed -n 2p sl.d/jobs.txt)
		# job 1 held by a runner still at it (wb/: slowed), job 2 claimed by one killed outright
		T_CALLS=$PWD/sl.calls T_SLOW=60 setsid "$W" run-job sl.d $h1 2>/dev/null & ph=$!
		T_CALLS=$PWD/sl.calls T_SLOW=60 setsid "$W" run-job sl.d $h2 2>/dev/null & pk=$!
		claimed sl.d $h1 $ph && claimed sl.d $h2 $pk || exit 1
		kill -9 "-$pk"; wait $pk
		timeout 120 "$F" run sl.d --slurm --wait --mem 200M --time 5 >sb.out 2>sb.err || { cat sb.out sb.err; exit 1; }
		grep -q "^Submitted batch job" sb.out && ls sl.d/logs/slurm-*_3.out >/dev/null &&
		grep -q "^ftlsweep: 1 jobs are being run by another runner" sb.err &&
		! grep -q "awk" sb.err && test ! -e 5 && # (the wait between squeue looks: an awk expression, not a file 5)
		grep -qx "ftlsweep: job $h1: run by another runner (process $ph on $(hostname)): skipped" sl.d/logs/slurm-*_0.out &&
		"$F" status sl.d | grep -qx "3 done, 1 running, 0 failed, 0 waiting" || { cat sb.err sl.d/logs/slurm-*_0.out; exit 1; }
		kill -9 "-$ph"; wait $ph; ph=
		"$F" run sl.d --local 2>/dev/null && "$F" status sl.d | grep -qx "4 done, 0 running, 0 failed, 0 waiting" &&
		"$F" merge sl.d >slurm.csv && t_cmp local.csv slurm.csv
	'
fi
t_done
