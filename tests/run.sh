#!/bin/sh
# tests/run.sh - run every unit test program and shell test; end with
# one line "N passed, N failed, N skipped". A test program that dies
# (crash, sanitizer report) counts as one more failure.
#
# The tests run TEST_JOBS at a time (default: the number of cores), the
# longest first; each one's output is printed whole, in the suite's
# order, as soon as it and every test before it are done. Every test
# works in a folder of its own (tests/lib.sh), so they do not meet.
# TEST_JOBS=1 runs them one after the other.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) echo "run.sh: TEST_JOBS must be a positive number" >&2; exit 2 ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftlkit-run.XXXXXX") || exit 1
pid=
cleanup() {
	[ -n "$pid" ] && kill -TERM "-$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# The suite, in order: one command a line.
for t in build/tests/test_*; do
	[ -x "$t" ] && echo "$t"
done >"$dir/list"
for t in tests/t[0-9]*.sh; do
	[ -f "$t" ] && echo "sh $t"
done >>"$dir/list"
n=$(grep -c . "$dir/list")
[ "$n" -gt 0 ] || { echo "run.sh: no tests (make tests-build)" >&2; exit 1; }

# One test: its output, exit status and seconds, then a done mark.
cat >"$dir/one.sh" <<'EOF'
i=$1; shift
start=$(date +%s)
"$@" >"$D/$i.out" 2>&1 </dev/null
echo $? >"$D/$i.rc"
times >"$D/$i.t"
echo "$(($(date +%s) - start)) s, $(tr 'ms' '  ' <"$D/$i.t" | awk 'NR == 2 { printf "%.0f", $1 * 60 + $2 + $3 * 60 + $4 }') CPU s" >"$D/$i.s"
: >"$D/$i.done"
EOF

# The order they start in: the longest (measured on a 2-core machine:
# the quick paper 170 s, the sweeps 30 s, the fault builds 28 s, ...)
# first, so that the last to finish is a short one; then the rest.
first="t0700-paper t0900-sweep t0910-sweep-shards t0870-faults t0410-ftlsim-accuracy t0485-footprints
t0430-ftlsim-properties t0450-signals t0455-signal-copies t0440-placements t0720-figures t0480-ftlsim-volumes"
{
	for f in $first; do
		grep -n "/$f\.sh\$" "$dir/list"
	done
	grep -n . "$dir/list"
} | awk '{ i = $0; sub(/:.*/, "", i); if (seen[i]++) next; c = $0; sub(/^[0-9]+:/, "", c); print i, c }' >"$dir/queue"

# Started in a session (so a process group) of its own, so that an
# interrupt stops every test still running.
D=$dir setsid xargs -P "$jobs" -L 1 sh "$dir/one.sh" <"$dir/queue" &
pid=$!

log=$dir/log
: >"$log"
i=1
while [ "$i" -le "$n" ]; do
	while [ ! -e "$dir/$i.done" ]; do
		kill -0 "$pid" 2>/dev/null || [ -e "$dir/$i.done" ] || {
			echo "run.sh: the test runner stopped before test $i" >&2
			exit 1
		}
		sleep 0.2
	done
	cmd=$(sed -n "${i}p" "$dir/list")
	echo "== $cmd"
	cat "$dir/$i.out"
	cat "$dir/$i.out" >>"$log"
	rc=$(cat "$dir/$i.rc")
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$dir/$i.out"; then
		echo "not ok - $cmd exited with status $rc" | tee -a "$log"
	fi
	echo "   ($(cat "$dir/$i.s"))"
	i=$((i + 1))
done
wait "$pid"
pid=
pass=$(grep -c '^ok ' "$log")
fail=$(grep -c '^not ok' "$log")
skip=$(grep -c '^skip ' "$log")
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
