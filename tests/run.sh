#!/bin/sh
# tests/run.sh - run every unit test program and shell test; end with
# one line "N passed, N failed, N skipped". A test program that dies
# (crash, sanitizer report) counts as one more failure.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
log=$(mktemp)
one=$(mktemp)
trap 'rm -f "$log" "$one"' EXIT
run_one() {
	echo "== $*"
	start=$(date +%s)
	"$@" >"$one" 2>&1
	rc=$?
	cat "$one"
	cat "$one" >>"$log"
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$one"; then
		echo "not ok - $* exited with status $rc" | tee -a "$log"
	fi
	echo "   ($(($(date +%s) - start)) s)"
}
for t in build/tests/test_*; do
	[ -x "$t" ] && run_one "$t"
done
for t in tests/t[0-9]*.sh; do
	[ -f "$t" ] && run_one sh "$t"
done
pass=$(grep -c '^ok ' "$log")
fail=$(grep -c '^not ok' "$log")
skip=$(grep -c '^skip ' "$log")
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
