#!/bin/sh
# t0472-timing: the device in time against what can be computed.
# - Poisson writes to one die, no GC: the mean latency is the M/D/1
#   (Pollaczek-Khinchine) value, tPROG + rho tPROG / (2 (1 - rho)),
#   within 2%; Poisson reads over 64 dies, pages striped: each die is
#   M/D/1 at a 64th of the rate, and so is the mean.
# - Each die's busy time is the sum of the times of the operations
#   charged to it, exactly (the counts of the summary times tR, tPROG,
#   tBERS).
# - Closed loop QD1, uniform random writes at steady state, one die: a
#   write takes tPROG + (WA-1)(tR+tPROG) + (WA/b) tBERS within 1%.
# - Background GC in idle gaps long enough: no request waits on GC and
#   the write p99 is the no-GC run's.
# - With timing on and foreground GC, every counting result is the same
#   as without it.
# - An unqueued TRIM holds the requests behind it; a queued one does not.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"

# Poisson arrivals (seeded): N requests at RATE IOPS, OP (W or R) to a
# uniformly random page of PAGES.
cat >"$TMP/pois.py" <<'PY'
import random, sys
n, rate, op, pages = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], int(sys.argv[4])
random.seed(11)
t = 0.0
out = []
for i in range(n):
    t += random.expovariate(rate)
    out.append("%d %s %d 4096 0\n" % (int(t * 1e9), op, random.randrange(pages) * 4096))
sys.stdout.write("".join(out))
PY
# Bursts of random writes at 4000 IOPS after a fill, IDLE seconds apart.
cat >"$TMP/bursts.py" <<'PY'
import random, sys
pages, bursts, n, idle = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
random.seed(3)
t = 0.0
out = []
for p in range(pages):
    t += 2.5e-6
    out.append("%d W %d 4096 0\n" % (int(t * 1e9), p * 4096))
t += idle
for b in range(bursts):
    for i in range(n):
        t += random.expovariate(4000.0)
        out.append("%d W %d 4096 0\n" % (int(t * 1e9), random.randrange(pages) * 4096))
    t += idle
sys.stdout.write("".join(out))
PY

# Poisson writes at 3500/s (p.txt), and 500,000 uniform writes after a
# fill (u.ev; under the sanitizers, without the QD1 figure, 150,000):
# several cases' inputs.
python3 "$TMP/pois.py" 200000 3500 W 1048576 >"$TMP/p.txt"
UW=500000
t_sanitized && UW=150000
"$G" -p uniform -n 65536 --fill -w $UW -o bin >"$TMP/u.ev" 2>/dev/null

t_expect_figure 'Poisson writes to one die (rho 0.5 and 0.7): mean latency = M/D/1 within 2%' '
	for rate in 2500 3500; do
		{ [ $rate = 3500 ] && cp p.txt p$rate.txt || python3 pois.py 200000 $rate W 1048576 >p$rate.txt; } &&
		"$S" -q --device femu,channels=1,dies=1 --op 1 --logical-pages 1048576 p$rate.txt >s.json || return 1
		jq -e --argjson lam $rate ".gc_pages_copied == 0 and
			(200e-6 * \$lam) as \$rho | (200 + \$rho * 200 / (2 * (1 - \$rho))) as \$w |
			((.timing.latency_us.write.mean - \$w) / \$w | fabs) < 0.02" s.json || {
			jq .timing.latency_us.write s.json; return 1; }
	done
'

t_expect_figure 'Poisson reads over 8x8 striped dies: each die M/D/1 at a 64th of the rate, within 2%' '
	python3 pois.py 300000 640000 R 65536 >r.txt &&
	"$S" -q --device femu --op 1 --logical-pages 65536 --precondition seq r.txt >s.json &&
	jq -e "(640000 / 64 * 40e-6) as \$rho | (40 + \$rho * 40 / (2 * (1 - \$rho))) as \$w |
		((.timing.latency_us.read.mean - \$w) / \$w | fabs) < 0.02" s.json || {
		jq .timing.latency_us.read s.json; return 1; }
'

t_expect_success 'each die busy exactly the time of the operations charged to it' '
	"$G" -p hotcold -n 16384 -w 60000 --fill -s 3 --trim-prob 0.05 -o bin >h.ev 2>/dev/null &&
	for layout in stripe die; do
		"$S" -q --device femu,channels=2,dies=2,layout=$layout --qd 4 --op 0.15 --pages-per-segment 64 h.ev >s.json &&
		jq -e --arg l $layout "(.timing.unit_busy_s_each | add) as \$sum |
			(if \$l == \"stripe\" then 4 else 1 end) as \$eu |
			((.flash_pages_written + .precondition_pages_written * 0) * 200e-6 + .gc_pages_copied * 40e-6
			 + .segments_cleaned * \$eu * 2e-3 + .requests.read_pages * 0) as \$want |
			((\$sum - \$want) | fabs) < 1e-6 and ((.timing.unit_busy_s - \$sum) | fabs) < 1e-6" s.json || {
			jq "{b: .timing.unit_busy_s, e: .timing.unit_busy_s_each, f: .flash_pages_written, g: .gc_pages_copied, c: .segments_cleaned}" s.json
			return 1; }
	done
'

t_expect_success 'planes at QD 64 on one die of two: 2 pages a tPROG with multi-plane commands, 1 without, 2 as units' '
	"$G" -p uniform -n 16384 -w 60000 -s 3 -o bin >u16.ev 2>/dev/null &&
	for m in on:10000:1 off:5000:1 ideal:10000:2; do
		"$S" -q --device femu,channels=1,dies=1,planes=2,multiplane=${m%%:*} --qd 64 --op 4 --logical-pages 16384 \
			u16.ev >s.json 2>/dev/null &&
		m=${m#*:} && jq -e --argjson iops ${m%%:*} --argjson units ${m#*:} \
			".gc_pages_copied == 0 and .timing.iops == \$iops and .timing.device.units == \$units" s.json || {
			jq -c "[.timing.iops, .timing.device]" s.json; return 1; }
	done
'

t_expect_success 'a segment of few pages a block: the warning counts the planes it is striped over, not the units (dies)' '
	"$S" -q --device femu,channels=2,dies=2,planes=2 --op 4 --logical-pages 16384 --pages-per-segment 64 u16.ev >s.json 2>e &&
	jq -e ".timing.device.units == 4" s.json >/dev/null &&
	grep -q "a segment of 64 pages striped over the array.s 8 planes (channels x dies x planes) puts 8 pages of it in each plane.s block: every segment cleaned costs 8 erases" e
'

t_expect_success 'multi-plane commands: a die busy exactly the time of its commands (operations less those that joined)' '
	for layout in stripe die; do
		"$S" -q --device femu,channels=1,dies=2,planes=2,layout=$layout --qd 4 --op 0.15 --pages-per-segment 64 \
			h.ev >s.json 2>/dev/null &&
		jq -e --arg l $layout "(.timing.unit_busy_s_each | add) as \$sum | .timing.multiplane_joined as \$j |
			(if \$l == \"stripe\" then 4 else 1 end) as \$eu |
			((.flash_pages_written - \$j.program) * 200e-6 + (.gc_pages_copied - \$j.read) * 40e-6
			 + (.segments_cleaned * \$eu - \$j.erase) * 2e-3) as \$want |
			((\$sum - \$want) | fabs) < 1e-6 and (\$l == \"die\" or \$j.program > 0 and \$j.erase > 0)" s.json || {
			jq -c "[.timing.unit_busy_s, .timing.multiplane_joined, .flash_pages_written, .gc_pages_copied]" s.json
			return 1; }
	done
'

t_expect_success 'multi-plane commands in idle-time and preemptible GC too: each die busy exactly its commands'"'"' time' '
	"$G" -p hir --rate 4000 -n 16384 --fill --burst 0.75 --waits 5 --rounds 6 --baseline 0 -o bin >hb2.ev 2>/dev/null &&
	for g in "--bg-gc idle=100,high=20" "--gc-preempt hard=1"; do
		"$S" -q --device femu,channels=1,dies=2,planes=2 --op 0.28 --pages-per-segment 64 --gc-low 4 --gc-high 8 $g \
			hb2.ev >s.json 2>/dev/null &&
		jq -e ".timing.multiplane_joined as \$j | ((.flash_pages_written - \$j.program) * 200e-6
			+ (.gc_pages_copied - \$j.read) * 40e-6 + (.segments_cleaned * 4 - \$j.erase) * 2e-3) as \$want |
			((.timing.unit_busy_s - \$want) | fabs) < 1e-6 and \$j.read > 0" s.json || {
			jq -c "[.timing.unit_busy_s, .timing.multiplane_joined]" s.json; return 1; }
	done
'

t_expect_success 'one plane a die: the same results under every multiplane mode, no multiplane keys' '
	for m in on off ideal; do
		"$S" -q --device femu,channels=2,dies=2,multiplane=$m --qd 4 --op 0.15 --pages-per-segment 64 h.ev |
			jq -c "del(.timing.cpu_s, .timing.elapsed_s, .timing.page_writes_per_s,
				.timing.flash_page_writes_per_s, .timing.max_rss_kb)" >m.$m || return 1
	done &&
	t_cmp m.on m.off && t_cmp m.on m.ideal && ! grep -q multiplane m.on
'

t_expect_success 'multiplane=sometimes: usage error naming the modes' '
	t_err 2 "on, off or ideal" "$S" --device femu,planes=2,multiplane=sometimes h.ev
'

t_expect_figure 'QD1 uniform writes on one die: tPROG + (WA-1)(tR+tPROG) + (WA/b)tBERS within 1%' '
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op 0.1 --logical-pages 65536 --warmup-writes 300000 u.ev >s.json &&
	jq -e ".wa_measured as \$wa | (200 + (\$wa - 1) * 240 + \$wa / 256 * 2000) as \$t |
		((.timing.latency_us.write.mean - \$t) / \$t | fabs) < 0.01 and \$t > 1200" s.json || {
		jq "{wa: .wa_measured, w: .timing.latency_us.write}" s.json; return 1; }
'

t_expect_success 'background GC in long idle gaps: no request waits on GC, write p99 = the no-GC run'"'"'s' '
	python3 bursts.py 65536 20 3000 5 >b.txt &&
	"$S" -q --device femu --op 0.28 --gc-low 4 --gc-high 8 --logical-pages 65536 --warmup-writes 65536 b.txt >fg.json &&
	"$S" -q --device femu --op 0.28 --gc-low 4 --gc-high 8 --logical-pages 65536 --warmup-writes 65536 \
		--bg-gc idle=100,high=40 b.txt >bg.json &&
	"$S" -q --device femu --op 4 --logical-pages 65536 --warmup-writes 65536 b.txt >no.json &&
	jq -e ".timing.requests_waited_on_gc > 0 and .timing.latency_us.write.p99 > 1000" fg.json &&
	jq -e ".timing.requests_waited_on_gc == 0 and .timing.bg_victims > 0 and .timing.gc_idle_share == 1" bg.json &&
	jq -e --slurpfile no no.json ".timing.latency_us.write.p99 == \$no[0].timing.latency_us.write.p99" bg.json
'

t_expect_success 'preemptible GC: the write tail below foreground GC'"'"'s, the counts the same' '
	"$S" -q --device femu --op 0.28 --gc-low 4 --gc-high 8 --logical-pages 65536 --warmup-writes 65536 \
		--gc-preempt hard=1 b.txt >pre.json &&
	jq -e --slurpfile fg fg.json ".timing.latency_us.write.p99 < \$fg[0].timing.latency_us.write.p99 and
		.gc_pages_copied == \$fg[0].gc_pages_copied" pre.json
'

t_expect_success 'timing on, foreground GC: every counting result the same as without' '
	"$S" -q --op 0.15 --pages-per-segment 64 --placement sepbit --policy cb --curve c0.csv --hist h0.csv h.ev >a.json &&
	"$S" -q --op 0.15 --pages-per-segment 64 --placement sepbit --policy cb --curve c1.csv --hist h1.csv \
		--device femu --qd 8 h.ev >b.json &&
	jq -S "del(.timing, .memory)" a.json >a.n && jq -S "del(.timing, .memory, .streams[].write_latency_us)" b.json >b.n &&
	t_cmp a.n b.n && t_cmp c0.csv c1.csv && t_cmp h0.csv h1.csv
'

t_expect_success 'an unqueued TRIM holds every request behind it; a queued one does not' '
	{ python3 pois.py 2000 1000 R 4096; echo "1000000000 D 0 1048576 0"; python3 pois.py 2000 1000 R 4096 |
	  awk "{ \$1 = \$1 + 1000000001; print }"; } | sort -n -s -k1,1 >t.txt &&
	"$S" -q --device femu --trim-cost unqueued,us=50000 --logical-pages 65536 t.txt >u.json &&
	"$S" -q --device femu --trim-cost queued,us=50000 --logical-pages 65536 t.txt >q.json &&
	jq -e ".timing.latency_us.trim.max >= 50000 and .timing.latency_us.read.max > 40000" u.json &&
	jq -e ".timing.latency_us.trim.max >= 50000 and .timing.latency_us.read.max < 1000" q.json
'

t_expect_success 'an unqueued TRIM amid GC: the time waited on GC as without a TRIM price (not wrapped round), within 20%' '
	for tc in queued unqueued; do
		"$S" -q --device femu,channels=2,dies=2,layout=die --trim-cost $tc,us=100 --qd 4 --op 0.15 \
			--pages-per-segment 64 h.ev >t.$tc.json || return 1
	done &&
	jq -e ".timing.gc_wait_s > 0 and .timing.gc_wait_s < .timing.simulated_s * .timing.requests" t.unqueued.json &&
	jq -e --slurpfile q t.queued.json "((.timing.gc_wait_s / \$q[0].timing.gc_wait_s) - 1 | fabs) < 0.2" t.unqueued.json || {
		jq -c .timing.gc_wait_s t.queued.json t.unqueued.json; return 1; }
'

t_expect_success 'an operation of no time (tprog_us=0): the run goes on, a write takes 0' '
	"$S" -q --device femu,tprog_us=0 --qd 1 --op 4 --logical-pages 16384 u16.ev >z.json 2>/dev/null &&
	jq -e ".timing.latency_us.write.max == 0 and .timing.unit_busy_s == 0" z.json
'

t_expect_success 'segments of fewer pages than units: striped on round, every unit busy' '
	"$S" -q --device femu,channels=2,dies=4 --qd 8 --op 0.25 --pages-per-segment 4 h.ev >r.json 2>/dev/null &&
	jq -e "[.timing.unit_busy_s_each[] | select(. > 0)] | length == 8" r.json || {
		jq -c .timing.unit_busy_s_each r.json; return 1; }
'

t_expect_success 'the timeline: a row per interval, its completions and arrivals the run'"'"'s requests, shares within [0, 1]' '
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op 0.1 --logical-pages 65536 --timeline tl.csv \
		--timeline-interval 500 --latency lat.csv u.ev >s.json &&
	head -1 tl.csv | grep -qx "t_s,iops,mb_per_s,lat_mean_us,lat_p99_us,busy_share,gc_busy_share,gc_idle_busy_share,free_segments,wa,arrivals_per_s,span_s,read_iops,write_iops" &&
	awk -F, "NR > 1 { n += \$11 * \$12 } END { printf \"%d\\n\", n + 0.5 }" tl.csv >arr &&
	jq -r .timing.requests s.json >reqs && t_cmp reqs arr &&
	awk -F, "NR > 1 { n += \$2 * \$12; if (\$6 < 0 || \$6 > 1.000001 || \$7 < 0 || \$7 > 1 || \$8 < 0 || \$8 > \$7) bad++ }
		END { printf \"%d %d\\n\", n + 0.5, bad }" tl.csv >got &&
	jq -r "\"\\(.timing.requests) 0\"" s.json >want && t_cmp want got &&
	awk -F, "NR > 1 && \$1 == \"write\" { last = \$4 } END { exit !(last == 1) }" lat.csv &&
	# QD 1 keeps the die busy to the end: a busy share of 1 in every row,
	# the last (partial: its span under the interval) too, not a drop
	awk -F, "NR > 1 { if (\$6 < 0.999999 || \$12 > 0.5) bad++; last = \$12 }
		END { exit !(NR > 2 && !bad && last > 0 && last < 0.5) }" tl.csv
'

# Host Idle Recovery (SNIA PTS): after random writes to steady state,
# bursts of random writes separated by idle waits of 5 to 50 s. The
# foreground GC time of a burst, by the wait before it.
cat >"$TMP/hirgc.py" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
t0 = int(sys.argv[2])
acc = collections.defaultdict(lambda: [0.0, 0])
gap, run = 0, []
def flush():
    if run and len(run) <= 7 and gap > 0:
        w = min([5, 10, 15, 25, 50], key=lambda x: abs(x - gap))
        acc[w][0] += sum(float(r['busy_share']) * (float(r['gc_busy_share']) - float(r['gc_idle_busy_share'])) for r in run)
        acc[w][1] += 1
for r in rows[t0:]:
    if float(r['iops']) > 0:
        run.append(r)
    else:
        if run:
            flush()
            run, gap = [], 0
        gap += 1
flush()
print(' '.join('%.4f' % (acc[w][0] / acc[w][1]) for w in sorted(acc)))
PY

t_expect_success 'an open loop beyond the device'"'"'s rate: the timeline'"'"'s IOPS are completions, rows to the last one (at 12 s exactly: it closes the twelfth)' '
	"$S" -q --op 4 --device femu,channels=1,dies=1 --logical-pages 16384 --timeline tl2.csv u16.ev >s2.json 2>/dev/null &&
	awk -F, "NR > 1 { n += \$2; a += \$11; if (\$2 > 5000) bad++ } END { print n, a, NR - 1, bad + 0 }" tl2.csv >got &&
	echo "60000 60000 12 0" >want && t_cmp want got &&
	jq -e ".timing.iops == 5000" s2.json
'

t_expect_figure 'Host Idle Recovery: foreground GC in the bursts falls with the wait under --bg-gc, flat without' '
	"$G" -p uniform -n 65536 -w 131072 --rate 1000 -s 4 -o text >pre.txt 2>/dev/null &&
	T=$(tail -n 1 pre.txt | awk "{ print \$1 + 1000000000 }") &&
	"$G" -p hir --rate 1000 -n 65536 --rounds 2 --baseline 30 -s 2 -o text 2>/dev/null |
		awk -v T=$T "{ \$1 = \$1 + T; print }" >hir.txt && cat pre.txt hir.txt >all.txt &&
	"$S" -q --device femu,channels=1,dies=1 --op 0.15 --logical-pages 65536 --precondition random \
		--timeline off.csv all.txt >off.json &&
	"$S" -q --device femu,channels=1,dies=1 --op 0.15 --logical-pages 65536 --precondition random \
		--bg-gc idle=100,high=32 --timeline on.csv all.txt >on.json &&
	from=$((T / 1000000000 + 1)) &&
	python3 hirgc.py off.csv $from >off && python3 hirgc.py on.csv $from >on && cat off on &&
	awk "NR == 1 { for (i = 1; i <= 5; i++) off[i] = \$i; next }
		{ for (i = 1; i <= 5; i++) on[i] = \$i }
		END { lo = hi = off[1]; for (i = 2; i <= 5; i++) { if (off[i] < lo) lo = off[i]; if (off[i] > hi) hi = off[i] }
		      ok = lo > 1 && hi / lo < 1.1 && on[1] >= on[5] && on[5] < 0.1 * off[5] && on[1] < off[1]
		      for (i = 2; i <= 5; i++) ok = ok && on[i] <= on[i - 1] + 1e-9
		      exit !ok }" off on
'

t_expect_success 'a footprint read twice from stdin keeps the times: the same latencies as from the file' '
	"$S" -q --device femu --logical-space footprint p.txt | jq -c .timing.latency_us >f &&
	"$S" -q --device femu --logical-space footprint - <p.txt | jq -c .timing.latency_us >s &&
	t_cmp f s && grep -q "\"p99\":[1-9]" f
'

t_expect_success 'a device key that does not exist: usage error naming it' '
	t_err 2 "no device key .chans." "$S" --device femu,chans=2 u.ev &&
	t_err 2 "no device profile .mydev. .--list-devices lists them. nor a file of that name" "$S" --device mydev u.ev
'
t_expect_success 'a device file with a bad line: exit 1 naming the file and line; a missing one: exit 1 naming it' '
	printf "channels=2\n# note\ntprog_us=-1\n" >dev.conf &&
	t_err 1 "dev.conf:3: tprog_us=-1" "$S" --device ./dev.conf u.ev &&
	t_err 1 "nosuch.conf: No such file" "$S" --device nosuch.conf u.ev
'
t_expect_success 'a device file: profile= names a profile only (no file hint); an empty file or one of comments is refused' '
	printf "profile=nope\n" >np.conf && t_err 1 "^ftlsim: ./np.conf:1: no device profile .nope. .--list-devices lists them.$" "$S" --device ./np.conf u.ev &&
	: >empty.conf && t_err 1 "empty.conf: no key=value line" "$S" --device ./empty.conf u.ev &&
	printf "# nothing\n\n" >com.conf && t_err 1 "com.conf: no key=value line" "$S" --device ./com.conf u.ev &&
	t_err 2 "page_kib=3: a power of two .1, 2, 4, ... 1024 KiB., as the model.s pages are$" "$S" --device femu,page_kib=3 u.ev
'

t_expect_success 'a device file by a bare name is read; a key given twice is a usage error' '
	printf "channels=1\ndies=1\n" >mydev &&
	"$S" -q --device mydev --qd 1 --op 4 --logical-pages 16384 u16.ev >d.json 2>/dev/null &&
	jq -e ".timing.device.profile == \"file\" and .timing.device.units == 1" d.json &&
	t_err 2 "channels given twice" "$S" --device femu,channels=2,channels=3 u.ev
'

t_expect_success 'a device spec that would lose keys or mean nothing is refused, naming why' '
	printf "tr_us=5\nprofile=tlc\n" >late.conf &&
	t_err 1 "late.conf:2: profile=tlc after other keys" "$S" --device ./late.conf u.ev &&
	printf "profile=tlc\ntr_us=5\n# again\ntr_us = 6\n" >twice.conf &&
	t_err 1 "twice.conf:4: tr_us given twice \\(line 2\\)" "$S" --device ./twice.conf u.ev &&
	t_err 2 "profile=tlc after other keys" "$S" --device femu,tr_us=3,profile=tlc u.ev &&
	t_err 2 "given twice: one device" "$S" --device femu --device tlc u.ev &&
	t_err 2 "tr_us=0.0004: below the device.s resolution of 1 ns" "$S" --device femu,tr_us=0.0004 u.ev &&
	t_err 2 "every operation takes no time" "$S" --device femu,tprog_us=0,tr_us=0,tbers_us=0 u.ev &&
	mkdir -p devdir && t_err 1 "devdir: Is a directory" "$S" --device ./devdir u.ev
'

t_expect_success 'a profile changed by a key says so; one as named does not' '
	"$S" -q --device tlc,tr_us=70 --qd 1 --op 4 --logical-pages 16384 u16.ev 2>/dev/null |
		jq -e ".timing.device.profile == \"tlc\" and .timing.device.profile_modified and .timing.device.tr_us == 70" &&
	"$S" -q --device tlc --qd 1 --op 4 --logical-pages 16384 u16.ev 2>/dev/null |
		jq -e ".timing.device.profile == \"tlc\" and (.timing.device.profile_modified | not)"
'

t_expect_success 'an open loop without --timeline keeps no timeline rows (dry run: 0 bytes); the run estimate counts the device in time' '
	"$S" --timing --dry-run u.ev 2>/dev/null | jq -e ".memory.timeline_bytes == 0 and .estimate.time_page_writes_per_s > 0" &&
	"$S" --dry-run u.ev 2>/dev/null | jq -e ".estimate.time_page_writes_per_s == null" &&
	"$S" --timing --timeline tl.csv --dry-run u.ev 2>/dev/null | jq -e ".memory.timeline_bytes > 0" &&
	"$S" -q --timing u.ev 2>/dev/null | jq -e ".timing.steady_state.round_s == null"
'

t_expect_success 'a timeline of far more rows than requests: warned of, naming --timeline-interval' '
	"$G" -p uniform -n 4096 -w 100 -r 1000 -o bin >r100.ev 2>/dev/null &&
	"$S" -q --timing --time-scale 10 --timeline sparse.csv --timeline-interval 0.005 r100.ev >/dev/null 2>e &&
	grep -q "timeline has [0-9]* rows for 100 requests.*--timeline-interval (now 0.005 ms)" e &&
	"$S" -q --timing --time-scale 10 --timeline dense.csv r100.ev >/dev/null 2>e && ! grep -q "timeline has" e
'

t_expect_success 'warm-up writes that are all the trace s writes: a warning that the window is empty' '
	n=$("$S" -q u.ev 2>/dev/null | jq .host_pages_written) &&
	"$S" -q --warmup-writes "$n" u.ev 2>e | jq -e ".wa_measured == null" &&
	grep -q "all the trace.s writes: the measured window holds none" e
'

t_expect_success 'a trace whose requests all arrive at once: a warning naming --qd; none in a closed loop' '
	printf "0 W 0 4096 0\n0 W 4096 4096 0\n0 W 8192 4096 0\n" >z.txt &&
	"$S" -q --timing --logical-pages 4096 z.txt 2>e >/dev/null && grep -q "arrived at the same time.*--qd" e &&
	"$S" -q --timing --qd 2 --logical-pages 4096 z.txt 2>e >/dev/null && ! grep -q "arrived at the same" e
'

t_expect_success 'options a closed loop makes meaningless: --time-scale and --bg-gc with --qd are usage errors' '
	t_err 2 "ignores the trace" "$S" --qd 4 --time-scale 2 u.ev &&
	t_err 2 "never idle" "$S" --qd 4 --bg-gc idle=1,high=4 u.ev
'
t_expect_success '--list-devices names femu and tlc with their sources' '
	"$S" --list-devices >l && grep -q "^femu .*tprog_us=200" l && grep -q "^#.*multiplane=on.off.ideal" l && grep -q "^tlc " l && grep -q SimpleSSD l
'
t_expect_success 'a device page size and --page-size that disagree: usage error' '
	t_err 2 "page_kib" "$S" --device tlc --page-size 4096 u.ev
'
t_expect_success '--timeline and --latency with --grid: a file per configuration, each the single run'"'"'s' '
	"$S" -q --device femu,channels=2,dies=2 --qd 4 --op 0.2 --logical-pages 65536 --timeline gt.csv --latency gl.csv \
		--grid "policy=greedy,cb" u.ev >g.json 2>/dev/null &&
	jq -e "[.configurations[].files.timeline] == [\"gt.0.csv\", \"gt.1.csv\"]" g.json >/dev/null &&
	"$S" -q --device femu,channels=2,dies=2 --qd 4 --op 0.2 --logical-pages 65536 --timeline st.csv --latency sl.csv \
		--policy cb u.ev >/dev/null 2>&1 &&
	cmp st.csv gt.1.csv && cmp sl.csv gl.1.csv
'
t_expect_success 'the timeline under idle-time GC: free segments and WA as the cleaning leaves them, from the idle start' '
	"$G" -p hir --rate 4000 -n 65536 --fill --burst 0.75 --waits 30 --rounds 6 --baseline 0 >hb.txt 2>/dev/null &&
	"$S" -q --device femu,channels=2,dies=2 --op 0.28 --gc-low 4 --gc-high 8 --warmup-writes 65536 \
		--bg-gc idle=100,high=40 --timeline hb.csv --timeline-interval 100 hb.txt >hb.json &&
	awk -F, "NR > 1 && \$8 > 0.99 && \$2 == 0 { n++; if (\$9 < 40) bad++ } END { exit !(n > 10 && !bad) }" hb.csv
'
t_expect_success 'the rates, busy time and GC figures are the measured window'"'"'s, as the latencies: at QD 1, IOPS x mean = 1' '
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op 0.1 --logical-pages 65536 --warmup-writes $((UW * 3 / 5)) u.ev >w.json &&
	"$S" -q --device femu,channels=1,dies=1 --qd 1 --op 0.1 --logical-pages 65536 u.ev >a.json &&
	jq -e "(.timing.iops * .timing.latency_us.write.mean / 1e6 - 1 | fabs) < 1e-6 and
		.timing.requests_measured == .timing.latency_us.write.count and .timing.measured_s < .timing.simulated_s and
		(.timing.unit_busy_s - .timing.measured_s | fabs) < 1e-6" w.json &&
	jq -e "(.timing.iops * .timing.latency_us.write.mean / 1e6 - 1 | fabs) < 1e-6 and
		.timing.requests_measured == .timing.requests and .timing.measured_s == .timing.simulated_s" a.json &&
	jq -n --slurpfile w w.json --slurpfile a a.json "\$w[0].timing.requests_waited_on_gc < \$a[0].timing.requests_waited_on_gc" | grep -qx true
'
t_expect_success 'MB/s counts the bytes read and written, not those trimmed; ratios without a span are null' '
	printf "0 D 0 4096 0\n1000 D 4096 1048576 0\n" >trims.txt &&
	"$S" -q --device femu,channels=1,dies=1 --logical-pages 1024 --pages-per-segment 64 --op 0.5 trims.txt |
		jq -e ".timing.mb_per_s == 0 and .timing.latency_us.trim.count == 2" &&
	: >empty.txt &&
	"$S" -q -f ev --device femu,channels=1,dies=1 --logical-pages 1024 --pages-per-segment 64 empty.txt |
		jq -e ".timing.iops == null and .timing.mb_per_s == null and .timing.unit_busy_share == null and
			.timing.gc_share_of_busy == null"
'
t_expect_success 'a --time-scale that carries a time past 2^63 ns: exit 1 naming the event' '
	t_err 1 "\(event [0-9]*\): the event.s time x --time-scale 1e\+300 is .* past 2\^63 ns" \
		"$S" --device femu,channels=1,dies=1 --time-scale 1e300 --logical-pages 65536 u.ev
'
t_expect_success 'a profile'"'"'s name is the profile even with a file of that name; ./NAME reads the file, spaces around = allowed' '
	mkdir -p pf && printf "channels = 1\ndies=1\n" >pf/femu &&
	(cd pf && "$S" -q --device femu --qd 1 --op 4 --logical-pages 16384 ../u16.ev) >p1.json 2>/dev/null &&
	(cd pf && "$S" -q --device ./femu --qd 1 --op 4 --logical-pages 16384 ../u16.ev) >p2.json 2>/dev/null &&
	jq -e ".timing.device.profile == \"femu\" and .timing.device.units == 64" p1.json &&
	jq -e ".timing.device.profile == \"file\" and .timing.device.units == 1" p2.json
'
t_expect_success '--bg-gc high= above the segments that can be free once the logical space is written: warned of; below, not' '
	"$S" -q --device femu,channels=1,dies=1 --op 0.28 --logical-pages 65536 --bg-gc high=100000 u16.ev 2>e >/dev/null &&
	grep -q "high=100000 is above the 70 segments that can be free once the logical space is written (327 segments, 256 of them" e &&
	"$S" -q --device femu,channels=1,dies=1 --op 0.28 --logical-pages 65536 --bg-gc high=71 u16.ev 2>e >/dev/null &&
	grep -q "high=71 is above the 70 segments" e &&
	"$S" -q --device femu,channels=1,dies=1 --op 0.28 --logical-pages 65536 --bg-gc high=70 u16.ev 2>e >/dev/null &&
	! grep -q "high=70 is above" e
'
t_expect_success '--no-trim with --trim-cost: refused (the device never hears a discard), exit 2' '
	t_err 2 "--no-trim: the device never hears a discard, so --trim-cost" \
		"$S" --no-trim --trim-cost unqueued,us=500 --logical-pages 65536 u16.ev
'
t_expect_success 'each stream'"'"'s write latencies: their counts and count-weighted means are the writes'"'"' (sepbit, FDP handles)' '
	"$G" -p hotcold -n 16384 --fill -w 100000 --rate 2000 -s 5 -o bin >hc.ev 2>/dev/null &&
	for o in "--placement sepbit" "--fdp handles=2 --host-placement hotcold:2"; do
		"$S" -q --device femu,channels=2,dies=2 --op 0.28 --logical-pages 16384 --warmup-writes 40000 $o hc.ev >st.json 2>/dev/null &&
		jq -e "([.streams[].write_latency_us.count] | add) == .timing.latency_us.write.count and
			([.streams[] | select(.write_latency_us.count > 0)] | length) >= 2 and
			(([.streams[] | select(.write_latency_us.count > 0) | .write_latency_us.count * .write_latency_us.mean] | add)
			 / .timing.latency_us.write.count - .timing.latency_us.write.mean | fabs) < 1e-6 * .timing.latency_us.write.mean and
			([.streams[] | select(.write_latency_us.count > 0) | .write_latency_us.max] | max) == .timing.latency_us.write.max" \
			st.json >/dev/null || { jq -c "[.streams[] | [.name, .write_latency_us.count]]" st.json; exit 1; }
	done &&
	"$S" -q --device femu,channels=2,dies=2 --op 0.28 --logical-pages 16384 hc.ev 2>/dev/null | jq -e ".streams[0] | has(\"write_latency_us\") | not"
'
t_expect_success 'the time requests waited on GC: at most what QD requests outstanding through the GC time could wait' '
	"$S" -q --logical-pages 16384 --device femu,channels=1,dies=1 --qd 64 --op 1 --warmup-writes 30000 u16.ev >gw.json &&
	jq -e ".timing.gc_wait_s > 0 and .timing.gc_wait_s <= 1.1 * 64 * .timing.gc_share_of_busy * .timing.unit_busy_s" gw.json || {
		jq -c "[.timing.gc_wait_s, .timing.gc_share_of_busy, .timing.unit_busy_s]" gw.json; exit 1; }
'
t_expect_success 'arrivals before the first event are counted as reordered; the timeline counts flushes as the summary does' '
	printf "1000 W 0 4096 0\n0 W 4096 4096 0\n500 W 8192 4096 0\n2000 F 0 0 0\n3000 W 0 4096 0\n" >ro.txt &&
	"$S" -q --device femu,channels=1,dies=1 --logical-pages 1024 --pages-per-segment 64 --timeline ro.csv \
		--timeline-interval 0.5 ro.txt >ro.json 2>/dev/null &&
	jq -e ".timing.arrivals_reordered == 2 and .timing.requests == 5" ro.json &&
	printf "1000 W 0 4096 0\n0 W 4096 4096 0\n1000 W 8192 4096 0\n" >ro2.txt &&
	"$S" -q --device femu,channels=1,dies=1 --logical-pages 1024 --pages-per-segment 64 ro2.txt 2>ro2.err >/dev/null &&
	grep -q "all 3 requests arrived at the same time: 1 had times before an earlier event.s .*--sort" ro2.err &&
	awk -F, "NR > 1 { n += \$2 * \$12 } END { printf \"%d\\n\", n + 0.5 }" ro.csv >got && echo 5 >want && t_cmp want got &&
	# of them the writes (4), no read: the per-kind columns
	awk -F, "NR > 1 { r += \$13 * \$12; w += \$14 * \$12 } END { printf \"%d %d\\n\", r + 0.5, w + 0.5 }" ro.csv >got &&
	echo "0 4" >want && t_cmp want got
'
t_expect_success 'an open loop the device falls behind: warned of, and no steady state searched (the trace sets the pace)' '
	"$S" -q --device femu,channels=1,dies=1 --op 0.1 --logical-pages 65536 --timeline-interval 100 u.ev >ol.json 2>ol.err &&
	grep -q "the device fell behind the trace" ol.err && jq -e ".timing.steady_state.found == null" ol.json &&
	"$S" -q --device femu,channels=1,dies=1 --op 4 --logical-pages 16384 --qd 1 u16.ev 2>ol2.err >/dev/null &&
	! grep -q "fell behind" ol2.err
'
t_expect_success '--timeline-interval where it sets nothing (an open loop without --timeline, --per-volume): warned of; with --qd, --timeline or a qd axis, not' '
	grep -q "timeline-interval sets the rows of --timeline and the rounds of a closed loop.s steady-state rule (--qd): an open loop without --timeline has neither, so it changes nothing" ol.err &&
	"$S" -q --device femu,channels=1,dies=1 --op 4 --logical-pages 16384 --timeline-interval 100 --per-volume --qd 1 u16.ev 2>pv.err >/dev/null &&
	grep -q "timeline-interval .*: a volume of --per-volume keeps neither" pv.err &&
	for a in "--qd 1" "--timeline t.csv" "--grid qd=1,off"; do
		"$S" -q --device femu,channels=1,dies=1 --op 4 --logical-pages 16384 --timeline-interval 100 $a u16.ev 2>q.err >/dev/null &&
		! grep -q "timeline-interval" q.err || return 1
	done
'
t_expect_success 'per volume in time: no rows of simulated time per model, the devices counted in the memory estimate' '
	bzcat "$SAMPLES/tencent/cbs-sample.csv.bz2" | awk -F, "BEGIN { OFS = \",\" } { print 1538323200 + NR * 20, \$2, \$3, \$4, \$5 % 50 }" >long.csv &&
	"$S" -q -f tencent --per-volume --logical-space footprint --pages-per-segment 64 --device femu --mem-limit 64M long.csv >pv.json 2>/dev/null &&
	jq -e ".configurations[0].volumes_run > 40 and .configurations[0].timing.latency_us.write.count > 0" pv.json &&
	"$S" -q -f tencent --dry-run --per-volume --logical-space footprint --pages-per-segment 64 --device femu long.csv 2>/dev/null | jq .memory.model_bytes >a &&
	"$S" -q -f tencent --dry-run --per-volume --logical-space footprint --pages-per-segment 64 long.csv 2>/dev/null | jq .memory.model_bytes >b &&
	awk "NR == FNR { a = \$1; next } { exit !(a - \$1 > 40 * 100000) }" a b
'
t_expect_success 'a device that falls behind for a while and catches up in idle time: warned of, timing.behind_max_s the backlog a request found' '
	awk "BEGIN { for (i = 0; i < 20000; i++) print i * 5000, \"W\", (i % 4096) * 4096, 4096, 0; print 20000000000, \"W\", 0, 4096, 0 }" >bh.txt &&
	"$S" -q --device femu,channels=1,dies=1,xfer_us=0 --logical-pages 4096 --op 4 bh.txt >bh.json 2>bh.err &&
	grep -q "fell behind the trace for a while: a request arriving 0.1 s into it found 3.9 s of earlier" bh.err &&
	jq -e "(.timing.behind_max_s - 3.899805 | fabs) < 1e-9 and .timing.behind_at_s == 0.099995" bh.json >/dev/null &&
	"$S" -q --device femu,channels=1,dies=1,xfer_us=0 --logical-pages 4096 --op 4 --time-scale 100 bh.txt 2>bh2.err >/dev/null &&
	! grep -q "fell behind" bh2.err
'
t_expect_success 'a timeline that outgrows the memory left: exit 1 naming --timeline-interval, no CSV' '
	rm -f big.csv &&
	t_err 1 "^ftlsim: u.ev: byte [0-9]* \(event [0-9]*\): the timeline.s [0-9]* intervals of 0.001 ms.*raise --timeline-interval" \
		"$S" -q --device femu --timeline big.csv --timeline-interval 0.001 --mem-limit 64M u.ev &&
	test ! -e big.csv &&
	"$S" -q --device femu --timeline big.csv --timeline-interval 1 --mem-limit 64M u.ev >/dev/null 2>&1 && test -s big.csv
'
t_expect_success '--dry-run counts the timeline: an interval of simulated time each, over the trace'"'"'s span (a closed loop'"'"'s estimated within 10%, a fresh drive'"'"'s first writes at WA 1), in arrays that double; a grid'"'"'s models each theirs' '
	"$G" -q -p uniform -n 65536 --fill -w 100000 --rate 1000 -o bin >paced.ev &&
	"$S" --dry-run --device femu --timeline t.csv --timeline-interval 1 paced.ev 2>/dev/null | jq .memory.timeline_bytes >a &&
	"$S" --dry-run --device femu --timeline t.csv --timeline-interval 0.01 paced.ev 2>/dev/null | jq .memory.timeline_bytes >b &&
	"$S" --dry-run --device femu --timeline t.csv --timeline-interval 0.01 --time-scale 2 paced.ev 2>/dev/null | jq .memory.timeline_bytes >c &&
	{ [ $UW = 500000 ] && ln -s u.ev u5.ev || "$G" -p uniform -n 65536 --fill -w 500000 -o bin >u5.ev 2>/dev/null; } &&
	"$G" -p uniform -n 65536 --fill -w 65536 -o bin >u1x.ev 2>/dev/null &&
	for a in "--device femu,channels=1,dies=1 --qd 1 u5.ev" "--device femu --qd 4 u5.ev" \
		"--device femu,channels=1,dies=1 --qd 1 u1x.ev" "--device femu,channels=1,dies=1 --qd 1 --precondition random u5.ev"; do
		e=$("$S" $a --op 0.1 --logical-pages 65536 --timeline t.csv --dry-run 2>/dev/null | jq .memory.timeline_span_s) &&
		r=$("$S" -q $a --op 0.1 --logical-pages 65536 --timeline t.csv 2>/dev/null | jq .timing.simulated_s) &&
		awk -v e="$e" -v r="$r" "BEGIN { print e, r; exit !(e > 0.9 * r && e < 1.1 * r) }" || return 1
	done &&
	"$S" --dry-run --device femu --qd 4 u.ev 2>/dev/null | jq .memory.timeline_bytes >d &&
	"$S" --dry-run --device femu --grid qd=4,1 u.ev 2>/dev/null | jq -c "[.per_model[].timeline_bytes]" >gd &&
	"$S" --dry-run --device femu --qd 1 u.ev 2>/dev/null | jq .memory.timeline_bytes >d1 &&
	echo "[$(cat d),$(cat d1)]" >gw && t_cmp gw gd &&
	"$S" --dry-run --device femu --grid qd=4,1 --logical-pages 65536 u.ev 2>/dev/null |
		jq -e "[.per_model[].timeline_bytes] == [null, null]" >/dev/null &&
	"$S" --dry-run --per-volume --logical-space footprint --device femu --qd 1 u.ev 2>/dev/null |
		jq -e "[.per_model[].timeline_bytes] == [0]" >/dev/null &&
	awk "NR == FNR { a = \$1; next } FNR == 1 && !b { b = \$1; next } { c = \$1 }
		END { r = b / a; s = c / b; exit !(a > 0 && r >= 64 && r <= 128 && s == 2 && b % 96 == 0) }" a b c &&
	jq -e ". > 0 and . % 96 == 0" d
'
t_expect_success '--dry-run, open loop: a device that falls behind its trace is said, and its timeline counted over its own work (0.8 to 1.6 times the run), not the arrivals'"'"' span' '
	"$G" -q -p uniform -n 65536 --fill -w 200000 --rate 100000 -o bin >fb.ev &&
	"$G" -q -p uniform -n 65536 -w 300000 --rate 50000 -o bin >fb2.ev &&
	for a in "--device femu,channels=1,dies=1 fb.ev" "--device femu fb.ev" "--device femu,channels=2,dies=2 fb2.ev" \
		"--device femu --precondition random fb2.ev"; do
		"$S" $a --op 0.1 --logical-pages 65536 --timeline t.csv --dry-run >d.json 2>d.err &&
		grep -q "^ftlsim: the device would fall behind the trace: its work .* takes about [0-9.e+]* s against the arrivals. [0-9.e+]* s" d.err &&
		e=$(jq .memory.timeline_span_s d.json) &&
		r=$("$S" -q $a --op 0.1 --logical-pages 65536 --timeline t.csv 2>/dev/null | jq .timing.simulated_s) &&
		awk -v e="$e" -v r="$r" "BEGIN { print e, r; exit !(e > 0.8 * r && e < 1.6 * r && r > 5) }" || return 1
	done &&
	"$S" --device femu --op 0.1 --logical-pages 65536 --timeline t.csv --time-scale 100 --dry-run fb2.ev >d.json 2>d.err &&
	! grep -q "fall behind" d.err && jq -e ".memory.timeline_span_s > 599 and .memory.timeline_span_s < 601" d.json >/dev/null &&
	"$S" --device femu --op 0.1 --logical-space extent --grid "time-scale=100,1,0.5" --dry-run fb2.ev >/dev/null 2>d.err &&
	grep -q "^ftlsim: the device would fall behind the trace in 2 of 3 configurations (the first, time-scale=1: about [0-9.e+]* s against [0-9.e+]* s)" d.err &&
	"$S" --device femu --op 0.1 --logical-space extent --grid "time-scale=100,200" --dry-run fb2.ev >/dev/null 2>d.err &&
	! grep -q "fall behind" d.err
'
t_expect_success 'the timeline counts a completion on a boundary in the interval it closes: QD1 writes of 200 us, 5000 IOPS a row' '
	"$G" -p uniform -n 1024 -w 10 -o bin >q10.ev 2>/dev/null &&
	for iv in 1 0.2 0.4; do
		"$S" -q --device femu,channels=1,dies=1,xfer_us=0 --qd 1 --logical-pages 1024 --pages-per-segment 64 \
			--timeline q$iv.csv --timeline-interval $iv q10.ev >/dev/null 2>&1 || return 1
		awk -F, -v iv=$iv "NR > 1 { n++; if (\$2 != 5000 || \$12 != iv / 1000) bad++ } END { print iv, n, bad + 0 }" q$iv.csv
	done >got &&
	printf "1 2 0\n0.2 10 0\n0.4 5 0\n" >want && t_cmp want got
'

t_expect_success 'the time waited on GC is GC time in the requests'"'"' path: no more than GC added to their latencies, nothing for passes of no time' '
	"$G" -q -p hir --rate 4000 -n 16384 --fill --burst 0.75 --waits 5 --rounds 6 --baseline 0 -o bin >hb.ev &&
	for x in "" "--gc-preempt hard=1"; do
		"$S" -q --device femu,channels=2,dies=2 --op 0.28 --gc-low 4 --gc-high 8 --warmup-writes 16384 $x hb.ev 2>/dev/null |
			jq -r "[.timing.gc_wait_s, .timing.latency_us.write.mean, .timing.latency_us.write.count] | @tsv" || return 1
	done >gw &&
	"$S" -q --device femu,channels=2,dies=2 --op 4 --warmup-writes 16384 hb.ev 2>/dev/null | jq .timing.latency_us.write.mean >base &&
	awk -v b="$(cat base)" "{ added = (\$2 - b) * \$3 / 1e6; print \$1, added; if (!(\$1 > 0 && \$1 <= added)) bad++ } END { exit bad + 0 }" gw &&
	"$S" -q --logical-space footprint --op 0.1 --device femu,channels=2,dies=2,tbers_us=0.001 "$T_TOP/traces/samples/blktrace/rootfs-discard" 2>/dev/null |
		jq -e ".gc_pages_copied == 0 and .segments_cleaned > 0 and .timing.gc_wait_s < 1e-6"
'

t_expect_success 'a steady-state window on a ramp (rounds too short): warned of, the last rounds'"'"' IOPS beside it; none with longer rounds' '
	"$G" -q -p uniform -n 32768 -w 400000 -o bin >ramp.ev &&
	"$S" -q --device femu,channels=2,dies=4 --qd 32 --op 0.15 --pages-per-segment 512 --timeline-interval 250 ramp.ev >r1.json 2>e1 &&
	grep -q "steady-state window.s [0-9]* IOPS are [0-9]*% above the last five rounds" e1 &&
	jq -e ".timing.steady_state | .found and .iops > 1.2 * .last_rounds_iops" r1.json &&
	"$S" -q --device femu,channels=2,dies=4 --qd 32 --op 0.15 --pages-per-segment 512 --timeline-interval 5000 ramp.ev >r2.json 2>e2 &&
	! grep -q "steady-state window" e2 &&
	jq -e ".timing.steady_state | .found and .iops <= 1.2 * .last_rounds_iops" r2.json
'

t_expect_success 'usage errors name what is wrong: page_kib not a power of two, --qd out of its range' '
	printf "0 W 0 4096 0\n" >one.txt &&
	t_err 2 "^ftlsim: --device: page_kib=3: a power of two" "$S" --device femu,page_kib=3 one.txt &&
	t_err 2 "^ftlsim: option .--qd. needs a whole number from 1 to 1048576, not .-1.$" "$S" --qd -1 one.txt &&
	t_err 2 "^ftlsim: option .--qd. needs a whole number from 1 to 1048576, not .0.$" "$S" --qd 0 one.txt
'
t_expect_success '--trim-cost: a time out of range or not a number is named with its range' '
	printf "0 W 0 4096 0\n" >one.txt &&
	t_err 2 "^ftlsim: --trim-cost: us=1e300: a time in us from 0 to 1e\+12$" "$S" --trim-cost queued,us=1e300 one.txt &&
	t_err 2 "^ftlsim: --trim-cost: us_per_mib=x: a time in us from 0 to 1e\+12$" "$S" --trim-cost unqueued,us_per_mib=x one.txt
'
t_done
