#!/bin/sh
# Randomized property test of the model: many small random
# configurations (b, OP, victim policy, placement, workload, TRIM) run
# with --check (the invariants after every GC pass), with either GC
# trigger (free-segment watermarks, garbage proportion, every other case
# at most one GC operation a request); each must finish,
# with WA >= 1 and WA = (host + GC copies + wear copies) / host exactly.
# The configurations come from a seeded generator, so a failure is
# reproducible: the case prints its command line.
. "$(dirname "$0")/lib.sh"
G="$BIN/tracegen"
S="$BIN/ftlsim"
N=${PROPERTY_CASES:-40}
awk -v n="$N" 'BEGIN {
	srand(20261203)
	split("greedy cb cb-sqrt fifo random dchoices:3 windowed:8 cat", pol, " ")
	npl = split("single sepgc agesort:2 hotcold:3 oracle:2 sepbit fk:4 fk:3,R=8 dac:4 warcip:5 mq:4 multilog:4 sfs:4 eti sfr:4 fadac:4 midas:6,W=0.5", pl, " ")
	split("uniform hotcold zipf:0.9 seq lfs", pat, " ")
	for (i = 1; i <= n; i++) {
		b = 2 ^ (2 + int(rand() * 5))          # 4 .. 64 pages a segment
		pages = b * 48 + int(rand() * 4000)   # room for the open and reserve segments
		op = 0.15 + rand() * 0.6
		k = 1 + int(rand() * npl)
		if (k > 5 && op < 0.45) op += 0.3      # six streams and their reserve
		trig = rand() < 0.3 ? sprintf("gp:%.2f", 0.1 + rand() * 0.2) : "watermark"
		if (pl[k] ~ /^midas/) trig = "watermark" # it cleans by free segments
		pk = pol[1 + int(rand() * 8)]
		if (pl[k] ~ /^midas/) pk = "greedy"      # it picks its victims itself
		batch = 1 + int(rand() * 3)
		ops = i % 2
		if (trig == "watermark") { batch = 1; ops = 0 } # they shape gp:P operations only
		q = rand() < 0.4 ? sprintf("%.2f", rand() * 0.3) : 0
		wl = rand() < 0.2 ? "--wear-level static:6" : ""
		printf "%d %s %s %s %d %.3f %s %s %s %d %d %s\n", b, pk, pl[k],
			pat[1 + int(rand() * 5)], pages, op, q, (rand() < 0.5 ? "--trim" : "--no-trim"), trig, batch, ops, wl
	}
}' >"$TMP/cases"
while read -r b pol pl pat pages op q trim trig batch ops wl; do
	cmd="\"\$G\" -p $pat -n $pages -w $((pages * 4)) --trim-prob $q --fill -s $b 2>/dev/null | \"\$S\" -q --check --logical-pages $pages --op $op --pages-per-segment $b --policy $pol --placement $pl --gc-trigger $trig --gc-batch $batch --gc-ops $ops $trim $wl -"
	t_expect_success "b=$b $pol $pl $pat U=$pages op=$op q=$q $trim $trig x$batch ops=$ops $wl: --check holds, WA identity" "
		$cmd >s.json &&
		python3 -c \"
import json
d = json.load(open('s.json'))
h, g, w = d['host_pages_written'], d['gc_pages_copied'], d['wl_pages_copied']
assert h > 0 and d['wa_total'] >= 1, d['wa_total']
assert abs(d['wa_total'] - (h + g + w) / h) < 1e-9 * d['wa_total'], (d['wa_total'], h, g, w)
assert d['flash_pages_written'] == h + g + w
\"
	"
done <"$TMP/cases"

# Offsets far past 2^44 bytes with a small footprint replay in
# footprint mode, and a 2^40-byte discard is handled without a loop
# over a trillion pages.
t_expect_success 'footprint mode: offsets past 2^44 bytes replay correctly' '
	for i in 0 1 2 3 4 5 6 7; do
		for p in 0 1 2 3 4 5 6 7; do
			echo "$((i * 8 + p)) W $(( (1 << 50) + p * 4096 + i * (1 << 45) )) 4096 0"
		done
	done >far.txt &&
	for r in 1 2 3; do cat far.txt; done >far3.txt &&
	"$S" -q --check --logical-space footprint --pages-per-segment 8 --op 0.5 far3.txt >f.json &&
	python3 -c "
import json
d = json.load(open(\"f.json\"))
assert d[\"params\"][\"logical_pages\"] == 64, d[\"params\"][\"logical_pages\"]
assert d[\"host_pages_written\"] == 192 and d[\"wa_total\"] >= 1
"
'
t_done
