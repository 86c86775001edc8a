#!/bin/sh
# t0457-signal-late: a signal that comes once a program's run is over,
# while it ends (tracestat writing its side files, ftlplot writing its
# folder's manifest), is too late to stop it: it ends as it would have,
# its results whole and not called partial, leaving nothing of its own
# behind.
. "$(dirname "$0")/lib.sh"
P="$BIN/ftlplot"

t_expect_success 'tracestat, SIGTERM while it writes a side file (a FIFO whose reader waits): every file whole, the summary not partial, exit 0' '
	"$BIN/tracegen" -q -p uniform -n 131072 --volumes 2000 --fill -w 1 -o bin >v.ev &&
	mkfifo pv.fifo &&
	{ "$BIN/tracestat" -q --size-hist sh.csv --per-volume pv.fifo v.ev >s.json 2>err & p=$!; } &&
	exec 5<pv.fifo && n=0 &&
	while ! grep -q pipe_write /proc/$p/wchan 2>/dev/null && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done &&
	kill -TERM $p && cat <&5 >pv.csv; exec 5<&-
	wait $p; rc=$?
	cat err; echo "exit $rc"
	test $rc = 0 && test -s sh.csv && test $(wc -l <pv.csv) = 2001 && ! ls -a | grep -q "\.tmp" &&
	jq -e "(has(\"partial\") | not) and (.traces[0] | has(\"partial\") | not) and .traces[0].events == 131073" s.json
'


# wait_for DIR REGEX PID: until a name in DIR matches REGEX (or PID ends).
wait_for() {
	while kill -0 "$3" 2>/dev/null; do
		ls -a "$1" | grep -q "$2" && return 0
	done
	echo "$3 ended before a name matched $2"
	return 1
}

command -v gnuplot >/dev/null 2>&1 || t_skip 'ftlplot stopped while it writes its manifest' 'no gnuplot'
command -v gnuplot >/dev/null 2>&1 && t_expect_success 'ftlplot, SIGTERM while it writes its manifest: the run ends whole, exit 0, no list or manifest temporary left' '
	"$BIN/tracegen" -q -p uniform -n 4096 --fill -w 20000 -o bin >g.ev &&
	"$BIN/ftlsim" -q --logical-pages 4096 --pages-per-segment 32 --curve c.csv g.ev >/dev/null &&
	mkdir d &&
	# an earlier run'"'"'s manifest of 400 names gone since: the end reads
	# each, so that it lasts a while
	{ echo "# the files ftlplot wrote"; i=0; while [ $i -lt 400 ]; do echo "gp/x$i.gp"; i=$((i + 1)); done; } \
		>d/.ftlplot-files &&
	{ "$P" -o d --curve c.csv >out 2>err & p=$!; } &&
	wait_for d "^\.ftlplot-files\.[0-9]" $p && kill -TERM $p
	wait $p; rc=$?
	cat err; ls -a d
	test $rc = 0 && test -s d/wa-curve.png && ! ls -a d | grep -q "^\.ftlplot-\(made\|used\|files\.\)" &&
	grep -qx wa-curve.png d/.ftlplot-files && ! grep -q "^gp/x" d/.ftlplot-files
'
t_done
