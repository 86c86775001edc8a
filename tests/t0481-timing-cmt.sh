#!/bin/sh
# t0481-timing-cmt: the device in time's cached mapping table (--device
# ...,cmt_mib=M,cmt_entry_bytes=B) against closed forms. One die, QD 1,
# no GC (large over-provisioning), uniform random 4 KiB requests over U
# pages after --precondition (every translation page on flash, the
# cache empty), C entries cached:
# - the hit ratio is C/U (LRU under uniform traffic) within 1%;
# - reads only: the mean read latency is (tR + xfer)(1 + (1 - C/U))
#   within 1% (a miss reads its translation page, then the page), and
#   (tR + xfer)(1 + misses / reads) to the nanosecond;
# - writes only, a translation page of one entry (B = page size), past a
#   warm-up that leaves every cached entry dirty: the time per write
#   (1 / IOPS) is tPROG + (1 - C/U)(tR + tR + tPROG) within 1% (a miss's
#   read, then the write-back of the evicted entry's page: its old
#   version read, the new one programmed, on the die after the write);
# - writes with 8-byte entries: tPROG + (translation reads x tR +
#   translation writes x tPROG) / writes, to the nanosecond.
# And: a cache of every entry changes nothing but timing.cmt; each die
# is busy exactly the time of the operations charged to it, translation
# pages' included; without a fill no translation page is read until one
# is written back; a request reads each translation page it misses on
# once, its unmapped pages' too; a miss's translation read suspends
# yielding GC as a host read does (suspend=); with no transfer time it
# waits for no channel; the keys' errors.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
ONE="--qd 1 --op 50 --logical-pages 4096 --precondition seq"

"$G" -q -p uniform -n 4096 -w 500000 --read-prob 1 -s 1 -o bin >"$TMP/r.ev" 2>/dev/null
"$G" -q -p uniform -n 4096 -w 150000 -s 2 -o bin >"$TMP/w.ev" 2>/dev/null

t_expect_success 'reads: hit ratio C/U within 1%, mean read latency (tR + xfer)(2 - C/U) within 1%, exact with the misses' '
	for c in 0.015625:0.5 0.0078125:0.25 0.0234375:0.75; do
		"$S" -q --device femu,channels=1,dies=1,xfer_us=10,cmt_mib=${c%%:*} $ONE r.ev >s.json 2>/dev/null &&
		jq -e --argjson h ${c#*:} ".timing.cmt as \$m | .timing.latency_us.read.mean as \$l |
			\$m.entries == 4096 * \$h and \$m.hits + \$m.misses == 500000 and \$m.translation_reads == \$m.misses and
			\$m.translation_writes == 0 and ((\$m.hit_ratio - \$h) / \$h | fabs) < 0.01 and
			((\$l - 50 * (2 - \$h)) / \$l | fabs) < 0.01 and
			((\$l - 50 * (1 + \$m.misses / 500000)) | fabs) < 1e-6" s.json >/dev/null || {
			jq -c "[.timing.cmt, .timing.latency_us.read.mean]" s.json; return 1; }
	done
'

t_expect_success 'writes, a translation page an entry: time per write tPROG + (1 - C/U)(2 tR + tPROG) within 1%' '
	for c in 8:0.5 4:0.25 12:0.75; do
		"$S" -q --device femu,channels=1,dies=1,cmt_mib=${c%%:*},cmt_entry_bytes=4096 $ONE --warmup-writes 10000 \
			w.ev >s.json 2>/dev/null &&
		jq -e --argjson h ${c#*:} ".timing.cmt as \$m | (.timing.measured_s / .timing.requests_measured * 1e6) as \$t |
			.gc_pages_copied == 0 and .timing.requests_measured == 140000 and \$m.hits + \$m.misses == 140000 and
			\$m.translation_writes == \$m.misses and \$m.translation_reads == 2 * \$m.misses and
			((\$m.hit_ratio - \$h) / \$h | fabs) < 0.01 and ((\$t - (200 + (1 - \$h) * 280)) / \$t | fabs) < 0.01" \
			s.json >/dev/null || {
			jq -c "[.timing.cmt, .timing.measured_s, .timing.requests_measured, .timing.latency_us.write.mean]" s.json
			return 1; }
	done
'

t_expect_success 'writes, 8-byte entries: the time per write from the translation pages read and written, to the nanosecond' '
	"$S" -q --device femu,channels=1,dies=1,cmt_mib=0.015625 $ONE --warmup-writes 10000 w.ev >s.json 2>/dev/null &&
	jq -e ".timing.cmt as \$m | .timing.requests_measured as \$n |
		\$m.translation_writes > 0 and \$m.translation_writes < \$m.misses / 10 and
		((.timing.measured_s * 1e6 - (200 * \$n + 40 * \$m.translation_reads + 200 * \$m.translation_writes)) | fabs) < 1e-3" \
		s.json >/dev/null || { jq -c "[.timing.cmt, .timing.measured_s]" s.json; return 1; }
'

"$G" -q -p hotcold -n 16384 -w 60000 --fill -s 3 --trim-prob 0.05 -o bin >"$TMP/h.ev" 2>/dev/null
"$G" -q -p hotcold -n 16384 -w 60000 -s 3 --read-prob 0.3 -o bin >"$TMP/hr.ev" 2>/dev/null

t_expect_success 'a cache of every entry: every figure that of cmt_mib=0, but timing.cmt (all hits) and the memory' '
	for p in "" "--precondition random"; do
		for k in "" ",cmt_mib=0.125"; do
			"$S" -q --device femu,channels=2,dies=2$k --qd 4 --op 0.15 --pages-per-segment 64 $p hr.ev >o.json 2>/dev/null &&
			jq -S "del(.timing.cpu_s, .timing.elapsed_s, .timing.page_writes_per_s, .timing.flash_page_writes_per_s,
				.timing.max_rss_kb, .timing.cmt, .memory)" o.json >o$k.j || return 1
		done
		t_cmp o.j o,cmt_mib=0.125.j &&
		jq -e ".timing.cmt | .entries == 16384 and .misses == 0 and .hit_ratio == 1 and .translation_reads == 0" o.json &&
		! grep -q cmt o.j || return 1
	done
'

t_expect_success 'each die busy exactly its operations, translation pages'"'"' reads and writes too (stripe and die, GC)' '
	for layout in stripe die; do
		"$S" -q --device femu,channels=2,dies=2,layout=$layout,cmt_mib=0.01 --qd 4 --op 0.15 --pages-per-segment 64 \
			--precondition random h.ev >s.json 2>/dev/null &&
		jq -e --arg l $layout "(.timing.unit_busy_s_each | add) as \$sum | .timing.cmt as \$m |
			(if \$l == \"stripe\" then 4 else 1 end) as \$eu |
			(.flash_pages_written * 200e-6 + .gc_pages_copied * 40e-6 + .segments_cleaned * \$eu * 2e-3
			 + \$m.translation_reads * 40e-6 + \$m.translation_writes * 200e-6) as \$want |
			\$m.translation_writes > 0 and .gc_pages_copied > 0 and
			((\$sum - \$want) | fabs) < 1e-6 and ((.timing.unit_busy_s - \$sum) | fabs) < 1e-6" s.json >/dev/null || {
			jq -c "[.timing.unit_busy_s, .timing.cmt, .flash_pages_written, .gc_pages_copied]" s.json; return 1; }
	done
'

t_expect_success 'without a fill no translation page is on flash: reads of unwritten pages read no translation page' '
	"$S" -q --device femu,channels=1,dies=1,cmt_mib=0.0078125 --qd 1 --op 50 --logical-pages 4096 r.ev >s.json 2>/dev/null &&
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op 50 --logical-pages 4096 r.ev >n.json 2>/dev/null &&
	jq -e --slurpfile n n.json ".timing.cmt.misses > 100000 and .timing.cmt.translation_reads == 0 and
		.timing.latency_us.read.mean == \$n[0].timing.latency_us.read.mean" s.json >/dev/null
'

t_expect_success 'a read over two translation pages, mapped and unmapped pages of each: one read of each translation page' '
	printf "0 W 0 4096 0\n1000 W 8192 4096 0\n" >age.txt &&
	printf "0 R 0 16384 0\n" >rd.txt &&
	"$S" -q --device femu,channels=1,dies=1,cmt_mib=0.0078125,cmt_entry_bytes=2048 --logical-pages 64 --op 1 \
		--pages-per-segment 16 --precondition-trace age.txt rd.txt >s.json 2>/dev/null &&
	jq -e ".timing.cmt.misses == 4 and .timing.cmt.translation_reads == 2 and .timing.latency_us.read.mean == 240" \
		s.json >/dev/null || { jq -c "[.timing.cmt, .timing.latency_us.read.mean]" s.json; return 1; }
'

t_expect_success 'the warm-up: the counts are the measured window'"'"'s' '
	"$S" -q --device femu,channels=1,dies=1,cmt_mib=0.015625 $ONE --warmup-writes 50000 w.ev >s.json 2>/dev/null &&
	jq -e ".timing.cmt.hits + .timing.cmt.misses == 100000" s.json >/dev/null
'

t_expect_success 'the memory: --dry-run counts the index, the entries and the translation pages'"'"' state' '
	"$S" --device femu,cmt_mib=1 --logical-pages 1048576 --op 0.1 --dry-run r.ev >c.json 2>/dev/null &&
	"$S" --device femu --logical-pages 1048576 --op 0.1 --dry-run r.ev >n.json 2>/dev/null &&
	jq -e --slurpfile n n.json "(.memory.model_bytes - \$n[0].memory.model_bytes) as \$d |
		\$d >= 4 * 1048576 + 16 * 131072 + 21 * 2048 and \$d < 4 * 1048576 + 16 * 131072 + 21 * 2048 + 4096" c.json || {
		jq .memory c.json n.json; return 1; }
'

t_expect_success 'no transfer time: a translation read waits for no channel (a program that waits for room in the write cache on the other die)' '
	printf "0 W 0 32768 0\n500000 R %d 4096 0\n" $((49 * 4096)) >x.txt &&
	"$S" -q --device femu,channels=1,dies=2,layout=die,cache_mib=0.0078125,cmt_mib=0.0625,cmt_entry_bytes=4096 \
		--logical-pages 64 --pages-per-segment 16 --op 1 --precondition seq x.txt >s.json 2>/dev/null &&
	jq -e ".timing.cmt.misses == 9 and .timing.latency_us.read.mean == 80 and .timing.latency_us.write.mean > 1000" \
		s.json >/dev/null || { jq -c "[.timing.cmt, .timing.latency_us.read.mean]" s.json; return 1; }
'

# bursts of random writes, each followed by 5 s of random reads at 100/s
# in which background GC cleans (t0476's pattern)
cat >"$TMP/gen.py" <<'PY'
import random, sys
random.seed(5)
t, out = 1.0, []
for b in range(40):
    for i in range(1000):
        t += random.expovariate(4000.0)
        out.append("%d W %d 4096 0\n" % (int(t * 1e9), random.randrange(65536) * 4096))
    t += 0.05
    end = t + 5
    while True:
        t += random.expovariate(100.0)
        if t >= end:
            break
        out.append("%d R %d 4096 0\n" % (int(t * 1e9), random.randrange(65536) * 4096))
    t = end
sys.stdout.write("".join(out))
PY

t_expect_success 'a miss'"'"'s translation read suspends yielding GC as a host read does: no read waits out an erase; the busy time grows by suspend_us a suspension' '
	python3 gen.py >b.txt &&
	for s in off both; do
		"$S" -q --device femu,channels=1,dies=1,suspend=$s,suspend_us=10,cmt_mib=0.25 --op 0.28 --gc-low 4 --gc-high 8 \
			--bg-gc idle=1,high=16 --logical-pages 65536 --precondition random b.txt >$s.json 2>/dev/null || return 1
	done &&
	jq -e ".timing.latency_us.read.max > 1000 and .timing.cmt.translation_reads > 10000" off.json >/dev/null &&
	jq -e --slurpfile o off.json "\$o[0] as \$o | .timing.cmt as \$m | .timing.suspensions > 1000 and
		.timing.latency_us.read.max < 300 and .gc_pages_copied == \$o.gc_pages_copied and
		(.timing.unit_busy_s - \$o.timing.unit_busy_s - .timing.suspensions * 10e-6
		 - (\$m.translation_reads - \$o.timing.cmt.translation_reads) * 40e-6
		 - (\$m.translation_writes - \$o.timing.cmt.translation_writes) * 200e-6 | fabs) < 1e-9" both.json >/dev/null || {
		jq -c "[.timing.suspensions, .timing.latency_us.read.max, .timing.unit_busy_s, .timing.cmt]" off.json both.json
		return 1; }
'

t_expect_status 2 'a zoned device: cmt_mib refused' \
	'"$S" -q --logical-pages 8192 --pages-per-segment 32 --zoned size=128K --device femu,cmt_mib=1 h.ev'
t_expect_status 2 'an entry larger than a page: refused' \
	'"$S" -q --logical-pages 8192 --op 0.2 --device femu,cmt_mib=1,cmt_entry_bytes=8192 h.ev'

t_done
