#!/bin/sh
# tracecapture - record a block trace of one device as the standard
# per-CPU files NAME.blktrace.N that blkparse and tracecat read: with
# blktrace(8) when the kernel lets it run, otherwise through the
# kernel's ftrace `blk` tracer in tracefs, which works where debugfs is
# locked down. `make` installs it as bin/tracecapture.
#
#   tracecapture DEVICE -o NAME [-- COMMAND [ARG...]]
set -u
# Started in the background of a script, a program starts with SIGINT
# ignored, and a shell can neither trap nor reset a signal ignored at
# its start: it starts again with SIGINT, SIGTERM and SIGHUP at their
# defaults (env(1), coreutils 8.31 or later), so that they stop it as
# they stop the C programs.
if [ -z "${FTLKIT_SIGNALS:-}" ] && env --default-signal=INT true 2>/dev/null; then
	FTLKIT_SIGNALS=1 exec env --default-signal=INT,TERM,HUP /bin/sh "$0" "$@"
fi
unset FTLKIT_SIGNALS
VERSION=@VERSION@
me=tracecapture

usage() {
	cat <<EOF
usage: tracecapture [options] DEVICE -o NAME [-- COMMAND [ARG...]]
Record the block I/O of DEVICE (e.g. /dev/sdb, /dev/loop0) into the
per-CPU files NAME.blktrace.0 ... NAME.blktrace.N, as blktrace writes
them: read them with tracecat NAME or blkparse -i NAME. The capture ends
when COMMAND exits (its exit status is tracecapture's), or without a
COMMAND on SIGINT, SIGTERM or SIGHUP.

blktrace is used when it works; where it cannot run (debugfs locked
down), the ftrace blk tracer of tracefs (/sys/kernel/tracing, mounted if
needed) records the same blk_io_trace records, split per CPU here. Every
tracing setting changed is restored at the end, also on a signal. Events
the kernel lost (per-CPU buffer overruns) are reported, and make the exit
status 1. Needs root.

Options:
  -o, --output NAME    the base name of the per-CPU files (required)
      --method M       auto (default), blktrace or ftrace
      --buffer-kb N    ftrace: per-CPU ring buffer size (default 8192)
  -q, --quiet          no report on stderr but errors and lost events
  -h, --help           show this help and exit
  -V, --version        show the version and exit

Exit status: COMMAND's, else 0 ok, 1 capture failed or events lost,
2 usage error.
EOF
}

die() { echo "$me: $*" >&2; exit 1; }
usage_error() { echo "$me: $*" >&2; echo "Try 'tracecapture --help'." >&2; exit 2; }
say() { [ "$quiet" = 1 ] || echo "$me: $*" >&2; }

out= method=auto bufkb=8192 quiet=0 dev=
while [ $# -gt 0 ]; do
	case $1 in
	-o | --output | --method | --buffer-kb)
		[ $# -ge 2 ] || usage_error "option '$1' needs an argument"
		case $1 in
		-o | --output) out=$2 ;;
		--method) method=$2 ;;
		--buffer-kb) bufkb=$2 ;;
		esac
		shift 2 ;;
	--output=* ) out=${1#*=}; shift ;;
	--method=*) method=${1#*=}; shift ;;
	--buffer-kb=*) bufkb=${1#*=}; shift ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	-V | --version) echo "tracecapture (ftlkit) $VERSION"; exit 0 ;;
	--) shift; break ;;
	-*) usage_error "unknown option '$1'" ;;
	*) [ -z "$dev" ] || usage_error "one DEVICE only (got '$dev' and '$1')"; dev=$1; shift ;;
	esac
done
[ -n "$dev" ] || usage_error "no DEVICE to trace"
[ -n "$out" ] || usage_error "no output name: -o NAME"
case $method in auto | blktrace | ftrace) ;; *) usage_error "--method takes auto, blktrace or ftrace, not '$method'" ;; esac
case $bufkb in '' | *[!0-9]* | 0 | 0*) usage_error "--buffer-kb takes a number of KiB from 1, not '$bufkb'" ;; esac
[ -e "$dev" ] || die "$dev: no such file"
[ -b "$dev" ] || die "$dev: not a block device"
[ "$(id -u)" = 0 ] || die "tracing block I/O needs root"
name=$(basename "$(readlink -f "$dev")")
sysdir=/sys/class/block/$name/trace
[ -d "$sysdir" ] || die "$dev: no $sysdir (a kernel without CONFIG_BLK_DEV_IO_TRACE?)"
outdir=$(dirname "$out")
[ -d "$outdir" ] || die "$outdir: no such directory"
for f in "$out".blktrace.*; do
	[ -e "$f" ] && die "$f exists: remove the old capture first, or choose another NAME"
done

# One capture at a time: the tracer, its options and the device's trace
# switch are global to the kernel.
lock=/run/lock/ftlkit-tracecapture.lock
[ -d /run/lock ] || lock=/tmp/ftlkit-tracecapture.lock
exec 9>"$lock"
if ! flock -n 9; then
	say "another capture holds $lock: waiting for it (at most 120 s)"
	flock -w 120 9 || die "another capture holds $lock"
fi
# A device traced already (blktrace or another tool has its trace switch
# on): taking it over would end that session.
[ "$(cat "$sysdir/enable" 2>/dev/null)" != 1 ] ||
	die "$dev is being traced already ($sysdir/enable is 1: blktrace or another tool): not taking it over"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracecapture.XXXXXX") || die "cannot make a temporary folder"
T=/sys/kernel/tracing
restore=""  # shell commands that put back what was changed, newest first
reader= bt= mounted=0 status=0 child=
undo() { restore="$1
$restore"; }
cleanup() {
	trap - EXIT INT TERM HUP
	[ -n "$child" ] && kill "$child" 2>/dev/null
	[ -n "$reader" ] && kill "$reader" 2>/dev/null && wait "$reader" 2>/dev/null
	[ -n "$bt" ] && kill -INT "$bt" 2>/dev/null && wait "$bt" 2>/dev/null
	printf '%s\n' "$restore" | while IFS= read -r cmd; do
		[ -n "$cmd" ] && eval "$cmd"
	done
	rm -rf "$tmp"
}
trap 'cleanup' EXIT
trap 'stopped=1' INT TERM HUP
stopped=0

# The command, or a wait for a signal. Sets status.
run_workload() {
	if [ $# -gt 0 ]; then
		# A command in the background of a script starts with SIGINT and
		# SIGQUIT ignored: put them back, so that Ctrl-C reaches it (and
		# what it starts) as at a prompt.
		perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec { $ARGV[0] } @ARGV; print STDERR "$ARGV[0]: $!\n"; exit 127' -- "$@" &
		child=$!
		while :; do
			wait "$child"
			rc=$?
			# a trapped signal interrupts wait: stop the command
			if [ "$stopped" = 1 ] && kill -0 "$child" 2>/dev/null; then
				kill "$child" 2>/dev/null
				continue
			fi
			kill -0 "$child" 2>/dev/null || break
		done
		child=
		status=$rc
	else
		say "tracing $dev; stop with Ctrl-C (SIGINT), SIGTERM or SIGHUP"
		while [ "$stopped" = 0 ]; do sleep 1 & wait $! 2>/dev/null; done
	fi
}

try_blktrace() {
	command -v blktrace >/dev/null 2>&1 || return 1
	mountpoint -q /sys/kernel/debug 2>/dev/null || {
		mount -t debugfs nodev /sys/kernel/debug 2>/dev/null || return 1
		undo "umount /sys/kernel/debug 2>/dev/null"
	}
	blktrace -d "$dev" -o "$(basename "$out")" -D "$outdir" >"$tmp/bt.out" 2>"$tmp/bt.err" &
	bt=$!
	sleep 1
	if ! kill -0 "$bt" 2>/dev/null; then
		wait "$bt" 2>/dev/null
		bt=
		rm -f "$out".blktrace.*
		# the device traced by another tool since the check above
		! grep -q "Device or resource busy" "$tmp/bt.err" ||
			die "$dev is being traced already (blktrace: $(head -1 "$tmp/bt.err")): not taking it over"
		return 1
	fi
	return 0
}

# Settings the ftrace path changes: saved, then set; restored by cleanup.
set_file() { # FILE VALUE
	old=$(cat "$1") || die "cannot read $1"
	case $old in
	*"(expanded: "*) # a ring buffer not yet used: the size it expands to
		old=${old#*expanded: }
		old=${old%)*} ;;
	X) # per-CPU sizes that differ: each CPU's put back
		for f in "${1%/*}"/per_cpu/cpu*/buffer_size_kb; do
			[ -e "$f" ] && undo "echo '$(cat "$f")' > '$f' 2>/dev/null"
		done
		old= ;;
	esac
	[ -z "$old" ] || undo "echo '$old' > '$1' 2>/dev/null"
	echo "$2" >"$1" || die "cannot write '$2' to $1"
}

ftrace_start() {
	if [ ! -e "$T/trace_pipe" ]; then
		mount -t tracefs nodev "$T" 2>"$tmp/mount.err" ||
			die "cannot mount tracefs at $T: $(cat "$tmp/mount.err")"
		undo "umount '$T' 2>/dev/null"
	fi
	grep -qw blk "$T/available_tracers" || die "the kernel has no blk tracer ($T/available_tracers)"
	[ "$(cat "$T/current_tracer")" = nop ] ||
		die "the tracer '$(cat "$T/current_tracer")' is in use ($T/current_tracer): not taking it over"
	set_file "$T/tracing_on" 0
	set_file "$T/buffer_size_kb" "$bufkb"
	set_file "$sysdir/enable" 1
	set_file "$T/current_tracer" blk
	set_file "$T/options/bin" 1
	set_file "$T/options/context-info" 0
	: >"$T/trace" # empty the ring buffers (and their overrun counts)
	cat "$T/trace_pipe" >"$tmp/raw" &
	reader=$!
	set_file "$T/tracing_on" 1
}

# Sum of a per-CPU stats field ("overrun", "dropped events") over CPUs.
stat_sum() {
	cat "$T"/per_cpu/cpu*/stats 2>/dev/null | awk -v k="$1" -F: '$1 == k { s += $2 } END { print s + 0 }'
}

ftrace_stop() {
	sync
	echo 0 >"$T/tracing_on"
	echo 0 >"$sysdir/enable"
	# let the reader drain every ring buffer, then stop it
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ "$(stat_sum entries)" = 0 ] && break
		sleep 0.2
	done
	sleep 0.3
	kill "$reader" 2>/dev/null
	wait "$reader" 2>/dev/null
	reader=
	lost=$(($(stat_sum overrun) + $(stat_sum "dropped events")))
	ncpu=$(getconf _NPROCESSORS_CONF)
	# Split the records per CPU (field cpu, at byte 40 of the 48-byte
	# v7 header), renumbering sequence per CPU as blktrace would.
	perl -e '
		my ($raw, $out, $ncpu) = @ARGV;
		open(my $in, "<:raw", $raw) or die "$raw: $!\n";
		# A buffer read in large chunks, consumed from $pos.
		my ($buf, $pos, $eof) = ("", 0, 0);
		sub need {
			my $n = shift;
			while (length($buf) - $pos < $n && !$eof) {
				if ($pos > (1 << 20)) { substr($buf, 0, $pos) = ""; $pos = 0; }
				my $r = read($in, my $chunk, 1 << 20);
				die "$raw: $!\n" unless defined $r;
				$eof = 1 if $r == 0;
				$buf .= $chunk;
			}
			return length($buf) - $pos >= $n;
		}
		my (%fh, %seq);
		my ($max, $lost) = ($ncpu - 1, 0);
		while (need(1)) {
			# An overrun: the kernel writes a line of text between the
			# records, "CPU:N [LOST M EVENTS]", in binary mode too.
			if (substr($buf, $pos, 4) eq "CPU:") {
				need(128);
				substr($buf, $pos, 128) =~ /^CPU:\d+ \[LOST (\d+) EVENTS\]\n/
					or die "an unreadable line in the ftrace output\n";
				$lost += $1;
				$pos += length($&);
				next;
			}
			die "truncated record header at the end of the ftrace output\n" unless need(48);
			my $hdr = substr($buf, $pos, 48);
			my ($magic, $cpu, $pdu) = (unpack("V", $hdr), unpack("v", substr($hdr, 40, 2)),
				unpack("v", substr($hdr, 46, 2)));
			die sprintf("bad magic 0x%08x in the ftrace output\n", $magic)
				if ($magic & 0xffffff00) != 0x65617400;
			die "truncated payload at the end\n" unless need(48 + $pdu);
			my $p = substr($buf, $pos + 48, $pdu);
			$pos += 48 + $pdu;
			$max = $cpu if $cpu > $max;
			unless ($fh{$cpu}) {
				open($fh{$cpu}, ">:raw", "$out.blktrace.$cpu") or die "$out.blktrace.$cpu: $!\n";
			}
			substr($hdr, 4, 4) = pack("V", ++$seq{$cpu});
			print { $fh{$cpu} } $hdr, $p;
		}
		for my $c (0 .. $max) {
			next if $fh{$c};
			open(my $e, ">", "$out.blktrace.$c") or die "$out.blktrace.$c: $!\n";
			close($e);
		}
		my $total = 0;
		$total += $_ for values %seq;
		print "$total $lost\n";
	' "$tmp/raw" "$out" "$ncpu" >"$tmp/count" || {
		rm -f "$out".blktrace.*
		die "cannot split the ftrace output into $out.blktrace.N (none kept)"
	}
	read -r nrec nlost <"$tmp/count"
	# the overruns the lines in the output said, when the counters missed them
	[ "$nlost" -le "$lost" ] || lost=$nlost
	say "$nrec records (ftrace blk tracer) in $out.blktrace.0-$(($(ls "$out".blktrace.* | wc -l) - 1))"
	if [ "$lost" -gt 0 ]; then
		echo "$me: $lost events lost (ring-buffer overruns; try a larger --buffer-kb)" >&2
		[ "$status" = 0 ] && status=1
	fi
}

blktrace_stop() {
	kill -INT "$bt" 2>/dev/null
	wait "$bt" 2>/dev/null
	bt=
	lost=$(sed -n 's/.*Dropped \([0-9]*\) events.*/\1/p' "$tmp/bt.out" "$tmp/bt.err" | awk '{s += $1} END {print s + 0}')
	say "blktrace: $(tail -1 "$tmp/bt.out")"
	if [ "$lost" -gt 0 ]; then
		echo "$me: $lost events lost (blktrace dropped them)" >&2
		[ "$status" = 0 ] && status=1
	fi
}

used=
if [ "$method" != ftrace ] && try_blktrace; then
	used=blktrace
elif [ "$method" = blktrace ]; then
	die "blktrace cannot trace $dev: $(head -1 "$tmp/bt.err" 2>/dev/null)"
else
	[ "$method" = auto ] && say "blktrace cannot run here ($(head -1 "$tmp/bt.err" 2>/dev/null || echo "not installed")): using the ftrace blk tracer"
	ftrace_start
	used=ftrace
fi
run_workload "$@"
if [ "$used" = blktrace ]; then blktrace_stop; else ftrace_stop; fi
cleanup
exit "$status"
