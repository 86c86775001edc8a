#!/bin/sh
# t0476-timing-suspend: a host read suspends the erase or program of GC
# work that yields (--device ...,suspend=erase|program|both,suspend_us=T).
# - Reads in the idle time that background GC cleans in, one die: a
#   read waits behind no erase with suspend=erase (at most tR + tPROG
#   and a read ahead), behind no erase or program with both (a GC read
#   in progress and a read ahead), where without it one waits up to
#   tBERS; the counts (WA, victims) are the same.
# - A host write's program in the idle time suspends a yielding erase
#   too (not its own block's): with tBERS 10 ms and writes among the
#   reads, no read and no write waits out an erase.
# - The units' busy time grows by suspend_us a suspension, exactly, and
#   the timeline's rows sum to it (their busy share at most 1).
# - --check: no copy before its read, no page before its block's erase,
#   with suspensions by reads and writes, on every way of laying out and
#   cleaning.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"

# After a random fill (--precondition random): ROUNDS bursts of N
# random writes at 4,000/s, each followed 50 ms later by IDLE seconds of
# random reads at RATE/s (and random writes at WRATE/s, default none).
cat >"$TMP/gen.py" <<'PY'
import random, sys
pages, rounds, n, idle, rrate = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
wrate = float(sys.argv[6]) if len(sys.argv) > 6 else 0
random.seed(5)
t = 1.0
out = []
for b in range(rounds):
    for i in range(n):
        t += random.expovariate(4000.0)
        out.append("%d W %d 4096 0\n" % (int(t * 1e9), random.randrange(pages) * 4096))
    t += 0.05
    end = t + idle
    while True:
        t += random.expovariate(rrate + wrate)
        if t >= end:
            break
        op = "W" if wrate and random.random() < wrate / (rrate + wrate) else "R"
        out.append("%d %s %d 4096 0\n" % (int(t * 1e9), op, random.randrange(pages) * 4096))
    t = end
sys.stdout.write("".join(out))
PY
A="--op 0.28 --gc-low 4 --gc-high 8 --bg-gc idle=1,high=16 --logical-pages 65536 --precondition random"

t_expect_success 'reads in idle-time GC, one die: behind no erase with suspend=erase, no erase or program with both' '
	python3 gen.py 65536 40 1000 5 100 >b.txt &&
	for s in off erase program both; do
		"$S" -q --device femu,channels=1,dies=1,suspend=$s $A b.txt >$s.json 2>/dev/null || return 1
	done &&
	jq -e ".timing.bg_victims > 100 and .timing.gc_idle_share == 1 and .timing.suspensions == 0 and
		.timing.latency_us.read.max > 1000" off.json &&
	jq -e ".timing.suspensions > 0 and .timing.latency_us.read.max <= 40 + 200 + 40" erase.json &&
	jq -e ".timing.suspensions > 0 and .timing.latency_us.read.max <= 3 * 40" both.json &&
	jq -e ".timing.suspensions > 0 and .timing.latency_us.read.p99 < 100" program.json &&
	for s in erase program both; do
		jq -e --slurpfile o off.json "\$o[0] as \$o | .wa_measured == \$o.wa_measured and
			.timing.bg_victims == \$o.timing.bg_victims and .gc_pages_copied == \$o.gc_pages_copied and
			.timing.latency_us.read.p99 <= \$o.timing.latency_us.read.p99" $s.json || return 1
	done
'

t_expect_success 'writes in the idle time: a host program suspends a yielding erase too, so neither a write nor a read after it waits out an erase (tBERS 10 ms)' '
	python3 gen.py 65536 40 1000 5 100 50 >m.txt &&
	for s in off erase both; do
		"$S" -q --device femu,channels=1,dies=1,tbers_us=10000,suspend=$s $A m.txt >m$s.json 2>/dev/null || return 1
	done &&
	jq -e ".timing.latency_us.read.max > 9000 and .timing.latency_us.write.max > 10000" moff.json &&
	for s in erase both; do
		jq -e --slurpfile o moff.json "\$o[0] as \$o | .timing.suspensions > 0 and
			.timing.latency_us.read.max < 1000 and .timing.latency_us.write.max < 10000 and
			.timing.latency_us.write.p99_9 < \$o.timing.latency_us.write.p99_9 / 2 and
			.wa_measured == \$o.wa_measured and .gc_pages_copied == \$o.gc_pages_copied" m$s.json || return 1
	done &&
	"$S" -q --device femu,channels=1,dies=1,tbers_us=10000,suspend=erase,suspend_us=10 $A m.txt >m10.json 2>/dev/null &&
	jq -e --slurpfile o moff.json ".timing.suspensions > 100 and
		(.timing.unit_busy_s - \$o[0].timing.unit_busy_s - .timing.suspensions * 10e-6 | fabs) < 1e-9" m10.json
'

t_expect_success 'the units'"'"' busy time grows by suspend_us a suspension, exactly; the timeline'"'"'s rows sum to it' '
	"$S" -q --device femu,channels=1,dies=1,suspend=off $A --timeline t0.csv b.txt >o.json 2>/dev/null &&
	"$S" -q --device femu,channels=1,dies=1,suspend=both,suspend_us=10 $A --timeline t1.csv b.txt >s.json 2>/dev/null &&
	jq -e --slurpfile o o.json ".timing.suspensions > 1000 and
		(.timing.unit_busy_s - \$o[0].timing.unit_busy_s - .timing.suspensions * 10e-6 | fabs) < 1e-9" s.json &&
	for f in t0 t1; do
		awk -F, "NR > 1 { if (\$6 > 1 + 1e-9) bad = 1; s += \$6 * \$12 } END { if (bad) exit 1; printf \"%.6f\\n\", s }" $f.csv >$f.sum || return 1
	done &&
	jq -e --argjson s "$(cat t1.sum)" "(.timing.unit_busy_s - \$s | fabs) < 1e-5" s.json &&
	jq -e --argjson s "$(cat t0.sum)" "(.timing.unit_busy_s - \$s | fabs) < 1e-5" o.json
'

t_expect_success '--check holds with suspensions: idle-time and preemptible GC, planes, a segment per die, transfers' '
	for dv in channels=2,dies=2,planes=2 channels=2,dies=2,layout=die,xfer_us=50 channels=1,dies=2,planes=2,multiplane=off; do
		for g in "--gc-preempt hard=1" "--bg-gc idle=1,high=12"; do
			"$S" -q --check --device femu,$dv,suspend=both,suspend_us=5 --op 0.28 --gc-low 4 --gc-high 8 $g \
				--logical-pages 65536 --precondition random $TMP/m.txt >c.json 2>e || { cat e; return 1; }
			case $g in --bg-gc*) jq -e ".timing.suspensions > 0" c.json || return 1 ;; esac
		done
	done
'

t_expect_success 'foreground GC suspends nothing: the same latencies as without, and a warning' '
	"$S" -q --device femu,channels=1,dies=1,suspend=both --op 0.28 --gc-low 4 --gc-high 8 --logical-pages 65536 \
		--precondition random b.txt >f1.json 2>e &&
	grep -q "suspend=both suspends GC work that yields" e &&
	"$S" -q --device femu,channels=1,dies=1 --op 0.28 --gc-low 4 --gc-high 8 --logical-pages 65536 \
		--precondition random b.txt >f0.json 2>/dev/null &&
	jq -e --slurpfile o f0.json ".timing.latency_us == \$o[0].timing.latency_us and .timing.suspensions == 0" f1.json
'

t_expect_success 'suspend: an unknown kind or a negative time is a usage error naming it' '
	t_err 2 "off, erase, program or both" "$S" --device femu,suspend=sometimes b.txt &&
	t_err 2 "suspend_us=-1" "$S" --device femu,suspend=erase,suspend_us=-1 b.txt
'

t_expect_success 'a device key the rest of the device leaves without effect is said: cache_us without a cache, suspend_us without suspend, multiplane with one plane, each of them; not when it has one' '
	"$BIN/tracegen" -q -p uniform -n 4096 -w 2000 -o bin >k.ev &&
	for k in cache_us=1 suspend_us=5 multiplane=off; do
		"$S" -q --timing --device-keys $k --logical-pages 4096 --pages-per-segment 64 k.ev >/dev/null 2>k.err &&
		grep -q "^ftlsim: warning: the device key ${k%%=*} changes nothing: it is " k.err || { cat k.err; return 1; }
	done &&
	for k in cache_mib=1,cache_us=1 suspend=erase,suspend_us=5 planes=2,multiplane=off; do
		"$S" -q --timing --device-keys $k --logical-pages 4096 --pages-per-segment 64 k.ev >/dev/null 2>k.err &&
		! grep -q "changes nothing" k.err || { cat k.err; return 1; }
	done &&
	"$S" -q --timing --device-keys cache_us=1,suspend_us=5,multiplane=off --logical-pages 4096 --pages-per-segment 64 \
		k.ev >/dev/null 2>k.err &&
	test "$(grep -c "changes nothing" k.err)" = 3 || { cat k.err; return 1; }
'
t_done
