#!/bin/sh
# t0490-trim-host: the TRIM host (--trim-mode, --discard-granularity,
# --discard-max, --trim-loss; models/host/host_trim.c). A small trace
# whose every figure is computed by hand; then the equalities that must
# hold on real traces with discards (the rootfs-discard ext4 capture and
# tracegen --trim-prob workloads): loss 0 is --trim, loss 1 and a
# granularity above every discard are --no-trim, a batch longer than
# the trace is the trace with every discard moved to its end, delay 0 is
# online; the ledger balances.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
RT="$SAMPLES/blktrace/rootfs-discard/vda_rootfs_pycompile"
RTSIM="--logical-space footprint --precondition random --pages-per-segment auto --seed 1"

# The device's figures: the summary without the options' names, the
# host layer's ledger, the run's own times.
dev='del(.params.trim, .params.trim_mode, .params.discard_granularity, .params.discard_max, .params.trim_loss, .host, .timing)
	| del(.requests.discards, .requests.discards_ignored)'

# Pages 0-9 written at 0 s, discarded at 0.5 s; page 16 written at
# 0.8 s, page 3 (again) at 1.2 s, page 20 at 2.5 s: 13 page writes.
cat >"$TMP/hand.txt" <<'EOF'
0 W 0 40960 0
500000000 D 0 40960 0
800000000 W 65536 4096 0
1200000000 W 12288 4096 0
2500000000 W 81920 4096 0
EOF
HAND="--logical-pages 64 --pages-per-segment 8 --op 0.5"
# fields: device discards, pages trimmed, the leak at the end, the
# largest an event found, and what the 13 page writes found, summed
fields='[.requests.discards, .requests.discard_pages_trimmed, .host.trim_leak_pages, .host.trim_leak_pages_peak,
	(.host.trim_leak_pages_mean * 13 | round)] | map(tostring) | join("_")'

t_expect_success 'a hand-computed trace: online, batches, delays, losses, alignment, splits' '
	while read -r want opts; do
		got=$("$S" -q $HAND $opts hand.txt | jq -r "$fields") || exit 1
		[ "$got" = "$want" ] || { echo "$opts: got [$got], want [$want]"; exit 1; }
	done <<-EOF
	1_10_0_0_0 --trim-mode online
	1_10_0_10_10 --trim-mode batch:1
	2_9_0_10_20 --trim-mode batch:2
	2_9_0_10_29 --trim-mode batch:10
	1_10_0_10_10 --trim-mode delay:0.5
	2_9_0_10_20 --trim-mode delay:1
	1_10_0_0_0 --trim-mode delay:0
	0_0_9_10_29 --trim-loss 1
	1_0_9_10_29 --no-trim
	0_0_9_10_29 --discard-granularity 64K
	1_8_2_2_6 --discard-granularity 16K
	3_10_0_0_0 --discard-max 16K
	EOF
'

# A page discarded (A), written again and discarded again (B) within the
# delay is B's: A's release (2 s) leaves it, B's trims it (2.2 s), so
# the write at 2.1 s finds it leaked (had A's release trimmed it, the
# four page writes would find 1 page in all, not 2).
cat >"$TMP/again.txt" <<'EOF2'
0 W 0 4096 0
1000000000 D 0 4096 0
1100000000 W 0 4096 0
1200000000 D 0 4096 0
2100000000 W 16384 4096 0
5000000000 W 8192 4096 0
EOF2
t_expect_success 'delay: a page written again and discarded again belongs to the later discard' '
	"$S" -q $HAND --trim-mode delay:1 again.txt >d.json &&
	jq -e ".requests.discards == 1 and .requests.discard_pages_trimmed == 1 and .host.discards_held == 2 and
		.host.trim_leak_pages == 0 and .host.trim_leak_pages_peak == 1 and .host.trim_leak_pages_mean == 0.5 and
		.host.discard_pages_rewritten == 1" d.json
'

"$G" -p hotcold -n 8192 -w 60000 --fill --trim-prob 0.2 -r 500 -s 7 -o text >"$TMP/hc.txt" 2>/dev/null
HC="--op 0.1 --pages-per-segment 32 --interval 2048"

# run NAME OPTIONS...: the summary (NAME.json) and the curve (NAME.csv).
run() { n=$1; shift; "$S" -q --curve $n.csv "$@" >$n.json; }

t_expect_success 'loss 0 is --trim, byte for byte: the summary and the curve (rootfs-discard, tracegen)' '
	run a $RTSIM --trim "$RT" && run b $RTSIM --trim-loss 0 "$RT" &&
	jq -S "del(.timing)" a.json >a && jq -S "del(.timing)" b.json >b && t_cmp a b && t_cmp a.csv b.csv &&
	run c $HC --trim hc.txt && run d $HC --trim-loss 0 hc.txt &&
	jq -S "del(.timing)" c.json >c && jq -S "del(.timing)" d.json >d && t_cmp c d && t_cmp c.csv d.csv &&
	jq -e ".host.trim_leak_pages_peak == 0 and .requests.discard_pages_trimmed > 20000" a.json
'
t_expect_success 'loss 1 is --no-trim, byte for byte but for the options and the discards the device never had' '
	for t in rt hc; do
		if [ $t = rt ]; then o="$RTSIM"; f="$RT"; else o="$HC"; f=hc.txt; fi
		run $t-lost $o --trim-loss 1 "$f" && run $t-none $o --no-trim "$f" || exit 1
		jq -S "$dev" $t-lost.json >a && jq -S "$dev" $t-none.json >b && t_cmp a b && t_cmp $t-lost.csv $t-none.csv || exit 1
		jq -e ".host.discards_lost == .host.in.discards and .host.out.discards == 0 and .requests.discards == 0 and
			.host.trim_leak_pages > 0" $t-lost.json || exit 1
		jq -e ".host.trim_leak_pages > 0 and .requests.discards_ignored == .host.in.discards" $t-none.json || exit 1
		# the same leak, and a larger WA than TRIM gives
		jq -s -e ".[0].host.trim_leak_pages == .[1].host.trim_leak_pages and
			.[0].host.trim_leak_pages_mean == .[1].host.trim_leak_pages_mean and .[0].wa_total > .[2].wa_total" \
			$t-lost.json $t-none.json $([ $t = rt ] && echo a.json || echo c.json) || exit 1
	done
'
t_expect_success 'a granularity above every discard is --no-trim (rootfs-discard: 14 MB at most; tracegen: 4 KiB)' '
	run g $RTSIM --discard-granularity 16M "$RT" &&
	jq -S "$dev" g.json >a && jq -S "$dev" rt-none.json >b && t_cmp a b && t_cmp g.csv rt-none.csv &&
	jq -e ".host.discards_dropped == 1507 and .requests.discards == 0" g.json &&
	run h $HC --discard-granularity 8K hc.txt &&
	jq -S "$dev" h.json >a && jq -S "$dev" hc-none.json >b && t_cmp a b && t_cmp h.csv hc-none.csv
'
t_expect_success 'delay 0 is online: the device and the leak, byte for byte' '
	for t in rt hc; do
		if [ $t = rt ]; then o="$RTSIM"; f="$RT"; else o="$HC"; f=hc.txt; fi
		run $t-on $o "$f" && run $t-d0 $o --trim-mode delay:0 "$f" || exit 1
		keep="del(.timing, .params.trim_mode, .host.discards_held, .host.memory_bytes)"
		jq -S "$keep" $t-on.json >a && jq -S "$keep" $t-d0.json >b && t_cmp a b && t_cmp $t-on.csv $t-d0.csv || exit 1
		jq -e ".host.discards_held == .host.in.discards and .host.discards_held > 0" $t-d0.json || exit 1
	done
'
# The trace with every discard moved to its end: the pages whose last
# event is a discard, discarded there (what a batch never sent before
# the end holds then).
awk '$2 == "D" { last[$3] = "D"; next } $2 == "W" { last[$3] = "W" } { print; t = $1 }
	END { for (o in last) if (last[o] == "D") print t, "D", o, 4096, 0 }' "$TMP/hc.txt" >"$TMP/end.txt"
t_expect_success 'a batch longer than the trace is every discard at its end' '
	run e $HC --trim-mode batch:100000 hc.txt && run f $HC end.txt &&
	same="[.host_pages_written, .gc_pages_copied, .wa_total, .segments_cleaned, .requests.discard_pages_trimmed,
		.requests.discard_pages_unmapped, .free_segments, .erase_count]" &&
	jq -c "$same" e.json >a && jq -c "$same" f.json >b && t_cmp a b &&
	cut -d, -f1-6 e.csv >a && cut -d, -f1-6 f.csv >b && t_cmp a b &&
	jq -e ".host.batches == 1 and .host.trim_leak_pages == 0 and .host.discard_pages_pending == 0 and
		.host.discard_pages_rewritten > 0 and .host.trim_leak_pages_peak > 1000 and
		.requests.discard_pages_trimmed == $(grep -c " D " end.txt)" e.json &&
	# a shorter period sends earlier: a smaller mean leak, and less GC
	run p $HC --trim-mode batch:10 hc.txt &&
	jq -s -e ".[0].host.batches > 10 and .[0].host.trim_leak_pages_mean < .[1].host.trim_leak_pages_mean and
		.[0].gc_pages_copied < .[1].gc_pages_copied" p.json e.json
'
t_expect_success 'the ledger: pages sent, aligned away and lost add up to the pages discarded (online)' '
	"$S" -q $RTSIM --trim-loss 0.3 --discard-granularity 64K --discard-max 256K "$RT" >l.json &&
	jq -e ".requests.discard_pages_trimmed + .requests.discard_pages_unmapped + .host.discard_pages_dropped +
		.host.discard_pages_lost == .host.discard_pages and .host.discards_split > 0 and .host.discards_lost > 0 and
		.host.discards_dropped > 0 and .host.out.discards == .requests.discards and
		.host.in.writes == .requests.writes and .host.in.reads == .host.out.reads and .host.in.discards == 1507" l.json &&
	# another seed loses other pieces
	"$S" -q $RTSIM --trim-loss 0.3 --discard-granularity 64K --discard-max 256K --seed 2 "$RT" >l2.json &&
	jq -s -e ".[0].host.discards_lost != .[1].host.discards_lost" l.json l2.json
'
t_expect_success 'a grid over the TRIM options equals the separate runs; --results has the host columns' '
	"$S" -q $HC --grid "trim-mode=online,batch:30,delay:5 trim-loss=0,0.5" --results r.csv hc.txt >g.json &&
	i=0 &&
	for m in online batch:30 delay:5; do for l in 0 0.5; do
		"$S" -q $HC --trim-mode $m --trim-loss $l hc.txt | jq -S "del(.program, .version, .partial, .input, .timing)" >s &&
		jq -S ".configurations[$i] | del(.configuration, .axes)" g.json >c && t_cmp s c || exit 1
		i=$((i + 1))
	done; done &&
	head -1 r.csv | tr , "\n" | grep -qx host.trim_leak_pages && head -1 r.csv | tr , "\n" | grep -qx params.trim_mode &&
	test $(wc -l <r.csv) = 7
'
t_expect_success 'a device in time under the TRIM host counts as the counting device does' '
	keep="[.host_pages_written, .gc_pages_copied, .requests, .host]" &&
	"$S" -q $HC --trim-mode batch:30 --discard-granularity 8K hc.txt | jq -c "$keep" >a &&
	"$S" -q $HC --trim-mode batch:30 --discard-granularity 8K --timing hc.txt | jq -c "$keep | .[3].memory_bytes = 0" >b &&
	jq -c ".[3].memory_bytes = 0" a >a2 && t_cmp a2 b
'
t_expect_success 'in time, discards still delayed when the trace ends are sent then: the run ends where the trace does, whatever the delay' '
	"$T_TOP/bin/tracegen" -q -p uniform -n 4096 -w 8000 --fill --trim-prob 0.1 --rate 2000 -o bin >dl.ev &&
	for m in online delay:10 delay:100; do
		"$S" -q --device femu,channels=2,dies=2 --logical-pages 4096 --trim-mode $m dl.ev 2>/dev/null |
			jq -r "[.timing.simulated_s, .host.discards_held] | @tsv" || return 1
	done >got &&
	awk "{ t[NR] = \$1 } NR > 1 && \$2 == 0 { bad = 1 } END { exit bad || t[2] != t[3] || t[2] > t[1] + 1 }" got
'
t_expect_success 'a footprint with held discards and --footprints: the numbering of pass 1, the same run' '
	"$BIN/tracestat" -q --per-volume hc.csv hc.txt >/dev/null 2>&1 &&
	"$S" -q --logical-space footprint $HC --trim-mode delay:5 hc.txt | jq -S "del(.timing)" >a &&
	"$S" -q --logical-space footprint $HC --trim-mode delay:5 --footprints hc.csv hc.txt 2>fp.err |
		jq -S "del(.timing)" >b && t_cmp a b && grep -q "held by --trim-mode.*reading the trace twice" fp.err
'
t_expect_success 'bad TRIM options, and TRIM options the device would not hear (--no-trim), are usage errors (exit 2)' '
	t_err 2 "trim-mode takes" "$S" --trim-mode batch:0 hc.txt &&
	t_err 2 "trim-mode takes" "$S" --trim-mode sometimes hc.txt &&
	t_err 2 "trim-mode takes" "$S" --trim-mode delay:-1 hc.txt &&
	t_err 2 "trim-loss takes" "$S" --trim-loss 1.5 hc.txt &&
	t_err 2 "discard-granularity takes" "$S" --discard-granularity 1000 hc.txt &&
	t_err 2 "discard-max takes" "$S" --discard-max 8G hc.txt &&
	t_err 2 "not a multiple of --discard-granularity" "$S" --discard-granularity 64K --discard-max 96K hc.txt &&
	t_err 2 "trim-mode takes" "$S" --grid "trim-mode=online,batch:x" hc.txt &&
	t_err 2 "replayed without them" "$S" --trim-mode delay:1 - <hc.txt &&
	for a in "--trim-loss 0.2" "--trim-mode batch:30" "--discard-granularity 8K" "--discard-max 64K"; do
		t_err 2 "^ftlsim: --no-trim: the device ignores every discard" "$S" --no-trim $a hc.txt || exit 1
	done &&
	t_err 2 "--no-trim: the device ignores every discard" "$S" --grid "trim=on,off" --trim-loss 0.2 hc.txt &&
	"$S" -q --no-trim --trim-loss 0 $HC hc.txt >/dev/null
'
t_expect_success 'standard input read twice gives the file'"'"'s summary, the leak too (--no-trim)' '
	"$S" -q $RTSIM --no-trim "$RT" | jq -S "del(.timing, .input)" >a &&
	"$BIN/tracecat" -q -o bin "$RT" | "$S" -q $RTSIM --no-trim - | jq -S "del(.timing, .input)" >b && t_cmp a b &&
	jq -e ".host.trim_leak_pages_peak > 20000 and .host.trim_leak_pages_mean > 0" a
'
# An ageing trace goes through the TRIM host as the measured trace does:
# its discards aligned, lost or held by the same rules, what it holds
# sent at its end; the counts restart after it, the leak it left stays.
"$G" -p uniform -n 8192 -w 20000 -r 500 -s 9 -o text >"$TMP/w.txt" 2>/dev/null
t_expect_success 'an ageing trace through the TRIM host: loss 1 and a coarse granularity are --no-trim there too; the leak it left stays' '
	A="$HC --logical-pages 8192 --precondition-trace hc.txt" &&
	keep="[.host_pages_written, .gc_pages_copied, .wa_total, .host.trim_leak_pages, .host.trim_leak_pages_peak,
		.host.trim_leak_pages_mean]" &&
	"$S" -q $A --no-trim w.txt | jq -c "$keep" >none &&
	"$S" -q $A --trim-loss 1 w.txt | jq -c "$keep" >lost && t_cmp none lost &&
	"$S" -q $A --discard-granularity 64K w.txt | jq -c "$keep" >gran && t_cmp none gran &&
	"$S" -q $A w.txt >on.json && jq -c "$keep" on.json >on && ! t_cmp none on 2>/dev/null &&
	jq -e ".[4] > 1000 and .[4] > .[3]" none &&
	jq -e ".host.trim_leak_pages_peak == 0 and .host.in.discards == 0 and .host.out.discards == 0" on.json &&
	# held to the ageing trace'"'"'s end, then sent: none leaked; the measured
	# trace'"'"'s batches, held discards and pages its own
	"$S" -q $A --trim-mode batch:100000 w.txt | jq -e ".host.trim_leak_pages_peak == 0 and .host.batches == 0" &&
	same="[.host.in, .host.out.discards, .host.discards_held, .host.batches, .host.discard_pages,
		.host.discard_pages_rewritten, .host.discard_pages_pending]" &&
	"$S" -q $HC --logical-pages 8192 --trim-mode batch:30 hc.txt | jq -c "$same" >a &&
	"$S" -q $A --trim-mode batch:30 hc.txt | jq -c "$same" >b && t_cmp a b
'
t_done
