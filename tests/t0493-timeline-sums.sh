#!/bin/sh
# t0493-timeline-sums: the timeline (--timeline) holds the whole run:
# its rows' completions add up to timing.requests, their unit time to
# timing.unit_busy_s, their GC time to GC's share of it, and the last
# row ends where the device's work does (simulated_s), also when that
# work goes on after the last completion: a write cache's last
# programs, preemptible GC's deferred operations; a cached mapping
# table's translation reads and write-backs are in them too.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"

# The sums over the rows of t.csv for a device of $1 units, against the
# summary s.json: requests, busy, GC busy, the end of the last row.
sums_match() {
	awk -F, -v U="$1" 'NR > 1 { n += $2 * $12; b += $6 * $12 * U; g += $6 * $7 * $12 * U; e = $1 + $12 }
		END { printf "%.6f %.6f %.6f %.6f\n", n, b, g, e }' t.csv >got &&
	jq -r '.timing | [.requests, .unit_busy_s, (.gc_share_of_busy // 0) * .unit_busy_s, .simulated_s] |
		map(. * 1e6 | round / 1e6) | @tsv' s.json | tr '\t' ' ' >want &&
	awk 'NR == FNR { for (i = 1; i <= 4; i++) w[i] = $i; next }
		{ for (i = 1; i <= 4; i++) if ($i - w[i] > 1e-5 * (w[i] + 1) || w[i] - $i > 1e-5 * (w[i] + 1)) {
			print "column " i ": " $i " in the rows, " w[i] " in the summary"; bad = 1 } }
		END { exit bad }' want got
}

t_expect_success 'a write cache drains after the last write: the rows run to its last program, its unit time all in them' '
	"$G" -q -p uniform -n 16384 --fill -w 20000 -o bin >s.ev &&
	"$S" -q --device femu,channels=1,dies=1,cache_mib=1 --qd 1 --op 4 --pages-per-segment 64 \
		--timeline-interval 10 --timeline t.csv s.ev >s.json 2>/dev/null &&
	jq -e ".timing.simulated_s > 7.25" s.json >/dev/null &&
	sums_match 1
'

t_expect_success 'preemptible GC deferred past the last completion: in the rows, GC time and all' '
	for h in 0 1; do
		"$S" -q --device femu,channels=1,dies=2 --qd 8 --gc-preempt hard=$h --gc-low 3 --op 0.2 --pages-per-segment 64 \
			--timeline-interval 10 --timeline t.csv s.ev >s.json 2>/dev/null &&
		sums_match 2 || return 1
	done
'

t_expect_success 'a cached mapping table: its translation reads and write-backs in the rows, the write-backs after the last completion too' '
	for l in stripe die; do
		"$S" -q --device femu,channels=2,dies=2,layout=$l,cmt_mib=0.01 --qd 4 --op 0.2 --pages-per-segment 64 --precondition random \
			--timeline-interval 10 --timeline t.csv s.ev >s.json 2>/dev/null &&
		jq -e ".timing.cmt.translation_writes > 0 and .timing.cmt.translation_reads > 0" s.json >/dev/null &&
		sums_match 4 || return 1
	done
'

t_expect_success 'rows past the last completion are no rounds of the steady-state rule: the last five rounds end with it' '
	"$S" -q --device femu,channels=1,dies=1,cache_mib=1 --qd 1 --op 0.2 --pages-per-segment 64 \
		--timeline-interval 100 --timeline t.csv s.ev >s.json 2>/dev/null &&
	tail -n 1 t.csv | awk -F, "\$2 == 0 { ok = 1 } END { exit !ok }" &&
	jq -e ".timing.steady_state | .found and .start_s == 4 and .last_rounds_iops > 1200" s.json >/dev/null &&
	sums_match 1
'

t_done
