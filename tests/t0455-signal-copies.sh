#!/bin/sh
# t0455-signal-copies: one request to stop, delivered twice, still ends
# with the summary. timeout(1) sends its signal to the child and then to
# its own process group; Slurm signals a step's processes and their
# group. A copy within a second of the first is ignored; a second signal
# a second or more later, or a second Ctrl-C at a terminal, stops at once
# (lib/sig.h).
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"
F="$BIN/ftlsim"
S="$BIN/tracestat"

# An endless stream: a FIFO in.fifo fed by tracegen until killed.
feed() {
	rm -f in.fifo && mkfifo in.fifo || return 1
	"$G" -p uniform -n 65536 -w 4000000000 -s 1 -o bin >in.fifo 2>/dev/null &
	feeder=$!
}
unfeed() {
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	return 0
}

# 50 runs of ftlsim and 50 of tracestat, each reading an endless stream
# and stopped by "timeout -s TERM T" at T from 0.01 s to 2 s (spaced
# geometrically), ten of each at a time and a busy loop beside them: 21
# processes on the CPUs at once. Every run must print its summary, marked
# partial, and exit 143. The one run let go without a
# summary is one stopped before the program's main installed its
# handler (no event read; nothing on stderr either), and only at the
# shortest times: under 0.05 s; under the sanitizers, whose start-up
# takes some 16 ms of CPU a program with 21 of them sharing the CPUs and
# a test beside them, under 0.25 s.
early_t=0.05
t_sanitized && early_t=0.25
t_expect_success 'timeout -s TERM at 0.01 s to 2 s, 50 runs each of ftlsim and tracestat under load: a partial summary every time' '
	(while :; do :; done) &
	busy=$!
	trap "kill $busy 2>/dev/null" EXIT
	n=50 i=0
	awk -v n=$n "BEGIN { for (i = 0; i < n; i++) printf \"%.3f\\n\", 0.01 * exp(log(200) * i / (n - 1)) }" >times
	while [ $i -lt $n ]; do
		pids=
		for j in 0 1 2 3 4 5 6 7 8 9; do
			t=$(sed -n "$((i + 1))p" times)
			echo $t >t.$i
			{ "$G" -p uniform -n 65536 -w 4000000000 -s $i -o bin 2>/dev/null |
				timeout --preserve-status -s TERM $t "$F" -q --logical-pages 65536 --pages-per-segment 64 - \
					>f.$i 2>fe.$i; echo $? >frc.$i; } &
			pids="$pids $!"
			{ "$G" -p uniform -n 65536 -w 4000000000 -s $i -o bin 2>/dev/null |
				timeout --preserve-status -s TERM $t "$S" -q - >s.$i 2>se.$i; echo $? >src.$i; } &
			pids="$pids $!"
			i=$((i + 1))
		done
		wait $pids
	done
	kill $busy
	bad=0 early=0
	i=0
	while [ $i -lt $n ]; do
		for p in f s; do
			t=$(cat t.$i) rc=$(cat ${p}rc.$i)
			if [ ! -s $p.$i ] && [ ! -s ${p}e.$i ] && [ "$rc" = 143 ] &&
				awk -v t=$t -v e=$early_t "BEGIN { exit !(t < e) }"; then
				early=$((early + 1))
				continue
			fi
			if [ "$rc" != 143 ] || grep -q "stopped at once" ${p}e.$i ||
				! jq -e ".partial == true" $p.$i >/dev/null 2>&1; then
				echo "$p run $i at $t s: exit $rc, $(wc -c <$p.$i) bytes of summary, stderr: $(cat ${p}e.$i)"
				bad=$((bad + 1))
			fi
		done
		i=$((i + 1))
	done
	echo "$bad runs of 100 without their summary; $early stopped before their handler (under $early_t s)"
	test $bad = 0
'

# ftlsim with 46 models prints a summary of 125 KB: more than a pipe
# holds, so with nobody reading its stdout it stays in the write of the
# summary after the first signal, where the tests can send it more.
grid="--grid op=$(seq -s, 0.05 0.01 0.50)"

t_expect_success 'a second SIGTERM 0.1 s after the first is a copy: ignored, the whole summary printed, exit 143' '
	rm -f out.fifo && mkfifo out.fifo && feed || exit 1
	{ sleep 1; cat; } <out.fifo >o.json &
	reader=$!
	"$F" -q --logical-pages 65536 --pages-per-segment 64 $grid in.fifo >out.fifo 2>err.txt &
	pid=$!
	sleep 0.4; kill -TERM $pid; sleep 0.1; kill -TERM $pid
	wait $pid
	rc=$?; unfeed; wait $reader
	cat err.txt
	test $rc = 143 && ! grep -q "stopped at once" err.txt &&
	jq -e ".partial == true and (.configurations | length) == 46" o.json
'
t_expect_success 'a second SIGTERM 1.2 s after the first stops at once (nobody reads the summary), exit 143' '
	rm -f out.fifo && mkfifo out.fifo && feed || exit 1
	sleep 10 <out.fifo &
	reader=$!
	"$F" -q --logical-pages 65536 --pages-per-segment 64 $grid in.fifo >out.fifo 2>err.txt &
	pid=$!
	sleep 0.4; kill -TERM $pid; sleep 0.3
	kill -0 $pid || { echo "gone after the first signal"; cat err.txt; kill $reader; unfeed; exit 1; }
	sleep 0.9; kill -TERM $pid
	wait $pid
	rc=$?; kill $reader; unfeed
	cat err.txt
	test $rc = 143 && grep -qx "ftlsim: stopped at once by a second SIGTERM (no summary)" err.txt &&
	! ls -a | grep "\.tmp"
'
t_expect_success 'a second Ctrl-C at the terminal 0.3 s after the first stops at once, exit 130' '
	rm -f out.fifo && mkfifo out.fifo && feed || exit 1
	sleep 10 <out.fifo &
	reader=$!
	python3 -c "
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(\"/bin/sh\", [\"sh\", \"-c\", \"exec \\\"\$0\\\" \\\"\$@\\\" >out.fifo 2>err.txt\", \"$F\", \"-q\",
             \"--logical-pages\", \"65536\", \"--pages-per-segment\", \"64\"] + \"$grid\".split() + [\"in.fifo\"])
time.sleep(0.5)
os.write(fd, b\"\\x03\")
time.sleep(0.3)
assert os.waitpid(pid, os.WNOHANG) == (0, 0), \"gone after the first Ctrl-C\"
os.write(fd, b\"\\x03\")
t = time.time()
_, st = os.waitpid(pid, 0)
print(\"status\", st >> 8, \"after %.2f s\" % (time.time() - t))
sys.exit(0 if st >> 8 == 130 and time.time() - t < 2 else 1)
"
	rc=$?; kill $reader; unfeed
	cat err.txt
	test $rc = 0 && grep -qx "ftlsim: stopped at once by a second SIGINT (no summary)" err.txt
'
t_done
