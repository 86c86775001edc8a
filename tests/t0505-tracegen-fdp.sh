#!/bin/sh
# t0505-tracegen-fdp: the workloads for Flexible Data Placement -
# flashcache (CacheLib's SOC and LOC) and warp (WARP's three streams):
# streams and labels, layout, SOC writes random in the SOC, the LOC a
# sequential log wrapping FIFO, WARP's sequential, random and zoned or
# Zipf overwrite streams, shares as asked, seeding, the binary stream
# field, usage errors, and ftlsim's replay with the streams apart and
# mixed.
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"
S="$BIN/ftlsim"

# Text lines: "t_ns op offset length volume temp stream"; page = offset / 4096.

# flashcache, N = 10000: SOC round(0.1 N) = 1000 pages [9000, 10000);
# LOC the whole 7-page regions before it, [0, 8995); 8995..8999 unused.
FC="-p flashcache -n 10000 --soc-frac 0.1 --region-size 28K"

t_expect_success 'flashcache: streams and labels 1 SOC in [9000, N), 2 LOC in [0, 8995)' '
	"$G" $FC -w 200000 -s 7 -o text 2>/dev/null >fc.txt &&
	test "$(wc -l <fc.txt)" = 200000 &&
	awk "{ p = \$3 / 4096
	       if (\$2 != \"W\" || NF != 7 || \$6 != \$7) bad++
	       else if (\$7 == 1) { if (p < 9000 || p >= 10000) bad++ }
	       else if (\$7 == 2) { if (p >= 8995) bad++ }
	       else bad++ }
	     END { if (bad) { print bad, \"bad lines\"; exit 1 } }" fc.txt
'

t_expect_success 'flashcache: the SOC takes --soc-writes of the writes (default 0.65)' '
	awk "{ s += \$7 == 1 } END { if (s / NR < 0.645 || s / NR > 0.655) { print s / NR; exit 1 } }" fc.txt &&
	"$G" $FC --soc-writes 0.9 -w 200000 -s 7 -o text 2>/dev/null |
		awk "{ s += \$7 == 1 } END { if (s / NR < 0.895 || s / NR > 0.905) { print s / NR; exit 1 } }"
'

# 130,000 SOC writes over 1000 pages: chi-square of 999 degrees of
# freedom, mean 999, sd 45.
t_expect_success 'flashcache: SOC writes uniform over every page of the SOC' '
	awk "\$7 == 1 { c[\$3 / 4096]++; n++ }
	     END { for (k in c) { x += (c[k] - n / 1000) ^ 2 / (n / 1000); if (k + 0 < lo || lo == \"\") lo = k + 0; if (k + 0 > hi) hi = k + 0 }
		   if (length(c) != 1000 || lo != 9000 || hi != 9999 || x > 1200) { print length(c), lo, hi, x; exit 1 } }" fc.txt
'

t_expect_success 'flashcache: LOC writes a sequential log from page 0, wrapping at its last whole region' '
	awk "\$7 == 2 { p = \$3 / 4096; if (n++ == 0) { if (p != 0) bad++ } else if (p != (q + 1) % 8995) bad++
			if (p == 0) laps++; q = p }
	     END { if (bad || laps != int((n - 1) / 8995) + 1) { print bad, laps, n; exit 1 } }" fc.txt
'

t_expect_success 'flashcache --fill: every page in order, LOC stream 2, unused pages unlabelled, SOC 1; then the log from 0' '
	"$G" $FC -w 5000 --fill -s 7 -o text 2>/dev/null >ff.txt &&
	head -10000 ff.txt | awk "{ p = \$3 / 4096; want = p < 8995 ? 2 : p < 9000 ? 0 : 1
		if (p != NR - 1 || (want ? \$7 != want || \$6 != want : NF != 5)) bad++ }
		END { if (bad) { print bad; exit 1 } }" &&
	tail -n +10001 ff.txt | awk "\$7 == 2 { print \$3 / 4096; exit }" | grep -qx 0
'

# Defaults: N = 262144, SOC round(0.04 N) = 10486 pages from 251658,
# LOC 61 regions of 16 MiB = 249856 pages.
t_expect_success 'flashcache defaults: 4% SOC at the end, 16 MiB regions, 0.65 of the writes' '
	"$G" -p flashcache -w 200000 -o text 2>/dev/null |
		awk "{ p = \$3 / 4096; if (\$7 == 1) { s++; if (p < 251658 || p >= 262144) bad++ } else if (p >= 249856) bad++ }
		     END { if (bad || s / NR < 0.645 || s / NR > 0.655) { print bad, s / NR; exit 1 } }"
'

# warp, N = 10000: stream 1 over [0, 9000), stream 2 over [9000,
# 10000), stream 3 over [0, 9000) with zones at 1800 and 3600.
t_expect_success 'warp: the fill first, in order, stream 1 up to 9000 and 2 after; then streams 1, 2, 3' '
	"$G" -p warp -n 10000 -w 300000 -s 3 -o text 2>/dev/null >w.txt &&
	test "$(wc -l <w.txt)" = 310000 &&
	head -10000 w.txt | awk "{ p = \$3 / 4096; want = p < 9000 ? 1 : 2
		if (p != NR - 1 || \$7 != want || \$6 != want) bad++ } END { exit bad > 0 }" &&
	tail -n +10001 w.txt >wm.txt &&
	awk "\$2 != \"W\" || \$6 != \$7 || \$7 < 1 || \$7 > 3 { bad++ } END { exit bad > 0 }" wm.txt
'

t_expect_success 'warp: shares of the writes 0.58, 0.21, 0.21 by default' '
	awk "{ c[\$7]++ } END { if (c[1] / NR < 0.575 || c[1] / NR > 0.585 || c[2] / NR < 0.205 || c[2] / NR > 0.215 ||
		c[3] / NR < 0.205 || c[3] / NR > 0.215) { print c[1] / NR, c[2] / NR, c[3] / NR; exit 1 } }" wm.txt
'

t_expect_success 'warp: stream 1 sequential from page 0, wrapping at 9000' '
	awk "\$7 == 1 { p = \$3 / 4096; if (n++ == 0) { if (p != 0) bad++ } else if (p != (q + 1) % 9000) bad++; q = p }
	     END { if (bad || n < 170000) { print bad, n; exit 1 } }" wm.txt
'

t_expect_success 'warp: stream 2 uniform over the last 10% of the pages' '
	awk "\$7 == 2 { c[\$3 / 4096]++; n++ }
	     END { for (k in c) { x += (c[k] - n / 1000) ^ 2 / (n / 1000); if (k + 0 < 9000) bad++ }
		   if (bad || length(c) != 1000 || x > 1200) { print bad, length(c), x; exit 1 } }" wm.txt
'

t_expect_success 'warp: stream 3 overwrites stream 1 pages, zoned 80/20:10/20:10/60' '
	awk "\$7 == 3 { p = \$3 / 4096; n++; if (p >= 9000) bad++; else if (p < 1800) { a++; m += p } else if (p < 3600) b++ }
	     END { if (bad || a / n < 0.79 || a / n > 0.81 || b / n < 0.094 || b / n > 0.106 ||
		       (n - a - b) / n < 0.094 || (n - a - b) / n > 0.106 || m / a < 890 || m / a > 910) {
			print bad, a / n, b / n, m / a; exit 1 } }" wm.txt
'

t_expect_success 'warp:uniform: stream 3 uniform over stream 1 pages (9 bins)' '
	"$G" -p warp:uniform -n 10000 -w 300000 -s 3 -o text 2>/dev/null | tail -n +10001 |
		awk "\$7 == 3 { p = \$3 / 4096; if (p >= 9000) bad++; c[int(p / 1000)]++; n++ }
		     END { for (k in c) x += (c[k] - n / 9) ^ 2 / (n / 9); if (bad || length(c) != 9 || x > 30) { print bad, x; exit 1 } }"
'

# Zipf 1.2 over 9000 ranks: the top rank takes 1 / sum k^-1.2 of them.
t_expect_success 'warp:zipf:1.2: stream 3 top page share matches, hot pages spread over the range' '
	"$G" -p warp:zipf:1.2 -n 10000 -w 300000 -s 3 -o text 2>/dev/null | tail -n +10001 |
		awk "BEGIN { for (k = 1; k <= 9000; k++) h += k ^ -1.2 }
		     \$7 == 3 { p = \$3 / 4096; if (p >= 9000) bad++; c[p]++; n++ }
		     END { for (k in c) if (c[k] > m) { m = c[k]; top = k + 0 }
			   if (bad || m / n < 1 / h - 0.01 || m / n > 1 / h + 0.01) { print bad, m / n, 1 / h; exit 1 }
			   for (k in c) if (c[k] > n / 200) { hot++; low += k + 0 < 900 }
			   if (hot < 10 || low > hot / 2) { print hot, low; exit 1 } }"
'

t_expect_success 'warp: --rand-frac, --seq-writes and --rand-writes move the layout and the shares' '
	"$G" -p warp -n 10000 --rand-frac 0.2 --seq-writes 0.5 --rand-writes 0.3 -w 200000 -s 4 -o text 2>/dev/null |
		tail -n +10001 |
		awk "{ p = \$3 / 4096; c[\$7]++; if ((\$7 == 2) != (p >= 8000)) bad++; if (\$7 == 1 && p == 7999) last++ }
		     END { if (bad || !last || c[1] / NR < 0.495 || c[1] / NR > 0.505 || c[2] / NR < 0.295 ||
			       c[2] / NR > 0.305 || c[3] / NR < 0.195 || c[3] / NR > 0.205) { print bad, last, c[1] / NR, c[2] / NR; exit 1 } }"
'

t_expect_success 'same seed gives byte-identical output; a different seed another' '
	for p in flashcache warp warp:uniform warp:zipf:1.2; do
		"$G" -p $p -n 20000 -w 50000 -s 11 -o bin >a 2>/dev/null &&
		"$G" -p $p -n 20000 -w 50000 -s 11 -o bin >b 2>/dev/null && t_cmp a b &&
		"$G" -p $p -n 20000 -w 50000 -s 12 -o bin >c 2>/dev/null && ! cmp -s a c || return 1
	done
'

# Binary records as "offset temp stream" (bytes 8..15, 25, 26..27).
t_expect_success 'the binary stream carries the stream field, the same as the text' '
	"$G" $FC -w 3000 -s 5 -o bin 2>/dev/null >s.bin &&
	tail -c +17 s.bin | head -c -32 | od -An -v -tu8 -w32 |
		awk "{ print \$2, int(\$4 / 256) % 256, int(\$4 / 65536) % 65536 }" >s.dec &&
	"$G" $FC -w 3000 -s 5 -o text 2>/dev/null | awk "{ print \$3, \$6, \$7 }" >s.txt &&
	t_cmp s.txt s.dec
'

t_expect_success '--help names the patterns and their options' '
	"$G" --help >h.txt &&
	for w in flashcache warp --soc-frac --soc-writes --region-size --rand-frac --seq-writes --rand-writes; do
		grep -q -- "$w" h.txt || { echo "no $w"; return 1; }
	done
'

for args in "-p uniform --soc-frac 0.1" "-p warp --region-size 1M" "-p flashcache --rand-frac 0.2" \
	"-p hotcold --seq-writes 0.5" "-p flashcache --trim-prob 0.1" "-p warp --trim-prob 0.1" \
	"-p flashcache --region-size 1000" "-p flashcache --soc-writes 1.5" \
	"-p warp --seq-writes 0.9 --rand-writes 0.2" "-p warp:bogus" "-p warp:zipf:x" "-p warp:zipf" \
	"-p flashcache:2" "-p flashcache -n 100 --soc-frac 0.001" "-p flashcache -n 100" "-p warp -n 5"; do
	t_expect_success "usage error: tracegen $args" "t_err 2 'tracegen: ' \"\$G\" $args"
done

# ftlsim: a device that follows the streams (the oracle placement reads
# the labels, equal to the streams) against one that mixes them.
wa() { jq -r .wa_total "$1"; }

t_expect_success 'ftlsim, flashcache at 15% spare: streams apart WA near 1, the LOC log almost never copied; mixed 3x' '
	"$G" -p flashcache -n 65536 --region-size 1M -w 655360 -o bin 2>/dev/null >fc.ev &&
	"$S" -q --logical-pages 65536 --op 0.15 --placement oracle:2 fc.ev >o.json &&
	"$S" -q --logical-pages 65536 --op 0.15 --placement single fc.ev >m.json &&
	jq -e ".wa_total < 1.02 and (.streams | length) == 2 and
		.streams[1].host_pages_written > 200000 and
		.streams[1].gc_pages_copied < .streams[1].host_pages_written / 1000 and
		(.streams[0].host_pages_written / .host_pages_written - 0.65 | fabs) < 0.01" o.json &&
	jq -e ".wa_total > 3" m.json
'

t_expect_success 'ftlsim, warp at 15% spare: separating the streams gains little against stream 3; without it WA near 1' '
	"$G" -p warp -n 65536 -w 655360 -o bin 2>/dev/null >w.ev &&
	"$G" -p warp -n 65536 -w 655360 --seq-writes 0.79 --rand-writes 0.21 -o bin 2>/dev/null >w0.ev &&
	"$S" -q --logical-pages 65536 --op 0.15 --placement oracle:3 w.ev >o.json &&
	"$S" -q --logical-pages 65536 --op 0.15 --placement single w.ev >m.json &&
	"$S" -q --logical-pages 65536 --op 0.15 --placement oracle:3 w0.ev >o0.json &&
	jq -e ".wa_total > 2 and (.streams | length) == 3 and .streams[2].host_pages_written > 100000" o.json &&
	jq -e ".wa_total < 1.1 and .streams[2].host_pages_written == 0" o0.json &&
	test "$(jq -n --slurpfile a o.json --slurpfile m m.json --slurpfile z o0.json \
		"\$a[0].wa_total < \$m[0].wa_total and
		 \$a[0].streams[1].gc_pages_copied > 5 * \$z[0].streams[1].gc_pages_copied")" = true
'

t_done
