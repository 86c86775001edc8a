#!/bin/sh
# t0456-signal-writes: a signal that comes while a program is blocked
# writing to a full pipe (a reader that has not read yet) loses nothing
# of what it writes. The first signal interrupts a blocked call, so that
# a read waiting on a pipe sees it (lib/sig.h); a write it interrupted
# (EINTR) was dropped by stdio: ftlsim's summary then had a hole in it
# and exited 0, tracecat's stream lost the events stdio held and it said
# "error writing standard output: Interrupted system call". (The memory
# available, in the summary's memory object, varies from run to run.)
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"

# blocked PID: wait (up to 10 s) until PID sleeps in a write to a pipe.
blocked() {
	n=0
	while [ $n -lt 200 ]; do
		grep -q pipe_write "/proc/$1/wchan" 2>/dev/null && return 0
		sleep 0.05
		n=$((n + 1))
	done
	echo "never blocked on the pipe: $(cat "/proc/$1/wchan" 2>/dev/null)"
	return 1
}

# run_held PROG-ARGS...: PROG writes to the FIFO out.fifo, which a
# reader holds open without reading; once PROG is blocked on it, SIGTERM,
# then the reader reads it all into out. rc: PROG's status.
run_held() {
	rm -f out.fifo && mkfifo out.fifo || return 1
	"$@" >out.fifo 2>err &
	pid=$!
	exec 5<out.fifo
	blocked $pid || { kill $pid; exec 5<&-; wait $pid; return 1; }
	kill -TERM $pid
	cat <&5 >out
	exec 5<&-
	wait $pid
	rc=$?
}

t_expect_success 'ftlsim, SIGTERM while its summary waits on a full pipe: the summary is whole (the run was complete), exit 0' '
	"$G" -q -p uniform -n 4096 --fill -w 20000 -o bin >g.ev &&
	vals=$(awk "BEGIN { for (i = 0; i < 40; i++) printf \"%s%.3f\", (i ? \",\" : \"\"), 0.05 + i / 100 }") &&
	"$BIN/ftlsim" -q --logical-pages 4096 --pages-per-segment 32 --grid "op=$vals" g.ev >whole.json &&
	test $(wc -c <whole.json) -gt 100000 &&
	run_held "$BIN/ftlsim" -q --logical-pages 4096 --pages-per-segment 32 --grid "op=$vals" g.ev &&
	cat err && test $rc = 0 && test ! -s err &&
	jq -e ".partial == false and (.configurations | length) == 40" out >/dev/null &&
	jq -S "del(.timing, .memory)" out >a && jq -S "del(.timing, .memory)" whole.json >b && t_cmp a b
'
t_expect_success 'tracecat, SIGTERM while it waits on a full pipe: every event converted goes out, whole, exit 143, no write error' '
	"$G" -q -p uniform -n 65536 --fill -w 200000 -o bin >big.ev &&
	run_held "$BIN/tracecat" -q -o bin big.ev &&
	cat err && test $rc = 143 && ! grep -q "error writing" err && grep -q "stopped by SIGTERM" err &&
	test $(( ($(wc -c <out) - 16) % 32 )) -eq 0 &&
	n=$(( ($(wc -c <out) - 16) / 32 )) &&
	"$BIN/tracecat" -q -o text big.ev | head -n $n >want.txt &&
	"$BIN/tracecat" -q -o text out 2>/dev/null >got.txt; t_cmp want.txt got.txt
'
t_expect_success 'tracegen, SIGTERM while it waits on a full pipe: its stream ends on a whole event, exit 143, no write error' '
	run_held "$G" -q -p uniform -n 65536 -w 100000000 -o bin &&
	cat err && test $rc = 143 && ! grep -q "error writing" err &&
	test $(( ($(wc -c <out) - 16) % 32 )) -eq 0 && test $(wc -c <out) -gt 65536
'
# Standard error likewise: a note waiting on a full pipe when the signal
# comes is written whole once the reader reads (it was lost: EINTR).
t_expect_success 'tracestat, SIGTERM while its note waits on a full stderr pipe: the note goes out whole, then the stop' '
	"$G" -q -p uniform -n 4096 -w 20000 -o bin >n.ev &&
	python3 - "$BIN/tracestat" n.ev >note.txt <<"PY"
import fcntl, os, signal, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ: one page
os.set_blocking(w, False)
try:
    while True:
        os.write(w, b"x" * 512)  # full: the first byte the program writes blocks
except BlockingIOError:
    pass
os.set_blocking(w, True)
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=w)
os.close(w)
for _ in range(200):
    if "pipe_write" in open("/proc/%d/wchan" % p.pid).read():
        break
    time.sleep(0.05)
else:
    sys.exit("never blocked on the pipe")
p.send_signal(signal.SIGTERM)
data = b""
while True:
    b = os.read(r, 65536)
    if not b:
        break
    data += b
p.wait()
sys.stdout.write(data.lstrip(b"x").decode())
print("rc=%d" % p.returncode)
PY
	cat note.txt && grep -qx "tracestat: n.ev: detected format .ev." note.txt && ! grep -q "Interrupted" note.txt &&
	tail -n 1 note.txt | grep -qx "rc=143" && grep -q "stopped by SIGTERM" note.txt
'
t_done
