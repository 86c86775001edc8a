#!/bin/sh
# t0474-timing-cache: the device in time's write cache (--device
# ...,cache_mib=M) against what can be computed.
# - One die, no GC, Poisson writes, a cache of one page: a write
#   completes when the program before it ends, so each latency is the
#   no-cache one less tPROG, exactly, and the mean is the M/D/1 waiting
#   time rho tPROG / (2 (1 - rho)) within 2%.
# - A cache of C pages: the mean is that of the recurrence D_k =
#   max(A_k, D_(k-1)) + tPROG, a write's completion max(A_k, D_(k-C)),
#   computed on the same arrivals, to the nanosecond.
# - QD1 uniform writes at steady state with GC: the cache hides
#   latency, not work: IOPS, mean latency and every count within 1% of
#   (or equal to) the run without it.
# - Reads of pages the cache still holds read no flash; a flush waits
#   for the cache to drain; the memory is the dry run's.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"

t_expect_success 'one page of cache, Poisson writes on one die: each latency tPROG less, the mean M/D/1 wait within 2%' '
	"$G" -q -p uniform -n 65536 -w 60000 --rate 2500 -o bin >p.ev &&
	"$S" -q --device femu,channels=1,dies=1 --op 3 p.ev >n.json 2>/dev/null &&
	"$S" -q --device femu,channels=1,dies=1,cache_mib=0.00390625,cache_us=0 --op 3 p.ev >c.json 2>/dev/null &&
	jq -e ".timing.cache.pages == 1 and .gc_pages_copied == 0" c.json &&
	jq -e --slurpfile n n.json "(\$n[0].timing.latency_us.write.mean - .timing.latency_us.write.mean - 200 | fabs) < 1e-6 and
		\$n[0].timing.latency_us.write.max - .timing.latency_us.write.max == 200" c.json &&
	jq -e "(2500 * 200e-6) as \$rho | (\$rho * 200 / (2 * (1 - \$rho))) as \$w |
		((.timing.latency_us.write.mean - \$w) / \$w | fabs) < 0.02" c.json || {
		jq .timing.latency_us.write n.json c.json; return 1; }
'

t_expect_success 'a cache of 4 and 16 pages: the mean is the recurrence'"'"'s on the same arrivals, to the nanosecond' '
	"$BIN/tracecat" -q -o text p.ev >p.txt &&
	for C in 4 16; do
		"$S" -q --device femu,channels=1,dies=1,cache_mib=$(awk "BEGIN { print $C * 4096 / 1048576 }"),cache_us=0 --op 3 p.ev \
			>c$C.json 2>/dev/null &&
		awk -v C=$C "{ A = \$1; s = A > D ? A : D; D = s + 200000; d[NR] = D; a = A
			if (NR > C && d[NR - C] > a) a = d[NR - C]; sum += a - A; n++ }
			END { printf \"%.4f\\n\", sum / n / 1000 }" p.txt >want$C &&
		jq -e --argjson w "$(cat want$C)" ".timing.cache.pages == $C and
			(.timing.latency_us.write.mean - \$w | fabs) < 0.001" c$C.json || {
			cat want$C; jq .timing.latency_us.write c$C.json; return 1; }
	done &&
	jq -e ".timing.latency_us.write.mean > 0" c4.json
'

t_expect_success 'QD1 uniform writes at steady state with GC: IOPS and mean latency those without a cache within 1%, the counts equal' '
	"$G" -q -p uniform -n 65536 --fill -w 500000 -o bin >u.ev &&
	for c in 0 1; do
		"$S" -q --device femu,channels=1,dies=1,cache_mib=$c --qd 1 --op 0.1 --logical-pages 65536 \
			--warmup-writes 300000 u.ev >q$c.json || return 1
	done &&
	jq -e --slurpfile n q0.json "\$n[0] as \$n |
		.wa_measured == \$n.wa_measured and .gc_pages_copied == \$n.gc_pages_copied and
		((.timing.iops - \$n.timing.iops) / \$n.timing.iops | fabs) < 0.01 and
		((.timing.latency_us.write.mean - \$n.timing.latency_us.write.mean) / \$n.timing.latency_us.write.mean | fabs) < 0.01 and
		.timing.cache.pages == 256 and .timing.cache.requests_waited > 0" q1.json || {
		jq -c "[.wa_measured, .timing.iops, .timing.latency_us.write.mean, .timing.cache]" q0.json q1.json; return 1; }
'

# 100 pages written 1 ms apart, then read in the same order; then 100
# pages at once and one read of page 0.
{
	i=0; while [ $i -lt 100 ]; do echo "$((i * 1000000)) W $((i * 4096)) 4096 0"; i=$((i + 1)); done
	i=0; while [ $i -lt 100 ]; do echo "$((200000000 + i * 1000000)) R $((i * 4096)) 4096 0"; i=$((i + 1)); done
	echo "300000000 W 0 409600 0"
	echo "400000000 R 0 4096 0"
} >"$TMP/rh.txt"

t_expect_success 'reads of pages the cache holds read no flash: 64 pages held of 100, the rest tR; all held in 256' '
	"$S" -q --device femu,cache_mib=0.25,cache_us=0 --logical-pages 4096 --op 1 rh.txt >h.json 2>/dev/null &&
	jq -e ".timing.cache.read_hits == 64 and .timing.latency_us.read.count == 101 and
		(.timing.latency_us.read.mean - 37 * 40 / 101 | fabs) < 1e-6 and
		.timing.cache.requests_waited == 1 and .timing.cache.wait_s == 0.0002" h.json &&
	"$S" -q --device femu,cache_mib=1,cache_us=0 --logical-pages 4096 --op 1 rh.txt >h.json 2>/dev/null &&
	jq -e ".timing.cache.read_hits == 101 and .timing.latency_us.read.max == 0 and .timing.latency_us.write.max == 0" h.json &&
	"$S" -q --device femu --logical-pages 4096 --op 1 rh.txt >h.json 2>/dev/null &&
	jq -e ".timing.cache.read_hits == 0 and .timing.latency_us.read.mean == 40" h.json
'

t_expect_success 'on a zoned device: writes into the cache, reads of its pages from it' '
	head -200 rh.txt >rz.txt &&
	"$S" -q --zoned size=1M --device femu,layout=die,cache_mib=0.25,cache_us=0 --logical-pages 4096 rz.txt >z.json 2>/dev/null &&
	jq -e ".timing.cache.read_hits == 64 and .timing.latency_us.write.max == 0 and
		(.timing.latency_us.read.mean - 36 * 40 / 100 | fabs) < 1e-6" z.json
'

t_expect_success 'a flush completes when the cache has drained: a read after it waits for no program' '
	{ i=0; while [ $i -lt 64 ]; do echo "0 W $((i * 4096)) 4096 0"; i=$((i + 1)); done
	  echo "0 F 0 0 0"; echo "0 R 1048576 4096 0"; } >f.txt &&
	grep -v " F " f.txt >nf.txt &&
	"$S" -q --device femu,channels=1,dies=1,cache_mib=1,cache_us=0 --qd 1 --logical-pages 4096 --op 1 f.txt >f.json 2>/dev/null &&
	"$S" -q --device femu,channels=1,dies=1,cache_mib=1,cache_us=0 --qd 1 --logical-pages 4096 --op 1 nf.txt >nf.json 2>/dev/null &&
	jq -e ".timing.latency_us.read.mean == 40 and .timing.latency_us.write.max == 0 and .timing.requests == 66 and
		.timing.flush_latency_us == {\"count\": 1, \"mean_us\": 12800, \"max_us\": 12800}" f.json &&
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --logical-pages 4096 --op 1 f.txt 2>/dev/null |
		jq -e ".timing.flush_latency_us == {\"count\": 1, \"mean_us\": 0, \"max_us\": 0}" &&
	jq -e ".timing.latency_us.read.mean == 64 * 200 + 40" nf.json
'

t_expect_success 'the cache'"'"'s memory: the dry run'"'"'s model_bytes is the run'"'"'s, and grows by 36 bytes a page or more' '
	for c in 0 4; do
		"$S" -q --device femu,cache_mib=$c,cache_us=0 --logical-pages 65536 --op 0.1 --dry-run u.ev | jq .memory.model_bytes >d$c &&
		"$S" -q --device femu,cache_mib=$c,cache_us=0 --logical-pages 65536 --op 0.1 u.ev 2>/dev/null | jq .memory.model_bytes >r$c &&
		cmp d$c r$c || return 1
	done &&
	test $(( $(cat d4) - $(cat d0) )) -ge $((1024 * 36))
'

t_expect_success 'cache_mib: less than a page, negative or not a number is a usage error naming it' '
	"$S" -q --device femu,cache_mib=64 --logical-pages 4096 --op 1 rh.txt 2>e >/dev/null &&
	grep -q "the write cache (cache_mib=64, 16384 pages) holds more than the drive.s 4096 logical pages" e &&
	t_err 2 "cache_mib=0.001: less than one of its pages of 4096 bytes" "$S" --device femu,cache_mib=0.001 u.ev &&
	t_err 2 "cache_mib=-1" "$S" --device femu,cache_mib=-1 u.ev &&
	t_err 2 "cache_mib=lots" "$S" --device femu,cache_mib=lots u.ev
'

t_expect_success 'a grid over the cache: each configuration its own run'"'"'s latencies' '
	"$S" -q --op 3 --grid "device=femu,channels=1,dies=1,femu,channels=1,dies=1,cache_mib=0.015625,cache_us=0" p.ev >g.json 2>/dev/null &&
	jq -e --slurpfile c c4.json --slurpfile n n.json "
		.configurations[0].timing.latency_us == \$n[0].timing.latency_us and
		.configurations[1].timing.latency_us == \$c[0].timing.latency_us" g.json || {
		jq -c ".configurations[] | [.axes, .timing.latency_us.write.mean]" g.json; return 1; }
'

t_expect_success 'cache_us (default 0.5): hits of one page at QD 4 bound by the cache'"'"'s bus, 2,000,000 a second' '
	{ echo "0 W 0 4096 0"; i=1; while [ $i -le 20000 ]; do echo "$((i * 10)) R 0 4096 0"; i=$((i + 1)); done; } >rr.txt &&
	"$S" -q --logical-pages 1024 --pages-per-segment 16 --device femu,channels=1,dies=1,cache_mib=1 --qd 4 rr.txt >b.json 2>/dev/null &&
	jq -e ".timing.cache.read_hits > 19990 and .timing.device.cache_us == 0.5 and
		((.timing.iops - 2e6) / 2e6 | fabs) < 0.001 and (.timing.latency_us.read.p50 - 2 | fabs) < 0.01" b.json || {
		jq -c "[.timing.iops, .timing.latency_us.read, .timing.cache]" b.json; return 1; }
'

t_expect_success 'a page still waiting for room is not in the cache: a read of it reads flash after its program' '
	printf "0 W 0 4096 0\n0 W 4096 4096 0\n1000 R 4096 4096 0\n" >w.txt &&
	"$S" -q --logical-pages 1024 --pages-per-segment 16 --device femu,channels=1,dies=1,cache_mib=0.00390625 w.txt >w.json 2>/dev/null &&
	jq -e ".timing.cache.read_hits == 0 and .timing.latency_us.read.max == 440 and .timing.latency_us.write.max == 201" w.json
'

t_expect_success 'a device-keys axis: caches on the command line'"'"'s device, each its own run; a bad key a usage error naming the cell' '
	"$S" -q --device femu,channels=1,dies=1 --op 3 --grid "device-keys=cache_mib=0,cache_mib=0.015625,cache_us=0" p.ev >dk.json 2>/dev/null &&
	jq -e --slurpfile c c4.json --slurpfile n n.json "
		.configurations[0].timing.latency_us == \$n[0].timing.latency_us and
		.configurations[1].timing.latency_us == \$c[0].timing.latency_us and
		.configurations[1].axes[\"device-keys\"] == \"cache_mib=0.015625,cache_us=0\"" dk.json &&
	t_err 2 "grid device-keys=cache_mib=x: .*cache_mib=x: a number" "$S" --grid "device-keys=cache_mib=x" p.ev &&
	t_err 2 "not KEY=VALUE" "$S" --grid "device-keys=fast" p.ev &&
	"$S" -q --device-keys cache_mib=0.015625,cache_us=0 --device femu,channels=1,dies=1 --op 3 p.ev 2>/dev/null |
		jq -e --slurpfile c c4.json ".timing.latency_us == \$c[0].timing.latency_us" &&
	t_err 2 "device-keys given twice" "$S" --device-keys cache_mib=1 --device-keys suspend=both p.ev &&
	t_err 2 "device-keys cache_mib=0: cache_mib is given by --device femu,cache_mib=1 too" \
		"$S" --device femu,cache_mib=1 --device-keys cache_mib=0 p.ev &&
	t_err 2 "grid device=femu,cache_mib=0: --device-keys cache_mib=1: cache_mib is given by --device femu,cache_mib=0 too" \
		"$S" --device-keys cache_mib=1 --grid "device=femu,cache_mib=0,tlc" p.ev &&
	printf "profile=femu\nsuspend=erase\n" >se.dev &&
	t_err 2 "suspend is given by --device se.dev too" "$S" --device se.dev --device-keys suspend=both p.ev
'

t_expect_success 'ftlsweep: an axis device-keys runs as one grid and point by point (--split), the same latencies' '
	printf "trace %s pois\noptions --device femu,channels=1,dies=1 --op 3\naxis device-keys cache_mib=0 cache_mib=0.015625,cache_us=0\n" "$TMP/p.ev" >c.sweep &&
	"$BIN/ftlsweep" plan c.sweep d1 2>/dev/null && "$BIN/ftlsweep" run d1 --local 2>/dev/null &&
	"$BIN/ftlsweep" plan c.sweep d2 --split 2>/dev/null && "$BIN/ftlsweep" run d2 --local 2>/dev/null &&
	for d in d1 d2; do
		"$BIN/ftlsweep" merge $d | python3 -c "import csv, sys
for r in csv.DictReader(sys.stdin): print(r[\"device-keys\"], r[\"timing.latency_us.write.mean\"])" >m$d || return 1
	done &&
	t_cmp md1 md2 && test "$(wc -l <md1)" = 2 &&
	test "$(sed -n 2p md1)" = "cache_mib=0.015625,cache_us=0 $(jq .timing.latency_us.write.mean c4.json)"
'

t_done
