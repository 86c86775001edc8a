#!/bin/sh
# t0450-signals: SIGTERM, SIGHUP and SIGINT handled alike by every
# program, for each of its outputs: exit 128 + the signal, every output
# file complete or absent (no temporary left), a stream on stdout ending
# on a whole event, a summary on stdout marked "partial".
# Each case stops a program either while it is busy (an endless stream
# through a FIFO) or while it waits on a read (a stream that pauses).
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"

# feed busy|blocked: a FIFO in.fifo fed endlessly, or with 20000 events
# and then held open without more (the file fed made once they are
# written).
feed() {
	rm -f in.fifo fed && mkfifo in.fifo || return 1
	feeding=$1
	if [ "$1" = busy ]; then
		"$G" -p uniform -n 65536 -w 4000000000 -s 1 -o bin >in.fifo 2>/dev/null &
	else
		("$G" -p uniform -n 1000 -w 20000 -s 1 -o bin 2>/dev/null; : >fed; exec sleep 60) >in.fifo &
	fi
	feeder=$!
}
unfeed() {
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	return 0
}
# stop SIG SECONDS CMD...: run CMD, send SIG after SECONDS (a blocked
# feed: SECONDS after its last event is written, so that a loaded
# machine still has the program waiting on a read); rc is its status.
stop() {
	sig=$1 after=$2
	shift 2
	"$@" &
	pid=$!
	if [ "${feeding:-}" = blocked ]; then
		n=0
		while [ ! -e fed ] && [ $n -lt 300 ]; do
			sleep 0.1
			n=$((n + 1))
		done
	fi
	sleep "$after"
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
}
no_tmp() {
	if ls -a | grep '\.tmp'; then echo "temporaries left"; return 1; fi
}
want_rc() {
	[ "$rc" = "$1" ] || { echo "exit $rc, want $1"; return 1; }
}

# --- tracestat -------------------------------------------------------------
S="$BIN/tracestat"
t_expect_success 'tracestat, busy, SIGTERM (timeout): partial JSON, no side file, exit 143' '
	feed busy && timeout --preserve-status 0.5 "$S" -q --size-hist h.csv --skew-cdf k.csv in.fifo >o.json
	rc=$?; unfeed
	want_rc 143 && no_tmp && test ! -e h.csv && test ! -e k.csv &&
	jq -e ".partial == true and .traces[0].partial == true and .traces[0].events > 0" o.json
'
t_expect_success 'tracestat, waiting on a read, SIGHUP: partial CSV of every event read, exit 129' '
	feed blocked && stop HUP 0.5 "$S" -q --csv --size-hist h.csv in.fifo >o.csv
	unfeed
	want_rc 129 && no_tmp && test ! -e h.csv &&
	grep -qx "in.fifo,partial,1" o.csv && grep -qx "in.fifo,events,20000" o.csv
'
t_expect_success 'tracestat, busy, SIGINT: partial JSON, exit 130' '
	feed busy && stop INT 0.5 "$S" -q --skew-cdf k.csv in.fifo >o.json
	unfeed
	want_rc 130 && no_tmp && test ! -e k.csv && jq -e ".partial == true" o.json
'
t_expect_success 'tracestat, not interrupted: complete side files, no "partial"' '
	"$G" -p uniform -n 1000 -w 5000 -s 1 -o bin >in.bin 2>/dev/null &&
	"$S" -q --size-hist h.csv --skew-cdf k.csv in.bin >o.json && no_tmp &&
	test -s h.csv && test -s k.csv && jq -e "has(\"partial\") | not" o.json
'

# --- tracecat --------------------------------------------------------------
C="$BIN/tracecat"
t_expect_success 'tracecat, busy, SIGTERM: the binary stream ends on a whole event, without its end record, exit 143' '
	feed busy && timeout --preserve-status 0.5 "$C" -q -o bin in.fifo >o.bin
	rc=$?; unfeed
	want_rc 143 && test -s o.bin && test $(( ($(wc -c <o.bin) - 16) % 32 )) -eq 0 &&
	t_err 1 "o.bin: byte [0-9]+: the event stream ends after [0-9]+ events, without its end record" \
		"$C" -q -o text o.bin && test -s .stdout
'
t_expect_success 'tracecat, waiting on a read, SIGHUP: every event read is written, as text, exit 129' '
	feed blocked && stop HUP 0.5 "$C" -q -o text in.fifo >o.txt
	unfeed
	want_rc 129 && test $(wc -l <o.txt) -eq 20000 && "$C" -q -o text o.txt >/dev/null
'
t_expect_success 'tracecat, waiting on a read, SIGINT: the binary stream is whole, exit 130' '
	feed blocked && stop INT 0.5 "$C" -q -o bin in.fifo >o.bin
	unfeed
	want_rc 130 && test $("$C" -q -o text o.bin | wc -l) -eq 20000
'

# --- tracegen --------------------------------------------------------------
t_expect_success 'tracegen, SIGTERM: the binary stream ends on a whole event, exit 143' '
	timeout --preserve-status 0.5 "$G" -p uniform -n 65536 -w 4000000000 -o bin >o.bin 2>/dev/null
	rc=$?
	want_rc 143 && test -s o.bin && test $(( ($(wc -c <o.bin) - 16) % 32 )) -eq 0 &&
	"$C" -q -o text o.bin | tail -1 | grep -q " W "
'
t_expect_success 'tracegen --fill, SIGHUP: the text stream ends on a whole line, exit 129' '
	stop HUP 0.5 "$G" -p uniform -n 400000000 --fill -w 1 -o text >o.txt 2>/dev/null
	want_rc 129 && test -s o.txt && test "$(tail -c 1 o.txt | od -An -c | tr -d " ")" = "\\n" &&
	"$C" -q -o text o.txt >/dev/null
'

# --- wamodel ---------------------------------------------------------------
W="$BIN/wamodel"
slow='-b 4096 --choices 2,10,100 --sweep 0.01:0.5:0.01'
t_expect_success 'wamodel, SIGTERM: nothing printed, exit 143' '
	timeout --preserve-status 0.5 "$W" $slow >o.json
	rc=$?
	want_rc 143 && test ! -s o.json
'
t_expect_success 'wamodel --csv, SIGINT: nothing printed, exit 130' '
	stop INT 0.5 "$W" $slow --csv >o.csv
	want_rc 130 && test ! -s o.csv
'
# --- ftlsim ----------------------------------------------------------------
F="$BIN/ftlsim"
rm -f fc.csv fh.csv fe.csv
outs="--curve fc.csv --hist fh.csv --erase-hist fe.csv"
t_expect_success 'ftlsim, busy, SIGTERM (timeout): partial summary, no CSV file, exit 143' '
	# (1.5 s: under the sanitizers on a loaded machine 0.5 s could end
	# it before its first page write)
	feed busy && timeout --preserve-status 1.5 "$F" -q --logical-pages 65536 --pages-per-segment 64 $outs in.fifo >o.json
	rc=$?; unfeed
	want_rc 143 && no_tmp && test ! -e fc.csv && test ! -e fh.csv && test ! -e fe.csv &&
	jq -e ".partial == true and .host_pages_written > 0" o.json
'
t_expect_success 'ftlsim, waiting on a read, SIGHUP: partial summary of every event read, exit 129' '
	feed blocked && stop HUP 0.5 "$F" -q --logical-pages 1000 --pages-per-segment 16 --curve fc.csv in.fifo >o.json
	unfeed
	want_rc 129 && no_tmp && test ! -e fc.csv &&
	jq -e ".partial == true and .input.events > 19900 and .host_pages_written == .input.events" o.json
'
t_expect_success 'ftlsim, in the first pass (extent), SIGINT: the input read so far, exit 130' '
	feed blocked && stop INT 0.5 "$F" -q --pages-per-segment 16 --hist fh.csv in.fifo >o.json
	unfeed
	want_rc 130 && no_tmp && test ! -e fh.csv &&
	jq -e ".partial == true and .input.events_read == 20000" o.json
'
t_expect_success 'ftlsim --grid, busy, SIGHUP: no configuration file, none named in the partial summary, exit 129' '
	feed busy && timeout --preserve-status -s HUP 1.5 "$F" -q --logical-pages 65536 --pages-per-segment 64 \
		--grid op=0.1,0.2 --curve fc.csv in.fifo >o.json
	rc=$?; unfeed
	want_rc 129 && no_tmp && ! ls | grep -q "^fc" &&
	jq -e ".partial == true and (.configurations | length) == 2 and all(.configurations[]; has(\"files\") | not)" o.json
'
t_expect_success 'ftlsim, busy, SIGINT: --erase-hist absent, exit 130' '
	feed busy && stop INT 0.5 "$F" -q --logical-pages 65536 --pages-per-segment 64 --erase-hist fe.csv in.fifo >o.json
	unfeed
	want_rc 130 && no_tmp && test ! -e fe.csv && jq -e ".partial == true" o.json
'
t_expect_success 'an output naming a device or a FIFO is written in place, never replaced by a renamed temporary' '
	"$BIN/tracegen" -p uniform -n 4096 -w 20000 -o bin >dev.ev 2>/dev/null &&
	mkfifo fifo.csv && { cat fifo.csv >from-fifo.csv & } &&
	"$BIN/ftlsim" -q --logical-pages 4096 --pages-per-segment 64 --curve /dev/null --hist /dev/stderr \
		--erase-hist fifo.csv dev.ev >/dev/null 2>stderr.txt && wait &&
	test -c /dev/null && test -L /dev/stderr && test -p fifo.csv && grep -q "^kind,snapshot," stderr.txt &&
	test $(wc -l <from-fifo.csv) -gt 1 && ! ls /dev | grep -q "null\.tmp"
'
t_expect_success 'ftlsim, SIGINT while the timeline is written (a timeline of a million rows): exit 130, no file, no temporary' '
	"$G" -p uniform -n 4096 -w 1000 -r 1000 -s 1 -o bin >r.ev 2>/dev/null &&
	"$BIN/ftlsim" -q --logical-pages 4096 --device femu,channels=1,dies=1 --time-scale 100 --timeline-interval 0.1 \
		--timeline tl.csv --latency lat.csv --dry-run r.ev 2>/dev/null | jq -e ".memory.timeline_bytes > 50000000" >/dev/null &&
	timeout --preserve-status -s INT 0.5 "$BIN/ftlsim" -q --logical-pages 4096 --device femu,channels=1,dies=1 \
		--time-scale 100 --timeline-interval 0.1 --timeline tl.csv --latency lat.csv r.ev >o.json 2>/dev/null
	rc=$?
	if [ $rc = 130 ]; then
		! test -e tl.csv && ! test -e lat.csv && ! ls | grep -q "\.tmp" && jq -e ".partial" o.json >/dev/null
	else
		echo "finished before the signal (exit $rc): the files complete" &&
		test $rc = 0 && test $(wc -l <tl.csv) -gt 1000000
	fi
'
# SIGPIPE: the reader of a program's output gone. The program ends as
# by default (killed by SIGPIPE), and leaves no temporary of a side file.
cat >"$TMP/epipe.py" <<'EOF'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)  # every write to w: EPIPE and SIGPIPE
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=w)
print(p.returncode)
EOF
t_expect_success 'SIGPIPE on stderr while side files are open: killed by it, no temporary left' '
	mkdir -p pipe && cd pipe &&
	test "$(python3 ../epipe.py "$BIN/ftlsim" --logical-pages 65536 --curve c.csv --hist h.csv ../in.bin)" = -13 &&
	no_tmp && test ! -e c.csv &&
	test "$(python3 ../epipe.py "$BIN/tracestat" --size-hist s.csv ../in.bin)" = -13 && no_tmp
'
t_done
