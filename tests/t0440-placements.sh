#!/bin/sh
# t0440-placements: the placements of the literature (sepbit, fk, dac,
# warcip, mq, multilog, sfs, eti, sfr, fadac, midas) and the GC trigger
# options: each runs under --check with both triggers, FK places by the
# lifespans it learnt (exactly, on a trace whose lifespans are known),
# reads stdin as it reads a file, MiDAS adapts its groups below SepBIT's
# WA, the garbage-proportion trigger matches the watermark one at the
# equivalent spare factor, and --gc-ops limits its operations per
# request; sepbit:6,C=1 counts lifespans as SepBIT's simulator does.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
LIT="sepbit fk dac warcip mq multilog sfs eti sfr fadac midas"

"$G" -p zipf:1.0 -n 6000 -w 30000 --fill -s 5 --trim-prob 0.05 -o bin >"$TMP/z.ev" 2>/dev/null
"$G" -p hotcold -n 8192 -w 65536 --fill -s 2 -o bin >"$TMP/hc.ev" 2>/dev/null

for p in $LIT; do
	t_expect_success "$p: --check holds with the watermark and the gp:0.15 triggers (midas: the watermark alone), WA identity" "
		trigs=\"watermark gp:0.15\"; [ $p = midas ] && trigs=watermark
		for trig in \$trigs; do
			\"\$S\" -q --check --op 0.4 --pages-per-segment 32 --gc-trigger \$trig --placement $p z.ev >s.json &&
			jq -e '.wa_total >= 1 and .params.gc_trigger == \"'\$trig'\" and
				(.wa_total - (.host_pages_written + .gc_pages_copied) / .host_pages_written | fabs) < 1e-9 and
				([.streams[].host_pages_written] | add) == .host_pages_written' s.json || return 1
		done
	"
done

t_expect_success 'fk:6,R=1 (SepBIT'"'"'s linear classes): every write goes to the class of its remaining lifespan (sequential: U pages)' '
	"$G" -p seq -n 256 -w 1024 --fill -o bin 2>/dev/null >seq.ev &&
	"$S" -q --check --logical-pages 256 --op 4 --pages-per-segment 64 --placement fk:6,R=1 seq.ev >f.json &&
	jq -e "[.streams[].host_pages_written] == [0,0,0,0,1024,256] and .wa_total == 1" f.json
'
t_expect_success 'fk (default: six geometric classes of ratio 8): lifespan 4 segments in class 1 (below b 8), the run of fk:6,R=8' '
	"$S" -q --check --logical-pages 256 --op 4 --pages-per-segment 64 --placement fk seq.ev >f.json &&
	jq -e "[.streams[].host_pages_written] == [0,1024,0,0,0,256] and .wa_total == 1" f.json &&
	"$S" -q --check --logical-pages 256 --op 4 --pages-per-segment 64 --placement fk:6,R=8 seq.ev |
		jq -S "del(.timing, .params.placement)" >r8.json &&
	jq -S "del(.timing, .params.placement)" f.json | t_cmp r8.json -
'
t_expect_success 'fk:6,R=2: geometric classes (class c below b 2^c): the same trace, lifespan 4 segments, in class 3' '
	"$S" -q --check --logical-pages 256 --op 4 --pages-per-segment 64 --placement fk:6,R=2 seq.ev >f.json &&
	jq -e "[.streams[].host_pages_written] == [0,0,0,1024,0,256] and .wa_total == 1" f.json &&
	t_err 2 "fk has no argument" "$S" -q --placement fk:6,K=2 seq.ev
'
t_expect_success 'fk: a trim ends a version too (256 writes, a trim of pages 0-127, writes of 128-255: lifespans 129-256 and 128, then never)' '
	awk "BEGIN { t = 0; for (p = 0; p < 256; p++) printf \"%d W %d 4096 0\\n\", t++, p * 4096
		printf \"%d D 0 %d 0\\n\", t++, 128 * 4096
		for (p = 128; p < 256; p++) printf \"%d W %d 4096 0\\n\", t++, p * 4096 }" >trim.txt &&
	"$S" -q --check --logical-pages 256 --op 4 --pages-per-segment 64 --placement fk:6,R=1 trim.txt >f.json 2>/dev/null &&
	jq -e "[.streams[].host_pages_written] == [0,0,191,64,1,128]" f.json &&
	"$S" -q --check --logical-pages 256 --op 4 --pages-per-segment 64 --placement fk:6,R=1 - <trim.txt 2>/dev/null |
		jq -e "[.streams[].host_pages_written] == [0,0,191,64,1,128]"
'
t_expect_success 'sfs:4,SPAN=8 (quantizing more often) runs under --check; SPAN=0 is a usage error' '
	"$S" -q --check --op 0.4 --pages-per-segment 32 --placement sfs:4,SPAN=8 z.ev >s.json &&
	jq -e ".wa_total >= 1" s.json &&
	t_err 2 "SPAN" "$S" -q --placement sfs:4,SPAN=0 z.ev
'
t_expect_success '--spare-share opt: 90/10 with the labels, each class its own share, within 5% of the separated pools (shared: about 2x)' '
	"$G" -p hotcold --fill -n 16384 -w 360448 -s 2 -o bin 2>/dev/null >hcs.ev &&
	for sh in shared opt; do
		"$S" -q --spare-factor 0.1 --pages-per-segment 32 --warmup-writes 196608 --placement oracle:2 \
			--spare-share $sh hcs.ev >$sh.json || return 1
	done &&
	jq -e ".params.spare_share == \"opt\"" opt.json &&
	"$BIN/wamodel" --csv -m hotcold -b 32 -s 0.1 | tail -n 1 | cut -d, -f9 >pools.wa &&
	python3 -c "
import json
o, s = (json.load(open(n + \".json\"))[\"wa_measured\"] for n in (\"opt\", \"shared\"))
m = float(open(\"pools.wa\").read())
assert abs(o / m - 1) < 0.05 and s > 1.5 * o, (o, s, m)
"
'
t_expect_success '--spare-share opt holds --check under every victim policy, with wear levelling too' '
	for p in greedy cb cb-sqrt fifo random windowed:8 cat dchoices:3; do
		"$S" -q --check --op 0.3 --pages-per-segment 32 --policy $p --placement hotcold:3 --spare-share opt \
			--wear-level static:4 z.ev >s.json && jq -e ".wa_total >= 1" s.json >/dev/null || { echo $p; return 1; }
	done &&
	t_err 2 "spare-share" "$S" -q --spare-share half z.ev
'
t_expect_success '--spare-share opt: every placement of several streams holds --check' '
	for p in sepgc agesort:2 sepbit dac:4 warcip mq:4 multilog sfs eti sfr fadac fk:6 fk:6,R=8; do
		"$S" -q --check --op 0.11 --pages-per-segment 64 --warmup-writes 32768 --placement $p \
			--spare-share opt hc.ev >opt.json || { echo "$p"; return 1; }
	done
'
t_expect_figure '--spare-share opt: each class sized by the garbage made in it (sepbit and dac on 90/10: 10% below the shared pool)' '
	for p in sepbit dac:4; do
		for sh in shared opt; do
			"$S" -q --op 0.11 --pages-per-segment 64 --warmup-writes 32768 --placement $p \
				--spare-share $sh hc.ev >$sh.json || { echo "$p $sh"; return 1; }
		done
		o=$(jq .wa_measured opt.json) s=$(jq .wa_measured shared.json)
		echo "$p $o $s"
		awk -v o="$o" -v s="$s" "BEGIN { exit !(o < 0.9 * s) }" || return 1
	done
'
t_expect_success 'gp:0.15 with spare space under P: the watermarks clean any segment, the passes counted and warned of; with room, none' '
	"$S" -q --gc-trigger gp:0.15 --op 0.1 --pages-per-segment 64 --placement sepbit --check hc.ev >g.json 2>g.err &&
	jq -e ".gp_watermark_passes > 0 and .gp_watermark_passes <= .gc_passes and .wa_total > 1" g.json &&
	grep -q "GC passes (gc_passes: the trigger.s operations and these) ran because the free segments fell to the watermark" g.err &&
	"$S" -q --gc-trigger gp:0.15 --op 0.4 --pages-per-segment 64 --placement sepbit hc.ev >h.json 2>h.err &&
	jq -e ".gp_watermark_passes == 0" h.json && ! grep -q watermark h.err &&
	"$S" -q --op 0.1 --pages-per-segment 64 hc.ev | jq -e "has(\"gp_watermark_passes\") | not"
'
t_expect_success 'fk: standard input (buffered) gives the same run as the file' '
	"$S" -q --op 0.4 --pages-per-segment 32 --placement fk z.ev | jq "del(.timing, .input)" >a.json &&
	"$S" -q --op 0.4 --pages-per-segment 32 --placement fk - <z.ev | jq "del(.timing, .input)" >b.json &&
	cmp a.json b.json
'
t_expect_success 'sepbit:6,C=1 (lifespans from the predecessor'"'"'s seal, as SepBIT'"'"'s simulator): C=0 is the default run; C=1 holds --check, its longer lifespans raise l and send more host writes to class 0 on 90/10' '
	for p in sepbit sepbit:6,C=0 sepbit:6,C=1; do
		"$S" -q --check --gc-trigger gp:0.15 --gc-ops 1 --op 0.5 --pages-per-segment 64 --placement $p hc.ev |
			jq -S "del(.timing, .params.placement)" >"$p.json" || return 1
	done &&
	cmp sepbit.json sepbit:6,C=0.json &&
	jq -e --slurpfile d sepbit.json ".streams[0].host_pages_written > \$d[0].streams[0].host_pages_written and
		.wa_total != \$d[0].wa_total and .host_pages_written == \$d[0].host_pages_written" sepbit:6,C=1.json
'
t_expect_success 'sepbit separates 90/10 hot and cold writes below sepgc and the single log; fk:6,R=1 is below the single log, fk (geometric) below sepbit' '
	for p in single sepgc sepbit fk:6,R=1 fk; do
		"$S" -q --op 0.25 --pages-per-segment 64 --placement $p hc.ev | jq .wa_total >$p.wa || return 1
	done &&
	python3 -c "
w = {p: float(open(p + \".wa\").read()) for p in (\"single\", \"sepgc\", \"sepbit\", \"fk:6,R=1\", \"fk\")}
assert w[\"sepbit\"] < w[\"sepgc\"] < w[\"single\"], w
assert w[\"fk:6,R=1\"] < w[\"single\"], w
assert w[\"fk\"] < 0.8 * w[\"sepbit\"], w
"
'
t_expect_success 'midas: short epochs (configurations applied, groups merged) hold --check, under either trigger, with wear levelling' '
	for a in "--gc-trigger watermark" "--wear-level static:4"; do
		for p in midas:6,W=0.25 midas:3,W=0.5 midas:16,W=0.25,R=7; do
			"$S" -q --check --op 0.4 --pages-per-segment 32 $a --placement $p z.ev >s.json &&
			jq -e ".wa_total >= 1" s.json >/dev/null || { echo "$a $p"; return 1; }
		done
	done &&
	"$S" -q --check --op 0.25 --pages-per-segment 64 --placement midas:W=1 hc.ev | jq -e ".wa_total >= 1" >/dev/null
'
t_expect_success 'midas chooses its victims itself: another --policy, --gc-tie random or --spare-share opt is a usage error; the same seed gives the same run' '
	"$S" -q --op 0.25 --pages-per-segment 64 --policy greedy --placement midas:W=1 hc.ev | jq -e ".wa_total >= 1" >/dev/null &&
	t_err 2 "midas.*--policy has no effect" "$S" -q --policy fifo --placement midas hc.ev &&
	t_err 2 "midas.*--gc-tie random has no effect" "$S" -q --gc-tie random --placement midas hc.ev &&
	t_err 2 "midas.*--spare-share opt has no effect" "$S" -q --spare-share opt --placement midas hc.ev &&
	"$S" -q --seed 9 --op 0.4 --pages-per-segment 32 --placement midas:W=0.5 z.ev | jq "del(.timing, .input)" >a.json &&
	"$S" -q --seed 9 --op 0.4 --pages-per-segment 32 --placement midas:W=0.5 z.ev | jq "del(.timing, .input)" >b.json &&
	cmp a.json b.json
'
t_expect_figure 'midas: WA below sepbit, sepgc and the single log on 90/10 (by a quarter) and on Zipf 1.0 (U = 2^14, Sf = 0.1)' '
	"$G" -p hotcold --fill -n 16384 -w 344064 -s 2 -o bin 2>/dev/null >h14.ev &&
	"$G" -p zipf:1.0 --fill -n 16384 -w 344064 -s 3 -o bin 2>/dev/null >z14.ev &&
	for w in h14 z14; do
		for p in single sepgc sepbit midas; do
			"$S" -q --spare-factor 0.1 --pages-per-segment 32 --warmup-writes 180224 --placement $p $w.ev |
				jq .wa_measured >$w.$p.wa || return 1
		done
	done &&
	python3 -c "
for w in (\"h14\", \"z14\"):
    a = {p: float(open(w + \".\" + p + \".wa\").read()) for p in (\"single\", \"sepgc\", \"sepbit\", \"midas\")}
    assert a[\"midas\"] < a[\"sepbit\"] < a[\"sepgc\"] < a[\"single\"], (w, a)
    assert w != \"h14\" or a[\"midas\"] < 0.75 * a[\"sepbit\"], (w, a)
"
'
t_expect_success 'midas: model errors in two epochs running double the epoch (its bins, in memory.model_bytes, double too), under --check; D=0 keeps it; none on a steady workload' '
	"$G" -p hotcold -n 8192 -w 131072 --fill -s 2 -o text 2>/dev/null |
		awk "NR > 8192 { k = int((NR - 8193) / 4096); \$3 = ((\$3 / 4096 + k * 2867) % 8192) * 4096 } { print }" >shift.txt &&
	for d in 0 1; do
		"$S" -q --check --op 0.25 --pages-per-segment 32 --placement midas:W=1,D=$d shift.txt >s$d.json || return 1
		"$S" -q --op 0.25 --pages-per-segment 64 --placement midas:W=1,D=$d hc.ev | jq -c "del(.timing, .input, .params)" >h$d.json || return 1
	done &&
	cmp h0.json h1.json &&
	python3 -c "
import json
a, b = (json.load(open(\"s%d.json\" % d)) for d in (0, 1))
grow = b[\"memory\"][\"model_bytes\"] - a[\"memory\"][\"model_bytes\"]
# W=1: 8192 writes an epoch in 1024 bins of 8, 48 bytes a bin; d doublings add 1024 (2^d - 1) bins
assert grow in [48 * 1024 * (2 ** d - 1) for d in range(1, 7)], grow
assert a[\"wa_total\"] != b[\"wa_total\"], (a[\"wa_total\"], b[\"wa_total\"])
"
'
t_expect_status 2 'midas:2 (fewer than three groups) is a usage error' '"$S" --placement midas:2 hc.ev'
t_expect_success 'midas: an epoch out of range or an unknown argument is a usage error naming it' '
	t_err 2 "midas:W needs 0.25 <= W <= 64" "$S" -q --placement midas:6,W=0.1 hc.ev &&
	t_err 2 "midas:R needs an integer 1 <= R <= 65536" "$S" -q --placement midas:R=0 hc.ev &&
	t_err 2 "midas:D needs an integer 0 <= D <= 1" "$S" -q --placement midas:D=2 hc.ev &&
	t_err 2 "midas has no argument" "$S" -q --placement midas:K=3 hc.ev
'
t_expect_success 'gp:0.15 on one log matches the watermark trigger at spare factor 0.15 (within 1%)' '
	"$G" -p uniform -n 16384 -w 65536 --fill -o bin 2>/dev/null >u.ev &&
	"$S" -q --op 0.5 --pages-per-segment 64 --gc-trigger gp:0.15 u.ev | jq .wa_total >gp.wa &&
	"$S" -q --pages-per-segment 64 --spare-factor 0.15 u.ev | jq .wa_total >wm.wa &&
	python3 -c "
a, b = float(open(\"gp.wa\").read()), float(open(\"wm.wa\").read())
assert a > 1.5 and abs(a / b - 1) < 0.01, (a, b)
"
'
t_expect_success '--segment-bytes sets the segment size; --gc-batch and the trigger are reported' '
	"$S" -q --op 0.5 --segment-bytes 256K --gc-batch 2 --gc-trigger gp:0.2 u.ev >s.json &&
	jq -e ".params.pages_per_segment == 64 and .params.gc_batch == 2 and .params.gc_trigger == \"gp:0.2\"" s.json
'
t_expect_success 'the segment size and the trigger'"'"'s options: contradictions and sizes out of range are usage errors naming what is wrong' '
	t_err 2 "give only one of --segment-bytes and --pages-per-segment" "$S" -q --segment-bytes 1M --pages-per-segment 64 u.ev &&
	t_err 2 "--segment-bytes must be above 0" "$S" -q --segment-bytes 0 u.ev &&
	t_err 2 "--segment-bytes 1000 is not a whole number of 4096-byte pages" "$S" -q --segment-bytes 1000 u.ev &&
	t_err 2 "--segment-bytes 4096 holds 1 page of 4096 bytes; a segment has 2..2\^24" "$S" -q --segment-bytes 4K u.ev &&
	t_err 2 "--op is given twice" "$S" -q --op 0.1 --op 0.2 u.ev &&
	t_err 2 "give only one of --op, --spare-factor, --physical-pages" "$S" -q --op 0.1 --spare-factor 0.2 u.ev &&
	t_err 2 "--gc-batch applies under --gc-trigger gp:P only" "$S" -q --gc-batch 2 u.ev &&
	t_err 2 "--gc-ops applies under --gc-trigger gp:P only" "$S" -q --gc-ops 1 u.ev &&
	t_err 2 "--gc-ops applies under --gc-trigger gp:P only" "$S" -q --grid gc-ops=0,1 u.ev &&
	"$S" -q --op 0.5 --gc-ops 1 --grid gc-trigger=watermark,gp:0.15 --results t.csv u.ev >/dev/null 2>&1 &&
	test "$(wc -l <t.csv)" = 3
'
t_expect_success '--gc-tie random: greedy draws among equal victims, reproducibly, under --check' '
	"$S" -q --check --op 0.3 --pages-per-segment 32 --gc-tie random --placement sepgc z.ev >r1.json &&
	"$S" -q --op 0.3 --pages-per-segment 32 --gc-tie random --placement sepgc z.ev >r2.json &&
	"$S" -q --op 0.3 --pages-per-segment 32 --gc-tie random --seed 7 --placement sepgc z.ev >r3.json &&
	"$S" -q --op 0.3 --pages-per-segment 32 --placement sepgc z.ev >o.json &&
	jq -e ".params.gc_tie == \"random\"" r1.json &&
	test "$(jq .wa_total r1.json)" = "$(jq .wa_total r2.json)" &&
	test "$(jq .wa_total r1.json)" != "$(jq .wa_total o.json)" &&
	test "$(jq .wa_total r1.json)" != "$(jq .wa_total r3.json)"
'
t_expect_status 2 '--gc-tie random with a policy without a random tie rule is a usage error' '"$S" --gc-tie random --policy cb u.ev'
t_expect_success 'cb:1 and cb:2 (ages from write times) run under --check and differ from cb:0' '
	"$G" -p lfs -n 4096 -w 40000 --hot-prob 0.9 --hot-frac 0.1 -o bin 2>/dev/null >l.ev &&
	for a in 0 1 2; do
		"$S" -q --check --spare-factor 0.25 --pages-per-segment 64 --policy cb:$a --placement agesort:1 l.ev |
			jq .write_cost >c$a.wc || return 1
	done &&
	! cmp -s c0.wc c1.wc && ! cmp -s c1.wc c2.wc
'
t_expect_status 2 '--gc-trigger gp:1.5 is a usage error' '"$S" --gc-trigger gp:1.5 u.ev'
t_expect_success 'midas under --gc-trigger gp:P is a usage error naming the rule it needs' '
	t_err 2 "placement .midas. chooses its own GC victims by free segments: use --gc-trigger watermark" \
		"$S" -q --gc-trigger gp:0.15 --placement midas:6,W=0.5 hc.ev
'
t_expect_success '--gc-ops: 0 is the default run, the summary echoes it; a count that is not one is a usage error naming it' '
	"$S" -q --op 0.5 --pages-per-segment 32 --gc-trigger gp:0.15 --placement sepbit hc.ev >d.json &&
	"$S" -q --op 0.5 --pages-per-segment 32 --gc-trigger gp:0.15 --placement sepbit --gc-ops 0 hc.ev >z.json &&
	"$S" -q --op 0.5 --pages-per-segment 32 --gc-trigger gp:0.15 --placement sepbit --gc-ops 3 hc.ev >t.json &&
	jq -e ".params.gc_ops == 0" d.json && jq -e ".params.gc_ops == 3" t.json &&
	test "$(jq -c "[.gc_pages_copied, .segments_cleaned]" d.json)" = "$(jq -c "[.gc_pages_copied, .segments_cleaned]" z.json)" &&
	for a in x -1 1.5 ""; do
		t_err 2 "option .--gc-ops. needs a whole number from 0 to" "$S" -q --gc-trigger gp:0.15 --gc-ops "$a" hc.ev || return 1
	done
'
# The garbage proportion from the curve, from 2U host writes on:
# 1 - U / (T - free segments x b), the open segments counted as full.
gp_range() { # CURVE U T B: the least and the largest
	awk -F, -v U="$2" -v T="$3" -v b="$4" 'NR > 1 && $1 > 2 * U {
		g = 1 - U / (T - $4 * b); if (n++ == 0 || g < lo) lo = g; if (g > hi) hi = g
	} END { printf "%.4f %.4f\n", lo, hi }' "$1"
}
t_expect_success '--gc-ops 1 (FK with SepBIT classes (R=1), cb-sqrt, 90/10, single-page requests): one operation a write, under --check, another WA; the proportion still held near P (six open segments)' '
	for o in 0 1; do
		"$S" -q --check --op 0.5 --pages-per-segment 32 --gc-trigger gp:0.15 --policy cb-sqrt --placement fk:6,R=1 \
			--gc-ops $o --curve c$o.csv --interval 256 hc.ev >f$o.json || return 1
		gp_range c$o.csv 8192 12288 32 >g$o.txt &&
		jq -e "(.wa_total - (.host_pages_written + .gc_pages_copied) / .host_pages_written | fabs) < 1e-9" f$o.json || return 1
	done &&
	python3 -c "
import json
a, b = (json.load(open(\"f%d.json\" % o))[\"wa_total\"] for o in (0, 1))
assert 1.05 * a < b < 1.5 * a, (a, b)
for o in (0, 1):
    lo, hi = map(float, open(\"g%d.txt\" % o).read().split())
    assert 0.15 < lo and hi < 0.17, (o, lo, hi)
"
'
t_expect_success '--gc-ops counts per request: 32-page requests on 48-page segments let the proportion pass P with 1 (not with 0), less with 2, and GC keeps up' '
	"$G" -p hotcold -n 256 -w 2048 --fill -s 2 -b 128K -o bin 2>/dev/null >r.ev &&
	for o in 0 1 2; do
		"$S" -q --check --page-size 4096 --op 0.5 --pages-per-segment 48 --gc-trigger gp:0.15 --gc-ops $o \
			--curve r$o.csv --interval 256 r.ev >r$o.json || return 1
		gp_range r$o.csv 8192 12288 48 >rg$o.txt || return 1
	done &&
	python3 -c "
import json
wa = [json.load(open(\"r%d.json\" % o))[\"wa_total\"] for o in range(3)]
hi = [float(open(\"rg%d.txt\" % o).read().split()[1]) for o in range(3)]
free = [min(int(l.split(\",\")[3]) for l in list(open(\"r%d.csv\" % o))[1:]) for o in range(3)]
assert hi[0] < 0.153 < hi[2] < hi[1] < 0.2, hi
assert wa[1] < wa[2] < wa[0] and wa[1] > 1.1, wa
assert min(free) > 10, free
"
'
t_expect_success '--grid varies --gc-ops as a model option: the configurations of separate runs' '
	"$S" -q --op 0.5 --pages-per-segment 32 --gc-trigger gp:0.15 --policy cb-sqrt --placement fk:6,R=1 \
		--grid "gc-ops=0,1" --results g.csv hc.ev >/dev/null &&
	for o in 0 1; do
		"$S" -q --op 0.5 --pages-per-segment 32 --gc-trigger gp:0.15 --policy cb-sqrt --placement fk:6,R=1 --gc-ops $o hc.ev |
			jq -r .wa_total >w$o || return 1
	done &&
	python3 -c "
import csv
rows = list(csv.DictReader(open(\"g.csv\")))
got = {r[\"gc-ops\"]: (r[\"params.gc_ops\"], float(r[\"wa_total\"])) for r in rows}
for o in (\"0\", \"1\"):
    assert got[o][0] == o and abs(got[o][1] - float(open(\"w\" + o).read())) < 1e-9, got
"
'
t_expect_status 2 '--segment-bytes that is not whole pages is a usage error' '"$S" --segment-bytes 5000 u.ev'
t_expect_status 2 'sepbit:3 (fewer than four classes) is a usage error' '"$S" --placement sepbit:3 u.ev'
t_done
