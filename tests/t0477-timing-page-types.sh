#!/bin/sh
# t0477-timing-page-types: page types in the device in time (tr_us and
# tprog_us one time a type, T1/T2/T3; page_order), against what can be
# computed.
# - QD1 sequential writes on one die: the mean latency is the mean of
#   each program's type's tPROG (its offset in its block, cyclic or in
#   the TLC shadow order), exactly.
# - Poisson reads of a filled drive on one die: M/G/1, the
#   Pollaczek-Khinchine mean for the three-point service time, within 2%.
# - Each unit's busy time is the sum of every flash operation's time by
#   its page's type (from --flash-ops), exactly, with GC on 2 x 2 dies.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
D="tlc-types,channels=1,dies=1,page_kib=4,xfer_us=0"

t_expect_success 'QD1 sequential writes on one die: the mean is the sum over the pages'"'"' types, cyclic and shadow order' '
	"$G" -q -p seq -n 65536 -w 30000 -o bin >s.ev &&
	for o in cyclic shadow; do
		"$S" -q --device $D,page_order=$o --qd 1 --op 3 --logical-pages 65536 --pages-per-segment 256 s.ev \
			>w.json 2>/dev/null &&
		want=$(awk -v o=$o "BEGIN { t[0] = 820.5; t[1] = 2225; t[2] = 5734
			for (k = 0; k < 30000; k++) { r = k % 256
				y = o == \"cyclic\" ? r % 3 : r <= 5 ? 0 : r <= 7 ? 1 : int((r - 8) / 2) % 3; s += t[y] }
			printf \"%.6f\", s / 30000 }") &&
		jq -e --argjson w "$want" "(.timing.latency_us.write.mean - \$w | fabs) < 1e-6 and
			.timing.device.page_types == 3 and .timing.device.page_order == \"$o\" and
			.timing.device.tprog_us_by_type == [820.5, 2225, 5734] and .timing.device.tprog_us == 2926.5" w.json || {
			echo "want $want"; jq .timing.latency_us.write w.json; return 1; }
	done
'

t_expect_success 'the write p50 is the centre page'"'"'s tPROG, the p99 the upper page'"'"'s (within 0.4%); tlc puts all at the mean' '
	"$S" -q --device $D --qd 1 --op 3 --logical-pages 65536 --pages-per-segment 256 s.ev >w.json 2>/dev/null &&
	jq -e ".timing.latency_us.write | ((.p50 - 2225) / 2225 | fabs) < 0.004 and ((.p99 - 5734) / 5734 | fabs) < 0.004 and
		.max == 5734" w.json &&
	"$S" -q --device tlc,channels=1,dies=1,page_kib=4,xfer_us=0 --qd 1 --op 3 --logical-pages 65536 s.ev >a.json 2>/dev/null &&
	jq -e ".timing.latency_us.write | .max == 2926.5 and .mean == 2926.5" a.json
'

t_expect_success 'Poisson reads on one die, the drive filled in order: the M/G/1 mean within 2%' '
	"$G" -q -p uniform --read-prob 1 -n 65536 -w 200000 --rate 6000 -o bin >r.ev &&
	"$S" -q --device $D --op 1 --logical-pages 65536 --pages-per-segment 256 --precondition seq r.ev >r.json 2>/dev/null &&
	want=$(awk "BEGIN { t[0] = 56.5; t[1] = 77.5; t[2] = 106
		for (r = 0; r < 256; r++) { m += t[r % 3] / 256; m2 += t[r % 3] ^ 2 / 256 }
		l = 6000e-6; printf \"%.6f\", m + l * m2 / (2 * (1 - l * m)) }") &&
	jq -e --argjson w "$want" ".timing.latency_us.read.count == 200000 and
		((.timing.latency_us.read.mean - \$w) / \$w | fabs) < 0.02" r.json || {
		echo "want $want"; jq .timing.latency_us.read r.json; return 1; }
'

t_expect_success 'each unit'"'"'s busy time is the sum of its operations'"'"' times by page type, with GC, striped over 2 x 2 dies' '
	"$G" -q -p uniform -n 8192 --fill -w 30000 -o bin >g.ev &&
	"$S" -q --device tlc-types,channels=2,dies=2,page_kib=4 --qd 4 --op 0.15 --logical-pages 8192 --pages-per-segment 64 \
		--flash-ops fo.csv g.ev >g.json 2>/dev/null &&
	jq -e ".gc_pages_copied > 10000" g.json &&
	want=$(awk -F, "NR > 1 { if (\$1 == \"erase\") { s += 4 * 3000; next }
		y = int((\$4 - \$3 * 64) / 4) % 3
		s += \$1 == \"program\" ? (y == 0 ? 820.5 : y == 1 ? 2225 : 5734) : (y == 0 ? 56.5 : y == 1 ? 77.5 : 106) }
		END { printf \"%.6f\", s / 1e6 }" fo.csv) &&
	jq -e --argjson w "$want" "(.timing.unit_busy_s - \$w | fabs) < 1e-6" g.json || {
		echo "want $want"; jq .timing.unit_busy_s g.json; return 1; }
'

t_expect_success 'one time for every type in either key; a device file takes the lists too' '
	"$S" -q --device $D,tr_us=60 --qd 1 --op 3 --logical-pages 65536 s.ev 2>/dev/null |
		jq -e ".timing.device | .page_types == 3 and .tr_us_by_type == [60, 60, 60] and .tr_us == 60" &&
	printf "profile=femu\ntprog_us = 100/300\n" >mlc.dev &&
	"$S" -q --device mlc.dev --qd 1 --op 3 --logical-pages 65536 s.ev 2>/dev/null |
		jq -e ".timing.device | .page_types == 2 and .tprog_us == 200 and .tr_us_by_type == [40, 40]"
'

t_expect_success 'page types refused: counts that differ, shadow of 2, 5 types, a bad time, an unknown order' '
	t_err 2 "tr_us gives 2 page types and tprog_us 3" "$S" --device femu,tr_us=1/2,tprog_us=1/2/3 s.ev &&
	t_err 2 "page_order=shadow is a TLC" "$S" --device femu,tprog_us=1/2,page_order=shadow s.ev &&
	t_err 2 "at most 4 page types" "$S" --device femu,tprog_us=1/2/3/4/5 s.ev &&
	t_err 2 "tr_us=1/x: a number" "$S" --device femu,tr_us=1/x s.ev &&
	t_err 2 "cyclic or shadow" "$S" --device femu,page_order=zigzag s.ev &&
	t_err 2 "device-keys page_order=shadow: page_order=shadow is a TLC" "$S" --device-keys page_order=shadow s.ev &&
	printf "profile=femu\npage_order=shadow\n" >sh.dev &&
	t_err 1 "sh.dev: page_order=shadow is a TLC" "$S" --device sh.dev s.ev
'

t_expect_success 'the device checked whole once every key is in: --device-keys may give the types a --device'"'"'s order needs' '
	"$S" -q --device femu,page_order=shadow --device-keys tr_us=40/60/80 --qd 1 --logical-pages 65536 s.ev >a.json &&
	"$S" -q --device femu,page_order=shadow,tr_us=40/60/80 --qd 1 --logical-pages 65536 s.ev >b.json &&
	jq -e ".timing.device.tr_us_by_type == [40, 60, 80]" a.json &&
	d="del(.timing.cpu_s, .timing.elapsed_s, .timing.max_rss_kb, .timing.page_writes_per_s, .timing.flash_page_writes_per_s)" &&
	jq -S "$d" a.json >a.n && jq -S "$d" b.json >b.n && t_cmp a.n b.n &&
	"$S" -q --device sh.dev --device-keys tr_us=40/60/80 --qd 1 --logical-pages 65536 s.ev | jq -e ".timing.device.page_order == \"shadow\"" &&
	t_err 2 "device femu,page_order=shadow --device-keys cache_mib=1: page_order=shadow" "$S" --device femu,page_order=shadow --device-keys cache_mib=1 s.ev
'

t_expect_success 'a striped segment of few rows a block: warned of, the types of its first rows only; none on one die' '
	"$G" -q -p seq -n 16384 -w 3000 -b 16K -o bin >s16.ev &&
	"$S" -q --device tlc-types,page_order=shadow --qd 1 --logical-pages 16384 s16.ev 2>e >/dev/null &&
	grep -q "leaves 8 rows in each plane.s block: its 3 page types are those of its first rows in the order only" e &&
	"$S" -q --device tlc-types,page_kib=4,channels=1,dies=1 --qd 1 --logical-pages 16384 --pages-per-segment 255 s16.ev 2>e >/dev/null &&
	! grep -q "rows in each plane" e &&
	printf "tprog_us = 100 / 300\n" >sp.dev &&
	"$S" -q --device sp.dev --qd 1 --op 3 --logical-pages 65536 s.ev 2>/dev/null | jq -e ".timing.device.tprog_us_by_type == [100, 300]"
'

t_expect_success 'times below a whole ns are rounded as they are read: the summary says the times the device runs' '
	"$S" -q --device femu,tr_us=0.0015/0.0025,tbers_us=1999.9996 --logical-pages 65536 s.ev 2>/dev/null |
		jq -e ".timing.device.tr_us_by_type == [0.002, 0.003] and .timing.device.tr_us == 0.0025 and
			.timing.device.tbers_us == 2000"
'
t_expect_success 'a grid'"'"'s command line is not a model: a device-keys axis may give what its --device needs, a device axis replace keys it conflicts with' '
	"$S" -q --device femu,channels=1,dies=2,page_order=shadow --logical-pages 65536 \
		--grid "device-keys=tr_us=40/60/80,tr_us=30/50/70" s.ev 2>/dev/null |
		jq -e "[.configurations[].timing.device.tr_us_by_type] == [[40, 60, 80], [30, 50, 70]]" &&
	"$S" -q --device femu,channels=1,dies=1,cache_mib=0 --device-keys cache_mib=1 --logical-pages 65536 \
		--grid "device=tlc,channels=1,dies=1,femu,channels=1,dies=1" s.ev 2>/dev/null |
		jq -e "[.configurations[].timing.device.cache_mib] == [1, 1]" &&
	t_err 2 "grid qd=1: --device femu,page_order=shadow: page_order=shadow is a TLC" \
		"$S" -q --device femu,page_order=shadow --grid qd=1,2 s.ev &&
	t_err 2 "device-keys profile=tlc: keys on the device the other options give, not a profile" \
		"$S" -q --device femu --device-keys profile=tlc s.ev
'
t_done
