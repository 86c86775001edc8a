#!/bin/sh
# t0460-ftlsim-progress: --progress (fraction of the file, ETA, events/s,
# host pages, WA; whole lines off a terminal, none unless asked) and
# --dry-run (geometry, the model's memory as the model itself counts it,
# the input's size, an estimate; nothing simulated; a model larger than
# the memory available refused up front, exit 2).
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
# (a quarter of the writes under the sanitizers, as slow again)
UW=3000000
t_sanitized && UW=750000
"$G" -p uniform -n 65536 --fill -w $UW -s 1 -o bin >"$TMP/u.ev" 2>/dev/null
zstd -q -1 -c "$TMP/u.ev" >"$TMP/u.ev.zst"
sim="-q --logical-pages 65536 --pages-per-segment 64"
# A progress line: "ftlsim: 41.2%, ETA 0:00:01, N events, R events/s, N host pages, WA X"
line='^ftlsim: +[0-9.]+%, ETA [0-9]+:[0-9][0-9]:[0-9][0-9], [0-9]+ events, [0-9.e+]+ events/s, [0-9]+ host pages, WA [0-9.]+$'

t_expect_success '--progress=0.05 off a terminal: whole lines, the fraction rising, the same summary' '
	"$S" $sim --progress=0.05 u.ev >p.json 2>p.err && "$S" $sim u.ev >q.json 2>q.err &&
	test $(grep -cE "$line" p.err) -ge 2 && ! grep -v -E "$line" p.err &&
	sed -E "s/^ftlsim: +([0-9.]+)%.*/\1/" p.err | sort -n -c &&
	test ! -s q.err && jq -S "del(.timing)" p.json >a && jq -S "del(.timing)" q.json >b && t_cmp a b
'
t_expect_success '--progress=60 on a run of a few seconds: no line (the first comes 60 s in, not at once)' '
	"$S" $sim --progress=60 u.ev >/dev/null 2>p60.err && test ! -s p60.err
'
t_expect_success '--progress on a compressed file: the fraction of the compressed bytes' '
	"$S" $sim --progress=0.05 u.ev.zst >/dev/null 2>z.err && grep -qE "$line" z.err &&
	last=$(tail -1 z.err | sed -E "s/^ftlsim: +([0-9.]+)%.*/\1/") &&
	awk -v f="$last" "BEGIN { exit !(f > 0 && f <= 100) }"
'
t_expect_success '--progress in the first pass (extent) says so; a pipe has no fraction' '
	"$S" -q --pages-per-segment 64 --progress=0.02 u.ev >/dev/null 2>e.err &&
	grep -q "(pass 1 of 2), [0-9]* events" e.err &&
	cat u.ev | "$S" $sim --progress=0.05 - >/dev/null 2>s.err &&
	grep -qE "^ftlsim: [0-9]+ events, [0-9.e+]+ events/s, [0-9]+ host pages, WA" s.err
'
t_expect_status 2 '--progress takes seconds' '"$S" $sim --progress=soon u.ev'

t_expect_success '--dry-run: geometry, size, events; nothing simulated, no output file' '
	"$S" $sim --dry-run --curve c.csv u.ev >d.json && test ! -e c.csv &&
	jq -e ".dry_run == true and .params.logical_pages == 65536 and .params.pages_per_segment == 64
		and .input.size_bytes == $(wc -c <u.ev) and .input.format == \"ev\"
		and (.input.events_estimated | . > $UW and . < $UW + 140000)
		and .estimate.run_s > 0 and .memory.fits == true and (has(\"host_pages_written\") | not)" d.json
'
t_expect_success '--dry-run: the model memory is what the model counts, for several policies and sizes' '
	for a in "--policy greedy" "--policy cb" "--policy fifo" "--policy dchoices:4" "--placement sepgc --policy cb" \
		"--placement sepbit" "--placement sfs" "--wear-level static:4"; do
		for u in 65536 1000000; do # (above 2^18 pages: the dry run from its coefficients)
			# (under the sanitizers the coefficients of two: the same code)
			t_sanitized && [ $u = 1000000 ] && case "$a" in "--policy greedy" | "--placement sepbit") ;; *) continue ;; esac
			d=$("$S" -q --logical-pages $u --pages-per-segment 64 $a --dry-run u.ev | jq .memory.model_bytes) &&
			r=$(head -c 160016 u.ev | "$S" -q --logical-pages $u --pages-per-segment 64 $a - | jq .memory.model_bytes) &&
			awk -v d="$d" -v r="$r" "BEGIN { e = (d - r) / r; exit !(e < 0.001 && e > -0.001) }" ||
				{ echo "$a U=$u: dry run $d, model $r"; exit 1; }
		done
	done
'
t_expect_success 'wear levelling in the model memory: its lists (8 bytes a segment) and its 64 erase-count levels (1 KiB), in the run and the dry run alike (exact at 2^16 pages, where the dry run builds the model)' '
	"$G" -p seq -n 5000 -w 5000 -o bin >s5k.ev 2>/dev/null &&
	for u in 65536 3000000; do
		w=$("$S" -q --logical-pages $u --pages-per-segment 64 --wear-level static:4 s5k.ev) &&
		p=$("$S" -q --logical-pages $u --pages-per-segment 64 s5k.ev | jq .memory.model_bytes) &&
		d=$("$S" -q --logical-pages $u --pages-per-segment 64 --wear-level static:4 --dry-run u.ev | jq .memory.model_bytes) &&
		echo "$w" | jq -e --argjson p "$p" --argjson d "$d" \
			".memory.model_bytes - \$p == 8 * .params.segments + 1024 and
			 (.params.logical_pages > 65536 or .memory.model_bytes == \$d)" ||
			{ echo "U=$u: run $(echo "$w" | jq .memory.model_bytes), without wear levelling $p, dry run $d"; return 1; }
	done
'
t_expect_success '--dry-run with fk: the 4 bytes a host page write it learns counted (the run'"'"'s own count), its learning peak said; a limit it passes while learning stops the run (exit 2), no output left' '
	head -c $((16 + 32 * 200000)) u.ev >f.ev &&
	for sp in "--logical-pages 65536" "--logical-space extent"; do
		d=$("$S" -q $sp --pages-per-segment 64 --placement fk --dry-run f.ev) &&
		r=$("$S" -q $sp --pages-per-segment 64 --placement fk f.ev | jq .memory.model_bytes) &&
		test "$(echo "$d" | jq .memory.model_bytes)" = "$r" &&
		echo "$d" | jq -e ".memory.learn_peak_bytes > .memory.model_bytes and .memory.fits" >/dev/null &&
		test "$r" -gt $((4 * 200000)) || { echo "$sp: $d, run $r"; return 1; }
	done &&
	lim=$(( $(echo "$d" | jq .memory.model_bytes) - 4 * 200000 + 300000 )) &&
	t_err 2 "learning the trace .* over the limit of .*--mem-limit" \
		"$S" -q --logical-pages 65536 --pages-per-segment 64 --placement fk --mem-limit $lim --curve fc.csv f.ev &&
	test ! -e fc.csv && ! ls .fc.csv* 2>/dev/null &&
	t_err 2 "the model needs .* more than the .* of --mem-limit" \
		"$S" -q --logical-space extent --pages-per-segment 64 --placement fk --mem-limit $lim f.ev
'
t_expect_success '--dry-run: midas, whose bins stop at 2^15 and samples start at 8192 pages, within 2% from 2^16 to 3 x 10^6 pages' '
	for u in 65536 3000000; do
		d=$("$S" -q --logical-pages $u --pages-per-segment 64 --placement midas --dry-run u.ev | jq .memory.model_bytes) &&
		r=$(head -c 160016 u.ev | "$S" -q --logical-pages $u --pages-per-segment 64 --placement midas - 2>/dev/null | jq .memory.model_bytes) &&
		awk -v d="$d" -v r="$r" "BEGIN { e = (d - r) / r; exit !(e < 0.02 && e > -0.02) }" ||
			{ echo "U=$u: dry run $d, model $r"; return 1; }
	done
'
# 3.9 G logical pages: about 33 GB of model, more than this machine has
# (24 GiB), so the refusal does not depend on what else is running.
t_expect_success 'a model larger than the memory available is refused up front (exit 2), with the figures' '
	t_err 2 "the model needs [0-9.]+ MiB .*more than the [0-9.]+ MiB available" \
		"$S" -q --logical-pages 3900000000 u.ev &&
	"$S" -q --logical-pages 3900000000 --dry-run u.ev >big.json 2>big.err; test $? -eq 2 &&
	jq -e ".memory.fits == false and .memory.model_bytes > 30000000000" big.json
'
t_expect_success '--dry-run --mem-limit: fits is checked against the limit (limit_bytes), available_bytes stays what is available' '
	"$S" -q --logical-pages 65536 --pages-per-segment 64 --dry-run u.ev >free.json &&
	"$S" -q --logical-pages 65536 --pages-per-segment 64 --mem-limit 1K --dry-run u.ev >lim.json; test $? -eq 2 &&
	jq -e ".memory.limit_bytes == 1024 and .memory.fits == false and .memory.available_bytes > 1048576" lim.json &&
	jq -e ".memory.fits and (.memory | has(\"limit_bytes\") | not)" free.json
'
t_expect_success '--dry-run with --grid and --per-volume: every model, memory within 1% of what each run counts, the total the run checks, a time estimate after a first pass' '
	T="$SAMPLES/tencent/cbs-sample.csv.bz2"
	A="-q --per-volume --volumes top:3 --logical-space footprint --pages-per-segment auto --grid op=0.07,0.28"
	"$S" $A --dry-run --results r0.csv "$T" >dm.json 2>/dev/null && test ! -e r0.csv &&
	jq -e ".dry_run and .models == 6 and .configurations == 2 and (.per_model | length) == 6
		and .estimate.read_s > 0 and .estimate.models_s > 0 and .estimate.run_s >= .estimate.read_s" dm.json &&
	"$S" -q --dry-run --logical-pages 4096 --grid op=0.07,0.28 u.ev 2>/dev/null | jq -e ".estimate.run_s == null" >/dev/null &&
	"$S" $A --results r.csv "$T" >run.json 2>/dev/null &&
	test "$(jq .memory.total_bytes dm.json)" = "$(jq .memory.estimate_bytes run.json)" &&
	jq -r ".per_model[] | \"\(.volume),\(.axes.op),\(.model_bytes)\"" dm.json >est.txt &&
	python3 -c "
import csv, sys
est = {tuple(l.strip().split(\",\")[:2]): int(l.strip().split(\",\")[2]) for l in open(\"est.txt\")}
rows = list(csv.DictReader(open(\"r.csv\")))
assert len(rows) == 6 and len(est) == 6
for r in rows:
    e, m = est[(r[\"volume\"], r[\"op\"])], int(r[\"memory.model_bytes\"])
    assert abs(e - m) <= 0.01 * m, (r[\"volume\"], e, m)
" &&
	t_err 2 "over the limit of" "$S" $A --dry-run --mem-limit 1M "$T" &&
	"$S" -q --dry-run --logical-space footprint --grid "policy=greedy,cb" "$SAMPLES/msr/hm_0-head1000.csv" --pages-per-segment auto |
		jq -e ".models == 2 and .per_model[1].axes.policy == \"cb\" and .memory.fits"
'
t_done
