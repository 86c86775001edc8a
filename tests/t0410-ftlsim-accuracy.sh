#!/bin/sh
# ftlsim against the closed forms at test scale (2^18 pages, b = 64,
# fill, 4U warm-up, 8U measured: about 4,400 segments), the TRIM
# argument, and every bundled real trace end to end. Full-size runs:
# tests/validate_model.sh (make validate).
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"
S="$BIN/ftlsim"
W="$BIN/wamodel"
U=262144
wa() { python3 -c "import json,sys; print(json.load(sys.stdin)['wa_measured'])"; }
# |a/b - 1| <= tol
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; printf "sim %s model %s diff %.4f\n", a, b, d; exit !(d <= t) }'; }
model() { "$W" --csv --spare-factor "$1" --pages-per-segment 64 | awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }'; }
sim() { # policy sf [extra ftlsim args]
	p=$1 sf=$2
	shift 2
	"$G" --pattern uniform --pages $U --fill --writes $((12 * U)) --seed 7 2>/dev/null |
		"$S" -q --logical-pages $U --pages-per-segment 64 --spare-factor "$sf" --policy "$p" \
			--warmup-writes $((4 * U)) "$@" - | wa
}

# Under the sanitizers (CI's second pass) the closed forms are skipped:
# their numbers do not depend on the build, which the first pass has
# checked, and at 3 M writes a run they are the pass's longest; the
# real traces below still replay under the sanitizers.
if t_sanitized; then
	t_skip 'fifo, random, greedy, d-choices and TRIM against their closed forms' "the sanitizers' build: the numbers are the plain build's check"
else
	for sf in 0.1 0.25; do
		t_expect_success "fifo at Sf=$sf within 2% of Desnoyers' Lambert-W formula" "
			near \$(sim fifo $sf) \$(model $sf wa_fifo) 0.02
		"
		t_expect_success "random at Sf=$sf within 2% of 1/Sf" "
			near \$(sim random $sf) \$(model $sf wa_random) 0.02
		"
	done
	t_expect_success 'greedy at Sf=0.05 within 2% of the mean-field value 8.850' '
		near $(sim greedy 0.05) $(model 0.05 wa_greedy_mf) 0.02
	'
	t_expect_success 'dchoices:1 is random (1/Sf), dchoices:64 is close to greedy' '
		near $(sim dchoices:1 0.1) 10 0.02 && near $(sim dchoices:64 0.1) $(model 0.1 wa_greedy_mf) 0.02
	'

	# The TRIM argument: with discards of q of the requests, TRIM lowers WA
	# as q grows; without TRIM the device keeps every page live and stays at
	# the q = 0 value.
	trimrun() { # q trim|no-trim
		"$G" --pattern uniform --pages $U --fill --writes $((12 * U)) --trim-prob "$1" --seed 3 2>/dev/null |
			"$S" -q --logical-pages $U --pages-per-segment 64 --spare-factor 0.1 --policy greedy \
				--warmup-writes $((2 * U)) --"$2" - | wa
	}
	t_expect_success 'TRIM: WA falls as the discard share q grows; without TRIM it stays at q = 0' '
		w0=$(trimrun 0 trim); t1=$(trimrun 0.1 trim); t2=$(trimrun 0.2 trim)
		n1=$(trimrun 0.1 no-trim); n2=$(trimrun 0.2 no-trim)
		echo "q=0 $w0; trim: q=.1 $t1 q=.2 $t2; no-trim: q=.1 $n1 q=.2 $n2"
		awk -v a="$w0" -v b="$t1" -v c="$t2" "BEGIN { exit !(b < 0.8 * a && c < 0.8 * b) }" &&
		near "$n1" "$w0" 0.03 && near "$n2" "$w0" 0.03
	'
fi

# Real traces: every bundled sample replays with and without TRIM, and
# a pipe through tracecat gives the same summary as the file itself.
strip() { python3 -c "
import json, sys
d = json.load(sys.stdin)
d.pop('timing', None); d['input'].pop('path', None); d['input'].pop('format', None)
print(json.dumps(d, sort_keys=True))"; }
for f in blktrace/centos7-dm/sda blktrace/rootfs-discard/vda_rootfs_pycompile \
	blkparse/hadoop.blkparse.txt.gz msr/hm_0-head1000.csv \
	systor17/caffeine_systor17-traces-sample.csv.gz "tencent/cbs-sample.csv.bz2 --volume 1063"; do
	a=${f#* }; [ "$a" = "$f" ] && a=""
	f=${f%% *}
	for trim in trim no-trim; do
		t_expect_success "$f $a replays end to end (--$trim), WA >= 1, and tracecat | ftlsim - gives the same summary" "
			\"\$S\" -q --logical-space footprint --pages-per-segment 16 --op 0.1 --precondition random --$trim --sort $a \"\$SAMPLES/$f\" | strip >a.json &&
			\"\$BIN/tracecat\" -q --sort $a \"\$SAMPLES/$f\" | \"\$S\" -q --logical-space footprint --pages-per-segment 16 --op 0.1 --precondition random --$trim - | strip >b.json &&
			python3 -c \"import json; d = json.load(open('a.json')); assert d['wa_total'] >= 1 and d['host_pages_written'] > 0, d\" &&
			t_cmp a.json b.json
		"
	done
done
t_done
