#!/bin/sh
# t0445-flash-ops: the flash-operation hook sees every operation the
# model does. ftlsim --flash-ops writes a row per operation; on every
# placement under every victim policy (and wear levelling, and a random
# fill) its program rows equal the summary's flash writes, its GC reads
# the pages copied, its erases the segments cleaned and moved; a host
# read of a mapped page is read where the map says; and the hook costs
# nothing in the counts (the summary is the same with it as without).
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"
PLACEMENTS="single sepgc agesort hotcold oracle sepbit fk dac warcip mq multilog sfs eti sfr fadac midas"
POLICIES="greedy cb cb-sqrt fifo random dchoices windowed cat"

"$G" -p zipf:1.0 -n 4096 -w 12000 --fill -s 5 --trim-prob 0.05 -o bin >"$TMP/z.ev" 2>/dev/null

# ops.csv and s.json: every count of one against the other.
cat >"$TMP/count.sh" <<'SH'
awk -F, 'NR > 1 { n[$1 "," $2]++ }
	END { printf "{\"ph\":%d,\"pg\":%d,\"pw\":%d,\"pf\":%d,\"rg\":%d,\"rw\":%d,\"rh\":%d,\"eg\":%d,\"ew\":%d}\n",
		n["program,host"], n["program,gc"], n["program,wl"], n["program,fill"], n["read,gc"], n["read,wl"],
		n["read,host_read"], n["erase,gc"], n["erase,wl"] }' "$1" >c.json &&
jq -e --slurpfile c c.json '$c[0] as $c |
	($c.ph + $c.pg + $c.pw) == .flash_pages_written and $c.ph == .host_pages_written and
	$c.pg == .gc_pages_copied and $c.rg == .gc_pages_copied and
	$c.pw == .wl_pages_copied and $c.rw == .wl_pages_copied and
	$c.eg == .segments_cleaned and $c.ew == .wl_segments_moved and
	$c.pf == .precondition_pages_written' "$2" >/dev/null
SH

# Under the sanitizers, each placement under two victim policies, in
# turn: every policy and every placement run under them, not every pair.
i=0
for p in $PLACEMENTS; do
	pols=$POLICIES under="every victim policy"
	[ $p = midas ] && pols=greedy
	if t_sanitized && [ $p != midas ]; then
		set -- $POLICIES
		shift $((i % 8)); a=$1
		set -- $POLICIES
		shift $(((i + 4) % 8)); pols="$a $1" under="$a and $1 (the policies in turn)"
	fi
	i=$((i + 1))
	t_expect_success "$p: program, read and erase rows equal the summary's counts under $under" "
		pols=\"$pols\"
		for g in \$pols; do
			\"\$S\" -q --op 0.3 --pages-per-segment 32 --placement $p --policy \$g --flash-ops ops.csv z.ev >s.json &&
			sh count.sh ops.csv s.json || { echo \"# $p \$g\"; return 1; }
		done
	"
done

t_expect_success 'wear levelling and a random fill: wl and fill rows, and the summary unchanged by the hook' '
	"$S" -q --op 0.2 --pages-per-segment 32 --precondition random --wear-level static:2 --flash-ops ops.csv z.ev >s.json &&
	sh count.sh ops.csv s.json &&
	jq -e ".wl_segments_moved > 0 and .precondition_pages_written == 4096" s.json &&
	"$S" -q --op 0.2 --pages-per-segment 32 --precondition random --wear-level static:2 z.ev >n.json &&
	jq -S "del(.timing)" s.json >a && jq -S "del(.timing)" n.json >b && cmp a b
'

RT="$T_TOP/traces/samples/blktrace/rootfs-discard/vda_rootfs_pycompile"
t_expect_success 'a real trace: host reads of mapped pages read where the map says, in time order' '
	"$S" -q --logical-space footprint --op 0.07 --pages-per-segment 64 --precondition random --flash-ops ops.csv "$RT" >s.json &&
	sh count.sh ops.csv s.json &&
	awk -F, "NR > 1 && \$2 == \"host_read\" { n++ } END { exit !(n > 0) }" ops.csv &&
	jq -e --argjson n "$(grep -c ",host_read," ops.csv)" "\$n <= .requests.read_pages" s.json &&
	awk -F, "NR > 1 { if (\$7 < t) exit 1; t = \$7 } END { exit !(t > 0) }" ops.csv &&
	awk -F, "NR > 1 && \$1 != \"erase\" && int(\$4 / 64) != \$3 { exit 1 }" ops.csv
'

t_expect_success '--flash-ops with --grid: a file per configuration (FILE.K.csv), each the single run'"'"'s; - and --per-volume refused' '
	"$S" -q --grid "policy=greedy,cb" --flash-ops gops.csv z.ev | jq -r ".configurations[].files.flash_ops" >names &&
	printf "gops.0.csv\ngops.1.csv\n" >want && t_cmp want names &&
	"$S" -q --policy cb --flash-ops cb.csv z.ev >/dev/null && cmp cb.csv gops.1.csv &&
	t_err 2 "name a file, not -" "$S" -q --grid "policy=greedy,cb" --flash-ops - z.ev &&
	t_err 2 "not for --per-volume" "$S" -q --per-volume --flash-ops pv.csv z.ev
'

t_done
