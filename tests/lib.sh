# tests/lib.sh - the shell test harness, sourced by tests/tNNNN-*.sh.
# Each case prints "ok N - what", "not ok N - what" or "skip N - what";
# tests/run.sh counts them.
#   t_expect_success 'what it checks' 'shell code'
#   t_expect_status STATUS 'what it checks' 'shell code'   (exact exit status)
#   t_skip 'what' 'why'
#   t_expect_figure 'what' 'shell code'   (skipped under the sanitizers)
set -u
T_TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN="$T_TOP/bin"
SAMPLES="$T_TOP/traces/samples"
DATA="$T_TOP/tests/data"
T_N=0
T_FAIL=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ftlkit-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# A signal ends a test through its EXIT traps (the shell's, and one a
# test's subshell sets to stop what it started): without a trap of its
# own, a signal ends a shell without running them.
T_SIGNALS="trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM"
eval "$T_SIGNALS"
export LC_ALL=C

# T_TIME=1: each case's seconds after it ("# 1.23 s"), to find the slow.
t_time() { [ "${T_TIME:-0}" = 1 ] && date +%s.%N; }
t_took() { [ "${T_TIME:-0}" = 1 ] && awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "# %.2f s\n", b - a }'; }

t_expect_success() {
	T_N=$((T_N + 1))
	t0=$(t_time)
	if (eval "$T_SIGNALS"; cd "$TMP" && eval "$2") >"$TMP/.out" 2>&1; then
		echo "ok $T_N - $1"
	else
		echo "not ok $T_N - $1"
		sed 's/^/#   /' "$TMP/.out" | tail -20
		T_FAIL=$((T_FAIL + 1))
	fi
	t_took "$t0"
	return 0
}

t_expect_status() {
	T_N=$((T_N + 1))
	(eval "$T_SIGNALS"; cd "$TMP" && eval "$3") >"$TMP/.out" 2>&1
	rc=$?
	if [ "$rc" = "$1" ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2 (exit $rc, want $1)"
		sed 's/^/#   /' "$TMP/.out" | tail -20
		T_FAIL=$((T_FAIL + 1))
	fi
}

t_skip() {
	T_N=$((T_N + 1))
	echo "skip $T_N - $1 ($2)"
}

# Whether the programs are the sanitizers' build (make SAN=1, CI's
# second pass).
t_sanitized() { grep -q fsanitize "$T_TOP/build/flags" 2>/dev/null; }

# t_expect_figure 'what' 'shell code': a case whose subject is a figure
# at scale (a closed form within 1%, one WA below another): under the
# sanitizers, at a quarter of the speed, it is skipped; the code it runs
# is run under them by the test's smaller cases.
t_expect_figure() {
	if t_sanitized; then
		t_skip "$1" "the sanitizers' build: a figure at scale, its code run under them by the smaller cases"
	else
		t_expect_success "$1" "$2"
	fi
}

# Compare two files; show a diff on failure.
t_cmp() {
	cmp -s "$1" "$2" || { diff "$1" "$2" | head -20; return 1; }
}

# Run a command, expect exit status $1 and stderr matching regex $2.
t_err() {
	want=$1 re=$2
	shift 2
	"$@" >"$TMP/.stdout" 2>"$TMP/.stderr"
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, want $want"; cat "$TMP/.stderr"; return 1; }
	grep -Eq -- "$re" "$TMP/.stderr" || { echo "stderr lacks /$re/:"; cat "$TMP/.stderr"; return 1; }
}

t_done() {
	[ "$T_FAIL" = 0 ]
}

# The tests' own queries of JSON run gojq where it is installed (make
# deps installs it): jq 1.6 takes 35 ms to start, gojq 5, and the suite
# starts a query some 1,500 times a pass. gojq always sorts an object's
# keys (jq's -S, dropped here); a case that checks the order of keys
# calls "command jq". The programs under test, and scripts the tests
# run (ftlsweep, ftlplot, the paper), use jq itself.
if command -v gojq >/dev/null 2>&1; then
	jq() {
		# (a name of its own: a function's variables are the caller's)
		for t_jq_arg; do
			shift
			[ "$t_jq_arg" = -S ] || set -- "$@" "$t_jq_arg"
		done
		gojq "$@"
	}
fi
