#!/bin/sh
# tests/slurm/cluster.sh - a one-node Slurm cluster on this machine for
# the sweep tests: its own munge key and socket, slurmctld and slurmd
# from Debian's slurm-wlm, every file under DIR.
#
#   sh tests/slurm/cluster.sh start DIR   start, wait until the node is idle;
#                                         prints "export SLURM_CONF=DIR/slurm.conf"
#   sh tests/slurm/cluster.sh stop DIR    cancel every job, stop the daemons
#
# Runs as root (slurmd starts jobs as their user). No cgroups: the
# configuration (slurm.conf.in beside this script) tracks processes
# through /proc and does not confine tasks.
set -u
cmd=${1:?usage: cluster.sh start|stop DIR}
D=${2:?usage: cluster.sh start|stop DIR}
here=$(cd "$(dirname "$0")" && pwd)

fail() {
	echo "cluster.sh: $*" >&2
	for f in "$D/munge/munged.log" "$D/slurmctld.log" "$D/slurmd.log"; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
	done
	exit 1
}

# A TCP port nobody listens on, from a range unlikely to be in use.
free_port() {
	p=$(( $1 + $$ % 2000 ))
	while ss -ltnH 2>/dev/null | awk '{ print $4 }' | grep -q ":$p\$"; do p=$((p + 1)); done
	echo "$p"
}

stop() {
	export SLURM_CONF=$D/slurm.conf
	if [ -f "$D/slurmctld.pid" ]; then
		scancel --full --quiet --user=root 2>/dev/null
		# Let slurmd end the tasks it started before it goes.
		i=0
		while [ $i -lt 20 ] && [ -n "$(squeue -h 2>/dev/null)" ]; do sleep 0.25; i=$((i + 1)); done
	fi
	# The three daemons at once (each takes a second or two to go), then
	# whatever is left after 10 s, by force.
	pids=
	for f in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		kill "$pid" 2>/dev/null && pids="$pids $pid"
		rm -f "$f"
	done
	i=0
	while [ $i -lt 100 ]; do
		left=
		for pid in $pids; do kill -0 "$pid" 2>/dev/null && left="$left $pid"; done
		pids=$left
		[ -n "$pids" ] || break
		sleep 0.1
		i=$((i + 1))
	done
	for pid in $pids; do kill -9 "$pid" 2>/dev/null; done
	return 0
}

start() {
	for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
		command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || fail "$p is not installed (make deps: slurm-wlm, munge)"
	done
	PATH=$PATH:/usr/sbin
	mkdir -p "$D/munge" "$D/state" "$D/spool" || fail "cannot create $D"
	chmod 700 "$D" "$D/munge"
	# munge: a key of our own, a socket of our own.
	dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$D/munge/munge.key" ||
		fail "cannot write the munge key"
	munged --force --key-file="$D/munge/munge.key" --socket="$D/munge/munge.socket.2" \
		--pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" \
		--seed-file="$D/munge/munged.seed" || fail "munged did not start"
	host=$(hostname -s)
	cpus=$(nproc)
	mem=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
	ctl=$(free_port 26000)
	slurmd_port=$(free_port $((ctl + 1)))
	sed -e "s|@DIR@|$D|g; s|@HOST@|$host|g; s|@PORT@|$ctl|; s|@PORT1@|$slurmd_port|; s|@CPUS@|$cpus|; s|@MEM@|$mem|" \
		"$here/slurm.conf.in" >"$D/slurm.conf" || fail "cannot write slurm.conf"
	export SLURM_CONF=$D/slurm.conf
	slurmctld -i || fail "slurmctld did not start"
	slurmd || fail "slurmd did not start"
	i=0
	until sinfo -h -o '%T' 2>/dev/null | grep -qx idle; do
		i=$((i + 1))
		[ $i -lt 80 ] || fail "the node did not come up within 20 s: $(sinfo -h 2>&1)"
		sleep 0.25
	done
	echo "export SLURM_CONF=$D/slurm.conf"
}

case $cmd in
start) start ;;
stop) stop ;;
*) echo "usage: cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
