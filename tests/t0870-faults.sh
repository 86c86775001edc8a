#!/bin/sh
# Faults injected, as SQLite tests itself: a small job of each program
# is run once to count its allocations, reads and writes, then once per
# N = 1, 2, ... with the Nth of each failing (build/fault/PROG, see
# tests/fault/fault.c). Every run either completes with the same output
# as the run without a fault, or exits 1 with a message naming the
# cause ("PROG: ... out of memory" / an I/O error / no space); never a
# crash, a hang, a sanitizer report (SAN=1: a leak) or a partial output
# file. Writing to /dev/full is an error, exit 1, for every program.
. "$(dirname "$0")/lib.sh"

F="$T_TOP/build/fault"
# At most this many N per program and kind: every N up to it, else an
# even spread that includes the first and the last.
# FAULT_MAXN=100000 runs every N (about 1,300 runs, a minute here).
# Under the sanitizers (a process costs some 3 times more) 20, spread
# the same way: the first, the last and the points between.
MAXN=50
t_sanitized && MAXN=20
MAXN=${FAULT_MAXN:-$MAXN}
SANRE='Sanitizer|runtime error|AddressSanitizer|LeakSanitizer'

# The small inputs.
head -40 "$SAMPLES/msr/hm_0-head1000.csv" | gzip >"$TMP/msr.csv.gz"
# a blktrace capture of two per-CPU files, 3.9 MB: read in 31 calls
for f in "$SAMPLES"/blktrace/rootfs-discard/*.blktrace.*; do
	ln -s "$f" "$TMP/vda.blktrace.${f##*.}"
done
"$BIN/tracegen" --pattern hotcold --pages 256 --writes 768 --fill -o bin >"$TMP/hc.ev" 2>/dev/null

# Each job: NAME|PROG|OUTPUT FILES|ARGS (run in a folder holding the inputs).
JOBS="tracecat|tracecat||-q -o text msr.csv.gz
tracecat-bin|tracecat||-q -o bin hc.ev
tracecat-blktrace|tracecat||-q -o bin vda
tracestat|tracestat|sh.csv sk.csv|-q --size-hist sh.csv --skew-cdf sk.csv msr.csv.gz
ftlsim|ftlsim|c.csv h.csv e.csv|-q --logical-pages 256 --op 0.5 --pages-per-segment 16 --policy cb --placement hotcold:2 --curve c.csv --hist h.csv --erase-hist e.csv hc.ev
ftlsim-wear|ftlsim|e.csv|-q --logical-pages 256 --op 0.5 --pages-per-segment 8 --placement agesort:4 --wear-level static:2 --precondition random --check --erase-hist e.csv hc.ev
ftlsim-footprint|ftlsim||-q --logical-space footprint --op 0.5 --pages-per-segment 4 msr.csv.gz
tracegen|tracegen||--pattern zipf:1.2 --pages 256 --writes 256 --fill --trim-prob 0.1 -o text
wamodel|wamodel||--sweep 0.1:0.3:0.1 --csv"

# job_dir DIR: a fresh folder with the inputs.
job_dir() {
	rm -rf "$1" && mkdir -p "$1" && cp -P "$TMP/msr.csv.gz" "$TMP/hc.ev" "$TMP"/vda.blktrace.* "$1/"
}

# sweep NAME PROG OUTS ARGS KIND COUNT: run N = 1..COUNT+1 (bounded by MAXN).
sweep() {
	name=$1 prog=$2 outs=$3 args=$4 kind=$5 count=$6
	ref=$TMP/ref-$name
	last=$((count + 1))
	if [ "$last" -le "$MAXN" ]; then
		ns=$(seq 1 "$last")
	else
		ns=$(awk -v m="$MAXN" -v l="$last" 'BEGIN { for (i = 0; i < m; i++) print 1 + int(i * (l - 1) / (m - 1)) }' | uniq)
	fi
	runs=0 fails=0
	d=$TMP/run && job_dir "$d"
	# One process a check where it can (a sweep is some 1,200 runs):
	# the reference's output without its timing once, the stderr checks
	# in one awk, globs for files in place of ls.
	sed '/"timing": {/,/}/d' "$ref/stdout" >"$ref/stdout.cmp"
	msg="^$prog: .*(out of memory|Cannot allocate memory|Input/output error|No space left on device)"
	for n in $ns; do
		cd "$d" || return 1
		for f in $outs ./*.tmp.*; do
			[ ! -e "$f" ] || rm -f "$f"
		done
		FTLKIT_FAULT=$kind:$n timeout 30 "$F/$prog" $args >stdout 2>stderr
		rc=$?
		cd "$TMP" || return 1
		runs=$((runs + 1))
		why=
		err=$(awk -v san="$SANRE" -v msg="$msg" '$0 ~ san { s = 1 } $0 ~ msg { m = 1 } END { print s ? "san" : m ? "msg" : "none" }' "$d/stderr")
		if [ "$err" = san ]; then
			why="sanitizer report"
		elif [ "$rc" = 0 ]; then
			sed '/"timing": {/,/}/d' "$d/stdout" | cmp -s - "$ref/stdout.cmp" || why="exit 0, standard output differs from the run without a fault"
			for o in $outs; do cmp -s "$d/$o" "$ref/$o" || why="exit 0, $o differs from the run without a fault"; done
		elif [ "$rc" = 1 ]; then
			[ "$err" = msg ] || why="exit 1 without a message naming the cause"
			for o in $outs; do
				[ ! -e "$d/$o" ] || cmp -s "$d/$o" "$ref/$o" || why="exit 1 left a partial output file $o"
			done
			for f in "$d"/*.tmp.*; do
				[ ! -e "$f" ] || why="exit 1 left a temporary file: ${f##*/}"
			done
		elif [ "$rc" = 124 ]; then
			why="hung (killed after 30 s)"
		else
			why="exit $rc"
		fi
		if [ -n "$why" ]; then
			fails=$((fails + 1))
			[ "$fails" -gt 5 ] && continue
			echo "$name, $kind:$n: $why"
			sed 's/^/    stderr: /' "$d/stderr" | head -5
		fi
	done
	echo "$name $kind: $runs runs (count $count), $fails failed" >>"$TMP/summary"
	[ "$fails" = 0 ]
}

# Each job once without a fault, counting its calls.
t_expect_success 'the jobs run without a fault; their allocations, reads and writes counted' '
	echo "$JOBS" | while IFS="|" read -r name prog outs args; do
		[ -x "$F/$prog" ] || { echo "$F/$prog is not built (make tests-build)"; exit 1; }
		ref=$TMP/ref-$name
		job_dir "$ref"
		(cd "$ref" && FTLKIT_FAULT_COUNT=counts "$F/$prog" $args >stdout 2>stderr) ||
			{ echo "$name fails without a fault:"; cat "$ref/stderr"; exit 1; }
		set -- $(cat "$ref/counts")
		# every job allocates and writes: a zero means the hook is not linked in
		[ "$2" -gt 0 ] && [ "$6" -gt 0 ] || { echo "$name: counted $*"; exit 1; }
		echo "$name|$prog|$outs|$args|$2|$4|$6" >>"$TMP/jobs"
	done
'
touch "$TMP/jobs"

while IFS='|' read -r name prog outs args na nr nw; do
	for k in alloc read write; do
		case $k in alloc) c=$na ;; read) c=$nr ;; write) c=$nw ;; esac
		t_expect_success "$name: the Nth $k fails, N = 1..$((c + 1)): exit 1 with a message, or the same output" \
			"sweep '$name' '$prog' '$outs' '$args' $k $c"
	done
done <"$TMP/jobs"

for p in tracecat tracestat ftlsim tracegen wamodel; do
	case $p in
	tracecat) a="-q -o text $TMP/hc.ev" ;;
	tracestat) a="-q $TMP/hc.ev" ;;
	ftlsim) a="-q --logical-pages 256 --op 0.5 --pages-per-segment 16 $TMP/hc.ev" ;;
	tracegen) a="--pattern uniform --pages 64 -o text" ;;
	wamodel) a="--spare-factor 0.1" ;;
	esac
	t_expect_success "$p: writing to /dev/full is an error, exit 1" "
		\"\$BIN/$p\" $a >/dev/full 2>err.txt; rc=\$?
		[ \$rc = 1 ] && grep -q '^$p: .*No space left on device' err.txt || { echo exit \$rc; cat err.txt; exit 1; }
	"
done
if command -v parallel >/dev/null 2>&1; then
	t_expect_success 'ftlsweep: status and merge to /dev/full are errors, exit 1' '
		printf "workload u -p uniform -n 1024 --fill -w 2000 -s 1\noptions --logical-pages 1024 --pages-per-segment 16\naxis op 0.25 0.5\n" >s.sweep &&
		"$BIN/ftlsweep" plan s.sweep sw >/dev/null && "$BIN/ftlsweep" run sw --local -j 1 >/dev/null 2>&1 &&
		[ "$("$BIN/ftlsweep" merge sw | wc -l)" = 3 ] &&
		for c in status merge; do
			"$BIN/ftlsweep" $c sw >/dev/full 2>err.txt; rc=$?
			[ $rc = 1 ] && grep -q "^ftlsweep: .*error writing" err.txt || { echo "$c: exit $rc"; cat err.txt; exit 1; }
		done
	'
fi
if command -v gnuplot >/dev/null 2>&1; then
	t_expect_success 'ftlplot: writing to /dev/full is an error, exit 1' "
		\"\$BIN/ftlsim\" -q --logical-pages 256 --op 0.5 --pages-per-segment 16 --curve c.csv $TMP/hc.ev >/dev/null &&
		\"\$BIN/ftlplot\" --curve c.csv -o figs >/dev/full 2>err.txt; rc=\$?
		[ \$rc = 1 ] && grep -q '^ftlplot: ' err.txt || { echo exit \$rc; cat err.txt; exit 1; }
	"
fi

[ -f "$TMP/summary" ] && sed 's/^/# /' "$TMP/summary"
t_done
