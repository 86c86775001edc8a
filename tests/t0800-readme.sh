#!/bin/sh
# t0800-readme: the README's commands run exactly as written (taken from
# README.md itself), and the figures it quotes are what they print.
. "$(dirname "$0")/lib.sh"
# Under the sanitizers (CI's second pass) skipped: this checks the
# document; the programs its commands run are tested under them elsewhere.
if t_sanitized; then
	t_skip "the README's commands and the figures it quotes" "the sanitizers' build: a check of the document, made by the plain build"
	t_done
	exit
fi
README="$T_TOP/README.md"
cd "$TMP" && ln -s "$T_TOP/bin" bin && ln -s "$T_TOP/traces" traces

# The commands of "## Using it": the 4-space indented lines, one command
# per line once continuations (a trailing \ or |) are joined.
awk '/^## /{ on = ($0 == "## Using it") } on && /^    [^ ]/ || on && /^      /' "$README" |
	sed 's/^    //' |
	awk '{ line = line $0 } /(\\|\|)$/ { sub(/\\$/, "", line); next } { print line; line = "" }' \
		>"$TMP/cmds"
n=$(wc -l <"$TMP/cmds")
: >"$TMP/null"
i=0
while IFS= read -r c; do
	i=$((i + 1))
	(cd "$TMP" && sh -c "$c") <"$TMP/null" >"$TMP/out.$i" 2>"$TMP/err.$i"
	echo $? >"$TMP/rc.$i"
done <"$TMP/cmds"

# The README as one line; a figure it quotes after WORDS (a regex, the
# last match), as a number without thousands separators.
tr '\n' ' ' <"$README" >"$TMP/readme1"
quoted() { sed -n "s/.*$1 \([0-9][0-9.,]*[0-9]\).*/\1/p" "$TMP/readme1" | tr -d ,; }
# The JSON field $2 of output $1, rounded like the quoted figure $3.
field() {
	v=$(sed -n "s/^ *\"$2\": \([0-9.e+-]*\),*$/\1/p" "$TMP/out.$1" | head -1)
	d=${3#*.}
	printf "%.${#d}f" "$v"
}

t_expect_success 'the README has its eight example commands, and each exits 0' '
	test $n -eq 8 || { cat cmds; exit 1; }
	for k in 1 2 3 4 5 6 7 8; do
		test "$(cat rc.$k)" = 0 || { sed -n "${k}p" cmds; cat err.$k; exit 1; }
	done
'
t_expect_success 'tracestat and tracecat | head print what they should' '
	grep -q "\"format\": \"tencent\"" out.1 && test $(wc -l <out.2) -eq 10
'
t_expect_success 'the rootfs replay gives the wa_total the README quotes; ftlplot draws its figures' '
	q=$(quoted "(.wa_total.") && test -n "$q" &&
	test "$(field 3 wa_total $q)" = "$q" || { echo "README $q, ftlsim $(field 3 wa_total $q)"; exit 1; }
	test -s figs/wa-curve.png && test -s figs/util-victims.png && test -s figs/util-sealed.png
'
t_expect_success 'the comparison draws both runs on one set of axes, with its .dat and .gp' '
	test -s cmp/wa-curve.png && test $(grep -c "^# Curve [0-9]" cmp/wa-curve.dat) -eq 2 &&
	grep -q "wa.csv|cost-benefit, GC apart;.*wa-greedy.csv|greedy, one log" cmp/wa-curve.gp
'
t_expect_success 'the synthetic run and wamodel give the figures the README quotes' '
	q=$(quoted "(.wa_measured.") && r=$(quoted "mean-field greedy value") &&
	test "$(field 5 wa_measured $q)" = "$q" &&
	test "$(field 6 wa_greedy_mf $r)" = "$r" || { echo "README $q $r"; grep wa_ out.5 out.6; exit 1; }
'
t_expect_success 'make demo: the I/O counts and the two WA figures of the README' '
	DEMO_DIR="$TMP/demo" sh "$T_TOP/traces/demo.sh" >demo.txt 2>&1 || { cat demo.txt; exit 1; }
	ios=$(sed -n "s/.* \([0-9,]*\) issued I\/Os.*/\1/p" readme1 | tr -d ,) &&
	disc=$(sed -n "s/.* I\/Os, \([0-9,]*\) of them discards.*/\1/p" readme1 | tr -d ,) &&
	wt=$(sed -n "s/.* WA \([0-9.]*\) with TRIM against.*/\1/p" readme1) &&
	wn=$(sed -n "s/.* with TRIM against \([0-9.]*\) without.*/\1/p" readme1) &&
	test -n "$ios" && test -n "$disc" && test -n "$wt" && test -n "$wn" &&
	grep -q "\"events\": $ios," demo.txt &&
	grep -q "\"requests\": $disc," demo.txt &&
	test "$(printf %.2f "$(sed -n "s/.*\"wa_total\": \([0-9.]*\),/\1/p" demo/trim/summary.json)")" = "$wt" &&
	test "$(printf %.2f "$(sed -n "s/.*\"wa_total\": \([0-9.]*\),/\1/p" demo/no-trim/summary.json)")" = "$wn" ||
		{ echo "README: $ios I/Os, $disc discards, WA $wt / $wn"; cat demo.txt; exit 1; }
'
t_expect_success 'the figures of "What the cleaner costs in time" are what its commands print' '
	"$T_TOP/bin/tracegen" -q -p uniform -n 65536 --fill -w 500000 -o bin >u.ev &&
	m=$("$T_TOP/bin/ftlsim" -q --device femu,channels=1,dies=1 --qd 1 --op 0.1 --warmup-writes 300000 u.ev 2>/dev/null |
		jq .timing.latency_us.write.mean) &&
	grep -q "prints $m (us)" readme1 &&
	"$T_TOP/bin/tracegen" -q -p hir --rate 4000 -n 65536 --fill --burst 0.75 --waits 5 --rounds 20 --baseline 0 -o bin >hb.ev &&
	A="--device femu,channels=2,dies=2 --op 0.28 --gc-low 4 --gc-high 8 --warmup-writes 65536" &&
	"$T_TOP/bin/ftlsim" -q $A --grid "gc-mode=foreground,idle:idle=100,high=40,preemptible:hard=1" hb.ev 2>/dev/null |
		jq -r ".configurations[] | [.wa_measured, .timing.latency_us.write.p99, .timing.gc_wait_s, .timing.latency_us.write.mean, .timing.latency_us.write.count] | @tsv" >hir &&
	test $(wc -l <hir) = 3 &&
	"$T_TOP/bin/ftlsim" -q $A --bg-gc idle=100,high=40 hb.ev 2>/dev/null | jq -r "[.wa_measured, .timing.latency_us.write.p99, .timing.gc_wait_s, .timing.latency_us.write.mean, .timing.latency_us.write.count] | @tsv" >bg1 &&
	sed -n 2p hir | cmp - bg1 &&
	bgl=$(awk "NR == 2 { printf \"| %.2f | 200 us | %.2f ms | \", \$1, \$2 / 1000 }" hir) &&
	grep -qF "$bgl" readme1 || { echo "README lacks: $bgl"; exit 1; }
	b=$("$T_TOP/bin/ftlsim" -q --device femu,channels=2,dies=2 --op 4 --warmup-writes 65536 hb.ev 2>/dev/null | jq .timing.latency_us.write.mean) &&
	fg=$(awk "NR == 1 { printf \"| %.2f | 200 us | %.2f ms | %.1f s |\", \$1, \$2 / 1000, \$3 }" hir) &&
	grep -qF "$fg" readme1 || { echo "README lacks: $fg"; exit 1; }
	pre=$(awk "NR == 3 { printf \"| %.2f | 200 us | %.2f ms | %.1f s |\", \$1, \$2 / 1000, \$3 }" hir) &&
	grep -qF "$pre" readme1 || { echo "README lacks: $pre"; exit 1; }
	added=$(awk -v b="$b" "NR == 1 { printf \"%.1f\", (\$4 - b) * \$5 / 1e6 }" hir) &&
	grep -q "GC added $added s to the" readme1 || { echo "README lacks: GC added $added s"; exit 1; }
'
t_expect_success 'the write cache table of "What the cleaner costs in time" is what its command prints' '
	test -s hb.ev &&
	c=$(grep -- "--grid .device=femu,channels=2,dies=2,femu,channels=2,dies=2,cache_mib" "$README" | sed "s/^ *bin\/ftlsim -q //; s/ hb.ev\$//") &&
	test -n "$c" &&
	eval "\"\$T_TOP/bin/ftlsim\" -q $c hb.ev" 2>/dev/null >cache.json &&
	jq -r ".configurations[] | [.wa_measured, .timing.latency_us.write.p99, .timing.latency_us.write.max, .timing.cache.requests_waited, .timing.cache.pages] | @tsv" cache.json |
		awk -F "\t" "{ printf \"| %.2f | %.2f ms | %.2f ms |%s|\\n\", \$1, \$2 / 1000, \$3 / 1000, \$5 ? \" \" \$4 \" \" : \" \" }" >rows &&
	test $(wc -l <rows) = 4 &&
	while IFS= read -r row; do grep -qF "$row" readme1 || { echo "README lacks: $row"; exit 1; }; done <rows
'
t_expect_success 'the Tencent per-volume run of "Replaying a cloud trace": the memory it says and its table are what it prints' '
	awk "/^    bin\/ftlsim -q --per-volume --volumes top:20/ { on = 1 } on { print } on && !/\\\\\$/ { exit }" "$README" |
		sed "s/^ *//; s/\\\\\$//" | tr "\n" " " >tc.sh &&
	grep -q "grid .policy=greedy,cb,fifo op=0.07,0.28." tc.sh &&
	sh tc.sh 2>tc.err || { cat tc.sh tc.err; exit 1; }
	# (-q, as written, says nothing of the memory; the same run without it does)
	! grep -q "MiB of model memory" tc.err && sed "s/ -q / /" tc.sh >tcv.sh && sh tcv.sh 2>tc.err || { cat tc.err; exit 1; }
	mm=$(sed -n "s/.*about \([0-9.]*\) MiB of model memory, \([0-9.]*\) MiB of footprint maps.*/\1 \2/p" tc.err) &&
	grep -q "(here ${mm% *} MiB of models and ${mm#* } MiB of footprint maps;" readme1 ||
		{ echo "README lacks: here ${mm% *} MiB of models and ${mm#* } MiB of footprint maps"; exit 1; }
	jq -r ".configurations[] | [.axes.op, .axes.policy, .wa_overall, .wa_per_volume.p50, .wa_per_volume.max] | @tsv" tencent.json |
		awk -F "\t" "{ printf \"| %s | %s | %.2f | %.2f | %.2f |\\n\", \$1, \$2, \$3, \$4, \$5 }" >tcrows &&
	test $(wc -l <tcrows) = 6 &&
	while IFS= read -r row; do grep -qF "$row" readme1 || { echo "README lacks: $row"; exit 1; }; done <tcrows
'
t_done
