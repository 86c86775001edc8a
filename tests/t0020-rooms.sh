#!/bin/sh
# t0020-rooms: models/ in rooms, and no include runs back up: each
# room includes only the rooms below it (wamodel < core < victim, place,
# select < registry < device < host < ftlsim), lib/ and, for ftlsim
# alone, analyzers/; the core names no concrete policy and holds no
# spare-share code (a class selector in select/), reads the placement's
# own victim rule from its declared flag; ftlsim reads no member of
# struct ftl (it talks to the device and host interfaces); and
# docs/ARCHITECTURE.md names every source file, and only files that exist.
. "$(dirname "$0")/lib.sh"
M="$T_TOP/models"

t_expect_success 'every include of a room resolves to itself, a room below it or lib/' '
	rank() { case $1 in wamodel) echo 0;; core) echo 1;; victim|place|select) echo 2;; registry) echo 3;;
		device) echo 4;; host) echo 5;; ftlsim) echo 6;; *) echo 99;; esac; }
	bad=0
	for f in "$M"/*/*.[ch]; do
		room=$(basename "$(dirname "$f")")
		for h in $(sed -n "s/^#include \"\([^\"]*\)\".*/\1/p" "$f"); do
			if [ -f "$(dirname "$f")/$h" ]; then continue; fi
			if [ -f "$T_TOP/lib/$h" ]; then continue; fi
			if [ $room = ftlsim ] && [ -f "$T_TOP/analyzers/$h" ]; then continue; fi
			set -- "$M"/*/"$h"
			[ -f "$1" ] || { echo "# $f: $h found nowhere"; bad=1; continue; }
			to=$(basename "$(dirname "$1")")
			[ "$(rank $to)" -lt "$(rank $room)" ] || { echo "# $f ($room) includes $h ($to)"; bad=1; }
		done
	done
	test $bad = 0
'

t_expect_success 'the core names no concrete policy and no table of them' '
	! grep -n "gc_table\|place_table\|select_table\|_find(\|gc_greedy_ops\|place_single_ops\|select_share_ops" \
		"$M"/core/*.c "$M"/core/*.h | grep -v "policy_find\|pagemap_find" &&
	! grep -n "info\.name, \"" "$M"/core/*.c
'

t_expect_success 'the core holds no spare-share code: the split, its rates and shares, its closed form and its option are the class selector'"'"'s' '
	! grep -n "pool_wa\|share_update\|share_class\|share_next\|quota\|win_dead\|wa_greedy_mf\|wamath\.h\|spare_share" \
		"$M"/core/*.c &&
	! grep -n "quota\|win_dead\|share_next\|double rate" "$M"/core/ftl.h &&
	grep -q "share_update\|split" "$M"/select/select_share.c && grep -q "wa_greedy_mf" "$M"/select/select_share.c
'

t_expect_success 'the placement'"'"'s own victim rule is read from its declared flag (PLACE_VICTIM), not from the hook'"'"'s pointer' '
	! grep -n -- "->victim\([^(_a-z]\|\$\)" "$M"/core/*.c "$M"/registry/*.c | grep -v "!o->victim\|o->victim ?" &&
	grep -q "PLACE_VICTIM" "$M"/place/place_midas.c
'

t_expect_success 'ftlsim reads no member of struct ftl' '
	! grep -n "\->f->\|\bs->f\b\|struct ftl \*[a-z]* = \|ftl_request\|ftl_new(" "$M"/ftlsim/*.c
'

t_expect_success 'each room has a README naming what to copy or what it is' '
	for d in "$M"/*/; do test -s "$d/README.md" || { echo "# $d"; return 1; }; done &&
	grep -q "gc_fifo.c" "$M/victim/README.md" && grep -q "place_sepgc.c" "$M/place/README.md" &&
	grep -q "dev_ftl.c" "$M/device/README.md" && grep -q "host_pass.c" "$M/host/README.md" &&
	grep -q "select_share.c" "$M/select/README.md"
'

t_expect_success 'docs/ARCHITECTURE.md names every source file (but the policies and readers, named by pattern) and only files that exist' '
	A="$T_TOP/docs/ARCHITECTURE.md" && bad=0
	for f in "$T_TOP"/lib/*.[ch] "$T_TOP"/analyzers/*.[ch] "$M"/*/*.[ch] "$T_TOP"/traces/*.c; do
		b=$(basename "$f")
		case $b in rd_*.c | gc_*.c | place_*.c | select_*.c | tracecat.c | tracestat.c) continue ;; esac
		grep -qF -e "$b\`" -e "${b%.?}.[ch]\`" "$A" || { echo "# not named: $f"; bad=1; }
	done
	for n in $(grep -o "\`[a-z_/]\+\.\(c\|h\|\[ch\]\)\`" "$A" | tr -d "\`" | sort -u); do
		b=$(basename "$n" | sed "s/\.\[ch\]\$/.c/")
		[ -n "$(find "$T_TOP/lib" "$T_TOP/analyzers" "$T_TOP/models" "$T_TOP/traces" -name "$b" | head -n 1)" ] ||
			{ echo "# named, absent: $n"; bad=1; }
	done
	test $bad = 0
'

t_done
