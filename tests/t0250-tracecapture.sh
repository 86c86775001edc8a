#!/bin/sh
# bin/tracecapture on a real device: a loop device holding an ext4 file
# system mounted with online discard, a workload of writes, deletes and
# fstrim, captured; the capture is what blkparse reads (the oracle) and
# tracecat gives blkparse's events exactly. Every tracing setting is
# back as it was, also after a SIGTERM; the loop device and the mount
# are cleaned up whatever happens. Needs root and loop devices.
. "$(dirname "$0")/lib.sh"
TCAP="$BIN/tracecapture"
TC="$BIN/tracecat"

t_expect_success 'tracecapture --help and --version' '
	"$TCAP" --help | grep -q "^usage: tracecapture" && "$TCAP" --version | grep -q "^tracecapture (ftlkit) "
'
t_expect_success 'usage errors exit 2' '
	t_err 2 "no output name" "$TCAP" /dev/null &&
	t_err 2 "--method takes auto, blktrace or ftrace" "$TCAP" --method x -o a /dev/null &&
	t_err 2 "--buffer-kb takes a number of KiB from 1, not .0." "$TCAP" --buffer-kb 0 -o a /dev/null &&
	t_err 1 "^tracecapture: /dev/nosuch-ftlkit: no such file" "$TCAP" -o a /dev/nosuch-ftlkit
'

why=
[ "$(id -u)" = 0 ] || why="not root"
[ -z "$why" ] && ! command -v losetup >/dev/null 2>&1 && why="no losetup"
[ -z "$why" ] && ! command -v blkparse >/dev/null 2>&1 && why="no blkparse (Debian package blktrace)"
[ -z "$why" ] && [ ! -e /dev/loop-control ] && why="no loop devices (/dev/loop-control)"
if [ -n "$why" ]; then
	t_skip 'capture on a loop device with ext4 and discard' "$why"
	t_done
	exit
fi

# The kernel's tracing settings are one for the machine: two suites
# running at once (two checkouts) take turns here.
if command -v flock >/dev/null 2>&1; then
	exec 9>>/tmp/ftlkit-tracecapture.lock && flock -w 900 9 ||
		{ t_skip 'capture on a loop device with ext4 and discard' "another suite held the tracing lock for 15 minutes"; t_done; exit; }
fi
LOOP= MNT="$TMP/mnt"
cleanup() {
	mountpoint -q "$MNT" 2>/dev/null && umount "$MNT"
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM HUP

tstate() {
	T=/sys/kernel/tracing
	for f in current_tracer tracing_on buffer_size_kb options/bin options/context-info; do
		[ -e "$T/$f" ] && echo "$f=$(cat "$T/$f")"
	done
	[ -n "$LOOP" ] && echo "enable=$(cat /sys/class/block/$(basename "$LOOP")/trace/enable)"
}

truncate -s 64M "$TMP/disk.img" && LOOP=$(losetup -f --show "$TMP/disk.img") &&
	mkfs.ext4 -q -E nodiscard "$LOOP" && mkdir -p "$MNT" && mount -o discard "$LOOP" "$MNT" ||
	{ t_skip 'capture on a loop device with ext4 and discard' "cannot set up a loop device with ext4"; t_done; exit; }
tstate >"$TMP/before.txt"

WORK='for i in 1 2 3 4 5 6; do dd if=/dev/urandom of="$MNT/f$i" bs=64k count=$((i * 3)) conv=fsync 2>/dev/null; done;
	rm "$MNT/f2" "$MNT/f4"; sync; cat "$MNT/f5" >/dev/null; fstrim "$MNT"; rm "$MNT/f1"; sync'
# Records land in the file of the CPU that issued them: one CPU's file
# may be empty, the set must not be.
t_expect_success 'a workload of writes, deletes and fstrim is captured' '
	MNT="$MNT" "$TCAP" "$LOOP" -o cap -- sh -c "$WORK" 2>err.txt &&
	test -e cap.blktrace.0 && test -n "$(cat cap.blktrace.* | head -c 1)" && cat err.txt ||
		{ cat err.txt; ls -l cap.*; exit 1; }
'
oracle() {
	blkparse -q -i "$1" -f '%a %d %S %N\n' | awk '
		$1 == "D" {
			fl = substr($2, 1, 1) == "F" && length($2) > 1
			m = substr($2, 1 + fl, 1)
			if ($4 == 0) { if (fl) print "F 0 0"; next }
			if (fl) print "F 0 0"
			printf "%s %.0f %s\n", m == "D" ? "D" : m == "W" ? "W" : "R", $3 * 512, $4
		}' | sort
}
t_expect_success 'tracecat gives blkparse'"'"'s events exactly, with writes and discards among them' '
	oracle cap >want.txt && "$TC" -q -o text cap | awk "{print \$2, \$3, \$4}" | sort >got.txt &&
	t_cmp want.txt got.txt && grep -q "^W " got.txt && grep -q "^D " got.txt &&
	blkparse -i cap -o /dev/null 2>bp.err; ! grep -q "error" bp.err
'
t_expect_success 'every tracing setting is back as it was' '
	tstate | t_cmp before.txt -
'
t_expect_success 'SIGTERM without a command: the capture ends whole, settings restored' '
	"$TCAP" -q "$LOOP" -o sig 2>err.txt & pid=$!
	sleep 1.5 && dd if=/dev/zero of="$MNT/z" bs=4k count=8 conv=fsync 2>/dev/null && sleep 0.5 &&
	kill -TERM $pid && wait $pid && tstate | t_cmp before.txt - &&
	"$TC" -q -o text sig | grep -q " W " ||
	{ cat err.txt; false; }
'
t_expect_success 'started in the background of a script (SIGINT ignored at its start), SIGINT to it alone ends the capture whole, settings restored' '
	"$TCAP" -q "$LOOP" -o bgi 2>bgi.err & pid=$!
	sleep 1.5 && kill -INT $pid &&
	i=0 && while kill -0 $pid 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	alive=0; kill -0 $pid 2>/dev/null && { alive=1; kill -TERM $pid; }
	wait $pid; rc=$?
	cat bgi.err; test $alive = 0 && test $rc = 0 && test -e bgi.blktrace.0 && tstate | t_cmp before.txt -
'
t_expect_success 'an existing capture is not overwritten' '
	t_err 1 "cap.blktrace.0 exists" "$TCAP" "$LOOP" -o cap -- true
'
t_expect_success 'the exit status of the command is tracecapture'"'"'s' '
	"$TCAP" -q "$LOOP" -o st -- sh -c "exit 3"; test $? = 3 && tstate | t_cmp before.txt -
'
t_expect_success 'Ctrl-C (SIGINT to its process group) reaches the command, as at a prompt: exit 130, the capture whole, settings restored' '
	setsid "$TCAP" -q "$LOOP" -o ctc -- sleep 30 2>ctc.err & pid=$!
	sleep 1.5 && pg=$(ps -o pgid= -p $pid | tr -d " ") && kill -INT "-$pg"; wait $pid; rc=$?
	cat ctc.err; test $rc = 130 && test -e ctc.blktrace.0 && tstate | t_cmp before.txt -
'
t_expect_success 'a device traced already (its trace switch on): refused, exit 1, that session left as it was' '
	sys=/sys/class/block/$(basename "$(readlink -f "$LOOP")")/trace &&
	echo 1 >"$sys/enable" && echo read >"$sys/act_mask" &&
	"$TCAP" "$LOOP" -o busy -- true 2>bz.err; rc=$?
	e=$(cat "$sys/enable") m=$(cat "$sys/act_mask")
	echo 0 >"$sys/enable" # (its mask then reads "disabled", as before)
	cat bz.err; test $rc = 1 && grep -q "is being traced already .*not taking it over" bz.err &&
	test "$e/$m" = 1/read && ! ls busy.* 2>/dev/null && tstate | t_cmp before.txt -
'
t_expect_success 'the ftrace path with a tiny ring buffer: overruns counted and said (exit 1), every record kept whole; settings restored' '
	"$TCAP" --method ftrace --buffer-kb 4 "$LOOP" -o tiny -- sh -c "dd if=/dev/zero of=\"$MNT/t\" bs=4k count=4000 oflag=direct 2>/dev/null" 2>err.txt
	rc=$? && tstate | t_cmp before.txt - && ! grep -q "bad magic\|cannot split" err.txt &&
	{ [ $rc = 0 ] || { [ $rc = 1 ] && grep -q "events lost (ring-buffer overruns" err.txt; }; } &&
	"$TC" -q -o text tiny | grep -q " W "
'
t_done
