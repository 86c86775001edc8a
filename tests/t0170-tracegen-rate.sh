#!/bin/sh
# t0170-tracegen-rate: tracegen's arrival times. --rate IOPS: Poisson
# arrivals (exponential gaps of mean 1/IOPS, coefficient of variation 1),
# seeded, on the same requests as without it; without it the stream of
# earlier versions. -p hir: the SNIA PTS host idle recovery pattern, its
# idle gaps exactly the wait states.
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"

# gapstats FILE: the mean gap (ns) and the gaps' coefficient of variation.
gapstats() {
	awk 'NR > 1 { g = $1 - p; n++; s += g; q += g * g } { p = $1 }
	     END { m = s / n; printf "%.6f %.6f\n", m, sqrt(q / n - m * m) / m }' "$1"
}

t_expect_success 'without --rate the stream is that of earlier versions, byte for byte' '
	"$G" -p hotcold -n 5000 -w 20000 --trim-prob 0.2 -s 7 -o bin 2>/dev/null >h.ev &&
	test "$(md5sum <h.ev | cut -c1-32)" = b710e2a01da1d7b1587a0bbc36fbc2b7
'

t_expect_success '--rate 2000: mean gap within 2% of 500000 ns over 100000 gaps, CV within 0.03 of 1' '
	for s in 1 2 3; do
		"$G" -p uniform -n 4096 -w 100001 --rate 2000 -s $s -o text 2>/dev/null >r.txt &&
		gapstats r.txt >st && read m cv <st && echo "seed $s: mean $m cv $cv" &&
		awk -v m=$m -v cv=$cv "BEGIN { exit !(m > 490000 && m < 510000 && cv > 0.97 && cv < 1.03) }" || exit 1
	done
'

t_expect_success '--rate 10^9 and 3 x 10^8 (gaps of a few ns): the mean holds within 1.5% (the sum of the gaps rounded, not each gap: 4.5% short before)' '
	for r in 1e9:1 3e8:3.3333333; do
		"$G" -q -p uniform -n 4096 -w 200001 --rate ${r%%:*} -s 4 -o text |
			awk -v m=${r#*:} "NR > 1 { s += \$1 - p; n++ } { p = \$1 } END { print s / n; exit !(s / n > 0.985 * m && s / n < 1.015 * m) }" || exit 1
	done
'
t_expect_success '--rate with more requests than a time in ns can hold: a usage error before any output, naming the most' '
	t_err 2 "the trace would last about 3.17e.03 years, past 146, half the 292 years a time in ns can hold.*at most 4611 requests at this rate" \
		"$G" -p uniform -n 4096 -w 100000 --rate 1e-6 -o text && test ! -s .stdout &&
	"$G" -q -p uniform -n 4096 -w 4000 --rate 1e-6 -o text | wc -l | grep -qx 4000
'

t_expect_success 'hir too long for a time in ns: a usage error before any output; an empty wait state in --waits is one too' '
	t_err 2 "^tracegen: hir: the trace would last about 317 years .1 wait state of 10000 rounds" \
		"$G" -q -p hir --rate 1 --rounds 10000 --baseline 0 --waits 1000000 -n 10 -o bin && test ! -s .stdout &&
	"$G" -q -p hir --rate 1 --rounds 4000 --baseline 0 --waits 1000000 -n 10 -o bin | "$BIN/tracestat" -q - |
		jq -e ".traces[0].events > 0" >/dev/null &&
	for w in 5,,10 5, ,5; do
		t_err 2 "^tracegen: --waits .$w. has an empty wait state" "$G" -q -p hir --rate 10 --waits $w --rounds 2 -n 100 -o text ||
			return 1
	done
'

t_expect_success '--rate: gaps are exponential (share above the mean e^-1, above 3x the mean e^-3)' '
	"$G" -p uniform -n 4096 -w 200001 --rate 1000 -s 5 -o text 2>/dev/null |
		awk "NR > 1 { g = \$1 - p; n++; a += g > 1e6; b += g > 3e6 } { p = \$1 }
		     END { printf \"%.4f %.4f\\n\", a / n, b / n;
			   exit !(a / n > 0.3629 && a / n < 0.3729 && b / n > 0.0478 && b / n < 0.0518) }"
'

t_expect_success '--rate: the first request at 0, times never go back, whole ns' '
	"$G" -p zipf:0.9 -n 4096 -w 50000 --fill --trim-prob 0.1 --rate 1e6 -o text 2>/dev/null |
		awk "NR == 1 && \$1 != 0 { bad = 1 } NR > 1 && \$1 < p { bad = 1 } \$1 !~ /^[0-9]+\$/ { bad = 1 } { p = \$1 }
		     END { exit bad }"
'

t_expect_success '--rate: same seed, same bytes; another seed, other times' '
	"$G" -p uniform -n 4096 -w 20000 --rate 5000 -s 11 -o bin >a 2>/dev/null &&
	"$G" -p uniform -n 4096 -w 20000 --rate 5000 -s 11 -o bin >b 2>/dev/null && t_cmp a b &&
	"$G" -p uniform -n 4096 -w 20000 --rate 5000 -s 12 -o bin >c 2>/dev/null && ! cmp -s a c &&
	"$G" -p uniform -n 4096 -w 20000 --rate 5000 -s 11 -o text 2>/dev/null | cut -d" " -f1 >ta &&
	"$G" -p uniform -n 4096 -w 20000 --rate 5000 -s 12 -o text 2>/dev/null | cut -d" " -f1 >tc &&
	! cmp -s ta tc
'

t_expect_success '--rate changes the times only: the same requests as without it (fill, trim, volumes)' '
	for args in "-p zipf:0.99 -n 5000 -w 20000 --trim-prob 0.2 -s 7" "-p lfs -n 2000 -w 10000 --hot-prob 0.8" \
		"-p hotcold --volumes 10 -n 64K -w 20000 --fill -s 3"; do
		"$G" $args -o text 2>/dev/null | cut -d" " -f2- >plain &&
		"$G" $args --rate 30000 -o text 2>/dev/null | cut -d" " -f2- >timed &&
		t_cmp plain timed || { echo "$args"; exit 1; }
	done
'

# hir at 1000 writes a second: 3 rounds of (0.2 s burst, W idle) for W =
# 1 and 2.5 s, each wait state followed by a 0.5 s baseline.
HIR="-p hir --rate 1000 --burst 0.2 --waits 1,2.5 --rounds 3 --baseline 0.5 -n 8192"

t_expect_success 'hir: every gap of 0.1 s or more is a wait state, exactly, in order' '
	"$G" $HIR -o text 2>/dev/null >h.txt &&
	awk "NR > 1 && \$1 - p >= 1e8 { printf \"%d \", \$1 - p } { p = \$1 }" h.txt >gaps &&
	test "$(cat gaps)" = "1000000000 1000000000 1000000000 2500000000 2500000000 2500000000 "
'

t_expect_success 'hir: bursts of 0.2 s, the baseline 0.5 s then the next burst without a pause' '
	awk "NR == 1 { s = \$1 } NR > 1 && \$1 - p >= 1e8 { printf \"%.3f \", (p - s) / 1e9; s = \$1 } { p = \$1 }
	     END { printf \"%.3f\\n\", (p - s) / 1e9 }" h.txt >segs && cat segs &&
	awk "{ for (i = 1; i <= NF; i++) { want = i == 4 ? 0.7 : i == NF ? 0.5 : 0.2;
		if (\$i > want + 0.001 || \$i < want - 0.02) bad = 1 } exit bad || NF != 7 }" segs &&
	awk "\$2 != \"W\" || \$4 != 4096 || \$3 % 4096 || \$3 >= 8192 * 4096 { bad = 1 } END { exit bad }" h.txt &&
	n=$(wc -l <h.txt) && test $n -gt 1900 && test $n -lt 2300
'

# Each burst ends at its last write, 1/rate (0.1 s) before its nominal end
# on average: the 1800 bursts span some 180 s less than 55800 s.
t_expect_success 'hir defaults: 360 rounds each of 5, 10, 15, 25, 50 s waits, about 55800 s in all' '
	"$G" -p hir --rate 10 -n 8192 -o text 2>/dev/null |
		awk "NR > 1 && \$1 - p >= 4e9 { c[\$1 - p]++; if (\$1 - p < last) order = 1; last = \$1 - p; n++ } { p = \$1 }
		     END { printf \"%d %d %d %d %d %d %d %.0f\\n\", n, c[5e9], c[10e9], c[15e9], c[25e9], c[50e9], order, p / 1e9 }" >d &&
	cat d && read n c5 c10 c15 c25 c50 order span <d &&
	test "$n $c5 $c10 $c15 $c25 $c50 $order" = "1800 360 360 360 360 360 0" &&
	test $span -gt 55580 && test $span -le 55700
'

t_expect_success 'hir: same seed, same bytes; --fill writes every page first' '
	"$G" $HIR -s 4 -o bin >a 2>/dev/null && "$G" $HIR -s 4 -o bin >b 2>/dev/null && t_cmp a b &&
	"$G" $HIR --fill -o text 2>/dev/null | head -8192 | awk "\$3 != (NR - 1) * 4096 { bad = 1 } END { exit bad }"
'

# --precondition-writes 3000 at 1000 a second: 3 s of random writes,
# then the first burst (0.2 s, some 200 writes) and its wait.
t_expect_success 'hir --precondition-writes N: N random writes at the rate, then the bursts; 0 changes nothing' '
	"$G" $HIR -s 4 --precondition-writes 0 -o bin >c 2>/dev/null && t_cmp a c &&
	"$G" $HIR -s 4 --precondition-writes 3000 -o text 2>/dev/null >p.txt &&
	awk "NR <= 3000 { if (\$2 != \"W\" || \$3 >= 8192 * 4096) bad = 1; t = \$1 } END { exit bad || t < 2.5e9 || t > 3.5e9 }" p.txt &&
	awk "NR > 1 && \$1 - p >= 1e8 { printf \"%d \", \$1 - p } { p = \$1 }" p.txt >gaps &&
	test "$(cat gaps)" = "1000000000 1000000000 1000000000 2500000000 2500000000 2500000000 " &&
	first=$(awk "NR > 1 && \$1 - p >= 1e8 { print NR - 1; exit } { p = \$1 }" p.txt) &&
	test $first -gt 3100 && test $first -lt 3300
'

t_expect_success 'hir --wait-reads 100: reads only within the waits, about 100 a second, the writes byte-identical' '
	"$G" $HIR -s 4 -o text >w0.txt 2>/dev/null &&
	"$G" $HIR -s 4 --wait-reads 100 -o text >w1.txt 2>/dev/null &&
	grep -v " R " w1.txt | cmp - w0.txt &&
	awk "\$2 == \"R\" { r++; reads = 1; if (\$3 >= 8192 * 4096 || \$1 < last) bad = 1 }
		\$2 == \"W\" { if (reads && \$1 - last < 1e8) bad = 1; last = \$1; reads = 0 }
		END { if (bad) exit 1; print r }" w1.txt >nr &&
	test "$(cat nr)" -gt 900 && test "$(cat nr)" -lt 1200 &&
	t_err 2 "and --wait-reads apply to hir only" "$G" -p uniform -n 64 --wait-reads 10
'

t_expect_success 'hir --wait-reads 10^9 and 3 x 10^8 (gaps of a few ns): the read count within 1% of rate x wait time (the sum of the gaps rounded, not each gap: 4% more reads before)' '
	for r in 1e9:2000000 3e8:600000; do
		"$G" -q -p hir --rate 1 --burst 0.000001 --waits 0.0001 --rounds 20 --baseline 0 --wait-reads ${r%%:*} -n 1000 -o text |
			awk -v want=${r#*:} "\$2 == \"R\" { n++ } END { print n; exit !(n > 0.99 * want && n < 1.01 * want) }" || exit 1
	done
'

t_expect_success 'hir: tracestat finds the wait states as its idle time' '
	"$G" $HIR -o bin 2>/dev/null >h.ev && "$BIN/tracestat" -q --idle-threshold 100 h.ev >h.json &&
	test "$(jq -c ".traces[0].idle | [.idle_gaps, .idle_s, .busy_periods.count]" h.json)" = "[6,10.5,7]"
'

t_expect_success '--read-prob 0.3: reads among the requests that are not discards, at the write popularity; without it the same stream' '
	"$G" -q -p hotcold -n 4096 --fill -w 20000 --trim-prob 0.1 --read-prob 0.3 -o text >rw.txt &&
	awk "NR > 4096 { n[\$2]++; if (\$2 == \"R\") h[\$6]++ } END { print n[\"W\"], n[\"R\"], n[\"D\"], h[1] / n[\"R\"] }" rw.txt >c &&
	read w r d hot <c &&
	test $((w + r + d)) = 20000 &&
	awk -v w="$w" -v r="$r" -v d="$d" -v hot="$hot" "BEGIN { exit !(d > 1800 && d < 2200 && r / (r + w) > 0.28 && r / (r + w) < 0.32 && hot > 0.88 && hot < 0.92) }" &&
	"$G" -q -p hotcold -n 4096 --fill -w 2000 -o bin | md5sum >a &&
	"$G" -q -p hotcold -n 4096 --fill -w 2000 --read-prob 0 -o bin | md5sum >b && cmp a b &&
	t_err 2 "--read-prob applies to uniform, hotcold and zipf" "$G" -p seq -n 64 --read-prob 0.5 &&
	t_err 2 "--read-prob applies to uniform, hotcold and zipf" "$G" -p hir --rate 10 -n 64 --read-prob 0.5
'

for args in "-p hir" "-p hir --rate 0" "-p uniform --rate -3" "-p uniform --rate 2e9" "-p uniform --rate x" \
	"-p uniform --burst 5" "-p zipf:1 --waits 5" "-p uniform --precondition-writes 5" "-p hir --rate 10 -w 100" "-p hir --rate 10 --volumes 4" \
	"-p hir --rate 10 --waits 5,x" "-p hir --rate 10 --waits ," "-p hir --rate 10 --burst 0" \
	"-p hir --rate 10 --rounds 0" "-p hir --rate 10 --baseline -1" \
	"-p hir --rate 10 --waits 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"; do
	t_expect_success "usage error: tracegen $args" "t_err 2 'tracegen: ' \"\$G\" $args"
done

t_done
